"""Registers Shuo Jian with the engine (kept out of __init__ so that importing
strategies.shuojian first never meets a half-imported package)."""
from strategies.shuojian import BUILTINS

from ..game import GameSpec
from . import kernel, layout
from .log import narrate
from .rules import ShuoJianRules

SPEC = GameSpec(
    name="shuojian",
    title="Shuo Jian",
    rules_class=ShuoJianRules,
    kernel=kernel,
    length_name="turns",
    end_reasons=layout.END_REASONS,
    unfinished_reasons=("turn_cap", "invariant_broken"),
    game_columns=layout.GAME_COLUMNS,
    seat_columns=layout.SEAT_COLUMNS,
    strategies=BUILTINS,
    n_strategy_params=layout.N_STRATEGY_PARAMS,
    narrate=narrate,
    heuristic="counter",
    rollout="counter",
    headline_ends=layout.DECISIVE_ENDS,
    decision_names=layout.DECISION_NAMES,
    event_visibility=layout.EVENT_VISIBILITY,
    n_actions=layout.N_ACTIONS,   # a play is an index into the listed plays (+ a voluntary pass)
)
