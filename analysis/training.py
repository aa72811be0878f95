"""Training a game's linear policy (sim/core/policy.py) with evolution strategies.

``balance train GAME`` (and :func:`train`) runs CMA-ES (the ``cmaes`` package) over the policy's
weights, one weight per (decision type, feature). A candidate's fitness is its share of the wins
against a pool, relative to a fair share, through a logarithm (its worst tables count most;
``fitness``) and averaged over the pool's tables:

- in a 2-player game, one table per opponent (each built-in heuristic and, as training goes, the
  policy of earlier generations: self-play against the past);
- in a multi-player game, the candidate at one seat among each heuristic filling the others, and
  at a mixed table of all of them.

Every table is played with the seats rotated (every strategy at every seat equally often) and
every candidate of a generation plays the same games (common random numbers: the same seeds),
so the comparisons inside a generation are paired and far less noisy than the raw win rates.
A held-out opponent (``hold_out``) is never trained against: the final check measures it.

Every ``check_every`` generations the current mean is measured against a fixed yardstick (the
first opponent: the best heuristic) on fresh seeds, with its Wilson interval: the learning
curve. The run is deterministic for a seed at any ``jobs`` (each evaluation is a seeded batch)
and, with ``run_dir``, resumes after the last finished generation.
"""
from __future__ import annotations

import contextvars
import hashlib
import pickle
import time
import zlib
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from tqdm.auto import tqdm

from sim import __version__
from sim import trained as T
from sim.strategy import Strategy, resolve_seats, trained_player
from sim.errors import BalanceError, RunError
from sim.games import get_game
from sim.runner import as_rules, run_inputs, simulate

from .stats import wilson


@dataclass
class Training:
    """What a training run gives: the weights, its learning curve and its provenance."""
    weights: np.ndarray                 # float64[decision types, features]
    history: pd.DataFrame               # one row per generation
    provenance: dict
    spec: object = field(repr=False, default=None)
    temperature: float = 0.0
    style: str | None = None            # a tuned built-in: weights are its parameters

    def player(self, name: str = "trained"):
        if self.style is not None:
            return self.spec.strategies[self.style].with_params(*self.weights, name=name)
        return trained_player(self.spec, self.weights, name, self.temperature)

    def save(self, path):
        rules = self.provenance["variant"]
        if self.style is not None:  # not a policy file: the built-in and its tuned parameters
            import json
            from pathlib import Path
            body = {"format": "balance-tuned-style/1", "game": self.spec.name,
                    "strategy": self.style, "params": [float(v) for v in self.weights],
                    "provenance": self.provenance}
            Path(path).write_text(json.dumps(body, indent=1, default=str) + "\n")
            return Path(path)
        return T.save(path, self.spec, self.weights, self.provenance["n_players"], rules,
                      self.provenance, self.temperature)


@contextmanager
def on_cluster(address: str, jobs: int):
    """Run training's parallel steps (each generation's candidates, PSRO's tables and oracles)
    on a dask.distributed cluster, as ``simulate --dask`` runs its chunks: ``address`` is
    "local" or a scheduler's (sim.runner.dask_client). Yields the worker count to pass as
    ``jobs``. Every task is seeded by what it computes, not by where it runs, so the results
    are the same as with local processes (tests/engine/test_dask.py)."""
    from joblib import parallel_config

    from sim.runner import _dask_width, dask_client

    with dask_client(address, jobs if jobs > 1 else None):
        with parallel_config(backend="dask", n_jobs=-1):
            yield max(jobs, _dask_width())


def seat_share(records: pd.DataFrame, n_seats: int, slot: int = 0) -> np.ndarray:
    """Per game, the share of the win of the strategy in slot ``slot`` of a rotated batch
    (game g seats slot (s + g) mod N at seat s, so the slot sits at seat (slot - g) mod N)."""
    wins = records[[f"win_{s}" for s in range(n_seats)]].to_numpy(float)
    seats = (slot - records["rotation"].to_numpy()) % n_seats
    return wins[np.arange(len(records)), seats]


def tables(candidate, opponents: list, n_seats: int) -> list[list]:
    """The lineups a candidate is measured at (the candidate in slot 0)."""
    if n_seats == 2:
        return [[candidate, o] for o in opponents]
    lineups = [[candidate] + [o] * (n_seats - 1) for o in opponents]
    if len(opponents) > 1:
        lineups.append([candidate] + [opponents[s % len(opponents)] for s in range(n_seats - 1)])
    return lineups


FLOOR = 0.05

# exploit(should_stop=...)'s hook, asked between generations, tables and check batches of the
# searches it runs (a context variable, so that train and tune_style need no argument; with
# jobs > 1 the tables play in other processes and only the generations ask).
_SHOULD_STOP: contextvars.ContextVar = contextvars.ContextVar("exploit_should_stop", default=None)


def _stop_point() -> None:
    from .workbench.precision import stop_point

    stop_point(_SHOULD_STOP.get())


def _rotated_records(spec, rules, lineup, n_games: int, seed: int) -> pd.DataFrame:
    """``simulate(..., rotate_seats=True).records``; under exploit's stop hook played in pieces
    of about PIECE_SECONDS that ask it (the same games and table, a bounded wait for a stop)."""
    should_stop = _SHOULD_STOP.get()
    if should_stop is None:
        return simulate(spec, rules, lineup, n_games, seed=seed, rotate_seats=True,
                        progress=False).records
    from .workbench.precision import PIECE_SECONDS, play_pieces

    return pd.concat([part.records for part in play_pieces(
        spec, rules, lineup, n_games, seed, seconds=PIECE_SECONDS, should_stop=should_stop,
        rotate_seats=True, progress=False)], ignore_index=True)


FITNESS = ("fair", "field")
FIELD_CAP = float(np.log(1.25))


def fitness(game: str, rules, candidate, opponents: list, n_games: int, seed: int,
            relative_to: str = "fair") -> float:
    """The mean over the candidate's tables of log(FLOOR + its win share over a fair share).

    The logarithm makes the training care most about its worst tables: doubling a share it
    barely wins gains as much as doubling one it already wins twice over, so a policy cannot
    buy a sure win against a weak opponent with a loss against a strong one.

    ``relative_to="field"`` divides by the other seats' mean share in the same games instead
    (log((FLOOR + n share) / (FLOOR + n field))). It is for games some of whose tables nobody
    can win, where the best a seat can do is a game that no one wins (docs/training.md has
    one: a search with a perfect model of the table finds nothing better): only a fitness that
    counts the others' wins tells denying them from losing to them. A table won at
    a quarter over the field's share counts no more (FIELD_CAP): the goal is to beat every
    table, and without the cap a sure win against a weak table buys a loss against another."""
    if relative_to not in FITNESS:
        raise RunError(f"fitness relative to {relative_to!r}: choose from {', '.join(FITNESS)}")
    spec = get_game(game)
    n = rules.n_seats
    values = []
    for k, lineup in enumerate(tables(candidate, opponents, n)):
        records = _rotated_records(spec, rules, lineup, n_games, seed + k)
        mine = seat_share(records, n).mean()
        value = np.log(FLOOR + mine * n)
        if relative_to == "field":
            total = records[[f"win_{s}" for s in range(n)]].to_numpy(float).sum(axis=1).mean()
            value = min(value - np.log(FLOOR + (total - mine) / (n - 1) * n), FIELD_CAP)
        values.append(value)
    return float(np.mean(values))


def measure(game: str, rules, candidate, opponent, n_games: int, seed: int) -> dict:
    """The candidate's share of the won games against ``opponent`` (filling every other seat),
    with its Wilson interval, on seeds of its own. Games nobody wins (Parthian Shot's rout of
    every player, a capped game) count apart: at a table where nobody ever wins, no strategy
    is better than another, and the share is undefined (NaN)."""
    spec = get_game(game)
    return shares(spec, rules, [candidate] + [opponent] * (rules.n_seats - 1), n_games, seed)


def shares(spec, rules, lineup, n_games: int, seed: int) -> dict:
    n = rules.n_seats
    records = _rotated_records(spec, rules, lineup, n_games, seed)
    share = seat_share(records, n)
    total = records[[f"win_{s}" for s in range(n)]].to_numpy(float).sum(axis=1)
    decided = total > 0
    if not decided.any():
        return {"share": np.nan, "low": np.nan, "high": np.nan, "fair": 1 / n, "field": np.nan,
                "games": len(share), "decided": 0}
    low, high = wilson(share[decided].sum(), int(decided.sum()))
    # The other seats' mean share in the same games: in a team game (a shared win counts for
    # every winner) 1/n is not what an average seat gets, the field is.
    field = float(((total - share)[decided] / (n - 1)).mean())
    return {"share": share[decided].mean(), "low": low, "high": high, "fair": 1 / n,
            "field": field, "games": len(share), "decided": int(decided.sum())}


def _generation_seed(seed: int, generation: int) -> int:
    return zlib.crc32(f"{seed}/{generation}".encode()) * 1000


def cma_search(optimizer, generations: int, seed: int, jobs: int, evaluate, store=None,
               desc: str = "search", progress: bool = False, after=None, kept=None):
    """The ask-tell loop every search here shares (:func:`train`, :func:`tune_style`): each
    generation reseeds the optimizer from (seed, generation) and scores its candidates with
    ``evaluate(parallel, candidates, generation_seed)``, all of them on the same games (common
    random numbers), so a run is the same at any ``jobs``. ``after(generation, mean, row)`` may
    add to the generation's history row and to ``kept``, a list the next generations read (a
    pool of past policies): it is saved with the optimizer, so a run resumed from ``store``
    (a RunDir) after its last finished generation draws and plays what a whole one would.
    Returns the optimizer and the history, a row per generation."""
    kept = [] if kept is None else kept
    history, done = [], 0
    if store is not None:
        finished = sorted(n for n in store.names() if n.startswith("generation-"))
        if finished:
            optimizer, history, saved, done = pickle.loads(store.load_bytes(finished[-1]))
            kept[:] = saved
    bar = tqdm(total=generations, initial=done, desc=desc, unit="gen", disable=not progress)
    # no backend named: local processes, or a Dask cluster's workers inside on_cluster()
    with Parallel(n_jobs=jobs, backend=None if jobs != 1 else "sequential") as parallel:
        for generation in range(done, generations):
            _stop_point()
            start_time = time.perf_counter()
            gen_seed = _generation_seed(seed, generation)
            optimizer.reseed_rng(gen_seed % 2**32)  # a resumed run draws what a whole one would
            candidates = [optimizer.ask() for _ in range(optimizer.population_size)]
            scores = evaluate(parallel, candidates, gen_seed)
            optimizer.tell([(c, -s) for c, s in zip(candidates, scores)])
            # Through a pickle every generation, as a resumed run's state is: cmaes stores its
            # covariance as one triangle, which rounds the last bits of an unpickled one.
            optimizer = pickle.loads(pickle.dumps(optimizer))
            row = {"generation": generation + 1, "best_fitness": max(scores),
                   "mean_fitness": float(np.mean(scores)), "sigma": float(optimizer._sigma)}
            if after is not None:
                after(generation + 1, optimizer.mean, row)
            row["seconds"] = time.perf_counter() - start_time
            history.append(row)
            if store is not None:
                store.save_bytes(f"generation-{generation + 1:05d}",
                                 pickle.dumps((optimizer, history, kept, generation + 1)))
            bar.update(1)
    bar.close()
    return optimizer, pd.DataFrame(history)


def train(game: str, rules=None, opponents=None, hold_out=None, generations: int = 40,
          population: int | None = None, games: int = 200, seed: int = 0, jobs: int = 1,
          run_dir=None, progress: bool | None = None, sigma: float = 0.5, start=None,
          check_every: int = 5, check_games: int = 1000, pool_every: int = 10,
          objective=None, temperature: float = 0.0, decisions=None,
          relative_to: str = "fair", features: int | None = None, hidden: int = 0,
          hidden_decisions=None) -> Training:
    """Train the game's policy (the module says how); returns a :class:`Training`.

    opponents : strategies to train against (default: the game's built-ins but random and the
        held-out one); the first is the learning curve's yardstick.
    hold_out : a built-in never trained against, measured at the end.
    start : initial weights (default: the game's ``START_WEIGHTS``, else zeros).
    objective : instead of playing, a function of the weights (decision types x features) to
        maximise, e.g. minus Kuhn poker's exact exploitability (games/kuhn/study).
    temperature : the trained policy's temperature (0: the best action; > 0: softmax).
    decisions : names of the decision types to train (default all); the others keep their start
        weights, as do the weights the game's ``TRAINABLE`` mask (games/<game>/strategies.py) leaves
        out: features a decision type never fills, or decisions a mode never asks, would only
        add dimensions that CMA-ES searches for nothing.
    features : train only the first ``features`` slots of every type; the rest keep their start
        weights. A recipe pins it when the game added slots after its policy was trained, so that
        the recipe still regenerates the shipped file (the new slots start at 0 and stay there).
    hidden : hidden units per decision type (sim/core/policy.py) added to a linear start, which
        they leave unchanged until trained (``trained.widen``); 0 keeps the start's own (none
        for a linear one). A unit's inputs train where its type's features do.
    hidden_decisions : names of the decision types whose units train (default: the game's
        ``HIDDEN_DECISIONS`` in its strategies module, else every trainable one): each unit adds
        features + 2 dimensions, so a game with many decision types gives units only where the
        play is decided.

    relative_to : what a share is measured against in the fitness: "fair" (1/n) or "field" (the
        other seats' share in the same games; :func:`fitness`).
    """
    import cmaes

    spec = get_game(game)
    rules = as_rules(spec, rules)
    n_features = T.n_features(spec)
    if n_features == 0:
        raise RunError(f"{T.no_features(spec)}: it cannot be trained yet")
    n_types = len(spec.decision_names or ("decision",))
    if hold_out is not None and hold_out not in spec.strategies:
        raise RunError(f"held-out strategy {hold_out!r} is not a {spec.title} built-in; choose "
                       f"one of {', '.join(spec.strategies)}")
    given_opponents = opponents is not None
    if opponents is None:
        opponents = [name for name in spec.strategies if name not in ("random", hold_out)]
    opponents = list(opponents) or ["random"]
    if hold_out is not None and hold_out in opponents:
        raise RunError(f"{hold_out!r} cannot be both an opponent and held out")
    # every opponent read now (a policy or field file, an agent's module): a bad one is refused
    # before the first generation; the files they read key a run folder
    plans = [resolve_seats(spec, opponent, rules.n_seats, rules) for opponent in opponents]
    if objective is not None and given_opponents:
        raise RunError(f"this {spec.title} training maximises an objective "
                       f"({getattr(objective, '__qualname__', objective)}) and plays no "
                       f"opponents; drop the opponents given ({', '.join(map(_named, opponents))}"
                       "; --against)")
    mean = np.zeros((n_types, n_features))
    if start is not None:
        mean = np.asarray(start, float).reshape(n_types, -1)
    else:
        guess = getattr(T._strategies_module(spec), "START_WEIGHTS", None)
        if guess is not None:
            mean = np.asarray(guess, float).reshape(n_types, n_features)
    names = list(spec.decision_names or ("decision",))
    free = np.asarray(getattr(T._strategies_module(spec), "TRAINABLE",
                              np.ones((n_types, n_features), bool)),
                      bool).reshape(n_types, n_features).copy()
    if decisions is not None:
        free &= _decision_rows(names, decisions, spec)[:, None]
    if features is not None:
        if isinstance(features, bool) or not 0 < features <= n_features:
            raise RunError(f"features={features!r}: train the first 1 to {n_features} feature "
                           f"slots of {spec.title}")
        free[:, int(features):] = False
    if isinstance(hidden, bool) or not isinstance(hidden, (int, np.integer)) or hidden < 0:
        raise RunError(f"hidden={hidden!r}: the hidden units per decision type are a whole "
                       "number >= 0")
    units = T.hidden_units(mean.shape[1], n_features)
    if units is None:
        raise RunError(f"start weights of width {mean.shape[1]} fit no {spec.title} policy "
                       f"({n_features} features, + {n_features + 2} per hidden unit)")
    if hidden and units not in (0, hidden):
        raise RunError(f"the start already has {units} hidden units, not {hidden}")
    if hidden and units == 0:
        mean, units = T.widen(mean, n_features, int(hidden), seed), int(hidden)
    if units:
        rows = free.any(axis=1)
        if hidden_decisions is None:
            hidden_decisions = getattr(T._strategies_module(spec), "HIDDEN_DECISIONS", None)
        if hidden_decisions is not None:
            rows &= _decision_rows(names, hidden_decisions, spec)
        unit = np.concatenate([free & rows[:, None], rows[:, None], rows[:, None]], axis=1)
        free = np.concatenate([free, np.tile(unit, (1, units))], axis=1)
    base = mean.copy()

    def full(vector):
        weights = base.copy()
        weights[free] = vector
        return weights

    request = {"command": "train", "game": spec.name, "variant": rules.to_dict(),
               "objective": getattr(objective, "__qualname__", None), "temperature": temperature,
               "opponents": list(map(_named, opponents)), "hold_out": hold_out,
               "population": population, "games": games,
               "seed": seed, "sigma": sigma, "start": mean.ravel().tolist(),
               "decisions": None if decisions is None else list(decisions),
               **({"relative_to": relative_to} if relative_to != "fair" else {}),
               **({"features": int(features)} if features is not None else {}),
               **({"hidden": units, "hidden_decisions": hidden_decisions and
                   list(hidden_decisions)} if units else {}),
               "feature_code": T.feature_code(spec), "version": __version__}
    store = None
    if run_dir is not None:
        from sim.checkpoint import RunDir
        # the files the opponents were read from (policy files, agents' modules) and the rules'
        # data files: an edited one makes this another request
        request.update(run_inputs(rules, *plans))
        store = RunDir(run_dir, request)
    optimizer = cmaes.CMA(mean=mean[free], sigma=sigma, seed=seed,
                          population_size=population)
    pool: list = []  # the policy of every pool_every-th generation, played as an opponent

    def evaluate(parallel, candidates, gen_seed):
        if objective is not None:
            return [float(objective(full(c))) for c in candidates]
        return parallel(delayed(fitness)(
            spec.name, rules, trained_player(spec, full(c), "candidate", temperature),
            opponents + pool, games, gen_seed, relative_to) for c in candidates)

    def after(generation, mean_, row):
        current = full(mean_)
        if objective is None and (generation % check_every == 0 or generation == generations):
            check = measure(spec.name, rules, trained_player(spec, current, "current", temperature),
                            opponents[0], check_games, 10**9 + seed)
            row.update({"yardstick": str(opponents[0]), "share": check["share"],
                        "share_low": check["low"], "share_high": check["high"]})
        if pool_every and generation % pool_every == 0:
            pool.append(trained_player(spec, current.copy(), f"generation {generation}",
                                       temperature))

    optimizer, history = cma_search(optimizer, generations, seed, jobs, evaluate, store,
                                    f"train {spec.name}", bool(progress), after, pool)
    weights = full(optimizer.mean)
    provenance = {"game": spec.name, "variant": rules.to_dict(), "n_players": rules.n_seats,
                  "method": "CMA-ES (cmaes) on the win share against a pool, seats rotated, "
                            "common random numbers within a generation",
                  "opponents": list(map(_named, opponents)), "hold_out": hold_out,
                  "generations": generations, "population": optimizer.population_size,
                  "games_per_table": games, "seed": seed, "sigma": sigma,
                  "decisions": None if decisions is None else list(decisions),
                  **({"hidden": units} if units else {}),
                  "fitness": f"log share over the {'field' if relative_to == 'field' else 'fair share'}",
                  "version": __version__}
    if objective is not None:
        provenance["method"] = f"CMA-ES (cmaes) maximising {getattr(objective, '__qualname__', objective)}"
    provenance["temperature"] = temperature
    return Training(weights, history, provenance, spec, temperature)


def _named(opponent) -> str:
    """An opponent as a request and a provenance name it: a user's code (FILE.py:FUNCTION) by
    its name, since its repr holds an address no rerun shares (its module's digest is among a
    run folder's inputs); anything else as written."""
    if isinstance(opponent, Strategy) and (opponent.agent is not None or opponent.fn is not None):
        return opponent.name
    return str(opponent)


def _decision_rows(names: list, chosen, spec) -> np.ndarray:
    unknown = set(chosen) - set(names)
    if unknown:
        raise RunError(f"unknown decision types {sorted(unknown)}; {spec.title} has {names}")
    return np.isin(names, list(chosen))


def strength_table(game: str, rules, policy, opponents: list, n_games: int = 2000,
                   seed: int = 2**31) -> pd.DataFrame:
    """The policy against each opponent (filling the other seats) and a mixed table of them,
    seats rotated, with Wilson 95% intervals, the fair share 1/n and the field's share (the
    other seats' mean share in the same games, what ``beats`` compares with: in a team game a
    shared win makes 1/n the wrong yardstick): the ladder check of a policy."""
    spec = get_game(game)
    rules = as_rules(spec, rules)
    rows = []
    for k, opponent in enumerate(opponents):
        r = measure(game, rules, policy, opponent, n_games, seed + k)
        rows.append({"against": str(opponent), **r})
    if rules.n_seats > 2 and len(opponents) > 1:
        lineup = [policy] + [opponents[s % len(opponents)] for s in range(rules.n_seats - 1)]
        rows.append({"against": "mixed table", **shares(spec, rules, lineup, n_games, seed + 99)})
    table = pd.DataFrame(rows)
    # beats: the interval's lower end above what the other seats get in the same games (in a
    # two-player game that is 1/2 of the decided games; in a team game, not 1/n)
    table["beats"] = np.where(table["decided"] > 0, table["low"] > table["field"], np.nan)
    return table


def learning_curve(history: pd.DataFrame, title: str = ""):
    """Strength against the yardstick by generation (share with its interval), and the
    training fitness."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    checked = history.dropna(subset=["share"]) if "share" in history else history.iloc[:0]
    if len(checked):
        ax.plot(checked["generation"], checked["share"], "o-", label=f"share against "
                f"{checked['yardstick'].iloc[0]} (95% interval)")
        ax.fill_between(checked["generation"], checked["share_low"], checked["share_high"],
                        alpha=0.25)
    ax.set_xlabel("generation")
    ax.set_ylabel("win share")
    twin = ax.twinx()
    twin.plot(history["generation"], history["mean_fitness"], ":", color="grey",
              label="training fitness (right axis)")
    twin.set_ylabel("fitness: mean log(0.05 + share / fair share)", fontsize=8)
    twin.legend(loc="upper left", fontsize=8)
    ax.set_title(title)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    return fig


def action_frequencies(game: str, rules, lineup: list, n_games: int, seed: int) -> pd.DataFrame:
    """How often slot 0's strategy and the others choose each action, per decision type: one
    traced game at a time (the controller records every decision asked), seats rotated."""
    from sim.core.header import T_ACTION, T_DECISION, T_SEAT, new_ctl, trace_of
    from sim.rng import master_key
    from sim.runner import play_kernel
    from sim.strategy import resolve_seats

    spec = get_game(game)
    rules = as_rules(spec, rules)
    n = rules.n_seats
    seats = resolve_seats(spec, lineup, n)
    names = spec.decision_names or ("decision",)
    counts: dict = {}
    for g in range(n_games):
        ctl = new_ctl(trace_rows=4096)
        play_kernel(spec, rules.kernel_args(), seats, master_key(seed), g, 1, ctl=ctl, rotate=True)
        slot0_seat = (-g) % n
        for row in trace_of(ctl):
            who = "slot 0" if row[T_SEAT] == slot0_seat else "others"
            key = (names[int(row[T_DECISION])], int(row[T_ACTION]), who)
            counts[key] = counts.get(key, 0) + 1
    table = pd.Series(counts).rename_axis(["decision", "action", "who"]).unstack("who",
                                                                             fill_value=0)
    for who in ("slot 0", "others"):
        if who not in table:
            table[who] = 0
        table[who] = table[who] / table[who].groupby(level="decision").transform("sum")
    return table[["slot 0", "others"]].fillna(0.0).reset_index()


@dataclass
class Exploit:
    """``balance exploit``: a seat trained against a fixed field, measured and compared."""
    training: Training
    measured: dict
    frequencies: pd.DataFrame
    field: str
    dominant: bool
    line: str

    def write(self, out):
        from pathlib import Path
        import json

        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        self.training.save(out / "exploiter.json")
        self.frequencies.to_csv(out / "actions.csv", index=False)
        (out / "exploit.json").write_text(json.dumps(self.record(), indent=1))

    def record(self) -> dict:
        """What a report shows of this search (analysis.skill.exploit_line): the line, the
        measured share, and the hash of the shipped policy it probed (a later policy makes the
        record stale)."""
        spec = get_game(self.training.provenance["game"])
        n_players = self.training.provenance.get("n_players")
        policy = T.shipped_path(spec, n_players) if self.field == "trained" else None
        return {"line": self.line, "dominant": bool(self.dominant), "field": self.field,
                "measured": {k: (float(v) if isinstance(v, (float, np.floating)) else v)
                             for k, v in self.measured.items()},
                "policy_sha256": None if policy is None else
                hashlib.sha256(policy.read_bytes()).hexdigest(),
                "provenance": self.training.provenance}

    def record_beside_policy(self) -> Path:
        """Keep the record next to the shipped policy it probed (``<policy>.exploit.json``),
        where every report finds it."""
        import json

        spec = get_game(self.training.provenance["game"])
        policy = T.shipped_path(spec, self.training.provenance.get("n_players"))
        if self.field != "trained" or policy is None:
            raise BalanceError("--record keeps a search against the shipped policy (--field "
                               "trained) of a variant that ships one")
        path = policy.with_suffix(".exploit.json")
        path.write_text(json.dumps(self.record(), indent=1) + "\n")
        return path


DOMINANCE_MARGIN = 0.10


EXPLOIT_STARTS = ("heuristic", "field")


def style_weights(spec) -> dict:
    """The styles a game declares (``STYLE_WEIGHTS`` in its strategies module): for a built-in
    of another style than the start weights' heuristic, the weights that play it exactly. A
    best-response search started there reaches lines near that style, which a search from
    the heuristic's weights may never reach in a game of rock-paper-scissors styles."""
    return dict(getattr(T._strategies_module(spec), "STYLE_WEIGHTS", None) or {})


def style_knobs(spec) -> dict:
    """The tunable styles a game declares (``STYLE_KNOBS`` in its strategies module): for a
    built-in, {parameter index: (low, high)}. A best-response search there tunes those
    parameters (:func:`tune_style`): a family of play that the policy's features may not
    express at all (Sunzi's settle ranks regions by a notion no feature carries)."""
    return dict(getattr(T._strategies_module(spec), "STYLE_KNOBS", None) or {})


def exploit_starts(spec) -> tuple[str, ...]:
    """Where an exploit search may start: heuristic, field, and the game's styles by name
    (weights that play a built-in, then built-ins with knobs)."""
    return EXPLOIT_STARTS + tuple(style_weights(spec)) + tuple(
        name for name in style_knobs(spec) if name not in style_weights(spec))


def field_weights(spec, field, n_seats: int) -> np.ndarray:
    """The weights of a trained field (``trained``, ``trained:FILE`` or a trained Strategy)."""
    from sim.strategy import TRAINED, lookup

    from sim.core import mixture
    from sim.core.state import MIXTURE

    player = lookup(spec, field, n_seats)
    params = player.params
    if player.builtin == MIXTURE:  # a strong field: its most probable trained member
        trained = [(p, values) for p, kind, values in mixture.unpack(params) if kind == TRAINED]
        params = max(trained, key=lambda member: member[0])[1] if trained else ()
    elif player.builtin != TRAINED:
        params = ()
    if not params:
        raise RunError(f"the exploit search can start from the field's weights only when the "
                       f"field is a trained policy or a field with one, not {player.name!r}")
    return T.weights_of(spec, params)


def tune_style(game: str, rules, style: str, field, generations: int = 60,
               population: int | None = None, games: int = 300, seed: int = 0, jobs: int = 1,
               run_dir=None, progress: bool | None = None, sigma: float = 0.3,
               relative_to: str = "fair") -> Training:
    """A best response within a built-in's family: CMA-ES over the knobs the game declares for
    ``style`` (``style_knobs``: parameter index -> (low, high)), each scaled to [0, 1] and
    clipped, starting from the built-in's own parameters; the fitness is :func:`train`'s,
    against ``field`` at every other seat, all candidates of a generation on the same games.
    Returns a :class:`Training` whose ``weights`` are the tuned parameters (``style`` set:
    ``player`` seats the built-in with them). Deterministic for a seed at any ``jobs``;
    ``run_dir`` resumes after the last finished generation."""
    import cmaes

    spec = get_game(game)
    rules = as_rules(spec, rules)
    knobs = style_knobs(spec).get(style)
    if not knobs:
        raise RunError(f"{spec.title} declares no knobs for {style!r} (STYLE_KNOBS: "
                       f"{', '.join(style_knobs(spec)) or 'none'})")
    base = np.asarray(spec.strategies[style].params, float)
    index = np.array(sorted(knobs), int)
    low, high = (np.array([knobs[i][k] for i in index], float) for k in (0, 1))

    def params_of(x):
        values = base.copy()
        values[index] = low + (high - low) * np.clip(x, 0.0, 1.0)
        return values

    request = {"command": "tune-style", "game": spec.name, "variant": rules.to_dict(),
               "style": style, "knobs": {int(i): list(knobs[i]) for i in index},
               "field": _named(field), "population": population,
               "games": games, "seed": seed, "sigma": sigma, "relative_to": relative_to,
               "version": __version__}
    seats = resolve_seats(spec, [field], rules.n_seats, rules)  # a bad field: refused now
    store = None
    if run_dir is not None:
        from sim.checkpoint import RunDir
        request.update(run_inputs(rules, seats))
        store = RunDir(run_dir, request)
    start = np.clip((base[index] - low) / np.where(high > low, high - low, 1.0), 0.0, 1.0)
    optimizer = cmaes.CMA(mean=start, sigma=sigma, seed=seed, population_size=population)

    def evaluate(parallel, candidates, gen_seed):
        return parallel(delayed(fitness)(
            spec.name, rules, spec.strategies[style].with_params(*params_of(c)),
            [field], games, gen_seed, relative_to) for c in candidates)

    optimizer, history = cma_search(optimizer, generations, seed, jobs, evaluate, store,
                                    f"tune {style}", bool(progress))
    provenance = {"game": spec.name, "variant": rules.to_dict(), "n_players": rules.n_seats,
                  "method": f"CMA-ES (cmaes) over {style}'s knobs, scaled to [0, 1], on the win "
                            "share against the field, seats rotated, common random numbers "
                            "within a generation",
                  "style": style, "knobs": {int(i): list(knobs[i]) for i in index},
                  "generations": generations, "population": optimizer.population_size,
                  "games_per_table": games, "seed": seed, "sigma": sigma,
                  "version": __version__}
    return Training(params_of(optimizer.mean), history, provenance, spec, style=style)


def exploit(game: str, rules=None, field: str = "trained", generations: int = 60,
            population: int | None = None, games: int = 300, seed: int = 0, jobs: int = 1,
            run_dir=None, check_games: int = 2000, progress: bool | None = None,
            start: str = "heuristic", relative_to: str | None = None,
            features: int | None = None, hidden: int = 0, hidden_decisions=None,
            should_stop=None) -> Exploit:
    """Train one seat against ``field`` at every other seat; re-measure it on fresh seeds.

    start : "heuristic" (the game's START_WEIGHTS: lines a heuristic-like player reaches),
        "field" (a trained field's own weights: a local search for a profitable deviation,
        which begins at the field's share rather than below it) or the name of a style the
        game declares (``style_weights``: the weights that play that built-in).
    relative_to : the search's fitness (see ``fitness``); by default "fair" with two players
        and "field" with more, where a field can end most games with no winner: beating the
        field is then winning more than its seats in the same games, not more than 1/n.
    features : search only the first ``features`` slots (``train``).
    hidden, hidden_decisions : search a policy with that many hidden units per decision type
        (``train``): a richer class of best responses, so a larger share found is a fairer
        measure of how exploitable the field is.
    should_stop : asked between generations, tables and check batches; a true answer raises
        analysis.workbench.precision.Stopped."""
    if should_stop is not None:   # the searches below ask it through _SHOULD_STOP
        arguments = {k: v for k, v in locals().items() if k != "should_stop"}
        token = _SHOULD_STOP.set(should_stop)
        try:
            return exploit(**arguments)
        finally:
            _SHOULD_STOP.reset(token)
    spec = get_game(game)
    if start not in exploit_starts(spec):
        raise RunError(f"exploit start {start!r}: choose from {', '.join(exploit_starts(spec))}")
    rules = as_rules(spec, rules)
    n = rules.n_seats
    if relative_to is None:
        relative_to = "fair" if n == 2 else "field"
    if start in style_knobs(spec) and start not in style_weights(spec):
        if hidden or features is not None:  # a built-in's knobs are searched, not a policy
            raise RunError(f"exploit start {start!r} tunes a built-in's knobs: hidden units "
                           "and a feature count apply to a policy's search, not to it")
        result = tune_style(spec.name, rules, start, field, generations=generations,
                            population=population, games=games, seed=seed, jobs=jobs,
                            run_dir=run_dir, progress=progress, relative_to=relative_to)
    else:
        result = train(spec.name, rules, opponents=[field], generations=generations,
                       population=population, games=games, seed=seed, jobs=jobs,
                       run_dir=run_dir, progress=progress, pool_every=0,
                       check_games=max(200, check_games // 4),
                       start=(field_weights(spec, field, n) if start == "field" else
                              style_weights(spec).get(start)),
                       relative_to=relative_to, features=features, hidden=hidden,
                       hidden_decisions=hidden_decisions)
    result.provenance["exploit_start"] = start
    exploiter = result.player("exploiter")
    measured = shares(spec, rules, [exploiter] + [field] * (n - 1), check_games, 2**31 + seed)
    fair = 1 / n
    low = measured["low"]
    dominant = bool(measured["decided"] > 0 and low - fair >= DOMINANCE_MARGIN)
    frequencies = action_frequencies(spec.name, rules, [exploiter] + [field] * (n - 1),
                                     min(400, check_games), 2**31 + seed + 1)
    level = f"against a field of {getattr(field, 'name', field)}" + (
        ", starting from the field's own play" if start == "field" else "")
    if measured["decided"] == 0:
        line = f"Exploit search ({level}): no game was won by anybody; nothing to compare."
    elif dominant:
        line = (f"Exploit search ({level}): a trained seat wins {measured['share']:.1%} "
                f"({measured['low']:.1%} to {measured['high']:.1%}) of the decided games, against "
                f"a fair {fair:.1%}: a dominant line, so either the game has a degenerate "
                f"strategy or the field plays weakly (see its action frequencies).")
    else:
        line = (f"Exploit search ({level}): the best trained seat wins {measured['share']:.1%} "
                f"({measured['low']:.1%} to {measured['high']:.1%}) of the decided games against a "
                f"fair {fair:.1%}; the interval's lower end is less than "
                f"{100 * DOMINANCE_MARGIN:.0f} points above fair: no dominant strategy found.")
    return Exploit(result, measured, frequencies, str(getattr(field, "name", field)), dominant,
                   line)


def recipe(game: str, n_players: int | None = None) -> dict | None:
    """How the game's shipped policies are trained: its study's TRAINING (players, opponents,
    held-out strategy, generations, games per table, seed, and optionally an objective, sigma,
    population, the decision types to train, how often the pool grows and what the fitness
    compares with). ``players`` lists the player counts that get a policy each (``balance
    train GAME`` without --players or --out and ``--shipped`` train them all; without it, the
    rules' default count only). ``TRAINING["per_players"][n]`` changes some of them for n players: the
    recipe for ``n_players`` has them merged in."""
    from .studies import study_of

    plan = study_of(game).training
    if plan is None:
        return None
    plan = dict(plan)
    plan.update(plan.pop("per_players", {}).get(n_players, {}))
    return plan


def policy_path(spec, n_players: int):
    """Where ``-s trained`` seats a policy for ``n_players`` from (sim.trained.shipped_path): the
    game's policies folder, ``<game>-<n>p.json``, or ``<game>.json`` for a game whose player
    count is fixed; ``balance train``'s default output."""
    from sim.games import home

    name = f"{spec.name}-{n_players}p.json" if "n_players" in spec.rules_class.options() \
        else f"{spec.name}.json"
    return home(spec).policies / name


def train_recipe(game: str, rules, plan: dict, jobs: int = 1, run_dir=None,
                 progress: bool | None = None) -> Training:
    """Train as a recipe (:func:`recipe`) says: :func:`train` with its options, then
    ``exploit_rounds`` rounds in the manner of the double oracle (PSRO): each round searches the
    current policy's best response (:func:`exploit`, ``exploit_generations`` generations of
    ``exploit_games`` games), adds it to the opponents for good and trains on from the current
    weights (``round_generations`` generations, sigma ``round_sigma``). A line the exploit
    search finds is then trained against, not only reported. Each round keeps its own folders
    under ``run_dir`` (round-K/exploit, round-K/training), so a stopped run resumes."""
    from pathlib import Path

    options = dict(hold_out=plan.get("hold_out"), games=plan.get("games", 300), jobs=jobs,
                   progress=progress, objective=plan.get("objective"),
                   temperature=plan.get("temperature", 0.0), population=plan.get("population"),
                   decisions=plan.get("decisions"), pool_every=plan.get("pool_every", 10),
                   relative_to=plan.get("relative_to", "fair"), features=plan.get("features"),
                   hidden=plan.get("hidden", 0))
    seed = plan.get("seed", 0)
    result = train(game, rules, opponents=plan.get("against"), generations=plan["generations"],
                   seed=seed, sigma=plan.get("sigma", 0.5), run_dir=run_dir, **options)
    opponents = list(result.provenance["opponents"])
    histories, rounds = [result.history.assign(round=0)], []
    for k in range(1, plan.get("exploit_rounds", 0) + 1):
        where = None if run_dir is None else Path(run_dir) / f"round-{k}"
        probe = exploit(game, rules, field=result.player(f"round {k - 1}"),
                        generations=plan.get("exploit_generations", 30),
                        games=plan.get("exploit_games", 200), seed=seed + k - 1, jobs=jobs,
                        run_dir=None if where is None else where / "exploit", progress=progress,
                        features=plan.get("features"))
        rounds.append({"round": k, "exploiter_share": float(probe.measured["share"]),
                       "exploiter_low": float(probe.measured["low"]),
                       "exploiter_high": float(probe.measured["high"])})
        opponents.append(probe.training.player(f"exploiter {k}"))
        done = int(histories[-1]["generation"].max())
        result = train(game, rules, opponents=opponents, start=result.weights,
                       generations=plan.get("round_generations", 60), seed=seed + k,
                       sigma=plan.get("round_sigma", 0.15),
                       run_dir=None if where is None else where / "training", **options)
        histories.append(result.history.assign(round=k,
                                               generation=result.history["generation"] + done))
    if rounds:
        result.history = pd.concat(histories, ignore_index=True)
        result.provenance.update(
            generations=int(result.history["generation"].max()),
            opponents=opponents[:len(opponents) - len(rounds)]
            + [f"exploiter {r['round']}" for r in rounds],
            method=result.provenance["method"] + f"; then {len(rounds)} double-oracle rounds: "
            "each adds the best response the exploit search finds to the opponents",
            exploit_rounds=rounds)
    return result


def regenerate_shipped(games=None, jobs: int = 1, progress: bool = True, out=None) -> list:
    """``balance train --shipped``: retrain every shipped policy from its game's recipe (the
    one command that regenerates every game's <pkg>/policies/)."""
    from sim.games import game_names, home

    written = []
    for game in games or game_names():
        if recipe(game) is None:
            continue
        spec = get_game(game)
        for n in recipe(game).get("players", (None,)):
            rules = {"n_players": n} if n is not None and "n_players" in spec.rules_class.options() \
                else None
            result = train_recipe(game, rules, recipe(game, n), jobs=jobs, progress=progress)
            name = f"{game}-{n}p.json" if n is not None else f"{game}.json"
            path = result.save((out or home(spec).policies) / name)
            result.history.to_csv(path.with_suffix(".history.csv"), index=False)
            written.append(path)
    return written
