"""Shared fixtures of the workbench tests."""
import weakref

import pytest


@pytest.fixture
def tracked_records(monkeypatch):
    """Watch every per-game table analysis.workbench.precision plays: returns (alive, most),
    weak references to each table and the most tables alive when a piece starts (no
    gc.collect() between pieces: a folded piece must be freed at once)."""
    import analysis.workbench.precision as P

    alive, most = [], [0]
    original = P.simulate

    def tracked(*args, **kwargs):
        most[0] = max(most[0], sum(ref() is not None for ref in alive))
        out = original(*args, **kwargs)
        if out.records is not None:
            alive.append(weakref.ref(out.records))
        return out

    monkeypatch.setattr(P, "simulate", tracked)
    return alive, most
