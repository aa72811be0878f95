"""Golden games: stored scripted games whose outcome was worked out by hand from the rules.

Each golden/*.json holds the rule options (a fixed prize order), every seat's bids per turn
(card values; the last card is automatic, GS-6), the hand-written reasoning ("why") and the
expected record fields and full event list. golden/regenerate.py rewrites "expected" only when
run by hand.
"""
import json

import pytest
from golden_games import assert_replays_exactly, golden_files

from games.goofspiel import layout as L
from games.goofspiel.strategies import script

GOLDEN = golden_files("goofspiel")


def seats(game: dict):
    return [script(bids) for bids in game["bids_by_seat"]]


def test_there_is_a_golden_game():
    assert GOLDEN


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_game_replays_exactly(path):
    assert_replays_exactly(path, seats)


def test_the_golden_games_exercise_ties_draws_and_shared_wins():
    """GS-4 a discarded prize, GS-7 a draw and a shared win appear among the golden games."""
    ends, tied = set(), False
    for path in GOLDEN:
        expected = json.loads(path.read_text())["expected"]
        ends.add(expected["record"]["end_reason"])
        tied |= any(e[0] == L.EV.TURN and e[2] == -1 for e in expected["events"])
    assert tied and {"draw", "shared"} <= ends
