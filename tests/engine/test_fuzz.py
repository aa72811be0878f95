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

import dataclasses
import os
import typing

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from cli.main import main
from sim.errors import BalanceError
from sim.games import game_names, get_game
from sim.runner import simulate

API_EXAMPLES = int(os.environ.get("BALANCE_FUZZ_EXAMPLES", 60))   # per game; docs/scaling.md
CLI_EXAMPLES = 80
MAX_GAMES = 24
FUZZ = dict(deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                       HealthCheck.filter_too_much, HealthCheck.data_too_large])

JUNK = st.one_of(st.text(max_size=6), st.integers(-10**6, 10**6), st.floats(allow_nan=True),
                 st.none(), st.booleans(), st.lists(st.integers(-3, 40), max_size=4).map(tuple))


def mostly(good: st.SearchStrategy, bad: st.SearchStrategy, one_in: int = 10) -> st.SearchStrategy:
    """``good``, and ``bad`` once in ``one_in``: enough valid cases to exercise the kernels."""
    return st.integers(1, one_in).flatmap(lambda i: bad if i == 1 else good)


def _base_type(hint):
    """int for ``int | None``, tuple for ``tuple[int, ...] | None``, the hint itself otherwise."""
    args = typing.get_args(hint)
    if type(None) in args:
        hint = next(a for a in args if a is not type(None))
    return typing.get_origin(hint) or hint


def option_values(cls, field: dataclasses.Field) -> st.SearchStrategy:
    """Plausible and implausible values of one option, from its type, choices and default."""
    hint = typing.get_type_hints(cls)[field.name]
    base, default = _base_type(hint), field.default
    choices = tuple(field.metadata.get("choices") or ())
    if choices:
        good = st.sampled_from(choices)
    elif base is bool:
        good = st.booleans()
    elif base is int:
        centre = default if isinstance(default, int) and not isinstance(default, bool) else 0
        good = mostly(st.integers(centre - 3, centre + 3),
                      st.one_of(st.integers(-2, 12), st.integers(-2**40, 2**40)), 4)
    elif base is tuple:
        small = st.integers(-2, 30)
        good = mostly(st.just(default),
                      st.one_of(st.lists(small, max_size=9).map(tuple),
                                st.lists(st.text("abc-0123,+", max_size=4), max_size=6).map(tuple)), 3)
    elif base is str:
        good = mostly(st.just(default), st.one_of(st.text(max_size=8), st.just("/no/such/file.csv")), 3)
    else:
        good = st.one_of(st.just(default), st.text(max_size=6))
    if default is None:
        good = st.one_of(st.none(), good)
    as_text = good.map(lambda v: ",".join(map(str, v)) if isinstance(v, tuple) else str(v))
    return mostly(st.one_of(good, as_text), JUNK)   # good values, as Python or as CLI text


@st.composite
def option_dicts(draw, spec) -> dict:
    """One to three options changed from the defaults (more would almost always be refused)."""
    fields = dataclasses.fields(spec.rules_class)
    chosen = draw(st.lists(st.sampled_from(fields), min_size=0, max_size=3, unique_by=lambda f: f.name))
    options = {f.name: draw(option_values(spec.rules_class, f)) for f in chosen}
    if draw(st.integers(0, 19)) == 0:
        options[draw(st.text(min_size=1, max_size=5))] = 1   # an unknown option
    return options


def strategy_lists(spec, n_seats: int) -> st.SearchStrategy:
    names = mostly(st.sampled_from(list(spec.strategies)), st.sampled_from(["", "Random", "nope"]))
    return mostly(st.one_of(st.lists(names, min_size=n_seats, max_size=n_seats),
                            st.lists(names, min_size=1, max_size=1), names),
                  st.lists(names, min_size=0, max_size=n_seats + 2))


def check_invariants(spec, results, n_games: int, n_seats: int) -> None:
    records, summary = results.records, results.summary
    assert len(records) == summary.n_games == n_games
    shares = records[[f"win_{s}" for s in range(n_seats)]].to_numpy()
    totals = shares.sum(axis=1)
    assert np.all((shares >= 0) & (shares <= 1))
    assert np.all(np.isclose(totals, 0) | np.isclose(totals, 1)), "win shares sum to 1 or 0"
    k = (shares > 0).sum(axis=1)
    assert np.allclose(shares[k > 0].max(axis=1), 1 / k[k > 0]), "k winners share 1/k each"
    assert records["end_reason"].notna().all(), "every end-reason code has a label"
    assert (records[spec.length_name] >= 0).all()
    unfinished = records["end_reason"].isin(spec.unfinished_reasons).to_numpy()
    assert np.all(totals[unfinished] == 0), "capped or broken games are never wins"
    if "invariant_broken" in spec.end_reasons:
        assert not (records["end_reason"] == "invariant_broken").any(), "the kernel's own checks"
    assert summary.n_decided == int(np.isclose(totals, 1).sum())
    np.testing.assert_allclose(summary.win_sums, shares.sum(axis=0))


# A hang must fail (issue 21). Warm, a game's cases take about 1 s; cold, the game's kernels
# compile first (Sunzi 240 s, Samurai 94 s, the others 30-50 s on the busy 2-core machine).
@pytest.mark.timeout(600)
@pytest.mark.parametrize("game", game_names())
@settings(max_examples=API_EXAMPLES, **FUZZ)
@given(data=st.data())
def test_any_options_and_strategies_give_a_valid_run_or_a_clear_error(game, data):
    spec = get_game(game)
    options = data.draw(option_dicts(spec), label="options")
    try:
        rules = spec.rules_class.from_options(options)
        n_seats = rules.n_seats
    except BalanceError as error:
        assert str(error)
        event(f"options refused: {type(error).__name__}")
        return
    strategies = data.draw(strategy_lists(spec, n_seats), label="strategies")
    run = data.draw(st.fixed_dictionaries({}, optional={
        "chunk_size": mostly(st.integers(1, 30), st.one_of(st.integers(-1, 0), JUNK), 25),
        "first_game": mostly(st.integers(0, 2**40), st.integers(-3, -1), 25),
        "rotate_seats": mostly(st.booleans(), JUNK, 25)}), label="run")
    n_games = data.draw(mostly(st.integers(1, MAX_GAMES), st.one_of(st.integers(-2, 0), JUNK), 25),
                        label="n")
    seed = data.draw(mostly(st.integers(0, 2**64 - 1), st.one_of(st.integers(-5, -1), JUNK), 25),
                     label="seed")
    try:
        results = simulate(game, rules, strategies, n_games, seed, **run)
    except BalanceError as error:
        assert str(error)
        event(f"run refused: {type(error).__name__}")
        return
    event("valid run")
    check_invariants(spec, results, n_games, n_seats)


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
