"""Kuhn poker's static facts for the engine."""

from games.kuhn.strategies import BUILTINS

from sim.game import GameSpec, Payoff, card_orders
from . import kernel, layout
from .log import narrate
from .rules import KuhnRules


def payoff_bounds(rules):
    """KP-4/KP-5: a seat wins or loses at most its ante and one bet."""
    stake = rules.ante + rules.bet
    return -stake, stake


SPEC = GameSpec.from_layout(
    layout, name="kuhn", title="Kuhn poker", rules_class=KuhnRules,
    kernel=kernel, strategies=BUILTINS, narrate=narrate, length_name="actions",
    unfinished_reasons=(), heuristic="nash", rollout="trained",
    payoffs={"payoff": Payoff(payoff_bounds, total=0.0)},
    deals=card_orders(layout.CARD_NAMES, 2),  # KP-1: OpenSpiel's order of chance outcomes
)
