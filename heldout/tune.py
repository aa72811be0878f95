"""Tune a held-out player against a strategy: the reviewers' exploitability check, reproduced.

    python -m heldout.tune sunzi trained --player concentrate
    python -m heldout.tune sunzi strong:my_field.json --player spread --settings 150 --games 1000
    python -m heldout.tune samurai strong --player avenger --players 5 --jobs 2 --out tried.csv

Issue 28's reviewers check a strong field with private opponents written from the rules and
*tuned against the field*: a random search over the opponent's knobs. This does the same with
the held-out players (heldout/<game>.py): ``--settings`` random settings of the player's knobs
(its ``params``, each drawn uniformly from the module's ``KNOBS`` range for that knob; setting 0
is the player as described, all zeros), each measured over ``--games`` games against the
strategy with seats rotated, every setting on the same games (one seed: common random numbers,
so settings differ by their play, not their luck).

The search's best figure is biased upward: it is the largest of many noisy figures, and some of
its lead is luck. So the best setting is re-measured on ``--check`` fresh games (another seed,
derived from ``--seed``) with a Wilson 95% interval, and that figure is the result; the
defaults are re-measured on the same fresh games beside it.

Two players: the held-out player's share of the decided games (a draw counts half). More
players (``--players N``): one held-out seat among N - 1 seats of the strategy, and the search
maximises ``margin`` = the held-out seat's share - the field seats' mean share in the same games
(as heldout.measure reports it). Games nobody wins are read as heldout.measure reads them (the
game's field recipe, or ``--undecided``): with ``loss`` every share is over all the games, so
the search cannot raise its figure by leaving fewer games decided.

Against a strong field (``strong`` or ``strong:FILE``) the best setting is also played against
each member the mixture draws, alone (``--members`` games each): the field's figure averages
its members', and a member the player beats far more often than the others shows here. That is
where the next field's work lies (docs/training.md, "Sunzi's fifth field, member by member").

Measuring only: the tuned settings are never a training opponent (heldout/__init__.py). The
search runs settings in parallel with ``--jobs``; every setting is seeded by what it measures,
so the table is the same for any number of jobs.
"""
from __future__ import annotations

import argparse
import zlib

import numpy as np
import pandas as pd

from sim.core.state import MIXTURE
from sim.errors import BalanceError
from sim.games import get_game
from sim.strategy import field_members, lookup

from heldout.measure import (add_undecided_option, modules, players, read_shares, share_row,
                             undecided_reading, with_players)

SEED = 28_150                   # issue 28, apart from heldout.measure's 28_000
TOP = 10                        # settings printed (--out keeps them all)


def knobs(game: str, player: str) -> list[tuple[float, float]]:
    """The search range (lo, hi) of each knob of a held-out player (KNOBS of the module that
    defines it: heldout/<game>.py or a heldout/<game>_*.py)."""
    roster = players(game)
    if player not in roster:
        raise BalanceError(f"no held-out {game} player {player!r}; heldout/{game}.py has "
                           f"{', '.join(roster)}")
    ranges = next((module.KNOBS.get(player) for module in modules(game)
                   if player in module.PLAYERS), None)
    if not ranges:
        raise BalanceError(f"held-out {game} player {player!r} declares no KNOBS to tune")
    return [(float(lo), float(hi)) for lo, hi in ranges]


def draw_settings(ranges, n_settings: int, seed: int) -> np.ndarray:
    """``n_settings`` rows of knob values: row 0 all zeros (the player as described), the others
    uniform in each knob's range; the same seed gives the same rows."""
    rng = np.random.default_rng([seed, 0x7E5])      # a stream of its own, apart from the games'
    lo, hi = np.array(ranges).T
    values = lo + (hi - lo) * rng.random((n_settings, len(ranges)))
    values[0] = 0.0
    return values


def check_seed(seed: int) -> int:
    """The re-measure's seed: fresh games, never the search's (nor a nearby seed's)."""
    return zlib.crc32(f"heldout.tune/check/{seed}".encode())


def measure(game: str, player: str, values, strategy, n_games: int, seed: int,
            n_players: int | None = None, undecided: str = "apart", options=None) -> dict:
    """One setting of ``player`` against ``strategy`` over ``n_games`` games, seats rotated:
    share, low, high (Wilson 95%), field and margin (share - field), games, decided; shares of
    every game with ``undecided="loss"`` (heldout.measure.read_shares). Runs in a worker too,
    so it takes names, not objects; ``options``: the variant's rule options."""
    spec = get_game(game)
    rules = with_players(spec, options, n_players)
    n = rules.n_seats
    tuned = players(game)[player].with_params(*values, name=f"heldout-{player}")
    return share_row(read_shares(spec, rules, [tuned] + [strategy] * (n - 1), n_games, seed,
                                 undecided))


def tune(game: str, strategy="strong", player: str = "", n_settings: int = 150,
         n_games: int = 1000, n_check: int = 8000, seed: int = SEED,
         n_players: int | None = None, jobs: int = 1, progress: bool = False,
         n_members: int = 2000, undecided: str | None = None, options=None) -> dict:
    """Random search over ``player``'s knobs against ``strategy`` (in the variant of the rule
    ``options``, default the default rules); returns a dict:

    settings : DataFrame, one row per setting tried (setting, k0.., share, low, high, field,
        margin, games, decided, score), in the order drawn; ``score`` is what the search
        maximises (share with two players, margin with more).
    best : the best setting's row (the search's own figure, biased upward by selection).
    check : the best setting re-measured on ``n_check`` fresh games (seed ``check_seed``): the
        result. default : the defaults (setting 0) on the same fresh games.
    members : against a strong field, the best setting against each member it draws, alone,
        over ``n_members`` fresh games (0: not measured; None for any other strategy).
    players, seed, check_seed, undecided : what was played, and how a game nobody wins was
        read (heldout.measure.undecided_reading)."""
    spec = get_game(game)
    ranges = knobs(spec.name, player)
    for label, value in (("settings", n_settings), ("games", n_games), ("check games", n_check)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
            raise BalanceError(f"number of {label} must be a positive integer, got {value!r}")
    if isinstance(n_members, bool) or not isinstance(n_members, (int, np.integer)) or n_members < 0:
        raise BalanceError(f"number of member games must be a whole number >= 0 (0: skip), "
                           f"got {n_members!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise BalanceError(f"seed must be a non-negative integer, got {seed!r}")
    if isinstance(jobs, bool) or not isinstance(jobs, (int, np.integer)) or jobs == 0 or jobs < -1:
        raise BalanceError(f"jobs must be a positive integer or -1 (all cores), got {jobs!r}")
    rules = with_players(spec, options, n_players)
    n = rules.n_seats
    undecided = undecided_reading(spec.name, n, undecided)
    seat = lookup(spec, strategy, n, rules)   # an unknown strategy fails here, not in a worker
    values = draw_settings(ranges, int(n_settings), seed)
    tasks = [(spec.name, player, tuple(row), strategy, int(n_games), seed, n_players, undecided,
              options) for row in values]
    results = run_all(tasks, jobs, progress, f"{player} vs {strategy}")
    table = pd.DataFrame(values, columns=[f"k{i}" for i in range(len(ranges))])
    table.insert(0, "setting", np.arange(len(values)))
    table = pd.concat([table, pd.DataFrame(results)], axis=1)
    table["score"] = table["share"] if n == 2 else table["margin"]
    # the best by score; ties (and NaN: no decided game) go to the earliest setting
    best = table.loc[table["score"].fillna(-np.inf).idxmax()]
    fresh = check_seed(seed)
    best_values = tuple(best[[f"k{i}" for i in range(len(ranges))]])
    check = measure(spec.name, player, best_values, strategy, int(n_check), fresh, n_players,
                    undecided, options)
    default = check if int(best["setting"]) == 0 else measure(
        spec.name, player, tuple(values[0]), strategy, int(n_check), fresh, n_players,
        undecided, options)
    members = None
    if n_members and seat.builtin == MIXTURE and seat.source is not None:  # a field file
        members = member_table(spec.name, player, best_values, strategy, int(n_members), fresh,
                               n_players, undecided)
    return {"settings": table, "best": best, "check": check, "default": default,
            "members": members, "players": n, "seed": seed, "check_seed": fresh,
            "undecided": undecided}


def member_table(game: str, player: str, values, strategy, n_games: int, seed: int,
                 n_players: int | None = None, undecided: str = "apart") -> pd.DataFrame:
    """One setting of ``player`` against each member of the field ``strategy`` seated alone
    (sim.strategy.field_members): member, probability, then measure's columns."""
    spec = get_game(game)
    n = with_players(spec, None, n_players).n_seats
    rows = [{"member": seat.name, "probability": probability,
             **measure(game, player, values, seat, n_games, seed, n_players, undecided)}
            for probability, seat in field_members(spec, strategy, n)]
    return pd.DataFrame(rows)


def run_all(tasks, jobs: int, progress: bool, label: str) -> list[dict]:
    """Every setting's measure, in the order given, with a progress bar over settings."""
    from tqdm.auto import tqdm

    bar = tqdm(total=len(tasks), desc=label, unit="setting", disable=not progress)
    if jobs == 1:
        results = []
        for task in tasks:
            results.append(measure(*task))
            bar.update()
    else:
        from joblib import Parallel, delayed

        # generator: the bar moves as settings finish; the order stays the tasks' order
        run = Parallel(n_jobs=jobs, return_as="generator")(delayed(measure)(*t) for t in tasks)
        results = []
        for result in run:
            results.append(result)
            bar.update()
    bar.close()
    return results


def fmt(result: dict) -> str:
    if "decided_share" in result:  # undecided="loss": a share of every game
        decided = ("" if result["decided_share"] is None
                   else f"; {result['decided_share']:.3f} of them")
        return (f"{result['share']:.3f} ({result['low']:.3f}-{result['high']:.3f}) of all "
                f"{result['games']} games ({result['decided']} decided{decided})")
    return (f"{result['share']:.3f} ({result['low']:.3f}-{result['high']:.3f}) of "
            f"{result['decided']} decided games")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m heldout.tune", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", help="a game with held-out players (heldout/<game>.py)")
    parser.add_argument("strategy", nargs="?", default="strong",
                        help="the strategy measured: strong (default), strong:FILE, trained, "
                             "trained:FILE, a built-in")
    parser.add_argument("--player", required=True,
                        help="the held-out player tuned (heldout/<game>.py: PLAYERS)")
    parser.add_argument("--settings", type=int, default=150,
                        help="settings tried, the defaults first (150)")
    parser.add_argument("--games", type=int, default=1000, help="games per setting (1000)")
    parser.add_argument("--check", type=int, default=8000,
                        help="fresh games re-measuring the best setting (8000)")
    parser.add_argument("--seed", type=int, default=SEED, help=f"master seed ({SEED})")
    parser.add_argument("--players", type=int, default=None,
                        help="number of players, for a game with more than two (samurai: 3-7, "
                             "parthian: 3-6)")
    add_undecided_option(parser)
    parser.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE",
                        help="a rule option of the variant played (repeatable; -s strong seats "
                             "the field -s strong finds there)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="settings measured at once (-1: all cores); same table for any")
    parser.add_argument("--members", type=int, default=2000,
                        help="against a strong field: games of the best setting against each "
                             "member alone (2000; 0: skip)")
    parser.add_argument("--out", default=None, help="write every setting tried to this CSV")
    args = parser.parse_args(argv)
    try:
        result = tune(args.game, args.strategy, args.player, args.settings, args.games,
                      args.check, args.seed, args.players, args.jobs, progress=True,
                      n_members=args.members, undecided=args.undecided,
                      options=dict(item.split("=", 1) for item in args.option) or None)
    except BalanceError as error:
        parser.exit(2, f"error: {error}\n")
    table, best, n = result["settings"], result["best"], result["players"]
    if args.out:
        table.to_csv(args.out, index=False)
    what = "share" if n == 2 else "margin (share - field)"
    seats = (f"against {args.strategy}" if n == 2
             else f"one seat against {n - 1} seats of {args.strategy}")
    print(f"held-out {args.game} player {args.player}, {seats}: {len(table)} settings x "
          f"{args.games} games (seed {args.seed}, seats rotated, the same games for every "
          f"setting); the search maximises the held-out {what}. Best {TOP}:")
    shown = table.sort_values("score", ascending=False, kind="stable").head(TOP)
    # two players: field = 1 - share and margin = 2 share - 1 say nothing more; the score is
    # the share or the margin, shown already
    hidden = ["games", "score"] + (["field", "margin"] if n == 2 else [])
    print(shown.drop(columns=hidden).to_string(index=False, float_format=lambda x: f"{x:.3f}"))
    check, default = result["check"], result["default"]
    extra = "" if n == 2 else f", field {best['field']:.3f}, margin {best['margin']:+.3f}"
    print(f"\nsearch's best: setting {int(best['setting'])}, share {best['share']:.3f} "
          f"({best['low']:.3f}-{best['high']:.3f}){extra}; biased upward: the best of "
          f"{len(table)} noisy figures")
    extra = "" if n == 2 else f", field {check['field']:.3f}, margin {check['margin']:+.3f}"
    print(f"re-measured on {args.check} fresh games (seed {result['check_seed']}): "
          f"{fmt(check)}{extra}  <- the result")
    extra = "" if n == 2 else f", field {default['field']:.3f}, margin {default['margin']:+.3f}"
    print(f"the defaults on the same fresh games: {fmt(default)}{extra}")
    members = result["members"]
    if members is not None and len(members):
        print(f"\nthe best setting against each member of the field alone ({args.members} games "
              f"each; the field's figure weighs them by probability):")
        shown = members[["member", "probability", "share", "low", "high"]
                        + ([] if n == 2 else ["margin"]) + ["decided"]]
        print(shown.to_string(index=False, float_format=lambda x: f"{x:.3f}"))


if __name__ == "__main__":
    main()
