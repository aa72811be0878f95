"""A golden game: a stored scripted game whose outcome was worked out by hand from the rules.

golden/*.json holds the rule options (fixed tiles and decks), each side's scripted (decision,
action) pairs (sunzi_script.py explains how a script answers), the hand-written reasoning
("why") and the expected record and full event list. The replay must match exactly.
golden/regenerate.py rewrites "expected" only when run by hand.
"""
import json

import pytest
from golden_games import assert_replays_exactly, golden_files

from games.sunzi import layout as L
from games.sunzi.strategies import script

GOLDEN = golden_files("sunzi")


def seats(game: dict):
    return [script(*map(tuple, pairs)) for pairs in game["scripts_by_seat"]]


def test_there_is_a_golden_game():
    assert GOLDEN


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_game_replays_exactly(path):
    assert_replays_exactly(path, seats)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_game_exercises_the_main_rules(path):
    """A purchase, a special-card battle with costs, a Plague, a 6 marker, a chosen reveal
    order, a split, shortage moves, a tied region at scoring and a red-zone win."""
    events = json.loads(path.read_text())["expected"]["events"]
    kinds = {e[0] for e in events}
    assert {L.EV.BUY, L.EV.COST, L.EV.PLAGUE, L.EV.MARKER, L.EV.MOVE, L.EV.SCORE} <= kinds
    assert any(e[0] == L.EV.DECIDER and e[2] >= 0 for e in events)
    assert any(e[0] == L.EV.SPLIT and e[4] > 0 and e[5] > 0 for e in events)
    assert events[-1][0] == L.EV.END and events[-1][3] == L.END.RED_ZONE
