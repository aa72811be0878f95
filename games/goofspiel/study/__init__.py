"""Goofspiel's study: its default report (``report``) and its calibration against OpenSpiel's
goofspiel (``calibration``: outcome distributions, speed, and the search player against
OpenSpiel's ISMCTSBot)."""
from analysis.studies import Bench, Study

from . import straight
from .cards import cards
from .report import write_report

__all__ = ["write_report", "cards", "game_metrics", "EDGE", "STUDY"]


def game_metrics(records, n_seats: int) -> dict:
    """Per game: ``draw``, 1 when nobody won (GS-7: equal points), the share a designer of a
    bidding game watches."""
    return {"draw": (records["end_reason"] == "draw").to_numpy(float)}


EDGE = "first_seat_advantage"

# What the shared modules read of this study (analysis.studies.Study); its levels of play are
# the spec's (analysis.interventions.levels).
# The benchmark at OpenSpiel's standard 13 cards, against OpenSpiel's own goofspiel too.
BENCH = Bench(speed=tuple(({"num_cards": 13}, s, "13 cards") for s in ("random", "match", "greedy")),
              straight=straight.straight, straight_rules={"num_cards": 13},
              adapters=({}, {"num_cards": 13}), openspiel="games.goofspiel.study.calibration",
              openspiel_rules=({"num_cards": 13}, {"num_cards": 6}))
STUDY = Study(edge=EDGE, metrics=game_metrics, cards=cards, write_report=write_report,
              bench=BENCH)
