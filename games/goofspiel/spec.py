"""Registers Goofspiel with the engine (kept out of __init__ so that importing
games.goofspiel.strategies first never meets a half-imported package)."""
from itertools import permutations
from math import factorial

from games.goofspiel.strategies import BUILTINS

from sim.game import GameSpec, Payoff
from . import kernel, layout
from .log import narrate
from .rules import GoofspielRules


def points_bounds(rules):
    """GS-4/GS-6: a seat takes at most every prize of the turns played, the highest ones at best."""
    return 0, sum(range(rules.num_cards - rules.turns + 1, rules.num_cards + 1))


def deals(rules, limit):
    """GS-2: every order of the prize deck, equally likely (the one deck of a fixed order)."""
    if rules.points_order != "random" or rules.prize_order is not None:
        return [({}, 1.0)]
    if factorial(rules.num_cards) > limit:
        return None
    orders = list(permutations(range(1, rules.num_cards + 1)))
    return [({"prize_order": order}, 1 / len(orders)) for order in orders]


SPEC = GameSpec.from_layout(
    layout, name="goofspiel", title="Goofspiel", rules_class=GoofspielRules,
    kernel=kernel, strategies=BUILTINS, narrate=narrate, length_name="turns",
    unfinished_reasons=(), heuristic="match", rollout="random",
    n_actions=layout.MAX_CARDS,   # legal masks are num_cards long; the search tree is sized for the most
    observation_variants=({"players": 3}, {"players": 3, "imp_info": True}),
    payoffs={"points": Payoff(points_bounds)},
    deals=deals,
)
