"""Registers Shuo Jian with the engine (kept out of __init__ so that importing
games.shuojian.strategies first never meets a half-imported package)."""
from games.shuojian.strategies import BUILTINS

from sim.game import GameSpec
from . import kernel, layout
from .log import narrate
from .rules import ShuoJianRules

SPEC = GameSpec.from_layout(
    layout, name="shuojian", title="Shuo Jian", rules_class=ShuoJianRules,
    kernel=kernel, strategies=BUILTINS, narrate=narrate, length_name="turns",
    unfinished_reasons=("turn_cap", "invariant_broken"), heuristic="counter", rollout="counter",
    headline_ends=layout.DECISIVE_ENDS,
    n_actions=layout.N_ACTIONS,   # a play is an index into the listed plays (+ a voluntary pass)
)
