"""Registers Parthian Shot with the engine (kept out of __init__ so that importing
games.parthian.strategies first never meets a half-imported package)."""
from games.parthian.strategies import BUILTINS

from sim.game import GameSpec, Payoff
from . import kernel, layout
from .log import narrate
from .rules import ParthianRules

SPEC = GameSpec.from_layout(
    layout, name="parthian", title="Parthian Shot", rules_class=ParthianRules,
    kernel=kernel, strategies=BUILTINS, narrate=narrate, length_name="rounds",
    unfinished_reasons=("round_cap",), heuristic="cautious", rollout="cautious",
    headline_ends=("victory",),   # PS-15: the team beats all 7 legions
    payoffs={"score": Payoff()},   # the adapters' returns="score"
    observation_variants=tuple({"n_players": n} for n in (3, 5, 6)),
)
