"""A Python agent's answers (sim/agents.py, issue 27): an answer that is no 64-bit action code is
refused as the agent's illegal answer, never wrapped by C into a legal move, and a Ctrl-C while
the agent runs is an interruption, not the agent's error (a KeyboardInterrupt the agent raises
itself is: tests/engine/test_review_inputs.py)."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cli.main import main
from sim.agents import IllegalAnswer, action_code
from sim.errors import StrategyError
from sim.runner import simulate

TOP = (1 << 63) - 1


@pytest.mark.parametrize("answer, said", [
    (1 << 63, "9223372036854775808 (outside the 64-bit range"),
    ((1 << 64) + 1, "18446744073709551617 (outside the 64-bit range"),   # 1 once wrapped: legal
    (-(1 << 63) - 1, "-9223372036854775809 (outside the 64-bit range"),
    (1.7, "1.7 (a float that is no whole number)"),
    (float("nan"), "nan (a float that is no whole number)"),
    (True, "True (a bool, not an action code)"),
    (np.bool_(False), "np.False_ (a bool"),
    (None, "None (a NoneType, not an integer action code)"),
])
def test_an_answer_that_is_no_action_code_is_refused_naming_the_agent(answer, said):
    """Kuhn's actions are 0 and 1 (KP-3): 2^64 + 1 would wrap to 1 and play a legal bet."""
    def agent(obs, legal):
        return answer

    with pytest.raises(StrategyError, match=rf"agent 'agent' at seat 0 returned "
                       rf"{said.replace('(', '[(]').replace(')', '[)]')}.*an illegal answer in "
                       "game 0"):
        simulate("kuhn", None, [agent, "random"], 5)


def test_whole_numbers_of_any_numeric_type_play_as_their_integer():
    first = lambda obs, legal: int(np.flatnonzero(legal)[0])
    as_float = lambda obs, legal: float(np.flatnonzero(legal)[0])
    as_numpy = lambda obs, legal: np.int8(np.flatnonzero(legal)[0])
    expected = simulate("kuhn", None, [first, "random"], 20, seed=3).records
    for agent in (as_float, as_numpy):
        assert simulate("kuhn", None, [agent, "random"], 20, seed=3).records.equals(expected)


def test_ctrl_c_while_the_agent_runs_is_an_interruption(capsys):
    """A real Ctrl-C (SIGINT) that lands in the agent; a KeyboardInterrupt the agent raises
    itself is its own failure (issue 59: tests/engine/test_review_inputs.py)."""
    import os
    import signal

    def interrupted(obs, legal):
        os.kill(os.getpid(), signal.SIGINT)
        return 0

    source = ("import os, signal\n\ndef stop(obs, legal):\n"
              "    os.kill(os.getpid(), signal.SIGINT)\n    return 0\n")
    import tempfile
    from pathlib import Path

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            simulate("kuhn", None, [interrupted, "random"], 5)
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "agent.py"
            path.write_text(source)
            status = main(["simulate", "kuhn", "-s", f"{path}:stop", "-s", "random", "--games",
                           "5", "--jobs", "1", "--no-progress"])
    finally:
        signal.signal(signal.SIGINT, previous)
    assert status == 130
    err = capsys.readouterr().err
    assert "interrupted" in err and "raised" not in err


def test_an_agent_that_raises_is_still_reported_as_raising():
    def broken(obs, legal):
        raise ZeroDivisionError("oops")

    with pytest.raises(StrategyError, match="agent 'broken' at seat 1 raised ZeroDivisionError: "
                       "oops") as error:
        simulate("kuhn", None, ["random", broken], 5)
    assert isinstance(error.value.__cause__, ZeroDivisionError)


ANSWERS = st.one_of(
    st.integers(), st.floats(allow_nan=True, allow_infinity=True), st.booleans(), st.none(),
    st.text(max_size=4), st.lists(st.integers(0, 3), max_size=3),
    st.integers(-(1 << 70), 1 << 70).map(np.float64),
    st.integers(-(1 << 63), TOP).map(np.int64), st.integers(0, 255).map(np.uint8),
    st.sampled_from([np.float32(1.5), np.array(1), np.array([1]), complex(1, 0), b"1"]))


@settings(max_examples=200, deadline=None)
@given(answer=ANSWERS)
def test_any_answer_is_an_int64_action_code_or_an_illegal_answer(answer):
    try:
        code = action_code(answer)
    except IllegalAnswer:
        return
    assert type(code) is int and -(1 << 63) <= code <= TOP
    assert not isinstance(answer, (bool, np.bool_))
    assert code == answer or (isinstance(answer, np.ndarray) and code == answer.item())
    if isinstance(answer, float):
        assert math.isfinite(answer)


@settings(max_examples=25, deadline=None)
@given(answer=ANSWERS)
def test_any_answer_at_the_table_plays_or_is_a_strategy_error(answer):
    """Kuhn (KP-3): 0 pass/check, 1 bet/call; every other answer must be refused."""
    agent = lambda obs, legal: answer
    try:
        result = simulate("kuhn", None, [agent, "random"], 3, seed=1)
    except StrategyError:
        return
    assert action_code(answer) in (0, 1) and len(result.records) == 3
