"""Golden games: stored scripted games whose outcome was worked out by hand from the rules.

Each golden/*.json holds the rule options, the deck order, every seat's actions per round, the
hand-written reasoning ("why") and the expected record fields and full event list. The replay
must match exactly. golden/regenerate.py rewrites "expected" only when run by hand.
"""
import json
from pathlib import Path

import pytest

from sim.parthian import layout as L
from sim.runner import play_one
from strategies.parthian import script

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def replay(game: dict):
    seats = [script(actions) for actions in game["actions_by_seat"]]
    record, events, _ = play_one(game["game"], game["rules"], seats)
    return record, [[int(x) for x in row] for row in events]


def test_there_is_a_golden_game():
    assert GOLDEN


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_game_replays_exactly(path):
    game = json.loads(path.read_text())
    record, events = replay(game)
    expected = game["expected"]
    assert {k: record[k] for k in expected["record"]} == expected["record"]
    assert events == expected["events"]


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_game_exercises_the_main_rules(path):
    """Merits, a quarrel, a breakthrough with damage, a charge and a camel resupply."""
    events = json.loads(path.read_text())["expected"]["events"]
    plays = {}
    for event, rnd, player, a, b, c in events:
        if event == L.EV_PLAY:
            plays.setdefault(rnd, {})[player] = b
    merits = [(rnd, c) for event, rnd, _, _, _, c in events if event == L.EV_DEFEATED and c >= 0]
    tied_top = {rnd: list(v.values()).count(max(v.values())) > 1 for rnd, v in plays.items()}
    quarrels = [rnd for event, rnd, *_ in events if event == L.EV_DEFEATED and tied_top[rnd]]
    assert merits and quarrels
    assert any(e[0] == L.EV_DAMAGE and e[3] >= 0 for e in events)
    assert any(e[0] == L.EV_PLAY and e[3] == L.CHARGE for e in events)
    assert any(e[0] == L.EV_RESUPPLY and e[3] == 14 for e in events)
