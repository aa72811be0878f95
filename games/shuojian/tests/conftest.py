"""Fixtures for the Shuo Jian tests; the helpers themselves are in sj_script.py."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
