"""One request (issue 60): the game, its options and its player count are parsed and checked once
(sim.request), and every front end builds the same rules from the same words."""
import argparse

import pytest

from sim.request import RequestError, parse, request


def test_the_player_count_has_one_spelling_whatever_the_game_calls_it():
    assert request("goofspiel", players=3).rules.players == 3        # its option is "players"
    assert request("parthian", players=5).rules.n_players == 5       # its option is "n_players"
    assert request("parthian", {"players": "6"}).players == 6        # the one spelling, as text
    assert request("sunzi", players=2).players == 2                  # a fixed count, stated


def test_an_openspiel_game_string_reads_the_same():
    assert parse("goofspiel(players=3,num_cards=6)").rules == \
        request("goofspiel", {"num_cards": "6"}, 3).rules
    assert parse(" sunzi ").rules == request("sunzi").rules


@pytest.mark.parametrize("game, options, players, field, words", [
    ("nosuchgame", None, None, "game", "unknown game"),
    ("sunzi", None, 3, "players", r"fixed number of players \(2\)"),
    ("parthian", None, 9, "players", "n_players"),
    ("parthian", None, "many", "players", "whole number"),
    ("parthian", {"n_players": "4"}, 5, "players", "disagree"),
    ("parthian", {"players": "4"}, 5, "players", "twice"),
    ("parthian", {"charges": "x"}, None, "options", "charges"),
    ("parthian", {"no_such_option": "1"}, None, "options", "no_such_option"),
])
def test_a_bad_request_names_the_part_to_correct(game, options, players, field, words):
    with pytest.raises(RequestError, match=words) as caught:
        request(game, options, players)
    assert caught.value.field == field


def test_a_bad_game_string_is_refused():
    with pytest.raises(RequestError, match="KEY=VALUE"):
        parse("goofspiel(players)")
    with pytest.raises(RequestError, match="is not GAME"):
        parse("goofspiel players=3")


def test_every_front_end_builds_the_same_rules(tmp_path):
    """The command line, the explore page, a TOML study and the MCP server, from the same
    game, player count and option."""
    from analysis import study_file
    from analysis.explore import base_rules
    from cli.mcp_server import _rules
    from cli.requests import game_request
    from sim.games import get_game

    wanted = request("parthian", {"charges": "3"}, 5).rules
    args = argparse.Namespace(game="parthian", option=["charges=3"], players=5, strategy=[])
    assert game_request(args)[1] == wanted
    spec = get_game("parthian")
    assert base_rules(spec, 5).replace(charges=3) == wanted
    assert _rules(spec, 5, {"charges": 3}) == wanted
    path = tmp_path / "study.toml"
    path.write_text('game = "parthian"\nplayers = 5\n[options]\ncharges = 3\n\n'
                    '[[section]]\nkind = "summary"\ngames = 100\n')
    assert study_file.read(path).rules == wanted
