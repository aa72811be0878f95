"""Sunzi / Dynasties tables: sides, how games end, the score general, cards, modes, leaders.

Seat 0 is White (Sun Wu), seat 1 is Black (King Zhao of Chu); rule ids (SZ-n, OP-n) refer to
``shared/rules/sunzi_dynasties.md``. The record columns are those of ``games/sunzi/layout.py``:
``general`` is the score general's final position (> 0 towards White's red zone, so it is
White's margin on the score track), ``lead_changes`` counts the times the general's side changed
between scorings, ``opening_s``/``drawn_s``/``played_s`` are card bitmasks (bit i = card id
RECORD_CARD_SHIFT + i, i.e. the white and special cards; the yellow 1-6 are always in hand).

A full tie after round 9 is a draw (OP-12): each side's win share is 1/2 (``win_0``/``win_1`` in
the records), so win rates here count a draw as half a win, as Ludii's AdvantageP1 does.

Most functions take ``Results`` with per-game records (``simulate(..., stream=False)``).
"""
from __future__ import annotations

import re

from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from sim.results import Results
from games.sunzi import layout as L
from games.sunzi.rules import LEADER_NAMES, LEADERS, SunziRules

from analysis import tables as T
from analysis.cards import card_table as _card_table
from analysis.provenance import combined, with_provenance
from analysis.stats import holm, mean_interval, wilson

SIDES = {L.WHITE: "White (Sun Wu)", L.BLACK: "Black (Chu)"}
SCORING_ROUNDS = tuple(range(L.SCORING_EVERY, L.N_ROUNDS + 1, L.SCORING_EVERY))   # 3, 6, 9
MODES = {   # the mode comparison: label -> rule options (SZ-1..SZ-3)
    "basic": {"mode": "basic"},
    "advanced": {"mode": "advanced"},
    "warlord basic": {"mode": "basic", "warlord": True},
    "warlord advanced": {"mode": "advanced", "warlord": True},
}


def rules_of(batch: Results) -> SunziRules:
    """The SunziRules a batch was played with (from its provenance)."""
    return SunziRules.from_options(batch.provenance["variant"])


def side_table(batch: Results, confidence: float = 0.95) -> pd.DataFrame:
    """Win rate of White and Black with Wilson intervals (a draw counts 1/2 to each side).

    :func:`analysis.tables.seat_table` with a ``side`` column; its ``advantage`` is the side's
    rate minus 1/2 of the decided share (every Sunzi game is decided: a draw is shared).
    """
    frame = T.seat_table(batch, confidence=confidence)
    frame.insert(1, "side", [SIDES[s] for s in frame["seat"]])
    return frame


OUTCOMES = (*(f"red zone, round {r}" for r in SCORING_ROUNDS), "general's side after round 9",
            "supply after round 9", "draw", "invariant broken")


def outcome_table(batch: Results, confidence: float = 0.95) -> pd.DataFrame:
    """How games end, with the red-zone wins split by the scoring that ended them.

    Returns
    -------
    DataFrame, one row per outcome (:data:`OUTCOMES`)
        outcome, stage ("early" = a red-zone win at the round-3 or round-6 scoring (SZ-19);
        "round 9" = everything decided at the last scoring or after it (SZ-19, SZ-20, OP-12);
        "unfinished" = a broken army-conservation invariant, never expected), games, rate,
        ci_low, ci_high (Wilson), white_wins (White's summed win shares in those games),
        white_share (of those games' wins, with a Wilson interval white_low / white_high).
    """
    records = _records(batch)
    end = records["end_reason"].astype(str).to_numpy()
    rounds = records["rounds"].to_numpy()
    masks = [(end == "red_zone") & (rounds == r) for r in SCORING_ROUNDS]
    masks += [end == "general", end == "supply", end == "draw", end == "invariant_broken"]
    covered = np.sum(masks, axis=0)
    if np.any(covered != 1):
        row = int(np.flatnonzero(covered != 1)[0])
        raise ValueError(f"game {records['game_id'].iloc[row]} ended as {end[row]!r} in round "
                         f"{rounds[row]}: not one of the outcomes {OUTCOMES}")
    n = len(records)
    games = np.array([m.sum() for m in masks])
    white = np.array([records["win_0"].to_numpy()[m].sum() for m in masks])
    low, high = wilson(games, n, confidence)
    some = games > 0
    w_low, w_high = np.full(len(games), np.nan), np.full(len(games), np.nan)
    if some.any():
        w_low[some], w_high[some] = wilson(white[some], games[some], confidence)
    stage = ["early" if r < L.N_ROUNDS else "round 9" for r in SCORING_ROUNDS]
    stage += ["round 9", "round 9", "round 9", "unfinished"]
    with np.errstate(divide="ignore", invalid="ignore"):
        frame = pd.DataFrame({"outcome": OUTCOMES, "stage": stage, "games": games,
                              "rate": games / n, "ci_low": low, "ci_high": high,
                              "white_wins": white, "white_share": np.where(some, white / games, np.nan),
                              "white_low": w_low, "white_high": w_high})
    return with_provenance(frame, dict(batch.provenance))


def stage_table(batch: Results, confidence: float = 0.95) -> pd.DataFrame:
    """Early red-zone wins vs round-9 decisions: :func:`outcome_table` summed by stage."""
    outcomes = outcome_table(batch, confidence)
    grouped = outcomes.groupby("stage", sort=False)[["games", "white_wins"]].sum().reset_index()
    n = len(_records(batch))
    low, high = wilson(grouped["games"], n, confidence)
    grouped["rate"], grouped["ci_low"], grouped["ci_high"] = grouped["games"] / n, low, high
    return with_provenance(grouped[["stage", "games", "rate", "ci_low", "ci_high", "white_wins"]],
                           dict(batch.provenance))


def margin_counts(batch: Results, confidence: float = 0.95) -> pd.DataFrame:
    """Distribution of the score general's final position (White's margin), -track..+track.

    ±track is a red-zone win (SZ-19); 0 is a central general (supply decides, or a draw).
    """
    track = rules_of(batch).track_length
    return T.value_counts(batch, "general", range(-track, track + 1), confidence=confidence)


def lead_change_counts(batch: Results, confidence: float = 0.95) -> pd.DataFrame:
    """Distribution of lead changes of the score general (counted after each scoring)."""
    most = max(len(SCORING_ROUNDS) - 1, int(_records(batch)["lead_changes"].max()))
    return T.value_counts(batch, "lead_changes", range(0, most + 1), confidence=confidence)


def card_table(batch: Results, confidence: float = 0.95) -> pd.DataFrame:
    """Per-card metrics of both sides (analysis.cards) for the cards of the batch's deck.

    The yellow 1-6 are in every hand all game (SZ-6) and are not in the record's masks. ``held``
    is the record's ``drawn`` mask (opening hand + cards kept at SZ-13/14): a card drawn and put
    back under the deck is not counted as held (the record does not say which card that was).
    """
    deck = [c for c in rules_of(batch).deck_cards() if c >= L.RECORD_CARD_SHIFT]
    cards = {c - L.RECORD_CARD_SHIFT: L.CARD_LABELS[c] for c in deck}
    return _card_table(batch, cards, SIDES, held="drawn_{seat}", confidence=confidence)


def overview(batches: Sequence[tuple[Mapping, Results]], confidence: float = 0.95) -> pd.DataFrame:
    """One row per batch: side win rates, draws, early red-zone wins, length, margin, lead changes.

    Returns
    -------
    DataFrame with the batch keys, then n_games, white_win_rate, white_low, white_high,
    black_win_rate, black_low, black_high, draw (+ _low, _high), early_red_zone (+ _low, _high;
    a red-zone win at the round-3 or round-6 scoring), rounds_mean, general_mean (White's mean
    final margin, with a t-interval general_low / general_high), abs_general_mean,
    lead_changes_mean, balance (Ludii). ``attrs["provenance"] = {"batches": [...]}``.
    """
    rows, provenances = [], []
    for keys, batch in batches:
        seats = side_table(batch, confidence)
        stages = stage_table(batch, confidence).set_index("stage")
        ends = T.end_reason_table(batch, confidence=confidence).set_index("end_reason")
        head = T.headline(batch, None, confidence=confidence)
        records = _records(batch)
        general = records["general"].to_numpy(float)
        margin = mean_interval(general.sum(), (general ** 2).sum(), len(general), confidence)
        row = {**keys, "strategies": head["strategies"], "n_games": head["n_games"]}
        for seat, name in ((0, "white"), (1, "black")):
            rate = seats.loc[seats["seat"] == seat].iloc[0]
            row.update({f"{name}_win_rate": rate["win_rate"], f"{name}_low": rate["ci_low"],
                        f"{name}_high": rate["ci_high"]})
        row.update({"draw": ends.loc["draw", "rate"], "draw_low": ends.loc["draw", "ci_low"],
                    "draw_high": ends.loc["draw", "ci_high"],
                    "early_red_zone": stages.loc["early", "rate"],
                    "early_red_zone_low": stages.loc["early", "ci_low"],
                    "early_red_zone_high": stages.loc["early", "ci_high"],
                    "rounds_mean": head["rounds_mean"], "general_mean": float(margin["mean"]),
                    "general_low": float(margin["ci_low"]), "general_high": float(margin["ci_high"]),
                    "abs_general_mean": float(np.abs(general).mean()),
                    "lead_changes_mean": float(records["lead_changes"].mean()),
                    "balance": head["balance"]})
        rows.append(row)
        provenances.append(dict(batch.provenance))
    return with_provenance(pd.DataFrame(rows), combined(provenances))


def mode_comparison(batches: Sequence[tuple[Mapping, Results]], variant: str = "mode",
                    baseline: str = "basic", confidence: float = 0.95) -> pd.DataFrame:
    """White's win rate in every variant minus the baseline's, paired on common random numbers.

    Parameters
    ----------
    batches : (keys, Results) with per-game records, all on the same seed. ``keys[variant]``
        names the variant; the other keys (e.g. the strategy pairing) form groups, and each
        group is compared with its own baseline batch.

    Returns
    -------
    DataFrame, one row per non-baseline batch
        the group keys, comparison ("advanced - basic"), n, mean_a (the variant's White win
        rate), mean_b (the baseline's), diff, ci_low, ci_high (paired t-interval), p (paired
        t-test), p_holm (Holm across every row of the table), corr (correlation of the per-game
        White win shares of the two variants: > 0 is what common random numbers buy),
        unpaired_half (the half-width two independent batches of this size would give),
        same_opening (share of game ids dealt the same opening hands, both sides, in the two
        variants: how common the random numbers really are; the tiles are not in the record).
    """
    groups: dict[tuple, dict] = {}
    for keys, batch in batches:
        rest = tuple((k, v) for k, v in keys.items() if k != variant)
        groups.setdefault(rest, {})[keys[variant]] = batch
    rows, provenances = [], []
    for rest, members in groups.items():
        if baseline not in members:
            raise ValueError(f"no {variant}={baseline!r} batch for {dict(rest)}")
        base = members[baseline]
        for name, batch in members.items():
            if name == baseline:
                continue
            paired = T.paired_table(batch, base, ["win_0"], confidence).iloc[0]
            same = np.ones(int(paired["n"]), bool)
            for seat in SIDES:
                same &= (batch.records[f"opening_{seat}"].to_numpy()
                         == base.records[f"opening_{seat}"].to_numpy())
            rows.append({**dict(rest), "comparison": f"{name} - {baseline}",
                         **{k: paired[k] for k in ("n", "mean_a", "mean_b", "diff", "ci_low",
                                                   "ci_high", "p", "corr", "unpaired_half")},
                         "same_opening": same.mean()})
            provenances.append(dict(batch.provenance))
        provenances.append(dict(base.provenance))
    frame = pd.DataFrame(rows)
    frame.insert(frame.columns.get_loc("p") + 1, "p_holm", holm(frame["p"]))
    return with_provenance(frame, combined(provenances))


def leader_grid(batches: Sequence[tuple[Mapping, Results]], confidence: float = 0.95) -> pd.DataFrame:
    """White's win rate for fixed leader pairings (warlord, SZ-3, SZ-16, SZ-17).

    Parameters
    ----------
    batches : ({"leader_white": "a".."d", "leader_black": "a".."d", ...}, Results); other keys
        are kept as columns.

    Returns
    -------
    DataFrame, one row per pairing
        the keys, white_leader / black_leader (the letter and its power's name, for plots),
        n_games, white_win_rate, ci_low, ci_high, black_win_rate, draw, early_red_zone,
        advantage (White's rate - 1/2), p (z-test of White's share of the decided games = 1/2),
        p_holm (Holm across the pairings of the table).
    """
    rows, provenances = [], []
    for keys, batch in batches:
        seats = side_table(batch, confidence)
        white, black = seats.iloc[0], seats.iloc[1]
        stages = stage_table(batch, confidence).set_index("stage")
        draws = (batch.records["end_reason"] == "draw").mean()
        lw, lb = keys["leader_white"], keys["leader_black"]
        rows.append({**keys, "white_leader": leader_label(L.WHITE, lw),
                     "black_leader": leader_label(L.BLACK, lb), "n_games": white["n_games"],
                     "white_win_rate": white["win_rate"], "ci_low": white["ci_low"],
                     "ci_high": white["ci_high"], "black_win_rate": black["win_rate"],
                     "draw": draws, "early_red_zone": stages.loc["early", "rate"],
                     "advantage": white["advantage"], "p": white["p"]})
        provenances.append(dict(batch.provenance))
    frame = pd.DataFrame(rows)
    frame["p_holm"] = holm(frame["p"])
    return with_provenance(frame, combined(provenances))


def leader_label(seat: int, letter: str) -> str:
    """'c' -> 'c: as six' (the power's short name from games.sunzi.rules.LEADER_NAMES)."""
    name = LEADER_NAMES[seat][LEADERS.index(letter)].split(":")[0]
    return f"{letter}: {re.sub(r' [(]SZ-[^)]*[)]$', '', name)}"


def leader_picks(batch: Results, confidence: float = 0.95) -> pd.DataFrame:
    """Which leader each side's strategy picked (warlord with leader 'strategy'), and how it did.

    Returns
    -------
    DataFrame, one row per side x leader
        seat, side, leader (letter), label, games, share (of the batch), win_rate (the side's,
        in those games), ci_low, ci_high.
    """
    records = _records(batch)
    rows = []
    for seat, side in SIDES.items():
        picks = records[f"leader_{seat}"].to_numpy()
        share = records[f"win_{seat}"].to_numpy(float)
        for i, letter in enumerate(LEADERS):
            chosen = picks == i
            games = int(chosen.sum())
            low, high = (wilson(share[chosen].sum(), games, confidence) if games
                         else (np.nan, np.nan))
            rows.append({"seat": seat, "side": side, "leader": letter,
                         "label": leader_label(seat, letter), "games": games,
                         "share": games / len(records),
                         "win_rate": share[chosen].mean() if games else np.nan,
                         "ci_low": float(low), "ci_high": float(high)})
    return with_provenance(pd.DataFrame(rows), dict(batch.provenance))


def _records(batch: Results) -> pd.DataFrame:
    if not isinstance(batch, Results) or batch.records is None:
        raise ValueError("Sunzi tables need Results with per-game records (stream=False)")
    return batch.records
