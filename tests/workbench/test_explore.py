"""The live loop behind `balance explore` and `balance mcp` (analysis/explore.py), for every game.

Every registered game gets a form from its declarations and a paired session of an edited
tunable against the default, with intervals, provenance, a study file that study_file's own
check accepts and a command line; the paired games are those `balance compare` plays.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from analysis import explore as X
from analysis.stats import paired_difference
from analysis.workbench.compare import make_side, metric_values
from sim.games import game_names
from sim.runner import simulate


def first_knob(form: dict) -> dict:
    return next(k for o in form["options"] if o["kind"] == "knobs" for k in o["knobs"])


def moved(knob: dict):
    up = knob["value"] + knob["step"]
    return knob["value"] - knob["step"] if up > knob["high"] else up


@pytest.mark.timeout(600)
@pytest.mark.parametrize("game", game_names())
def test_every_game_gets_a_form_a_paired_session_and_a_study_file(game):
    form = X.form(game)
    assert form["options"] and form["levels"][0] == "random"
    assert all(o["label"] for o in form["options"])            # the declared help is the label
    knob = first_knob(form)
    view = X.View(game, knobs={knob["name"]: moved(knob)}, max_games=240)
    snap = X.Session(view).run_until_done()
    assert snap["error"] is None and snap["games"] == 240
    names = [m["metric"] for m in snap["metrics"]]
    assert "first_seat_advantage" in names and "win_0" in names
    assert snap["headline"] in names
    for m in snap["metrics"]:
        for side in ("a", "b", "diff"):
            interval = m[side]
            assert interval["low"] is None or interval["low"] <= interval["mean"] + 1e-12
    assert snap["provenance"]["changes"] and snap["provenance"]["version"]
    X.check_study(X.study_toml(view))                           # study_file's own check
    assert X.command_line(view).startswith(f"balance compare {game} ")


def test_the_session_plays_the_paired_games_compare_plays():
    """Games 0..n-1 of the seed on both sides, seats rotated: the same paired difference as
    the workbench's own sides give."""
    view = X.View("goofspiel", knobs={"num_cards": 9}, max_games=1200, seed=3)
    snap = X.Session(view).run_until_done()
    spec = X.get_game("goofspiel")
    base = spec.rules_class()
    values = {}
    for label, change in (("A", {}), ("B", {"num_cards": "9"})):
        side = make_side(spec, base, ["random", "random"], label, change)
        records = simulate(spec, side.rules, side.strategies, 1200, 3, rotate_seats=True,
                           progress=False).records
        values[label] = metric_values(records, spec, side, "first_seat_advantage")
    expected = paired_difference(values["B"], values["A"])
    got = next(m for m in snap["metrics"] if m["metric"] == "first_seat_advantage")["diff"]
    assert got["mean"] == pytest.approx(expected["diff"])
    # the page's interval is anytime-valid: wider than the fixed-sample one at any one look
    assert got["low"] < expected["ci_low"] and got["high"] > expected["ci_high"]


def test_intervals_narrow_until_the_precision_then_stop():
    seen = []
    view = X.View("goofspiel", knobs={"num_cards": 8}, precision=2.0)
    snap = X.Session(view, on_step=seen.append).run_until_done()
    halves = [next(m for m in s["metrics"] if m["metric"] == "win_0")["diff"] for s in seen]
    widths = [(h["high"] - h["low"]) / 2 for h in halves]
    assert widths[-1] < widths[0] / 2
    assert snap["precision_reached"] and snap["done"] and not snap["running"]
    assert max(m["diff"]["high"] - m["diff"]["mean"] for m in snap["metrics"] if m["rate"]) \
        <= 0.02 + 1e-12
    assert snap["decided"] == ("Undecided" not in snap["verdict"])


def test_the_default_against_itself_has_no_difference():
    snap = X.Session(X.View("kuhn", max_games=600)).run_until_done()
    assert all(m["diff"]["mean"] == 0 for m in snap["metrics"])
    assert snap["verdict"].startswith("Default rules")


def test_levels_differ_per_seat_adds_each_levels_share():
    snap = X.Session(X.View("goofspiel", levels=["heuristic", "random"],
                            max_games=400)).run_until_done()
    names = [m["metric"] for m in snap["metrics"]]
    assert {"side_0", "side_1"} <= set(names)
    assert snap["provenance"]["strategies"][0] != snap["provenance"]["strategies"][1]


def test_stop_ends_the_background_thread():
    session = X.Session(X.View("goofspiel", knobs={"num_cards": 8}, precision=0.01,
                               max_games=10**7)).start()
    session.stop()
    session.thread.join(30)
    assert not session.running and session.snapshot()["games"] < 10**7


@pytest.mark.parametrize("view, field, text", [
    (X.View("goofspiel", players=9), "players", "players=9 is not allowed"),
    (X.View("goofspiel", options={"num_turns": "20"}), "num_turns", "GS-6"),
    (X.View("goofspiel", knobs={"num_cards": 99}), "num_cards", "must be between 1 and 30 (GS-1)"),
    (X.View("parthian", knobs={"legions[0]": 500}), "legions[0]", "outside its range 0..99"),
    (X.View("goofspiel", options={"no_such": "1"}), "no_such", "not a tunable"),
    (X.View("goofspiel", levels="grandmaster"), "levels", "unknown level 'grandmaster'"),
    (X.View("goofspiel", levels=["random"]), "levels", "one level per seat (2)"),
    (X.View("goofspiel", precision=0), "precision", "precision must be"),
    (X.View("kuhn", players=3), "players", "fixed number of players"),
    (X.View("chess"), "game", "unknown game 'chess'"),
])
def test_a_refused_value_names_its_input_with_the_rules_message(view, field, text):
    with pytest.raises(X.ExploreError) as refused:
        X.resolve(view)
    assert refused.value.field == field
    assert text in str(refused.value)
    assert "\n" not in str(refused.value)


def test_view_from_refuses_unknown_keys():
    with pytest.raises(X.ExploreError, match="unknown key 'colour'"):
        X.view_from({"colour": "red"}, "goofspiel")


@pytest.mark.parametrize("data, field, text", [
    ({"levels": 5}, "levels", "must be text"),
    ({"options": [1]}, "options", "must be an object"),
    ({"options": {"strategies": "heuristic"}}, "strategies", "use the view's own 'levels'"),
    ({"options": {"players": 3}}, "players", "use the view's own 'players'"),
    ({"options": {"no_such": "1"}}, "no_such", "not a rule option of Goofspiel"),
    ({"options": {"num_cards": "9\u0000"}}, "num_cards", "NUL"),
    ({"knobs": {"num_cards": "9"}}, "num_cards", "must be a finite number"),
    ({"knobs": {"num_cards": float("nan")}}, "num_cards", "must be a finite number"),
    ({"options": {"num_cards": 10**400}}, "num_cards", "up to 2^53"),
    ({"knobs": {"levels": 1}}, "levels", "use the view's own 'levels'"),
    ({"precision": "0.5"}, "precision", "must be a number"),
    ({"seed": True}, "seed", "must be an integer"),
    ({"players": 2.0}, "players", "whole number"),
])
def test_view_from_checks_every_type_and_names_the_field(data, field, text):
    """The page's and the assistants' requests: a wrong type is a one-line refusal naming its
    input, and an option with a field of its own (strategies, the player count) is never
    taken, so the command and study file name the experiment that plays."""
    with pytest.raises(X.ExploreError) as refused:
        X.view_from(data, "goofspiel")
    assert refused.value.field == field and text in str(refused.value)
    view = X.view_from({"options": {"num_cards": 9}, "knobs": {"num_cards": 8},
                        "levels": ["random", "heuristic"], "precision": 1}, "goofspiel")
    assert view.options == {"num_cards": 9} and view.levels == ["random", "heuristic"]


def test_data_file_options_come_with_their_shipped_table():
    """A data-file option is found by asking the rules which shipped file it accepts."""
    tables = X.data_options(X.get_game("parthian"))
    assert list(tables) == ["legion_table"]
    grid = X.read_grid(tables["legion_table"])
    assert [c.lower() for c in grid[0]] == ["strength", "p3", "p4", "p5", "p6"]
    assert X.data_options(X.get_game("goofspiel")) == {}


def test_sums_give_anytime_intervals_for_shares_and_marked_t_for_the_rest():
    sums = X.Sums()
    a = np.array([0, 1, 1, 0, 1, 1, 1, 0], float)
    b = np.array([1, 1, 1, 0, 1, 1, 1, 1], float)
    sums.add("win_0", a, b)
    sums.add("rounds_mean", a * 5, b * 5)
    share = sums.interval("win_0", "b")
    assert 0 <= share["low"] and share["high"] <= 1 and share["mean"] == 7 / 8
    assert sums.kind("win_0") == "anytime" and sums.kind("rounds_mean") == "fixed-sample"
    rounds = sums.interval("rounds_mean", "d")
    expected = paired_difference(b * 5, a * 5)
    assert rounds["low"] == pytest.approx(expected["ci_low"]) and not math.isnan(rounds["high"])


@pytest.mark.parametrize("command", [["explore"], ["mcp"]])
def test_help_explains(command, capsys):
    from cli.main import main

    with pytest.raises(SystemExit) as done:
        main([*command, "--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    assert "usage: balance" in text and "127.0.0.1" in text if command == ["explore"] else \
        "Model Context Protocol" in text


@pytest.mark.parametrize("argv, message", [
    (["explore", "goofspiel", "--players", "9", "--no-browser"], "players=9 is not allowed"),
    (["explore", "kuhn", "--players", "3", "--no-browser"], "fixed number of players"),
    (["explore", "goofspiel", "--port", "0", "--no-browser"], "--port must be 1 to 65535"),
])
def test_explore_refuses_bad_arguments_in_one_line_before_serving(argv, message, capsys):
    from cli.main import main

    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
