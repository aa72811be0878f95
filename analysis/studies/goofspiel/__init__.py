"""Goofspiel's study: its default report (``report``) and its calibration against OpenSpiel's
goofspiel (``calibration``: outcome distributions, speed, and the search player against
OpenSpiel's ISMCTSBot)."""
from .cards import cards
from .report import write_report

__all__ = ["write_report", "cards", "game_metrics", "LEVELS", "EDGE"]

def game_metrics(records, n_seats: int) -> dict:
    """Per game: ``draw``, 1 when nobody won (GS-7: equal points), the share a designer of a
    bidding game watches."""
    return {"draw": (records["end_reason"] == "draw").to_numpy(float)}


# The card table's levels of play (analysis.interventions.levels) and its edge.
LEVELS = {"random": "random", "heuristic": "match"}
EDGE = "first_seat_advantage"
