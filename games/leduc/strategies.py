"""Leduc poker strategies (rule ids LP-n: games/leduc/RULES.md).

Signature of every strategy, the same in every game (sim/core/protocol.py)::

    strategy(decision, seat, obs, legal, params, rng) -> action
      decision int            always 0: act (the game's one decision type)
      seat     int            0 acts first in both rounds, 1 second
      obs      Observation    obs.pub int64[PUB_SIZE]: the public table (games.leduc.layout.U:
                              ROUND, PUBLIC card or -1, POT0, POT1, RAISES and ACTED this round,
                              the betting ACTIONS + ROUND_SLOTS * round + k); obs.card int64[1]:
                              this seat's card (rank card // 2: 0 J, 1 Q, 2 K). Read only.
      legal    bool[3]        FOLD (only facing a raise), CALL (a check when nothing is owed),
                              RAISE (while the round has raises left)
      params   float64[P]     this seat's parameters
      rng      uint64[1]      this seat's stream: sim.rng.rand_unit(rng, 0)
      action   int            FOLD (0), CALL (1) or RAISE (2)

Every built-in is a function of the hand's equity (its chance of winning a showdown against a
card drawn from the unseen ones, ties counting half) that gives a probability to each action
(``builtin_probabilities``), so that its exact exploitability can be computed
(games/leduc/study).
"""
import numpy as np
from numba import njit

from sim.core.policy import end_features, put_feature
from games.leduc.layout import (CALL, FOLD, N_CARDS, N_RANKS, N_SUITS, RAISE, ROUND_SLOTS,
                              U)
from sim.rng import rand_unit
from sim.strategy import RANDOM_PLAYER, Strategy

RAISER, CAUTIOUS, AGGRESSIVE = 1, 2, 3


def _equity_tables():
    """EQUITY2[own rank, public rank]: the share of the pot a showdown gives against a card drawn
    from the four unseen ones (LP-7: a pair beats any unpaired hand, else the higher rank; equal
    ranks split). EQUITY1[own rank]: its mean over the public card, before it is dealt."""
    def strength(rank, public):
        return rank + N_RANKS * (rank == public)

    after = np.zeros((N_RANKS, N_RANKS))
    before = np.zeros(N_RANKS)
    for own in range(N_CARDS):
        for public in range(N_CARDS):
            if public == own:
                continue
            unseen = [c for c in range(N_CARDS) if c not in (own, public)]
            r, p = own // N_SUITS, public // N_SUITS
            shares = [1.0 if strength(r, p) > strength(c // N_SUITS, p) else
                      0.5 if strength(r, p) == strength(c // N_SUITS, p) else 0.0 for c in unseen]
            after[r, p] = np.mean(shares)
            before[r] += np.mean(shares) / (N_CARDS - 1) / N_SUITS
    return before, after


EQUITY1, EQUITY2 = _equity_tables()


@njit(cache=True)
def equity(obs):
    """The hand's showdown equity from what the seat knows (its card, the public card)."""
    rank = obs.card[0] // N_SUITS
    public = obs.pub[U.PUBLIC]
    if public < 0:
        return EQUITY1[rank]
    return EQUITY2[rank, public // N_SUITS]


@njit(cache=True)
def builtin_probabilities(kind, obs, legal, params):
    """(P(FOLD), P(CALL), P(RAISE)) of built-in ``kind``, zero on illegal actions:

    - RAISER: raise with equity >= params[0], call with >= params[1], else check or fold; with
      nothing to call it bluffs a raise with probability params[2];
    - CAUTIOUS: never raises; checks, and calls with equity >= params[0], else folds;
    - AGGRESSIVE: raises whenever it may, else calls.

    An action the rules do not allow falls back to the call (a check when nothing is owed)."""
    e = equity(obs)
    fold, call, raise_ = 0.0, 0.0, 0.0
    if kind == AGGRESSIVE:
        raise_ = 1.0
    elif kind == RAISER:
        if e >= params[0]:
            raise_ = 1.0
        elif e >= params[1]:
            call = 1.0
        elif legal[FOLD]:
            fold = 1.0
        else:
            raise_, call = params[2], 1.0 - params[2]
    elif kind == CAUTIOUS:
        if e >= params[0] or not legal[FOLD]:
            call = 1.0
        else:
            fold = 1.0
    if not legal[RAISE]:
        call, raise_ = call + raise_, 0.0
    if not legal[FOLD]:
        call, fold = call + fold, 0.0
    return fold, call, raise_


@njit(cache=True, inline="always")
def builtin_decide(kind, decision, seat, obs, legal, params, rng):
    fold, call, raise_ = builtin_probabilities(kind, obs, legal, params)
    if fold == 1.0:
        return FOLD
    if call == 1.0:
        return CALL
    if raise_ == 1.0:
        return RAISE
    u = rand_unit(rng, 0)
    if u < fold:
        return FOLD
    return CALL if u < fold + call else RAISE


# --- features of the trained policy (sim/core/policy.py) -------------------------------------
# One indicator per (situation, action): a situation is the round's betting node (did the round
# open with a check, raises so far: 6 nodes) with the ranks the seat knows (its own; in round 2
# the public card's too); fold scores 0, so at temperature 1 a trained policy is any table of
# action probabilities per situation. Round 2's situations do not tell how round 1 was bet: the
# policy class is an abstraction of Leduc, whose exploitability is measured exactly
# (games/leduc/study). (Adding round 1's ending to round 2 as a shared shift made CMA-ES's
# search slower, not better: games/leduc/RULES.md.) Each action has one indicator of the 144, so
# the hook writes it as a pair (SPARSE_FEATURES): filling and scanning the zeros was most of
# the policy's cost.

N_NODES = 6                # 2 * raises (0..2) + 1 if the round opened with a check
N_SITUATIONS = N_NODES * N_RANKS + N_NODES * N_RANKS * N_RANKS   # round 1: 18, round 2: 54
N_FEATURES = 2 * N_SITUATIONS                                   # call, raise
SPARSE_FEATURES = 1                                             # nonzero features an action


@njit(cache=True)
def node(pub, rnd):
    """The betting node of round ``rnd``: 2 * its raises (at most 2) + 1 if it opened with a
    check."""
    raises, opened_with_check = 0, False
    for k in range(ROUND_SLOTS):
        a = pub[U.ACTIONS + ROUND_SLOTS * rnd + k]
        raises += a == RAISE
        opened_with_check = opened_with_check or (k == 0 and a == CALL)
    return 2 * min(raises, 2) + (1 if opened_with_check else 0)


@njit(cache=True)
def situation(obs):
    """The situation's index: round 1 node * 3 + rank; round 2 18 + node * 9 + rank * 3 +
    public rank."""
    pub = obs.pub
    rnd = pub[U.ROUND]
    here = node(pub, rnd)
    rank = obs.card[0] // N_SUITS
    if rnd == 0:
        return here * N_RANKS + rank
    return N_NODES * N_RANKS + (here * N_RANKS + rank) * N_RANKS + pub[U.PUBLIC] // N_SUITS


@njit(cache=True)
def features(decision, seat, obs, legal, rng, phi):
    here = situation(obs)
    end_features(phi, FOLD, 0)
    put_feature(phi, CALL, 0, here, 1.0)
    put_feature(phi, RAISE, 0, N_SITUATIONS + here, 1.0)


def _trainable() -> np.ndarray:
    """Weights that change the policy in the default rules: with nothing to call (nodes 0, 1)
    only raise against check matters, so the call weight stays 0; after two raises (nodes 4, 5)
    no raise is legal."""
    free = np.zeros((1, N_FEATURES), bool)
    for s in range(N_SITUATIONS):
        at = s // N_RANKS if s < N_NODES * N_RANKS else (s - N_NODES * N_RANKS) // N_RANKS ** 2
        free[0, s] = at >= 2
        free[0, N_SITUATIONS + s] = at <= 3
    return free


TRAINABLE = _trainable()


BUILTINS = {
    "random": RANDOM_PLAYER,
    "raiser": Strategy("raiser", builtin=RAISER, params=(0.7, 0.45, 0.2),
                       doc="raises with equity >= 0.7 (a King before the flop, a pair after), "
                           "calls with >= 0.45, else checks (bluffing a raise 20% of the time) "
                           "or folds"),
    "cautious": Strategy("cautious", builtin=CAUTIOUS, params=(0.45,),
                         doc="never raises; checks, calls with equity >= 0.45, else folds"),
    "aggressive": Strategy("aggressive", builtin=AGGRESSIVE,
                           doc="raises whenever it may, else calls"),
}
