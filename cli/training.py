"""``balance train`` and ``balance exploit``: learn a game's policy, and look for a dominant one."""
from __future__ import annotations

import argparse
import textwrap
from pathlib import Path

from sim.errors import BalanceError


def add_commands(commands, games: list[str], add_game_arguments, all_cores: int) -> None:
    train = commands.add_parser(
        "train", help="learn a fast policy for a game (evolution strategies against a pool)",
        description=textwrap.fill("Train the game's linear policy over its features (sim/core/policy.py) "
        "with CMA-ES: each candidate plays every opponent of the pool, seats rotated, all "
        "candidates of a generation on the same games; the policy of earlier generations "
        "joins the pool as training goes. Writes the policy file where -s trained seats it "
        "(or --out FILE: -s trained:FILE), its learning curve (PNG, CSV) and its strength "
        "against every built-in with 95% intervals (docs/training.md); without --players or "
        "--out, one policy for each player count of the recipe's players. With --shipped, retrains every "
        "shipped policy (the game's policies/ folder) from its game's recipe instead.", 88),
        epilog="examples:\n  balance train sunzi --jobs 1          (one game, as its shipped "
        "policy was trained)\n  balance train --shipped               (every shipped policy, "
        "from the recipes)\n  balance train --shipped sunzi shuojian (those games' shipped "
        "policies)", formatter_class=argparse.RawDescriptionHelpFormatter)
    add_game_arguments(train, games, many=True)
    _training_arguments(train, all_cores)
    train.add_argument("--shipped", action="store_true",
                       help="regenerate the shipped policies of the games named (default every "
                       "game with a training recipe) from their recipes (analysis.training."
                       "regenerate_shipped), into the game's policies/ folder or the folder --out; the "
                       "other training options are ignored")
    train.add_argument("--against", action="append", metavar="STRATEGY",
                       help="an opponent of the pool, as -s takes it (a built-in, trained[:FILE], "
                       "strong[:FILE] or FILE.py:FUNCTION; repeatable; default: every built-in "
                       "but random and the held-out one); the first is the learning curve's "
                       "yardstick")
    train.add_argument("--hold-out", metavar="STRATEGY",
                       help="a built-in never trained against, measured at the end")
    train.add_argument("--out", type=Path, help="the policy file (default: where -s trained "
                       "seats it, the game's policies folder, <package>/policies/ (games/GAME/policies/ "
                       "for a built-in game); the learning curve and strength "
                       "table beside it); with --shipped, the folder of the policies (default "
                       "those folders)")
    train.set_defaults(run=run_train)

    exploit = commands.add_parser(
        "exploit", help="search for a dominant strategy: train one seat against a fixed field",
        description="Train one seat's policy against a fixed field (default: the shipped "
        "trained policy at every other seat) to maximise its own win rate, re-measure it on "
        "fresh seeds with its interval, compare its play with the field's (action frequencies "
        "per decision type), and flag a dominant strategy when the lower bound of its share "
        "exceeds the field's by at least 10 points: the game has a degenerate line, or the "
        "field plays weakly.")
    add_game_arguments(exploit, games)
    _training_arguments(exploit, all_cores)
    exploit.add_argument("--field", default="trained",
                         help="the strategy at every other seat, as -s takes it (FILE.py:FUNCTION "
                         "included; default: trained)")
    exploit.add_argument("--start", default="heuristic",
                         help="where the searching seat's weights start: the game's heuristic "
                         "(default; finds lines a heuristic-like player reaches); field: for a "
                         "trained field, the field's own weights (a local search for a "
                         "profitable deviation from the field's play); a style the game "
                         "declares (Sunzi: reserve), the weights that play that built-in; or a "
                         "built-in with knobs (Sunzi: settle), whose parameters the search "
                         "tunes instead of a policy's weights")
    exploit.add_argument("--out", type=Path, help="folder for the exploit's files "
                         "(default exploit/GAME-Np)")
    exploit.add_argument("--record", action="store_true",
                         help="also keep the result next to the shipped policy it probed "
                         "(games/<game>/policies/<policy>.exploit.json): every report of the game "
                         "shows it, and flags it stale once the policy changes")
    exploit.set_defaults(run=run_exploit)


def add_dask_argument(parser) -> None:
    parser.add_argument("--dask", metavar="local|tcp://HOST:PORT",
                        help="run the parallel steps on a dask.distributed cluster: 'local' starts "
                             "one on this machine, an address joins a running scheduler; the "
                             "results are the same as without (needs the dask extra; "
                             "docs/scaling.md)")


def on_backend(args):
    """The command's parallel steps on a Dask cluster (--dask) or local processes (--jobs)."""
    import contextlib

    from analysis.training import on_cluster

    if not getattr(args, "dask", None):
        return contextlib.nullcontext(args.jobs)
    return on_cluster(args.dask, args.jobs)


def _training_arguments(parser, all_cores: int) -> None:
    parser.add_argument("--generations", type=int, help="CMA-ES generations (default: the "
                        "game's training recipe, else 60)")
    parser.add_argument("--population", type=int, help="candidates per generation (default: "
                        "CMA-ES's own, 4 + 3 ln(weights))")
    parser.add_argument("--games", type=int, help="games per table per candidate (default: "
                        "the game's training recipe, else 300)")
    parser.add_argument("--check-games", type=int, default=2000, help="games per final "
                        "strength measurement (default 2000)")
    parser.add_argument("--seed", type=int, help="master seed (default: the game's training "
                        "recipe, else 0)")
    parser.add_argument("--hidden", type=int, metavar="H", help="hidden units per decision type "
                        "(default: the recipe, else 0, a linear policy): a one-hidden-layer "
                        "network beside the linear scorer, started where it plays exactly the "
                        "linear start (sim/core/policy.py); units go to the decision types the "
                        "game's HIDDEN_DECISIONS names, else all")
    parser.add_argument("--jobs", type=int, default=all_cores,
                        help=f"parallel workers (default: every core, {all_cores} here)")
    add_dask_argument(parser)
    parser.add_argument("--run-dir", type=Path, metavar="DIR",
                        help="keep every generation here: the same command resumes")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")


def _check(args, plan: dict | None = None) -> None:
    """Fill what the command line left out from the game's training recipe (its study's
    TRAINING: ``balance train GAME`` alone trains as the shipped policy was), then check."""
    plan = plan or {}
    for name, default in (("generations", 60), ("games", 300), ("seed", 0)):
        if getattr(args, name) is None:
            setattr(args, name, plan.get(name, default))
    for name in ("generations", "games", "check_games"):
        if getattr(args, name) <= 0:
            raise BalanceError(f"--{name.replace('_', '-')} must be positive")
    if args.population is not None and args.population < 2:
        raise BalanceError("--population must be at least 2")
    if args.hidden is None:
        args.hidden = plan.get("hidden", 0)
    if args.hidden < 0:
        raise BalanceError(f"--hidden must be 0 or more (hidden units per decision type), got "
                           f"{args.hidden}")


def _check_writable(path: Path, option: str, folder: bool,
                    nothing: str = "nothing was trained") -> None:
    """Refuse, before any training, an output path that could not be written after it: a
    folder where a file goes (or a file where a folder goes), or a folder that cannot be made
    or written to (a test file is written and removed; the folder is made now). ``nothing``:
    what the message says was not done (another command's work)."""
    import os
    import tempfile

    if path.exists() and path.is_dir() != folder:
        wanted, found = ("a folder", "a file") if folder else ("a file", "a folder")
        raise BalanceError(f"{option} {str(path)!r} is {found}; give {wanted} path ({nothing})")
    where = path if folder else path.parent
    existing = next(p for p in (where, *where.parents) if p.exists())
    if not existing.is_dir():
        raise BalanceError(f"{option} {str(path)!r}: {str(existing)!r} is a file, not a folder; "
                           f"give another path ({nothing})")
    try:
        where.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=where).close()
        if path.is_file() and not os.access(path, os.W_OK):
            raise PermissionError(13, "the file is read-only")
    except OSError as failure:
        raise BalanceError(f"{option} {str(path)!r} cannot be written "
                           f"({failure.strerror or failure}); give another path ({nothing})") \
            from None


def run_train(args) -> int:
    from sim.games import game_names

    from .requests import game_request

    unknown = [g for g in args.game if g not in game_names()]
    if unknown:
        raise BalanceError(f"unknown game {unknown[0]!r}; choose from {', '.join(game_names())}")
    if args.shipped:
        return run_shipped(args)
    if len(args.game) != 1:
        raise BalanceError("balance train takes one game (or --shipped [GAME ...] to regenerate "
                           "shipped policies)")
    args.game = args.game[0]

    spec, rules, _ = game_request(args)
    counts = _player_counts(args, spec, rules)
    given = vars(args).copy()   # the command line; each count's recipe fills in the rest anew
    runs = []
    for n in counts:
        one = argparse.Namespace(**given)
        variant = rules if n == rules.n_seats else spec.rules_class.from_options(
            {**rules.to_dict(options_only=True), "n_players": n})
        if one.run_dir is not None and len(counts) > 1:   # each count resumes on its own
            one.run_dir = one.run_dir / f"{n}p"
        runs.append((one, variant, _policy_out(one, spec, variant)))
    for one, variant, out in runs:
        _train_one(one, spec, variant, out)
    return 0


def _player_counts(args, spec, rules) -> list[int]:
    """The player counts to train: the one the command names (--players, -o n_players=N) or
    the rules' default where --out names one file, else every count the recipe's ``players``
    lists (each policy where -s trained seats it), else the rules' default."""
    from analysis.training import recipe

    named = args.players is not None or any(item.partition("=")[0].strip() == "n_players"
                                            for item in args.option)
    listed = (recipe(spec.name) or {}).get("players")
    if named or args.out is not None or not listed or \
            "n_players" not in spec.rules_class.options():
        return [rules.n_seats]
    return [int(n) for n in listed]


def _policy_out(args, spec, rules) -> Path:
    """The policy file: --out, else where ``-s trained`` seats it (the game's policies folder),
    checked writable with the files beside it before anything is trained."""
    from analysis.training import policy_path

    out = args.out or policy_path(spec, rules.n_seats)
    if args.out is None and out.exists():
        # the file -s trained seats now (a shipped policy, for a built-in game): a short trial
        # run must not replace it unasked
        raise BalanceError(f"{str(out)!r} exists: it is the {rules.n_seats}-player policy -s "
                           f"trained seats now; to replace it, name it: --out {out} (or write "
                           "elsewhere with --out FILE and seat it with -s trained:FILE)")
    try:
        _check_writable(out, "--out", folder=False)  # first: "." has no name to give a suffix
        for suffix in (".history.csv", ".curve.png", ".strength.csv"):
            _check_writable(out.with_suffix(suffix), "--out", folder=False)
    except BalanceError as refused:
        if args.out is not None:
            raise
        raise BalanceError(f"{spec.title}'s policies folder {str(out.parent)!r}, where -s "
                           f"trained seats them, cannot be written ({refused}); give the policy "
                           "file with --out FILE") from None
    return out


def _train_one(args, spec, rules, out: Path) -> None:
    from analysis.training import learning_curve, recipe, strength_table, train_recipe
    from sim.strategy import load_strategy

    plan = recipe(spec.name, rules.n_seats) or {}
    _check(args, plan)
    if args.against is None and plan.get("against") is not None:
        args.against = list(plan["against"])
    elif args.against is not None:   # read as -s reads a seat: FILE.py:FUNCTION too
        args.against = [load_strategy(text) for text in args.against]
    if args.hold_out is None:
        args.hold_out = plan.get("hold_out")
    plan = dict(plan, against=args.against, hold_out=args.hold_out, generations=args.generations,
                games=args.games, seed=args.seed, hidden=args.hidden,
                population=args.population or plan.get("population"))
    with on_backend(args) as jobs:
        result = train_recipe(spec.name, rules, plan, jobs=jobs, run_dir=args.run_dir,
                              progress=not args.no_progress)
    result.save(out)
    result.history.to_csv(out.with_suffix(".history.csv"), index=False)
    learning_curve(result.history, f"{spec.title}, {rules.n_seats} players").savefig(
        out.with_suffix(".curve.png"), dpi=110)
    opponents = [name for name in spec.strategies]
    table = strength_table(spec.name, rules, result.player(), opponents, args.check_games)
    table.to_csv(out.with_suffix(".strength.csv"), index=False)
    seat = "-s trained seats it" if args.out is None else f"seat it with -s trained:{out}"
    print(f"wrote {out} ({seat}), its learning curve and strength table")
    print(table.to_string(index=False))


def run_shipped(args) -> int:
    """`balance train --shipped [GAME ...]`: every shipped policy of those games, retrained
    from its game's recipe (TRAINING in its study)."""
    from analysis.training import recipe, regenerate_shipped

    games = list(args.game) or None
    without = [g for g in games or () if recipe(g) is None]
    if without:
        raise BalanceError(f"{', '.join(without)} has no training recipe (TRAINING in its study): "
                           "no shipped policy to regenerate")
    if args.out is not None:
        _check_writable(args.out, "--out", folder=True)
    with on_backend(args) as jobs:
        written = regenerate_shipped(games, jobs=jobs, progress=not args.no_progress,
                                     out=args.out)
    for path in written:
        print(f"wrote {path}")
    return 0


def run_exploit(args) -> int:
    from analysis.training import exploit

    from .requests import game_request

    from sim.strategy import load_strategy

    _check(args)
    spec, rules, _ = game_request(args)
    field = load_strategy(args.field)   # as -s reads a seat: FILE.py:FUNCTION too
    out = args.out or Path("exploit") / f"{spec.name}-{rules.n_seats}p"
    _check_writable(out, "--out", folder=True)
    with on_backend(args) as jobs:
        report = exploit(spec.name, rules, field=field, generations=args.generations,
                         population=args.population, games=args.games, seed=args.seed,
                         jobs=jobs, run_dir=args.run_dir, check_games=args.check_games,
                         progress=not args.no_progress, start=args.start, hidden=args.hidden)
    report.write(out)
    print(report.line)
    print(f"wrote {out}/ (exploit.json, its policy, action frequencies)")
    if args.record:
        print(f"recorded for the reports: {report.record_beside_policy()}")
    return 0
