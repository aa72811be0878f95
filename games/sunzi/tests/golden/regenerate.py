"""Rewrite this game's golden outcomes from the current kernel; run only by hand:

    .venv/bin/python games/sunzi/tests/golden/regenerate.py games/sunzi/tests/golden/NAME.json [--write]
"""
import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[4]), str(Path(__file__).resolve().parents[4] / "tests")]
from golden_games import regenerate  # noqa: E402
from games.sunzi.tests.test_sunzi_golden import seats  # noqa: E402

if __name__ == "__main__":
    raise SystemExit(regenerate(seats))
