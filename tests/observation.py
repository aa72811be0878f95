"""Observation conformance: moved to sim/conformance.py (callable by a plugin game's tests);
the names stay importable here for the toolkit's own tests."""
from sim.conformance import (MAX_EVENTS, MAX_TRACE, Report, World, check, check_game,  # noqa: F401
                             first_leak, play_world, view)
