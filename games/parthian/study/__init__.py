"""Parthian Shot's study: its default report (``report``), its cards for the interventional
card table (``cards``) and how its shipped trained policies are made (``TRAINING``)."""
from analysis.field import tuned_heldout_line
from analysis.studies import Bench, Study

from . import straight
from .cards import cards
from .report import MIXES, OFFSETS, TUNED_TABLE, write_report

__all__ = ["write_report", "cards", "MIXES", "OFFSETS", "TUNED_TABLE", "EDGE",
           "TRAINING", "FIELD"]

# The edge the card section's Shapley shares and synergies show: the team's victory (PS-15).
EDGE = "victory"

# How the shipped trained policies (games/parthian/policies/parthian-Np.json) are made:
# `balance train --shipped` (analysis.training.regenerate_shipped) reads this. The fitness is
# relative to the field, because no seat can win at a table of lowball (the best is a game
# nobody wins, analysis.training.fitness); it starts from cautious (games/parthian/strategies.py).
# At 5 and 6 players runs differ by seed (docs/training.md records the ones that failed a
# table): these seeds and pool growths are the ones that beat every table.
TRAINING = {"players": (3, 4, 5, 6), "against": ("cautious", "glory", "lowball", "random"),
            "hold_out": None, "generations": 100, "games": 1000, "seed": 2026, "sigma": 0.3,
            "relative_to": "field",
            "per_players": {5: {"seed": 7, "pool_every": 20}, 6: {"seed": 7}}}

# How the shipped strong fields (games/parthian/policies/parthian-Np.field.json) are built:
# `balance field --shipped parthian`. PSRO's iteration 0: replicator dynamics over the built-ins
# and the trained policy of the player count, then the best-response search from both starts at
# the exploit search's default budget. A game that nobody wins (every player routed, PS-12/PS-16)
# is lost by every seat ("undecided": "loss", analysis.field.UNDECIDED): shares are win
# probabilities over all games and the oracle maximises its own. The mixture settles on seats
# that refuse to fight (the trained policy, lowball): at their table nobody wins, and a lone
# seat cannot win there either; docs/training.md has the measures and why.
# HELDOUT: measured after the build (docs/training.md), printed beside each count's
# exploitability (the recipe's "caveat"): the held-out player with the best margin tuned against
# the field (jackal at every count; steward's is lower), shares of all the games with the
# held-out share's Wilson interval, percent.
HELDOUT = {3: ((0.2, 0.1, 0.3), 21.3), 4: ((0.3, 0.1, 0.5), 0.3), 5: ((0.2, 0.1, 0.4), 0.3),
           6: ((0.2, 0.1, 0.4), 0.2)}
FIELD = {"players": (3, 4, 5, 6), "iterations": 0, "seed": 11, "undecided": "loss",
         "per_players": {n: {"caveat": tuned_heldout_line("parthian", n, mine, field, "jackal",
                                                          over_all_games=True)}
                         for n, (mine, field) in HELDOUT.items()}}

# What the shared modules read of this study (analysis.studies.Study); its levels of play are
# the spec's (analysis.interventions.levels).
# The benchmark's game (docs/benchmarks.md): every count, random and two heuristics; the
# end-to-end, cold-start and streaming rows and the live page's latency at 4 players.
BENCH = Bench(speed=tuple(({"n_players": n}, s, f"{n} players")
                          for s in ("random", "cautious", "glory") for n in (3, 4, 5, 6)),
              quick=(1, 5), games_share=1.0, end_to_end={"n_players": 4},
              straight=straight.straight, straight_rules={"n_players": 4},
              straight_games=1_000_000, explore=(4, {"charge_threshold": 8}))
STUDY = Study(edge=EDGE, cards=cards, training=TRAINING, field=FIELD,
              write_report=write_report, bench=BENCH)
