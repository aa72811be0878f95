"""Golden games: stored scripted games whose outcome was worked out by hand from the rules.

Each golden/*.json holds the rule options, the deck order, every seat's actions per round, the
hand-written reasoning ("why") and the expected record fields and full event list. The replay
must match exactly. golden/regenerate.py rewrites "expected" only when run by hand.
"""
import json

import pytest
from golden_games import assert_replays_exactly, golden_files

from games.parthian import layout as L
from games.parthian.strategies import script

GOLDEN = golden_files("parthian")


def seats(game: dict):
    return [script(actions) for actions in game["actions_by_seat"]]


def test_there_is_a_golden_game():
    assert GOLDEN


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_game_replays_exactly(path):
    assert_replays_exactly(path, seats)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_game_exercises_the_main_rules(path):
    """Merits, a quarrel, a breakthrough with damage, a charge and a camel resupply."""
    events = json.loads(path.read_text())["expected"]["events"]
    plays = {}
    for event, rnd, player, a, b, c in events:
        if event == L.EV.PLAY:
            plays.setdefault(rnd, {})[player] = b
    merits = [(rnd, c) for event, rnd, _, _, _, c in events if event == L.EV.DEFEATED and c >= 0]
    tied_top = {rnd: list(v.values()).count(max(v.values())) > 1 for rnd, v in plays.items()}
    quarrels = [rnd for event, rnd, *_ in events if event == L.EV.DEFEATED and tied_top[rnd]]
    assert merits and quarrels
    assert any(e[0] == L.EV.DAMAGE and e[3] >= 0 for e in events)
    assert any(e[0] == L.EV.PLAY and e[3] == L.CHARGE for e in events)
    assert any(e[0] == L.EV.RESUPPLY and e[3] == 14 for e in events)
