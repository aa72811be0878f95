"""Each game's balance report: run its default study, write Markdown + PNG + CSV.

    python -m analysis.report --games 200000 --jobs 2 --out reports/parthian
    python -m analysis.report --game sunzi --jobs 2

Parthian Shot: every batch is streamed (the engine keeps only its mergeable Summary), so
``--games`` can grow to millions without the per-game tables ever being held in memory.
Sunzi / Dynasties: the mode batches keep their per-game records (the paired mode comparison, the
card tables and the outcome-by-round table need them), so memory grows with ``--games``
(about 3 MB per batch of 20,000 games, 8 batches held at once); the leader grid's batches are
reduced one at a time.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Sequence

import pandas as pd
from tqdm.auto import tqdm

from sim import __version__
from sim.errors import BalanceError
from sim.parthian.rules import PLAYER_COUNTS, ParthianRules
from sim.results import Results
from sim.runner import simulate

from . import plots
from . import tables as T
from .stats import wilson
from .provenance import describe

DEFAULT_GAMES = 50_000
OFFSETS = tuple(range(-4, 5))
MIX_PLAYERS = 4
# Seats are filled in the listed order; the rules give no seat a role (play is simultaneous).
MIXES = {
    "cautious + 3 random": ["cautious", "random", "random", "random"],
    "glory + 3 random": ["glory", "random", "random", "random"],
    "lowball + 3 random": ["lowball", "random", "random", "random"],
    "cautious + glory + 2 random": ["cautious", "glory", "random", "random"],
    "2 cautious + 2 glory": ["cautious", "cautious", "glory", "glory"],
    "all cautious": ["cautious"] * 4,
    "all glory": ["glory"] * 4,
}
SEAT_METRICS = ("merits", "wounds", "charges_played", "score", "routed")

OP1_NOTE = (
    "**OP-1 (legion strengths).** The printed legion strengths are not published. Every batch "
    "here uses the toolkit's shipped default set (`sim/parthian/data/legions_default.csv`; "
    "`sim/parthian/rules.py` says how it was made), listed below. Team victory rates and the "
    "legion-strength sweep describe this set, not the printed cards.")


def parthian_report(out_dir: str | Path = "reports/parthian", n_games: int = DEFAULT_GAMES,
                    seed: int = 0, jobs: int = 1, progress: bool = False) -> Path:
    """Run the default Parthian Shot study and write ``index.md`` with its PNGs and CSVs.

    Parameters
    ----------
    out_dir : folder for the report (created; files in it are overwritten).
    n_games : games per batch. The study has 4 + 7 + 36 = 47 batches.
    seed : master seed of every batch (the same game id gets the same deal in every batch).
    jobs : parallel workers per batch (see sim.runner.simulate).
    progress : show a progress bar over the batches.

    Returns
    -------
    Path of the written index.md.
    """
    doc = _Doc(Path(out_dir))
    n_batches = len(PLAYER_COUNTS) + len(MIXES) + len(PLAYER_COUNTS) * len(OFFSETS)
    bar = tqdm(total=n_batches, unit="batch", disable=not progress, desc="parthian report")

    def run(rules: dict, strategies) -> Results:
        # Threads, not processes: the kernels release the GIL, and the batches are too small
        # to repay the start-up and transfer costs of worker processes.
        result = simulate("parthian", rules, strategies, n_games, seed, jobs=jobs,
                          backend="threading", stream=True, progress=False)
        bar.update(1)
        return result

    started = time.perf_counter()
    _intro(doc, n_games, seed)
    _player_counts(doc, run)
    _mixes(doc, run)
    _sweep(doc, run)
    bar.close()
    doc.text(f"_Study ran in {time.perf_counter() - started:.1f} s ({n_batches} batches, "
             f"jobs={jobs})._")
    return doc.write()


# --- sections ---------------------------------------------------------------------------------

def _intro(doc: "_Doc", n_games: int, seed: int) -> None:
    doc.text(f"# Parthian Shot: balance report\n\n"
             f"Made by `analysis.report.parthian_report` (balance-toolkit {__version__}): "
             f"{n_games:,} games per batch, master seed {seed}. Each table names the batches it "
             "comes from; `provenance.json` holds the full rule variant, strategies, n, seed and "
             "version of every CSV.\n\n" + OP1_NOTE)
    strengths = pd.DataFrame({"players": PLAYER_COUNTS, "legion strengths": [
        ", ".join(map(str, ParthianRules(n_players=n).strengths())) for n in PLAYER_COUNTS]})
    doc.text("Legion strengths used (offset 0):\n\n" + _markdown(strengths))
    doc.text("**Reading the numbers.** A shared win counts 1/k to each of the k tied seats; a "
             "game nobody wins counts for no seat, so seat win rates add up to the share of games "
             "with a winner. Intervals are 95% (Wilson for rates, t for means). *Advantage* is a "
             "seat's win rate minus its fair share (1/N of the games with a winner); its p-value "
             "is a z-test, Holm-corrected across the seats of one batch. *Balance* is Ludii's: "
             "1 - the largest gap between two seats' win rates. The team victory rate is the "
             "share of games in which all 7 legions fall (PS-15).")


def _player_counts(doc: "_Doc", run) -> None:
    doc.text("## (a) Player counts, every seat random")
    batches = [({"players": n}, run({"n_players": n}, "random")) for n in PLAYER_COUNTS]
    overview = T.batch_table(batches, end_reason="victory")
    doc.table("a_overview", overview, _overview_view(overview))

    seats = T.stack([(k, T.seat_table(b)) for k, b in batches])
    doc.table("a_seat_win_rates", seats, _seat_view(seats, ["players", "seat"]))
    doc.figure("a_seat_win_rates", plots.win_rate_plot(seats, ["players", "seat"]),
               "Each dot is one seat's win rate with its 95% interval; the dashed tick is the "
               "fair share 1/N. An interval that misses its tick marks a seat advantage worth "
               "checking against the Holm-corrected p in the table.")

    lengths = T.stack([(k, T.length_table(b)) for k, b in batches])
    doc.table("a_length", lengths, lengths.drop(columns=["measure", "ci_low", "ci_high"]))
    counts = T.stack([(k, T.length_counts(b)) for k, b in batches])
    doc.csv("a_length_counts", counts)
    doc.figure("a_length", plots.length_plot(counts, group="players"),
               "Share of games lasting each number of rounds, one line per player count. Seven "
               "rounds is the shortest victory; a defeat (rout) can end a game earlier, and "
               "breakthroughs that return legions to the deck make it longer.")

    means = T.stack([(k, T.seat_means_table(b, SEAT_METRICS)) for k, b in batches])
    doc.table("a_seat_means", means, _means_view(means))


def _mixes(doc: "_Doc", run) -> None:
    doc.text(f"## (b) Strategy mixes at {MIX_PLAYERS} players\n\n"
             "Strategies: `random` (uniform legal card), `cautious` (avoids being the highest "
             "card on a likely breakthrough), `glory` (charges whenever it may, else plays high), "
             "`lowball` (always its lowest card). Seats are filled in the order listed; a "
             "strategy's win rate is per seat, pooled over the seats it holds, and its interval "
             "treats each game as one trial (the seats of one game are not independent). "
             "`cautious` and `glory` never draw random numbers, so in the all-same mixes every "
             "seat plays the same card each round: those rows test the rules' tie cases (see "
             "'games with a winner'), not the strategies.")
    batches = [({"mix": name}, run({"n_players": MIX_PLAYERS}, seats)) for name, seats in MIXES.items()]
    overview = T.batch_table(batches, end_reason="victory")
    doc.table("b_overview", overview, _overview_view(overview))
    strategies = T.stack([(k, T.strategy_table(b)) for k, b in batches])
    doc.table("b_strategy_win_rates", strategies, _seat_view(strategies, ["mix", "strategy", "seats"]))
    doc.figure("b_strategy_win_rates", plots.win_rate_plot(strategies, ["mix", "strategy"]),
               "Each dot is a strategy's win rate per seat within one mix, with its 95% interval; "
               "the dashed tick is the fair share 1/N. Above the tick the strategy beats its "
               "table-mates; in an all-same mix it sits on the tick by construction.")


def _sweep(doc: "_Doc", run) -> None:
    doc.text("## (c) Legion strength sweep (every seat random)\n\n"
             f"`legion_offset` from {OFFSETS[0]} to +{OFFSETS[-1]} is added to all 7 legion "
             "strengths of the default set. All points use the same seed, so a game id gets the "
             "same deck order at every offset: neighbouring points are positively correlated and "
             "the curve is smoother than independent batches would give. The bands are per point; "
             "to compare two offsets, run both with records kept and use "
             "`analysis.tables.paired_table`.")
    batches = [({"players": n, "legion_offset": off},
                run({"n_players": n, "legion_offset": off}, "random"))
               for n in PLAYER_COUNTS for off in OFFSETS]
    sweep = T.batch_table(batches, end_reason="victory")
    doc.table("c_sweep", sweep, _overview_view(sweep))
    doc.figure("c_sweep_victory", plots.sweep_plot(sweep, "legion_offset", "victory", "players",
                                                   ylabel="team victory rate"),
               "Team victory rate (all 7 legions defeated) as every legion gets stronger (to the "
               "right), one line per player count; the band is the 95% interval. A designer "
               "aiming at a target rate reads off the offset where a line crosses it.")
    doc.figure("c_sweep_rounds", plots.sweep_plot(sweep, "legion_offset", "rounds_mean", "players",
                                                  "rounds_low", "rounds_high", ylabel="mean rounds"),
               "Mean game length in rounds against the legion offset, one line per player count, "
               "with the 95% interval of the mean as a band.")
    doc.figure("c_sweep_heatmap", plots.heatmap(sweep, "players", "legion_offset", "victory"),
               "The same team victory rates as a grid: one cell per player count and offset.")


# --- Sunzi / Dynasties ------------------------------------------------------------------------

SUNZI_GAMES = 20_000
# Mirror pairings measure the sides, not the players. `counter` is the strongest built-in; the
# `greedy` mirror is left out because it draws almost every basic and advanced game (section e).
SUNZI_PAIRINGS = {"random vs random": ["random", "random"],
                  "counter vs counter": ["counter", "counter"]}
SUNZI_GRID_MODES = ("basic", "advanced")
SUNZI_LADDER = ("random", "greedy", "counter")
SUNZI_LADDER_MODES = ("basic", "advanced")


def sunzi_report(out_dir: str | Path = "reports/sunzi", n_games: int = SUNZI_GAMES,
                 seed: int = 0, jobs: int = 1, progress: bool = False) -> Path:
    """Run the default Sunzi / Dynasties study and write ``index.md`` with its PNGs and CSVs.

    Parameters
    ----------
    out_dir : folder for the report (created; files in it are overwritten).
    n_games : games per batch. The study has 2 x 4 mode batches, 2 x 2 x 16 fixed leader
        pairings and 2 x 9 strategy pairings: 90 batches.
    seed : master seed of every batch: game g gets the chance streams of (seed, g) in every
        batch, so the mode comparison is paired on common random numbers.
    jobs : parallel workers per batch (threads; see sim.runner.simulate).
    progress : show a progress bar over the batches.

    Returns
    -------
    Path of the written index.md.
    """
    from . import sunzi as SZ

    doc = _Doc(Path(out_dir))
    n_pairings = len(SUNZI_PAIRINGS)
    n_batches = (n_pairings * len(SZ.MODES) + n_pairings * len(SUNZI_GRID_MODES) * 16
                 + len(SUNZI_LADDER_MODES) * len(SUNZI_LADDER) ** 2)
    bar = tqdm(total=n_batches, unit="batch", disable=not progress, desc="sunzi report")

    def run(rules: dict, strategies, stream: bool = False) -> Results:
        result = simulate("sunzi", rules, strategies, n_games, seed, jobs=jobs,
                          backend="threading", stream=stream, progress=False)
        bar.update(1)
        return result

    started = time.perf_counter()
    _sunzi_intro(doc, n_games, seed)
    modes = [({"pairing": name, "mode": mode}, run(options, seats))
             for name, seats in SUNZI_PAIRINGS.items() for mode, options in SZ.MODES.items()]
    _sunzi_sides(doc, SZ, modes)
    _sunzi_modes(doc, SZ, modes)
    _sunzi_cards(doc, SZ, modes)
    _sunzi_leaders(doc, SZ, modes, run)
    del modes
    _sunzi_ladder(doc, run)
    bar.close()
    doc.text(f"_Study ran in {time.perf_counter() - started:.1f} s ({n_batches} batches, "
             f"jobs={jobs})._")
    return doc.write()


def _sunzi_intro(doc: "_Doc", n_games: int, seed: int) -> None:
    from sim.sunzi.rules import LEADER_NAMES

    leaders = pd.DataFrame({"letter": list("abcd"), "White (Sun Wu)": LEADER_NAMES[0],
                            "Black (King of Chu)": LEADER_NAMES[1]})
    doc.text(
        "# Sunzi / Dynasties: balance report\n\n"
        f"Made by `analysis.report.sunzi_report` (balance-toolkit {__version__}): {n_games:,} "
        f"games per batch, master seed {seed}. White = Sun Wu = seat 0, Black = King Zhao of Chu "
        "= seat 1. Each table names the batches it comes from; `provenance.json` holds the full "
        "rule variant, strategies, n, seed and version of every CSV. Rule ids (SZ-n, OP-n) refer "
        "to the rules brief; every open point is played at its default reading "
        "(`balance options sunzi` lists them).\n\n"
        "**Modes.** *basic*: 21 armies, no +2/+3 (SZ-1). *advanced*: 18 armies, +2/+3, white "
        "cards and the Plague can be discarded for an army (SZ-2). *warlord*: on top of either, "
        "each side has one leader power, used once (SZ-3); in the mode comparison each side's "
        "strategy picks its leader (the built-ins pick at random), in section (d) the pairing is "
        "fixed. Leader powers:\n\n" + _markdown(leaders))
    doc.text(
        "**Strategies.** `random`: a uniformly random legal action at every decision. `greedy`: "
        "its strongest cards on the regions that matter most, white cards saved for scoring "
        "rounds. `counter`: greedy, but answers the opponent (Plague on its biggest army, -1 "
        "where its white cards will land). Side balance is measured with mirror pairings (the "
        "same strategy on both sides), so that a difference between the sides is the game's, "
        "not the players'.\n\n"
        "**Reading the numbers.** A full tie after round 9 is a draw (OP-12) and counts half a "
        "win to each side, so White's and Black's win rates add up to 1 (White's rate is Ludii's "
        "AdvantageP1). Intervals are 95% (Wilson for rates, t for means, Newcombe for a "
        "difference of two rates). The score general's position is read from White's side: "
        "+9 is White's red zone, -9 Black's. *Early* wins are red-zone wins at the round-3 or "
        "round-6 scoring (SZ-19); everything else is decided at round 9 (a red zone at the last "
        "scoring, the general's side, the armies in supply, or a draw: SZ-19, SZ-20).")


def _batch_label(table: pd.DataFrame) -> list[str]:
    return [f"{p} | {m}" for p, m in zip(table["pairing"], table["mode"])]


def _sunzi_sides(doc: "_Doc", SZ, modes) -> None:
    doc.text("## (a) Sides and outcomes, per mode and strategy pairing")
    overview = SZ.overview(modes)
    doc.table("a_overview", overview, pd.DataFrame({
        "pairing": overview["pairing"], "mode": overview["mode"],
        "White win rate (95% CI)": _pct(overview["white_win_rate"], overview["white_low"],
                                        overview["white_high"]),
        "draws (95% CI)": _pct(overview["draw"], overview["draw_low"], overview["draw_high"]),
        "early red-zone wins (95% CI)": _pct(overview["early_red_zone"],
                                             overview["early_red_zone_low"],
                                             overview["early_red_zone_high"]),
        "mean rounds": overview["rounds_mean"].map("{:.2f}".format),
        "mean general (95% CI)": [f"{m:+.2f} ({lo:+.2f} to {hi:+.2f})" for m, lo, hi in zip(
            overview["general_mean"], overview["general_low"], overview["general_high"])],
        "mean abs(general)": overview["abs_general_mean"].map("{:.2f}".format),
        "mean lead changes": overview["lead_changes_mean"].map("{:.3f}".format),
    }))

    sides = T.stack([(k, SZ.side_table(b)) for k, b in modes])
    doc.table("a_sides", sides, pd.DataFrame({
        "pairing": sides["pairing"], "mode": sides["mode"], "side": sides["side"],
        "win rate (95% CI)": _pct(sides["win_rate"], sides["ci_low"], sides["ci_high"]),
        "advantage (pp)": (100 * sides["advantage"]).map("{:+.2f}".format),
        "p (Holm)": sides["p_holm"].map(_p_text)}))
    white = sides[sides["seat"] == 0]
    doc.figure("a_white_win_rate", plots.win_rate_plot(
        white, ["pairing", "mode"], what="White's win rate (Sun Wu; a draw counts 1/2)"),
               "White's win rate (a draw counts 1/2) in each mode and pairing, with its 95% "
               "interval; the dashed tick is 1/2. An interval that misses the tick is a side "
               "advantage: above it favours Sun Wu, below it the King of Chu.")

    outcomes = T.stack([(k, SZ.outcome_table(b)) for k, b in modes])
    wide = outcomes.pivot_table(index=["pairing", "mode"], columns="outcome", values="rate",
                                sort=False)
    stages = outcomes.groupby(["pairing", "mode", "stage"], sort=False)[["games", "white_wins"]].sum()
    doc.table("a_outcomes", outcomes, pd.DataFrame({
        "pairing": [i[0] for i in wide.index], "mode": [i[1] for i in wide.index],
        **{c: wide[c].map("{:.1%}".format).to_numpy() for c in SZ.OUTCOMES},
        "White's share of early wins (95% CI)": [_share_text(stages, (p, m, "early"))
                                                 for p, m in wide.index],
        "White's share of round-9 results (95% CI)": [_share_text(stages, (p, m, "round 9"))
                                                      for p, m in wide.index]}))
    shown = outcomes[outcomes["outcome"] != "invariant broken"]
    shown = shown.assign(batch=_ordered(_batch_label(shown)), outcome=_ordered(shown["outcome"]))
    doc.figure("a_outcomes", plots.heatmap(shown, "batch", "outcome", "rate", cmap="Blues",
                                           rotation=25, what="How games end (share of games)"),
               "Share of games ending each way (a row sums to 1). The first two columns are the "
               "early red-zone wins; the others are decided at round 9. Army conservation was "
               f"checked in every game: {int(outcomes.loc[outcomes['outcome'] == 'invariant broken', 'games'].sum())} "
               "games broke it (table above).")

    margins = T.stack([(k, SZ.margin_counts(b)) for k, b in modes])
    doc.csv("a_margin", margins)
    for i, pairing in enumerate(SUNZI_PAIRINGS):
        part = margins[margins["pairing"] == pairing]
        part.attrs = {"provenance": {"batches": [b.provenance for k, b in modes
                                                 if k["pairing"] == pairing]}}
        doc.figure(f"a_margin_{i}", plots.distribution_plot(
            part, "general", group="mode", what=f"Final position of the score general ({pairing})",
            xlabel="general (+ = towards White's red zone)"),
            "Share of games ending with the general at each position, one line per mode "
            "(table: `a_margin.csv`). The spikes at ±9 are red-zone wins; the shape in between "
            "is the margin of the games decided on the general's side after round 9, and 0 is a "
            "central general (supply decides, or a draw). A lopsided curve is a side advantage; "
            "a flat middle means close games are common.")

    leads = T.stack([(k, SZ.lead_change_counts(b)) for k, b in modes])
    wide = leads.pivot_table(index=["pairing", "mode"], columns="lead_changes", values="share",
                             sort=False)
    doc.table("a_lead_changes", leads, pd.DataFrame({
        "pairing": [i[0] for i in wide.index], "mode": [i[1] for i in wide.index],
        **{f"{c} lead changes": wide[c].map("{:.1%}".format).to_numpy() for c in wide.columns}}))
    leads_plot = leads.assign(batch=_batch_label(leads))
    doc.figure("a_lead_changes", plots.distribution_plot(
        leads_plot, "lead_changes", group="batch",
        what="Lead changes of the score general", xlabel="lead changes (side of the general "
        "after a scoring differs from after the previous one)"),
        "Share of games by the number of lead changes, one line per pairing and mode. The "
        "general is read after each of the 3 scorings, so at most 2 changes are possible; more "
        "mass at 1-2 means comebacks are common, all mass at 0 means the first scoring decides.")


def _sunzi_modes(doc: "_Doc", SZ, modes) -> None:
    paired = SZ.mode_comparison(modes)
    random_rows = paired[paired["pairing"] == next(iter(SUNZI_PAIRINGS))]
    doc.text("## (b) Mode comparison on common random numbers\n\n"
             "Every batch used the same master seed, so game g of every mode draws from the same "
             "chance streams and the modes can be compared game by game: the paired difference "
             "of White's win share against basic, with a paired t-interval, and p-values "
             "Holm-corrected across all the comparisons in the table. Two columns say how much "
             "the pairing buys. `same deal` is the share of game ids dealt the same opening "
             "hands in both modes (basic and advanced decks hold different cards, so their "
             "shuffles differ). `corr` is the correlation of the per-game results: the variance "
             "that pairing removes; compare the paired interval with `unpaired half-width`, "
             "the half-width two independent batches would give. With random players it is "
             f"small here ({random_rows['corr'].min():.2f} to {random_rows['corr'].max():.2f}) "
             "even where the deal is the same: a random player's stream is consumed by every "
             "decision, so one extra decision (a leader power) desynchronises the rest of the "
             "game. The heuristics decide deterministically, so their games stay aligned (their "
             "`corr` is n/a when one mode's results never vary). The test is valid either way; "
             "it is only sharper when `corr` is high.")
    doc.table("b_mode_paired", paired, pd.DataFrame({
        "pairing": paired["pairing"], "comparison": paired["comparison"],
        "White: variant": paired["mean_a"].map("{:.2%}".format),
        "White: basic": paired["mean_b"].map("{:.2%}".format),
        "difference, pp (95% CI)": [
            f"{100 * d:+.2f} ({100 * lo:+.2f} to {100 * hi:+.2f})" if not pd.isna(lo)
            else f"{100 * d:+.2f} (no spread)"
            for d, lo, hi in zip(paired["diff"], paired["ci_low"], paired["ci_high"])],
        "p (Holm)": paired["p_holm"].map(_p_text),
        "same deal": paired["same_opening"].map("{:.1%}".format),
        "corr": paired["corr"].map(lambda c: "n/a" if pd.isna(c) else f"{c:.3f}"),
        "unpaired half-width (pp)": (100 * paired["unpaired_half"]).map("{:.2f}".format)}))
    doc.figure("b_mode_paired", plots.difference_plot(
        paired, ["pairing", "comparison"], xlabel="change in White's win rate vs basic",
        what="Mode comparison: paired difference in White's win rate against basic"),
        "Each dot is how much White's win rate changes from basic to that mode, for the same "
        "games (seeds), with its 95% paired interval. An interval that misses the dashed zero "
        "line is a real change; check the Holm-corrected p in the table before believing one.")


def _sunzi_cards(doc: "_Doc", SZ, modes) -> None:
    doc.text("## (c) Cards\n\n"
             "Per side and card (white 7-10 and the specials; the yellow 1-6 are in every hand "
             "all game): GIH WR = the side's win rate in games where it held the card at some "
             "point, OH WR = in the opening hand, GD WR = drawn later, GNS WR = never held, "
             "IWD = GIH - GNS, Played WR = in games where the side played it, play rate = "
             "played / held. *OH gain* = OH WR minus the win rate when the card was not in the "
             "opening hand: the opening deal is random, so this is the one unconfounded card "
             "effect here. The others are not: every deck card is held by round 3 (basic) or 5 "
             "(advanced) unless the game ends first, so 'never held' means 'the game ended "
             "early' and IWD mostly measures that; and a strategy's choice of when to play a card "
             "shapes Played WR. `c_cards.csv` has every mode and pairing; shown: advanced mode.")
    cards = T.stack([(k, SZ.card_table(b)) for k, b in modes])
    doc.csv("c_cards", cards)
    for i, pairing in enumerate(SUNZI_PAIRINGS):
        part = cards[(cards["pairing"] == pairing) & (cards["mode"] == "advanced")]
        batch = next(b for k, b in modes if k["pairing"] == pairing and k["mode"] == "advanced")
        part.attrs = {"provenance": dict(batch.provenance)}
        doc.text(f"**{pairing}, advanced**\n\n" + _markdown(pd.DataFrame({
            "side": part["side"], "card": part["card"],
            "GIH WR": _pct(part["gih_wr"], part["gih_low"], part["gih_high"]),
            "OH WR": _pct(part["oh_wr"], part["oh_low"], part["oh_high"]),
            "OH gain, pp (95% CI)": _pp(part["oh_gain"], part["oh_gain_low"], part["oh_gain_high"]),
            "Played WR": _pct(part["played_wr"], part["played_low"], part["played_high"]),
            "play rate": part["play_rate"].map("{:.1%}".format),
            "games never held": part["n_gns"],
            "IWD, pp (95% CI)": _pp(part["iwd"], part["iwd_low"], part["iwd_high"]),
        })) + f"\n\n*Provenance:* {describe(part.attrs['provenance'])}. Full table: "
            "[`c_cards.csv`](c_cards.csv).")
        doc.figure(f"c_cards_{i}", plots.card_plot(part, ("oh", "noh", "played")),
                   "Per card, three win rates of the side that owns it, with 95% intervals: "
                   "with the card in the opening hand, without it in the opening hand, and in "
                   "games where it was played; the dashed line is the side's overall win rate. "
                   "A card whose first two dots are apart changes the game by being dealt; "
                   "Played WR far from the line says when the strategy plays it (e.g. a card "
                   "played only when already winning), not how strong it is.")


def _sunzi_leaders(doc: "_Doc", SZ, modes, run) -> None:
    doc.text("## (d) Leaders (warlord)\n\n"
             "Every fixed pairing of Sun Wu's leader (rows) against the King of Chu's (columns), "
             "on top of basic and of advanced. A cell is White's win rate (a draw counts 1/2); "
             "the CSV has its 95% interval, the draws and early red-zone wins, and a test of "
             "White's share against 1/2, Holm-corrected across all the cells of the CSV.")
    batches = ((({"pairing": name, "base": base, "leader_white": lw, "leader_black": lb}),
                run({"mode": base, "warlord": True, "leader_white": lw, "leader_black": lb}, seats))
               for name, seats in SUNZI_PAIRINGS.items() for base in SUNZI_GRID_MODES
               for lw in "abcd" for lb in "abcd")
    grid = SZ.leader_grid(batches)
    doc.csv("d_leader_grid", grid)
    for i, ((pairing, base), part) in enumerate(grid.groupby(["pairing", "base"], sort=False)):
        part = part.copy()
        part.attrs = {"provenance": {"batches": [grid.attrs["provenance"]["batches"][j]
                                                 for j in part.index]}}
        cell = part.assign(cell=_pct(part["white_win_rate"], part["ci_low"], part["ci_high"]))
        wide = cell.pivot(index="white_leader", columns="black_leader", values="cell")
        doc.text(f"**{pairing}, warlord on {base}**: White's win rate (95% CI); rows Sun Wu's "
                 "leader, columns Chu's\n\n" + _markdown(wide.reset_index().rename(
                     columns={"white_leader": "Sun Wu \\ Chu"})) +
                 f"\n\n*Provenance:* {describe(part.attrs['provenance'])}. Full table: "
                 "[`d_leader_grid.csv`](d_leader_grid.csv).")
        doc.figure(f"d_leaders_{i}", plots.heatmap(
            part, "white_leader", "black_leader", "white_win_rate", fmt="{:.3f}", cmap="RdBu_r",
            center=0.5, rotation=20,
            what=f"White's win rate by leader pairing ({pairing}, warlord on {base})"), "White's win rate for each pairing of leaders (rows: Sun Wu's, columns: "
            "Chu's). Red: Sun Wu favoured, blue: Chu favoured, white: even. A row that is red "
            "throughout is a leader that is strong whatever Chu picks; a column that is blue "
            "throughout, the same for Chu.")
    picks = T.stack([(k, SZ.leader_picks(b)) for k, b in modes if k["mode"].startswith("warlord")])
    doc.table("d_leader_picks", picks, pd.DataFrame({
        "pairing": picks["pairing"], "mode": picks["mode"], "side": picks["side"],
        "leader": picks["label"], "picked": picks["share"].map("{:.1%}".format),
        "side's win rate when picked (95% CI)": _pct(picks["win_rate"], picks["ci_low"],
                                                      picks["ci_high"])}))
    doc.text("The table above is from the mode comparison's warlord batches, where each "
             "strategy picked its own leader (the built-ins pick uniformly at random): a second "
             "look at the leader powers, each pick averaged over the opponent's random picks.")


def _sunzi_ladder(doc: "_Doc", run) -> None:
    doc.text("## (e) Strategy pairings\n\n"
             "White's strategy (rows) against Black's (columns). Off the diagonal this measures "
             "the players, not the sides; it is here to show which pairings can measure the "
             "sides. The heuristics never draw random numbers outside leader choice, so a "
             "mirror of two heuristics plays the same moves on both sides and ends in a draw "
             "whenever the deal is symmetric enough; a pairing whose games all end the same "
             "way says nothing about balance.")
    batches = [({"mode": mode, "white": a, "black": b}, run({"mode": mode}, [a, b], stream=True))
               for mode in SUNZI_LADDER_MODES for a in SUNZI_LADDER for b in SUNZI_LADDER]
    rows = T.stack([(k, T.seat_table(b).iloc[[0]]) for k, b in batches])
    draws = [T.end_reason_table(b).set_index("end_reason").loc["draw", "rate"] for _, b in batches]
    ladder = rows.assign(draw=draws)
    doc.table("e_strategy_pairings", ladder, pd.DataFrame({
        "mode": ladder["mode"], "White": ladder["white"], "Black": ladder["black"],
        "White win rate (95% CI)": _pct(ladder["win_rate"], ladder["ci_low"], ladder["ci_high"]),
        "draws": ladder["draw"].map("{:.1%}".format)}))
    view = ladder.assign(row=_ordered(f"{m}: {w}" for m, w in zip(ladder["mode"], ladder["white"])),
                         black=_ordered(ladder["black"]))
    doc.figure("e_strategy_pairings", plots.heatmap(
        view, "row", "black", "win_rate", fmt="{:.3f}", cmap="RdBu_r", center=0.5,
        what="White's win rate by strategy pairing"),
               "White's win rate for each pair of strategies (rows: mode and White's strategy; "
               "columns: Black's). Only the diagonal (mirror) cells speak to side balance.")


def _share_text(stages: pd.DataFrame, key) -> str:
    games, white = stages.loc[key, "games"], stages.loc[key, "white_wins"]
    if games == 0:
        return "-"
    low, high = wilson(white, games)
    return f"{white / games:.1%} ({100 * low:.1f}-{100 * high:.1f})"


def _ordered(values) -> pd.Categorical:
    """Categories in order of first appearance, so that a heat map keeps the table's order."""
    values = list(values)
    return pd.Categorical(values, categories=list(dict.fromkeys(values)), ordered=True)


def _pp(est, low, high) -> list[str]:
    return ["-" if pd.isna(e) else
            (f"{100 * e:+.1f} (n/a)" if pd.isna(lo) else
             f"{100 * e:+.1f} ({100 * lo:+.1f} to {100 * hi:+.1f})")
            for e, lo, hi in zip(est, low, high)]


# --- display helpers --------------------------------------------------------------------------

def _pct(est, low, high) -> list[str]:
    return ["-" if pd.isna(e) else f"{100 * e:.1f}% ({100 * lo:.1f}-{100 * hi:.1f})"
            for e, lo, hi in zip(est, low, high)]


def _p_text(p: float) -> str:
    return "n/a" if pd.isna(p) else f"{p:.2g}"  # n/a: nothing to test (one strategy, no winner)


def _overview_view(table: pd.DataFrame) -> pd.DataFrame:
    keys = [c for c in table.columns if c not in _HEADLINE and not c.startswith(("victory", "rounds"))]
    return pd.DataFrame({
        **{k: table[k] for k in keys},
        "games with a winner": (table["n_decided"] / table["n_games"]).map("{:.1%}".format),
        "team victory (95% CI)": _pct(table["victory"], table["victory_low"], table["victory_high"]),
        "balance": table["balance"].map("{:.3f}".format),
        "seat uniformity p": table["uniformity_p"].map(_p_text),
        "mean rounds (95% CI)": [f"{m:.2f} ({lo:.2f}-{hi:.2f})" for m, lo, hi in
                                 zip(table["rounds_mean"], table["rounds_low"], table["rounds_high"])],
        "sd rounds": table["rounds_sd"].map("{:.2f}".format),
    })


_HEADLINE = {"n_games", "n_decided", "balance", "uniformity_p"}


def _seat_view(table: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    return pd.DataFrame({
        **{k: table[k] for k in keys},
        **({} if "strategy" in keys else {"strategy": table["strategy"]}),
        "win rate (95% CI)": _pct(table["win_rate"], table["ci_low"], table["ci_high"]),
        "fair": table["fair"].map("{:.3f}".format),
        "advantage (pp)": (100 * table["advantage"]).map("{:+.2f}".format),
        "p (Holm)": table["p_holm"].map(_p_text),
    })


def _means_view(table: pd.DataFrame) -> pd.DataFrame:
    """Wide: one row per (players, seat), one 'mean ± half-width' cell per metric."""
    cell = [f"{m:.3f} ± {(hi - lo) / 2:.3f}" for m, lo, hi in
            zip(table["mean"], table["ci_low"], table["ci_high"])]
    wide = table.assign(cell=cell).pivot(index=["players", "seat"], columns="metric", values="cell")
    return wide[list(SEAT_METRICS)].reset_index()


def _markdown(frame: pd.DataFrame) -> str:
    """A GitHub-style Markdown table (pandas' to_markdown needs the tabulate package)."""
    def cell(v) -> str:
        if isinstance(v, float):
            return f"{v:.4g}"
        return str(v)
    header = "| " + " | ".join(map(str, frame.columns)) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    rows = ["| " + " | ".join(cell(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join([header, rule, *rows])


class _Doc:
    """Collects the report: Markdown blocks, CSV tables, PNG figures, provenance per file."""

    def __init__(self, out: Path):
        self.out = out
        self.out.mkdir(parents=True, exist_ok=True)
        self.blocks: list[str] = []
        self.provenance: dict[str, dict] = {}

    def text(self, markdown: str) -> None:
        self.blocks.append(markdown)

    def csv(self, name: str, table: pd.DataFrame) -> str:
        table.to_csv(self.out / f"{name}.csv", index=False)
        self.provenance[f"{name}.csv"] = table.attrs.get("provenance", {})
        return f"{name}.csv"

    def table(self, name: str, table: pd.DataFrame, view: pd.DataFrame) -> None:
        file = self.csv(name, table)
        self.text(f"{_markdown(view)}\n\n*Provenance:* {describe(table.attrs['provenance'])}. "
                  f"Full table: [`{file}`]({file}).")

    def figure(self, name: str, fig, how_to_read: str) -> None:
        fig.savefig(self.out / f"{name}.png", dpi=110)
        self.text(f"![{name}]({name}.png)\n\n{how_to_read}")

    def write(self) -> Path:
        (self.out / "provenance.json").write_text(json.dumps(self.provenance, indent=1))
        index = self.out / "index.md"
        index.write_text("\n\n".join(self.blocks) + "\n")
        return index


# Each game's default study; `balance report` (sim/cli.py) runs them through write_reports.
REPORTS = {"parthian": parthian_report, "sunzi": sunzi_report}


def write_reports(games: Sequence[str] | None = None, out_dir: str | Path = "reports",
                  n_games: int | None = None, seed: int = 0, jobs: int = 1,
                  progress: bool = False) -> list[Path]:
    """Write the default report of each game under ``out_dir/<game>/``; return the index paths.

    ``games=None`` means every game that has a report; ``n_games=None`` each study's default.
    """
    names = list(REPORTS) if games is None else list(games)
    missing = [name for name in names if name not in REPORTS]
    if missing:
        raise BalanceError(f"no report for {', '.join(missing)} yet; reports exist for "
                           f"{', '.join(REPORTS)}")
    sized = {} if n_games is None else {"n_games": n_games}
    return [REPORTS[name](Path(out_dir) / name, seed=seed, jobs=jobs, progress=progress, **sized)
            for name in names]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Write one game's balance report.")
    parser.add_argument("--game", choices=list(REPORTS), default="parthian",
                        help="which game's study (default parthian)")
    parser.add_argument("--out", default=None, help="output folder (default reports/<game>)")
    parser.add_argument("--games", type=int, default=None,
                        help="games per batch (default: the study's own)")
    parser.add_argument("--seed", type=int, default=0, help="master seed")
    parser.add_argument("--jobs", type=int, default=1, help="parallel workers (-1 = all cores)")
    parser.add_argument("--progress", action="store_true", help="show a progress bar")
    args = parser.parse_args(argv)
    sized = {} if args.games is None else {"n_games": args.games}
    print(REPORTS[args.game](args.out or f"reports/{args.game}", seed=args.seed, jobs=args.jobs,
                             progress=args.progress, **sized))


if __name__ == "__main__":
    main()
