"""Kuhn poker's static facts for the engine."""

from strategies.kuhn import BUILTINS

from ..game import GameSpec, Payoff, card_orders
from . import kernel, layout
from .log import narrate
from .rules import KuhnRules


def payoff_bounds(rules):
    """KP-4/KP-5: a seat wins or loses at most its ante and one bet."""
    stake = rules.ante + rules.bet
    return -stake, stake


SPEC = GameSpec(
    name="kuhn",
    title="Kuhn poker",
    rules_class=KuhnRules,
    kernel=kernel,
    length_name="actions",
    end_reasons=layout.END_REASONS,
    unfinished_reasons=(),
    game_columns=layout.GAME_COLUMNS,
    seat_columns=layout.SEAT_COLUMNS,
    strategies=BUILTINS,
    n_strategy_params=layout.N_STRATEGY_PARAMS,
    narrate=narrate,
    heuristic="nash",
    rollout="trained",
    decision_names=layout.DECISION_NAMES,
    event_visibility=layout.EVENT_VISIBILITY,
    n_actions=layout.N_ACTIONS,
    payoffs={"payoff": Payoff(payoff_bounds, total=0.0)},
    deals=card_orders(layout.CARD_NAMES, 2),  # KP-1: OpenSpiel's order of chance outcomes
)
