"""Registers Samurai Sword with the engine (kept out of __init__ so that importing
strategies.samurai first never meets a half-imported package)."""
from strategies.samurai import BUILTINS

from ..game import GameSpec, Payoff
from . import kernel, layout
from .log import narrate
from .rules import SamuraiRules

SPEC = GameSpec(
    name="samurai",
    title="Samurai Sword",
    rules_class=SamuraiRules,
    kernel=kernel,
    length_name="turns",
    end_reasons=layout.END_REASONS,
    unfinished_reasons=("capped", "invariant_broken"),
    game_columns=layout.GAME_COLUMNS,
    seat_columns=layout.SEAT_COLUMNS,
    strategies=BUILTINS,
    n_strategy_params=layout.N_STRATEGY_PARAMS,
    narrate=narrate,
    heuristic="shrewd",
    rollout="trained",
    # Swordmaster victories only (SS-20); "teammate_defeat" (one left standing by a teammate's
    # defeat) is scored on points like "honour", so it is no headline: see docs/samurai_sword.md
    headline_ends=("swordmaster",),
    decision_names=layout.DECISION_NAMES,
    n_actions=layout.N_ACTIONS,
    payoffs={"score": Payoff()},   # the adapters' returns="score"
    event_visibility=layout.EVENT_VISIBILITY,
    # every decision type is reached: Ieyasu and Bushido need their characters / longer games;
    # the 3-player Shogun's Bushido choice (SS-21, shogun_bushido="choose") needs 3 players
    observation_variants=tuple({"n_players": n, "characters": ",".join(
        ["ieyasu", "hanzo", "nobunaga"][:1] + ["random"] * (n - 1))} for n in (3, 4, 6, 7))
    + ({"n_players": 3, "shogun_bushido": "choose"},),
)
