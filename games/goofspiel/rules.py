"""Goofspiel rule variant (rule ids GS-1..GS-9: games/goofspiel/RULES.md).

The options are OpenSpiel's goofspiel parameters with the same names and defaults
(``num_cards``=13, ``players``=2, ``points_order``="random", ``returns_type``="win_loss",
``imp_info``=False, ``num_turns``=-1), so that a variant here and
``pyspiel.load_game("goofspiel", params)`` are the same game (games/goofspiel/tests checks it).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.errors import RulesError
from sim.variant import Tunable, Variant, option, parse_int_tuple
from . import layout as L


@dataclass(frozen=True)
class GoofspielRules(Variant):
    num_cards: int = option(13, f"cards per player and prize cards: 1..N ({L.MIN_CARDS} to "
                            f"{L.MAX_CARDS})", "GS-1", tune=Tunable(L.MIN_CARDS, L.MAX_CARDS))
    players: int = option(2, f"number of players, {L.MIN_PLAYERS} to {L.MAX_PLAYERS}", "GS-1")
    points_order: str = option("random", "order of the prize deck: 'random' (shuffled), "
                               "'descending' (N first) or 'ascending' (1 first)", "GS-2",
                               choices=L.POINTS_ORDERS)
    returns_type: str = option("win_loss", "what a finished game is worth to each seat: "
                               "'win_loss' (+1/k to the k winners, -1/m to the m others, 0 in a "
                               "draw), 'point_difference' (points minus the mean) or "
                               "'total_points'; see games.goofspiel.rules.returns", "GS-8",
                               choices=L.RETURNS_TYPES)
    imp_info: bool = option(False, "imperfect information: bids are never shown, only who took "
                            "each prize (OpenSpiel's imp_info)", "GS-9")
    num_turns: int = option(-1, "turns to play (-1 = num_cards, every card)", "GS-6")
    prize_order: tuple[int, ...] | None = option(
        None, "deal the prizes in this order (values 1..N) instead of by points_order "
        "(scripted and golden games)", "GS-2", parse=parse_int_tuple)

    def __post_init__(self):
        if self.prize_order is not None and not isinstance(self.prize_order, tuple):
            object.__setattr__(self, "prize_order", tuple(self.prize_order))
        for name in ("num_cards", "players", "num_turns"):
            _require_int(name, getattr(self, name))
        if not L.MIN_CARDS <= self.num_cards <= L.MAX_CARDS:
            raise RulesError(f"num_cards={self.num_cards} must be between {L.MIN_CARDS} and "
                             f"{L.MAX_CARDS} (GS-1)")
        if not L.MIN_PLAYERS <= self.players <= L.MAX_PLAYERS:
            raise RulesError(f"players={self.players} is not allowed; Goofspiel here is for "
                             f"{L.MIN_PLAYERS} to {L.MAX_PLAYERS} players (GS-1)")
        if self.num_turns != -1 and not 1 <= self.num_turns <= self.num_cards:
            raise RulesError(f"num_turns={self.num_turns} must be -1 (every card) or between 1 "
                             f"and num_cards={self.num_cards} (GS-6)")
        if not isinstance(self.imp_info, (bool, np.bool_)):
            raise RulesError(f"option imp_info={self.imp_info!r} must be true or false")
        self.check_choices()
        if self.prize_order is not None:
            if self.points_order != "random":
                raise RulesError(f"prize_order={self.prize_order} fixes the shuffle of "
                                 f"points_order='random'; it cannot go with "
                                 f"points_order={self.points_order!r}")
            for value in self.prize_order:
                _require_int("prize_order", value)
            if sorted(self.prize_order) != list(range(1, self.num_cards + 1)):
                raise RulesError(f"prize_order={self.prize_order} must be an ordering of the "
                                 f"prize values 1..{self.num_cards} (GS-2)")

    @property
    def n_seats(self) -> int:
        return self.players

    @property
    def turns(self) -> int:
        return self.num_cards if self.num_turns == -1 else self.num_turns

    def openspiel_params(self) -> dict:
        """The same game as OpenSpiel's ``goofspiel`` parameters (prize_order has no equivalent)."""
        return {"num_cards": self.num_cards, "players": self.players,
                "points_order": self.points_order, "returns_type": self.returns_type,
                "imp_info": bool(self.imp_info), "num_turns": self.num_turns}

    def kernel_args(self) -> tuple:
        rules = np.zeros(L.N_RULES, np.int64)
        rules[L.R.CARDS] = self.num_cards
        rules[L.R.PLAYERS] = self.players
        rules[L.R.TURNS] = self.turns
        rules[L.R.ORDER] = L.POINTS_ORDERS.index(self.points_order)
        rules[L.R.RETURNS] = L.RETURNS_TYPES.index(self.returns_type)
        rules[L.R.IMP_INFO] = int(self.imp_info)
        rules[L.R.FIXED_DECK] = int(self.prize_order is not None)
        if self.prize_order is not None:
            deck = self.prize_order
        elif self.points_order == "descending":
            deck = range(self.num_cards, 0, -1)
        else:  # ascending, or the unshuffled deck that "random" shuffles each game
            deck = range(1, self.num_cards + 1)
        return rules, np.array(list(deck), np.int64)


def _require_int(name, value):
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise RulesError(f"option {name}={value!r} must be an integer")


def returns(points: np.ndarray, returns_type: str = "win_loss") -> np.ndarray:
    """GS-8: OpenSpiel's returns of finished games from their points (float64[n_games, seats]).

    ``points`` is int[n_games, seats] (the record's ``points_<seat>`` columns). win_loss: the k
    seats with the most points get 1/k each and the others -1/(seats - k); all equal = 0 each.
    """
    points = np.asarray(points, np.float64)
    if returns_type not in L.RETURNS_TYPES:
        raise RulesError(f"returns_type={returns_type!r} is not allowed; choose one of "
                         f"{', '.join(map(repr, L.RETURNS_TYPES))}")
    if returns_type == "total_points":
        return points.copy()
    if returns_type == "point_difference":
        return points - points.mean(axis=1, keepdims=True)
    top = points == points.max(axis=1, keepdims=True)
    k = top.sum(axis=1, keepdims=True)
    losers = points.shape[1] - k
    out = np.where(top, 1.0 / k, -1.0 / np.maximum(losers, 1))
    out[(losers == 0)[:, 0]] = 0.0
    return out
