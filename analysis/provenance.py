"""Where a table came from: take it from a batch, carry it on frames, say it in one line.

A provenance is the dict that ``sim.runner.simulate`` puts on ``Results.provenance``: game,
variant (rule options), strategies per seat, n_games, seed, version. A table built from several
batches carries ``{"batches": [provenance, ...]}``.
"""
from __future__ import annotations

import dataclasses
from itertools import groupby

import pandas as pd

from sim.games import get_game
from sim.results import Results, Summary


def unpack(batch: Results | Summary, provenance: dict | None = None) -> tuple[Summary, dict]:
    """The Summary of a batch and its provenance.

    A bare Summary (e.g. merged from streamed parts) has no provenance of its own: pass it, or
    get a minimal one (game and n_games) that says so.
    """
    if isinstance(batch, Results):
        return batch.summary, dict(provenance or batch.provenance)
    if isinstance(batch, Summary):
        return batch, dict(provenance or {"game": batch.game, "n_games": batch.n_games,
                                          "note": "summary without provenance"})
    raise TypeError(f"expected sim Results or Summary, got {type(batch).__name__}")


def with_provenance(frame: pd.DataFrame, provenance: dict) -> pd.DataFrame:
    frame.attrs["provenance"] = provenance
    return frame


def combined(provenances: list[dict]) -> dict:
    """Provenance of a table built from several batches."""
    return {"batches": list(provenances)}


def strategies_text(labels) -> str:
    """['random', 'random', 'glory(0)'] -> 'random x2, glory(0)'. One name is every seat's
    ('strong' -> 'strong at every seat', not 's, t, r, o, n, g'); a card table's levels,
    {level: seats}, are named with their seats."""
    if isinstance(labels, str):
        return f"{labels} at every seat"
    if isinstance(labels, dict):
        return "; ".join(f"{level}: {strategies_text(seats)}" for level, seats in labels.items())
    runs = [(label, len(list(group))) for label, group in groupby(labels)]
    return ", ".join(label if k == 1 else f"{label} x{k}" for label, k in runs)


def variant_text(game: str, variant: dict) -> str:
    """Rule options that differ from the game's defaults, players first ('4 players, x=1')."""
    fields = {f.name: f.default for f in dataclasses.fields(get_game(game).rules_class)}
    parts = [f"{variant['n_players']} players"] if "n_players" in variant else []
    parts += [f"{name}={value}" for name, value in variant.items()
              if name in fields and name != "n_players" and _plain(fields[name]) != value]
    return ", ".join(parts) or "default rules"


def describe(provenance: dict) -> str:
    """One line for titles and captions: game, variant, strategies, n, seed, version.

    For a multi-batch provenance it states what all batches share and names what varies.
    """
    batches = provenance.get("batches", [provenance])
    first = batches[0]
    if "variant" not in first:
        return f"{first.get('game', '?')}, n={first.get('n_games', 0):,} ({first.get('note', '')})"
    game = first["game"]
    ns = "/".join(f"{n:,}" for n in sorted({b["n_games"] for b in batches}))
    seeds = "/".join(str(s) for s in sorted({b["seed"] for b in batches}))
    tail = f"seed {seeds}; balance-toolkit {first['version']}"
    if first.get("game_version"):   # a plugin game: its package's version beside the toolkit's
        tail += f"; {first['game_version']}"
    if len(batches) == 1:
        return (f"{get_game(game).title}: {variant_text(game, first['variant'])}; "
                f"{strategies_text(first['strategies'])}; n={ns}; {tail}")
    options = {f.name for f in dataclasses.fields(get_game(game).rules_class)}
    common = {k: v for k, v in first["variant"].items()
              if k in options and all(b["variant"].get(k) == v for b in batches)}
    varying = sorted(options & set(first["variant"]) - set(common))
    labels = {label for b in batches
              for label in ([b["strategies"]] if isinstance(b["strategies"], str) else b["strategies"])}
    if len(labels) == 1:
        strategies = f"{labels.pop()} at every seat"
    elif all(b["strategies"] == first["strategies"] for b in batches):
        strategies = strategies_text(first["strategies"])
    else:
        strategies = "strategies as listed per row"
    return (f"{get_game(game).title}, {len(batches)} batches: {variant_text(game, common)}"
            f"{'; varying ' + ', '.join(varying) if varying else ''}; {strategies}; "
            f"n={ns} per batch; {tail}")


def _plain(value):
    return list(value) if isinstance(value, tuple) else value
