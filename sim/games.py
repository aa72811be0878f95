"""The registered games. Adding a game = adding its package and one import here."""
from . import parthian  # noqa: F401
