"""Bad input: each raises RulesError naming the value (API) and exits 2 without a traceback (CLI)."""
import subprocess
import sys

import pytest

from cli.main import main
from sim.errors import RulesError
from games.samurai.rules import SamuraiRules


@pytest.mark.parametrize("options, message", [
    ({"n_players": 2}, r"n_players=2 is not allowed; Samurai Sword is for 3 to 7 players"),
    ({"n_players": 8}, r"n_players=8 is not allowed"),
    ({"card_counts": (("parry", -2),)}, r"card count of Parry is -2; counts must be 0 or more"),
    ({"card_counts": (("laser", 2),)}, r"card_counts: unknown card 'laser'"),
    ({"weapon_stats": (("katana", "0/3"),)}, r"weapon Katana has difficulty 0 and damage 3"),
    ({"weapon_stats": (("bo", "2/-1"),)}, r"weapon Bo has difficulty 2 and damage -1"),
    ({"weapon_stats": (("parry", "1/1"),)}, r"'parry' is not a weapon"),
    ({"weapon_stats": (("bo", "2"),)}, r"write difficulty/damage"),
    ({"characters": ("kojiro",) * 5}, r"a character can sit at one seat only"),
    ({"characters": ("zorro", "random", "random", "random", "random")}, r"unknown character 'zorro'"),
    ({"exclude_characters": ("benkei", "chiyome", "ginchiyo", "goemon", "hanzo", "hideyoshi",
                             "ieyasu", "kojiro")}, r"5 seats draw a character at random but only 4"),
    ({"turn_cap": 0}, r"turn_cap=0 must be between 1 and 30000"),
    ({"roles": ("shogun", "shogun", "ninja1", "ninja2", "ronin")}, r"need 1 shogun"),
    ({"swordmaster": "stamina"}, r"swordmaster='stamina' is not allowed"),
])
def test_bad_options_name_the_value(options, message):
    with pytest.raises(RulesError, match=message):
        SamuraiRules(**options)


def test_bad_card_table_files(tmp_path):
    path = tmp_path / "cards.csv"
    path.write_text("card,kind,count,difficulty,damage\nLaser,weapon,2,1,1\n")
    with pytest.raises(RulesError, match=r"line 2: unknown card 'Laser'"):
        SamuraiRules(card_table=str(path))
    path.write_text("card,kind,count,difficulty,damage\nBokken,weapon,-1,1,1\n")
    with pytest.raises(RulesError, match=r"lacks the card\(s\) Bo"):
        SamuraiRules(card_table=str(path))
    with pytest.raises(RulesError, match=r"no such file"):
        SamuraiRules(card_table=str(tmp_path / "none.csv"))


@pytest.mark.parametrize("argv, fragment", [
    (["simulate", "samurai", "--players", "8", "--games", "10"], "n_players=8 is not allowed"),
    (["simulate", "samurai", "-o", "card_counts=parry=-1", "--games", "10"], "counts must be 0 or more"),
    (["simulate", "samurai", "-o", "card_counts=laser=1", "--games", "10"], "unknown card 'laser'"),
    (["simulate", "samurai", "-o", "weapon_stats=katana=0/9", "--games", "10"], "weapon Katana"),
])
def test_cli_bad_input_exits_2_without_traceback(argv, fragment, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert fragment in err and "Traceback" not in err


def test_cli_process_exit_code():
    done = subprocess.run([sys.executable, "-m", "cli.main", "simulate", "samurai", "--players", "2"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "Traceback" not in done.stderr


def test_deck_counts_need_all_25_values():
    """OP-2: the workbench's vector of card counts must cover every card type."""
    with pytest.raises(RulesError, match=r"deck_counts has 3 values; it needs 25"):
        SamuraiRules(deck_counts=(1, 2, 3))


def test_card_data_are_tunable_knobs():
    """OP-2 / SS-10: card counts and weapon stats are the workbench's knobs."""
    rules = SamuraiRules()
    knobs = rules.tunables()
    cards = [k for k in knobs if k.startswith(("deck_counts", "weapon_"))]
    assert len(cards) == 25 + 13 + 13 and knobs["deck_counts[parry]"].value == 15
    tuned = rules.with_knobs({"deck_counts[parry]": 10, "weapon_damage[katana]": 4})
    assert tuned.card_matrix()[13, 0] == 10 and tuned.card_matrix()[11, 2] == 4


def test_resilience_honour_and_multipliers_are_knobs_named_by_character_and_role():
    """SS-3 resilience per character, SS-2 starting honour and SS-19 score multipliers per role,
    at this player count: knobs only for what this count deals and for printed characters."""
    five = SamuraiRules(n_players=5)
    knobs = five.tunables()
    assert knobs["resilience_values[benkei]"].value == five.resilience()[0]
    assert "resilience_values[plain4]" not in knobs
    assert knobs["role_honour[ninja]"].value == five.role_rows()["ninja"]["honour"]
    tuned = five.with_knobs({"role_honour[ninja]": 6, "role_multiplier[ronin]": 3,
                             "resilience_values[kojiro]": 7})
    assert tuned.role_rows()["ninja"]["honour"] == 6 and tuned.role_rows()["ronin"]["multiplier"] == 3
    assert tuned.resilience()[7] == 7 and tuned.kernel_args() is not None
    four = SamuraiRules(n_players=4)   # SS-1: four players deal no Ronin
    assert "role_honour[ronin]" not in four.tunables() and "role_honour[samurai]" in four.tunables()
    with pytest.raises(RulesError, match="needs 4"):
        SamuraiRules(role_honour=(5, 5))
