"""What each card is worth, measured by changing it: the interventional card table.

A card's effect is the change in a win rate when the card is changed and nothing else is: the
changed game and the unchanged one play the same games (the same seed and game ids: every deal
and every random choice that does not depend on the card is shared, common random numbers), so
the per-game difference cancels most of the luck, and its mean is the card's effect with a
paired t-interval (analysis.stats.paired_difference).

Each game declares its cards once, in its study (``games/<game>/study/cards.py``, a
function ``cards(rules) -> list[Card]``), as changes of its rule options: this module knows no
game. The interventions a game may declare for a card (labels):

==============  =================================================================================
``remove one``  one copy fewer in the deck (a card with one copy: the card is gone)
``neutral``     one copy replaced by the game's neutral card (a blank, or the weakest of its kind)
``+1`` / ``-1`` its printed value (strength, damage, difficulty, number, looseness) one up / down
``yardstick``   a character, role or leader swapped for the ability-less yardstick
==============  =================================================================================

Whose win rate moves (``Card.owner``):

- ``holder``: the seats that were dealt the card in the unchanged game (``Card.held``: a per-seat
  bitmask column of the records and the card's bit). Per game it is the mean win share of those
  seats, in the unchanged and in the changed game; a game in which no seat was dealt it is left
  out. The deal is random and shared by both versions, so the dealt seats are a randomised
  group: a removed or replaced card is read on the seats that would have had it.
- any other name: a per-game metric of the game (analysis.workbench.metrics.per_game, which
  includes the metrics its study declares): a side's or team's win rate, ``victory`` ...

Every effect of one table and level of play is one test: p-values get the Benjamini-Hochberg
false-discovery-rate correction over the table (``q``), and a table of 30 cards at q < 0.05
holds on average at most 5% false discoveries among the effects it calls real.

The same machinery measures **interactions and shares** for the k cards with the largest
effects: every subset S of them is played with the cards of S changed at once (2^k batches, the
same games), and the game's ``edge`` metric (a side's or team's edge, declared by the study) is
read per game, v_S(g). The synergy of A and B is v_AB - v_A - v_B + v_0, and the Shapley share
of card i is the mean over orderings of v(S + i) - v(S), exactly over all orderings: both are
linear in the per-game values, so each has a t-interval over games like any paired difference,
and the shares add up to v_all - v_0, the edge that the k cards carry together.
"""
from __future__ import annotations

import hashlib
import itertools
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import stats
from tqdm.auto import tqdm

from sim.errors import BalanceError, RulesError
from sim.runner import as_rules, simulate
from sim import field as fields
from sim.trained import shipped_path
from sim.games import code_versions, get_game, home

from .evidence import unmeasured
from .stats import newcombe_difference, paired_where_both
from .studies import Study, study_of
from .workbench import metrics as M
from .workbench.precision import FIRST_STEP, MAX_GROWTH, PIECE_SECONDS, play_pieces, stop_point

HOLDER = "holder"
REMOVE, NEUTRAL, UP, DOWN, YARDSTICK = "remove one", "neutral", "+1", "-1", "yardstick"
DEFAULT_PRECISION = 1.0        # pp: the half-width every effect is grown to
DEFAULT_MAX_GAMES = 200_000    # per batch, when the precision is not reached sooner
FDR = 0.05


class CardsError(BalanceError):
    """A bad card-table request: unknown card or level, or a game that declares no cards."""


@dataclass(frozen=True)
class Card:
    """One card type and the interventions that make sense for it.

    name : what a designer calls it ("katana", "legion 3", "White leader b").
    kind : its family ("weapon", "legion", "leader", "character", "number card" ...).
    interventions : label -> the rule options to change from the base (a dict), or a function
        base rules -> changed rules; a change the rules refuse is reported, not played.
    owner : ``holder`` or the name of the per-game metric whose change is the card's effect.
    held : (mask column with ``{seat}``, bit) of the seats dealt the card (``owner="holder"``),
        e.g. ``("opening_w_{seat}", 3)``; also what the observational columns are read from.
    drawn : the mask column of every card the seat held (drawn later too), for the
        observational GIH / IWD beside the effect; None when the game records only the deal.
    value : the printed value the +1 / -1 change, shown in the table (None: not numbered).
    up_helps : whether ``+1`` should help the card's owner (a stronger legion does not help the
        team, a looser condition helps the holder's opponent): how ``disagrees`` reads a +1.
    optional : its owner may decline it at every use (the kernel asks before each use: Sunzi's
        leader powers), so it cannot cost a player who plays well. Where taking it away
        (``yardstick``, ``remove one``, ``neutral``) significantly raises its owner's win rate,
        the table marks the effect ``artifact``: a measure of how that level of play uses the
        power, not of the power (the dominance check).
    """

    name: str
    kind: str
    interventions: Mapping[str, object]
    owner: str = HOLDER
    held: tuple[str, int] | None = None
    drawn: str | None = None
    value: float | None = None
    up_helps: bool = True
    optional: bool = False

    def __post_init__(self):
        if self.owner == HOLDER and self.held is None:
            raise CardsError(f"card {self.name!r}: an effect on its holder needs held=(column, bit)")

    def changed(self, label: str, rules):
        change = self.interventions[label]
        return change(rules) if callable(change) else rules.replace(**dict(change))


# --- what a game declares ---------------------------------------------------------------------

def study(game) -> Study:
    """The game's study record, which must declare its cards."""
    spec = get_game(game)
    declared = study_of(spec.name)
    if declared.cards is None:
        raise CardsError(f"{spec.title} declares no cards (cards(rules) in its study, "
                         f"{home(spec).study}; analysis.default_study.option_cards makes one "
                         "per tunable option)")
    return declared


def declared_cards(game, rules=None, names: Sequence[str | Card] | None = None) -> list[Card]:
    """The cards a game's study declares for this variant (all, or those named); Card objects
    among ``names`` are taken as they are (a designer's own interventions)."""
    spec = get_game(game)
    if names is not None and all(isinstance(n, Card) for n in names):
        return _named_once(list(names), "the cards given")
    cards = _named_once(list(study(spec).cards(as_rules(spec, rules))), f"{spec.title}'s study")
    if names is None:
        return cards
    known = {card.name: card for card in cards}
    missing = [n for n in names if not isinstance(n, Card) and n not in known]
    if missing:
        raise CardsError(f"{spec.title} has no card {', '.join(map(repr, missing))}; its cards: "
                         f"{', '.join(known)}")
    return [n if isinstance(n, Card) else known[n] for n in names]


def _named_once(cards: list[Card], where: str) -> list[Card]:
    """Refuse two cards of one name: a row, ``--card NAME`` and the interactions find a card by
    its name, so the second would silently stand for the first."""
    names = [card.name for card in cards]
    twice = list(dict.fromkeys(n for n in names if names.count(n) > 1))
    if twice:
        raise CardsError(f"{where} declares the card(s) {', '.join(map(repr, twice))} more than "
                         "once; give every card its own name")
    return cards


def levels(game, rules=None) -> dict[str, object]:
    """The levels of play a game's card table is given at: name -> strategies (every seat).
    ``random``, the study's best heuristic, and its strongest shipped play: the strong field
    (``strong``, sim/field.py) where one ships for the player count, else ``trained`` where a
    policy fits. The strong field takes the trained policy's place rather than adding a level:
    a card table's verdict is read at its strongest level, and each level costs a whole table
    of games (the skill ladder of the report keeps both rungs, and flags where they differ)."""
    spec = get_game(game)
    rules = as_rules(spec, rules)
    # Undeclared: random, the spec's best heuristic, and the shipped policy where one fits
    default = {"random": "random", "heuristic": spec.heuristic, "trained": "trained"}
    if spec.heuristic not in spec.strategies or spec.heuristic == "random":
        default.pop("heuristic")
    declared = dict(study(spec).levels or default)
    if "trained" in declared and shipped_path(spec, rules.n_seats) is None:
        declared.pop("trained")
    if fields.shipped_path(spec, rules.n_seats) is not None:
        declared.pop("trained", None)
        declared["strong"] = "strong"
    return declared


def edge_metric(game) -> str:
    return study(game).edge or M.primary_metric(game)


# --- per-game values --------------------------------------------------------------------------

def holders(records: pd.DataFrame, card: Card, n_seats: int) -> np.ndarray:
    """bool[n, seats]: the seats dealt the card in each game (from the base game's records)."""
    column, bit = card.held
    return np.column_stack([(records[column.format(seat=s)].to_numpy(np.int64) >> bit) & 1
                            for s in range(n_seats)]).astype(bool)


def holder_values(records: pd.DataFrame, dealt: np.ndarray) -> np.ndarray:
    """Per game: the mean win share of the seats in ``dealt``; NaN where there is none."""
    n, seats = dealt.shape
    wins = np.column_stack([records[f"win_{s}"].to_numpy(float)[:n] for s in range(seats)])
    count = dealt.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, (dealt * wins).sum(axis=1) / count, np.nan)


def owner_values(records: pd.DataFrame, card: Card, game, n_seats: int,
                 dealt: np.ndarray | None = None) -> np.ndarray:
    """The per-game values a card's effect is read on. For ``holder`` the seats are those dealt
    the card in the base game (``dealt``; default: in ``records``), so that a removed or replaced
    card is read on the seats that would have had it."""
    if card.owner == HOLDER:
        return holder_values(records, holders(records, card, n_seats) if dealt is None else dealt)
    values = M.per_game(records, game, n_seats)
    if card.owner not in values:
        raise CardsError(f"card {card.name!r}: {get_game(game).title} has no metric "
                         f"{card.owner!r}; its metrics: {', '.join(values)}")
    return values[card.owner]


def fdr(p: np.ndarray) -> np.ndarray:
    """Benjamini-Hochberg q-values; NaN p (no spread: nothing changed) stay NaN."""
    p = np.asarray(p, float)
    q = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    if ok.any():
        q[ok] = stats.false_discovery_control(p[ok], method="bh")
    return q


# --- batches that grow together ----------------------------------------------------------------

class PairedBatches:
    """The base game and its changed versions on the same games of one seed and level.

    ``records(key, n)`` is games 0..n-1 of a version (key None = the base), played in steps of
    ``simulate(first_game=...)`` so that a longer batch extends a shorter one; with ``run_dir``
    every step keeps its chunks there and a killed table resumes."""

    def __init__(self, game, base, strategies, seed: int, *, jobs: int = 1, run_dir=None,
                 should_stop=None):
        self.spec, self.base, self.strategies, self.seed = get_game(game), base, strategies, seed
        self.should_stop = should_stop   # asked between pieces of about PIECE_SECONDS
        self.jobs, self.run_dir = jobs, None if run_dir is None else Path(run_dir)
        self.rules: dict = {None: base}
        self.parts: dict = {}
        self.played = 0

    def add(self, key, rules) -> None:
        self.rules[key] = rules

    def records(self, key, n: int) -> pd.DataFrame:
        parts = self.parts.setdefault(key, [])
        have = sum(len(p) for p in parts)
        if have < n:
            step_dir = None
            if self.run_dir is not None:
                digest = _digest({"variant": self.rules[key].to_dict(), "seed": self.seed,
                                  "strategies": str(self.strategies)})
                step_dir = self.run_dir / f"{digest}-{have}-{n}"
            if self.should_stop is not None and step_dir is None:
                for part in play_pieces(self.spec, self.rules[key], self.strategies, n - have,
                                        self.seed, first_game=have, seconds=PIECE_SECONDS,
                                        should_stop=self.should_stop, jobs=self.jobs,
                                        backend="threading", progress=False):
                    parts.append(part.records)
                    self.played += len(part.records)
            else:
                part = simulate(self.spec, self.rules[key], self.strategies, n - have, self.seed,
                                first_game=have, jobs=self.jobs, backend="threading",
                                progress=False, run_dir=step_dir)
                parts.append(part.records)
                self.played += n - have
        frame = parts[0] if len(parts) == 1 else pd.concat(parts, ignore_index=True)
        if len(parts) > 1:
            self.parts[key] = [frame]
        return frame.iloc[:n]


def _open_run_dir(run_dir, spec, base, plays: dict, cards, n_games, precision, max_games,
                  seed) -> None:
    """Mark the folder as this table's (a manifest, sim.checkpoint.RunDir): a folder that
    another command made, or a table with other settings or edited input files, is refused
    before anything is played. The interactions' batches share the folder."""
    from sim.checkpoint import RunDir
    from sim.runner import run_inputs
    from sim.strategy import resolve_seats

    seats = {name: resolve_seats(spec, strategies, base.n_seats) for name, strategies in plays.items()}
    RunDir(run_dir, {"command": "cards", "game": spec.name, "variant": base.to_dict(),
                     "strategies": {name: list(plan.labels) for name, plan in seats.items()},
                     "cards": {card.name: list(card.interventions) for card in cards},
                     "n_games": n_games, "precision": precision, "max_games": max_games,
                     "seed": int(seed), **run_inputs(base, *seats.values())})


def _digest(request: dict) -> str:
    return hashlib.sha256(json.dumps(request, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _grown(n: int, half: float, target: float, max_games: int) -> int:
    wanted = n * (half / target) ** 2 if np.isfinite(half) and half > 0 else n
    grown = min(max(wanted, 2 * n), MAX_GROWTH * n)
    return min(max_games, FIRST_STEP * math.ceil(grown / FIRST_STEP))


# --- the table ---------------------------------------------------------------------------------

COLUMNS = ["level", "card", "kind", "intervention", "value", "owner", "up_helps", "n", "base",
           "changed", "effect", "ci_low", "ci_high", "p", "q", "significant", "corr", "unpaired_half",
           "status", "oh_gain", "oh_gain_low", "oh_gain_high", "iwd", "iwd_low", "iwd_high",
           "disagrees", "optional", "artifact"]
OBSERVED = ("oh_gain", "iwd")


def interventions(game, rules=None, level: str | Sequence[str] | None = None, *,
                  cards: Sequence[str] | None = None, n_games: int | None = None,
                  precision: float | None = DEFAULT_PRECISION, max_games: int = DEFAULT_MAX_GAMES,
                  seed: int = 0, jobs: int = 1, run_dir=None, progress: bool = False,
                  strategies=None, should_stop=None) -> pd.DataFrame:
    """The interventional card table: every declared intervention of every card, at each level.

    Parameters
    ----------
    game, rules : the game and the base variant (rules dataclass, dict of options or None).
    level : a level of play (:func:`levels`: ``random``, the study's heuristic, ``trained``),
        several, or None for all of them. ``strategies`` instead seats these strategies (one
        name or one per seat) as the single level ``custom``.
    cards : card names (default every declared card), or Card objects: interventions of your
        own, declared as the studies do.
    n_games : a fixed number of games per version; otherwise each effect's batch grows
        (1,000 games, then on the workbench's growth schedule) until its 95% half-width is at
        most ``precision`` percentage points or it reaches ``max_games``.
    run_dir : a folder that keeps every step's chunks: the same call resumes a killed table.
    should_stop : asked between the growth steps of every card and between pieces of its
        batches; a true answer raises analysis.workbench.precision.Stopped.

    Returns
    -------
    DataFrame, one row per (level, card, intervention): the owner metric's mean in the base
    (``base``) and the changed game (``changed``), ``effect`` = changed - base with its paired
    95% interval, ``p``, the Benjamini-Hochberg ``q`` over the level's table and ``significant``
    (q < 0.05), what pairing bought (``corr``, ``unpaired_half``), and ``status`` ("ok", or why
    an intervention was not played). ``attrs["provenance"]`` names game, variant, strategies,
    games, seed and version.
    """
    spec = get_game(game)
    base = as_rules(spec, rules)
    if n_games is None and precision is None:
        raise CardsError("give a number of games or a precision")
    if n_games is not None and (isinstance(n_games, bool) or not isinstance(n_games, int)
                                or n_games < 2):
        raise CardsError(f"games per version must be an integer >= 2, got {n_games!r}")
    if precision is not None and not 0 < precision <= 50:
        raise CardsError(f"precision must be a number of percentage points in (0, 50], got {precision!r}")
    plays = _levels(spec, base, level, strategies)
    declared = declared_cards(spec, base, cards)
    if run_dir is not None:
        _open_run_dir(run_dir, spec, base, plays, declared, n_games, precision, max_games, seed)
    tables, batches = [], []
    for name, seats in plays.items():
        folder = None if run_dir is None else Path(run_dir) / f"level-{name}"
        table, played = _level_table(spec, base, name, seats, declared, n_games, precision,
                                     max_games, seed, jobs, folder, progress,
                                     should_stop=should_stop)
        tables.append(table)
        batches.append({"level": name, "strategies": seats, "games_played": played})
    table = pd.concat(tables, ignore_index=True)[COLUMNS]
    table.attrs["provenance"] = {
        "command": "cards", "game": spec.name, "variant": base.to_dict(), "seed": int(seed),
        "strategies": {b["level"]: b["strategies"] for b in batches},
        "n_games": int(table["n"].max()) if len(table) else 0, "precision_pp": precision,
        "fdr": f"Benjamini-Hochberg over each level's table, q < {FDR}",
        "games_played": sum(b["games_played"] for b in batches), **code_versions(spec)}
    return table


def _levels(spec, base, level, strategies) -> dict:
    if strategies is not None:
        return {"custom": strategies}
    available = levels(spec, base)
    names = list(available) if level is None else [level] if isinstance(level, str) else list(level)
    missing = [n for n in names if n not in available]
    if missing:
        raise CardsError(f"{spec.title} has no level {', '.join(map(repr, missing))} at "
                         f"{base.n_seats} seats; its levels: {', '.join(available)}")
    return {n: available[n] for n in names}


def _level_table(spec, base, level, seats, cards, n_games, precision, max_games, seed, jobs,
                 run_dir, progress, should_stop=None) -> tuple[pd.DataFrame, int]:
    batches = PairedBatches(spec, base, seats, seed, jobs=jobs, run_dir=run_dir,
                            should_stop=should_stop)
    jobs_list, rows = [], []
    for card in cards:
        for label in card.interventions:
            row = {"level": level, "card": card.name, "kind": card.kind, "intervention": label,
                   "value": card.value, "owner": card.owner, "up_helps": card.up_helps,
                   "optional": card.optional}
            try:
                changed = card.changed(label, base)
            except (RulesError, ValueError) as refused:
                rows.append({**row, "status": f"refused by the rules: {refused}"})
                continue
            batches.add((card.name, label), changed)
            jobs_list.append((card, label, row))
    target = None if precision is None else precision / 100
    bar = tqdm(total=len(jobs_list), desc=f"cards {spec.name} ({level})", unit="effect",
               disable=not progress)
    for card, label, row in jobs_list:
        n = n_games or min(FIRST_STEP, max_games)
        while True:
            stop_point(should_stop)
            base_records = batches.records(None, n)
            dealt = holders(base_records, card, base.n_seats) if card.owner == HOLDER else None
            before = owner_values(base_records, card, spec, base.n_seats, dealt)
            after = owner_values(batches.records((card.name, label), n), card, spec,
                                 base.n_seats, dealt)
            d = paired_where_both(after, before)
            half = (d["ci_high"] - d["ci_low"]) / 2
            if n_games is not None or n >= max_games or not half > target:
                break
            n = _grown(n, half, target, max_games)
        if unmeasured(d["n"]) is not None:   # an effect from a few games decides nothing
            d = {**d, "ci_low": np.nan, "ci_high": np.nan, "p": np.nan}
        rows.append({**row, "n": d["n"], "base": d["mean_b"], "changed": d["mean_a"],
                     "effect": d["diff"], "ci_low": d["ci_low"], "ci_high": d["ci_high"],
                     "p": d["p"], "corr": d["corr"], "unpaired_half": d["unpaired_half"],
                     "status": "ok"})
        batches.parts.pop((card.name, label), None)   # done: only the base's games stay held
        bar.update(1)
    bar.close()
    table = pd.DataFrame(rows).reindex(columns=COLUMNS)
    table["q"] = fdr(table["p"].to_numpy(float))
    table["significant"] = table["q"] < FDR
    table["artifact"] = play_artifact(table)
    played = batches.played
    if batches.parts.get(None):
        base_records = batches.records(None, max(len(p) for p in batches.parts[None]))
        for card in cards:
            if card.held is None:
                continue
            at = table["card"] == card.name
            for name, value in observed(base_records, card, base.n_seats).items():
                table.loc[at, name] = value
        table["disagrees"] = disagreement(table)
    return table, played


def play_artifact(table: pd.DataFrame) -> pd.Series:
    """The dominance check: True where an optional power (``Card.optional``) costs its owner at
    this level, i.e. taking it away raises the owner's win rate with q < FDR. Its owner may
    decline it at every use, so with good play it can never cost them: the effect measures the
    level of play's use of the power, and is reported as that, never as a balance finding."""
    real = table["significant"].fillna(False).astype(bool)
    return costs_its_owner(table) & real


def costs_its_owner(table: pd.DataFrame) -> pd.Series:
    """Rows where an optional power reads as a cost to its owner (taking it away helps them),
    significantly or not: a reading no good play produces, so no finding is drawn from it."""
    if "optional" not in table:   # a table from before the column, or built by hand
        return pd.Series(False, index=table.index)
    taken_away = table["intervention"].isin([YARDSTICK, REMOVE, NEUTRAL])
    optional = table["optional"].fillna(False).astype(bool)
    return optional & taken_away & (table["effect"] > 0)


def observed(records: pd.DataFrame, card: Card, n_seats: int) -> dict:
    """The observational reading of a card from the unchanged games (analysis/cards.py):
    ``oh_gain``, the win rate of seats dealt the card minus that of seats not dealt it, and with
    ``Card.drawn`` ``iwd``, held at some point against never held; Newcombe intervals."""
    wins = np.concatenate([records[f"win_{s}"].to_numpy(float) for s in range(n_seats)])
    out = {}
    column, bit = card.held
    groups = {"oh_gain": column} if card.drawn is None else {"oh_gain": column, "iwd": card.drawn}
    for name, pattern in groups.items():
        mask = np.concatenate([(records[pattern.format(seat=s)].to_numpy(np.int64) >> bit) & 1
                               for s in range(n_seats)]).astype(bool)
        if name == "iwd":  # held = drawn later or dealt
            mask |= np.concatenate([(records[column.format(seat=s)].to_numpy(np.int64) >> bit) & 1
                                    for s in range(n_seats)]).astype(bool)
        d = newcombe_difference(wins[mask].sum(), mask.sum(), wins[~mask].sum(), (~mask).sum())
        out.update({name: float(d["diff"]), f"{name}_low": float(d["ci_low"]),
                    f"{name}_high": float(d["ci_high"])})
    return out


def disagreement(table: pd.DataFrame) -> pd.Series:
    """True where the observational OH gain and the intervention's reading of the card's worth
    point opposite ways, one of them with an interval that excludes zero. A removed or neutral
    card's worth is minus its effect; a +1 is read as it is (a stronger card should help)."""
    sign = table["intervention"].map({REMOVE: -1.0, NEUTRAL: -1.0, YARDSTICK: -1.0, UP: 1.0,
                                      DOWN: -1.0})
    if "up_helps" in table:   # a +1 that weakens the card reads the other way
        flips = table["intervention"].isin([UP, DOWN]) & ~table["up_helps"].fillna(True).astype(bool)
        sign = sign.where(~flips, -sign)
    worth = sign * table["effect"]
    excludes = (table["ci_low"] > 0) | (table["ci_high"] < 0)
    observed_excludes = (table["oh_gain_low"] > 0) | (table["oh_gain_high"] < 0)
    opposite = np.sign(worth) * np.sign(table["oh_gain"]) < 0
    return (opposite & (excludes | observed_excludes)).where(table["oh_gain"].notna() & sign.notna())


def sign_changes(table: pd.DataFrame) -> pd.DataFrame:
    """(card, intervention) whose effect differs in sign between levels of play while at least
    one level calls it real: ``reverses`` when two levels call it real with opposite signs,
    ``changes`` otherwise. An optional power's readings as a cost to its owner are left out
    (:func:`costs_its_owner`)."""
    rows = []
    # an optional power read as a cost to its owner says how a level plays it, not what it is
    # worth: such readings take no part in a sign change (:func:`costs_its_owner`)
    usable = table[(table["status"] == "ok") & ~costs_its_owner(table)]
    for (card, label), group in usable.groupby(["card", "intervention"], sort=False):
        if group["level"].nunique() < 2:
            continue
        real = group[group["significant"]]
        signs = set(np.sign(group["effect"].dropna()))
        if real.empty or not {-1.0, 1.0} <= signs:
            continue
        real_signs = set(np.sign(real["effect"]))
        rows.append({"card": card, "intervention": label,
                     "verdict": "reverses" if {-1.0, 1.0} <= real_signs else "changes",
                     **{f"effect_{r.level}": r.effect for r in group.itertuples()}})
    return pd.DataFrame(rows)


# --- interactions and shares ------------------------------------------------------------------

def strongest(table: pd.DataFrame, k: int, level: str | None = None) -> list[tuple[str, str]]:
    """The k (card, intervention) pairs with the largest |effect| at a level, one per card."""
    ok = table[(table["status"] == "ok") & table["effect"].notna()]
    if level is not None:
        ok = ok[ok["level"] == level]
    ok = ok.assign(size=ok["effect"].abs()).sort_values("size", ascending=False)
    return list(ok.drop_duplicates("card")[["card", "intervention"]].head(k).itertuples(
        index=False, name=None))


def coalitions(game, rules, chosen: Sequence[tuple[str, str]], strategies, n_games: int,
               seed: int = 0, *, metric: str | None = None, jobs: int = 1, run_dir=None,
               progress: bool = False) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Synergy of every pair and Shapley share of every card among ``chosen`` (card name or
    Card, intervention) pairs, on the game's edge metric (or ``metric``), from all 2^k subsets played
    on the same ``n_games`` games.

    Returns (synergy, shapley): synergy has one row per ordered pair (a, b) with a != b
    (symmetric), ``synergy`` = Δ(a and b) - Δ(a) - Δ(b) with its 95% interval; shapley one row
    per card, ``share`` with its interval and ``fraction`` of the total edge the k cards carry
    (v_all - v_0, in ``attrs["total"]``)."""
    spec = get_game(game)
    base = as_rules(spec, rules)
    metric = metric or edge_metric(spec)
    wanted = [card for card, _ in chosen]
    chosen_cards = declared_cards(spec, base, wanted)
    chosen = [(card.name, label) for card, (_, label) in zip(chosen_cards, chosen)]
    known = {card.name: card for card in chosen_cards}
    k = len(chosen)
    if not 2 <= k <= 8:
        raise CardsError(f"interactions need 2 to 8 cards, got {k}")
    batches = PairedBatches(spec, base, strategies, seed, jobs=jobs, run_dir=run_dir)
    values: dict[frozenset, np.ndarray] = {}
    subsets = [frozenset(s) for r in range(k + 1) for s in itertools.combinations(range(k), r)]
    for subset in tqdm(subsets, desc=f"interactions {spec.name}", unit="batch",
                       disable=not progress):
        rules_s = base
        for i in sorted(subset):
            card, label = chosen[i]
            rules_s = known[card].changed(label, rules_s)
        batches.add(subset, rules_s)
        key = None if not subset else subset
        values[subset] = M.per_game(batches.records(key, n_games), spec, base.n_seats)[metric]
    names = [f"{card} {label}" for card, label in chosen]
    zero = values[frozenset()]
    synergy = []
    for a, b in itertools.permutations(range(k), 2):
        per_game = (values[frozenset({a, b})] - values[frozenset({a})] - values[frozenset({b})]
                    + zero)
        synergy.append({"a": names[a], "b": names[b], **_mean_interval(per_game, "synergy")})
    weights = {r: math.factorial(r) * math.factorial(k - r - 1) / math.factorial(k)
               for r in range(k)}
    shapley = []
    for i in range(k):
        per_game = np.zeros_like(zero)
        for subset in subsets:
            if i not in subset:
                per_game += weights[len(subset)] * (values[subset | {i}] - values[subset])
        shapley.append({"card": names[i], **_mean_interval(per_game, "share")})
    total = float((values[frozenset(range(k))] - zero).mean())
    shapley = pd.DataFrame(shapley)
    shapley["fraction"] = shapley["share"] / total if total else np.nan
    from sim.strategy import resolve_seats

    # one label per seat, as every batch's provenance has them: a bare name ("strong") would be
    # read letter by letter where the seats are listed (analysis.provenance.describe)
    labels = list(resolve_seats(spec, strategies, base.n_seats, base).labels)
    provenance = {"command": "cards --interactions", "game": spec.name, "variant": base.to_dict(),
                  "strategies": labels, "n_games": int(n_games), "seed": int(seed),
                  "metric": metric, "cards": names, **code_versions(spec)}
    synergy = pd.DataFrame(synergy)
    for frame in (synergy, shapley):
        frame.attrs["provenance"] = provenance
    shapley.attrs["total"] = total
    return synergy, shapley


def _mean_interval(x: np.ndarray, name: str, confidence: float = 0.95) -> dict:
    n = x.size
    mean = float(x.mean())
    half = float(stats.t.ppf(0.5 + confidence / 2, n - 1) * x.std(ddof=1) / np.sqrt(n)) \
        if n > 1 else np.nan
    return {name: mean, "ci_low": mean - half, "ci_high": mean + half, "n": n}


# --- the report section -----------------------------------------------------------------------

REPORT_GAMES = 4_000     # games per version in a full report (the CLI grows to a precision)
QUICK_GAMES = 300
INTERACTION_CARDS = 4    # k: 2^k batches


def card_section(doc, game, rules=None, *, n_games: int | None = None,
                 precision: float | None = None, level=None, cards=None, seed: int = 0,
                 jobs: int = 1, quick: bool = False, k: int = INTERACTION_CARDS,
                 file_prefix: str = "c_interventions") -> pd.DataFrame:
    """Lead a report's card section with the interventional table at every level of play, its
    forest plot, the sign changes between levels, and the synergy heat map and Shapley shares
    of the k strongest cards: one line in a game's study. ``n_games`` per version (default
    REPORT_GAMES, QUICK_GAMES with ``quick``), or ``precision`` to grow each effect; ``level``
    and ``cards`` as :func:`interventions` takes them. Returns the table."""
    from .markdown import p_text, pp_text
    from .skill import field_exploitability

    spec = get_game(game)
    base = as_rules(spec, rules)
    n = None if precision is not None and n_games is None else \
        n_games or (QUICK_GAMES if quick else REPORT_GAMES)
    table = interventions(spec, base, level, cards=cards, n_games=n, precision=precision,
                          seed=seed, jobs=jobs)
    n = int(table["n"].max()) if n is None else n
    names = list(dict.fromkeys(table["level"]))
    top_level = strongest_level(table, names)
    doc.text(
        "## Card strength by intervention\n\n"
        "What each card is worth, measured by changing it: every card is removed, replaced by a "
        "neutral card, or has its printed value moved by one (whatever makes sense for it), and "
        f"the changed game plays the same {n:,} games as the unchanged one (the same deals and "
        "random choices: common random numbers). The effect is the mean per-game change in the "
        "win rate of whoever the card belongs to (the seats dealt it, or its side or team), "
        "with its paired 95% interval. The table holds many effects at once, so each p-value is "
        f"corrected for the false discovery rate (Benjamini-Hochberg, q < {FDR}: on average at "
        "most 5% of the effects marked real are not). Levels of play: "
        + ", ".join(f"`{name}` ({_seats_text(table.attrs['provenance']['strategies'][name])})"
                    for name in names)
        + ". `balance cards " + spec.name + "` grows every effect to ±1 pp.\n\n"
        "The observational OH gain (win rate of seats dealt the card minus the others', "
        "`analysis/cards.py`) is beside it: it answers \"does starting with it help?\", and is "
        "confounded by what else comes with the card and by how strategies use it; the "
        "intervention answers \"what does the card add to the game?\". Where they point opposite "
        "ways (*disagrees*), trust the intervention."
        + (f" The strong field's {field_exploitability(spec.name, base)}." if "strong" in names
           and field_exploitability(spec.name, base) else ""))
    ok = table["status"] == "ok"
    view = pd.DataFrame({
        "card": table["card"], "kind": table["kind"], "change": table["intervention"],
        "level": table["level"],
        "effect, pp (95% CI)": [t if s == "ok" else s for s, t in
                                zip(table["status"], pp_text(table["effect"], table["ci_low"],
                                                             table["ci_high"], table["n"]))],
        "q (BH)": table["q"].map(p_text),
        "real": np.where(table["significant"], "yes", ""),
        "OH gain, pp (95% CI)": pp_text(table["oh_gain"], table["oh_gain_low"],
                                        table["oh_gain_high"]),
        "disagrees": np.where(table["disagrees"].fillna(False).astype(bool), "yes", ""),
        "play artifact": np.where(table["artifact"].fillna(False).astype(bool), "yes", "")})
    doc.table(file_prefix, table, view)
    artifacts = table[table["artifact"].fillna(False).astype(bool)]
    if len(artifacts):
        doc.text(f"**Play artifacts** ({len(artifacts)}): "
                 + "; ".join(f"`{r.card}` at `{r.level}` (taking it away "
                             f"{100 * r.effect:+.1f} pp for its owner)"
                             for r in artifacts.itertuples())
                 + ". Each is an optional power: its owner may decline it at every use, so good "
                 "play can never lose by it. A level that loses by having it plays the power "
                 "badly; these rows measure that level of play, not the card, and no finding is "
                 "drawn from them.")
    forest = forest_figure(table, top_level, 25)
    if forest is not None:
        doc.figure(f"{file_prefix}_forest", forest,
                   "Each dot is one change of one card, its bar the paired 95% interval; right of "
                   "the dashed line the change helps the card's owner. Removing a strong card "
                   "moves left, a +1 on a useful value moves right.")
    changes = sign_changes(table)
    for row in changes.itertuples():
        levels_text = ", ".join(f"{name} {100 * getattr(row, f'effect_{name}'):+.1f} pp"
                                for name in names if hasattr(row, f"effect_{name}"))
        doc.finding(f"{spec.title}: the effect of `{row.card}` ({row.intervention}) "
                    f"{row.verdict} sign between levels of play ({levels_text}).")
    if len(changes):
        doc.text(f"**Effects that change sign with the level of play** ({len(changes)}): "
                 + "; ".join(f"`{r.card}` {r.intervention} ({r.verdict})"
                             for r in changes.itertuples()) + ".")
    else:
        doc.text("No effect changes sign between the levels of play while one of them calls it "
                 "real.")
    chosen = strongest(table, k, top_level)
    if len(chosen) >= 2:
        strategies = table.attrs["provenance"]["strategies"][top_level]
        synergy, shapley = coalitions(spec, base, chosen, strategies, n, seed, jobs=jobs)
        metric = synergy.attrs["provenance"]["metric"]
        doc.text(f"**Interactions and shares** of the {len(chosen)} cards with the largest "
                 f"effects at `{top_level}` play, on `{metric}`: every subset of their changes "
                 f"played on the same {n:,} games ({2 ** len(chosen)} batches). Synergy of A and "
                 "B = Δ(A and B) − Δ(A) − Δ(B): positive when the two changes together move "
                 "the edge more than apart. A card's Shapley share is its average contribution "
                 "over every order of making the changes; the shares add up to the change "
                 f"all {len(chosen)} make together ({100 * shapley.attrs['total']:+.1f} pp).")
        doc.figure(f"{file_prefix}_synergy", synergy_figure(synergy, top_level),
            "Each cell is Δ(A and B) − Δ(A) − Δ(B) in percentage points (intervals in the CSV); "
            "near 0: the two changes add up; far from 0: they interact.")
        doc.table(f"{file_prefix}_synergy", synergy, pd.DataFrame({
            "a": synergy["a"], "b": synergy["b"],
            "synergy, pp (95% CI)": pp_text(synergy["synergy"], synergy["ci_low"],
                                            synergy["ci_high"], synergy["n"])})[synergy["a"] < synergy["b"]])
        doc.table(f"{file_prefix}_shapley", shapley, pd.DataFrame({
            "card and change": shapley["card"],
            "Shapley share, pp (95% CI)": pp_text(shapley["share"], shapley["ci_low"],
                                                  shapley["ci_high"], shapley["n"]),
            "of the total": shapley["fraction"].map(
                lambda f: "" if not np.isfinite(f) else f"{100 * f:.0f}%")}))
    return table


def forest_figure(table: pd.DataFrame, level: str, top: int = 25):
    """The ``top`` largest effects at a level, in pp with their paired intervals (None when no
    effect was played)."""
    from .plots import difference_plot

    shown = table[(table["status"] == "ok") & (table["level"] == level)]
    shown = shown.assign(size=shown["effect"].abs()).sort_values("size", ascending=False).head(top)
    if shown.empty:
        return None
    forest = shown.assign(label=shown["card"] + " " + shown["intervention"],
                          effect=100 * shown["effect"], ci_low=100 * shown["ci_low"],
                          ci_high=100 * shown["ci_high"])
    forest.attrs["provenance"] = {**table.attrs.get("provenance", {}),
                                  "n_games": int(shown["n"].max())}
    return difference_plot(forest, "label", value="effect",
                           xlabel="effect on the owner's win rate, pp",
                           what=f"Card effects by intervention, {level} play (largest {top})")


def synergy_figure(synergy: pd.DataFrame, level: str):
    """The pairwise synergies of :func:`coalitions` as a heat map, in pp."""
    from .plots import heatmap

    metric = synergy.attrs["provenance"]["metric"]
    return heatmap(synergy.assign(synergy=100 * synergy["synergy"]), "a", "b", "synergy",
                   fmt="{:+.1f}", cmap="RdBu_r", center=0.0, rotation=30,
                   what=f"Pairwise synergy on {metric}, pp ({level} play)")


def strongest_level(table: pd.DataFrame, names: Sequence[str]) -> str:
    """The strongest level of play (the last) at which some card moves something: a level at
    which nobody ever wins (Parthian Shot's selfish trained seats) has nothing to split."""
    for name in reversed(names):
        part = table[(table["level"] == name) & (table["status"] == "ok")]
        if (part["effect"].abs() > 0).any():
            return name
    return names[-1]


def _seats_text(strategies) -> str:
    if isinstance(strategies, str):
        return f"every seat {strategies}"
    return " + ".join(map(str, strategies))
