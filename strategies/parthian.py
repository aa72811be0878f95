"""Parthian Shot strategies.

Signature of every strategy (built-in or user-written, a ``numba.njit`` function), the same
in every game (sim/core/protocol.py)::

    strategy(decision, seat, obs, legal, params, rng) -> action
      decision int            always 0: the card of the round (the game has one decision type)
      seat     int            this player's seat
      obs      Observation    obs.players int64[N, F]: public state per player (fields
                              sim.parthian.layout.P: HAND, FRONT, FRONT_SUM, CHARGES, WOUNDS,
                              MERITS, ...); obs.info int64[K]: public round info (layout.I:
                              ROUND, LEGION, DECK_LEFT, LEGIONS...). Read only.
      legal    bool[7]        legal[v-1]: shooting card v may be played; legal[CHARGE]: a charge
      params   float64[P]     this seat's parameters
      rng      uint64[1]      this seat's stream for this decision type: sim.rng.rand_below(rng, 0, n)
      action   int            v-1 for shooting card v, or CHARGE (6)

Everything a seat sees is public in the real game (hands are the complement of the cards in
front); only the other players' choices this round and the deck's order are hidden.
"""
from numba import njit

from sim.parthian.layout import CHARGE, I, P, SHOTS
from sim.strategy import RANDOM_PLAYER, Strategy
from sim.strategy import script as sim_script

CAUTIOUS, GLORY, LOWBALL = 1, 2, 3


@njit(cache=True)
def hand_mean(players, q):
    total, count = 0, 0
    for v in range(SHOTS):
        if (players[q, P.HAND] >> v) & 1:
            total += v + 1
            count += 1
    return total / count


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
def cautious(seat, players, info, legal, params):
    """Survivor: never the highest card on a likely breakthrough; just enough otherwise.

    Expects every other player to play the mean of their hand. If the legion breaks through
    even with our best card, play our lowest (the highest card takes the damage, PS-9). If it
    falls even to our lowest, play our highest to take the merit (PS-6). Otherwise play the
    smallest card that tips the total over; charge (PS-4) when only a charge can do that.
    params[0]: safety margin added to the legion's strength (0 by default).
    """
    need = info[I.LEGION] + params[0]
    others = 0.0
    for q in range(players.shape[0]):
        if q != seat:
            others += hand_mean(players, q)
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
def glory(seat, players, info, legal, params):
    """Merit chaser: charges whenever allowed (PS-4), otherwise plays its highest card.

    params[0] = 1 makes it charge only when the charge is expected to defeat the legion.
    """
    if legal[CHARGE]:
        if params[0] == 0:
            return CHARGE
        others = 0.0
        for q in range(players.shape[0]):
            if q != seat:
                others += hand_mean(players, q)
        if others + players[seat, P.FRONT_SUM] > info[I.LEGION]:
            return CHARGE
    return highest_shot(legal)


@njit(cache=True, inline="always")
def builtin_decide(kind, decision, seat, obs, legal, params, rng):
    """The built-ins by kind (the engine answers random and scripted seats itself)."""
    if kind == CAUTIOUS:
        return cautious(seat, obs.players, obs.info, legal, params)
    if kind == GLORY:
        return glory(seat, obs.players, obs.info, legal, params)
    if kind == LOWBALL:  # always the lowest shooting card; never charges: a baseline
        return lowest_shot(legal)
    return -1


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
