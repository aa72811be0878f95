"""Shuo Jian's balance report: the default study, written as Markdown + PNG + CSV.

Sections: (a) first-player advantage (SJ-3: the first player is drawn at random, so seats are
symmetric and the advantage is the first player's); (b) how duels end and how long they last;
(c) how restrictive each printed condition really is in play (reply and pass rates, OP-2);
(d) card strength per card and per condition (17lands metrics, analysis.cards); (e) the
headline study: condition tables side by side on the same deals (common random numbers).
"""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from sim import __version__
from games.shuojian import layout as L
from games.shuojian.rules import ShuoJianRules
from sim.results import Results
from sim.runner import simulate

from analysis import plots
from analysis import tables as T
from analysis.cards import card_table
from analysis.interventions import card_section
from analysis.report import ran_in
from analysis.markdown import Doc, interval_verdict, p_text, pct_text
from analysis.provenance import combined, with_provenance
from analysis.skill import skill_games, skill_section
from analysis.stats import holm, paired_difference, proportion_ztest, wilson

DEFAULT_GAMES = 50_000
QUICK_GAMES = 3_000
MATCHES = {  # label -> strategies by seat (the first player is random, SJ-3)
    "random vs random": ["random", "random"],
    "thrifty vs thrifty": ["thrifty", "thrifty"],
    "counter vs counter": ["counter", "counter"],
    "thrifty vs random": ["thrifty", "random"],
    "counter vs thrifty": ["counter", "thrifty"],
}
TABLES = {  # the headline comparison: condition tables on the same deals
    "default": "default",
    "all any": "any",
    "harsh": "harsh",
    "random (seed 2026)": "random:2026",
}
CARD_MATCH = "thrifty vs thrifty"
# The interventional card table (issue 17) on the default rules: games per version, at most the
# report's n_games (the section is bound by its ~250 batches more than by their size: 17 s measured
# on 2 shared cores at load 7, about half that on idle ones).
CARD_GAMES = 600

# How games/shuojian/policies/shuojian.json is trained (`balance train shuojian` alone uses this; the
# default rules). CMA-ES starts from the weights that play exactly counter
# (games.shuojian.strategies.START_WEIGHTS) and trains against counter, thrifty and, every 20
# generations, the policy of an earlier generation (self-play against the past); random, the
# only other built-in, is held out of the pool. Duels are short and luck decides many, so the
# tables are large (2,000 games) to tell candidates apart. The heuristics' indicators are not
# trained (counter's keeps weight 1, the scale of the others), so sigma 0.4 stays near counter.
TRAINING = {"against": ("counter", "thrifty"), "hold_out": None, "generations": 120,
            "games": 2000, "seed": 0, "sigma": 0.4, "pool_every": 20}


def write_report(out_dir: Path, *, n_games: int | None = None, seed: int = 2026, jobs: int = 1,
                 progress: bool = False, quick: bool = False) -> Path:
    """Run the default Shuo Jian study and write ``index.md`` with its PNGs and CSVs.

    Parameters
    ----------
    out_dir : folder for the report (created; files in it are overwritten).
    n_games : games per batch (default DEFAULT_GAMES, or QUICK_GAMES with ``quick``); the study
        has 5 + 2 x 4 batches.
    seed : master seed of every batch: game g gets the same deal in every batch.
    jobs : parallel workers per batch. progress : a progress bar over the batches.
    quick : a small run to check the pipeline, not to read the numbers.
    """
    if n_games is None:
        n_games = QUICK_GAMES if quick else DEFAULT_GAMES
    doc = Doc(Path(out_dir))
    n_batches = len(MATCHES) + 2 * len(TABLES)
    bar = tqdm(total=n_batches, unit="batch", disable=not progress, desc="shuojian report")

    def run(rules, strategies) -> Results:
        result = simulate("shuojian", rules, strategies, n_games, seed, jobs=jobs,
                          backend="threading", progress=False)
        bar.update(1)
        return result

    started = time.perf_counter()
    _intro(doc, n_games, seed)
    matches = {name: run(None, seats) for name, seats in MATCHES.items()}
    _first_player(doc, matches)
    _endings(doc, matches)
    _conditions(doc, matches)
    card_section(doc, "shuojian", None, n_games=None if quick else min(CARD_GAMES, n_games),
                 seed=seed, jobs=jobs, quick=quick)
    _cards(doc, matches[CARD_MATCH])
    _tables(doc, run)
    skill_section(doc, "shuojian", None, "counter", skill_games(n_games // 5, quick), seed, jobs,
                  (4, 16) if quick else (16, 64), metrics=["win_0"])
    bar.close()
    doc.text(ran_in("shuojian", started, f"{n_batches} batches of {n_games:,} games, "
                    f"jobs={jobs}"))
    return doc.write()


# --- helpers ----------------------------------------------------------------------------------

def first_player_share(records: pd.DataFrame) -> np.ndarray:
    """Per game: the first player's win share (1, 1/2 for a draw, 0)."""
    return np.where(records["first"].to_numpy() == 0, records["win_0"], records["win_1"])


def first_player_row(records: pd.DataFrame) -> dict:
    share = first_player_share(records)
    n, wins = len(share), share.sum()
    low, high = wilson(wins, n)
    _, p = proportion_ztest(wins, n, 0.5)
    return {"n_games": n, "first_wins": wins / n, "ci_low": float(low), "ci_high": float(high),
            "advantage": wins / n - 0.5, "p": float(p)}


def decisive(records: pd.DataFrame) -> np.ndarray:
    return records["end_reason"].isin(L.DECISIVE_ENDS).to_numpy()


def condition_rates(results: Results, names: list[str]) -> pd.DataFrame:
    """Per condition: replies asked against a play bound by it, reply and pass rates (Wilson)."""
    r = results.records
    faced = np.array([r[f"faced_c{k}"].sum() for k in range(len(names))], float)
    passed = np.array([r[f"passed_c{k}"].sum() for k in range(len(names))], float)
    played = np.array([r[f"played_c{k}"].sum() for k in range(len(names))], float)
    low, high = wilson(passed, np.maximum(faced, 1))
    frame = pd.DataFrame({"condition": names, "allows": [_allows(n) for n in names],
                          "faced": faced.astype(int), "pass_rate": passed / np.maximum(faced, 1),
                          "ci_low": low, "ci_high": high, "reply_rate": 1 - passed / np.maximum(faced, 1),
                          "cards_played": played.astype(int),
                          "played_per_game": played / len(r)})
    return with_provenance(frame, results.provenance)


def _allows(name: str) -> int:
    from games.shuojian.conditions import condition
    return len([n for n in condition(name).allowed() if n >= 1])


# --- sections ---------------------------------------------------------------------------------

def _intro(doc: Doc, n_games: int, seed: int) -> None:
    rules = ShuoJianRules()
    doc.text(f"# Shuo Jian: balance report\n\n"
             f"Made by `games.shuojian.study` (balance-toolkit {__version__}): {n_games:,} "
             f"games per batch, master seed {seed}; every batch uses the same seed, so game g "
             "has the same deal in every batch (common random numbers). `provenance.json` holds "
             "the rule variant, strategies, n, seed and version of every CSV. Rules: "
             "`../shared/rules/shuo_jian.md`; code and options: `games/shuojian/RULES.md`.\n\n"
             "**The printed conditions are unknown (OP-2).** Unless a table says otherwise, "
             "every batch uses the toolkit's designed default table "
             "(`games/shuojian/data/conditions_default.csv`): per value and action one copy with "
             "no condition, one loose, one harsh. Its conditions: "
             + ", ".join(f"`{n}`" for n in rules.condition_names()) + ".\n\n"
             "Strategies: `random` (uniform legal action), `thrifty` (sheds the most cards, "
             "harshest conditions first, always follows up, never a void dodge), `counter` "
             "(thrifty, and counts cards to name the opponent's swordsman). Intervals are 95% "
             "(Wilson for rates, t for means); a draw counts half a win to each side.")


def _first_player(doc: Doc, matches: dict) -> None:
    doc.text("## (a) First-player advantage\n\nSJ-3 draws the first player at random, so the two "
             "seats play the same game; what is left is the first player's edge. *Advantage* = "
             "the first player's win share − 1/2; p is a z-test of no advantage, Holm-corrected "
             "across the matches.")
    rows = [{"match": name, **first_player_row(res.records)} for name, res in matches.items()]
    table = with_provenance(pd.DataFrame(rows), combined([r.provenance for r in matches.values()]))
    table["p_holm"] = holm(table["p"].to_numpy())
    view = pd.DataFrame({"match": table["match"], "games": table["n_games"],
                         "first player wins": pct_text(table["first_wins"], table["ci_low"],
                                                       table["ci_high"]),
                         "p (Holm)": [p_text(p) for p in table["p_holm"]]})
    doc.table("a_first_player", table, view)
    fig_table = table.assign(fair=0.5, win_rate=table["first_wins"])
    doc.figure("a_first_player", plots.win_rate_plot(fig_table, "match", what="First player's win share"),
               "The first player's win share per match with its 95% interval; the tick is 1/2. "
               "An interval that misses the tick is a first-player advantage.")
    top = table.loc[table["advantage"].abs().idxmax()]
    verdict = interval_verdict("first-player advantage", top["advantage"], top["ci_low"] - 0.5,
                               top["ci_high"] - 0.5, f"{top['match']}")
    doc.verdict(verdict)
    doc.finding(f"{verdict[0].upper()}{verdict[1:]} (largest of {len(table)} matches; Holm p "
                f"{p_text(top['p_holm'])}, table a_first_player).")


def _endings(doc: Doc, matches: dict) -> None:
    doc.text("## (b) How duels end and how long they last\n\nEnd reasons: a Slash, a Thrust or "
             "a right Counter-kill not answered (SJ-8, SJ-12, SJ-11), a void dodge (SJ-9), the "
             "deck running out (SJ-14: the smaller hand wins) or a draw (equal hands, OP-8). "
             "Length = turns (plays of number cards and passes).")
    ends = T.stack([({"match": k}, T.end_reason_table(r)) for k, r in matches.items()])
    ends = ends[~ends["unfinished"] | (ends["games"] > 0)]
    doc.csv("b_end_reasons", ends)
    wide = ends.pivot(index="match", columns="end_reason", values="rate").reindex(
        index=list(matches), columns=[e for e in L.END_REASONS if e in set(ends["end_reason"])])
    doc.show((100 * wide).round(1).reset_index(), caption="End reasons, % of games",
             file="b_end_reasons.csv", provenance=ends.attrs["provenance"])
    lengths = T.stack([({"match": k}, T.length_table(r)) for k, r in matches.items()])
    doc.table("b_length", lengths, lengths.drop(columns=["measure", "ci_low", "ci_high"]).round(2))
    counts = T.stack([({"match": k}, T.length_counts(r)) for k, r in matches.items()])
    doc.csv("b_length_counts", counts)
    doc.figure("b_length", plots.length_plot(counts, group="match"),
               "Share of duels lasting each number of turns, one line per match. A pass that "
               "meets a Slash without a dodge ends a duel at once, so short duels are common.")
    thrifty = ends[(ends["match"] == "thrifty vs thrifty")].set_index("end_reason")
    blows = thrifty.loc[list(L.DECISIVE_ENDS), "rate"].sum()
    doc.finding(f"With thrifty play on both seats {blows:.0%} of duels end by a finishing blow "
                f"(Slash {thrifty.loc['slash', 'rate']:.0%}, Thrust "
                f"{thrifty.loc['thrust', 'rate']:.0%}); the deck runs out in "
                f"{thrifty.loc['deck_out', 'rate'] + thrifty.loc['draw', 'rate']:.0%} "
                "(table b_end_reasons). Both swordsmen start on their own right, so Dodge right "
                "is void until a Dodge left has been played: the first Slash lands unless its "
                "target holds a Dodge left or the Counter-kill.")


def _conditions(doc: Doc, matches: dict) -> None:
    names = ShuoJianRules().condition_names()
    doc.text("## (c) How restrictive each condition is in play (OP-2)\n\nFor each condition: "
             "how often a reply was asked against a play bound by it (the answered card's "
             "condition; a two-card play binds with both, OP-3), how often that ended in a pass, "
             "and how many number cards with it were played. *allows* = numbers 1–99 it admits.")
    parts = []
    for match in ("random vs random", "thrifty vs thrifty"):
        parts.append(({"match": match}, condition_rates(matches[match], names)))
    rates = T.stack(parts)
    view = rates.assign(**{"pass rate": pct_text(rates["pass_rate"], rates["ci_low"],
                                                 rates["ci_high"])})[
        ["match", "condition", "allows", "faced", "pass rate", "played_per_game"]].round(2)
    doc.table("c_conditions", rates, view)
    doc.figure("c_conditions", plots.difference_plot(
        rates.assign(label=rates["match"].str.split(" ").str[0] + ": " + rates["condition"]),
        "label", value="pass_rate", xlabel="pass rate against the condition",
        what="pass rate per condition"),
        "Each row is a condition under one match: the share of replies asked against it that "
        "ended in a pass, with its 95% interval. Near 0 the condition is decoration; near 1 it "
        "ends the exchange.")
    t = rates[rates["match"] == "thrifty vs thrifty"]
    lo, hi = t.loc[t["pass_rate"].idxmin()], t.loc[t["pass_rate"].idxmax()]
    total = t["faced"].sum()
    doc.finding(f"Thrifty play passes on {lo['pass_rate']:.0%} of replies against `"
                f"{lo['condition']}` up to {hi['pass_rate']:.0%} against `{hi['condition']}`; "
                f"{(t['pass_rate'] * t['faced']).sum() / max(total, 1):.0%} of condition checks "
                "end in a pass (table c_conditions; a two-card play counts for both its "
                "conditions).")


def _cards(doc: Doc, results: Results) -> None:
    names = ShuoJianRules().condition_names()
    doc.text(f"## (d) Card strength ({CARD_MATCH}, seat 0)\n\nThe observational card table "
             "(the interventional one is above). The project's card metrics "
             "(`analysis/cards.py`): OH WR = win rate when the card was in the opening hand, "
             "GIH WR = held at some point, *oh_gain* = OH WR − win rate without it in the opening "
             "hand (the unconfounded effect of being dealt it: deals are random). Seat 0 only: "
             "the seats are symmetric (SJ-3). Number cards are grouped by action and value; the "
             "conditions table groups them by their printed condition.")
    groups = {
        "straight": ([f"V{v}" for v in range(1, 10)], "v"),
        "sweep": ([f"H{v}" for v in range(1, 10)], "h"),
        "other": (["0", "Dodge left", "Dodge right", "Slash", "Thrust", "Counter-kill"], "x"),
        "condition": (names, "c"),
    }
    tables = []
    for group, (labels, key) in groups.items():
        table = card_table(results, labels, seats=[0], held=f"held_{key}_{{seat}}",
                           opening=f"opening_{key}_{{seat}}", played=f"played_{key}_{{seat}}")
        tables.append(({"group": group}, table))
    cards = T.stack(tables)
    view = cards[["group", "card", "n_oh", "oh_wr", "gih_wr", "oh_gain", "oh_gain_low",
                  "oh_gain_high", "play_rate"]].copy()
    view["oh_gain (95% CI)"] = [f"{100 * g:+.1f} ({100 * lo:+.1f}, {100 * hi:+.1f}) pp"
                                for g, lo, hi in zip(cards["oh_gain"], cards["oh_gain_low"],
                                                     cards["oh_gain_high"])]
    view = view.drop(columns=["oh_gain", "oh_gain_low", "oh_gain_high"]).round(3)
    doc.table("d_cards", cards, view)
    doc.figure("d_cards", plots.difference_plot(
        cards.assign(label=cards["group"] + " " + cards["card"]), "label", value="oh_gain",
        low="oh_gain_low", high="oh_gain_high", xlabel="OH WR − NOH WR",
        what="effect of starting with the card"),
        "How much a card in the opening hand changes seat 0's win rate, with its 95% interval. "
        "Finishing-blow cards and the dodges dominate; the number cards' conditions matter less.")
    other = cards[cards["group"] == "other"].set_index("card")
    best = other["oh_gain"].idxmax()
    doc.finding(f"The strongest card to be dealt is the {best}: "
                f"{100 * other.loc[best, 'oh_gain']:+.1f} pp win rate when in the opening hand "
                f"(95% CI {100 * other.loc[best, 'oh_gain_low']:+.1f} to "
                f"{100 * other.loc[best, 'oh_gain_high']:+.1f}; Dodge right "
                f"{100 * other.loc['Dodge right', 'oh_gain']:+.1f} pp), table d_cards.")


def _tables(doc: Doc, run) -> None:
    doc.text("## (e) Condition tables side by side (headline)\n\nThe same deals (common random "
             "numbers: every table has the same 58 number cards by action and value, so game g "
             "deals the same values in every batch) played with four condition tables: the "
             "default, every card `any` (no conditions), `harsh` (every card a harsh condition) "
             "and one random table (each copy a condition drawn from the vocabulary, seed 2026). "
             "Differences against the default are paired per game (t-interval).")
    rows, diffs, provenances = [], [], []
    for strategy in ("thrifty", "random"):
        base = None
        for name, table in TABLES.items():
            res = run({"conditions": table}, strategy)
            provenances.append(res.provenance)
            r = res.records
            share, length, blow = first_player_share(r), r["turns"].to_numpy(), decisive(r)
            fp = first_player_row(r)
            k = int(blow.sum())
            low, high = wilson(k, len(r))
            rows.append({"strategy": strategy, "table": name, "n_games": len(r),
                         "first_wins": fp["first_wins"], "first_low": fp["ci_low"],
                         "first_high": fp["ci_high"], "turns": length.mean(),
                         "decisive": k / len(r), "decisive_low": float(low),
                         "decisive_high": float(high),
                         "pass_rate": r["passes"].sum() / max(r["passes"].sum() + r["replies"].sum(), 1)})
            if base is None:
                base = (share, length, blow)
                continue
            for metric, a, b in (("first-player win share", share, base[0]),
                                 ("turns", length, base[1]),
                                 ("decisive finish", blow.astype(float), base[2].astype(float))):
                d = paired_difference(a, b)
                diffs.append({"strategy": strategy, "table": name, "metric": metric,
                              "diff": d["diff"], "ci_low": d["ci_low"], "ci_high": d["ci_high"],
                              "p": d["p"]})
    prov = combined(provenances)
    side = with_provenance(pd.DataFrame(rows), prov)
    view = pd.DataFrame({"strategy": side["strategy"], "table": side["table"],
                         "first player wins": pct_text(side["first_wins"], side["first_low"],
                                                       side["first_high"]),
                         "turns": side["turns"].round(1),
                         "decisive finish": pct_text(side["decisive"], side["decisive_low"],
                                                     side["decisive_high"]),
                         "pass rate": (100 * side["pass_rate"]).round(1).astype(str) + "%"})
    doc.table("e_tables", side, view)
    paired = with_provenance(pd.DataFrame(diffs), prov)
    paired["p_holm"] = holm(paired["p"].fillna(1.0).to_numpy())
    doc.table("e_paired", paired, paired.assign(p_holm=[p_text(p) for p in paired["p_holm"]])
              .drop(columns=["p"]).round(4), caption="Paired differences against the default table")
    shown = paired[paired["metric"] != "turns"]
    doc.figure("e_paired", plots.difference_plot(
        shown.assign(label=shown["strategy"] + ", " + shown["table"] + ": " + shown["metric"]),
        "label", xlabel="difference against the default table (share)",
        what="condition tables vs the default"),
        "Paired differences (same deals) of the first player's win share and of the share of "
        "duels decided by a finishing blow, each table minus the default, with 95% intervals.")
    t = side[side["strategy"] == "thrifty"].set_index("table")
    doc.finding(f"Condition tables change the duel: with thrifty play the pass rate goes from "
                f"{t.loc['all any', 'pass_rate']:.0%} (all `any`) to "
                f"{t.loc['harsh', 'pass_rate']:.0%} (harsh), the mean length from "
                f"{t.loc['all any', 'turns']:.1f} to {t.loc['harsh', 'turns']:.1f} turns and the "
                f"decisive-finish share from {t.loc['all any', 'decisive']:.0%} to "
                f"{t.loc['harsh', 'decisive']:.0%}; the default sits at "
                f"{t.loc['default', 'pass_rate']:.0%} / {t.loc['default', 'turns']:.1f} / "
                f"{t.loc['default', 'decisive']:.0%} (tables e_tables, e_paired).")
    fp = paired[(paired["metric"] == "first-player win share") & (paired["strategy"] == "thrifty")]
    top = fp.loc[fp["diff"].abs().idxmax()]
    doc.finding(f"The condition table moves the first player's edge: the largest change is "
                f"{100 * top['diff']:+.1f} pp (95% CI {100 * top['ci_low']:+.1f} to "
                f"{100 * top['ci_high']:+.1f}; thrifty, `{top['table']}` vs the default, paired "
                "on the same deals, table e_paired).")
