"""Leduc poker rule variant (rule ids LP-1..LP-7: games/leduc/RULES.md).

The game is OpenSpiel's ``leduc_poker`` with two players and its default parameters; ``ante``,
the two raise sizes and the raise cap let a designer resize it.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.errors import RulesError
from sim.variant import Tunable, Variant, option
from . import layout as L

LIMITS = {"ante": (1, 10), "small_raise": (1, 20), "big_raise": (1, 20),
          "max_raises": (1, L.MAX_RAISES_LIMIT)}


@dataclass(frozen=True)
class LeducRules(Variant):
    ante: int = option(1, "chips each seat puts in before the deal (1 to 10)", "LP-2",
                       tune=Tunable(1, 10))
    small_raise: int = option(2, "chips a raise adds in round 1 (1 to 20)", "LP-4",
                              tune=Tunable(1, 20))
    big_raise: int = option(4, "chips a raise adds in round 2 (1 to 20)", "LP-4",
                            tune=Tunable(1, 20))
    max_raises: int = option(2, f"raises allowed per betting round (1 to {L.MAX_RAISES_LIMIT})",
                             "LP-3", tune=Tunable(1, L.MAX_RAISES_LIMIT))
    deal: str | None = option(None, "deal these three cards, e.g. 'Ks,Jh,Qs': seat 0's, seat "
                              "1's, then the public card (scripted and golden games); default: "
                              "shuffled", "LP-1")

    def __post_init__(self):
        for name, (low, high) in LIMITS.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
                    or not low <= value <= high:
                raise RulesError(f"option {name}={value!r} must be an integer from {low} to "
                                 f"{high}")
        if self.deal is not None:
            self.dealt_cards()

    def dealt_cards(self) -> list[int]:
        """The ``deal`` option's three cards as card numbers (layout.CARD_NAMES)."""
        names = [c.strip() for c in str(self.deal).split(",")]
        known = {name.upper(): card for card, name in enumerate(L.CARD_NAMES)}
        cards = [known.get(name.upper()) for name in names]
        if len(cards) != 3 or None in cards or len(set(cards)) != 3:
            raise RulesError(f"deal={self.deal!r} must be three different cards of "
                             f"{', '.join(L.CARD_NAMES)}: seat 0's, seat 1's and the public "
                             "card, e.g. 'Ks,Jh,Qs' (LP-1)")
        return cards

    @property
    def n_seats(self) -> int:
        return 2

    def kernel_args(self) -> tuple:
        rules = np.zeros(L.N_RULES, np.int64)
        rules[L.R.ANTE] = self.ante
        rules[L.R.RAISE1], rules[L.R.RAISE2] = self.small_raise, self.big_raise
        rules[L.R.MAX_RAISES] = self.max_raises
        if self.deal is not None:
            rules[L.R.FIXED_DEAL] = 1
            rules[L.R.CARD0], rules[L.R.CARD1], rules[L.R.PUBLIC] = self.dealt_cards()
        return (rules,)
