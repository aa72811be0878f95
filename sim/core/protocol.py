"""The decision protocol, written once for every game.

A game's rules are straight-line code that calls :func:`ask` wherever a seat must decide:
the game fills ``g.core.legal[:n]`` with the legal actions and calls ``ask(g, decision, seat,
n)``, which returns the action to play. The rest of the protocol is decided here, once:

- **Forced moves.** A decision with one legal action is taken without asking anybody: no
  strategy sees it, no random number is drawn for it, the controller does not count it, and a
  search neither searches it nor gives it a node. (No legal action at all answers -1: a bug of
  the game, which its tests catch.)
- **Who answers.** The engine answers ``RANDOM`` (a uniformly random legal action from the
  seat's stream for this decision type), ``SCRIPT`` ((decision, action) pairs in order; a
  decision that does not match the next pair gets the game's ``off_script`` answer) and
  ``TRAINED`` (a linear policy over the game's features, sim/core/policy.py) itself, for every
  game; a game's built-ins through its ``strategy`` hook; a user strategy through its
  address (sim/core/userfn.py); the search player through the controller. Every strategy has
  one signature, ``strategy(decision, seat, obs, legal, params, rng)``, and ``obs`` is what the
  game's ``observe(g, decision, seat)`` hook returns: everything that seat may know, nothing
  more (tests/engine/test_observation.py checks it).
- **Illegal answers.** An answer outside the legal mask is reported in ``batch.error`` (the
  first one of the chunk: row, seat, action) and the game goes on with the lowest legal action,
  so that no rule code has to unwind; the chunk stops after that game and the runner raises a
  StrategyError naming the strategy, the seat, the action and the game.
- **Redeal, then reseed.** With a controller, a decision where a redeal is due (a search's
  fork, or a test's ``redeal_at``) first draws every random stream but the deciding seat's own
  anew, then calls the game's ``redeal(g, seat)``, which re-randomises everything the seat has
  not observed (a redeal that asks other seats' strategies again, as Parthian Shot's does, so
  draws from fresh streams); the legal mask the game set is kept across the redeal.
- **Events.** :func:`log_event` writes a game's event log (narratives, golden games, the
  conformance test); its first three columns are (event, round, seat) in every game.

The chunk driver :func:`run_chunk` plays a chunk's games: each game seeds its streams from
(batch key, game index), seats the strategies (rotated by the game index when asked), and plays;
with a search seat it replays the game up to each of that seat's decisions and searches there
(sim/core/control.py). None of the controller is compiled into a kernel called without one.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from ..bits import lowest_bit, nth_bit, popcount
from ..game import RECORD_WINNERS
from ..rng import next_u64, rand_below, seed_game
from . import control, mixture
from .hooks import (builtin_answer, by_controller, chance_streams, decision_types,
                    observation_hash, off_script, play_game, redeal, script_answer,
                    trained_answer, user_answer)
from .state import (CURSOR, E_ACTION, E_ROW, E_SEAT, E_SET, ERROR, GAME, KIND, LOGGING, MIXTURE,
                    RANDOM, ROW, SAME_AS, SCRIPT, SEARCH_KIND, SEAT_FIELDS, SEATED, SLOT, TRAINED,
                    USER_KIND, seat_at, users_at)

inline = njit(_nrt=False, inline="always")


# --- asking a seat -------------------------------------------------------------------------

@inline
def ask(g, decision, seat, n):
    """Seat ``seat`` chooses one of the actions 0..n-1 whose mask the game set in
    ``g.core.legal[:n]``; returns the action to play (see the module's rules)."""
    c = g.core
    legal = c.legal[:n]
    first, count = -1, 0
    for a in range(n):
        if legal[a]:
            if count == 0:
                first = a
            count += 1
            if count == 2:
                break
    if count <= 1:
        return first
    if control.active(c.ctl):
        return ask_controlled(g, decision, seat, n, first)
    return checked(c, seat, decide(g, decision, seat, legal), legal, first)


@inline
def ask_set(g, decision, seat, mask, n):
    """``ask`` with the legal actions given as a bitmask ``mask`` of the actions 0..n-1 (n <= 64):
    the same protocol and the same answers, but a random seat draws its action straight from the
    mask (popcount and bit scans, no array) and ``legal[:n]`` is written only for a strategy that
    reads it. The game's own choice, for decisions small enough to be a bitmask."""
    if mask & (mask - 1) == 0:  # one legal action (or none: -1)
        return lowest_bit(mask)
    c = g.core
    if c.ints[seat_at(seat, KIND)] == RANDOM and not control.active(c.ctl):
        return nth_bit(mask, rand_below(c.streams, stream(g, seat, decision), popcount(mask)))
    legal = c.legal[:n]
    for a in range(n):
        legal[a] = (mask >> a) & 1 == 1
    if control.active(c.ctl):
        return ask_controlled(g, decision, seat, n, lowest_bit(mask))
    return checked(c, seat, decide(g, decision, seat, legal), legal, lowest_bit(mask))


@inline
def ask_all(g, decision, seat, n):
    """``ask`` for a decision whose actions 0..n-1 are all legal (the game has set legal[:n]):
    the same protocol and answers, but a random seat draws one without scanning the mask
    (Shuo Jian's replies list hundreds of plays)."""
    if n <= 1:
        return n - 1
    c = g.core
    if c.ints[seat_at(seat, KIND)] == RANDOM and not control.active(c.ctl):
        return rand_below(c.streams, stream(g, seat, decision), n)
    legal = c.legal[:n]
    if control.active(c.ctl):
        return ask_controlled(g, decision, seat, n, 0)
    return checked(c, seat, decide(g, decision, seat, legal), legal, 0)


@inline
def decide(g, decision, seat, legal):
    """The answer of the strategy seated at ``seat`` (no forced-move rule, no controller, no
    check): what a game's redeal calls to let other seats choose again."""
    c = g.core
    kind = c.ints[seat_at(seat, KIND)]
    own = stream(g, seat, decision)
    rng = c.streams[own:own + 1]
    if kind == RANDOM:
        return random_legal(legal, rng)
    params = c.params[seat]
    if kind == TRAINED:
        return trained_answer(g, decision, seat, legal, params, rng)
    if kind == SCRIPT:
        return script(g, decision, seat, legal, params)
    if kind >= USER_KIND:
        return user_answer(g, c.ints[users_at(c) + kind - USER_KIND], decision, seat, legal,
                           params, rng)
    return builtin_answer(g, kind, decision, seat, legal, params, rng)


@inline
def checked(c, seat, action, legal, first):
    """The illegal-answer rule: report the first illegal answer of the chunk, play ``first``."""
    if action < 0 or action >= legal.shape[0] or not legal[action]:
        if c.ints[LOGGING] >= 0 and c.ints[ERROR + E_SET] != 1:
            c.ints[ERROR + E_ROW] = c.ints[ROW]
            c.ints[ERROR + E_SEAT] = seat
            c.ints[ERROR + E_ACTION] = action
            c.ints[ERROR + E_SET] = 1
        return first
    return action


@inline
def random_legal(legal, rng):
    """A uniformly random legal action (as sim.rng.choose_legal, with a single branch that
    mispredicts: the pick)."""
    n = 0
    for a in range(legal.shape[0]):
        n += legal[a]
    pick = np.int64(((next_u64(rng, 0) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))
    for a in range(legal.shape[0]):
        pick -= legal[a]
        if pick < 0:
            return a
    return -1


@inline
def script(g, decision, seat, legal, params):
    """params = (pairs, decision 0, action 0, decision 1, action 1, ...): the next pair's
    action when its decision is the one asked, else the game's off-script answer."""
    c = g.core
    pos = c.ints[seat_at(seat, CURSOR)]
    if pos < params[0] and 2 + 2 * pos < params.shape[0] and params[1 + 2 * pos] == decision:
        c.ints[seat_at(seat, CURSOR)] = pos + 1
        return script_answer(g, decision, seat, legal, np.int64(params[2 + 2 * pos]))
    return off_script(g, decision, seat, legal)


@by_controller(lambda g, decision, seat, n, first: first)
def ask_controlled(g, decision, seat, n, first):
    c = g.core
    ctl = c.ctl
    legal = c.legal[:n]
    own = stream(g, seat, 0)
    half = c.legal.shape[0] // 2
    if control.redeal_due(ctl):
        control.reseed(ctl, c.streams, own, decision_types(g))
        for a in range(n):
            c.legal[half + a] = legal[a]
        redeal(g, seat)
        for a in range(n):
            legal[a] = c.legal[half + a]
    rng = c.streams[own + decision:own + decision + 1]
    params = c.params[seat]
    h = np.uint64(0)
    if control.needs_hash(ctl, seat):
        h = observation_hash(g, decision, seat, legal, params, rng, np.uint64(decision * 64 + seat))
    a = control.before_decision(ctl, seat, decision, h, legal)
    if a < 0:
        a = decide(g, decision, seat, legal)
    a = control.after_decision(ctl, seat, decision, h, legal, a,
                               c.log[0, 0] if c.log.shape[0] > 0 else 0)
    return checked(c, seat, a, legal, first)


# --- what games call besides ask -------------------------------------------------------------

@inline
def log_event(g, event, rnd, seat, a=0, b=0, c=0, d=0, e=0):
    """Append (event, round, seat, a, b, ...) to the event log, as many columns as it has."""
    core = g.core
    log = core.log
    k = log[0, 0] + 1 if core.ints[LOGGING] > 0 else log.shape[0]
    if k < log.shape[0]:
        w = log.shape[1]
        log[k, 0], log[k, 1], log[k, 2] = event, rnd, seat
        if w > 3:
            log[k, 3] = a
        if w > 4:
            log[k, 4] = b
        if w > 5:
            log[k, 5] = c
        if w > 6:
            log[k, 6] = d
        if w > 7:
            log[k, 7] = e
        log[0, 0] = k


@inline
def stopped(g):
    """True when the current game is abandoned (a search paused it): the game's main loop must
    end at once (the record of an abandoned game is never read)."""
    return control.stopped(g.core.ctl)


@inline
def stream(g, seat, decision):
    """Index in g.core.streams of the stream ``seat`` draws from at decisions of one type (the
    game's chance streams first, then one per (seat, decision type): sim/rng.py)."""
    return chance_streams(g) + seat * decision_types(g) + decision


# --- the chunk driver ------------------------------------------------------------------------

@njit(_nrt=False)
def seat_strategies(c, batch, game):
    """Give each seat its strategy for game ``game``: with rotation, seat s plays slot
    (s + game) mod N, so the rotation of game g is g mod N (the runner records it); a mixture
    slot plays the member drawn for (game, slot) (sim/core/mixture.py)."""
    n = c.params.shape[0]
    shift = game % n if batch.rotate else 0
    for s in range(n):
        slot = (s + shift) % n
        kind, start, count = batch.kinds[slot], 0, c.params.shape[1]
        if kind == MIXTURE:
            kind, start, count = mixture.member_at(batch.params[slot],
                                                   mixture.member_draw(batch.key, game, slot))
        c.ints[seat_at(s, KIND)] = kind
        c.ints[seat_at(s, SLOT)] = slot
        # The copy, not the draw, is what re-seating costs (a third of a Leduc game's time):
        # a row that already holds the same parameters keeps them
        source = (c.ints[seat_at(slot, SAME_AS)] << 32) | start
        if c.ints[seat_at(s, SEATED)] != source:
            c.ints[seat_at(s, SEATED)] = source
            for i in range(c.params.shape[1]):  # zeros after a member's own: what it reads alone
                c.params[s, i] = batch.params[slot, start + i] if i < count else 0.0


@njit(_nrt=False)
def reseated_every_game(batch):
    """Does each game seat anew: rotated seats, or a mixture that draws its member per game?"""
    if batch.rotate:
        return True
    for k in batch.kinds:
        if k == MIXTURE:
            return True
    return False


@njit(_nrt=False)
def seat_rollouts(c, me, draw):
    """Inside a search every seat plays the searched seat's rollout policy (its params[2], with
    parameters from params[8:]): the search models the other players by that policy, never by
    the strategies really seated, so that it cannot exploit knowing an opponent's program. A
    field as the rollout seats one of its members per seat, drawn from ``draw`` (the
    iteration's own randomness), so the playouts model the field's mixture."""
    rollout = np.int64(c.params[me, 2])
    width = c.params.shape[1]
    n = c.params.shape[0]
    for k in range(n):
        s = k if k < me else (k + 1 if k + 1 < n else me)  # ``me`` last: its row is the source
        kind, start, count = rollout, 8, width - 8
        if rollout == MIXTURE:
            kind, start, count = mixture.member_at(c.params[me, 8:],
                                                   mixture.member_draw(draw, 0, s))
            start += 8
        c.ints[seat_at(s, KIND)] = kind
        c.ints[seat_at(s, SEATED)] = -1
        for i in range(width):
            c.params[s, i] = c.params[me, start + i] if i < count else 0.0


@inline
def begin_play(c, logged):
    """Before a game is played (or replayed): scripts from their start, an empty log."""
    for s in range(c.params.shape[0]):
        c.ints[seat_at(s, CURSOR)] = 0
    if logged:
        c.log[0, 0] = 0
    c.ints[LOGGING] = 1 if logged else 0


@njit
def prepare(g, batch, game):
    """Seat, seed and reset state ``g`` for game ``game`` without playing it: for tests that
    drive a game's rules step by step (sim.runner.kernel_state)."""
    c = g.core
    c.ints[ROW] = 0
    c.ints[GAME] = game
    seat_strategies(c, batch, game)
    seed_game(batch.key, game, c.streams)
    begin_play(c, c.log.shape[0] > 0)


@njit(nogil=True)
def run_chunk(g, batch, out):
    """Play games batch.first_game .. + out.shape[0] - 1 into ``out`` (see the module)."""
    c = g.core
    logged = c.log.shape[0] > 0
    trial = np.zeros((1, out.shape[1]), out.dtype)
    reseat = reseated_every_game(batch)
    for row in range(out.shape[0]):
        game = batch.first_game + row
        c.ints[ROW] = row
        c.ints[GAME] = game
        if reseat or row == 0:
            seat_strategies(c, batch, game)
        control.begin_game(c.ctl, game, c.ints, seat_at(0, KIND), SEAT_FIELDS, c.params.shape[0])
        while True:
            seed_game(batch.key, game, c.streams)
            begin_play(c, logged)
            play_game(g, out, row)
            if not control.search_pending(c.ctl):
                break
            search_paused_decision(g, batch, game, trial)
        if c.ints[ERROR + E_SET] == 1:
            break
    for i in range(4):
        batch.error[i] = c.ints[ERROR + i]


@by_controller(lambda g, batch, game, trial: None)
def search_paused_decision(g, batch, game, trial):
    """Search the decision the real game paused at, commit the answer, and re-seat."""
    c = g.core
    ctl = c.ctl
    mixed = False
    for _ in range(control.begin_search(ctl, c.params)):
        seed_game(batch.key, game, c.streams)
        me = control.begin_iteration(ctl)
        if c.ints[seat_at(me, KIND)] == SEARCH_KIND:
            mixed = c.params[me, 2] == MIXTURE
        elif mixed:  # a field's members are drawn anew for every iteration
            seat_strategies(c, batch, game)
        if c.ints[seat_at(me, KIND)] == SEARCH_KIND:
            seat_rollouts(c, me, control.iteration_draw(ctl))
        begin_play(c, False)
        c.ints[LOGGING] = -1  # a search's own games report no illegal answer
        play_game(g, trial, 0)
        control.end_iteration(ctl, trial[0, RECORD_WINNERS])
    control.end_search(ctl)
    seat_strategies(c, batch, game)
