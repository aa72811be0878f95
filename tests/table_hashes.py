"""The SHA-256 of a fixed set of per-game tables: every built-in game at each level of play it
ships, at its default rules and two variants, 2,000 games each.

A change that only moves code (issue 60) must leave every table bit-identical; the stored
hashes (``tests/table_hashes.json``) are the "before". Re-record on purpose, after a change
that is meant to alter play:  ``python -m tests.table_hashes --record``  (then say why in the
commit). The test (tests/engine/test_table_hashes.py) recomputes and compares.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import tempfile
from pathlib import Path

import numpy as np

STORED = Path(__file__).with_name("table_hashes.json")
N_GAMES = 2_000
SEED = 20261207
# Two variants per game: a player count where the game has one, and a rule value.
VARIANTS = {
    "goofspiel": ({"players": 3}, {"num_cards": 6}),
    "kuhn": ({"ante": 2}, {"bet": 2}),
    "leduc": ({"small_raise": 1}, {"max_raises": 1}),
    "parthian": ({"n_players": 5}, {"legion_offset": 2}),
    "samurai": ({"n_players": 4}, {"turn_cap": 300}),
    "shuojian": ({"dodge_left": 2}, {"slashes": 5}),
    "sunzi": ({"mode": "advanced"}, {"warlord": True}),
}


def levels(game: str) -> list[str]:
    """random, the game's heuristic, and trained / strong where the game ships them."""
    from sim import field, trained
    from sim.games import get_game

    spec = get_game(game)
    found = ["random", spec.heuristic]
    if trained.shipped_policies(spec):
        found.append("trained")
    if field.shipped_fields(spec):
        found.append("strong")
    return found


def table_hash(records) -> str:
    """Column names, dtypes and values, in order: equal hashes mean the same table."""
    digest = hashlib.sha256()
    for name in records.columns:
        column = records[name]
        values = column.cat.codes.to_numpy() if hasattr(column, "cat") else column.to_numpy()
        digest.update(f"{name}:{column.dtype}".encode())
        digest.update(np.ascontiguousarray(values).tobytes())
    return digest.hexdigest()


def compute(games=None) -> dict[str, str]:
    """{"game|options|level": sha256} with only the shipped fields seated (no fitted ones)."""
    from sim.runner import simulate

    before = os.environ.get("BALANCE_FIELDS")
    hashes = {}
    with tempfile.TemporaryDirectory() as no_fitted_fields:
        os.environ["BALANCE_FIELDS"] = no_fitted_fields
        try:
            for game in games or sorted(VARIANTS):
                for options in ({},) + VARIANTS[game]:
                    for level in levels(game):
                        result = simulate(game, options or None, level, N_GAMES, SEED,
                                          progress=False)
                        key = f"{game}|{json.dumps(options, sort_keys=True)}|{level}"
                        hashes[key] = table_hash(result.records)
        finally:
            if before is None:
                os.environ.pop("BALANCE_FIELDS", None)
            else:
                os.environ["BALANCE_FIELDS"] = before
    return hashes


def stored() -> dict[str, str]:
    return json.loads(STORED.read_text())


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--record", action="store_true",
                        help=f"write the hashes to {STORED.name} (otherwise compare with it)")
    parser.add_argument("games", nargs="*", help="only these games (default: all)")
    args = parser.parse_args(argv)
    hashes = compute(args.games)
    if args.record:
        kept = stored() if STORED.exists() and args.games else {}
        kept.update(hashes)
        STORED.write_text(json.dumps(kept, indent=1, sort_keys=True) + "\n")
        print(f"recorded {len(hashes)} table hashes in {STORED}")
        return
    old = stored()
    changed = [key for key, value in hashes.items() if old.get(key) != value]
    for key in changed:
        print(f"changed: {key}")
    print(f"{len(hashes) - len(changed)} of {len(hashes)} tables unchanged")
    raise SystemExit(1 if changed else 0)


if __name__ == "__main__":
    main()
