"""Registers Samurai Sword with the engine (kept out of __init__ so that importing
games.samurai.strategies first never meets a half-imported package)."""
from games.samurai.strategies import BUILTINS

from sim.game import GameSpec, Payoff
from . import kernel, layout
from .log import narrate
from .rules import SamuraiRules

SPEC = GameSpec.from_layout(
    layout, name="samurai", title="Samurai Sword", rules_class=SamuraiRules,
    kernel=kernel, strategies=BUILTINS, narrate=narrate, length_name="turns",
    unfinished_reasons=("capped", "invariant_broken"), heuristic="shrewd", rollout="trained",
    # Swordmaster victories only (SS-20); "teammate_defeat" (one left standing by a teammate's
    # defeat) is scored on points like "honour", so it is no headline: see games/samurai/RULES.md
    headline_ends=("swordmaster",),
    payoffs={"score": Payoff()},   # the adapters' returns="score"
    # every decision type is reached: Ieyasu and Bushido need their characters / longer games;
    # the 3-player Shogun's Bushido choice (SS-21, shogun_bushido="choose") needs 3 players
    observation_variants=tuple({"n_players": n, "characters": ",".join(
        ["ieyasu", "hanzo", "nobunaga"][:1] + ["random"] * (n - 1))} for n in (3, 4, 6, 7))
    + ({"n_players": 3, "shogun_bushido": "choose"},),
)
