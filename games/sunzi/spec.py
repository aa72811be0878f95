"""Registers Sunzi / Dynasties with the engine (kept out of __init__ so that importing
games.sunzi.strategies first never meets a half-imported package)."""
from games.sunzi.strategies import BUILTINS

from sim.game import GameSpec, Payoff
from . import kernel, layout
from .log import narrate
from .rules import SunziRules

SPEC = GameSpec.from_layout(
    layout, name="sunzi", title="Sunzi / Dynasties", rules_class=SunziRules,
    kernel=kernel, strategies=BUILTINS, narrate=narrate, length_name="rounds",
    # rollout: the search's default model of its opponents: greedy rollouts beat every built-in
    # but lost to the held-out players (solver 20.7%); the broad field's beat them all
    # (docs/search.md)
    unfinished_reasons=("invariant_broken",), heuristic="counter", rollout="broad",
    payoffs={"points": Payoff()},   # the adapters' returns="points"
    # Warlord in both modes with every leader of each side, hidden leaders, leader cards in the
    # deck, and the reveal-order options: each reaches decisions the defaults never ask.
    observation_variants=(
        *({"warlord": True, "mode": m, "leader_white": w, "leader_black": b}
          for m in ("basic", "advanced") for w, b in zip("abcd", "dcba")),
        {"warlord": True, "leaders": "hidden"},
        {"warlord": True, "leaders": "hidden", "leader_card": "deck", "mode": "advanced"},
        {"warlord": True, "leader_white": "c", "leader_card": "deck"},
        {"order_choice": "region_by_region", "markers": "shortage", "mode": "advanced"},
        {"order_timing": "before_placement", "warlord": True},
        {"warlord": True, "leader_white": "none", "leader_black": "b"},   # the card table's
        {"removed": "7,plague", "mode": "advanced"},                      # yardstick and removal
    ),
)
