"""Property-based fuzzing (issue 11, item 3) of every registered game's options, of strategy
lists, of the run arguments and of the CLI.

Any input gives either a valid run whose invariants hold, or a clear error: a
``sim.errors.BalanceError`` from the API, a non-zero CLI exit with no traceback. Nothing may
crash inside compiled code (a crash would take the test process down). The option values are
generated from each rules dataclass's fields (type hints, choices, defaults), so a game
registered later is fuzzed without touching this file.

Cases per run (fixed, ``derandomize=True`` so CI is reproducible): ``API_EXAMPLES`` per game for
the options x strategies x run arguments, ``CLI_EXAMPLES`` for the command line; with the 5
games registered today that is 5 x 60 + 80 = 380 cases. Each plays at most 24 games.
"""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from cli.main import main
from sim.conformance import MAX_GAMES, check_fuzz, mostly, option_dicts
from sim.games import game_names, get_game

API_EXAMPLES = int(os.environ.get("BALANCE_FUZZ_EXAMPLES", 60))   # per game; docs/scaling.md
CLI_EXAMPLES = 80
FUZZ = dict(deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                       HealthCheck.filter_too_much, HealthCheck.data_too_large])

# The generators and the per-game check live in sim/conformance.py, so that a plugin game's
# tests fuzz it the same way.


# A hang must fail (issue 21). Warm, a game's cases take about 1 s; cold, the game's kernels
# compile first (Sunzi 240 s, Samurai 94 s, the others 30-50 s on the busy 2-core machine).
@pytest.mark.timeout(600)
@pytest.mark.parametrize("game", game_names())
def test_any_options_and_strategies_give_a_valid_run_or_a_clear_error(game):
    check_fuzz(game, API_EXAMPLES)


@st.composite
def command_lines(draw) -> list[str]:
    """`balance simulate ...` with mostly well-formed and some malformed arguments."""
    game = draw(st.one_of(st.sampled_from(game_names()), st.just("chess")))
    argv = ["simulate", game]
    if game != "chess":
        spec = get_game(game)
        for name, value in draw(option_dicts(spec)).items():
            text = ",".join(map(str, value)) if isinstance(value, tuple) else str(value)
            argv += ["-o", draw(mostly(st.just(f"{name}={text}"),
                                       st.sampled_from([f"{name}{text}", f"{name}="])))]
        seats = spec.rules_class().n_seats
        for _ in range(draw(mostly(st.sampled_from([0, 1, seats]), st.integers(2, 8)))):
            argv += ["-s", draw(mostly(st.sampled_from(list(spec.strategies)),
                                       st.sampled_from(["x.py:f", "nope", ""]), 25))]
    numbers = mostly(st.integers(1, MAX_GAMES).map(str), st.sampled_from(["0", "-3", "1e3", "x", ""]))
    flags = {"--games": numbers, "--seed": mostly(st.integers(0, 2**63).map(str), numbers),
             "--jobs": mostly(st.just("1"), st.sampled_from(["0", "-7", "two"])),
             "--chunk-size": numbers, "--players": st.sampled_from(["2", "3", "4", "5", "8", "-1", "p"])}
    chosen = mostly(st.sampled_from(["--games", "--seed", "--jobs", "--chunk-size"]),
                    st.just("--players"))
    for flag in draw(st.lists(chosen, unique=True, max_size=3)):
        argv += [flag, draw(flags[flag])]
    if "--games" not in argv:
        argv += ["--games", "8"]   # never the default 100,000 games here
    argv += draw(st.lists(mostly(st.sampled_from(["--stream", "--rotate-seats"]),
                                 st.sampled_from(["--bogus", "extra"])), unique=True, max_size=2))
    return [*argv, "--no-progress"]


# 6 s warm; run first on a cold cache it compiles every game's kernels (about 450 s in all)
@pytest.mark.timeout(900)
@settings(max_examples=CLI_EXAMPLES, **FUZZ)
@given(argv=command_lines())
def test_any_command_line_runs_or_exits_non_zero_without_a_traceback(argv, capsys):
    capsys.readouterr()
    try:
        status = main(argv)
    except SystemExit as exit_:   # argparse: usage and a message on stderr
        status = exit_.code
    out, err = capsys.readouterr()
    event(f"exit status {status}")
    assert "Traceback" not in out + err
    if status == 0:
        assert "Win rate per seat" in out
    else:
        assert status not in (None, 0) and err.strip(), (argv, err)
