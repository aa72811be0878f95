"""Leduc poker's static facts for the engine."""

from games.leduc.strategies import BUILTINS, N_FEATURES

from sim.core.policy import WEIGHTS
from sim.game import GameSpec, Payoff, card_orders
from . import kernel, layout
from .log import narrate
from .rules import LeducRules

# A trained seat's parameters (sim/core/policy.py), and room for the search player, which keeps
# its rollout policy's from params[8] on.
N_STRATEGY_PARAMS = 8 + WEIGHTS + N_FEATURES


def payoff_bounds(rules):
    """LP-6/LP-7: a seat wins or loses at most its ante and every raise of both rounds."""
    stake = rules.ante + rules.max_raises * (rules.small_raise + rules.big_raise)
    return -stake, stake


SPEC = GameSpec.from_layout(
    layout, name="leduc", title="Leduc poker", rules_class=LeducRules,
    kernel=kernel, strategies=BUILTINS, narrate=narrate, length_name="actions",
    unfinished_reasons=(), heuristic="raiser", rollout="random",
    n_strategy_params=N_STRATEGY_PARAMS,
    payoffs={"payoff": Payoff(payoff_bounds, total=0.0)},
    deals=card_orders(layout.CARD_NAMES, 3),  # LP-1/LP-5: OpenSpiel's order of chance outcomes
)
