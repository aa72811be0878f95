"""Goofspiel: the standard research game of simultaneous bids for a prize deck (rule ids GS-n:
games/goofspiel/RULES.md), calibrated against OpenSpiel's ``goofspiel`` (games/goofspiel/tests)."""
