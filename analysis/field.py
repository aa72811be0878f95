"""A game's strong field: a population of policies and an equilibrium mixture over it (PSRO).

``balance field GAME`` (and :func:`build_field`) runs policy-space response oracles (Lanctot et
al. 2017), with the toolkit's exploit search as the best-response oracle:

1. the population starts with the game's built-in heuristics and its shipped trained policy;
2. a payoff table plays every pair of members, seats rotated, on common random numbers (a
   member's payoff is its share of all the games played: one that nobody wins pays no seat);
3. a meta-solver turns the table into a mixture: in a two-player game the Nash equilibrium of
   the zero-sum game of win shares (a linear program: the mixture no member of the population
   beats); with more players, replicator dynamics on each member's share against the mixture
   at every other seat (the symmetric game's equilibrium);
4. the oracle (analysis.training.exploit: CMA-ES over a linear policy's weights) trains one seat
   against the mixture seated at every other seat, and its best response joins the population;
5. back to 2, for ``iterations`` rounds.

Why this and not more training against a fixed pool: a policy fitted to a pool is strong against
that pool and can be weak against anything else (docs/training.md has Sunzi's case). A mixture
that the population's best responses no longer beat is robust by construction, and the last
oracle call measures that: the best response found against the final mixture, re-measured on
fresh seeds, is the field's exploitability at the search's budget.
"""
from __future__ import annotations

from dataclasses import dataclass, field as dataclass_field
from pathlib import Path

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from tqdm.auto import tqdm

from sim import __version__
from sim import field as F
from sim import trained as T
from sim.core import mixture
from sim.core.state import MIXTURE, SEARCH_KIND, TRAINED
from sim.errors import RunError
from sim.games import get_game, home
from sim.runner import as_rules, simulate
from sim.strategy import Strategy, lookup

from .stats import wilson
from .training import EXPLOIT_STARTS, exploit, exploit_starts, seat_share, shares

# The exploit search's defaults (balance exploit): a field is measured at no smaller a budget.
ORACLE_GENERATIONS, ORACLE_GAMES = 60, 300


def nash_zero_sum(payoff: np.ndarray) -> np.ndarray:
    """The row player's maximin mixture of the zero-sum matrix game ``payoff`` (a linear
    program: maximise v subject to payoff^T x >= v, x a probability vector)."""
    from scipy.optimize import linprog

    payoff = np.asarray(payoff, float)
    n_rows, n_cols = payoff.shape
    # variables (x_1 .. x_n, v): minimise -v; v - (payoff^T x)_j <= 0 for every column j
    cost = np.r_[np.zeros(n_rows), -1.0]
    upper = np.c_[-payoff.T, np.ones(n_cols)]
    equal = np.r_[np.ones(n_rows), 0.0][None, :]
    bounds = [(0, None)] * n_rows + [(None, None)]
    solution = linprog(cost, A_ub=upper, b_ub=np.zeros(n_cols), A_eq=equal, b_eq=[1.0],
                       bounds=bounds, method="highs")
    if not solution.success:
        raise RunError(f"the meta-game's linear program failed: {solution.message}")
    x = np.clip(solution.x[:n_rows], 0, None)
    return x / x.sum()


def generalist_mixture(table: np.ndarray, tolerance: float) -> np.ndarray:
    """Among the mixtures that no member of a two-player population beats by more than
    ``tolerance`` (a share of 0.5 + tolerance), the one with the highest mean share against the
    whole population (a linear program). The Nash mixture is one of them; when the pair table's
    own noise is as large as ``tolerance``, the data cannot tell them apart, and the one that
    does best against every member, not only the best responses of the moment, leans on the
    members that beat most of the population (docs/training.md measures one such case)."""
    from scipy.optimize import linprog

    if isinstance(tolerance, bool) or not isinstance(tolerance, (int, float)) or not \
            0 <= tolerance < 0.5:
        raise RunError(f"generalist tolerance {tolerance!r} (--final-generalist): give a share "
                       "in [0, 0.5), for example 0.02 (the 95% half-width of a pair table of "
                       "2,000 games)")
    advantage = np.asarray(table, float) - np.asarray(table, float).T  # a draw counts for both
    n = len(advantage)
    solution = linprog(-advantage.mean(axis=1), A_ub=advantage,
                       b_ub=np.full(n, 2.0 * tolerance), A_eq=np.ones((1, n)), b_eq=[1.0],
                       bounds=[(0, None)] * n, method="highs")
    if not solution.success:
        raise RunError(f"the generalist mixture's linear program failed: {solution.message}")
    x = np.clip(solution.x, 0, None)
    return x / x.sum()


def replicator(payoff_of, n_members: int, steps: int = 30, rate: float = 4.0,
               floor: float = 1e-3) -> np.ndarray:
    """Projected replicator dynamics for a symmetric n-player meta-game: ``payoff_of(mix)``
    gives each member's share at one seat against ``mix`` at every other; the mixture moves
    towards the members that do better than its average, and keeps every member above
    ``floor`` (so a member that is only bad against today's mixture is not lost)."""
    mix = np.full(n_members, 1.0 / n_members)
    for _ in range(steps):
        gain = np.asarray(payoff_of(mix), float)
        mix = mix * np.exp(rate * (gain - mix @ gain))
        mix = np.maximum(mix / mix.sum(), floor)
        mix /= mix.sum()
    return mix


def pair_table(game: str, rules, members: list, n_games: int, seed: int, jobs: int = 1,
               known: np.ndarray | None = None) -> np.ndarray:
    """``share[i, j]``: member i's mean share of the win against member j (two players, seats
    rotated, every pair on the same seeds). Cells of ``known`` (a smaller table already played)
    are kept."""
    n = len(members)
    share = np.full((n, n), 0.5)
    done = 0 if known is None else known.shape[0]
    if done:
        share[:done, :done] = known
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n) if j >= done]
    results = Parallel(n_jobs=jobs)(delayed(_pair)(game, rules, members[i], members[j], n_games,
                                                   seed) for i, j in pairs)
    for (i, j), (mine, theirs) in zip(pairs, results):
        share[i, j], share[j, i] = mine, theirs
    return share


def _pair(game, rules, a, b, n_games, seed):
    records = simulate(game, rules, [a, b], n_games, seed=seed, rotate_seats=True,
                       progress=False).records
    return float(seat_share(records, 2, 0).mean()), float(seat_share(records, 2, 1).mean())


def against_mixture(game: str, rules, members: list, mix: np.ndarray, n_games: int, seed: int,
                    jobs: int = 1) -> np.ndarray:
    """Each member's share at one seat against the mixture ``mix`` at every other seat."""
    spec = get_game(game)
    field_seat = mixture_player(spec, members, mix)
    n = rules.n_seats
    out = Parallel(n_jobs=jobs)(delayed(_share_against)(game, rules, m, field_seat, n_games, seed)
                                for m in members)
    return np.asarray(out) * n  # relative to a fair share: 1 = as good as the average seat


def _share_against(game, rules, member, field_seat, n_games, seed):
    records = simulate(game, rules, [member] + [field_seat] * (rules.n_seats - 1), n_games,
                       seed=seed, rotate_seats=True, progress=False).records
    return float(seat_share(records, rules.n_seats, 0).mean())


def mixture_player(spec, members: list, mix, name: str = "field") -> Strategy:
    """A mixture seat over ``members`` (built-in or trained Strategies)."""
    packed = []
    for probability, member in zip(mix, members):
        if member.builtin is None or member.builtin in (MIXTURE, SEARCH_KIND):
            raise RunError(f"a field member must be a built-in or trained strategy, not "
                           f"{member.name!r}")
        packed.append((float(probability), member.builtin, member.params))
    return Strategy(name, builtin=MIXTURE, params=mixture.pack(packed),
                    doc=f"a field of {len(members)} strategies")


# "styles" stands for every style the game declares (analysis.training.style_weights, and
# style_knobs: a built-in whose parameters the search tunes): a search started from a built-in
# of another style reaches lines the other starts do not.
ORACLE_STARTS = ("heuristic", "field", "styles")


def expand_starts(spec, starts) -> list[str]:
    """The oracle starts named, "styles" replaced by the game's styles (those with weights, then
    those with knobs: analysis.training.exploit_starts), each checked."""
    styles = [name for name in exploit_starts(spec) if name not in EXPLOIT_STARTS]
    out = []
    for start in starts:
        for name in (styles if start == "styles" else (start,)):
            if name not in exploit_starts(spec):
                raise RunError(f"oracle start {name!r}: {spec.name} has "
                               f"{', '.join(exploit_starts(spec))} (and styles, all of them)")
            if name not in out:
                out.append(name)
    return out

# What a game that nobody wins counts for in a field's exploitability (the recipe's
# "undecided", build_field's ``undecided``):
# - "apart" (the default): the best response's share and the field seats' are shares of the
#   decided games, and the oracle's fitness is the exploit search's own default;
# - "loss": a game nobody wins is lost by every seat, as the rules have it where every player
#   is routed (Parthian Shot, PS-12/PS-16). Every share is then a win probability over all
#   games, and the oracle maximises its own (relative_to="fair"). Shares of the decided games
#   alone mislead there: a response that wins 26 of the 35 games a rout-bound field leaves
#   decided "wins 74%" while winning 0.7% of its games (docs/training.md), and a deviator
#   can raise its share of the decided games by leaving fewer of them decided. The meta-game
#   needs no switch: its payoffs are already shares of all the games played.
UNDECIDED = ("apart", "loss")


def over_all_games(measured: dict) -> dict:
    """An exploit measure (shares of the decided games, analysis.training.shares) as win
    probabilities over every game played, a game nobody won counting as lost by every seat;
    the decided games' figures are kept beside them (None where no game was decided)."""
    games, decided = measured["games"], int(measured["decided"])
    wins = float(measured["share"]) * decided if decided else 0.0
    low, high = wilson(wins, games)
    kept = {f"decided_{k}": (float(measured[k]) if decided else None)
            for k in ("share", "low", "high", "field")}
    return {**measured, **kept, "share": wins / games, "low": float(low), "high": float(high),
            "field": float(measured["field"]) * decided / games if decided else 0.0}


# How the iterations take the oracle's starts: "rotate" in turn; "leading" the start whose
# last search won most, less a little for every iteration since (STALE_PER_ITERATION), every
# start once first. A start whose responses no longer beat the mixture then rests while the
# families that still win are searched again, and a rested start comes back once the mixture
# has moved (docs/training.md, "Sunzi's tenth field").
SCHEDULES = ("rotate", "leading")
STALE_PER_ITERATION = 0.01


def scheduled_start(usable: list[str], k: int, history, schedule: str) -> str:
    """Iteration k's start under ``schedule`` (SCHEDULES), from the earlier iterations' rows."""
    if schedule == "rotate":
        return usable[k % len(usable)]
    last = {}
    for row in history:
        last[row["oracle_start"]] = (row["iteration"], row["best_response_share"])
    untried = [s for s in usable if s not in last]
    if untried:
        return untried[0]
    return max(usable, key=lambda s: last[s][1] + STALE_PER_ITERATION * (k - last[s][0]))


def best_response(spec, rules, members, mix, starts, every_start: bool, k: int, generations: int,
                  games: int, seed: int, jobs: int, check_games: int, undecided: str = "apart",
                  hidden: int = 0, schedule: str = "rotate", history=()):
    """Iteration k's oracle call against the mixture: the search from one start chosen by
    ``schedule`` from the earlier iterations' ``history`` (the field start only where the
    mixture holds a trained policy to start from), or from every start (``every_start``: the
    final measure), keeping the response that wins most (of the decided games, or of all games
    with ``undecided="loss"``: UNDECIDED says why). ``hidden``: the searched policies' hidden
    units per decision type (analysis.training.train)."""
    if undecided not in UNDECIDED:
        raise RunError(f"undecided={undecided!r}: choose from {', '.join(UNDECIDED)}")
    if schedule not in SCHEDULES:
        raise RunError(f"oracle schedule {schedule!r}: choose from {', '.join(SCHEDULES)}")
    field_seat = mixture_player(spec, members, mix)
    usable = [s for s in expand_starts(spec, starts) if s != "field" or any(
        m.builtin == TRAINED and p > 0 for m, p in zip(members, mix))] or ["heuristic"]
    chosen = usable if every_start else [scheduled_start(usable, k, history, schedule)]
    best = None
    for i, start in enumerate(chosen):
        probe = exploit(spec.name, rules, field=field_seat, generations=generations,
                        games=games, seed=seed + 101 * (k + 1) + 7919 * i, jobs=jobs,
                        check_games=check_games, progress=False, start=start,
                        relative_to="fair" if undecided == "loss" else None,
                        **({"hidden": hidden} if hidden else {}))
        if undecided == "loss":
            probe.measured = over_all_games(probe.measured)
        if best is None or probe.measured["share"] > best.measured["share"]:
            best = probe
    return best


def check_oracle_hidden(hidden) -> None:
    """Refuse a bad hidden-unit count before any table is played (it would only fail at the
    first oracle call otherwise)."""
    if isinstance(hidden, bool) or not isinstance(hidden, (int, np.integer)) or hidden < 0:
        raise RunError(f"oracle hidden units {hidden!r}: give a whole number >= 0, the hidden "
                       "units per decision type of the searched policies (--oracle-hidden)")


def oracle_budget(generations: int, games: int, hidden: int = 0) -> str:
    """How a best response was searched, as the exploitability line quotes it."""
    return f"{generations} x {games}" + (f", {hidden} hidden units" if hidden else "")


def measured_row(measured: dict) -> dict:
    """The figures of a best response's measure that a field's history and file keep."""
    row = {"best_response_share": float(measured["share"]), "low": float(measured["low"]),
           "high": float(measured["high"]), "field_share": float(measured.get("field", np.nan)),
           "decided": int(measured["decided"])}
    row.update({k: measured[k] for k in ("decided_share", "decided_low", "decided_high",
                                         "decided_field") if k in measured})
    return row


@dataclass
class FieldBuild:
    """What :func:`build_field` gives: the population, its mixture and its record."""
    members: list                         # Strategies
    probabilities: np.ndarray
    history: pd.DataFrame                 # one row per PSRO iteration
    exploitability: dict                  # the last best response, re-measured on fresh seeds
    provenance: dict
    table: np.ndarray | None = None       # two players: the pair table of shares
    spec: object = dataclass_field(repr=False, default=None)

    def player(self, name: str = "strong") -> Strategy:
        return mixture_player(self.spec, self.members, self.probabilities, name)

    def member_records(self) -> list[dict]:
        out = []
        for member, probability in zip(self.members, self.probabilities):
            row = {"name": member.name, "probability": round(float(probability), 6)}
            if member.builtin == TRAINED:
                weights = T.weights_of(self.spec, member.params)
                hidden = T.hidden_units(weights.shape[1], T.n_features(self.spec))
                row.update(temperature=float(member.params[0]), **(
                    {"hidden": hidden} if hidden else {}),
                    weights=[[round(float(w), 6) for w in r] for r in weights])
            else:  # a built-in, by name; one a best response tuned (tune_style) with its knobs
                base = next(name for name, s in self.spec.strategies.items()
                            if s.builtin == member.builtin)
                row["strategy"] = base
                if tuple(member.params) != tuple(self.spec.strategies[base].params):
                    row["params"] = [round(float(v), 6) for v in member.params]
            out.append(row)
        return out

    def save(self, path):
        return F.save(path, self.spec, self.member_records(), self.provenance["n_players"],
                      self.provenance["variant"], self.provenance, self.exploitability)


def starting_population(spec, rules) -> list:
    """The built-in heuristics (not random) and the shipped trained policy, where one fits."""
    members = [s for name, s in spec.strategies.items() if name != "random"
               and s.builtin is not None]
    if T.shipped_path(spec, rules.n_seats) is not None:
        members.append(lookup(spec, "trained", rules.n_seats))
    return members


def build_field(game: str, rules=None, iterations: int = 6, oracle_generations: int = ORACLE_GENERATIONS,
                oracle_games: int = ORACLE_GAMES, table_games: int = 2000, check_games: int = 4000,
                seed: int = 0, jobs: int = 1, progress: bool | None = None, start=None,
                run_dir=None, oracle_starts=ORACLE_STARTS, undecided: str = "apart",
                response_budget: tuple[int, int] | None = None,
                oracle_hidden: int = 0, final_generalist: float | None = None,
                oracle_schedule: str = "rotate") -> FieldBuild:
    """PSRO (the module says how): ``iterations`` best responses, then one more best-response
    search against the final mixture at ``oracle_generations`` x ``oracle_games`` (no less than
    ``balance exploit``'s defaults for a shipped field), re-measured over ``check_games`` fresh
    games: the field's exploitability. With ``run_dir`` every oracle's result is kept, and the
    same command resumes; iteration k does not depend on how many follow, so a longer run
    resumes a shorter one's folder.

    ``oracle_starts``: where the oracle's search starts (analysis.training.EXPLOIT_STARTS),
    taken in turn by the iterations, and every one of them for the final measure, whose
    exploitability is the best response found from any start. A search from the heuristic's
    weights and one from the field's own most probable policy reach different lines: a field
    that only one of them probes can be weak against the other (docs/training.md).

    ``undecided``: what a game nobody wins counts for in the exploitability and the oracle's
    fitness, "apart" or "loss" (UNDECIDED says how and why).

    ``response_budget``: (generations, games) of the iterations' own oracles, when smaller than
    the final measure's. A response only has to beat today's mixture to teach the meta-game
    something, and a game of many styles needs many iterations; the exploitability is still
    the final search at ``oracle_generations`` x ``oracle_games``.

    ``oracle_hidden``: hidden units per decision type of every oracle's policy (sim/core/
    policy.py), so that the best responses, the members they add and the exploitability search
    reach lines a linear scorer cannot play.

    ``oracle_schedule``: how the iterations take the starts (SCHEDULES): in turn, or the one
    leading so far; the final measure searches from every start either way.

    ``final_generalist`` (two players): the shipped mixture is not the last Nash mixture but
    :func:`generalist_mixture` of the final table with that tolerance; the iterations are
    PSRO's as ever, and the exploitability is measured against the mixture shipped."""
    import pickle

    if undecided not in UNDECIDED:
        raise RunError(f"undecided={undecided!r}: choose from {', '.join(UNDECIDED)}")
    if response_budget is not None and (len(response_budget) != 2 or any(
            isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1
            for v in response_budget)):
        raise RunError(f"response budget {response_budget!r}: give two positive whole numbers, "
                       "generations and games (--response-budget 30 200)")
    check_oracle_hidden(oracle_hidden)
    if oracle_schedule not in SCHEDULES:
        raise RunError(f"oracle schedule {oracle_schedule!r}: choose from {', '.join(SCHEDULES)}")
    spec = get_game(game)
    rules = as_rules(spec, rules)
    n = rules.n_seats
    if final_generalist is not None:
        generalist_mixture(np.zeros((1, 1)), final_generalist)  # refuse a bad tolerance now
        if n != 2:
            raise RunError("a generalist mixture (final_generalist) is for two-player games: "
                           f"{spec.title} has {n} seats here")
    members = list(start) if start is not None else starting_population(spec, rules)
    if not members:
        raise RunError(f"{spec.title} has no built-in or trained strategy to start a field from")
    store = None
    if run_dir is not None:
        from sim.checkpoint import RunDir
        from sim.runner import run_inputs
        from sim.strategy import resolve_seats

        request = {"command": "field", "game": spec.name, "variant": rules.to_dict(),
                   "start": [str(m) for m in members], "oracle_generations": oracle_generations,
                   "oracle_games": oracle_games, "table_games": table_games,
                   "check_games": check_games, "seed": seed, "version": __version__,
                   "oracle_starts": list(oracle_starts),
                   # only when set: the default keeps the folders of earlier runs valid
                   **({"undecided": undecided} if undecided != "apart" else {}),
                   **({"response_budget": list(response_budget)} if response_budget else {}),
                   **({"oracle_hidden": int(oracle_hidden)} if oracle_hidden else {}),
                   **({"oracle_schedule": oracle_schedule} if oracle_schedule != "rotate"
                      else {}),
                   **run_inputs(rules, resolve_seats(spec, members, len(members)))}
        store = RunDir(run_dir, json_safe(request))
    history, table = [], None

    def budget(k):
        final = (oracle_generations, oracle_games)
        return final if k == iterations or not response_budget else tuple(response_budget)

    bar = tqdm(total=iterations + 1, desc=f"field {spec.name}", unit="oracle",
               disable=not progress)
    for k in range(iterations + 1):
        # The final measure (every start) is kept apart from iteration k's oracle (one start),
        # so a run resumed with more or fewer iterations takes each from what it really is.
        key = f"final-{k:03d}" if k == iterations else f"oracle-{k:03d}"
        if k == iterations and final_generalist is not None:  # the iterations stay shared
            key += f"-generalist-{final_generalist:g}"
        kept = store.load_bytes(key) if store is not None else None
        if kept is not None:
            mix, table, row, response = pickle.loads(kept)
        else:
            if n == 2:
                table = pair_table(spec.name, rules, members, table_games, seed + 7, jobs, table)
                mix = (generalist_mixture(table, final_generalist)
                       if k == iterations and final_generalist is not None
                       else nash_zero_sum(table - table.T))
            else:
                mix = replicator(lambda m: against_mixture(spec.name, rules, members, m,
                                                           table_games, seed + 7, jobs),
                                 len(members))
            probe = best_response(spec, rules, members, mix, oracle_starts, k == iterations,
                                  k, *budget(k), seed, jobs, check_games,
                                  undecided, oracle_hidden, oracle_schedule, history)
            row = {"iteration": k, "members": len(members),
                   "oracle_start": probe.training.provenance["exploit_start"],
                   **measured_row(probe.measured),
                   "mixture": " ".join(f"{m.name}={p:.2f}" for m, p in zip(members, mix)
                                       if p >= 0.005)}
            response = probe.training.player(f"response {k + 1}")
            if store is not None:
                store.save_bytes(key, pickle.dumps((mix, table, row, response)))
        history.append(row)
        bar.update(1)
        if k < iterations:
            members.append(response)
    bar.close()
    final = history[-1]
    exploitability = {
        **{k: v for k, v in final.items() if k in ("best_response_share", "low", "high",
                                                  "field_share", "decided")
           or k.startswith("decided_")},
        "games": check_games, "oracle": oracle_budget(oracle_generations, oracle_games,
                                                      oracle_hidden),
        "undecided": undecided,
        "line": exploit_line({**final, "games": check_games}, oracle_generations,
                             oracle_games, oracle_hidden)}
    provenance = {"game": spec.name, "variant": rules.to_dict(), "n_players": n,
                  "method": "PSRO: exploit-search best responses; meta-solver "
                            + ("Nash of the zero-sum share game (linear program)" if n == 2
                               else "replicator dynamics on shares against the mixture"),
                  "iterations": iterations, "oracle_generations": oracle_generations,
                  "oracle_games": oracle_games, "table_games": table_games, "seed": seed,
                  **({"response_budget": list(response_budget)} if response_budget else {}),
                  **({"oracle_hidden": int(oracle_hidden)} if oracle_hidden else {}),
                  **({"oracle_schedule": oracle_schedule} if oracle_schedule != "rotate"
                     else {}),
                  **({"final_mixture": f"generalist, tolerance {final_generalist:g}"}
                     if final_generalist is not None else {}),
                  "oracle_starts": list(oracle_starts), "undecided": undecided,
                  "start": [m.name for m in members[:len(members) - iterations]],
                  "version": __version__}
    return FieldBuild(members, mix, pd.DataFrame(history), exploitability, provenance, table, spec)


def history_path(path):
    """Where a field file's PSRO history goes: beside it, ``<name>.field-history.csv``."""
    from pathlib import Path

    path = Path(path)
    return path.with_name(path.name.removesuffix(".json") + "-history.csv")


json_safe = F.as_json   # a request or rule options as JSON holds them (tuples as lists)


def exploit_line(row: dict, generations: int, games: int, hidden: int = 0) -> str:
    """The sentence a report prints beside the strong rung."""
    searched = f"{generations} x {games} (generations x games" + (
        f", policies with {hidden} hidden units)" if hidden else ")")
    if "decided_share" in row:  # undecided="loss": win probabilities over every game
        decided = (f"{row['decided']:,} of {row['games']:,} games decided" if row["decided"]
                   else f"none of {row['games']:,} games decided")
        if row["decided"]:
            decided += (f", of which it wins {row['decided_share']:.1%} and the field's seats "
                        f"{row['decided_field']:.1%}")
        return (f"exploitability: the best response found wins {row['best_response_share']:.1%} "
                f"({row['low']:.1%} to {row['high']:.1%}) of its games against the field, whose own "
                f"seats win {row['field_share']:.1%} (a game nobody wins is lost by every seat; "
                f"{decided}), at {searched}")
    return (f"exploitability: the best response found wins {row['best_response_share']:.1%} "
            f"({row['low']:.1%} to {row['high']:.1%}) of the decided games against the field, "
            f"whose own seats win {row['field_share']:.1%}, at {searched}")


def tuned_heldout_line(game: str, n_players: int, share: tuple, field: float, who: str,
                       over_all_games: bool = False) -> str:
    """A multi-player recipe's caveat (a measure the build cannot repeat): the held-out player
    with the best margin, tuned against the field (heldout.tune: 60 settings x 600 games, the
    best re-measured on 4,000 fresh games), its share (percent, with its Wilson 95% interval:
    share, low, high) and the field seats' mean share in the same games."""
    mine, low, high = share
    games = "all 4,000 fresh games" if over_all_games else "4,000 fresh games"
    return (f"Held-out players written from the rules and tuned against this field (`python -m "
            f"heldout.tune {game} strong --player NAME --players {n_players}`, 60 settings): "
            f"the best margin over the field's seats is {mine - field:+.1f} points ({who}: "
            f"{mine:.1f}% ({low:.1f}%-{high:.1f}%) of {games} against the field seats' "
            f"{field:.1f}%)")


def field_recipe(game: str, n_players: int | None = None, rules=None) -> dict | None:
    """How the game's shipped fields are built: its study's FIELD (players, iterations, the
    oracle's budget, table games, seed, and optionally ``start``, the strategy names the
    population starts from, and ``undecided``, what a game nobody wins counts for:
    UNDECIDED); ``FIELD["per_players"][n]`` changes some of them for n players, and
    ``FIELD["variants"][tag]`` for the variant whose ``options`` ``rules`` plays (recipe_variants:
    the shipped <game>[-<n>p].<tag>.field.json)."""
    from .studies import study_of

    plan = study_of(game).field
    if plan is None:
        return None
    plan = dict(plan)
    variants = plan.pop("variants", {})
    plan.update(plan.pop("per_players", {}).get(n_players, {}))
    if rules is not None:
        here = json_safe(rules.to_dict())
        for change in variants.values():
            if all(here.get(k) == json_safe(v) for k, v in change["options"].items()):
                plan.update({k: v for k, v in change.items() if k != "options"})
    return plan


def recipe_variants(game: str) -> dict:
    """tag -> the rule options of each variant the game's recipe ships a field of its own for
    (FIELD["variants"]): a field built in the default variant loses in another (docs/
    training.md, "The field in advanced mode")."""
    from .studies import study_of

    plan = study_of(game).field or {}
    return {tag: dict(change["options"]) for tag, change in plan.get("variants", {}).items()}


def recipe_start(game: str, rules, plan: dict) -> list | None:
    """The population a recipe's field starts from: its ``start`` names; with ``"from":
    "strong"`` (a variant's recipe) the members of the fields near it, as ``balance field -o
    ... --from strong`` starts (warm_start); None: every built-in heuristic and the shipped
    policy (starting_population)."""
    if plan.get("from"):
        return warm_start(game, rules, plan["from"])
    spec = get_game(game)
    start = plan.get("start")
    return None if start is None else [lookup(spec, name, rules.n_seats, rules) for name in start]


def build_from_recipe(game: str, rules, plan: dict, jobs: int = 1,
                      progress: bool | None = None, run_dir=None) -> FieldBuild:
    start = recipe_start(game, rules, plan)
    return build_field(game, rules, iterations=plan.get("iterations", 6),
                       oracle_generations=plan.get("oracle_generations", ORACLE_GENERATIONS),
                       oracle_games=plan.get("oracle_games", ORACLE_GAMES),
                       table_games=plan.get("table_games", 2000), seed=plan.get("seed", 0),
                       jobs=jobs, progress=progress, start=start, run_dir=run_dir,
                       oracle_starts=tuple(plan.get("oracle_starts", ORACLE_STARTS)),
                       undecided=plan.get("undecided", "apart"),
                       response_budget=plan.get("response_budget"),
                       oracle_hidden=plan.get("oracle_hidden", 0),
                       final_generalist=plan.get("final_generalist"),
                       oracle_schedule=plan.get("oracle_schedule", "rotate"))


def regenerate_shipped(games=None, jobs: int = 1, progress: bool = True, out=None,
                       run_dir=None) -> list:
    """``balance field --shipped``: rebuild every shipped field from its game's recipe (with
    ``run_dir``, each variant keeps its oracles in a folder of its own there)."""
    from pathlib import Path

    from sim.games import game_names

    written = []
    for game in games or game_names():
        if field_recipe(game) is None:
            continue
        spec = get_game(game)
        for n in field_recipe(game).get("players", (None,)):
            count = {"n_players": n} if n is not None and \
                "n_players" in spec.rules_class.options() else {}
            for tag, options in [(None, {})] + list(recipe_variants(game).items()):
                rules = as_rules(spec, {**count, **options} or None)
                plan = field_recipe(game, n, rules)
                name = (f"{game}-{n}p" if n is not None else game) + (f".{tag}" if tag else "")
                build = build_from_recipe(game, rules, plan, jobs, progress,
                                          None if run_dir is None else Path(run_dir) / name)
                written.append(save_from_recipe(build, plan, Path(out) if out is not None
                                                else home(spec).policies, name + F.SUFFIX))
    return written


def save_from_recipe(build: FieldBuild, plan: dict, folder, name: str):
    """Write a field the recipe ``plan`` built, with the recipe's caveat (a measure the build
    cannot repeat: held-out players) and its exact measure where the game has one."""
    from pathlib import Path

    if plan.get("caveat"):
        build.exploitability.update(caveat=plan["caveat"], line=(
            f"{build.exploitability['line']}. {plan['caveat']}"))
    path = build.save(Path(folder) / name)
    if "exact" in plan:  # a game whose truth is known: its own measure leads the line
        value, what = plan["exact"](path)
        build.exploitability.update(exact=value, line=f"{what} {value:.4f}; "
                                    f"{build.exploitability['line']}")
        path = build.save(path)
    build.history.to_csv(history_path(path), index=False)
    return path


# A field fitted to a variant from the nearest one (``balance field GAME -o ... --from strong``):
# the nearest field's support starts the population, so a few best responses move it to the
# variant's own equilibrium; the exploitability is still measured at the full budget, from
# every start the game's recipe names (a search from the start weights alone found 24% against
# Sunzi's warlord field, where its styles' knobs find twice that in the default variant).
WARM_START = {"iterations": 12, "response_budget": (20, 200), "table_games": 1000}


def field_members(spec, path) -> tuple[list[Strategy], np.ndarray]:
    """A field file's members as strategies, and their probabilities."""
    body = F.load(path, spec)
    members = [Strategy(m.get("name", m.get("strategy", "member")), builtin=kind, params=params)
               for m, (_, kind, params) in zip(body["members"], F.members_of(spec, body))]
    return members, np.array([m["probability"] for m in body["members"]], float)


def warm_start(game: str, rules, source: str = "strong") -> list[Strategy]:
    """The population a variant's field starts from: the members every near field plays
    (``strong``: each field that may play this variant, sim.field.nearest_fields; or a field
    file). Two fields can be equally near (Sunzi's warlord and advanced fields for a warlord
    advanced game), and a start from the wrong one lost: PSRO keeps what the variant needs."""
    spec = get_game(game)
    rules = as_rules(spec, rules)
    paths = [source] if source != "strong" else [   # never from the variant's own field
        p for p in F.nearest_fields(spec, rules.n_seats, rules)
        if F.variant_of(spec, p) != F.variant_of_rules(spec, rules)]
    if not paths:
        raise RunError(f"no strong {spec.title} field at {rules.n_seats} players to start "
                       f"from; build one with `balance field {spec.name}`")
    start, seen = [], set()
    for path in paths:
        members, mix = field_members(spec, path)
        for member, p in zip(members, mix):
            key = (member.builtin, tuple(member.params))
            if p > 0 and key not in seen:
                seen.add(key)
                name = member.name if len(paths) == 1 else \
                    f"{Path(path).name.removesuffix(F.SUFFIX)}: {member.name}"
                start.append(Strategy(name, builtin=member.builtin, params=member.params))
    return start


def measure_field(game: str, rules, path, oracle_generations: int = ORACLE_GENERATIONS,
                  oracle_games: int = ORACLE_GAMES, check_games: int = 4000, seed: int = 0,
                  jobs: int = 1, progress: bool | None = None,
                  oracle_starts=ORACLE_STARTS, undecided: str | None = None,
                  oracle_hidden: int = 0, member_games: int = 0) -> dict:
    """A field file's exploitability, measured anew: a best-response search from every start
    at the budget given (never smaller than ``balance exploit``'s by default) on seeds of its
    own; the response that wins most is the measure. ``undecided`` (UNDECIDED): by default as
    the file was built. ``oracle_hidden``: hidden units of the searched policies (a richer
    class of best responses than the linear one). With ``member_games`` the result's
    "members" lists that response against each member alone (member_shares)."""
    if isinstance(member_games, bool) or not isinstance(member_games, (int, np.integer)) \
            or member_games < 0:
        raise RunError(f"member games {member_games!r}: give a whole number >= 0 (0 skips the "
                       "member table)")
    check_oracle_hidden(oracle_hidden)
    spec = get_game(game)
    rules = as_rules(spec, rules)
    body = F.load(path, spec, rules.n_seats)
    members, mix = field_members(spec, path)
    if undecided is None:
        undecided = (body.get("provenance") or {}).get("undecided", "apart")
    probe = best_response(spec, rules, members, mix, oracle_starts, True, 0, oracle_generations,
                          oracle_games, seed + 876, jobs, check_games, undecided, oracle_hidden)
    row = {**measured_row(probe.measured), "games": check_games,
           "oracle": oracle_budget(oracle_generations, oracle_games, oracle_hidden), "seed": seed,
           "undecided": undecided, "oracle_start": probe.training.provenance["exploit_start"]}
    row["line"] = exploit_line(row, oracle_generations, oracle_games, oracle_hidden)
    if member_games:
        row["members"] = member_shares(spec, rules, probe.training.player("best response"),
                                       path, member_games, seed + 877, undecided)
    return row


def member_shares(spec, rules, response: Strategy, path, n_games: int, seed: int,
                  undecided: str = "apart") -> list[dict]:
    """``response`` against each member of the field file at ``path`` seated alone at every
    other seat (sim.strategy.field_members), on the same fresh games: which members a best
    response beats. The field's share is their probability-weighted mean, so a brittle member
    shows here and not in the field's one figure. Shares as the exploitability's
    (``undecided``)."""
    from sim.strategy import field_members

    n = rules.n_seats
    rows = []
    for probability, seat in field_members(spec, f"strong:{path}", n):
        measured = shares(spec, rules, [response] + [seat] * (n - 1), n_games, seed)
        if undecided == "loss":
            measured = over_all_games(measured)
        rows.append({"member": seat.name, "probability": float(probability),
                     **{k: float(measured[k]) for k in ("share", "low", "high")},
                     "decided": int(measured["decided"])})
    return rows


# --- the search against the field (issue 61, item 6) --------------------------------------------
SEARCH_GAMES = 400      # games of the search-against-field measure: its share known to about +-5 pp
SEARCH_SEED = 61_000


def search_path(field_path: Path) -> Path:
    """Where the search-against-field measure of a field file is kept: beside it."""
    return Path(field_path).with_name(Path(field_path).name.replace(".field.json", ".search.json"))


def search_against_field(game, rules=None, n_games: int = SEARCH_GAMES, budget: int | None = None,
                         seed: int = SEARCH_SEED, path=None) -> dict:
    """The search player with the field as its rollouts (``ismcts:rollout=strong`` at its
    default budget, or ``budget``) against the field, seats rotated every game: its share of the
    decided games with its Wilson interval (a 2-player game). How far a few hundred rollouts
    per decision lift the field's own play is how much strength the field leaves on the table
    (search distilled into the field should close it). Written beside the field (search_path)
    when ``path`` names the field file."""
    import json

    spec = get_game(game)
    rules = as_rules(spec, rules)
    if rules.n_seats != 2:
        raise RunError(f"the search-against-field measure is for 2-player games; this variant "
                       f"of {spec.title} seats {rules.n_seats}")
    search = "ismcts:rollout=strong" + (f",budget={budget}" if budget else "")
    measured = shares(spec, rules, [search, "strong"], n_games, seed)
    label = lookup(spec, search, 2, rules).name
    record = {"share": float(measured["share"]), "low": float(measured["low"]),
              "high": float(measured["high"]), "games": int(measured["games"]),
              "decided": int(measured["decided"]), "search": search, "player": label,
              "seed": seed, "version": __version__, "variant": json_safe(rules.to_dict())}
    if path is not None:
        search_path(path).write_text(json.dumps(record, indent=1) + "\n")
    return record


def search_line(field_path) -> str:
    """The recorded search-against-field measure of a field file, in one sentence, or ""."""
    import json

    found = search_path(field_path)
    if not found.is_file():
        return ""
    r = json.loads(found.read_text())
    return (f"The search with the field as its rollouts ({r['player']}) wins {r['share']:.1%} "
            f"({r['low']:.1%} to {r['high']:.1%}) of {r['decided']:,} decided games against it "
            f"(seed {r['seed']}; `balance field GAME --search` re-measures it).")
