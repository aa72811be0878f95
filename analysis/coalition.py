"""Does winning pay at a table that rarely wins? (issue 61, item 5)

A strong field whose games are rarely won by anyone (Parthian Shot's: every seat holds back, and
the legions rout the table) may be telling the game's truth (selfish strong play lets the game
beat everyone) or an artefact of the meta-game the field solved (a game nobody wins counts as
lost by every seat, ``undecided = "loss"``). The two differ in what a seat gains by fighting:

- **a single deviation**: one seat plays a built-in that fights, the others stay the field.
  If its own chance to win rises, the field is no equilibrium of the game's real payoff, and
  its verdict is the meta-game's, not the game's;
- **a coalition**: k seats fight together, k = 2 .. n. If the whole table wins more each than
  the field does while a lone fighter gains nothing, the game is a social dilemma: that is the
  finding, and the field plays it right.

Every share here is a seat's chance to win over every game (a game nobody wins is a loss for
every seat: the payoff a player has), seats rotated every game, with a 95% t-interval of the
per-game mean (a game's shares within a coalition are not independent).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from sim.games import code_versions, get_game
from sim.runner import as_rules, simulate

from .stats import mean_interval

RARELY = 0.5   # a strong rung whose games are won less often than this gets the test


def joiners_of(spec) -> list[str]:
    """The built-ins that may fight: every one but random and the scripted player."""
    return [name for name in spec.strategies if name not in ("random", "script")]


def _interval(values: np.ndarray) -> tuple[float, float, float]:
    found = mean_interval(values.sum(), (values ** 2).sum(), len(values))
    return float(values.mean()), float(found["ci_low"]), float(found["ci_high"])


def coalition_table(game, rules=None, joiners: Sequence[str] | None = None, field="strong",
                    n_games: int = 20_000, seed: int = 0, jobs: int = 1) -> pd.DataFrame:
    """One row per (joiner, k): k seats of the joiner against n - k seats of ``field``, k = 0
    .. n, seats rotated: the joiners' and the field seats' chance to win (every game counts),
    the share of games won by anyone, each with its 95% interval."""
    spec = get_game(game)
    rules = as_rules(spec, rules)
    n = rules.n_seats
    rows, batches = [], []
    for joiner in joiners or joiners_of(spec):
        for k in range(n + 1):
            if k == 0 and rows:
                rows.append({**rows[0], "joiner": joiner})   # the field alone: played once
                continue
            lineup = [joiner] * k + [field] * (n - k)
            result = simulate(spec, rules, lineup, n_games, seed, jobs=jobs, rotate_seats=True,
                              progress=False)
            records = result.records
            batches.append(result.provenance)
            wins = records[[f"win_{s}" for s in range(n)]].to_numpy(float)
            slot_seat = (np.arange(n)[None, :] - records["rotation"].to_numpy()[:, None]) % n
            by_slot = np.take_along_axis(wins, slot_seat, axis=1)   # column j: slot j's win
            row = {"joiner": joiner, "k": k, "n_games": n_games}
            for who, part in (("joiners", by_slot[:, :k]), ("field", by_slot[:, k:])):
                mean, low, high = _interval(part.mean(axis=1)) if part.shape[1] else (np.nan,) * 3
                row.update({f"{who}_share": mean, f"{who}_low": low, f"{who}_high": high})
            row.update(zip(("decided", "decided_low", "decided_high"),
                           _interval((wins.sum(axis=1) > 0).astype(float))))
            rows.append(row)
    table = pd.DataFrame(rows)
    table.attrs["provenance"] = {"game": spec.name, "variant": rules.to_dict(), "field": field,
                                 "joiners": list(table["joiner"].unique()), "n_games": n_games,
                                 "seed": seed, "rotate_seats": True, **code_versions(spec),
                                 "batches": batches}
    return table


def coalition_reading(table: pd.DataFrame) -> tuple[str, str]:
    """("deviation" | "dilemma" | "neither", one sentence): what the table says of the field.

    deviation: some joiner alone wins more than a field seat does at the field's own table
    (intervals apart), so the field is no equilibrium of the game's payoff; dilemma: no lone
    joiner gains, but a whole table of one joiner wins more each than the field's seats; neither:
    fighting pays at no size."""
    base = table[table["k"] == 0].iloc[0]
    n = int(table["k"].max())
    alone = table[table["k"] == 1]
    whole = table[table["k"] == n]
    better = alone[alone["joiners_low"] > base["field_high"]]
    if not better.empty:
        top = better.loc[better["joiners_share"].idxmax()]
        return "deviation", (
            f"a single deviation pays: one seat playing {top['joiner']} wins "
            f"{top['joiners_share']:.1%} ({top['joiners_low']:.1%} to {top['joiners_high']:.1%}) "
            f"of its games against the field, whose own seats win {base['field_share']:.1%} "
            "at their table; the field is not an equilibrium of the game's payoff, so its "
            "verdict is the meta-game's")
    together = whole[whole["joiners_low"] > base["field_high"]]
    best_alone = alone.loc[alone["joiners_share"].idxmax()]
    if not together.empty:
        top = together.loc[together["joiners_share"].idxmax()]
        lone = alone[alone["joiner"] == top["joiner"]].iloc[0]
        return "dilemma", (
            f"the game's own finding, a social dilemma: a whole table of {top['joiner']} wins "
            f"{top['joiners_share']:.1%} each ({top['decided']:.1%} of games won by anyone), "
            f"the field's seats {base['field_share']:.1%} each; yet one seat of "
            f"{top['joiner']} among the field wins {lone['joiners_share']:.1%} while the field "
            f"seats beside it win {lone['field_share']:.1%} each, and no built-in alone wins "
            f"more than {best_alone['joiners_share']:.1%} ({best_alone['joiner']}): fighting "
            "alone hands the win to the others, so selfish strong play lets the game beat the "
            "table")
    return "neither", (
        f"fighting pays at no size: a lone seat wins at most {best_alone['joiners_share']:.1%} "
        f"({best_alone['joiner']}), a whole table of any built-in no more than the field's "
        f"{base['field_share']:.1%} each; the rarely won games are the game's")


def coalition_section(doc, game, rules, n_games: int, seed: int, jobs: int, decided: float,
                      level: str = "strong field") -> str:
    """The report's section on a strong rung whose games are rarely won (its ``decided``
    share): the table, its reading as a finding that leads the summary; returns the reading."""
    from .markdown import pct_text

    table = coalition_table(game, rules, n_games=n_games, seed=seed, jobs=jobs)
    kind, reading = coalition_reading(table)
    doc.text(f"## Why does the {level} rarely win?\n\nAt {level} play only {decided:.1%} of "
             "games are won by anyone. Is that the game, or the meta-game the field was built "
             "on (a game nobody wins counts as lost by every seat)? Below, k seats play a "
             "built-in that fights and the other seats the field, seats rotated every game: a "
             "seat's chance to win (every game counts), its 95% interval, and the share of "
             f"games won by anyone ({n_games:,} games a row). A single deviation (k = 1) that "
             "pays would make the field no equilibrium of the game; a table that wins more "
             "together (k = all) while no lone fighter gains is a social dilemma.")
    def rates(who):
        share = table[who if who == "decided" else f"{who}_share"]
        return pd.Series(pct_text(share, table[f"{who}_low"], table[f"{who}_high"]),
                         index=table.index)

    everyone = table["k"] == table["k"].max()
    view = pd.DataFrame({
        "built-in that fights": table["joiner"], "seats fighting (k)": table["k"],
        "a fighting seat wins": rates("joiners").where(table["k"] > 0, ""),
        "a field seat wins": rates("field").where(~everyone, ""), "won by anyone": rates("decided")})
    doc.table("coalitions", table, view)
    doc.text(f"**Reading.** {reading[0].upper()}{reading[1:]}.")
    doc.finding(f"At {level} play only {decided:.1%} of games are won by anyone: {reading} "
                "(table coalitions).", first=True)
    table.attrs["reading"] = kind
    return kind
