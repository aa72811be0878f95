"""Golden games, shared by every game's tests: a stored scripted game replayed exactly.

Each ``tests/<game>/golden/*.json`` holds the game, its rule options (fixed decks), each seat's
script, the hand-written reasoning ("why") and the expected record and full event list, and
optionally the "seed" of play_one (default 0; regenerate keeps it). A game's
test module supplies ``seats(game_json)``, the strategies that replay its scripts.
"""
import argparse
import json
from pathlib import Path

from sim.runner import play_one

TESTS = Path(__file__).resolve().parent


def golden_files(game: str) -> list[Path]:
    return sorted((TESTS / game / "golden").glob("*.json"))


def replay(game: dict, seats) -> tuple[dict, list]:
    # An optional "seed" (default 0) picks play_one's random streams, so that a game played by
    # built-in strategies can be chosen among seeds for the rules it exercises.
    record, events, _ = play_one(game["game"], game["rules"], seats, seed=game.get("seed", 0))
    return record, [[int(x) for x in row] for row in events]


def assert_replays_exactly(path: Path, seats_of) -> None:
    game = json.loads(path.read_text())
    record, events = replay(game, seats_of(game))
    expected = game["expected"]
    assert {k: record[k] for k in expected["record"]} == expected["record"]
    assert events == expected["events"]


def regenerate(seats_of, argv=None) -> int:
    """Rewrite the "expected" part of golden games from the current kernel. Run only by hand.

    A golden game is a hand-checked oracle: only rewrite it after a deliberate rule change, then
    check the new outcome against the rules again and update its "why" by hand.
    """
    parser = argparse.ArgumentParser(description=regenerate.__doc__)
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--write", action="store_true", help="overwrite the expected outcome")
    args = parser.parse_args(argv)
    for path in args.paths:
        game = json.loads(path.read_text())
        record, events = replay(game, seats_of(game))
        old = game["expected"]
        new_record = {k: (v.item() if hasattr(v, "item") else v) for k, v in record.items()
                      if k not in ("game_id", "n_players")}
        changed = {k: (old["record"].get(k), v) for k, v in new_record.items() if old["record"].get(k) != v}
        print(f"{path}: record differences {changed or 'none'}; "
              f"events {'unchanged' if events == old['events'] else 'CHANGED'}")
        if args.write:
            game["expected"] = {**old, "record": new_record, "events": events}
            path.write_text(json.dumps(game, indent=2) + "\n")
            print("  written; now re-check it by hand and update its 'why'")
    return 0
