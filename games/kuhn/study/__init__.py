"""Kuhn poker's study: its calibration against OpenSpiel (``calibration``: exact exploitability of
a policy, of the trained policy and of the search player)."""

from analysis.studies import Study

from .calibration import field_exactly as _field_exactly
from .calibration import objective as _objective
from .cards import cards

EDGE = "first_seat_advantage"

# How the shipped trained policy (games/kuhn/policies/kuhn.json) is made: CMA-ES on minus its
# exact exploitability (NashConv), the one game whose truth is known.
TRAINING = {"generations": 150, "seed": 0, "objective": _objective, "temperature": 1.0,
            "sigma": 1.0}

# How the shipped strong field (games/kuhn/policies/kuhn.field.json) is made: the trained policy
# alone. Its payoff is chips, not the win share the PSRO meta-game solves (analysis/field.py), and
# the policy is already within 0.0025 of the equilibrium (exact NashConv): the field's figure is
# that NashConv, and the exploit search at its default budget is recorded beside it.
FIELD = {"start": ("trained",), "iterations": 0, "seed": 0, "exact": _field_exactly}

# What the shared modules read of this study (analysis.studies.Study); its levels of play are
# the spec's (analysis.interventions.levels).
STUDY = Study(edge=EDGE, cards=cards, training=TRAINING, field=FIELD)
