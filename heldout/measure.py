"""A strategy's share against every held-out opponent of a game, with seats rotated.

    python -m heldout.measure sunzi                 # the strong field (-s strong)
    python -m heldout.measure sunzi trained --games 8000 --seed 3
    python -m heldout.measure shuojian strong:my_field.json

Every opponent plays the same games (the same seed: common random numbers), and every game
seats the two strategies the other way round from the one before (sim.runner.simulate's
rotate_seats), so neither profits from a seat. Measuring only: nothing trains against these
players (heldout/__init__.py).
"""
from __future__ import annotations

import argparse
import importlib

import pandas as pd

from analysis.training import shares
from sim.errors import BalanceError
from sim.games import get_game
from sim.runner import as_rules

GAMES = ("sunzi", "shuojian")   # the games with held-out players (heldout/<game>.py)
SEED = 28_000                   # the default seed: issue 28, apart from the seeds training uses


def players(game: str) -> dict:
    """The held-out players of ``game``, by name (heldout/<game>.py: PLAYERS)."""
    if game not in GAMES:
        raise BalanceError(f"no held-out players for {game!r}; heldout/ has them for "
                           f"{', '.join(GAMES)}")
    return importlib.import_module(f"heldout.{game}").PLAYERS


def heldout_table(game: str, field_strategy="strong", n_games: int = 4000, seed: int = SEED,
                  rules=None) -> pd.DataFrame:
    """``field_strategy``'s share of the won games against each held-out opponent of ``game``
    (a draw counts half), with its Wilson 95% interval, over ``n_games`` games with seats
    rotated. One row per opponent: opponent, strategy, share, low, high, games, decided."""
    spec = get_game(game)
    rules = as_rules(spec, rules)
    rows = []
    for name, opponent in players(spec.name).items():
        result = shares(spec, rules, [field_strategy, opponent], n_games, seed)
        rows.append({"opponent": name, "strategy": str(field_strategy),
                     "share": float(result["share"]), "low": float(result["low"]),
                     "high": float(result["high"]), "games": result["games"],
                     "decided": result["decided"]})
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
    args = parser.parse_args(argv)
    try:
        table = heldout_table(args.game, args.strategy, args.games, args.seed)
    except BalanceError as error:
        parser.exit(2, f"error: {error}\n")
    print(f"{args.strategy} against the held-out {args.game} players, {args.games} games each, "
          f"seats rotated (share of the won games, Wilson 95%):")
    print(table.to_string(index=False, float_format=lambda x: f"{x:.3f}"))


if __name__ == "__main__":
    main()
