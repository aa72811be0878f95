"""Balance as a function of skill: does a verdict hold when the players get better?

Every seat plays the same rung of the strategy ladder (random, the game's best heuristic, the
search player with a small and with a large budget), seats rotated every game, and the game's
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

from .workbench import metrics as M


def ladder_levels(best: str, small: int = 16, large: int = 64) -> list[tuple[str, str]]:
    """The four rungs: random, the best heuristic, search with a small and a large budget
    (rollouts by the best heuristic)."""
    return [("random", "random"), (best, best),
            (f"search {small}", f"ismcts:budget={small},rollout={best}"),
            (f"search {large}", f"ismcts:budget={large},rollout={best}")]


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
        ax.errorbar(x + offset, table[metric], yerr=[table[metric] - table[f"{metric}_low"],
                                                     table[f"{metric}_high"] - table[metric]],
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
    """Games per rung for a study of ``n_games`` per batch: search rungs get far fewer (a search
    game costs budget x decisions games)."""
    if quick:
        return (max(n_games // 4, 50), max(n_games // 4, 50), 6, 4)
    return (n_games, n_games, max(n_games // 100, 10), max(n_games // 200, 6))


def skill_section(doc, game, rules=None, best: str = "random", n_games=(2000, 2000, 200, 100),
                  seed: int = 0, jobs: int = 1, budgets=(16, 64),
                  metrics: Sequence[str] | None = None) -> pd.DataFrame:
    """Add the "does it hold under skilled play?" section to a report: one line in a study."""
    from .markdown import pct_text

    spec = get_game(game)
    levels = ladder_levels(best, *budgets)
    table = skill_curve(game, rules, levels, n_games, seed, jobs)
    metrics = list(metrics or ["first_seat_advantage", *spec.headline_ends])
    view = pd.DataFrame({"every seat plays": table["skill"], "games": table["n_games"],
                         **{f"{m} (95% CI)": pct_text(table[m], table[f"{m}_low"],
                                                      table[f"{m}_high"]) for m in metrics}})
    doc.text("## Does it hold under skilled play?\n\n"
             "The headline numbers again, with every seat played by one rung of the strategy "
             f"ladder: uniformly random, the best heuristic (`{best}`), and the search player "
             f"(information-set MCTS, `ismcts`, rollouts by `{best}`) with {budgets[0]} and "
             f"{budgets[1]} iterations per decision. Seats are rotated every game. A verdict whose "
             "intervals agree on every rung belongs to the game; one that moves with skill "
             "belongs to the players.")
    doc.table("skill_curve", table, view)
    doc.figure("skill_curve", skill_plot(table, metrics),
               "Each line is one headline number from the weakest players (left) to the "
               "strongest (right), with its 95% interval; the dashed line is zero.")
    return table
