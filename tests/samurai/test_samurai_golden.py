"""Golden games, one per player count: stored games replayed exactly (events and record).

Each golden/*.json holds the rule options, the strategy at every seat (built-ins with the
stored seed 0 of sim.runner.play_one: their random streams make the game a fixed script), the
checked reading of what happens ("why") and the expected record and full event list.
golden/regenerate.py rewrites "expected" only when run by hand after a deliberate rule change.
"""
import json

import pytest
from golden_games import assert_replays_exactly, golden_files

from sim.samurai import layout as L

GOLDEN = golden_files("samurai")


def seats(game: dict):
    return game["strategies"]


def test_there_is_a_golden_game_per_player_count():
    counts = sorted(json.loads(p.read_text())["rules"]["n_players"] for p in GOLDEN)
    assert counts == [3, 4, 5, 6, 7]


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_game_replays_exactly(path):
    assert_replays_exactly(path, seats)


def test_golden_games_exercise_the_main_rules():
    """Across the golden games: attacks parried and taken, defeats with honour changes,
    a reshuffle, Battle Cry or Jujutsu answers, and both kinds of ending."""
    seen, ends = set(), set()
    for path in GOLDEN:
        events = json.loads(path.read_text())["expected"]["events"]
        for e, _t, _s, a, b, c, d in events:
            seen.add(e)
            if e == L.EV_REACT:
                seen.add(("parry" if a == L.PARRY else "take" if a == L.TAKE else "other", b))
            if e == L.EV_END:
                ends.add(a)
    assert {L.EV_DEFEAT, L.EV_HONOUR, L.EV_RESHUFFLE, L.EV_WOUND, L.EV_PLAY} <= seen
    assert any(isinstance(x, tuple) and x[0] == "parry" for x in seen)
    assert any(isinstance(x, tuple) and x[1] in (L.BATTLE_CRY, L.JUJUTSU) for x in seen)
    assert L.END_HONOUR in ends
