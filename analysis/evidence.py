"""When an interval says nothing: the one rule reports, tables and tools share.

A handful of games is no evidence: the four games of a quick report's search rung can all end
alike and print "-25.0% (-25.0 to -25.0)", an interval of zero width that looks certain. And a
paired effect whose every per-game difference is equal (the change never altered a game) has no
spread to build an interval from. Neither may be shown as an interval, called real or decided,
or carry a verdict: the cell says why instead, ``TOO_FEW`` or ``IDENTICAL``.

    from analysis.evidence import MIN_GAMES, unmeasured
    unmeasured(4)                  # 'too few games'
    unmeasured(1000, 0.1, 0.1)     # 'identical games' (zero width)
    unmeasured(1000, 0.08, 0.12)   # None: show it
"""
from __future__ import annotations

import math

# The games an interval needs before it is shown (for a win rate or a seat advantage, games
# somebody won: a game nobody wins says nothing about the seats). Below 30 the normal and t
# approximations behind the intervals are poor, and a few games often all end alike.
MIN_GAMES = 30

TOO_FEW = "too few games"
IDENTICAL = "identical games"


def unmeasured(n, low=None, high=None) -> str | None:
    """Why an interval from ``n`` games must not be shown nor decide anything, else None.

    ``TOO_FEW`` below MIN_GAMES games (NaN or None counts as none); ``IDENTICAL`` when the
    interval (``low``, ``high``, where given) is missing or has zero width: nothing varied."""
    if n is None or not n >= MIN_GAMES:    # `not >=` so that a NaN count is too few too
        return TOO_FEW
    if low is None and high is None:
        return None
    if low is None or high is None or math.isnan(low) or math.isnan(high) or not high > low:
        return IDENTICAL
    return None
