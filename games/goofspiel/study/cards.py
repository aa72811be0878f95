"""Goofspiel's cards for the interventional card table (analysis/interventions.py).

GS-1: every hand and the prize deck hold the cards 1..N. The one change the rules express per
card is to take the top card N out of the game (every hand and the prize deck: ``num_cards``
N -> N-1, GS-1), so that is the table's one row, read on ``draw`` (the share of games that end
level, the study's declared metric: 1..13 make 91 points, which tie only when tied turns
discard some; 1..12 make 78, which split 39-39). Goofspiel is a calibration
game (games/goofspiel/RULES.md); its table shows the machinery on a game whose cards are numbers.
"""
from __future__ import annotations

from analysis.interventions import REMOVE, Card
from games.goofspiel import layout as L


def cards(rules) -> list[Card]:
    """The top card, where the game still has a smaller one to play."""
    n = rules.num_cards
    if n <= L.MIN_CARDS:
        return []
    return [Card(f"card {n} (the top card)", "bid and prize card", {REMOVE: {"num_cards": n - 1}},
                 owner="draw", value=float(n))]
