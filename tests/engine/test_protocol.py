"""The decision protocol's rules (sim/core/protocol.py), checked for every registered game:
forced moves are never asked, an illegal answer is reported and the game goes on, and a redeal
comes after the other seats' streams are drawn anew (reseed, then redeal)."""
from typing import NamedTuple

import numpy as np
import pytest
from numba import njit

from sim import core
from sim.core.header import new_ctl
from sim.errors import StrategyError
from sim.games import game_names, get_game
from sim.rng import choose_legal
from sim.runner import simulate
from sim.strategy import Strategy


@njit
def never_forced(decision, seat, obs, legal, params, rng):
    """Random, but answers an illegal -7 if it is ever asked a decision with one legal action."""
    if legal.sum() <= 1:
        return -7
    return choose_legal(legal, rng, 0)


@njit
def illegal_third(decision, seat, obs, legal, params, rng):
    """Random, except that its third decision of every game is answered with -5 (never legal)."""
    last = params.shape[0] - 1
    params[last] += 1.0  # its own scratch (the engine copies the batch's params in)
    if params[last] == 3.0:
        return -5
    return choose_legal(legal, rng, 0)


@pytest.mark.parametrize("name", game_names())
def test_a_decision_with_one_legal_action_is_never_asked(name):
    spec = get_game(name)
    n = spec.rules_class().n_seats
    results = simulate(name, None, [Strategy("never_forced", fn=never_forced)] * n, 300, seed=3)
    assert len(results.records) == 300


@pytest.mark.parametrize("name", game_names())
def test_an_illegal_answer_names_the_seat_the_action_and_the_game(name):
    spec = get_game(name)
    n = spec.rules_class().n_seats
    seats = [Strategy("illegal", fn=illegal_third)] + ["random"] * (n - 1)
    with pytest.raises(StrategyError, match=r"'illegal' at seat 0 returned illegal action -5 in "
                                            r"game \d+"):
        simulate(name, None, seats, 50, seed=4)


def test_the_game_goes_on_after_an_illegal_answer_with_the_lowest_legal_action():
    """The record of the faulty game is complete: the fault is reported, not a crash."""
    spec = get_game("goofspiel")
    from sim.runner import as_rules
    from sim.strategy import resolve_seats

    rules = as_rules(spec, {"num_cards": 5})
    seats = resolve_seats(spec, [Strategy("illegal", fn=illegal_third), "random"], 2)
    batch = seats.batch(spec, np.uint64(1), 0)
    out = np.zeros((3, spec.record_width(2)), np.int16)
    spec.kernel.play_chunk(*rules.kernel_args(), batch, out,
                           np.zeros((0, spec.kernel.LOG_WIDTH), np.int64), None)
    assert list(batch.error) == [0, 0, -5, 1]
    assert out[0, 0] == 5 and out[1:].sum() == 0  # game 0 played to its end, then the stop


# A probe game for the redeal order: its redeal writes down the streams it finds.
class Probe(NamedTuple):
    core: core.Core
    seen: np.ndarray       # uint64[2, streams]: the streams at the redeal (row 0), before the
                           # decision was asked (row 1)


class ProbeObservation(NamedTuple):
    nothing: np.ndarray


@njit(cache=False, inline="always")
def probe_observe(g, decision, seat):
    return ProbeObservation(g.seen[0, :1])


@njit
def probe_redeal(g, seat):
    for i in range(g.core.streams.shape[0]):
        g.seen[0, i] = g.core.streams[i]


@njit
def probe_play(g, out, row):
    for i in range(g.core.streams.shape[0]):
        g.seen[1, i] = g.core.streams[i]
    g.core.legal[0] = g.core.legal[1] = True
    core.ask(g, 0, 1, 2)
    out[row, 2] = 1


core.register(Probe, 1, 2, play_game=probe_play, observe=probe_observe, redeal=probe_redeal,
              strategy=njit(lambda kind, decision, seat, obs, legal, params, rng: 0))


@njit
def play_probe(batch, out, ctl):
    g = Probe(core.new_core(batch, 2, 1, 2, 2, np.zeros((0, 6), np.int64), ctl),
              np.zeros((2, 1 + 2 * 2), np.uint64))
    core.run_chunk(g, batch, out)
    return g.seen


def test_a_redeal_finds_every_other_stream_drawn_anew_and_the_seats_own_kept():
    """Reseed, then redeal: a redeal that asks other seats again (Parthian Shot's) draws their
    choices from fresh streams; the deciding seat keeps its own (here seat 1: streams 3, 4)."""
    from sim.core.state import Batch

    batch = Batch(np.zeros(2, np.int64), np.zeros((2, 4)), np.zeros(0, np.int64), np.uint64(9),
                  np.int64(0), np.bool_(False), np.full(4, -1, np.int64), None)
    out = np.zeros((1, 3), np.int16)
    seen = play_probe(batch, out, new_ctl(trace_rows=4, redeal_at=0, seed=5))
    at_redeal, before = seen
    assert (at_redeal[:3] != before[:3]).all()      # chance and seat 0's two streams: redrawn
    assert (at_redeal[3:] == before[3:]).all()      # seat 1's own streams: kept
