"""Registers Goofspiel with the engine (kept out of __init__ so that importing
strategies.goofspiel first never meets a half-imported package)."""
from strategies.goofspiel import BUILTINS

from ..game import GameSpec
from . import kernel, layout
from .log import narrate
from .rules import GoofspielRules

SPEC = GameSpec(
    name="goofspiel",
    title="Goofspiel",
    rules_class=GoofspielRules,
    kernel=kernel,
    length_name="turns",
    end_reasons=layout.END_REASONS,
    unfinished_reasons=(),
    game_columns=layout.GAME_COLUMNS,
    seat_columns=layout.SEAT_COLUMNS,
    strategies=BUILTINS,
    n_strategy_params=layout.N_STRATEGY_PARAMS,
    narrate=narrate,
    heuristic="match",
    rollout="random",
    decision_names=layout.DECISION_NAMES,
    event_visibility=layout.EVENT_VISIBILITY,
    n_actions=layout.MAX_CARDS,   # legal masks are num_cards long; the search tree is sized for the most
    observation_variants=({"players": 3}, {"players": 3, "imp_info": True}),
)
