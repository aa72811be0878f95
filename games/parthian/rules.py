"""Parthian Shot rule variant (rules brief: shared/rules/parthian_shot.md, PS-1..PS-16, OP-1..OP-5).

Legion strengths (OP-1) are not published. The shipped default (data/legions_default.csv) was
chosen so that each legion is a fair fight at random play: for N players the seven strengths are
the 1/8, 2/8, ..., 7/8 quantiles of the total of N uniformly random shooting cards (1..6).
Merging strengths shared by several player counts onto one card gives 17 cards; the printed
game has 19, so the two strengths shared by 4-6 players (16 and 18) are printed twice. Which
counts share a card never changes a game; only the 7 strengths of the current count matter.
OP-5 (PS-13/14 and a damage return in the same round: cards return once) is not an option:
every reading leaves the same state, which games/parthian/tests/test_rules.py checks.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.datafile import read_packaged, read_table
from sim.errors import RulesError
from sim.variant import Tunable, Variant, option, parse_int_tuple
from . import layout as L

PLAYER_COUNTS = (3, 4, 5, 6)
MAX_STRENGTH = 999
MARK_COLUMNS = {n: f"p{n}" for n in PLAYER_COUNTS}


@dataclass(frozen=True)
class ParthianRules(Variant):
    n_players: int = option(4, "number of players, 3 to 6", "PS-1")
    legions: tuple[int, ...] | None = option(
        None, "7 legion strengths for this player count (overrides the legion table)", "PS-2, OP-1",
        parse=parse_int_tuple, tune=Tunable(0, 99, span=10, per=("n_players",)))
    legion_table: str | None = option(
        None, "CSV or .xlsx of legion cards: strength,p3,p4,p5,p6 (1 = used at that count); "
        "default: the shipped 19-card set", "OP-1")
    legion_offset: int = option(0, "added to every legion strength (for strength sweeps)", "OP-1",
                                tune=Tunable(-20, 20, span=6))
    charge_threshold: int = option(9, "a charge needs the shots in front to sum to more than this",
                                   "PS-4", tune=Tunable(0, 99, span=6))
    charges: int = option(2, "charge cards per player", "PS-1", tune=Tunable(0, 9))
    merit_ties: str = option("third", "who gets a merit after ties: 'third' = stop at the third "
                             "distinct value (as written), 'any' = any lower unique value", "OP-2",
                             choices=("third", "any"))
    charger_spares_all: bool = option(True, "a charger on a breakthrough spares everyone from damage "
                                      "(as written); false = only the chargers are spared", "PS-10, OP-3")
    final_ties: str = option("share", "ties left after every tie-break: 'share' the win (1/k each) "
                             "or 'nobody' wins", "OP-4", choices=("share", "nobody"))
    deck_order: tuple[int, ...] | None = option(
        None, "deal the legions in this order instead of shuffling (scripted and golden games)",
        "PS-2", parse=parse_int_tuple)

    def __post_init__(self):
        for name in ("legions", "deck_order"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, tuple):
                object.__setattr__(self, name, tuple(value))
        _require_int("n_players", self.n_players)
        if self.n_players not in PLAYER_COUNTS:
            raise RulesError(f"n_players={self.n_players!r} is not allowed; Parthian Shot is for "
                             "3 to 6 players (PS-1)")
        for name in ("legion_offset", "charge_threshold", "charges"):
            _require_int(name, getattr(self, name))
        # Bounds keep every record value inside its int16 column and every loop short.
        if not 0 <= self.charges <= 9:
            raise RulesError(f"charges={self.charges} must be between 0 and 9")
        if not 0 <= self.charge_threshold <= 99:
            raise RulesError(f"charge_threshold={self.charge_threshold} must be between 0 and 99")
        self.check_choices()
        strengths = self.strengths()  # validates the table or the given strengths
        if self.deck_order is not None and sorted(self.deck_order) != sorted(strengths):
            raise RulesError(f"deck_order={self.deck_order} must be an ordering of this game's "
                             f"legion strengths {sorted(strengths)}")

    @property
    def n_seats(self) -> int:
        return self.n_players

    def strengths(self) -> tuple[int, ...]:
        """The 7 legion strengths of this game (before shuffling), offset applied."""
        if self.legions is not None:
            base = self.legions
            if len(base) != L.N_LEGIONS:
                raise RulesError(f"legions={base} must have exactly 7 strengths (PS-2), got {len(base)}")
            for value in base:
                _require_int("legions", value)
        else:
            base = legion_table(self.legion_table)[self.n_players]
        strengths = tuple(int(v) + self.legion_offset for v in base)
        if min(strengths) < 0 or max(strengths) > MAX_STRENGTH:
            raise RulesError(f"legion strengths {strengths} (offset {self.legion_offset}) must lie "
                             f"between 0 and {MAX_STRENGTH}")
        return strengths

    def tunable_value(self, name: str):
        if name == "legions":  # the 7 strengths before the offset, from the table if not given
            return self.legions if self.legions is not None else \
                legion_table(self.legion_table)[self.n_players]
        return super().tunable_value(name)

    @classmethod
    def tuned_file(cls, variants) -> tuple[str, str]:
        """A legion table (OP-1) holding each variant's strengths at its player count, before
        the offset (a tuned legion_offset stays an option); counts without a variant keep the
        strengths of the first variant's table."""
        table = dict(legion_table(variants[0].legion_table))
        for variant in variants:
            table[variant.n_players] = tuple(sorted(variant.tunable_value("legions")))
        return "legion_table", legion_table_csv(table)

    def kernel_args(self) -> tuple:
        rules = np.zeros(L.N_RULES, np.int64)
        rules[L.R.PLAYERS] = self.n_players
        rules[L.R.THRESHOLD] = self.charge_threshold
        rules[L.R.CHARGES] = self.charges
        rules[L.R.MERIT_DEPTH] = 3 if self.merit_ties == "third" else L.MAX_PLAYERS
        rules[L.R.CHARGER_SHIELDS] = int(self.charger_spares_all)
        rules[L.R.SHARE_TIES] = int(self.final_ties == "share")
        rules[L.R.FIXED_DECK] = int(self.deck_order is not None)
        deck = np.array(self.deck_order if self.deck_order is not None else self.strengths(), np.int64)
        return rules, deck

    def to_dict(self, options_only: bool = False) -> dict:
        d = super().to_dict()
        if not options_only:
            d["legion_strengths"] = sorted(self.strengths())
        return d


def _require_int(name, value):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise RulesError(f"option {name}={value!r} must be an integer")


def legion_table(path: str | None = None) -> dict[int, tuple[int, ...]]:
    """Read a legion card table: {player count: its 7 strengths}. None = the shipped default.
    Any form sim.datafile reads: CSV (comma, semicolon or tab; UTF-8/UTF-16) or .xlsx[#Sheet]."""
    needed = ["strength", *MARK_COLUMNS.values()]
    hint = f"a legion table needs the columns {', '.join(needed)}"
    if path is None:
        table = read_packaged("games.parthian", "legions_default.csv", "legion table", needed,
                              hint=hint)
    else:
        table = read_table(path, "legion_table", needed, hint=hint)
    source = table.label
    by_count: dict[int, list[int]] = {n: [] for n in PLAYER_COUNTS}
    for line, row in table:
        try:
            strength = int(row["strength"])
            marks = {n: int(row[MARK_COLUMNS[n]]) for n in PLAYER_COUNTS}
        except (TypeError, ValueError):
            raise RulesError(f"{source}, line {line}: strength and marks must be integers, got {row}") from None
        if strength < 0 or any(m not in (0, 1) for m in marks.values()):
            raise RulesError(f"{source}, line {line}: strength must be >= 0 and marks 0 or 1, got {row}")
        for n, mark in marks.items():
            if mark:
                by_count[n].append(strength)
    for n, strengths in by_count.items():
        if len(strengths) != L.N_LEGIONS:
            raise RulesError(f"{source}: {len(strengths)} cards are marked for {n} players; "
                             f"each player count needs exactly 7 (PS-2)")
    return {n: tuple(sorted(s)) for n, s in by_count.items()}


def legion_table_csv(strengths: dict[int, tuple[int, ...]]) -> str:
    """A legion table (the format :func:`legion_table` reads) with as few cards as possible:
    a strength used k times at some player count is printed max k times, each copy marked for
    the counts that need it."""
    lines = ["strength," + ",".join(MARK_COLUMNS[n] for n in PLAYER_COUNTS)]
    for strength in sorted({v for values in strengths.values() for v in values}):
        need = {n: list(strengths.get(n, ())).count(strength) for n in PLAYER_COUNTS}
        for copy in range(max(need.values())):
            lines.append(f"{strength}," + ",".join(str(int(need[n] > copy)) for n in PLAYER_COUNTS))
    return "\n".join(lines) + "\n"
