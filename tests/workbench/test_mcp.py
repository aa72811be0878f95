"""`balance mcp` in-process, through the official SDK's own client (mcp.Client on the server
object: the in-memory transport), as an assistant would call it."""
from __future__ import annotations

import json

import anyio
import pytest

from cli.mcp_server import build_server

TOOLS = {"list_games", "list_options", "list_strategies", "list_metrics", "simulate", "compare",
         "cards", "tune", "exploit"}


def call(*calls):
    """Run (tool, arguments) calls on one connection; [(result, progress notifications)]."""
    from mcp import Client

    async def session():
        out = []
        async with Client(build_server()) as client:
            listed = await client.list_tools()
            out.append(listed)
            for name, arguments in calls:
                progress = []

                async def note(done, total, message):
                    progress.append((done, total, message))

                result = await client.call_tool(name, arguments, progress_callback=note)
                out.append((result, progress))
        return out

    return anyio.run(session)


def answer(result) -> dict:
    assert not result.is_error, result.content[0].text
    return json.loads(result.content[0].text)


def structured_error(result) -> dict:
    assert result.is_error
    text = result.content[0].text
    return json.loads(text[text.index("{"):])["error"]


@pytest.mark.timeout(300)
def test_lists_the_tools_and_answers_compare_with_an_interval():
    listed, (compared, progress), (games, _), (options, _) = call(
        ("compare", {"game": "goofspiel", "b": {"num_cards": 8}, "delta_pp": 2,
                     "max_games": 100_000}),
        ("list_games", {}),
        ("list_options", {"game": "goofspiel"}))
    assert TOOLS <= {tool.name for tool in listed.tools}
    data = answer(compared)
    d = data["difference_b_minus_a"]
    assert d["ci_low"] < d["estimate"] < d["ci_high"] and d["half_width_pp"] > 0
    assert data["status"] == "decided" and data["verdict"]
    assert data["levels"] == ["random", "random"]
    p = data["provenance"]
    assert p["game"] == "goofspiel" and p["variant_b"]["num_cards"] == 8
    assert p["variant_a"]["num_cards"] == 13 and p["seed"] == 0 and p["version"]
    assert p["strategies"] == ["random", "random"] and p["n_games"] == data["games_per_side"]
    assert progress and progress[-1][0] == data["games_per_side"]     # games, reported
    assert "goofspiel" in [g["name"] for g in answer(games)["games"]]
    assert "num_cards" in [o["name"] for o in answer(options)["options"]]


@pytest.mark.timeout(300)
def test_an_answer_short_of_its_precision_is_undecided():
    _, (compared, _), (simulated, _) = call(
        ("compare", {"game": "goofspiel", "b": {"num_cards": 12}, "delta_pp": 0.5,
                     "max_games": 400}),
        ("simulate", {"game": "kuhn", "precision_pp": 0.2, "max_games": 2_000}))
    data = answer(compared)
    assert data["status"] == "undecided" and data["verdict"] is None
    assert data["games_per_side"] <= 400
    sim = answer(simulated)
    assert sim["status"] == "undecided" and "0.2 pp not reached" in sim["why"]
    assert sim["metrics"]["win_0"]["ci_low"] < sim["metrics"]["win_0"]["estimate"]
    assert sim["provenance"]["n_games"] == 2_000


@pytest.mark.parametrize("tool, arguments, argument, text", [
    ("compare", {"game": "goofspiel", "b": {"num_cardz": 8}}, "b", "num_cardz"),
    ("compare", {"game": "goofspiel", "b": {"num_cards": 8}, "metric": "speed"}, "metric",
     "unknown metric 'speed'"),
    ("compare", {"game": "goofspiel", "b": {"num_cards": 8}, "delta_pp": -1}, "delta_pp",
     "delta_pp must be a number from 0.05 to 100"),
    ("simulate", {"game": "goofspiel", "players": 9}, "players", "players=9 is not allowed"),
    ("simulate", {"game": "goofspiel", "levels": "grandmaster"}, "levels", "grandmaster"),
    ("simulate", {"game": "goofspiel", "levels": "/tmp/mine.py:agent"}, "levels",
     "unknown level '/tmp/mine.py:agent'"),
    ("exploit", {"game": "kuhn", "field": "wizard"}, "field", "unknown field 'wizard'"),
    ("simulate", {"game": "chess"}, "game", "unknown game 'chess'"),
    ("simulate", {"game": "goofspiel", "options": {"num_turns": 20}}, "options", "GS-6"),
    ("cards", {"game": "goofspiel", "level": "wizard"}, "level", "unknown level 'wizard'"),
    ("tune", {"game": "goofspiel", "goals": ["first_seat_advantage=0"], "vary": ["colour"]},
     "vary", "colour"),
])
def test_a_bad_argument_is_a_structured_error_naming_it(tool, arguments, argument, text):
    _, (result, _) = call((tool, arguments))
    error = structured_error(result)
    assert error["argument"] == argument
    assert text in error["message"] and "\n" not in error["message"]


def test_a_mistyped_argument_is_refused_by_the_schema_naming_it():
    _, (result, _) = call(("simulate", {"game": "goofspiel", "players": "four"}))
    assert result.is_error and "players" in result.content[0].text


def test_a_cancelled_call_stops_its_batches():
    """The client going away cancels the tool's task; the worker thread stops at its next
    step instead of playing on to its budget."""
    import time

    from cli.mcp_server import Progress, _run

    progress, steps = Progress(), []

    def work():
        for n in range(1000):
            progress.step(n, 1000)      # raises once the call is cancelled
            steps.append(n)
            time.sleep(0.01)
        return "finished"

    async def cancelled_soon():
        with anyio.move_on_after(0.3):
            await _run(None, work, progress)

    began = time.monotonic()
    anyio.run(cancelled_soon)
    assert progress.cancelled.is_set() and 0 < len(steps) < 100
    assert time.monotonic() - began < 5         # not the 10 s the whole work would take
