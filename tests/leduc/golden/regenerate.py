"""Rewrite this game's golden outcomes from the current kernel; run only by hand:

    .venv/bin/python tests/leduc/golden/regenerate.py tests/leduc/golden/NAME.json [--write]
"""
import sys
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1]), str(Path(__file__).resolve().parents[2])]
from golden_games import regenerate  # noqa: E402
from test_leduc_golden import seats  # noqa: E402

if __name__ == "__main__":
    raise SystemExit(regenerate(seats))
