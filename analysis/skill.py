"""Balance as a function of skill: does a verdict hold when the players get better?

Every seat plays the same rung of the strategy ladder (random, the game's best heuristic, its
shipped trained policy where one fits the variant (docs/training.md), the search player with a
small and with a large budget), seats rotated every game, and the game's
headline metrics (analysis.workbench.metrics: every seat's win rate, the first seat's advantage,
the game's own headline ends, the mean length) are measured at each rung with their intervals.
A verdict that holds on every rung belongs to the game; one that moves with skill belongs to
the players.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from sim import __version__
from sim.games import get_game
from sim.runner import as_rules, simulate
from sim import field as fields
from sim.trained import shipped_path

from .coalition import RARELY, coalition_section
from .evidence import unmeasured
from .workbench import metrics as M


TRAINED_GAMES = 100_000  # the trained rung's games in a full report: intervals of about +-0.3 pp
STRONG_RUNG = "strong field"
COALITION_GAMES = 20_000   # per row of the coalition test: a seat's chance known to +-0.3 pp


def ladder_levels(best: str, small: int = 16, large: int = 64, trained: bool = False,
                  strong: bool = False) -> list[tuple[str, str]]:
    """The rungs: random, the best heuristic, the shipped trained policy (with ``trained``),
    the shipped strong field (with ``strong``: sim/field.py), search with a small and a large
    budget (rollouts by the best heuristic)."""
    return [("random", "random"), (best, best), *([("trained", "trained")] if trained else []),
            *([(STRONG_RUNG, "strong")] if strong else []),
            (f"search {small}", f"ismcts:budget={small},rollout={best}"),
            (f"search {large}", f"ismcts:budget={large},rollout={best}")]


def has_trained(game, rules=None) -> bool:
    """Whether a trained policy is shipped for this game at the variant's player count."""
    spec = get_game(game)
    return shipped_path(spec, as_rules(spec, rules).n_seats) is not None


def has_strong(game, rules=None) -> bool:
    """Whether a strong field is shipped for this game at the variant's player count."""
    spec = get_game(game)
    return fields.shipped_path(spec, as_rules(spec, rules).n_seats) is not None


def field_exploitability(game, rules=None) -> str:
    """The shipped strong field's measured exploitability as its file records it (``balance
    field`` writes it: the last best response, re-measured on fresh games), or "". ``-s strong``
    seats the field built for the variant where one is shipped (sim.field.shipped_variants),
    else the player count's; its figure was measured in the variant it was built for: where
    that differs from ``rules`` (an option the file records with another value), the line says
    so, because the figure does not carry over (docs/training.md, "Sunzi's tenth field",
    measures a field in a mode it was not built for)."""
    import json

    from .field import json_safe

    spec = get_game(game)
    rules = as_rules(spec, rules)
    path = fields.shipped_path(spec, rules.n_seats, rules)
    body = {} if path is None else json.loads(path.read_text())
    line = (body.get("exploitability") or {}).get("line", "")
    here = json_safe(rules.to_dict())
    differ = {k: v for k, v in (body.get("variant") or {}).items() if k in here and here[k] != v}
    if line and differ:
        built = ", ".join(f"{k}={v}" for k, v in differ.items())
        this = ", ".join(f"{k}={here[k]}" for k in differ)
        head, _, rest = line.partition(": ")
        return (f"{head}, measured in the variant it was built for ({built}) and not in this one "
                f"({this}): {rest} {transfer_text(game, rules)}")
    return line


def transfer_text(game, rules=None) -> str:
    """How far the strong field carries to this variant where it was fitted to another: its
    measured transfer, or how to measure it (analysis/fitted.py)."""
    from .fitted import strong_fit

    fit = strong_fit(game, rules)
    if fit is None or fit.own:
        return ""
    return fit.line()


def field_exploit_line(game, rules=None) -> str:
    """The strong field's exploitability in one line of a report, with how it was measured."""
    spec = get_game(game)
    rules = as_rules(spec, rules)
    path = fields.shipped_path(spec, rules.n_seats, rules)
    if path is None:
        return ""
    measured = field_exploitability(game, rules)
    if not measured:
        return f"The strong field `{path.name}` carries no exploitability record."
    from .field import search_line

    options = "".join(f" -o {k}={v}" for k, v in fields.variant_of(spec, path).items())
    return (f"Strong field `{path.name}`, {measured}, on fresh games (`balance field "
            f"{spec.name}{options} --check` re-measures it). {search_line(path)}").rstrip()


def skill_changes(table: pd.DataFrame, metrics: Sequence[str],
                  neutral: dict[str, float] | None = None) -> list[str]:
    """One line per metric whose verdict depends on the rung, in a designer's words.

    A metric with a neutral value (``neutral``: the first seat's advantage 0, a seat's win rate
    its fair share) has a verdict at each rung: above, below, or level with it (the 95% interval
    covers it); the line names the rungs of each verdict, and says "reverses" when it is above
    at some rung and below at another. A metric without one changes when two rungs' intervals
    are disjoint. A rung with too few games, or whose games never varied, has no verdict
    (analysis.evidence): it is left out."""
    neutral = {"first_seat_advantage": 0.0, **(neutral or {})}
    lines = []
    for m in metrics:
        measured = [note is None for note in rung_notes(table, m)]
        if sum(measured) < 2:
            continue
        kept = table[measured].reset_index(drop=True)
        low, high, rungs = kept[f"{m}_low"], kept[f"{m}_high"], list(kept["skill"])
        if m in neutral:
            value = neutral[m]
            verdicts = ["above" if lo > value else "below" if hi < value else "level"
                        for lo, hi in zip(low, high)]
            if len(set(verdicts)) > 1:
                groups = {v: [r for r, w in zip(rungs, verdicts) if w == v]
                          for v in dict.fromkeys(verdicts)}
                said = "; ".join(f"{v} {value:g} for {', '.join(g)} play"
                                 for v, g in groups.items())
                kind = "reverses" if {"above", "below"} <= set(verdicts) else "changes"
                lines.append(f"`{m}` {kind} with skill: {said}.")
        elif low.max() > high.min():
            top, bottom = int(np.argmax(kept[m])), int(np.argmin(kept[m]))
            lines.append(f"`{m}` moves with skill: {kept[m][bottom]:.1%} for "
                         f"{rungs[bottom]} play, {kept[m][top]:.1%} for {rungs[top]} play "
                         "(disjoint intervals).")
    return lines


def rung_notes(table: pd.DataFrame, metric: str) -> list[str | None]:
    """Per rung, why its interval of ``metric`` says nothing (analysis.evidence.unmeasured:
    too few games, identical games), or None. A seat's win rate and the first-seat advantage
    count the games somebody won: a game nobody wins says nothing about the seats."""
    if "n_games" not in table:
        return [None] * len(table)   # intervals alone, with no count: take them as they are
    n = table["n_games"]
    if "decided" in table and (metric.startswith("win_") or metric == "first_seat_advantage"):
        n = (table["n_games"] * table["decided"]).round()
    return [unmeasured(k, lo, hi) for k, lo, hi in
            zip(n, table[f"{metric}_low"], table[f"{metric}_high"])]


def skill_curve(game, rules=None, levels: Sequence[tuple[str, str]] = (), n_games=(2000,),
                seed: int = 0, jobs: int = 1) -> pd.DataFrame:
    """One row per rung: headline metrics with 95% intervals when every seat plays that rung.

    ``n_games``: games per rung (one number for all, or one per rung: search rungs are slower).
    """
    spec = get_game(game)
    rules = as_rules(spec, rules)
    sizes = list(n_games) * len(levels) if len(n_games) == 1 else list(n_games)
    rows, batches = [], []
    for rank, ((label, strategy), n) in enumerate(zip(levels, sizes)):
        batch = simulate(spec, rules, strategy, int(n), seed, jobs=jobs, rotate_seats=True,
                         stream=True, progress=False, backend="threading")
        rows.append({"rung": rank, "skill": label, "strategy": strategy,
                     **M.headline(batch.summary)})
        batches.append(batch.provenance)
    table = pd.DataFrame(rows)
    table.attrs["provenance"] = {"game": spec.name, "variant": rules.to_dict(), "seed": seed,
                                 "version": __version__, "rotate_seats": True,
                                 "batches": batches}
    return table


def skill_plot(table: pd.DataFrame, metrics: Sequence[str]):
    """Each metric against the skill rung, with its 95% interval."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7, 3.8), layout="constrained")
    ax = fig.subplots()
    x = np.arange(len(table))
    for i, metric in enumerate(metrics):
        offset = (i - (len(metrics) - 1) / 2) * 0.06
        # a rung without evidence (too few games, identical games) gets no point: its bar would
        # look certain (analysis.evidence)
        shown = np.array([note is None for note in rung_notes(table, metric)])
        part = table[shown]
        ax.errorbar(x[shown] + offset, part[metric], yerr=[part[metric] - part[f"{metric}_low"],
                                                           part[f"{metric}_high"] - part[metric]],
                    fmt="o-", capsize=3, label=metric)
    ax.set_xticks(x, table["skill"])
    ax.axhline(0, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("every seat plays (weakest to strongest)")
    ax.set_ylabel("rate (95% interval)")
    ax.legend(fontsize=8)
    prov = table.attrs["provenance"]
    ax.set_title(f"{prov['game']}: balance under rising skill (seats rotated, seed "
                 f"{prov['seed']})", fontsize=9)
    return fig


def skill_games(n_games: int, quick: bool) -> tuple[int, int, int, int]:
    """Games per rung for a study of ``n_games`` per batch (random, heuristic, search small,
    search large): search rungs get far fewer (a search game costs budget x decisions games).
    The trained rung, where there is one, plays TRAINED_GAMES (the heuristic's count when
    quick): skill_section adds it."""
    if quick:
        return (max(n_games // 4, 50), max(n_games // 4, 50), 6, 4)
    return (n_games, n_games, max(n_games // 100, 10), max(n_games // 200, 6))


def skill_section(doc, game, rules=None, best: str = "random", n_games=(2000, 2000, 200, 100),
                  seed: int = 0, jobs: int = 1, budgets=(16, 64),
                  metrics: Sequence[str] | None = None) -> pd.DataFrame:
    """Add the "does it hold under skilled play?" section to a report: one line in a study."""
    from .markdown import pct_text

    spec = get_game(game)
    trained, strong = has_trained(game, rules), has_strong(game, rules)
    levels = ladder_levels(best, *budgets, trained=trained, strong=strong)
    n_games = list(n_games)
    for _ in range(trained + strong):  # quick runs (a small heuristic rung) keep these small too
        n_games.insert(2, TRAINED_GAMES if n_games[1] >= 2000 else n_games[1])
    table = skill_curve(game, rules, levels, n_games, seed, jobs)
    metrics = list(metrics or ["first_seat_advantage", *spec.headline_ends])
    view = pd.DataFrame({"every seat plays": table["skill"], "games": table["n_games"],
                         **{f"{m} (95% CI)": [
                             note or text for note, text in zip(rung_notes(table, m), pct_text(
                                 table[m], table[f"{m}_low"], table[f"{m}_high"],
                                 signed=m == "first_seat_advantage"))]
                            for m in metrics}})
    trained_text = (", the shipped trained policy (`trained`, docs/training.md)" if trained else
                    " (no trained policy is shipped for this variant yet)")
    if strong:
        trained_text += (", the strong field (`strong`: a population of policies and an "
                         "equilibrium mixture over it, built by PSRO, docs/training.md)")
    doc.text("## Does it hold under skilled play?\n\n"
             "The headline numbers again, with every seat played by one rung of the strategy "
             f"ladder: uniformly random, the best heuristic (`{best}`){trained_text}, and the "
             "search player "
             f"(information-set MCTS, `ismcts`, rollouts by `{best}`) with {budgets[0]} and "
             f"{budgets[1]} iterations per decision. Seats are rotated every game. A verdict whose "
             "intervals agree on every rung belongs to the game; one that moves with skill "
             "belongs to the players.")
    doc.table("skill_curve", table, view)
    seats = as_rules(spec, rules).n_seats
    changes = skill_changes(table, metrics, {f"win_{s}": 1 / seats for s in range(seats)})
    doc.text("**Verdicts across rungs.** " + (
        " ".join(changes) if changes else
        "Every headline verdict is the same on every rung (same side of its neutral value, or "
        "overlapping intervals)."))
    doc.figure("skill_curve", skill_plot(table, metrics),
               "Each line is one headline number from the weakest players (left) to the "
               "strongest (right), with its 95% interval; the dashed line is zero.")
    for line in changes:  # the summary on top flags them too
        doc.finding(f"Skill ladder: {line}")
    table.attrs["changes"] = changes
    verdict = strongest_verdict(table)
    if verdict:
        figure = field_figure(game, rules) if verdict.startswith(f"at {STRONG_RUNG}") else ""
        doc.skilled_verdict(verdict + (f"; {figure}" if figure else ""))   # how strong the rung is
    line, dominant = exploit_line(game, rules)
    if strong:
        line = field_exploit_line(game, rules) + " " + line
    doc.text(f"**Is there a dominant strategy?** {line}")
    if dominant:
        doc.finding(line)
    rare = table[(table["skill"] == STRONG_RUNG) & (table.get("decided", 1.0) < RARELY)]
    if not rare.empty:   # is that the game, or the field's meta-game? (analysis.coalition)
        coalition_section(doc, game, rules, min(int(rare["n_games"].iloc[0]), COALITION_GAMES),
                          seed, jobs, float(rare["decided"].iloc[0]))
    return table


def exploit_line(game, rules=None) -> tuple[str, bool]:
    """The recorded ``balance exploit GAME --record`` search against the shipped policy of this
    variant, in one line (and whether it found a dominant line); a record made against another
    version of the policy is reported as stale."""
    import hashlib
    import json

    spec = get_game(game)
    rules = as_rules(spec, rules)
    policy = shipped_path(spec, rules.n_seats)
    command = f"`balance exploit {spec.name}" + (
        f" --players {rules.n_seats}" if "n_players" in spec.rules_class.options() else "") + \
        " --record`"
    if policy is None:
        return (f"No trained policy is shipped for {rules.n_seats} players, so no exploit search "
                "was recorded.", False)
    record_path = policy.with_suffix(".exploit.json")
    if not record_path.is_file():
        return f"No exploit search is recorded for `{policy.name}` yet: {command} records one.", False
    record = json.loads(record_path.read_text())
    if record.get("policy_sha256") != hashlib.sha256(policy.read_bytes()).hexdigest():
        return (f"The recorded exploit search probed an earlier `{policy.name}` (stale): "
                f"{command} records one for this policy.", False)
    p = record["provenance"]
    how = (f" (`balance exploit`: {p.get('generations')} CMA-ES generations of "
           f"{p.get('games_per_table')} games a table, seed {p.get('seed')}, balance-toolkit "
           f"{p.get('version')})")
    return record["line"] + how, bool(record.get("dominant"))


TIGHT = 0.01   # a rung whose first-seat advantage is known to +-1 pp can carry the verdict


def strongest_verdict(table: pd.DataFrame, metric: str = "first_seat_advantage",
                      tight: float = TIGHT) -> str | None:
    """The first-seat verdict at the strongest rung of the ladder whose interval is tight
    (half-width at most ``tight``): random play is not how people play, so the headline verdict
    names the best players it was measured for."""
    from .markdown import interval_verdict

    if metric not in table:
        return None
    half = (table[f"{metric}_high"] - table[f"{metric}_low"]) / 2
    # a rung of a few games, or whose games never vary (a deterministic match, nobody ever
    # winning: Parthian Shot's selfish trained seats), measures nothing, however narrow its
    # interval (analysis.evidence)
    measured = pd.Series([note is None for note in rung_notes(table, metric)], table.index)
    tight_rows = table[(half <= tight) & measured]
    if tight_rows.empty:
        return None
    row = tight_rows.iloc[-1]
    level, games = row["skill"], f"{int(row['n_games']):,} games"
    decided = row.get("decided", 1)
    if 0.5 <= decided < 0.995:   # a narrow interval over games nobody won says little
        games += f", {decided:.1%} of them won by anyone"
    edge = interval_verdict("first-seat advantage", row[metric], row[f"{metric}_low"],
                            row[f"{metric}_high"], games)
    if decided < 0.5:   # then that is what a designer must know first
        return f"at {level} play only {decided:.1%} of games are won by anyone; {edge}"
    return f"at {level} play, {edge}"


def field_figure(game, rules=None) -> str:
    """The strong field's exploitability as one figure, for a verdict (the re-checks stay in the
    skill section): what the best response found takes against it, or, where the field was
    fitted to another variant, which rules and its measured transfer here."""
    import json

    from .fitted import strong_fit

    spec = get_game(game)
    rules = as_rules(spec, rules)
    fit = strong_fit(game, rules)
    if fit is not None and not fit.own:
        t = fit.transfer
        return (f"the field was fitted to {fit.fitted_text()}, not to this variant; "
                + (f"a best response searched here wins {t['share']:.1%}" if t else
                   "its transfer here is not measured"))
    path = fields.shipped_path(spec, rules.n_seats, rules)
    measured = {} if path is None else json.loads(path.read_text()).get("exploitability") or {}
    share = measured.get("best_response_share")
    if share is None:
        return ""
    if measured.get("field_share") is None or rules.n_seats == 2:
        return f"a best response found wins {share:.1%} against it"
    return (f"a best response found takes {share:.1%} against its seats' "
            f"{measured['field_share']:.1%}")
