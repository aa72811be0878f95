"""`balance mcp` under a hostile or careless client (issue 59): every numeric argument checked
against its range before any work, errors raised in the worker thread with their cause, files
outside the game's shipped data refused, cancelled calls that stop, and long calls that keep no
per-game records. Tools are called through the server object (``MCPServer.call_tool``: the
SDK's own validation, then the tool), cancelled through the calling task."""
from __future__ import annotations

import gc
import json
import math
import time

import anyio
import pandas as pd
import pytest

from cli.mcp_server import RANGES, Cancelled, build_server
from sim.errors import RunError


def tool_error(tool: str, arguments: dict) -> dict:
    """The structured error of a call that must fail: {"argument", "message"}."""
    from mcp.server.mcpserver.exceptions import ToolError

    async def main():
        with pytest.raises(ToolError) as raised:
            await build_server().call_tool(tool, arguments)
        return str(raised.value)

    text = anyio.run(main)
    assert "{" in text, text
    return json.loads(text[text.index("{"):])["error"]


def tool_answer(tool: str, arguments: dict) -> dict:
    async def main():
        result = await build_server().call_tool(tool, arguments)
        assert not result.is_error, result.content[0].text
        return json.loads(result.content[0].text)

    return anyio.run(main)


# --- ranges and types --------------------------------------------------------------------------

BASE = {"simulate": {"game": "goofspiel"},
        "compare": {"game": "goofspiel", "b": {"num_cards": 8}},
        "cards": {"game": "goofspiel"},
        "tune": {"game": "goofspiel", "goals": ["first_seat_advantage=0"], "vary": ["num_cards"]},
        "exploit": {"game": "kuhn"},
        "list_options": {"game": "goofspiel"}}

NUMERIC = {"simulate": ["players", "precision_pp", "max_games", "seed"],
           "compare": ["players", "delta_pp", "max_games", "seed"],
           "cards": ["players", "precision_pp", "max_games", "seed"],
           "tune": ["players", "trials", "search_games", "tolerance", "precision_pp",
                    "max_games", "seed"],
           "exploit": ["players", "generations", "games", "check_games", "seed"],
           "list_options": ["players"]}


def bounds(tool, name):
    return RANGES.get(f"{tool}.{name}", RANGES.get(name))


def out_of_range(tool, name):
    kind, low, high, _ = bounds(tool, name)
    step = 1 if kind == "integer" else low / 2
    return [low - step, high + step]


CASES = [(tool, name, value) for tool, names in NUMERIC.items() for name in names
         for value in out_of_range(tool, name)]


@pytest.mark.parametrize("tool, name, value", CASES)
def test_an_out_of_range_number_names_its_argument_and_range(tool, name, value):
    error = tool_error(tool, {**BASE[tool], name: value})
    assert error["argument"] == name
    kind, low, high, _ = bounds(tool, name)
    assert error["message"].startswith(f"{name} must be ")
    assert f"{low:,}" in error["message"] or f"{low:g}" in error["message"]


@pytest.mark.parametrize("value", [True, False, math.nan, math.inf, -math.inf, "1000", [1000],
                                   1000.5])
@pytest.mark.parametrize("tool, name", [("simulate", "max_games"), ("simulate", "precision_pp"),
                                        ("exploit", "generations"), ("tune", "tolerance")])
def test_a_bool_nan_infinity_or_string_is_no_number(tool, name, value):
    if name in ("precision_pp", "tolerance") and value == 1000.5:
        value = math.nan    # a fraction is a number there
    error = tool_error(tool, {**BASE[tool], name: value})
    assert error["argument"] == name and error["message"].startswith(f"{name} must be ")


@pytest.mark.parametrize("tool, name, value", [
    ("tune", "goals", "victory=0.4"), ("tune", "vary", "num_cards"), ("tune", "goals", []),
    ("simulate", "levels", 3), ("simulate", "options", ["num_cards", 8]),
    ("simulate", "options", {"num_cards": math.nan}), ("compare", "b", "num_cards=8"),
    ("compare", "a", {"num_cards": {"nested": 1}}), ("simulate", "game", 7),
    ("exploit", "field", ["heuristic"])])
def test_a_string_list_or_object_of_the_wrong_kind_is_refused(tool, name, value):
    error = tool_error(tool, {**BASE[tool], name: value})
    assert error["argument"] == name


def test_max_games_one_is_blamed_on_max_games_not_precision():
    for tool in ("simulate", "cards", "tune"):
        error = tool_error(tool, {**BASE[tool], "max_games": 1})
        assert error["argument"] == "max_games" and "1,000" in error["message"]
    error = tool_error("compare", {**BASE["compare"], "max_games": 1})
    assert error["argument"] == "max_games"


def test_every_numeric_argument_of_every_tool_has_a_range_in_its_schema():
    async def main():
        return await build_server().list_tools()

    for listed in anyio.run(main):
        for name, schema in listed.input_schema["properties"].items():
            if schema.get("type") in ("integer", "number") or \
                    set(schema.get("type") or []) & {"integer", "number"}:
                assert "minimum" in schema and "maximum" in schema, (listed.name, name)
                assert f"{name}:" in listed.description, (listed.name, name)


# --- errors raised in the worker ---------------------------------------------------------------

def test_a_toolkit_error_in_the_worker_arrives_with_its_cause(monkeypatch):
    import analysis.workbench.precision as P

    def refuses(*args, **kwargs):
        raise RunError("the kernel refused these seats: seat 2 has no legal action")

    monkeypatch.setattr(P, "simulate_precise", refuses)
    error = tool_error("simulate", {"game": "goofspiel", "max_games": 1000})
    assert error == {"argument": "levels",
                     "message": "the kernel refused these seats: seat 2 has no legal action"}


def test_a_worker_error_with_a_field_names_that_argument(monkeypatch):
    import analysis.workbench.precision as P
    from sim.confine import ConfinedError

    def refuses(*args, **kwargs):
        raise ConfinedError("seed: too large for this kernel", "seed")

    monkeypatch.setattr(P, "simulate_precise", refuses)
    assert tool_error("simulate", {"game": "goofspiel"})["argument"] == "seed"


def test_an_unexpected_worker_error_is_an_internal_error_with_its_type(monkeypatch):
    import analysis.workbench.precision as P

    def crashes(*args, **kwargs):
        raise ZeroDivisionError("division by zero in the fold")

    monkeypatch.setattr(P, "simulate_precise", crashes)
    error = tool_error("simulate", {"game": "goofspiel"})
    assert error == {"argument": None,
                     "message": "internal error: ZeroDivisionError: division by zero in the fold"}


# --- confinement ---------------------------------------------------------------------------------

SECRET = "s3cret-first-line,do-not-echo"


@pytest.fixture
def secret_file(tmp_path):
    path = tmp_path / "legions.csv"
    path.write_text(f"{SECRET}\n1,2,3\n")
    return path


@pytest.mark.parametrize("where", ["/etc/passwd", "tmp"])
def test_an_option_naming_a_file_outside_the_game_is_refused_unread(where, secret_file):
    path = str(secret_file) if where == "tmp" else where
    error = tool_error("simulate", {"game": "parthian", "options": {"legion_table": path}})
    assert error["argument"] == "options"
    assert "legion_table" in error["message"] and "shipped" in error["message"]
    assert SECRET not in error["message"] and "root:" not in error["message"]


@pytest.mark.parametrize("strategy", ["strong:{path}", "trained:{path}", "{path}.py:agent"])
def test_compare_refuses_strategies_that_name_files(strategy, secret_file):
    text = strategy.format(path=secret_file if "py:" not in strategy else "/tmp/mine")
    error = tool_error("compare", {"game": "goofspiel", "b": {"strategies": text}})
    assert error["argument"] == "b" and SECRET not in error["message"]
    if "py:" not in strategy:
        assert error["message"].startswith("strategies: a request may name only")


def test_the_game_s_shipped_data_still_reads_inside_the_confinement():
    data = tool_answer("list_options", {"game": "parthian"})
    assert data["game"] == "parthian"
    error = tool_error("simulate", {"game": "parthian", "levels": "heuristic",
                                    "options": {"legion_table": "/nonexistent/legions.csv"}})
    assert "no such file" not in error["message"]     # refused before it looked


# --- cards: rows without evidence --------------------------------------------------------------

def test_cards_say_identical_games_and_too_few_games_instead_of_an_interval(monkeypatch):
    import analysis.interventions as I

    def table(spec, rules, level, **kwargs):
        rows = [{"card": "13", "intervention": "remove", "status": "ok", "n": 1000,
                 "effect": 0.0, "ci_low": math.nan, "ci_high": math.nan, "q": math.nan,
                 "significant": False},
                {"card": "12", "intervention": "remove", "status": "ok", "n": 12,
                 "effect": 0.1, "ci_low": 0.01, "ci_high": 0.19, "q": 0.01,
                 "significant": True},
                {"card": "11", "intervention": "remove", "status": "ok", "n": 4000,
                 "effect": 0.03, "ci_low": 0.02, "ci_high": 0.04, "q": 0.001,
                 "significant": True}]
        out = pd.DataFrame(rows)
        out.attrs["provenance"] = {"strategies": {}, "games_played": 5012, "fdr": "BH"}
        return out

    monkeypatch.setattr(I, "interventions", table)
    rows = {r["card"]: r for r in tool_answer("cards", {"game": "goofspiel",
                                                         "precision_pp": 2})["cards"]}
    assert rows["13"]["status"] == "identical games" and not rows["13"]["significant"]
    assert rows["13"]["effect"]["ci_low"] is None and "half_width_pp" not in rows["13"]["effect"]
    assert rows["12"]["status"] == "too few games" and not rows["12"]["significant"]
    assert rows["12"]["q"] is None and rows["12"]["effect"]["ci_high"] is None
    assert rows["11"]["status"] == "decided" and rows["11"]["significant"]


# --- cancellation --------------------------------------------------------------------------------

def cancel_while_playing(monkeypatch, tool, arguments, entry, modules):
    """Start ``tool``, wait until it plays games (past Numba's first compile), cancel the calling
    task; return (seconds the cancel waited, how the work ended). ``entry``: (module, name) of
    the analysis function the tool runs in its worker; ``modules``: where it calls simulate."""
    import importlib

    played, state = [0], {}
    for name in modules:
        module = importlib.import_module(name)
        original_simulate = module.simulate

        def counting(*args, _original=original_simulate, **kwargs):
            out = _original(*args, **kwargs)
            played[0] += 1
            return out

        monkeypatch.setattr(module, "simulate", counting)
    module = importlib.import_module(entry[0])
    original = getattr(module, entry[1])

    def watched(*args, **kwargs):
        try:
            return original(*args, **kwargs)
        except BaseException as error:
            state["error"] = type(error)
            raise
        finally:
            state.setdefault("ended", time.monotonic())

    monkeypatch.setattr(module, entry[1], watched)

    async def main():
        server = build_server()
        async with anyio.create_task_group() as group:
            group.start_soon(server.call_tool, tool, arguments)
            with anyio.fail_after(900):          # the first compile may take minutes
                while played[0] < 3:
                    await anyio.sleep(0.02)
            began = time.monotonic()
            group.cancel_scope.cancel()
        return began, time.monotonic()

    began, returned = anyio.run(main)
    assert "ended" in state, "the worker thread was still running when the cancel returned"
    return returned - began, state.get("error")


def stopped(error) -> bool:
    from analysis.workbench.precision import Stopped
    return error is not None and issubclass(error, (Stopped, Cancelled))


@pytest.mark.timeout(1200)
def test_a_cancelled_simulate_stops_within_a_piece(monkeypatch):
    waited, error = cancel_while_playing(
        monkeypatch, "simulate", {"game": "kuhn", "precision_pp": 0.05, "max_games": 10 ** 8},
        ("analysis.workbench.precision", "simulate_precise"), ["analysis.workbench.precision"])
    assert stopped(error) and waited < 20


@pytest.mark.timeout(1200)
def test_a_cancelled_compare_stops_within_a_piece(monkeypatch):
    """A late step of the sequential test may be minutes of play: it is played in pieces."""
    waited, error = cancel_while_playing(
        monkeypatch, "compare", {"game": "parthian", "players": 4, "b": {"legions[0]": 12},
                                 "delta_pp": 0.05, "max_games": 10 ** 6},
        ("analysis.workbench", "compare"), ["analysis.workbench.precision"])
    assert stopped(error) and waited < 20


@pytest.mark.timeout(1200)
def test_a_cancelled_tune_stops_between_pieces_of_its_trials(monkeypatch):
    waited, error = cancel_while_playing(
        monkeypatch, "tune", {"game": "parthian", "players": 4, "goals": ["victory=0.5"],
                              "vary": ["legion_offset=-4..2"], "trials": 500,
                              "search_games": 100_000},
        ("analysis.workbench", "tune"), ["analysis.workbench.precision"])
    assert stopped(error) and waited < 20


@pytest.mark.timeout(1200)
def test_a_cancelled_exploit_stops_between_tables(monkeypatch):
    waited, error = cancel_while_playing(
        monkeypatch, "exploit", {"game": "parthian", "players": 3, "field": "heuristic",
                                 "generations": 200, "games": 100_000},
        ("analysis.training", "exploit"), ["analysis.training", "analysis.workbench.precision"])
    assert stopped(error) and waited < 20


@pytest.mark.timeout(1200)
def test_a_cancelled_cards_stops_between_pieces(monkeypatch):
    waited, error = cancel_while_playing(
        monkeypatch, "cards", {"game": "parthian", "level": "heuristic", "precision_pp": 0.05,
                               "max_games": 100_000},
        ("analysis.interventions", "interventions"),
        ["analysis.workbench.precision", "analysis.interventions"])
    assert stopped(error) and waited < 20


# --- memory --------------------------------------------------------------------------------------

@pytest.mark.timeout(600)
def test_a_long_simulate_keeps_no_per_game_records(tracked_records):
    """Goofspiel declares a per-game metric (draw), so every piece is played with its records:
    each is folded into sums and let go before the next is played."""
    alive, most = tracked_records
    data = tool_answer("simulate", {"game": "goofspiel", "precision_pp": 0.1,
                                    "max_games": 60_000})
    gc.collect()
    assert len(alive) > 3 and most[0] == 0
    assert not any(ref() is not None for ref in alive)
    assert data["provenance"]["n_games"] == 60_000 and "draw" in data["metrics"]
