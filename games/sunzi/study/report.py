"""Sunzi / Dynasties' balance report: the default study, written as Markdown + PNG + CSV.

The mode batches keep their per-game records (the paired mode comparison, the card tables and
the outcome-by-round table need them), so memory grows with ``n_games`` (about 3 MB per batch of
20,000 games, 8 batches held at once); the leader grid's batches are reduced one at a time.
"""
from __future__ import annotations

import time
from pathlib import Path

import pandas as pd
from tqdm.auto import tqdm

from sim import __version__
from sim.results import Results
from sim.runner import simulate
from games.sunzi.rules import LEADER_NAMES

from analysis import plots
from analysis import tables as T
from analysis.interventions import card_section
from analysis.provenance import combined, with_provenance
from analysis.report import ran_in
from analysis.markdown import Doc, interval_verdict, ordered, p_text, pct_text, pp_text
from analysis.stats import wilson
from analysis.workbench import ablation_section
from analysis.skill import skill_games, skill_section
from . import tables as SZ


SUNZI_GAMES = 20_000
QUICK_GAMES = 1_000
# Mirror pairings measure the sides, not the players. `counter` is the strongest built-in; the
# `greedy` mirror is left out because it draws almost every basic and advanced game (section e).
SUNZI_PAIRINGS = {"random vs random": ["random", "random"],
                  "counter vs counter": ["counter", "counter"]}
SUNZI_GRID_MODES = ("basic", "advanced")
SUNZI_LADDER = ("random", "greedy", "counter")
SUNZI_LADDER_MODES = ("basic", "advanced")
# The interventional card table (issue 17): warlord on advanced holds every card kind (the +2/+3,
# both leaders); games per version, at most the report's n_games (the section: 17.6-19.4 s
# measured on 2 cores shared at load 4.5-8, 99 effects at 3 levels and 16 subset batches).
SUNZI_CARD_RULES = {"mode": "advanced", "warlord": True}
SUNZI_CARD_GAMES = 1_000
# The mode comparison at strong play (issue 61): each mode seats the field -s strong finds for
# it (analysis/fitted.py), 100,000 games per mode (intervals of about +-0.3 pp).
SUNZI_STRONG_GAMES = 100_000


def write_report(out_dir: Path, *, n_games: int | None = None, seed: int = 2026, jobs: int = 1,
                 progress: bool = False, quick: bool = False) -> Path:
    """Run the default Sunzi / Dynasties study and write ``index.md`` with its PNGs and CSVs.

    Parameters
    ----------
    out_dir : folder for the report (created; files in it are overwritten).
    n_games : games per batch (default SUNZI_GAMES, or QUICK_GAMES with ``quick``; the strong
        mode comparison's default is SUNZI_STRONG_GAMES). The study has 2 x 4 mode batches, 4
        strong ones, 2 x 2 x 16 fixed leader pairings and 2 x 9 strategy pairings:
        90 batches.
    seed : master seed of every batch: game g gets the chance streams of (seed, g) in every
        batch, so the mode comparison is paired on common random numbers.
    jobs : parallel workers per batch (threads; see sim.runner.simulate).
    progress : show a progress bar over the batches.
    quick : a small run (QUICK_GAMES per batch) to check the pipeline, not to read the numbers.

    Returns
    -------
    Path of the written index.md.
    """
    strong_games = n_games or (QUICK_GAMES if quick else SUNZI_STRONG_GAMES)
    if n_games is None:
        n_games = QUICK_GAMES if quick else SUNZI_GAMES
    doc = Doc(Path(out_dir))
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
    _sunzi_strong_modes(doc, SZ, strong_games, seed, jobs)
    card_section(doc, "sunzi", SUNZI_CARD_RULES, n_games=None if quick else min(
        SUNZI_CARD_GAMES, n_games), seed=seed, jobs=jobs, quick=quick)
    _sunzi_cards(doc, SZ, modes)
    _sunzi_leaders(doc, SZ, modes, run)
    del modes
    _sunzi_ladder(doc, run)
    ablation_section(doc, "sunzi", None, "random", n_games // 2, seed, jobs, metric="win_0")
    skill_section(doc, "sunzi", None, "counter", skill_games(n_games, quick), seed, jobs,
                  (4, 16) if quick else (16, 64), metrics=["win_0"])
    bar.close()
    doc.text(ran_in("sunzi", started, f"{n_batches} batches, jobs={jobs}"))
    return doc.write()


# --- formatters ----------------------------------------------------------------------------

def batch_label(table: pd.DataFrame) -> list[str]:
    return [f"{p} | {m}" for p, m in zip(table["pairing"], table["mode"])]


def share_text(stages: pd.DataFrame, key) -> str:
    games, white = stages.loc[key, "games"], stages.loc[key, "white_wins"]
    if games == 0:
        return "-"
    low, high = wilson(white, games)
    return f"{white / games:.1%} ({100 * low:.1f} to {100 * high:.1f})"



def _sunzi_intro(doc: "Doc", n_games: int, seed: int) -> None:
    leaders = pd.DataFrame({"letter": list("abcd"), "White (Sun Wu)": LEADER_NAMES[0],
                            "Black (King of Chu)": LEADER_NAMES[1]})
    doc.text(
        "# Sunzi / Dynasties: balance report\n\n"
        f"Made by `games.sunzi.study` (balance-toolkit {__version__}): {n_games:,} "
        f"games per batch, master seed {seed}. White = Sun Wu = seat 0, Black = King Zhao of Chu "
        "= seat 1. Each table names the batches it comes from; `provenance.json` holds the full "
        "rule variant, strategies, n, seed and version of every CSV. Rule ids (SZ-n, OP-n) refer "
        "to the rules brief; every open point is played at its default reading "
        "(`balance options sunzi` lists them).\n\n"
        "**Modes.** *basic*: 21 armies, no +2/+3 (SZ-1). *advanced*: 18 armies, +2/+3, white "
        "cards and the Plague can be discarded for an army (SZ-2). *warlord*: on top of either, "
        "each side has one leader power, used once (SZ-3); in the mode comparison each side's "
        "strategy picks its leader (the built-ins draw it from the equilibrium of section (d)'s "
        "grid at strong play, games.sunzi.strategies.LEADER_PICK), in section (d) the pairing is "
        "fixed.")
    doc.show(leaders, caption="Leader powers (SZ-3)", source="the rules, not simulated: "
             "games/sunzi/rules.py LEADER_NAMES")
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




def _sunzi_sides(doc: "Doc", SZ, modes) -> None:
    doc.text("## (a) Sides and outcomes, per mode and strategy pairing")
    overview = SZ.overview(modes)
    doc.table("a_overview", overview, pd.DataFrame({
        "pairing": overview["pairing"], "mode": overview["mode"],
        "White win rate (95% CI)": pct_text(overview["white_win_rate"], overview["white_low"],
                                        overview["white_high"]),
        "draws (95% CI)": pct_text(overview["draw"], overview["draw_low"], overview["draw_high"]),
        "early red-zone wins (95% CI)": pct_text(overview["early_red_zone"],
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
        "win rate (95% CI)": pct_text(sides["win_rate"], sides["ci_low"], sides["ci_high"]),
        "advantage (pp)": (100 * sides["advantage"]).map("{:+.2f}".format),
        "p (Holm)": sides["p_holm"].map(p_text)}))
    white = sides[sides["seat"] == 0]
    _side_findings(doc, white, overview)
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
        "White's share of early wins (95% CI)": [share_text(stages, (p, m, "early"))
                                                 for p, m in wide.index],
        "White's share of round-9 results (95% CI)": [share_text(stages, (p, m, "round 9"))
                                                      for p, m in wide.index]}))
    shown = outcomes[outcomes["outcome"] != "invariant broken"]
    shown = shown.assign(batch=ordered(batch_label(shown)), outcome=ordered(shown["outcome"]))
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
    leads_plot = leads.assign(batch=batch_label(leads))
    doc.figure("a_lead_changes", plots.distribution_plot(
        leads_plot, "lead_changes", group="batch",
        what="Lead changes of the score general", xlabel="lead changes (side of the general "
        "after a scoring differs from after the previous one)"),
        "Share of games by the number of lead changes, one line per pairing and mode. The "
        "general is read after each of the 3 scorings, so at most 2 changes are possible; more "
        "mass at 1-2 means comebacks are common, all mass at 0 means the first scoring decides.")


def _side_findings(doc: "Doc", white: pd.DataFrame, overview: pd.DataFrame) -> None:
    # White's fair share is exactly 1/2 (a draw counts half to each side), so White's advantage
    # interval is its win rate's Wilson interval minus 1/2.
    top = white.loc[white["advantage"].abs().idxmax()]
    if top["advantage"] >= 0:
        side, low, high = "White (Sun Wu)", top["ci_low"] - 0.5, top["ci_high"] - 0.5
    else:  # read from Black's side: Black's rate is 1 - White's
        side, low, high = "Black (Chu)", 0.5 - top["ci_high"], 0.5 - top["ci_low"]
    verdict = interval_verdict(f"largest side advantage, to {side},", abs(top["advantage"]),
                               low, high, f"{top['mode']}, {top['pairing']}")
    doc.verdict(verdict)
    doc.finding(f"{verdict[0].upper()}{verdict[1:]}. The interval is not corrected for picking "
                f"the largest of {len(white)} mode-and-pairing cells; its Holm-corrected p is "
                f"{p_text(top['p_holm'])} (table a_sides).")
    rates = "; ".join(f"{r.mode} {r.win_rate:.1%} ({r.ci_low:.1%} to {r.ci_high:.1%})"
                      for r in white[white["pairing"] == next(iter(SUNZI_PAIRINGS))].itertuples())
    doc.finding(f"White's win rate with random play on both sides (a draw counts 1/2): {rates}.")
    most = overview.loc[overview["draw"].idxmax()]
    doc.finding(f"Draws (OP-12) are most common in {most['mode']}, {most['pairing']}: "
                f"{most['draw']:.1%} of games; early red-zone wins (SZ-19) range from "
                f"{overview['early_red_zone'].min():.1%} to {overview['early_red_zone'].max():.1%} "
                "of games across modes and pairings (table a_overview).")


def _sunzi_modes(doc: "Doc", SZ, modes) -> None:
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
             "the half-width two independent batches would give. With random players it runs "
             f"from {random_rows['corr'].min():.2f} to {random_rows['corr'].max():.2f} here: "
             "each seat draws from one stream per decision type, so the decisions a mode adds "
             "(leader powers, purchases) do not shift the placements' random numbers, but a "
             "mode that deals from another deck plays another game from the first card "
             "(docs/statistics.md measures both). `corr` is n/a when one mode's results never "
             "vary. The test is valid either way; it is only sharper when `corr` is high.")
    doc.table("b_mode_paired", paired, pd.DataFrame({
        "pairing": paired["pairing"], "comparison": paired["comparison"],
        "White: variant": paired["mean_a"].map("{:.2%}".format),
        "White: basic": paired["mean_b"].map("{:.2%}".format),
        "difference, pp (95% CI)": [
            f"{100 * d:+.2f} ({100 * lo:+.2f} to {100 * hi:+.2f})" if not pd.isna(lo)
            else f"{100 * d:+.2f} (no spread)"
            for d, lo, hi in zip(paired["diff"], paired["ci_low"], paired["ci_high"])],
        "p (Holm)": paired["p_holm"].map(p_text),
        "same deal": paired["same_opening"].map("{:.1%}".format),
        "corr": paired["corr"].map(lambda c: "n/a" if pd.isna(c) else f"{c:.3f}"),
        "unpaired half-width (pp)": (100 * paired["unpaired_half"]).map("{:.2f}".format)}))
    real = paired[(paired["ci_low"] > 0) | (paired["ci_high"] < 0)]
    doc.finding("Mode changes to White's win rate whose paired 95% interval excludes zero: "
                + ("; ".join(f"{r.comparison} ({r.pairing}) {100 * r.diff:+.1f} pp "
                             f"({100 * r.ci_low:+.1f} to {100 * r.ci_high:+.1f}, Holm p "
                             f"{p_text(r.p_holm)})" for r in real.itertuples())
                   if len(real) else "none") + f" (of {len(paired)} comparisons; table b_mode_paired).")
    doc.figure("b_mode_paired", plots.difference_plot(
        paired, ["pairing", "comparison"], xlabel="change in White's win rate vs basic",
        what="Mode comparison: paired difference in White's win rate against basic"),
        "Each dot is how much White's win rate changes from basic to that mode, for the same "
        "games (seeds), with its 95% paired interval. An interval that misses the dashed zero "
        "line is a real change; check the Holm-corrected p in the table before believing one.")


def _sunzi_strong_modes(doc: "Doc", SZ, n_games: int, seed: int, jobs: int) -> None:
    """The four modes at strong play, each with the field fitted to it (or the nearest one
    and its measured transfer), paired on the same seed."""
    from analysis.fitted import strong_fit

    batches, fields = [], []
    for mode, options in SZ.MODES.items():
        batches.append(({"pairing": "strong vs strong", "mode": mode},
                        simulate("sunzi", options, ["strong", "strong"], n_games, seed,
                                 jobs=jobs, backend="threading", progress=False)))
        fit = strong_fit("sunzi", options)
        fields.append({"mode": mode, "field": Path(fit.field).name,
                       "fitted to this mode": "yes" if fit.own else "no",
                       "how far it holds": _field_figure(fit)})
    paired = SZ.mode_comparison(batches)
    doc.text("## (b2) The modes at strong play\n\n"
             f"The same comparison with the strong field on both sides, {n_games:,} games per "
             "mode on the same seed. Each mode seats the field fitted to it where there is one "
             "(docs/variants.md), else the nearest field, with its transfer to the mode "
             "measured: the share a best response searched in that mode wins against it. "
             "Leader powers are used only where they gain (games.sunzi.strategies.leader_power), so "
             "a warlord mode's change is the leaders' worth, not a misplay.")
    doc.table("b2_strong_fields", with_provenance(
        pd.DataFrame(fields), combined([batch.provenance for _, batch in batches])),
        pd.DataFrame(fields))
    doc.table("b2_strong_modes", paired, pd.DataFrame({
        "comparison": paired["comparison"],
        "White: mode": paired["mean_a"].map("{:.2%}".format),
        "White: basic": paired["mean_b"].map("{:.2%}".format),
        "difference, pp (95% CI)": [f"{100 * d:+.2f} ({100 * lo:+.2f} to {100 * hi:+.2f})"
                                    for d, lo, hi in zip(paired["diff"], paired["ci_low"],
                                                         paired["ci_high"])],
        "p (Holm)": paired["p_holm"].map(p_text)}))
    real = paired[(paired["ci_low"] > 0) | (paired["ci_high"] < 0)]
    doc.finding("At strong play, modes that change White's win rate (paired 95% interval "
                "excludes zero): " + ("; ".join(
                    f"{r.comparison} {100 * r.diff:+.1f} pp ({100 * r.ci_low:+.1f} to "
                    f"{100 * r.ci_high:+.1f})" for r in real.itertuples()) if len(real)
                    else "none") + " (table b2_strong_modes).")


def _field_figure(fit) -> str:
    """A field's exploitability in its own mode, or its measured transfer to this one."""
    if not fit.own:
        t = fit.transfer
        return ("transfer not measured" if not t else
                f"a best response here wins {t['share']:.1%} ({t['low']:.1%} to {t['high']:.1%})")
    import json

    record = json.loads(Path(fit.field).read_text()).get("exploitability") or {}
    if "best_response_share" not in record:
        return "no exploitability record"
    return (f"a best response wins {record['best_response_share']:.1%} "
            f"({record['low']:.1%} to {record['high']:.1%})")


def _sunzi_cards(doc: "Doc", SZ, modes) -> None:
    doc.text("## (c) Cards\n\n"
             "The observational card table (the interventional one is above). "
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
        doc.show(pd.DataFrame({
            "side": part["side"], "card": part["card"],
            # a group of a few games shows "too few games" (analysis.evidence); a difference
            # counts its smaller group
            "GIH WR": pct_text(part["gih_wr"], part["gih_low"], part["gih_high"], part["n_gih"]),
            "OH WR": pct_text(part["oh_wr"], part["oh_low"], part["oh_high"], part["n_oh"]),
            "OH gain, pp (95% CI)": pp_text(part["oh_gain"], part["oh_gain_low"],
                                            part["oh_gain_high"], part[["n_oh", "n_noh"]].min(axis=1)),
            "Played WR": pct_text(part["played_wr"], part["played_low"], part["played_high"],
                                  part["n_played"]),
            "play rate": part["play_rate"].map("{:.1%}".format),
            "games never held": part["n_gns"],
            "IWD, pp (95% CI)": pp_text(part["iwd"], part["iwd_low"], part["iwd_high"],
                                        part[["n_gih", "n_gns"]].min(axis=1)),
        }), caption=f"{pairing}, advanced", file="c_cards.csv",
            provenance=part.attrs["provenance"])
        doc.figure(f"c_cards_{i}", plots.card_plot(part, ("oh", "noh", "played")),
                   "Per card, three win rates of the side that owns it, with 95% intervals: "
                   "with the card in the opening hand, without it in the opening hand, and in "
                   "games where it was played; the dashed line is the side's overall win rate. "
                   "A card whose first two dots are apart changes the game by being dealt; "
                   "Played WR far from the line says when the strategy plays it (e.g. a card "
                   "played only when already winning), not how strong it is.")


def _sunzi_leaders(doc: "Doc", SZ, modes, run) -> None:
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
        cell = part.assign(cell=pct_text(part["white_win_rate"], part["ci_low"], part["ci_high"]))
        wide = cell.pivot(index="white_leader", columns="black_leader", values="cell")
        doc.show(wide.reset_index().rename(columns={"white_leader": "Sun Wu \\ Chu"}),
                 caption=f"{pairing}, warlord on {base}: White's win rate (95% CI); rows Sun "
                         "Wu's leader, columns Chu's",
                 file="d_leader_grid.csv", provenance=part.attrs["provenance"])
        doc.figure(f"d_leaders_{i}", plots.heatmap(
            part, "white_leader", "black_leader", "white_win_rate", fmt="{:.3f}", cmap="RdBu_r",
            center=0.5, rotation=20,
            what=f"White's win rate by leader pairing ({pairing}, warlord on {base})"), "White's win rate for each pairing of leaders (rows: Sun Wu's, columns: "
            "Chu's). Red: Sun Wu favoured, blue: Chu favoured, white: even. A row that is red "
            "throughout is a leader that is strong whatever Chu picks; a column that is blue "
            "throughout, the same for Chu.")
    top = grid.loc[grid["advantage"].abs().idxmax()]
    doc.finding(f"Most lopsided leader pairing: Sun Wu {top['white_leader']} against Chu "
                f"{top['black_leader']} (warlord on {top['base']}, {top['pairing']}), White wins "
                f"{top['white_win_rate']:.1%} (95% CI {top['ci_low']:.1%} to {top['ci_high']:.1%}, "
                f"Holm p {p_text(top['p_holm'])}); {int((grid['p_holm'] < 0.05).sum())} of "
                f"{len(grid)} pairings differ from 1/2 at Holm p < 0.05 (table d_leader_grid).")
    picks = T.stack([(k, SZ.leader_picks(b)) for k, b in modes if k["mode"].startswith("warlord")])
    doc.table("d_leader_picks", picks, pd.DataFrame({
        "pairing": picks["pairing"], "mode": picks["mode"], "side": picks["side"],
        "leader": picks["label"], "picked": picks["share"].map("{:.1%}".format),
        "side's win rate when picked (95% CI)": pct_text(picks["win_rate"], picks["ci_low"],
                                                      picks["ci_high"])}))
    doc.text("The table above is from the mode comparison's warlord batches, where each "
             "strategy picked its own leader (the built-ins draw it from the equilibrium of the "
             "strong grid, games.sunzi.strategies.LEADER_PICK): which leaders strong play picks, "
             "and how each side fares with them.")


def _sunzi_ladder(doc: "Doc", run) -> None:
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
        "White win rate (95% CI)": pct_text(ladder["win_rate"], ladder["ci_low"], ladder["ci_high"]),
        "draws": ladder["draw"].map("{:.1%}".format)}))
    view = ladder.assign(row=ordered(f"{m}: {w}" for m, w in zip(ladder["mode"], ladder["white"])),
                         black=ordered(ladder["black"]))
    doc.figure("e_strategy_pairings", plots.heatmap(
        view, "row", "black", "win_rate", fmt="{:.3f}", cmap="RdBu_r", center=0.5,
        what="White's win rate by strategy pairing"),
               "White's win rate for each pair of strategies (rows: mode and White's strategy; "
               "columns: Black's). Only the diagonal (mirror) cells speak to side balance.")
