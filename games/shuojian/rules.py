"""Shuo Jian rule variant (rules brief: shared/rules/shuo_jian.md, SJ-1..SJ-14, OP-1..OP-16).

Every open point is an option below with the brief's default reading. The number cards and their
conditions come from a condition table (OP-1, OP-2; games/shuojian/conditions.py); the
finishing-blow cards are counted by options. games/shuojian/RULES.md explains each default.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from sim.errors import RulesError
from sim.variant import Tunable, Variant, option
from . import conditions as C
from . import layout as L

SPECIAL_OPTIONS = ("dodge_left", "dodge_right", "slashes", "thrusts", "counter_kills")


def parse_labels(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in str(text).split(",") if part.strip())


@dataclass(frozen=True)
class ShuoJianRules(Variant):
    conditions: object = option(
        "default", "condition table (OP-2; its rows are the number cards, OP-1): default, any, "
        "harsh, random, random:SEED, a condition name for every card (odd, prime, ...), or a CSV "
        "file with columns action,value,condition (one row per card copy)", "OP-1, OP-2, SJ-6")
    dodge_left: int = option(3, "Dodge left cards", "OP-1, SJ-9", tune=Tunable(0, 12))
    dodge_right: int = option(3, "Dodge right cards", "OP-1, SJ-9", tune=Tunable(0, 12))
    slashes: int = option(6, "Slash cards", "OP-1, SJ-8", tune=Tunable(0, 20))
    thrusts: int = option(1, "Thrust cards", "OP-1, SJ-12", tune=Tunable(0, 6))
    counter_kills: int = option(1, "Counter-kill cards", "OP-1, SJ-11", tune=Tunable(0, 6))
    first_player: str = option("random", "who attacks first: random (SJ-3), or seat0 / seat1 "
                               "(scripted games, seat-advantage studies)", "SJ-3",
                               choices=("random", "seat0", "seat1"))
    pair_conditions: str = option("both", "a two-card play binds its reply with the conditions "
                                  "of both cards (a 0 carries none), or only the tens card's",
                                  "OP-3, SJ-6", choices=("both", "tens"))
    pair_order: str = option("either", "two non-zero cards may be ordered either way (3 and 5 "
                             "make 35 or 53), or only high_first (53)", "OP-4, SJ-4",
                             choices=("either", "high_first"))
    mat_start: str = option("right", "where the swordsmen start in their owners' rows: both on "
                            "their own right (diagonal), both on their left (diagonal), or "
                            "facing (seat 0 right, seat 1 left)", "OP-5, SJ-1",
                            choices=("right", "left", "facing"))
    swordsmen: tuple | None = option(None, "the two swordsmen as card labels, e.g. 'V5,H7' "
                                     "(scripted games); default: drawn at random from the number "
                                     "cards before the deal", "OP-6, SJ-1", parse=parse_labels)
    wrong_counter: str = option("lost", "a wrong Counter-kill card is lost, or kept (back to "
                                "hand); the passer must still dodge either way", "OP-7, SJ-11",
                                choices=("lost", "kept"))
    tie: str = option("draw", "equal hand sizes when the deck runs out: a draw (half a win each) "
                      "or nobody wins", "OP-8, SJ-14", choices=("draw", "nobody"))
    max_turns: int = option(2000, "safety cap on plays and passes (the deck bounds every game "
                            "far below it; a capped game is reported as unfinished)", "OP-9")
    extra_draw: str = option("extra", "SJ-10's 'draw 1 more': one card on top of the SJ-3 draw "
                             "(extra), or it is the SJ-3 draw itself (same)", "OP-10, SJ-10",
                             choices=("extra", "same"))
    draws: str = option("every_play", "when players draw (SJ-3): before every play of number "
                        "cards, only before each player's first play of an exchange "
                        "(first_play), or both players as an exchange starts (exchange_start)",
                        "OP-11, SJ-3, SJ-5", choices=("every_play", "first_play", "exchange_start"))
    deck_out: str = option("empty_draw", "the game ends when a draw finds the deck empty, or as "
                           "soon as the last card is drawn (last_card)", "OP-12, SJ-14",
                           choices=("empty_draw", "last_card"))
    voluntary_pass: bool = option(False, "a player may pass even with a legal reply", "OP-13, SJ-7")
    exchange: str = option("until_pass", "replies alternate until a pass, or one_reply: one "
                           "reply, then the table leaves play and the replier attacks",
                           "OP-14, SJ-7", choices=("until_pass", "one_reply"))
    see_own: bool = option(True, "a player may look at their own swordsman", "OP-15, SJ-1")
    no_lead: str = option("pass", "an attacker with no legal lead passes the attack to the "
                          "opponent, or draws until it has one (each draw as SJ-3)",
                          "OP-16, SJ-4", choices=("pass", "draw"))
    opening_zeros: bool = option(True, "0s count as number cards for SJ-2's opening-hand check",
                                 "OP-16, SJ-2")
    deck_order: tuple | None = option(None, "cards on top of the deck in draw order, e.g. "
                                      "'V3,H5:prime,SL' (label[:condition]); the rest follow "
                                      "in table order, unshuffled; seat 0 is dealt the first 7, "
                                      "seat 1 the next 7 (scripted games)", "SJ-2",
                                      parse=parse_labels)

    def __post_init__(self):
        for name in ("swordsmen", "deck_order"):
            value = getattr(self, name)
            if isinstance(value, list):
                object.__setattr__(self, name, tuple(value))
        if isinstance(self.conditions, list):
            object.__setattr__(self, "conditions", tuple(
                tuple(r) if isinstance(r, list) else r for r in self.conditions))
        self.check_choices()
        for name in (*SPECIAL_OPTIONS, "max_turns"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
                raise RulesError(f"option {name}={value!r} must be an integer")
        for name in SPECIAL_OPTIONS:
            if not 0 <= getattr(self, name) <= 20:
                raise RulesError(f"{name}={getattr(self, name)} must be between 0 and 20")
        if not 1 <= self.max_turns <= 30000:
            raise RulesError(f"max_turns={self.max_turns} must be between 1 and 30000")
        for name in ("voluntary_pass", "see_own", "opening_zeros"):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"option {name}={getattr(self, name)!r} must be true or false")
        self.compiled  # validates the table, the deck and the scripted cards

    @property
    def n_seats(self) -> int:
        return 2

    @cached_property
    def compiled(self) -> dict:
        """The condition table turned into card types, deck and condition masks (validated)."""
        rows = C.table_rows(self.conditions)
        conds = C.distinct_conditions(rows)
        index = {masks: k for k, (_, masks) in enumerate(conds)}
        counts: dict[tuple[int, int, int], int] = {}
        for action, value, cond in rows:
            key = (action, value, -1 if action == L.ACT.ZERO else index[cond.mask()])
            counts[key] = counts.get(key, 0) + 1
        number_types = sorted(counts)  # straight, sweep, zero; by value; by condition id
        if L.FIRST_NUMBER + len(number_types) > L.MAX_TYPES:
            raise RulesError(f"the condition table has {len(number_types)} different number cards "
                             f"(action, value, condition); at most {L.MAX_TYPES - L.FIRST_NUMBER}")
        specials = [getattr(self, name) for name in SPECIAL_OPTIONS]
        n_cards = len(rows) + sum(specials)
        if n_cards > L.MAX_CARDS:
            raise RulesError(f"the deck has {n_cards} cards; at most {L.MAX_CARDS}")
        n_numbers = len(rows)
        if n_numbers < 6 or n_cards < 2 + 2 * L.HAND_SIZE + 1:
            raise RulesError(f"the deck has {n_numbers} number cards and {n_cards} cards in all; "
                             "two swordsmen, two opening hands of 7 with 2 number cards each "
                             "and a draw need at least 6 number cards and 17 cards")
        if not self.opening_zeros and sum(1 for r in rows if r[0] != L.ACT.ZERO) < 6:
            raise RulesError("opening_zeros=false needs at least 6 non-zero number cards")
        types = np.zeros((L.MAX_TYPES, L.TYPE_FIELDS), np.int64)
        types[:L.FIRST_NUMBER, L.TY.ACTION] = -1
        types[:L.FIRST_NUMBER, L.TY.VALUE] = -1
        types[:L.FIRST_NUMBER, L.TY.COND] = L.NO_CONDITION
        types[:L.FIRST_NUMBER, L.TY.COPIES] = specials
        for i, key in enumerate(number_types):
            types[L.FIRST_NUMBER + i] = (*key, counts[key])
        n_types = L.FIRST_NUMBER + len(number_types)
        cmask = np.zeros((L.MAX_CONDITIONS, L.CONDITION_WORDS), np.int64)
        for k, (_, masks) in enumerate(conds):
            cmask[k] = masks
        labels = [L.SPECIAL_LABELS[t] for t in range(L.FIRST_NUMBER)]
        labels += [C.card_label(a, v) + ("" if c < 0 else f":{conds[c][0]}")
                   for a, v, c in number_types]
        canonical = [t for t in range(n_types) for _ in range(int(types[t, L.TY.COPIES]))]
        deck = self._scripted_deck(canonical, types, labels, n_types)
        swords = [-1, -1]
        if self.swordsmen is not None:
            if len(self.swordsmen) != 2:
                raise RulesError(f"swordsmen={self.swordsmen!r} must name two number cards")
            for seat, label in enumerate(self.swordsmen):
                t = self._type_of(label, types, labels, n_types)
                if t < L.FIRST_NUMBER:
                    raise RulesError(f"swordsmen: {label!r} is not a number card (SJ-1)")
                swords[seat] = t
        return {"types": types, "cmask": cmask, "deck": deck, "swords": swords,
                "n_types": n_types, "n_cards": n_cards, "labels": labels,
                "condition_names": [name for name, _ in conds], "rows": rows}

    def _type_of(self, label: str, types, labels, n_types, available=None) -> int:
        """The card type of a label like 'V8', 'V8:triangular', '0', 'SL': the first match
        (with a copy left in ``available`` when given)."""
        text = str(label).strip()
        name, _, cond = text.partition(":")
        name = name.strip().upper()
        cond_name = C.normalise(cond) if cond else None
        for t in range(n_types):
            base, _, tcond = labels[t].partition(":")
            if base == name and (cond_name is None or tcond == cond_name) and (
                    available is None or t in available):
                return t
        if available is not None and any(lab.partition(":")[0] == name for lab in labels):
            return self._type_of(label, types, labels, n_types)
        raise RulesError(f"card {label!r} is not in this deck; cards are "
                         f"{', '.join(sorted(set(labels), key=labels.index))}")

    def _scripted_deck(self, canonical, types, labels, n_types) -> list[int]:
        """deck_init for the kernel: scripted swordsmen first (the kernel takes each swordsman
        as the first copy of its type), then deck_order, then the rest in table order."""
        rest = list(canonical)
        front = []
        for label in (self.swordsmen or ()) + (self.deck_order or ()):
            t = self._type_of(label, types, labels, n_types, rest)
            if t not in rest:
                raise RulesError(f"swordsmen and deck_order use more copies of {labels[t]!r} "
                                 "than the deck holds")
            rest.remove(t)
            front.append(t)
        return front + rest

    def condition_names(self) -> list[str]:
        """Name of each condition id K (record columns faced_cK, passed_cK, played_cK)."""
        return list(self.compiled["condition_names"])

    def card_labels(self) -> list[str]:
        """Label of each card type id ('DL', 'V8:triangular', '0', ...)."""
        return list(self.compiled["labels"])

    def table_csv(self) -> str:
        """This variant's condition table as CSV (the format conditions=FILE reads)."""
        return C.to_csv(self.compiled["rows"])

    def kernel_args(self) -> tuple:
        t = self.compiled
        r = np.zeros(L.N_RULES, np.int64)
        r[L.R.N_TYPES] = t["n_types"]
        r[L.R.N_CARDS] = t["n_cards"]
        r[L.R.N_CONDITIONS] = len(t["condition_names"])
        r[L.R.FIRST] = {"random": -1, "seat0": 0, "seat1": 1}[self.first_player]
        r[L.R.FIXED_DECK] = int(self.deck_order is not None)
        r[L.R.FIXED_SWORDS] = int(self.swordsmen is not None)
        r[L.R.TENS_ONLY] = int(self.pair_conditions == "tens")
        r[L.R.HIGH_FIRST] = int(self.pair_order == "high_first")
        r[L.R.START] = {"right": L.START.RIGHT, "left": L.START.LEFT,
                        "facing": L.START.FACING}[self.mat_start]
        r[L.R.LITERAL_EXTRA] = int(self.extra_draw == "extra")
        r[L.R.DRAWS] = {"every_play": L.DRAW.EVERY_PLAY, "first_play": L.DRAW.FIRST_PLAY,
                        "exchange_start": L.DRAW.EXCHANGE_START}[self.draws]
        r[L.R.END_AT_LAST] = int(self.deck_out == "last_card")
        r[L.R.VOLUNTARY] = int(self.voluntary_pass)
        r[L.R.ONE_REPLY] = int(self.exchange == "one_reply")
        r[L.R.SEE_OWN] = int(self.see_own)
        r[L.R.TIE_NOBODY] = int(self.tie == "nobody")
        r[L.R.MAX_TURNS] = self.max_turns
        r[L.R.KEEP_WRONG_COUNTER] = int(self.wrong_counter == "kept")
        r[L.R.DRAW_FOR_LEAD] = int(self.no_lead == "draw")
        r[L.R.ZEROS_OPEN] = int(self.opening_zeros)
        deck = np.zeros(L.MAX_CARDS, np.int64)
        deck[:len(t["deck"])] = t["deck"]
        return r, t["types"], t["cmask"], deck, np.array(t["swords"], np.int64)

    def to_dict(self, options_only: bool = False) -> dict:
        d = super().to_dict()
        if not isinstance(self.conditions, str):  # rows or a mapping: the table itself, by name
            d["conditions"] = self.table_csv() if options_only is False else self.conditions
        if not options_only:
            d["condition_names"] = self.condition_names()
        return d

    def __hash__(self):
        return hash(tuple((f, repr(getattr(self, f))) for f in self.options()))

    def __eq__(self, other):
        return type(other) is type(self) and all(
            repr(getattr(self, f)) == repr(getattr(other, f)) for f in self.options())
