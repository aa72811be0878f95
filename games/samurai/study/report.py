"""Samurai Sword's balance report: teams and roles per player count, character strength (win
rates and paired comparisons on common random numbers against an ability-less character), seat
effects relative to the Shogun, card strength (17lands metrics) and game length / end reasons.

Batches keep their per-game records (hidden roles and characters vary from game to game, so
every table is a grouping of seat-level rows); the default study is about 1.4 million games.
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
from games.samurai import layout as L
from games.samurai.rules import PLAYER_COUNTS, SamuraiRules

from analysis import plots
from analysis.cards import card_table
from analysis.interventions import card_section
from analysis.report import ran_in
from analysis.markdown import Doc
from analysis.provenance import combined, with_provenance
from analysis.skill import skill_games, skill_section
from analysis.stats import paired_difference, wilson

DEFAULT_GAMES = 20_000
QUICK_GAMES = 300
CHARACTER_PLAYERS = 5
# The interventional card table (issue 17) at 5 players: 116 changes x 3 levels of play + 16
# interaction batches, each this many games. Its batches are small, so they run on one thread
# (a thread pool per batch cost more than it saved: 13 s against 20 s at 300 games on 2 cores).
CARD_GAMES = 500
MIXED = ("loyal", "shrewd", "random", "loyal", "shrewd", "random", "loyal")
TABLES = {"random": lambda n: "random", "mixed": lambda n: list(MIXED[:n])}
TEAMS = dict(enumerate(L.TEAM_NAMES))
ROLES = dict(enumerate(L.ROLE_NAMES))


def write_report(out_dir: Path, *, n_games: int | None = None, seed: int = 2026, jobs: int = 1,
                 progress: bool = False, quick: bool = False) -> Path:
    """Run the default Samurai Sword study and write ``index.md`` with its PNGs and CSVs.

    n_games : games per batch (default DEFAULT_GAMES, QUICK_GAMES with ``quick``). There are
        5 player counts x 2 tables + 12 characters x 2 arms = 34 batches.
    seed : master seed of every batch (paired batches share their deals: common random numbers).
    """
    if n_games is None:
        n_games = QUICK_GAMES if quick else DEFAULT_GAMES
    doc = Doc(Path(out_dir))
    bar = tqdm(total=34, unit="batch", disable=not progress, desc="samurai report")

    def run(rules: dict, strategies) -> Results:
        result = simulate("samurai", rules, strategies, n_games, seed, jobs=jobs,
                          backend="threading", progress=False)
        bar.update(1)
        return result

    started = time.perf_counter()
    doc.text(f"# Samurai Sword: balance report\n\n"
             f"Made by `games.samurai.study` (balance-toolkit {__version__}): {n_games:,} "
             f"games per batch, master seed {seed}. Rules: the brief's defaults (every open point "
             f"at its default reading, `games/samurai/RULES.md`). Two tables are played at every "
             f"player count: all `random`, and a *mixed* table of role-aware heuristics and "
             f"random players ({', '.join(MIXED)}, seat by seat). Roles and characters are dealt "
             f"at random, so every figure below is over the seats that held a role or character. "
             f"Intervals are 95% Wilson intervals; paired differences are t-intervals.")
    batches = {(table, n): run({"n_players": n}, pick(n)) for n in PLAYER_COUNTS
               for table, pick in TABLES.items()}
    seats = pd.concat([seat_rows(b, n, table) for (table, n), b in batches.items()], ignore_index=True)
    games = pd.concat([game_rows(b, n, table) for (table, n), b in batches.items()], ignore_index=True)
    provenance = combined([b.provenance for b in batches.values()])

    teams = _teams(doc, games, seats, provenance)
    _roles(doc, seats, provenance)
    chars = _characters(doc, seats, provenance)
    paired = _paired_characters(doc, run)
    _seats(doc, seats, provenance)
    card_section(doc, "samurai", {"n_players": CHARACTER_PLAYERS},
                 n_games=None if quick else CARD_GAMES, seed=seed, jobs=1, quick=quick)
    _cards(doc, seats, provenance)
    _length(doc, games, provenance)
    # Five searching seats make a search game ~5 x 30 decisions x budget games: small budgets.
    # Search rungs at 16 and 128 iterations: at 4 and 16 the search played about as well as the
    # heuristics and measured almost nothing (docs/search.md: 128 is where it first beats them).
    skill_section(doc, "samurai", {"n_players": 5}, "shrewd", skill_games(n_games // 5, quick),
                  seed, jobs, (4, 8) if quick else (16, 128))
    bar.close()
    _summary(doc, teams, chars, paired)
    doc.text(ran_in("samurai", started, f"34 batches, jobs={jobs}"))
    return doc.write()


# --- tidy rows ----------------------------------------------------------------------------------

def game_rows(batch: Results, n: int, table: str) -> pd.DataFrame:
    r = batch.records
    return pd.DataFrame({"players": n, "table": table, "turns": r["turns"],
                         "end_reason": r["end_reason"], "winning_team": r["winning_team"],
                         "reshuffles": r["reshuffles"]})


def seat_rows(batch: Results, n: int, table: str) -> pd.DataFrame:
    """One row per (game, seat): role, team, character, distance from the Shogun, win, cards."""
    r = batch.records
    labels = batch.provenance["strategies"]
    parts = []
    for s in range(n):
        shogun = r["shogun_seat"].to_numpy()
        parts.append(pd.DataFrame({
            "players": n, "table": table, "seat": s, "strategy": labels[s] if len(labels) > s else labels[0],
            "role": r[f"role_{s}"].map(ROLES), "team": r[f"team_{s}"].map(TEAMS),
            "character": r[f"character_{s}"].map(dict(enumerate(L.CHARACTER_NAMES))),
            "after_shogun": (s - shogun) % n,
            "win": (r[f"win_{s}"] > 0).astype(int), "finished": r["winning_team"] >= 0,
            **{f"{k}_0": r[f"{k}_{s}"] for k in ("held_w", "held_a", "opening_w", "opening_a",
                                                 "played_w", "played_a")},
        }))
    return pd.concat(parts, ignore_index=True)


def rate_table(rows: pd.DataFrame, keys: list[str], provenance: dict) -> pd.DataFrame:
    """Win rate per group of seat rows (finished games only), with Wilson intervals."""
    done = rows[rows["finished"]]
    grouped = done.groupby(keys, observed=True)["win"].agg(["sum", "count"]).reset_index()
    low, high = wilson(grouped["sum"].to_numpy(), grouped["count"].to_numpy())
    grouped = grouped.rename(columns={"sum": "wins", "count": "n"})
    grouped["win_rate"], grouped["ci_low"], grouped["ci_high"] = grouped["wins"] / grouped["n"], low, high
    return with_provenance(grouped, provenance)


def pct(row) -> str:
    return f"{100 * row['win_rate']:.1f}% [{100 * row['ci_low']:.1f}, {100 * row['ci_high']:.1f}]"


def view(table: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    out = table[keys + ["n"]].copy()
    out["win rate [95% CI]"] = table.apply(pct, axis=1)
    return out


# --- sections ----------------------------------------------------------------------------------

def _teams(doc, games, seats, provenance) -> pd.DataFrame:
    doc.text("## (a) Teams per player count\n\nA team wins a game when its total score is highest "
             "(SS-19, also after a `teammate_defeat` end) or by Swordmaster (SS-20); capped games "
             "(OP-3) are left out.")
    done = games[games["winning_team"] >= 0]
    rows = []
    for (table, n), group in done.groupby(["table", "players"]):
        for team, name in TEAMS.items():
            if name == "ronin" and n < 5:
                continue
            k = int((group["winning_team"] == team).sum())
            low, high = wilson(k, len(group))
            rows.append({"table": table, "players": n, "team": name, "n": len(group), "wins": k,
                         "win_rate": k / len(group), "ci_low": float(low), "ci_high": float(high)})
    teams = with_provenance(pd.DataFrame(rows), provenance)
    doc.table("a_team_win_rates", teams, view(teams, ["table", "players", "team"]))
    return teams


def _roles(doc, seats, provenance) -> None:
    doc.text("## (b) Roles per player count\n\nA seat wins when its team wins; the Ninja's rate "
             "is per Ninja seat.")
    roles = rate_table(seats, ["table", "players", "role"], provenance)
    doc.table("b_role_win_rates", roles, view(roles, ["table", "players", "role"]))


def _characters(doc, seats, provenance) -> pd.DataFrame:
    doc.text("## (c) Characters\n\nWin rate of the seats that held each character, over every "
             "player count and role (roles are dealt independently of characters, so the "
             "comparison between characters is fair; the level depends on the role mix).")
    chars = rate_table(seats, ["table", "character"], provenance)
    doc.table("c_character_win_rates", chars, view(chars, ["table", "character"]))
    mixed = chars[chars["table"] == "mixed"].assign(seat=lambda t: t["character"], fair=np.nan)
    doc.figure("c_character_win_rates", plots.win_rate_plot(mixed, "character",
                                                              what="Win rate per character (mixed table)"),
               "Each dot is a character's win rate at the mixed tables with its 95% interval.")
    return chars


def _paired_characters(doc, run) -> pd.DataFrame:
    doc.text(f"## (d) Characters against an ability-less yardstick (common random numbers)\n\n"
             f"{CHARACTER_PLAYERS} players, mixed table. Seat 0 holds the character in one batch "
             "and an ability-less character of the same resilience (Plain4 / Plain5) in the other; "
             "the character is excluded from the other seats' draw in both, and both batches use "
             "the same seed, so roles, the other characters, the deck and every seat's random "
             "stream are the same: the paired difference is the ability's effect on seat 0.")
    n = CHARACTER_PLAYERS
    resilience = SamuraiRules().resilience()
    rows, provs = [], []
    strategies = list(MIXED[:n])
    for c in range(L.N_PRINTED_CHARACTERS):
        name = L.CHARACTER_NAMES[c]
        plain = "plain5" if resilience[c] == 5 else "plain4"
        base = {"n_players": n, "exclude_characters": (name,)}
        a = run({**base, "characters": (name,) + ("random",) * (n - 1)}, strategies)
        b = run({**base, "characters": (plain,) + ("random",) * (n - 1)}, strategies)
        provs += [a.provenance, b.provenance]
        d = paired_difference(a.records["win_0"].to_numpy(), b.records["win_0"].to_numpy())
        rows.append({"character": name, "yardstick": plain.capitalize(), "n": d["n"],
                     "win_rate": d["mean_a"], "yardstick_rate": d["mean_b"], "diff": d["diff"],
                     "ci_low": d["ci_low"], "ci_high": d["ci_high"], "p": d["p"]})
    paired = with_provenance(pd.DataFrame(rows).sort_values("diff", ascending=False), combined(provs))
    shown = paired[["character", "yardstick", "n"]].copy()
    shown["seat 0 win rate"] = (100 * paired["win_rate"]).map("{:.1f}%".format)
    shown["ability effect, pp [95% CI]"] = paired.apply(
        lambda r: f"{100 * r['diff']:+.1f} [{100 * r['ci_low']:+.1f}, {100 * r['ci_high']:+.1f}]", axis=1)
    doc.table("d_character_paired", paired, shown)
    doc.figure("d_character_paired", plots.difference_plot(paired, "character"),
               "Each bar is the change in seat 0's win rate when it holds the character instead "
               "of the ability-less yardstick, with its 95% paired interval; an interval that "
               "misses zero is an ability that matters.")
    return paired


def _seats(doc, seats, provenance) -> None:
    doc.text("## (e) Seats relative to the Shogun\n\nThe Shogun plays first (SS-5); "
             "`after_shogun` = k means the seat plays k turns after him (k = 1 sits on his left, "
             "k = N - 1 on his right; difficulty counts both ways round, SS-9). Non-Shogun seats "
             "only, per role.")
    others = seats[seats["role"] != "shogun"]
    table = rate_table(others, ["table", "players", "role", "after_shogun"], provenance)
    doc.table("e_seat_after_shogun", table, view(table, ["table", "players", "role", "after_shogun"]))


def _cards(doc, seats, provenance) -> None:
    doc.text("## (f) Cards, observed\n\nThe project's card metrics (analysis.cards, 17lands names): OH WR "
             "(card in the opening hand), GIH WR (held at some point), Played WR, IWD, and "
             "*oh_gain* = OH WR - WR without it in the opening hand: the unconfounded effect of "
             "starting with the card, since the deal is random. Mixed table, all seats pooled "
             "(a seat's row is one game of one seat).")
    rows = seats[(seats["table"] == "mixed") & seats["finished"]].reset_index(drop=True)
    rows = rows.assign(win_0=rows["win"].astype(float))
    parts = []
    for suffix, bits in (("w", L.WEAPON_BITS), ("a", L.ACTION_BITS)):
        part = card_table(rows, bits, seats={0: "all seats"}, win="win_{seat}",
                          held=f"held_{suffix}_{{seat}}", opening=f"opening_{suffix}_{{seat}}",
                          played=f"played_{suffix}_{{seat}}", provenance=provenance)
        parts.append(part.assign(kind="weapon" if suffix == "w" else "action/property"))
    cards = with_provenance(pd.concat(parts, ignore_index=True), provenance)
    shown = cards[["kind", "card", "n_oh"]].copy()
    for metric in ("oh", "gih", "played"):
        shown[f"{metric.upper()} WR"] = cards.apply(
            lambda r, m=metric: f"{100 * r[f'{m}_wr']:.1f} [{100 * r[f'{m}_low']:.1f}, {100 * r[f'{m}_high']:.1f}]", axis=1)
    shown["OH gain, pp"] = cards.apply(
        lambda r: f"{100 * r['oh_gain']:+.1f} [{100 * r['oh_gain_low']:+.1f}, {100 * r['oh_gain_high']:+.1f}]", axis=1)
    doc.table("f_card_metrics", cards, shown)
    doc.figure("f_card_metrics", plots.card_plot(cards.assign(side=cards["kind"]), ("oh", "played")),
               "Win rate of a seat when the card was in its opening hand (OH) and when it played "
               "it, with 95% intervals, against the seats' overall rate.")


def _length(doc, games, provenance) -> None:
    doc.text("## (g) Game length and end reasons\n\n`honour`: a player reached 0 honour, the "
             "teams count their points (SS-19). `swordmaster`: every player but one at 0 "
             "resilience, and that player's team wins (SS-20). `teammate_defeat`: every player "
             "but one at 0 resilience, but by the defeat of a teammate: no Swordmaster, the teams "
             "count their points, Deadly strike included (SS-20, SS-19). `capped`: cut at the "
             "turn cap, nobody wins (OP-3). At 3 players there is no Swordmaster (SS-21), so "
             "neither `swordmaster` nor `teammate_defeat` happens.")
    order = ("honour", "swordmaster", "teammate_defeat", "capped", "invariant_broken")
    reasons = [r for r in order if r in L.END_REASONS] + [r for r in L.END_REASONS if r not in order]
    rows = []
    for (table, n), group in games.groupby(["table", "players"]):
        row = {"table": table, "players": n, "n": len(group), "mean turns": group["turns"].mean(),
               "sd turns": group["turns"].std(), "mean reshuffles": group["reshuffles"].mean()}
        for reason in reasons:
            k = int((group["end_reason"] == reason).sum())
            low, high = wilson(k, len(group))
            row[reason] = f"{100 * k / len(group):.1f}% [{100 * float(low):.1f}, {100 * float(high):.1f}]"
        rows.append(row)
    table = with_provenance(pd.DataFrame(rows), provenance)
    doc.table("g_length_end_reasons", table, table.round(2))


def _summary(doc, teams, chars, paired) -> None:
    mixed = teams[teams["table"] == "mixed"]
    for n, group in mixed.groupby("players"):
        best = group.sort_values("win_rate").iloc[-1]
        doc.finding(f"{n} players, mixed table: the {best['team']} team wins most often, "
                    f"{pct(best)} of games.")
    strong = paired[paired["ci_low"] > 0]["character"].tolist()
    weak = paired[paired["ci_high"] < 0]["character"].tolist()
    doc.finding("Abilities that help their holder (paired interval above zero): "
                + (", ".join(strong) or "none") + "; that hurt: " + (", ".join(weak) or "none") + ".")
    spread = mixed.groupby("players")["win_rate"].agg(lambda v: v.max() - v.min())
    doc.verdict(f"Team win rates differ by up to {100 * spread.max():.0f} pp at one player count "
                "(mixed tables); see (a) and (d) for the roles and characters that drive it.")


# --- the trained policy's strength (docs/training.md) -------------------------------------------
# Samurai Sword is a team game: every member of the winning team wins (SS-19, SS-20), so a
# table's win rates do not add up to 1 and 1/n is no fair share. A seat's share is its win rate
# against the field's: the mean win rate of the other slots in the same games (seats rotated, so
# each slot sits at every seat and is dealt every role equally often).

def team_share(lineup, n_games: int, seed: int, rules=None) -> dict:
    """Slot 0's win rate (Wilson 95%) and the field's (the other slots' mean), seats rotated,
    over the decided games (a capped game has no winner, OP-3)."""
    from analysis.training import seat_share

    n = len(lineup)
    rules = dict(rules or {}, n_players=n)
    records = simulate("samurai", rules, lineup, n_games, seed=seed, rotate_seats=True,
                       progress=False).records
    wins = np.stack([seat_share(records, n, k) for k in range(n)], axis=1)
    decided = wins.sum(axis=1) > 0
    low, high = wilson(wins[decided, 0].sum(), int(decided.sum()))
    return {"share": wins[decided, 0].mean(), "low": low, "high": high,
            "field": wins[decided, 1:].mean(), "games": n_games, "decided": int(decided.sum())}


def strength_table(policy="trained", opponents=("shrewd", "loyal", "random"), n_players: int = 5,
                   n_games: int = 2000, seed: int = 2**31, baseline: str | None = "shrewd"):
    """The policy at one seat of a table of each opponent and of a mixed table of them (slots
    filled in turn), seats rotated; `beats`: its interval's low end above the field's win rate.
    With ``baseline``, the same games (same seeds) with the baseline in the policy's slot."""
    lineups = {o: [o] * (n_players - 1) for o in opponents}
    lineups["mixed table"] = [opponents[s % len(opponents)] for s in range(n_players - 1)]
    rows = []
    for k, (name, field) in enumerate(lineups.items()):
        r = team_share([policy] + field, n_games, seed + k)
        row = {"against": name, **r, "beats": r["low"] > r["field"]}
        if baseline is not None:
            b = team_share([baseline] + field, n_games, seed + k)
            row.update({"baseline": baseline, "baseline_share": b["share"],
                        "baseline_field": b["field"]})
        rows.append(row)
    return pd.DataFrame(rows)
