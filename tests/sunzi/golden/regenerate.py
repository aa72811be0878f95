"""Rewrite the "expected" part of golden games from the current kernel. Run only by hand:

    .venv/bin/python tests/sunzi/golden/regenerate.py golden/NAME.json          # show differences
    .venv/bin/python tests/sunzi/golden/regenerate.py golden/NAME.json --write  # overwrite

A golden game is a hand-checked oracle: only rewrite it after a deliberate rule change, and then
check the new outcome against the rules again and update its "why" by hand.
"""
import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_sunzi_golden import replay  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--write", action="store_true", help="overwrite the expected outcome")
    args = parser.parse_args()
    for path in args.paths:
        game = json.loads(path.read_text())
        record, events = replay(game)
        old = game["expected"]
        new_record = {k: (v.item() if hasattr(v, "item") else v) for k, v in record.items()
                      if k not in ("game_id", "n_players")}
        changed = {k: (old["record"].get(k), v) for k, v in new_record.items() if old["record"].get(k) != v}
        print(f"{path}: record differences {changed or 'none'}; "
              f"events {'unchanged' if events == old['events'] else 'CHANGED'}")
        if args.write:
            game["expected"] = {**old, "record": new_record, "events": events}
            path.write_text(json.dumps(game, indent=2) + "\n")
            print(f"  written; now re-check it by hand and update its 'why'")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
