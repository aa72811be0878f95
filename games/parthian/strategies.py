"""Parthian Shot strategies.

Signature of every strategy (built-in or user-written, a ``numba.njit`` function), the same
in every game (sim/core/protocol.py)::

    strategy(decision, seat, obs, legal, params, rng) -> action
      decision int            always 0: the card of the round (the game has one decision type)
      seat     int            this player's seat
      obs      Observation    obs.players int64[N, F]: public state per player (fields
                              games.parthian.layout.P: HAND, FRONT, FRONT_SUM, CHARGES, WOUNDS,
                              MERITS, ...); obs.info int64[K]: public round info (layout.I:
                              ROUND, LEGION, DECK_LEFT, LEGIONS...). Read only.
      legal    bool[7]        legal[v-1]: shooting card v may be played; legal[CHARGE]: a charge
      params   float64[P]     this seat's parameters
      rng      uint64[1]      this seat's stream for this decision type: sim.rng.rand_below(rng, 0, n)
      action   int            v-1 for shooting card v, or CHARGE (6)

Everything a seat sees is public in the real game (hands are the complement of the cards in
front); only the other players' choices this round and the deck's order are hidden.
"""
import numpy as np
from numba import njit

from sim.bits import popcount
from games.parthian.layout import CHARGE, I, P, SHOTS
from sim.strategy import RANDOM_PLAYER, Strategy
from sim.strategy import script as sim_script

CAUTIOUS, GLORY, LOWBALL = 1, 2, 3


# Sum and highest value of the shooting cards of each 6-bit hand (bit v = card v + 1).
HAND_SUM = np.array([sum(v + 1 for v in range(SHOTS) if h >> v & 1) for h in range(64)], np.int64)
HAND_TOP = np.array([max([v + 1 for v in range(SHOTS) if h >> v & 1] or [0]) for h in range(64)],
                    np.int64)


@njit(cache=True, inline="always")
def hand_mean(players, q):
    hand = players[q, P.HAND]
    return HAND_SUM[hand] / popcount(hand)


@njit(cache=True)
def others_mean(players, seat):
    """What the other players are expected to play: the sum of their hands' means."""
    total = 0.0
    for q in range(players.shape[0]):
        if q != seat:
            total += hand_mean(players, q)
    return total


@njit(cache=True)
def lowest_shot(legal):
    for v in range(SHOTS):
        if legal[v]:
            return v
    return -1


@njit(cache=True)
def highest_shot(legal):
    for v in range(SHOTS - 1, -1, -1):
        if legal[v]:
            return v
    return -1


@njit(cache=True)
def cautious(seat, players, info, legal, margin):
    """Survivor: never the highest card on a likely breakthrough; just enough otherwise.

    Expects every other player to play the mean of their hand. If the legion breaks through
    even with our best card, play our lowest (the highest card takes the damage, PS-9). If it
    falls even to our lowest, play our highest to take the merit (PS-6). Otherwise play the
    smallest card that tips the total over; charge (PS-4) when only a charge can do that.
    margin (params[0]): safety margin added to the legion's strength (0 by default).
    """
    return cautious_given(others_mean(players, seat), info[I.LEGION] + margin, players, seat,
                          legal)


@njit(cache=True)
def cautious_given(others, need, players, seat, legal):
    """cautious, given what the others are expected to play."""
    low, high = lowest_shot(legal), highest_shot(legal)
    if others + high + 1 <= need:
        if legal[CHARGE] and others + players[seat, P.FRONT_SUM] > need:
            return CHARGE
        return low
    if others + low + 1 > need:
        return high
    for v in range(SHOTS):
        if legal[v] and others + v + 1 > need:
            return v
    return high


@njit(cache=True)
def glory(seat, players, info, legal, prudent):
    """Merit chaser: charges whenever allowed (PS-4), otherwise plays its highest card.

    prudent (params[0]) = 1 makes it charge only when the charge is expected to defeat the
    legion.
    """
    if legal[CHARGE]:
        if prudent == 0:
            return CHARGE
        if others_mean(players, seat) + players[seat, P.FRONT_SUM] > info[I.LEGION]:
            return CHARGE
    return highest_shot(legal)


@njit(cache=True, inline="always")
def builtin_decide(kind, decision, seat, obs, legal, params, rng):
    """The built-ins by kind (the engine answers random and scripted seats itself)."""
    if kind == CAUTIOUS:
        return cautious(seat, obs.players, obs.info, legal, params[0])
    if kind == GLORY:
        return glory(seat, obs.players, obs.info, legal, params[0])
    if kind == LOWBALL:  # always the lowest shooting card; never charges: a baseline
        return lowest_shot(legal)
    return -1


# --- features of the trained policy (sim/core/policy.py) -------------------------------------

N_FEATURES = 14


@njit(cache=True)
def features(decision, seat, obs, legal, rng, phi):
    """What the trained policy weighs for each legal card (its row of ``phi``): the card's value,
    whether it is a charge, whether it defeats the legion if the others play their hands'
    means (and only just), whether it is the highest card on the table whatever the others do
    (it takes the damage of a breakthrough, PS-9), the built-ins' choices, the lowest and highest
    card, the camel resupply it triggers (PS-14), the charge power it builds (PS-4), and the
    seat's standing in merits and charge cards."""
    players, info = obs.players, obs.info
    need = info[I.LEGION]
    expected, others_top, lead = 0.0, 0, players[seat, P.MERITS]
    for q in range(players.shape[0]):
        if q != seat:
            expected += hand_mean(players, q)
            top = HAND_TOP[players[q, P.HAND]]
            if players[q, P.CHARGES] > 0 and players[q, P.FRONT_SUM] > info[I.THRESHOLD]:
                top = max(top, players[q, P.FRONT_SUM])
            others_top = max(others_top, top)
            lead = min(lead, players[seat, P.MERITS] - players[q, P.MERITS])
    cautious_pick = cautious_given(expected, need, players, seat, legal)
    glory_pick = CHARGE if legal[CHARGE] else highest_shot(legal)
    low, high = lowest_shot(legal), highest_shot(legal)
    cards = popcount(players[seat, P.HAND])
    charges = players[seat, P.CHARGES]
    for a in range(legal.shape[0]):
        if not legal[a]:
            continue
        charge = a == CHARGE
        value = players[seat, P.FRONT_SUM] if charge else a + 1
        defeats = expected + value > need
        topmost = value >= others_top and not charge
        phi[a, 0] = value / 10.0
        phi[a, 1] = 1.0 if charge else 0.0
        phi[a, 2] = 1.0 if defeats else 0.0
        phi[a, 3] = 1.0 if defeats and expected + value - 1 <= need else 0.0
        phi[a, 4] = 1.0 if topmost else 0.0
        phi[a, 5] = 1.0 if topmost and not defeats else 0.0
        phi[a, 6] = 1.0 if a == cautious_pick else 0.0
        phi[a, 7] = 1.0 if a == glory_pick else 0.0
        phi[a, 8] = 1.0 if a == low else 0.0
        phi[a, 9] = 1.0 if a == high else 0.0
        phi[a, 10] = 1.0 if not charge and cards == 2 else 0.0
        phi[a, 11] = 1.0 if topmost and not defeats and charges == 0 else 0.0
        phi[a, 12] = 0.0 if charge else (players[seat, P.FRONT_SUM] + value) / 21.0
        phi[a, 13] = lead / 7.0 if defeats else 0.0


# Feature 6 is cautious's choice: weight 1 there and 0 elsewhere plays exactly cautious, the
# strongest built-in, so training starts from it (START_WEIGHTS) and learns where to depart.
CAUTIOUS_PICK = 6
START_WEIGHTS = np.zeros((1, N_FEATURES))
START_WEIGHTS[0, CAUTIOUS_PICK] = 1.0


BUILTINS = {
    "random": RANDOM_PLAYER,
    "cautious": Strategy("cautious", builtin=CAUTIOUS, params=(0.0,),
                         doc="survivor: avoids the highest card on likely breakthroughs"),
    "glory": Strategy("glory", builtin=GLORY, params=(0.0,),
                      doc="merit chaser: charges when able, else plays high"),
    "lowball": Strategy("lowball", builtin=LOWBALL, doc="always the lowest card (baseline)"),
}


def script(actions_by_round) -> Strategy:
    """A seat that plays the given actions, one per round (for tests and golden games)."""
    return sim_script((0, a) for a in actions_by_round)
