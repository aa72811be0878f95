"""Sunzi / Dynasties' cards for the interventional card table (analysis/interventions.py, issue 17).

Rule ids refer to shared/rules/sunzi_dynasties.md. Seat 0 is always White (Sun Wu), seat 1 Black
(King of Chu): a batch with rotated seats rotates the strategies, never the sides.

Every card is changed through a rule option of games/sunzi/rules.py:

- **deck cards** (SZ-6: 7-10, +1, -1, Plague; +2 and +3 in advanced mode, SZ-2): ``remove one``
  takes the card out of both sides' decks (option ``removed``; each deck holds one copy). Read on
  the seats dealt it in the unchanged game (``opening_{seat}``). A hand is a set of distinct
  cards (no blank, no second copy), so a card can be neither replaced by a neutral one nor have
  its number moved by one (a 7 + 1 is the deck's own 8).
- **leaders** (warlord mode, SZ-3, SZ-16, SZ-17): ``yardstick`` plays the side without a leader
  (``leader_white`` / ``leader_black`` = ``none``), the other side's leader unchanged. Read on
  that side's win rate (``win_white`` / ``win_black``). A side whose leader is fixed (``a``-``d``)
  has that leader's card; a side whose strategy picks has one card, "the strategy's pick" (the
  built-ins draw it from the equilibrium of the fixed pairings at strong play,
  games.sunzi.strategies.LEADER_PICK, so its effect is the worth of the leaders strong play picks).
- **scoring tiles** (SZ-4, OP-2): ``+1`` / ``-1`` moves all three values of one tile by one
  (option ``tiles``). A tile belongs to neither side: read on White's win rate.
- **armies** (SZ-1, SZ-2): ``+1`` / ``-1`` per side through ``armies``; the rules have one army
  count for both sides (no per-side armies), so this is both sides at once, read on White's win
  rate.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from games.sunzi import layout as L
from games.sunzi.rules import LEADER_NAMES, LEADERS

from analysis.interventions import HOLDER, REMOVE, UP, DOWN, YARDSTICK, Card

SIDE_NAMES = {L.WHITE: "White", L.BLACK: "Black"}
WIN = {L.WHITE: "win_white", L.BLACK: "win_black"}
LEADER_OPTION = {L.WHITE: "leader_white", L.BLACK: "leader_black"}
NUMBERS = ("7", "8", "9", "10")


def _remove(label: str):
    def change(rules):
        return rules.replace(removed=(*(rules.removed or ()), label))
    return change


def _shift_tile(index: int, step: int):
    def change(rules):
        tiles = list(rules.tile_set())
        tiles[index] = tuple(v + step for v in tiles[index])
        return rules.replace(tiles=tuple(tiles))
    return change


def deck_cards(rules) -> list[Card]:
    """The white and special cards of the mode's deck that the variant still holds (SZ-6)."""
    removed = rules.removed_mask()
    out = []
    for card_id in rules.deck_cards():
        if card_id == L.CARD.LEADER or (removed >> card_id) & 1:
            continue
        label = L.CARD_LABELS[card_id]
        out.append(Card(label, "number card" if label in NUMBERS else "special card",
                        {REMOVE: _remove(label)}, owner=HOLDER,
                        held=("opening_{seat}", card_id - L.RECORD_CARD_SHIFT),
                        drawn="drawn_{seat}",
                        value=float(label) if label in NUMBERS else None))
    return out


def leader_cards(rules) -> list[Card]:
    """Each side's leader card (warlord, SZ-3), swapped for no leader (the yardstick)."""
    if not rules.warlord:
        return []
    out = []
    for seat in (L.WHITE, L.BLACK):
        option = LEADER_OPTION[seat]
        leader = getattr(rules, option)
        if leader == "none":
            continue
        if leader in LEADERS:
            name = f"{SIDE_NAMES[seat]} leader {leader}"
            kind = f"leader ({LEADER_NAMES[seat][LEADERS.index(leader)].split(':')[0]})"
        else:
            name, kind = f"{SIDE_NAMES[seat]} leader (strategy's pick)", "leader"
        # optional (the kernel asks before each use: decisions power and target), so the
        # table's dominance check reads a leader that costs its side as a play artifact
        out.append(Card(name, kind, {YARDSTICK: {option: "none"}}, owner=WIN[seat],
                        optional=True))
    return out


def tile_cards(rules) -> list[Card]:
    """Each scoring tile (SZ-4), its three values one up / one down (0 is the lowest value)."""
    out = []
    for i, tile in enumerate(rules.tile_set()):
        changes = {UP: _shift_tile(i, +1)} if max(tile) < 99 else {}
        if min(tile) > 0:
            changes[DOWN] = _shift_tile(i, -1)
        out.append(Card(f"tile {i} ({'-'.join(map(str, tile))})", "tile", changes,
                        owner=WIN[L.WHITE], value=float(sum(tile))))
    return out


def army_cards(rules) -> list[Card]:
    """One army more / fewer for both sides (SZ-1, SZ-2: one count, no per-side armies)."""
    armies = rules.start_armies()
    changes = {UP: {"armies": armies + 1}}
    if armies > 0:
        changes[DOWN] = {"armies": armies - 1}
    return [Card("armies (both sides)", "armies", changes, owner=WIN[L.WHITE],
                 value=float(armies))]


def cards(rules) -> list[Card]:
    """Every card of this variant with the interventions that make sense for it."""
    return [*deck_cards(rules), *leader_cards(rules), *tile_cards(rules), *army_cards(rules)]


def game_metrics(records: pd.DataFrame, n_seats: int) -> dict[str, np.ndarray]:
    """Per game: each side's win share (a draw is 1/2, OP-12) and White's edge over Black.
    Seat 0 is White in every game (rotated batches rotate strategies, not sides)."""
    white = records[f"win_{L.WHITE}"].to_numpy(float)
    black = records[f"win_{L.BLACK}"].to_numpy(float)
    return {"win_white": white, "win_black": black, "white_edge": white - black}
