"""Goofspiel: the standard research game of simultaneous bids for a prize deck (rule ids GS-n:
docs/goofspiel.md), calibrated against OpenSpiel's ``goofspiel`` (tests/goofspiel)."""
