"""Leduc poker's study: its calibration against OpenSpiel (``calibration``: exact exploitability
of any policy our engine plays, beside OpenSpiel's CFR)."""

from analysis.studies import Study

from .calibration import field_exactly as _field_exactly
from .calibration import objective as _objective
from .cards import cards

EDGE = "first_seat_advantage"

# How a trained Leduc policy is made (`balance train leduc`): CMA-ES on minus its exact
# NashConv (the game's truth is known, as in Kuhn poker), at temperature 1 so that it can mix.
TRAINING = {"generations": 300, "seed": 0, "objective": _objective, "temperature": 1.0,
            "sigma": 1.0}

# The shipped strong field (games/leduc/policies/leduc.field.json): the trained policy alone, as
# Kuhn poker's, with its exact NashConv leading its exploitability line (games/leduc/RULES.md
# records it beside OpenSpiel's CFR after the same CPU time).
FIELD = {"start": ("trained",), "iterations": 0, "seed": 0, "exact": _field_exactly}

# What the shared modules read of this study (analysis.studies.Study); its levels of play are
# the spec's (analysis.interventions.levels).
STUDY = Study(edge=EDGE, cards=cards, training=TRAINING, field=FIELD)
