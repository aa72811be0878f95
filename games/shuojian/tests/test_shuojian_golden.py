"""A golden game: a stored scripted duel whose outcome was worked out by hand from the rules.

golden/*.json holds the rule options (fixed deck, swordsmen, first player), each seat's scripted
(decision, action) steps (games.shuojian.strategies.script), the hand-written reasoning ("why") and
the expected record and full event list. The replay must match exactly.
golden/regenerate.py rewrites "expected" only when run by hand.
"""
import json

import pytest
from golden_games import assert_replays_exactly, golden_files

from games.shuojian import layout as L
from games.shuojian.strategies import script

GOLDEN = golden_files("shuojian")


def seats(game: dict):
    return [script(*map(tuple, steps)) for steps in game["scripts_by_seat"]]


def test_there_is_a_golden_game():
    assert GOLDEN


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_game_replays_exactly(path):
    assert_replays_exactly(path, seats)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_game_exercises_the_finishing_blows(path):
    """SJ-7 passes, SJ-8 Slash, SJ-11 a wrong Counter-kill, SJ-9 a dodge into facing, SJ-10 the
    extra draw, SJ-12 a Thrust that cannot be countered and wins."""
    events = json.loads(path.read_text())["expected"]["events"]
    kinds = {e[0] for e in events}
    assert {L.EV.PASS, L.EV.TAKE, L.EV.FOLLOW, L.EV.COUNTER, L.EV.DODGE, L.EV.HIT} <= kinds
    assert any(e[0] == L.EV.DRAW and e[4] == L.WHY.EXTRA for e in events)
    assert events[-1][0] == L.EV.END and events[-1][3] == L.END.THRUST
