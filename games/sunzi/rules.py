"""Sunzi / Dynasties rule variant (rules brief: shared/rules/sunzi_dynasties.md, SZ-1..SZ-20,
OP-1..OP-13). Every open point is an option below with the brief's default reading.

Where the brief is silent, the kernel reads it as follows (two of them are options too):
- armies removed by a battle, a Plague or Chu d leave the game (option ``removed_armies``);
- a scoring moves the general region by region, left to right, and a red zone ends the game at
  once, before the other regions score (option ``scoring_steps``);
- the 6 power is the owner's choice (option ``six_power``); its marker comes from supply, else
  from any other region; markers never move, are never removed and are spared by the Plague;
- with ``six_power=always``, a 6 that finds no army for its marker leaves the region's power
  unspent, so a later 6 there may still use it (option ``six_unplaceable``: or it is spent);
- a shortage (SZ-12) is covered one army at a time, the side choosing among its adjacent regions
  with armies, else among all its other regions; what cannot be covered is not placed;
- two Plagues in one region act once; a Plague cancels the battle and so any +2/+3 cost;
  a +2/+3 cost is paid before the winner removes and places;
- the decider fixes the whole reveal order before the first reveal; round 1, and a tie with
  nobody having decided yet, reveal left to right;
- with fewer cards left in the deck a side draws what there is and keeps up to its number;
  nobody draws after round 9;
- advanced buying: White first, then Black, each discarding one card at a time until it passes;
- warlord: both sides choose their leaders before either choice is shown; Sun Wu b needs an army
  in supply; Sun Wu c is declared when the 7-10 is placed (hidden until it is revealed); Chu a
  is offered whenever a Plague would remove his armies; Chu d removes one of White's armies (not
  a marker); Sun Wu d moves one of his armies (not a marker).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.errors import RulesError
from sim.variant import Tunable, Variant, option
from . import layout as L

DEFAULT_REGIONS = ("Xinjiang", "Tibet", "Qinghai", "Mongolia", "Mandarin")  # OP-1, left to right
PUBLISHED_TILES = ((1, 2, 4), (1, 3, 5), (1, 4, 3), (2, 3, 2), (2, 3, 4), (2, 5, 2), (3, 1, 5),
                   (3, 2, 3), (4, 1, 4), (4, 3, 2))   # OP-2: published Sun Tzu edition
LEADERS = ("a", "b", "c", "d")
LEADER_CHOICES = (*LEADERS, "strategy", "none")   # none: no leader (the yardstick)
LEADER_NAMES = {
    L.WHITE: ("outpost: a marker at game start (SZ-16a)", "reinforce: one extra army in round 6 "
              "(SZ-16b)", "as six: a 7-10 played as a 6 (SZ-16c)", "march: move one army to an "
              "adjacent region in round 6 (SZ-16d)"),
    L.BLACK: ("plague immunity (SZ-17a)", "plague lord: his Plague leaves at most one army "
              "(SZ-17b)", "double six: the 6 power twice in one region (SZ-17c)",
              "purge: remove one army in round 6 (SZ-17d)"),
}
DEFAULT_ARMIES = {"basic": 21, "advanced": 18}   # SZ-1, SZ-2
CARD_IDS = {label.lower(): i for i, label in enumerate(L.CARD_LABELS)}


def parse_names(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in str(text).split(",") if part.strip())


def parse_pairs(text: str) -> tuple[tuple[str, str], ...]:
    """'0-1,1-2' or 'Xinjiang-Tibet,...' (region indices or names)."""
    pairs = tuple(tuple(end.strip() for end in part.split("-")) for part in str(text).split(","))
    if any(len(pair) != 2 for pair in pairs):
        raise ValueError(text)
    return pairs


def parse_tiles(text: str) -> tuple[tuple[int, ...], ...]:
    """'1-2-4,1-3-5,...': one tile per comma, its values for rounds 3, 6 and 9."""
    return tuple(tuple(int(v) for v in part.split("-")) for part in str(text).split(","))


@dataclass(frozen=True)
class SunziRules(Variant):
    mode: str = option("basic", "basic (21 armies, no +2/+3) or advanced (18 armies, +2/+3, "
                       "white cards can be discarded for armies)", "SZ-1, SZ-2",
                       choices=("basic", "advanced"))
    warlord: bool = option(False, "each side has one leader card whose power is used once", "SZ-3")
    leader_white: str = option("strategy", "Sun Wu's leader card a-d (SZ-16), 'strategy': "
                               "White's strategy chooses, or 'none': no leader (the ability-less "
                               "yardstick of the card table)", "SZ-3, SZ-16",
                               choices=LEADER_CHOICES)
    leader_black: str = option("strategy", "King of Chu's leader card a-d (SZ-17), 'strategy': "
                               "Black's strategy chooses, or 'none': no leader (the yardstick)",
                               "SZ-3, SZ-17", choices=LEADER_CHOICES)
    regions: tuple[str, ...] = option(DEFAULT_REGIONS, "region names, left to right (1 to 6)",
                                      "OP-1", parse=parse_names)
    adjacency: tuple | None = option(None, "adjacent region pairs like '0-1,1-2' (indices or "
                                     "names); default: a line in region order", "OP-1, SZ-12",
                                     parse=parse_pairs)
    tiles: tuple | None = option(None, "scoring tiles like '1-2-4,1-3-5' (values for rounds 3, 6, "
                                 "9); at least one per region; default: the published 10",
                                 "OP-2, SZ-4", parse=parse_tiles, tune=Tunable(0, 99, span=3))
    track_length: int = option(9, "steps from the centre of the score track to a red zone",
                               "OP-3, SZ-19", tune=Tunable(1, 40, span=4))
    armies: int | None = option(None, "armies per side; default 21 (basic) or 18 (advanced)",
                                "SZ-1, SZ-2", tune=Tunable(1, 99, span=6, per=("mode",)))
    plague_rounding: str = option("seed", "seed: a Plague removes round-half-up(n/2) of each "
                                  "side's n armies; ruling: halve rounding down, never below 1",
                                  "OP-4", choices=("seed", "ruling"))
    fewer_armies: str = option("map", "who has fewer armies (SZ-8): armies on the map, markers "
                               "included, or armies in supply", "OP-5", choices=("map", "supply"))
    split: str = option("choice", "a winner's difference is split between removing and placing "
                        "by the winner's choice, or remove_first (designer's ruling)",
                        "OP-6, SZ-10", choices=("choice", "remove_first"))
    cost_from: str = option("supply_first", "armies lost to a +2/+3 come from supply, then the "
                            "contested region (or region_first), then other regions as SZ-12",
                            "OP-7", choices=("supply_first", "region_first"))
    tied_region: str = option("nobody", "a tied region at scoring scores for nobody, or for the "
                              "side with more markers there", "OP-8", choices=("nobody", "markers"))
    leader_card: str = option("held", "held: the leader power is available from the start; deck: "
                              "the leader card is shuffled into the deck (the seed's text) and "
                              "usable once drawn", "OP-9", choices=("held", "deck"))
    round6_powers: str = option("after_battles", "round-6 leader powers act after round 6's "
                                "battles (before scoring) or at round_start", "OP-9",
                                choices=("after_battles", "round_start"))
    as_six: str = option("full", "Sun Wu c: the 7-10 counts as a 6 in every respect (full) or "
                         "only its value", "OP-10, SZ-16c", choices=("full", "value"))
    chu_plague: str = option("all", "Chu b: every side's armies in the region drop to at most 1 "
                             "(all), or only the opponent's (his own are halved)",
                             "OP-10, SZ-17b", choices=("all", "opponent"))
    buy_timing: str = option("round_start", "advanced mode buys armies at the start of a round "
                             "(before placing) or after_battles", "OP-11, SZ-2",
                             choices=("round_start", "after_battles"))
    full_tie: str = option("draw", "a tie after SZ-20 is a draw (half a win each) or nobody wins",
                           "OP-12", choices=("draw", "nobody"))
    order_timing: str = option("after_placement", "the reveal order is chosen after both sides "
                               "placed their cards, or before_placement", "OP-13, SZ-8",
                               choices=("after_placement", "before_placement"))
    removed_armies: str = option("leave", "armies removed by battle, Plague or purge leave the "
                                 "game, or go back to their owner's supply (rules silent)",
                                 "SZ-10, SZ-11", choices=("leave", "supply"))
    scoring_steps: str = option("region", "the general moves region by region, left to right, "
                                "and a red zone wins at once; or once by the net points "
                                "(rules silent)", "SZ-18, SZ-19", choices=("region", "net"))
    six_power: str = option("choice", "the 6 power (SZ-15, \"可\": may) is the owner's decision "
                            "(choice), or always used when allowed (always)", "SZ-15",
                            choices=("choice", "always"))
    six_unplaceable: str = option("unspent", "with six_power=always, a 6 that finds no army for "
                                  "its marker leaves the region's power unspent (a later 6 "
                                  "there may still use it), or spends it (rules silent)",
                                  "SZ-15", choices=("unspent", "spent"))
    leaders: str = option("public", "warlord leader choices are public from set-up, or hidden "
                          "until the power is first used (the seed adds the card to the own deck)",
                          "SZ-3, OP-9", choices=("public", "hidden"))
    markers: str = option("fixed", "markers never move (fixed), or may be taken to cover a "
                          "shortage (\"unless used for other actions\", SZ-12)", "SZ-15",
                          choices=("fixed", "shortage"))
    order_choice: str = option("whole", "the decider fixes the whole reveal order (whole) or "
                               "picks the next region after each reveal (region_by_region)",
                               "SZ-8, OP-13", choices=("whole", "region_by_region"))
    deck_white: tuple | None = option(None, "White's deck in draw order, e.g. '7,+1,10,plague,...' "
                                      "(scripted and golden games); default: shuffled", "SZ-6",
                                      parse=parse_names)
    deck_black: tuple | None = option(None, "Black's deck in draw order; default: shuffled",
                                      "SZ-6", parse=parse_names)
    removed: tuple | None = option(None, "cards taken out of both sides' decks, e.g. '7,plague' "
                                   "(what a card is worth: the interventional card table); "
                                   "default: none", "SZ-6", parse=parse_names)
    leader_amounts: tuple | None = option(
        None, "the numbers the leader powers print (each 1): Sun Wu a markers placed (SZ-16a), "
        "b armies placed (SZ-16b), d armies moved (SZ-16d), Chu b armies a wiping Plague "
        "leaves (SZ-17b), d armies removed (SZ-17d), e.g. '1,2,1,1,1'; design data the "
        "workbench tunes (knobs leader_amounts[white_b_armies] ...)", "SZ-16, SZ-17",
        parse=lambda text: tuple(int(v) for v in parse_names(text)), tune=Tunable(0, 9, span=2))
    tile_order: tuple | None = option(None, "index into the tile set of each region's tile "
                                      "(scripted games); default: drawn at random", "SZ-4",
                                      parse=lambda text: tuple(int(v) for v in parse_names(text)))

    def __post_init__(self):
        for name in ("regions", "adjacency", "tiles", "deck_white", "deck_black", "tile_order",
                     "removed", "leader_amounts"):
            value = getattr(self, name)
            if isinstance(value, (list, tuple)):
                object.__setattr__(self, name, tuple(
                    tuple(v) if isinstance(v, list) else v for v in value))
        self.check_choices()
        if self.order_choice == "region_by_region" and self.order_timing == "before_placement":
            raise RulesError("order_choice=region_by_region picks each region after the previous "
                             "reveal, so it needs order_timing=after_placement (OP-13)")
        if not isinstance(self.warlord, bool):
            raise RulesError(f"option warlord={self.warlord!r} must be true or false")
        _require_int("track_length", self.track_length)
        if self.track_length < 1:
            raise RulesError(f"track_length={self.track_length} is not allowed: the score track "
                             "needs at least 1 step to each red zone (OP-3)")
        if self.armies is not None:
            _require_int("armies", self.armies)
            if not 0 <= self.armies <= 999:
                raise RulesError(f"armies={self.armies} must be between 0 and 999")
        names = self.regions
        if (not isinstance(names, tuple) or not 1 <= len(names) <= L.MAX_REGIONS
                or any(not isinstance(n, str) or not n for n in names) or len(set(names)) != len(names)):
            raise RulesError(f"regions={names!r} must be 1 to {L.MAX_REGIONS} distinct names (each "
                             "round needs a card per region and a hand always has the 6 yellows)")
        if self.leader_card == "deck" and "none" in (self.leader_white, self.leader_black):
            raise RulesError("leader 'none' (no leader) needs leader_card=held: with the leader "
                             "card in the deck a leader-less side would draw a dead card (OP-9)")
        self.removed_mask()
        self.power_amounts()
        self.adjacency_masks()
        self.tile_set()
        self.tile_indices()
        for seat in (L.WHITE, L.BLACK):
            self.deck_order(seat)

    @property
    def n_seats(self) -> int:
        return 2

    def power_amounts(self) -> tuple[int, ...]:
        """The leader powers' numbers (layout.POWER_AMOUNTS order; the cards print 1 each)."""
        if self.leader_amounts is None:
            return (1,) * len(L.POWER_AMOUNTS)
        values = self.leader_amounts
        if len(values) != len(L.POWER_AMOUNTS) or any(
                isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 9 for v in values):
            raise RulesError(f"leader_amounts={values!r} needs {len(L.POWER_AMOUNTS)} integers "
                             f"0..9: {', '.join(L.POWER_AMOUNTS)} (SZ-16, SZ-17)")
        return tuple(values)

    def start_armies(self) -> int:
        return DEFAULT_ARMIES[self.mode] if self.armies is None else self.armies

    def adjacency_masks(self) -> list[int]:
        """OP-1: bitmask of each region's neighbours (default: a line)."""
        n = len(self.regions)
        if self.adjacency is None:
            edges = [(i, i + 1) for i in range(n - 1)]
        else:
            edges = [tuple(self._region_index(end, edge) for end in _pair(edge))
                     for edge in self.adjacency]
        masks = [0] * n
        for a, b in edges:
            if a == b:
                raise RulesError(f"adjacency edge {a}-{b} joins region {self.regions[a]!r} to "
                                 "itself; an edge needs two different regions")
            masks[a] |= 1 << b
            masks[b] |= 1 << a
        return masks

    def _region_index(self, end, edge) -> int:
        if isinstance(end, str) and end in self.regions:
            return self.regions.index(end)
        try:
            index = int(end)
        except (TypeError, ValueError):
            index = -1
        if isinstance(end, bool) or not 0 <= index < len(self.regions):
            raise RulesError(f"adjacency edge {edge!r}: {end!r} is not a region; use an index "
                             f"0..{len(self.regions) - 1} or one of {', '.join(self.regions)}")
        return index

    def tile_set(self) -> tuple[tuple[int, int, int], ...]:
        """OP-2: the scoring tiles (values after rounds 3, 6, 9)."""
        tiles = PUBLISHED_TILES if self.tiles is None else self.tiles
        for tile in tiles:
            if not isinstance(tile, tuple) or len(tile) != 3 or not all(_small_int(v, 100) for v in tile):
                raise RulesError(f"tiles: {tile!r} is not a scoring tile; each tile is three "
                                 "integers 0..99 (its values after rounds 3, 6 and 9), e.g. 2-3-5")
        if len(tiles) < len(self.regions):
            raise RulesError(f"tiles: {len(tiles)} tile(s) for {len(self.regions)} regions; SZ-4 "
                             "needs at least one tile per region")
        return tuple(tuple(int(v) for v in tile) for tile in tiles)

    def tile_indices(self) -> tuple[int, ...] | None:
        if self.tile_order is None:
            return None
        n_tiles, order = len(self.tile_set()), self.tile_order
        if (len(order) != len(self.regions) or len(set(order)) != len(order)
                or not all(_small_int(i, n_tiles) for i in order)):
            raise RulesError(f"tile_order={order!r} must give each of the {len(self.regions)} "
                             f"regions a different tile index 0..{n_tiles - 1}")
        return order

    def removed_mask(self) -> int:
        """SZ-6: bitmask of the card ids taken out of both decks (option ``removed``)."""
        if self.removed is None:
            return 0
        deck = L.DECK_ADVANCED if self.mode == "advanced" else L.DECK_BASIC
        mask = 0
        for label in self.removed:
            c = CARD_IDS.get(str(label).strip().lower(), -1)
            if c < 0 or not (deck >> c) & 1 or (mask >> c) & 1:
                labels = ", ".join(L.CARD_LABELS[i] for i in range(L.N_CARDS) if (deck >> i) & 1)
                raise RulesError(f"removed={self.removed!r}: {label!r} is not a {self.mode} deck "
                                 f"card (or is named twice); the deck holds {labels} (SZ-6)")
            mask |= 1 << c
        if bin(deck & ~mask).count("1") < 4:
            raise RulesError(f"removed={self.removed!r} leaves fewer than the 4 deck cards of an "
                             "opening hand (SZ-6)")
        return mask

    def deck_cards(self) -> list[int]:
        """Card ids of a side's deck for this mode (SZ-1, SZ-2, OP-9, option removed)."""
        cards = (L.DECK_ADVANCED if self.mode == "advanced" else L.DECK_BASIC) & ~self.removed_mask()
        if self.warlord and self.leader_card == "deck":
            cards |= 1 << L.CARD.LEADER
        return [c for c in range(L.N_CARDS) if (cards >> c) & 1]

    def deck_order(self, seat: int) -> list[int] | None:
        order = self.deck_white if seat == L.WHITE else self.deck_black
        if order is None:
            return None
        name = "deck_white" if seat == L.WHITE else "deck_black"
        ids = [CARD_IDS.get(str(card).strip().lower(), -1) for card in order]
        wanted = self.deck_cards()
        if sorted(ids) != wanted:
            labels = ", ".join(L.CARD_LABELS[c] for c in wanted)
            raise RulesError(f"{name}={order!r} must be an ordering of this mode's deck: {labels}")
        return ids

    def tunable_value(self, name: str):
        if name == "armies":
            return self.start_armies()
        if name == "leader_amounts":
            return self.power_amounts()
        if name == "tiles":  # flat: tile 0's values for rounds 3, 6, 9, then tile 1's, ...
            return tuple(v for tile in self.tile_set() for v in tile)
        return super().tunable_value(name)

    def knob_labels(self, name: str):
        return L.POWER_AMOUNTS if name == "leader_amounts" else None

    def tunable_changes(self, name: str, values: tuple) -> dict:
        if name == "tiles":
            return {name: tuple(tuple(values[i:i + 3]) for i in range(0, len(values), 3))}
        return super().tunable_changes(name, values)

    def kernel_args(self) -> tuple:
        r = np.zeros(L.N_RULES, np.int64)
        r[L.R.N_REGIONS] = len(self.regions)
        r[L.R.ADVANCED] = self.mode == "advanced"
        r[L.R.WARLORD] = self.warlord
        for seat, leader in ((L.WHITE, self.leader_white), (L.BLACK, self.leader_black)):
            r[L.R.LEADER + seat] = (L.LEADER_NONE if leader == "none"   # "strategy" = LEADER_STRATEGY
                                    else LEADER_CHOICES.index(leader))
        r[L.R.REMOVED] = self.removed_mask()
        r[L.R.AMOUNTS:L.R.AMOUNTS + len(L.POWER_AMOUNTS)] = self.power_amounts()
        r[L.R.TRACK] = self.track_length
        r[L.R.ARMIES] = self.start_armies()
        r[L.R.PLAGUE_RULING] = self.plague_rounding == "ruling"
        r[L.R.FEWER_SUPPLY] = self.fewer_armies == "supply"
        r[L.R.REMOVE_FIRST] = self.split == "remove_first"
        r[L.R.COST_REGION_FIRST] = self.cost_from == "region_first"
        r[L.R.TIE_MARKERS] = self.tied_region == "markers"
        r[L.R.LEADER_IN_DECK] = self.leader_card == "deck"
        r[L.R.ROUND6_AT_START] = self.round6_powers == "round_start"
        r[L.R.AS_SIX_VALUE] = self.as_six == "value"
        r[L.R.WIPE_OPPONENT] = self.chu_plague == "opponent"
        r[L.R.BUY_AT_END] = self.buy_timing == "after_battles"
        r[L.R.TIE_NOBODY] = self.full_tie == "nobody"
        r[L.R.ORDER_BEFORE] = self.order_timing == "before_placement"
        r[L.R.REMOVED_TO_SUPPLY] = self.removed_armies == "supply"
        r[L.R.SCORE_NET] = self.scoring_steps == "net"
        r[L.R.SIX_ALWAYS] = self.six_power == "always"
        r[L.R.LEADERS_HIDDEN] = self.leaders == "hidden"
        r[L.R.MARKERS_MOVE] = self.markers == "shortage"
        r[L.R.ORDER_EACH] = self.order_choice == "region_by_region"
        r[L.R.SIX_SPENT] = self.six_unplaceable == "spent"
        tiles = np.array(self.tile_set(), np.int64).reshape(-1, 3)
        adj = np.zeros(L.MAX_REGIONS, np.int64)
        adj[:len(self.regions)] = self.adjacency_masks()
        decks = np.full((2, L.DECK_MAX), -1, np.int64)
        for seat in (L.WHITE, L.BLACK):
            order = self.deck_order(seat)
            if order is not None:  # a row of -1 = shuffled
                decks[seat, :len(order)] = order
        fixed_tiles = np.zeros(L.MAX_REGIONS, np.int64)
        if self.tile_order is not None:
            r[L.R.FIXED_TILES] = 1
            fixed_tiles[:len(self.tile_order)] = self.tile_order
        return r, tiles, adj, decks, fixed_tiles

    def to_dict(self, options_only: bool = False) -> dict:
        d = super().to_dict()
        for name in ("adjacency", "tiles"):
            if d[name] is not None:
                d[name] = [list(v) for v in d[name]]
        return d


def _pair(edge):
    if not isinstance(edge, (tuple, list)) or len(edge) != 2:
        raise RulesError(f"adjacency edge {edge!r} must be a pair of regions, like (0, 1) or '0-1'")
    return edge


def _small_int(value, limit) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, np.integer)) and 0 <= value < limit


def _require_int(name, value):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise RulesError(f"option {name}={value!r} must be an integer")
