"""What every game command reads from its arguments: the game, its rule options, its seats."""
from __future__ import annotations

import argparse
import sys

from sim.errors import BalanceError
from sim.strategy import load_strategy


def add_game_arguments(parser: argparse.ArgumentParser, games: list[str], many: bool = False) -> None:
    """The common game arguments; ``many``: the game is optional and repeatable (GAME ...,
    checked by the command: `balance train --shipped [GAME ...]`)."""
    if many:
        parser.add_argument("game", nargs="*", metavar="GAME",
                            help=f"which game ({', '.join(games)})")
    else:
        parser.add_argument("game", choices=games, help="which game")
    parser.add_argument("--players", type=int, help="number of players (games with a variable count)")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE",
                        help="a rule option (repeatable); `balance options GAME` lists them")
    parser.add_argument("--strategy", "-s", action="append", default=[], metavar="NAME",
                        help="strategy per seat in seat order (repeatable; one = every seat); "
                        "a built-in name or FILE.py:FUNCTION for your own numba.njit strategy or "
                        "Python agent(obs, legal)")
    parser.add_argument("--no-transfer", action="store_true", help="where the strong field "
                        "plays a variant it was not fitted to, do not measure its transfer "
                        "there (a short best-response search, once per variant; it is then "
                        "stated as not measured)")


def game_request(args):
    """(spec, rules, strategies) from the common game arguments (sim.request: the one request
    every front end builds)."""
    from sim.request import request

    options = {}
    for item in args.option:
        if "=" not in item:
            raise BalanceError(f"--option {item!r} must look like KEY=VALUE")
        key, value = item.split("=", 1)
        options[key.strip()] = value.strip()
    asked = request(args.game, options, args.players)
    strategies = [load_strategy(s) for s in args.strategy] or ["random"]
    return asked.spec, asked.rules, strategies


def state_strong_fit(spec, rules, names, args) -> None:
    """Where a seat or level plays the strong field in a variant it was not fitted to: the
    field's measured transfer there (measured now unless --no-transfer, once per variant and
    machine: analysis/fitted.py), on stderr, before the verdict it qualifies."""
    from analysis.fitted import seats_strong, strong_fit

    if not any(seats_strong(n) for n in names):
        return

    fit = strong_fit(spec.name, rules, measure=not getattr(args, "no_transfer", False),
                     jobs=getattr(args, "jobs", 1), progress=not getattr(args, "no_progress", False))
    if fit is not None and not fit.own:
        print(fit.line(), file=sys.stderr)
