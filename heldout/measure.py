"""A strategy's share against every held-out opponent of a game, with seats rotated.

    python -m heldout.measure sunzi                 # the strong field (-s strong)
    python -m heldout.measure sunzi trained --games 8000 --seed 3
    python -m heldout.measure shuojian strong:my_field.json
    python -m heldout.measure samurai strong --players 5

Every opponent plays the same games (the same seed: common random numbers), and every game
seats the two strategies the other way round from the one before (sim.runner.simulate's
rotate_seats), so neither profits from a seat. Measuring only: nothing trains against these
players (heldout/__init__.py).

With more than two players (Samurai Sword, Parthian Shot, ``--players N``), one held-out player
sits among N - 1 seats of the measured strategy, seats rotated, and the table gives the held-out
seat's share (a shared team win counts for every winner) with its Wilson interval, next to the
field seats' mean share in the same games: in a team game 1/N is not what an average seat gets,
the field is. The target for a multi-player field: no exploiting seat beats the field's share by
more than 5 percentage points (``margin`` = share - field).

Games nobody wins are read as the game's shipped fields are measured (its study's FIELD recipe,
``undecided``; ``--undecided`` overrides): ``apart``, shares of the decided games; ``loss``, a
game nobody wins is lost by every seat, so every share is a win probability over all the games,
with the decided games' share beside it (Parthian Shot: a rout of every seat is a rule outcome,
PS-12, PS-16, and a share of the decided games is a ratio a seat moves by choosing which games
end decided; analysis.field.UNDECIDED).
"""
from __future__ import annotations

import argparse
import dataclasses
import importlib
from pathlib import Path

import pandas as pd

from analysis.field import UNDECIDED, field_recipe, over_all_games
from analysis.training import shares
from sim.errors import BalanceError
from sim.games import get_game
from sim.runner import as_rules

# the games with held-out players: heldout/<game>.py, joined by any heldout/<game>_*.py (modules)
GAMES = tuple(sorted(path.stem for path in Path(__file__).parent.glob("*.py")
                     if "_" not in path.stem and path.stem not in ("measure", "tune")))
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


def undecided_reading(game: str, n_players: int | None = None, undecided: str | None = None) -> str:
    """What a game nobody wins counts for in ``game``'s held-out figures: ``undecided`` if
    given, else as its shipped fields are measured (the FIELD recipe's, "apart" by default)."""
    if undecided is None:
        undecided = (field_recipe(game, n_players) or {}).get("undecided", "apart")
    if undecided not in UNDECIDED:
        raise BalanceError(f"undecided={undecided!r}: choose from {', '.join(UNDECIDED)}")
    return undecided


def read_shares(spec, rules, lineup, n_games: int, seed: int, undecided: str) -> dict:
    """analysis.training.shares (slot 0's share of the decided games, the other seats' mean),
    or with ``undecided="loss"`` the same as win probabilities over every game, the decided
    games' figures kept as decided_share, decided_low, decided_high, decided_field."""
    result = shares(spec, rules, lineup, n_games, seed)
    return over_all_games(result) if undecided == "loss" else result


def share_row(result: dict) -> dict:
    """A read_shares result as a table row: share, low, high (Wilson 95%), field, margin (share
    - field), games, decided, and decided_share when the shares are of every game."""
    return {"share": float(result["share"]), "low": float(result["low"]),
            "high": float(result["high"]), "field": float(result["field"]),
            "margin": float(result["share"] - result["field"]),
            "games": int(result["games"]), "decided": int(result["decided"]),
            **({"decided_share": result["decided_share"]} if "decided_share" in result else {})}


def heldout_table(game: str, field_strategy="strong", n_games: int = 4000, seed: int = SEED,
                  rules=None, n_players: int | None = None,
                  undecided: str | None = None, only=None) -> pd.DataFrame:
    """Two players: ``field_strategy``'s share of the won games against each held-out opponent
    of ``game`` (a draw counts half), with its Wilson 95% interval, over ``n_games`` games with
    seats rotated. One row per opponent: opponent, strategy, share, low, high, games, decided.

    More players (``n_players``, or the rules' count): one held-out seat among the others all
    ``field_strategy``, seats rotated. One row per opponent: opponent, strategy, players, share,
    low, high (the held-out seat's share and its Wilson interval), field (the field seats' mean
    share in the same games), margin (share - field), games, decided; with ``undecided="loss"``
    (undecided_reading) shares of every game, and decided_share beside them. ``only``: the
    names of the opponents to play (all by default), for a slow strategy such as the search."""
    spec = get_game(game)
    rules = with_players(spec, rules, n_players)
    n = rules.n_seats
    undecided = undecided_reading(spec.name, n, undecided)
    roster = players(spec.name)
    unknown = [name for name in only or () if name not in roster]
    if unknown:
        raise BalanceError(f"no held-out {spec.name} player {unknown[0]!r}; heldout/ has "
                           f"{', '.join(roster)}")
    rows = []
    for name, opponent in roster.items():
        if only and name not in only:
            continue
        if n == 2:  # field = 1 - share and margin = 2 share - 1 say nothing more
            row = share_row(read_shares(spec, rules, [field_strategy, opponent], n_games, seed,
                                        undecided))
            del row["field"], row["margin"]
            rows.append({"opponent": name, "strategy": str(field_strategy), **row})
            continue
        rows.append({"opponent": name, "strategy": str(field_strategy), "players": n,
                     **share_row(read_shares(spec, rules, [opponent] + [field_strategy] * (n - 1),
                                             n_games, seed, undecided))})
    return pd.DataFrame(rows)


def add_undecided_option(parser) -> None:
    """``--undecided`` for heldout.measure and heldout.tune (undecided_reading)."""
    parser.add_argument("--undecided", choices=UNDECIDED, default=None,
                        help="what a game nobody wins counts for: apart (shares of the decided "
                             "games) or loss (lost by every seat: shares of all games); default: "
                             "as the game's shipped fields are measured")


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
                        help="number of players, for a game with more than two (samurai: 3-7, "
                             "parthian: 3-6; default: the game's default count)")
    parser.add_argument("--player", action="append", default=None, metavar="NAME",
                        help="only this held-out player (repeat for more; default: every one), "
                             "for a slow strategy: python -m heldout.measure sunzi "
                             "ismcts:rollout=broad --player solver --games 200 --seed 2902")
    add_undecided_option(parser)
    args = parser.parse_args(argv)
    try:
        table = heldout_table(args.game, args.strategy, args.games, args.seed,
                              n_players=args.players, undecided=args.undecided,
                              only=args.player)
    except BalanceError as error:
        parser.exit(2, f"error: {error}\n")
    if "field" in table:
        n = int(table["players"].iloc[0])
        over = ("all the games (a game nobody wins lost by every seat; decided_share: of the "
                "decided games)" if "decided_share" in table else "the decided games")
        print(f"one held-out {args.game} player against {n - 1} seats of {args.strategy}, "
              f"{args.games} games each, seats rotated: the held-out seat's share of {over} "
              f"(Wilson 95%) and the field seats' mean share in the same games (target: "
              f"margin at most {MARGIN:.2f}):")
    else:
        print(f"{args.strategy} against the held-out {args.game} players, {args.games} games "
              f"each, seats rotated (share of the won games, Wilson 95%):")
    print(table.to_string(index=False, float_format=lambda x: f"{x:.3f}"))


if __name__ == "__main__":
    main()
