"""Leduc poker: a 6-card, two-round poker (2 players; rule ids LP-n: games/leduc/RULES.md), the
third calibration game beside Goofspiel and Kuhn poker: its rules and random-play outcomes agree
with OpenSpiel's ``leduc_poker``, and the exact exploitability (NashConv) of any policy it plays
is computed through OpenSpiel (games/leduc/study)."""
