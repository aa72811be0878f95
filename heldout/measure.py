"""A strategy's share against every held-out opponent of a game, with seats rotated.

    python -m heldout.measure sunzi                 # the strong field (-s strong)
    python -m heldout.measure sunzi trained --games 8000 --seed 3
    python -m heldout.measure shuojian strong:my_field.json
    python -m heldout.measure samurai strong --players 5

Every opponent plays the same games (the same seed: common random numbers), and every game
seats the two strategies the other way round from the one before (sim.runner.simulate's
rotate_seats), so neither profits from a seat. Measuring only: nothing trains against these
players (heldout/__init__.py).

With more than two players (Samurai Sword, ``--players N``), one held-out player sits among
N - 1 seats of the measured strategy, seats rotated, and the table gives the held-out seat's
share of the decided games (a shared team win counts for every winner) with its Wilson
interval, next to the field seats' mean share in the same games: in a team game 1/N is not what
an average seat gets, the field is. The target for a multi-player field: no exploiting seat
beats the field's share by more than 5 percentage points (``margin`` = share - field).
"""
from __future__ import annotations

import argparse
import dataclasses
import importlib
from pathlib import Path

import pandas as pd

from analysis.training import shares
from sim.errors import BalanceError
from sim.games import get_game
from sim.runner import as_rules

GAMES = ("sunzi", "shuojian", "samurai")   # the games with held-out players (heldout/<game>.py,
                                            # heldout/<game>_*.py: modules)
SEED = 28_000                   # the default seed: issue 28, apart from the seeds training uses
MARGIN = 0.05                   # multi-player target: a seat at most 5 points above the field


def modules(game: str) -> list:
    """The modules holding ``game``'s held-out players: heldout/<game>.py, then every
    heldout/<game>_*.py (players written later by someone else, kept in a file of their own so
    that it stays clear which ones the field's authors have read; each module has its PLAYERS and
    KNOBS)."""
    if game not in GAMES:
        raise BalanceError(f"no held-out players for {game!r}; heldout/ has them for "
                           f"{', '.join(GAMES)}")
    more = sorted(path.stem for path in Path(__file__).parent.glob(f"{game}_*.py"))
    return [importlib.import_module(f"heldout.{name}") for name in [game, *more]]


def players(game: str) -> dict:
    """The held-out players of ``game``, by name (PLAYERS of heldout/<game>.py, then of
    every heldout/<game>_*.py)."""
    roster = {}
    for module in modules(game):
        for name, player in module.PLAYERS.items():
            if name in roster:
                raise BalanceError(f"held-out {game} player {name!r} is defined twice")
            roster[name] = player
    return roster


def with_players(spec, rules, n_players):
    """``rules`` (None, a dict or the game's rules) with ``n_players`` seats, if given."""
    if n_players is None:
        return as_rules(spec, rules)
    if rules is None or isinstance(rules, dict):
        return as_rules(spec, {**(rules or {}), "n_players": int(n_players)})
    return as_rules(spec, {**{f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)},
                           "n_players": int(n_players)})


def heldout_table(game: str, field_strategy="strong", n_games: int = 4000, seed: int = SEED,
                  rules=None, n_players: int | None = None) -> pd.DataFrame:
    """Two players: ``field_strategy``'s share of the won games against each held-out opponent
    of ``game`` (a draw counts half), with its Wilson 95% interval, over ``n_games`` games with
    seats rotated. One row per opponent: opponent, strategy, share, low, high, games, decided.

    More players (``n_players``, or the rules' count): one held-out seat among the others all
    ``field_strategy``, seats rotated. One row per opponent: opponent, strategy, players, share,
    low, high (the held-out seat's share of the decided games and its Wilson interval), field
    (the field seats' mean share in the same games), margin (share - field), games, decided."""
    spec = get_game(game)
    rules = with_players(spec, rules, n_players)
    n = rules.n_seats
    rows = []
    for name, opponent in players(spec.name).items():
        if n == 2:
            result = shares(spec, rules, [field_strategy, opponent], n_games, seed)
            rows.append({"opponent": name, "strategy": str(field_strategy),
                         "share": float(result["share"]), "low": float(result["low"]),
                         "high": float(result["high"]), "games": result["games"],
                         "decided": result["decided"]})
            continue
        result = shares(spec, rules, [opponent] + [field_strategy] * (n - 1), n_games, seed)
        rows.append({"opponent": name, "strategy": str(field_strategy), "players": n,
                     "share": float(result["share"]), "low": float(result["low"]),
                     "high": float(result["high"]), "field": float(result["field"]),
                     "margin": float(result["share"] - result["field"]),
                     "games": result["games"], "decided": result["decided"]})
    return pd.DataFrame(rows)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m heldout.measure", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", help=f"one of {', '.join(GAMES)}")
    parser.add_argument("strategy", nargs="?", default="strong",
                        help="the strategy measured: strong (default), strong:FILE, trained, "
                             "trained:FILE, a built-in, ismcts:...")
    parser.add_argument("--games", type=int, default=4000, help="games per opponent (4000)")
    parser.add_argument("--seed", type=int, default=SEED, help=f"master seed ({SEED})")
    parser.add_argument("--players", type=int, default=None,
                        help="number of players, for a game with more than two (samurai: 3-7; "
                             "default: the game's default count)")
    args = parser.parse_args(argv)
    try:
        table = heldout_table(args.game, args.strategy, args.games, args.seed,
                              n_players=args.players)
    except BalanceError as error:
        parser.exit(2, f"error: {error}\n")
    if "field" in table:
        n = int(table["players"].iloc[0])
        print(f"one held-out {args.game} player against {n - 1} seats of {args.strategy}, "
              f"{args.games} games each, seats rotated: the held-out seat's share of the decided "
              f"games (Wilson 95%) and the field seats' mean share in the same games (target: "
              f"margin at most {MARGIN:.2f}):")
    else:
        print(f"{args.strategy} against the held-out {args.game} players, {args.games} games "
              f"each, seats rotated (share of the won games, Wilson 95%):")
    print(table.to_string(index=False, float_format=lambda x: f"{x:.3f}"))


if __name__ == "__main__":
    main()
