"""Goofspiel's study: its default report (``report``) and its calibration against OpenSpiel's
goofspiel (``calibration``: outcome distributions, speed, and the search player against
OpenSpiel's ISMCTSBot)."""
from .report import write_report

__all__ = ["write_report"]
