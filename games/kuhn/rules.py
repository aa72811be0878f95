"""Kuhn poker rule variant (rule ids KP-1..KP-5: games/kuhn/RULES.md).

The game is OpenSpiel's ``kuhn_poker`` with two players; ``ante`` and ``bet`` let a designer
resize the stakes (1 and 1 in the original).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.errors import RulesError
from sim.variant import Tunable, Variant, option
from . import layout as L


@dataclass(frozen=True)
class KuhnRules(Variant):
    ante: int = option(1, "chips each seat puts in before the deal (1 to 10)", "KP-2",
                       tune=Tunable(1, 10))
    bet: int = option(1, "chips a bet or a call adds (1 to 10)", "KP-3", tune=Tunable(1, 10))
    deal: str | None = option(None, "deal these two cards, e.g. 'K,J' (seat 0 first; scripted "
                              "and golden games); default: shuffled", "KP-1")

    def __post_init__(self):
        for name in ("ante", "bet"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) \
                    or not 1 <= value <= 10:
                raise RulesError(f"option {name}={value!r} must be an integer from 1 to 10")
        if self.deal is not None:
            cards = [c.strip().upper() for c in str(self.deal).split(",")]
            if len(cards) != 2 or not set(cards) <= set(L.CARD_NAMES) or cards[0] == cards[1]:
                raise RulesError(f"deal={self.deal!r} must be two different cards of "
                                 f"{', '.join(L.CARD_NAMES)}, e.g. 'K,J' (KP-1)")

    @property
    def n_seats(self) -> int:
        return 2

    def kernel_args(self) -> tuple:
        rules = np.zeros(L.N_RULES, np.int64)
        rules[L.R.ANTE], rules[L.R.BET] = self.ante, self.bet
        if self.deal is not None:
            cards = [L.CARD_NAMES.index(c.strip().upper()) for c in self.deal.split(",")]
            rules[L.R.FIXED_DEAL] = 1
            rules[L.R.CARD0], rules[L.R.CARD1] = cards
        return (rules,)
