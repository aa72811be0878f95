"""Kuhn poker strategies (rule ids KP-n: games/kuhn/RULES.md).

Signature of every strategy, the same in every game (sim/core/protocol.py)::

    strategy(decision, seat, obs, legal, params, rng) -> action
      decision int            always 0: act (the game's one decision type)
      seat     int            0 acts first, 1 second
      obs      Observation    obs.pub int64[6]: the betting so far (games.kuhn.layout.U: ACTED,
                              POT0, POT1, ACTION0..2); obs.card int64[1]: this seat's card
                              (0 J, 1 Q, 2 K). Read only.
      legal    bool[2]        PASS (check / fold) and BET (bet / call) are always legal
      params   float64[P]     this seat's parameters
      rng      uint64[1]      this seat's stream: sim.rng.rand_unit(rng, 0)
      action   int            PASS (0) or BET (1)

Every built-in is a table of P(BET) at each of the 12 information sets (card x situation, see
layout.SITUATIONS): the closed-form Nash equilibrium, two heuristics, or any table (for example
OpenSpiel's CFR policy, games.kuhn.strategies.from_openspiel_policy).
"""
from numba import njit

from games.kuhn.layout import BET, PASS, U
from sim.rng import rand_unit
from sim.strategy import RANDOM_PLAYER, Strategy

TABULAR = 1


@njit(cache=True)
def infoset(obs):
    """Index 4 * card + situation of what the seat to act knows."""
    acted = obs.pub[U.ACTED]
    if acted == 0:
        situation = 0
    elif acted == 1:
        situation = 1 if obs.pub[U.ACTION0] == PASS else 2
    else:
        situation = 3
    return 4 * obs.card[0] + situation


@njit(cache=True)
def tabular(obs, params, rng):
    """BET with probability params[infoset]."""
    return BET if rand_unit(rng, 0) < params[infoset(obs)] else PASS


@njit(cache=True, inline="always")
def builtin_decide(kind, decision, seat, obs, legal, params, rng):
    if kind == TABULAR:
        return tabular(obs, params, rng)
    return -1


# --- features of the trained policy (sim/core/policy.py) -------------------------------------
# One indicator per information set, on the bet: the weight w_i of set i is then the log-odds of
# betting there (the policy plays at temperature 1), so a trained Kuhn policy is any table of
# bet probabilities, and the exact exploitability of the table is what training minimises
# (games/kuhn/study).

N_FEATURES = 12


@njit(cache=True)
def features(decision, seat, obs, legal, rng, phi):
    here = infoset(obs)
    for a in range(legal.shape[0]):
        for f in range(N_FEATURES):
            phi[a, f] = 0.0
    phi[BET, here] = 1.0


def table(**bets) -> tuple[float, ...]:
    """P(BET) per information set from keywords like ``K_first=1`` (the rest 0)."""
    from games.kuhn.layout import CARD_NAMES, SITUATIONS

    names = [f"{card}_{s.replace(' ', '_').replace('-', '_')}" for card in CARD_NAMES
             for s in SITUATIONS]
    unknown = set(bets) - set(names)
    if unknown:
        raise ValueError(f"unknown information sets {sorted(unknown)}; known: {names}")
    return tuple(float(bets.get(name, 0.0)) for name in names)


def nash(alpha: float = 1 / 6) -> Strategy:
    """Kuhn's closed-form equilibrium family (Kuhn 1950): the first seat bluffs the Jack with
    probability alpha in [0, 1/3], bets the King with 3 alpha and calls with the Queen with
    alpha + 1/3; the second seat bluffs the Jack a third of the time after a pass and calls with
    the Queen a third of the time. Either seat's value: -1/18 for the first, whatever alpha."""
    if not 0 <= alpha <= 1 / 3:
        raise ValueError(f"alpha={alpha} must lie in [0, 1/3]")
    bets = table(J_first=alpha, J_after_pass=1 / 3, Q_after_bet=1 / 3,
                 Q_after_pass_bet=alpha + 1 / 3, K_first=3 * alpha, K_after_pass=1,
                 K_after_bet=1, K_after_pass_bet=1)
    return Strategy("nash", builtin=TABULAR, params=bets,
                    doc="Kuhn's closed-form Nash equilibrium (alpha = 1/6)")


BUILTINS = {
    "random": RANDOM_PLAYER,
    "nash": nash(),
    "honest": Strategy("honest", builtin=TABULAR, params=table(
        K_first=1, K_after_pass=1, K_after_bet=1, K_after_pass_bet=1, Q_after_bet=1,
        Q_after_pass_bet=1), doc="bets the King, calls with the Queen, never bluffs"),
    "aggressive": Strategy("aggressive", builtin=TABULAR, params=table(
        **{f"{c}_{s}": 1 for c in "JQK" for s in ("first", "after_pass", "after_bet",
                                                   "after_pass_bet")}),
        doc="always bets or calls"),
}


def tabular_strategy(name: str, bets) -> Strategy:
    """Any table of 12 bet probabilities as a strategy (layout.SITUATIONS orders them)."""
    bets = tuple(float(b) for b in bets)
    if len(bets) != 12 or not all(0 <= b <= 1 for b in bets):
        raise ValueError("a Kuhn table has 12 probabilities in [0, 1]")
    return Strategy(name, builtin=TABULAR, params=bets)


def from_openspiel_policy(policy, name: str = "openspiel") -> Strategy:
    """An OpenSpiel tabular policy of kuhn_poker (e.g. CFR's average policy) as a strategy:
    its information-state strings are the card then the betting ('0', '1p', '2pb'...)."""
    situations = {"": 0, "p": 1, "b": 2, "pb": 3}
    bets = [0.0] * 12
    for state, row in policy.state_lookup.items():
        card, history = int(state[0]), state[1:]
        bets[4 * card + situations[history]] = float(policy.action_probability_array[row][BET])
    return tabular_strategy(name, bets)
