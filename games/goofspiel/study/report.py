"""Goofspiel's report: seat symmetry with intervals, the built-in strategies against each other
from both seats, and score distributions (rule ids GS-n: games/goofspiel/RULES.md).

Goofspiel is the toolkit's calibration game: its outcome distributions under random play agree
with OpenSpiel's (games/goofspiel/tests/test_openspiel_calibration.py, figures in games/goofspiel/RULES.md).
Bids are simultaneous, so the rules give no seat an advantage: section (a) checks that the
simulation shows none, with intervals.
"""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from sim import __version__
from sim.results import Results
from sim.runner import simulate

from analysis import plots
from analysis import tables as T
from analysis.report import ran_in
from analysis.markdown import Doc, largest_seat_advantage, p_text, pct_text, seat_view
from analysis.skill import skill_games, skill_section
from analysis.stats import wilson

DEFAULT_GAMES = 100_000
QUICK_GAMES = 2_000
SEAT_VARIANTS = [{"num_cards": 4}, {"num_cards": 6}, {"num_cards": 13},
                 {"num_cards": 13, "points_order": "descending"}, {"num_cards": 6, "players": 3}]
PAIRS = [("match", "random"), ("greedy", "random"), ("match", "greedy")]


def write_report(out_dir: Path, *, n_games: int | None = None, seed: int = 2026, jobs: int = 1,
                 progress: bool = False, quick: bool = False) -> Path:
    """Run the default Goofspiel study and write ``index.md`` with its PNGs and CSVs.

    n_games : games per batch (default DEFAULT_GAMES, or QUICK_GAMES with ``quick``); the study
        has 5 + 6 batches. seed : master seed of every batch. jobs : workers per batch.
    Returns the path of the written index.md.
    """
    if n_games is None:
        n_games = QUICK_GAMES if quick else DEFAULT_GAMES
    doc = Doc(Path(out_dir))
    n_batches = len(SEAT_VARIANTS) + 2 * len(PAIRS)
    bar = tqdm(total=n_batches, unit="batch", disable=not progress, desc="goofspiel report")

    def run(rules: dict, strategies) -> Results:
        result = simulate("goofspiel", rules, strategies, n_games, seed, jobs=jobs,
                          backend="threading", progress=False)
        bar.update(1)
        return result

    started = time.perf_counter()
    doc.text(f"# Goofspiel: balance report\n\nMade by `games.goofspiel.study` "
             f"(balance-toolkit {__version__}): {n_games:,} games per batch, master seed {seed}. "
             "Goofspiel is OpenSpiel's `goofspiel` with the same parameters (default 13 cards, "
             "2 players, shuffled prizes, a tie for the highest bid discards the prize); "
             "games/goofspiel/RULES.md records the calibration against OpenSpiel.\n\n"
             "**Reading the numbers.** A draw (equal points) counts 1/2 to each seat, a shared "
             "win 1/k. Intervals are 95% (Wilson for rates, t for means). *Advantage* is a "
             "seat's win rate minus its fair share 1/N; its p-value is a z-test, Holm-corrected "
             "across the seats of one batch.")
    _seats(doc, run)
    _pairs(doc, run)
    skill_section(doc, "goofspiel", None, "match", skill_games(n_games // 5, quick), seed, jobs,
                  (4, 16) if quick else (16, 64), metrics=["win_0"])
    bar.close()
    doc.text(ran_in("goofspiel", started, f"{n_batches} batches, jobs={jobs}"))
    return doc.write()


def _label(rules: dict) -> str:
    return (f"{rules['num_cards']} cards, {rules.get('players', 2)} players, "
            f"{rules.get('points_order', 'random')} prizes")


def _seats(doc: Doc, run) -> None:
    doc.text("## (a) Seat symmetry and scores, every seat random\n\n"
             "GS-3 makes the bids simultaneous, so no seat should win more than its share.")
    batches = [({"variant": _label(rules)}, run(rules, "random")) for rules in SEAT_VARIANTS]
    overview = T.batch_table(batches, end_reason="draw")
    doc.table("a_overview", overview, pd.DataFrame({
        "variant": overview["variant"],
        "draws (95% CI)": pct_text(overview["draw"], overview["draw_low"], overview["draw_high"]),
        "balance": overview["balance"].map("{:.4f}".format),
        "seat uniformity p": overview["uniformity_p"].map(p_text)}))
    seats = T.stack([(k, T.seat_table(b)) for k, b in batches])
    doc.table("a_seat_win_rates", seats, seat_view(seats, ["variant", "seat"]))
    doc.figure("a_seat_win_rates", plots.win_rate_plot(seats, ["variant", "seat"]),
               "Each dot is one seat's win share (draws 1/2) with its 95% interval; the dashed "
               "tick is the fair share 1/N. Every interval should cover its tick.")
    top, verdict = largest_seat_advantage(seats, lambda top: f"seat {top['seat']}, {top['variant']}")
    doc.verdict(verdict)
    reading = ("consistent with no seat advantage, as the simultaneous bids imply"
               if top["p_holm"] >= 0.05 else
               "a seat advantage at Holm-corrected p < 0.05, which the rules do not allow: with "
               "small batches this is chance (the largest of all seats is picked), otherwise a bug")
    doc.finding(f"{verdict[0].upper()}{verdict[1:]} (Holm-corrected p {p_text(top['p_holm'])}; "
                f"table a_seat_win_rates): {reading}.")

    _, thirteen = batches[2]
    records = thirteen.records.assign(point_difference=lambda r: r["points_0"] - r["points_1"])
    points = T.value_counts(thirteen, "points_0")
    doc.csv("a_points", points)
    doc.figure("a_points", plots.distribution_plot(points, "points_0", what="Final points of "
                                                   "seat 0 (13 cards, random play)"),
               "Share of games ending with each total of prize points (of 91). Ties discard "
               "prizes, so the two seats' totals add up to at most 91.")
    difference = T.value_counts(records, "point_difference", provenance=thirteen.provenance)
    doc.csv("a_point_difference", difference)
    doc.figure("a_point_difference", plots.distribution_plot(
        difference, "point_difference", what="Seat 0's points minus seat 1's (13 cards, random)"),
        "Symmetric around 0 under random play; the bar at 0 is the draw share.")
    mean = records["point_difference"].mean()
    half = 1.96 * records["point_difference"].std() / np.sqrt(len(records))
    doc.finding(f"With 13 cards and random play the mean point difference (seat 0 - seat 1) is "
                f"{mean:+.2f} (95% CI {mean - half:+.2f} to {mean + half:+.2f}); "
                f"{overview['draw'].iloc[2]:.1%} of games are drawn (table a_overview).")


def _pairs(doc: Doc, run) -> None:
    doc.text("## (b) The built-in strategies against each other, from both seats\n\n"
             "`match` bids the card equal to the prize (or the nearest left); `greedy` bids its "
             "highest card on prizes at or above the median of those still in play and its "
             "lowest otherwise; `random` bids uniformly. Each pair plays 13-card games from both "
             "seatings; a strategy's share is pooled over the two.")
    rows = []
    for a, b in PAIRS:
        first, second = run({"num_cards": 13}, [a, b]), run({"num_cards": 13}, [b, a])
        share_a = first.records["win_0"].to_numpy().tolist() + second.records["win_1"].to_numpy().tolist()
        rows.append((a, b, first, second, np.array(share_a)))
    table = pd.DataFrame([{
        "strategy": a, "opponent": b, "games": len(s),
        "win share": s.mean(), "ci_low": _wilson(s)[0], "ci_high": _wilson(s)[1],
        "as seat 0": f0.records["win_0"].mean(), "as seat 1": f1.records["win_1"].mean()}
        for a, b, f0, f1, s in rows])
    table.attrs["provenance"] = {"batches": [r.provenance for _, _, f0, f1, _ in rows for r in (f0, f1)]}
    doc.table("b_pairs", table, pd.DataFrame({
        "strategy": table["strategy"], "opponent": table["opponent"],
        "win share (95% CI)": pct_text(table["win share"], table["ci_low"], table["ci_high"]),
        "as seat 0": table["as seat 0"].map("{:.1%}".format),
        "as seat 1": table["as seat 1"].map("{:.1%}".format)}))
    best = table.loc[table["win share"].idxmax()]
    doc.finding(f"`{best['strategy']}` beats `{best['opponent']}` in {best['win share']:.1%} of "
                f"games (95% CI {best['ci_low']:.1%} to {best['ci_high']:.1%}; table b_pairs); the "
                "share is the same from either seat within its interval.")


def _wilson(shares: np.ndarray) -> tuple[float, float]:
    low, high = wilson(shares.sum(), len(shares))
    return float(low), float(high)
