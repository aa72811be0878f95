"""Shuo Jian's study: its default report (``report``), its cards for the interventional card
table (``cards``, with ``EDGE`` and the first-player metrics ``game_metrics``) and how
its shipped trained policy is made (``TRAINING``)."""
from analysis.studies import Bench, Study

from .cards import cards, game_metrics
from .report import (CARD_MATCH, DEFAULT_GAMES, MATCHES, QUICK_GAMES, TABLES, TRAINING,
                     condition_rates, decisive, first_player_row, first_player_share,
                     write_report)

__all__ = ["write_report", "cards", "game_metrics", "EDGE", "TRAINING", "MATCHES",
           "TABLES", "CARD_MATCH", "DEFAULT_GAMES", "QUICK_GAMES", "first_player_share",
           "first_player_row", "decisive", "condition_rates"]

# The metric whose Shapley shares and synergies the card section shows: the first player's
# advantage (its win share minus the second player's, per game; SJ-3).
EDGE = "first_player_advantage"

# How the shipped strong field (games/shuojian/policies/shuojian.field.json) is built: PSRO from
# the built-ins and the trained policy, 22 best responses at the exploit search's default budget
# (60 x 300), seed 11 (`balance field --shipped shuojian`; docs/training.md has every iteration).
# Every oracle started from the heuristic's weights, as when the shipped file was built; its
# exploitability is re-measured from both starts (`balance field shuojian --check`).
FIELD = {"iterations": 22, "seed": 11, "oracle_starts": ("heuristic",),
         # measured after the build (docs/training.md), printed beside its exploitability
         "caveat": "Held-out players written from the rules and tuned against this field "
                   "(`python -m heldout.tune shuojian strong --player NAME`, 60 settings) win "
                   "at most 50.4% (48.9%-52.0%) of 4,000 fresh games (tracker; aggressor "
                   "48.2%)"}

# What the shared modules read of this study (analysis.studies.Study); its levels of play are
# the spec's (analysis.interventions.levels).
BENCH = Bench(speed=tuple(({}, s, "default table") for s in ("random", "thrifty", "counter")))
STUDY = Study(edge=EDGE, metrics=game_metrics, cards=cards, training=TRAINING, field=FIELD,
              write_report=write_report, bench=BENCH)
