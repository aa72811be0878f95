"""Kuhn poker: the smallest poker (3 cards, 2 players; rule ids KP-n: games/kuhn/RULES.md), a
calibration game beside Goofspiel: its random-play outcomes agree with OpenSpiel's
``kuhn_poker`` and its value under Nash play, -1/18 for the first player, is reproduced by
simulation (games/kuhn/tests)."""
