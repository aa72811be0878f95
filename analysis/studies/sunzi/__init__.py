"""Sunzi / Dynasties' study: its tables (``tables``) and its default report (``report``)."""
from .report import write_report

__all__ = ["write_report"]
