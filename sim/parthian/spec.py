"""Registers Parthian Shot with the engine (kept out of __init__ so that importing
strategies.parthian first never meets a half-imported package)."""
from strategies.parthian import BUILTINS

from ..game import GameSpec, Payoff
from . import kernel, layout
from .log import narrate
from .rules import ParthianRules

SPEC = GameSpec(
    name="parthian",
    title="Parthian Shot",
    rules_class=ParthianRules,
    kernel=kernel,
    length_name="rounds",
    end_reasons=layout.END_REASONS,
    unfinished_reasons=("round_cap",),
    game_columns=layout.GAME_COLUMNS,
    seat_columns=layout.SEAT_COLUMNS,
    strategies=BUILTINS,
    n_strategy_params=layout.N_STRATEGY_PARAMS,
    narrate=narrate,
    heuristic="cautious",
    rollout="cautious",
    headline_ends=("victory",),   # PS-15: the team beats all 7 legions
    decision_names=layout.DECISION_NAMES,
    n_actions=layout.N_ACTIONS,
    payoffs={"score": Payoff()},   # the adapters' returns="score"
    event_visibility=layout.EVENT_VISIBILITY,
    observation_variants=tuple({"n_players": n} for n in (3, 5, 6)),
)
