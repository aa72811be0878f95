"""Fixtures for the Sunzi / Dynasties tests; the helpers themselves are in sunzi_script.py."""
import pytest
from .sunzi_script import play_game


@pytest.fixture
def play():
    return play_game
