"""Golden games, shared by every game's tests: a stored scripted game replayed exactly.

Each ``games/<game>/tests/golden/*.json`` holds the game, its rule options (fixed decks), each seat's
script, the hand-written reasoning ("why") and the expected record and full event list, and
optionally the "seed" of play_one (default 0; regenerate keeps it). A game's
test module supplies ``seats(game_json)``, the strategies that replay its scripts. The replay
and the re-record command live in sim/conformance.py, so a plugin game's tests use them too.
"""
from sim.conformance import assert_replays_exactly, golden_files, regenerate, replay  # noqa: F401
