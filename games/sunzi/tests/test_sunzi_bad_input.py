"""Bad rule options raise RulesError naming the value and what is allowed."""
import pytest

from sim.errors import RulesError, StrategyError
from sim.runner import simulate
from games.sunzi.rules import SunziRules


@pytest.mark.parametrize("options, message", [
    ({"mode": "expert"}, r"mode='expert' is not allowed; choose one of 'basic', 'advanced'"),
    ({"leader_white": "e"}, r"leader_white='e' is not allowed; choose one of 'a', 'b', 'c', 'd', 'strategy'"),
    ({"leader_black": "Sun Wu"}, r"leader_black='Sun Wu' is not allowed"),
    ({"track_length": 0}, r"track_length=0 is not allowed: .* at least 1"),
    ({"track_length": -3}, r"track_length=-3 is not allowed"),
    ({"track_length": 2.5}, r"track_length=2.5 must be an integer"),
    ({"armies": -1}, r"armies=-1 must be between 0 and 999"),
    ({"tiles": ((1, 2),)}, r"tiles: \(1, 2\) is not a scoring tile; each tile is three integers"),
    ({"tiles": ((1, 2, "x"),) * 5}, r"tiles: \(1, 2, 'x'\) is not a scoring tile"),
    ({"tiles": ((1, 2, -4),) * 5}, r"tiles: \(1, 2, -4\) is not a scoring tile"),
    ({"tiles": ((1, 2, 3),) * 4}, r"tiles: 4 tile\(s\) for 5 regions"),
    ({"adjacency": ((0, 0),)}, r"adjacency edge 0-0 joins region 'Xinjiang' to itself"),
    ({"adjacency": ((0, 7),)}, r"adjacency edge \(0, 7\): 7 is not a region; use an index 0..4"),
    ({"adjacency": (("Xinjiang", "Beijing"),)}, r"'Beijing' is not a region"),
    ({"adjacency": ((0, 1, 2),)}, r"adjacency edge \(0, 1, 2\) must be a pair of regions"),
    ({"regions": ()}, r"regions=\(\) must be 1 to 6 distinct names"),
    ({"regions": tuple("ABCDEFG")}, r"must be 1 to 6 distinct names"),
    ({"regions": ("A", "A")}, r"must be 1 to 6 distinct names"),
    ({"deck_white": ("7", "8")}, r"deck_white=\('7', '8'\) must be an ordering of this mode's deck: 7, 8, 9"),
    ({"tile_order": (0, 0, 1, 2, 3)}, r"tile_order=\(0, 0, 1, 2, 3\) must give each of the 5 regions"),
    ({"plague_rounding": "down"}, r"plague_rounding='down' is not allowed; choose one of 'seed', 'ruling'"),
])
def test_bad_options_name_the_value(options, message):
    with pytest.raises(RulesError, match=message):
        SunziRules(**options)


@pytest.mark.parametrize("options, message", [
    ({"mode": "expert"}, r"mode='expert' is not allowed"),
    ({"tiles": "1-2-4,1-3"}, r"tiles: \(1, 3\) is not a scoring tile"),
    ({"tiles": "1-2-x"}, r"option tiles='1-2-x' is not valid: scoring tiles like '1-2-4,1-3-5'"),
    ({"adjacency": "0-1,2"}, r"option adjacency='0-1,2' is not valid: adjacent region pairs like '0-1,1-2'"),
    ({"track_length": "0"}, r"track_length=0 is not allowed"),
    ({"track_length": "far"}, r"option track_length='far' is not valid"),
    ({"colour": "red"}, r"unknown option 'colour' for SunziRules"),
])
def test_bad_options_from_text(options, message):
    """Options as the CLI and TOML give them (strings)."""
    with pytest.raises(RulesError, match=message):
        SunziRules.from_options(options)


def test_options_from_text_are_parsed():
    rules = SunziRules.from_options({"mode": "advanced", "warlord": "yes", "leader_white": "c",
                                     "adjacency": "Xinjiang-Tibet,1-2", "tiles": "1-2-3,2-3-4,3-4-5,4-5-6,5-6-7",
                                     "regions": "Xinjiang,Tibet,Qinghai,Mongolia,Mandarin",
                                     "track_length": "5", "armies": "none"})
    assert rules.adjacency_masks()[:3] == [0b10, 0b101, 0b10] and rules.start_armies() == 18
    assert rules == SunziRules.from_options(rules.to_dict(options_only=True))


def test_unknown_strategy_is_a_clear_error():
    with pytest.raises(StrategyError, match="unknown strategy 'smart' for Sunzi / Dynasties; built-ins: random"):
        simulate("sunzi", None, "smart", 10)
