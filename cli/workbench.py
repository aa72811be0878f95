"""`balance sweep | ablate | sensitivity | tune | compare`, and `balance simulate --precision`.

cli/main.py calls :func:`add_commands` while it builds its parser; every command here is a thin
wrapper over the Python function of the same name, which does the work and returns DataFrames.
Heavy imports happen inside the run functions, so `balance --help` stays fast.
"""
from __future__ import annotations

import argparse
import json
import textwrap
from pathlib import Path

METRICS_HELP = textwrap.fill(
    "metrics (docs/workbench.md): win_<seat> (win rate), first_seat_advantage, decided (share of "
    "games with a winner), the game's headline ends (Parthian: victory), <length>_mean "
    "(rounds_mean); every rate with its 95% interval.")
# `balance metrics` names the metrics from a sample whose games it keeps (a study's declared
# metrics need them): past this, a bigger sample only costs memory; precise values are
# `simulate --precision`'s and `sweep`'s work.
METRICS_MAX_GAMES = 1_000_000
METRICS_PROGRESS_FROM = 100_000   # a sample this large takes long enough to show a bar
TUNE_EXAMPLE = ("balance tune parthian --target victory=0.5 --over n_players=3,4,5,6 "
                "--vary legions -s cautious")


def add_commands(commands, games: list[str], add_game_arguments) -> None:
    """Add the workbench subcommands to the `balance` parser."""
    sweep = commands.add_parser(
        "sweep", help="a grid over options: one row per point, every headline metric with its 95%% CI",
        description=textwrap.fill(
            "Play every point of a grid of options on the same master seed (common random "
            "numbers) and write a tidy table (CSV + Parquet) and a line plot (one --vary) or heat "
            "map (two).") + "\n\nexample:\n  balance sweep parthian --vary n_players=3,4,5,6 "
        "--vary legion_offset=-2,0,2\n\n" + METRICS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    _common(sweep, games, add_game_arguments, "sweep", 10_000)
    sweep.add_argument("--vary", action="append", required=True, metavar="NAME=V1,V2,...",
                       help="an option (n_players, merit_ties, ...), 'strategies' (seats joined "
                       "by +), or a tunable (legions[3]); repeat for a grid")
    sweep.add_argument("--metric", help="metric to plot (default: the game's headline rate)")
    sweep.set_defaults(run=run_sweep)

    ablate = commands.add_parser(
        "ablate", help="every tunable value one step up and down: paired effects + tornado chart",
        description="Move every declared tunable parameter (see `balance options GAME`) one step "
        "up and one step down, play each change on the same games as the current values, and "
        "report the paired change of every headline metric with its 95% paired interval.")
    _common(ablate, games, add_game_arguments, "ablate", 10_000)
    ablate.add_argument("--param", action="append", metavar="NAME",
                        help="only these parameters (repeatable; default: every tunable)")
    ablate.add_argument("--metric", help="metric of the tornado chart (default: the headline rate)")
    ablate.set_defaults(run=run_ablate)

    sens = commands.add_parser(
        "sensitivity", help="Morris screening and Sobol indices (SALib) over ranges of tunables",
        description="Global sensitivity of the headline metrics to tunable parameters varied "
        "together over ranges: Morris mu*/sigma and Sobol S1/ST with bootstrap 95% intervals. "
        "Example: balance sensitivity parthian --vary charge_threshold=6..12 --vary legion_offset=-3..3")
    _common(sens, games, add_game_arguments, "sensitivity", 2_000)
    sens.add_argument("--vary", action="append", required=True, metavar="NAME[=LO..HI]",
                      help="a tunable and its range (default: its declared search range)")
    sens.add_argument("--method", action="append", choices=("morris", "sobol"),
                      help="morris, sobol (repeatable; default both)")
    sens.add_argument("--samples", type=int, default=32,
                      help="Morris trajectories and Sobol base sample (default 32)")
    sens.add_argument("--metric", action="append", help="metrics to analyse (repeatable)")
    sens.set_defaults(run=run_sensitivity)

    tune = commands.add_parser(
        "tune", help="find tunable values that hit target metrics; verified on a fresh seed",
        description=textwrap.fill(
            "Search (Optuna TPE) values of the --vary parameters that bring every --target metric "
            "to its value at every --over point, with sample sizes growing as the search narrows; "
            "re-run the winner on a seed never used in the search and report that verified figure "
            "with its interval. Writes values, verification and a data file that -o accepts "
            "(Parthian: legion_table.csv). Exit status 1 when a target is missed.")
        + f"\n\nexample:\n  {TUNE_EXAMPLE}\n\n" + METRICS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    _common(tune, games, add_game_arguments, "tune", None, precision=0.5)
    tune.add_argument("--target", action="append", default=[], metavar="GOAL",
                      help="a goal: METRIC=VALUE, METRIC<=VALUE, METRIC>=VALUE, "
                      "max_gap(PATTERN)<=VALUE (e.g. max_gap(team_*)<=0.02), "
                      "match(A,B)>=VALUE (A against a field of B, seats rotated); values may be "
                      "fractions (1/3) or percentages (repeatable; docs/workbench.md)")
    tune.add_argument("--balance", action="append", default=[], metavar="GROUP",
                      help="aim the gap inside a group at 0: seats (every game), or the game's "
                      "own groups (samurai: teams; `balance metrics GAME` lists them)")
    tune.add_argument("--target-file", action="append", default=[], metavar="FILE.csv",
                      help="goals from a CSV: metric,target[,op][,n_players...] per row, or a "
                      "strategy matrix a,b,target (match(a,b)=target)")
    tune.add_argument("--distance", choices=("max", "rms"), default="max",
                      help="what is minimised: the largest deviation over goals and points "
                      "(default) or their root mean square (a matrix's usual score)")
    tune.add_argument("--pareto", action="store_true",
                      help="search the front of distance against the number and size of the "
                      "changes (multi-objective TPE); verify every front point on a fresh seed; "
                      "writes front.csv and front.png")
    tune.add_argument("--vary", action="append", required=True, metavar="NAME[=LO..HI]",
                      help="tunables to search (a vector option such as legions = all its values)")
    tune.add_argument("--over", action="append", default=[], metavar="NAME=V1,V2,...",
                      help="points at which every target must hold, e.g. n_players=3,4,5,6")
    tune.add_argument("--fewest-changes", action="store_true",
                      help="prefer changing as few parameters as possible; lists what changed")
    tune.add_argument("--trials", type=int, default=150, help="search trials per study (default 150)")
    tune.add_argument("--tolerance", type=float, default=0.02,
                      help="a verified metric this close to its target is a hit (default 0.02)")
    tune.add_argument("--search-games", type=int, default=64_000,
                      help="most games per search trial (default 64000)")
    tune.set_defaults(run=run_tune)

    add_compare(commands, games, add_game_arguments)

    metrics = commands.add_parser(
        "metrics", help="list the metrics and balance groups a game's goals may name",
        description="The metrics every workbench command and goal may name for GAME (headline "
        "ones for every game, then those its study declares), measured on a small batch, and "
        "its --balance groups.")
    add_game_arguments(metrics, games)
    metrics.add_argument("--games", type=int, default=500,
                         help=f"games of the sample (default 500, at most {METRICS_MAX_GAMES:,})")
    metrics.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    metrics.set_defaults(run=run_metrics)


COMPARE_EXAMPLES = """examples:
  balance compare parthian --players 4 --b charge_threshold=8 --delta 1pp
  balance compare parthian --a n_players=4 --b n_players=4,charges=1 --metric victory
  balance compare goofspiel --a-strategy random --b-strategy greedy --b-strategy random
  balance compare parthian --players 4 --b legion_offset=1 --plan      (games needed, no run)

how it works: A and B play the same games of the seed (common random numbers) with rotated
seats; after each step (--batch games per side, then a quarter more each step) a GSPRT on the
per-game paired difference B - A (normal approximation, variance from the data, as Fishtest
tests chess engines) stops as soon as the difference is decided at --alpha / --power for a
difference of --delta: H1 (the data favour B higher, or lower, by delta over no difference),
H0 (they favour no difference over one of delta), or undecided at --max-games. The result states the paired 95% interval, the correlation pairing
used, the games played and the games a fixed-size test would have needed (docs/workbench.md).

"""


def add_compare(commands, games, add_game_arguments) -> None:
    """`balance compare`: is B different from (better than) A? A sequential test."""
    from sim.runner import all_cores

    parser = commands.add_parser(
        "compare", help="is B better than A? a sequential test on paired games (GSPRT)",
        description=textwrap.fill(
            "Compare two rule variants (--a / --b: NAME=VALUE,... as --vary takes them: rule "
            "options, 'strategies' with seats joined by +, tunables such as legions[3]) or two "
            "strategy sets (--a-strategy / --b-strategy, per seat) on paired games, stopping as "
            "soon as a difference of --delta is decided at the error rates asked. -o, --players "
            "and -s set what both sides share.") + "\n\n" + COMPARE_EXAMPLES + METRICS_HELP
        + "\n" + textwrap.fill("side_<k>: the win rate of the k-th strategy of the list, wherever "
                                "rotation seats it (the default when the sides' strategies differ)."),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    add_game_arguments(parser, games)
    parser.add_argument("--a", action="append", default=[], metavar="NAME=VALUE,...",
                        help="side A's changes (repeatable; default: the shared options as they are)")
    parser.add_argument("--b", action="append", default=[], metavar="NAME=VALUE,...",
                        help="side B's changes (repeatable)")
    parser.add_argument("--a-strategy", action="append", default=None, metavar="NAME",
                        help="side A's strategy per seat (repeatable; one = every seat)")
    parser.add_argument("--b-strategy", action="append", default=None, metavar="NAME",
                        help="side B's strategy per seat (repeatable; one = every seat)")
    parser.add_argument("--metric", help="what is compared (default: side_0 when the strategies "
                        "differ, else the game's headline rate: Parthian victory, else "
                        "first_seat_advantage)")
    parser.add_argument("--delta", default="1pp", metavar="D",
                        help="the difference worth detecting: percentage points of a rate (1pp "
                        "or 1; 0.001 to 100), or the metric's units for rounds_mean etc. "
                        "(default 1pp)")
    parser.add_argument("--alpha", type=float, default=0.05,
                        help="false-positive rate: deciding a difference where there is none "
                        "(default 0.05)")
    parser.add_argument("--power", type=float, default=0.9,
                        help="chance of deciding a real difference of delta (default 0.9)")
    parser.add_argument("--alternative", choices=("two-sided", "greater", "less"),
                        default="two-sided", help="B may differ either way (default), or only "
                        "be higher (greater) / lower (less)")
    parser.add_argument("--batch", type=int, default=2000,
                        help="games per side in the first steps (default 2000)")
    parser.add_argument("--max-games", type=int, default=1_000_000,
                        help="games per side at most; undecided after them (default 10^6)")
    parser.add_argument("--plan", action="store_true",
                        help="only print the games a difference of delta needs (fixed-size and "
                        "sequential), from a pilot run or --sd")
    parser.add_argument("--pilot", type=int, default=2000,
                        help="with --plan: paired games of the pilot (default 2000)")
    parser.add_argument("--sd", type=float, default=None,
                        help="with --plan: the per-game standard deviation of B - A, in the units "
                        "of delta, instead of a pilot")
    parser.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    cores = all_cores()
    parser.add_argument("--jobs", type=int, default=cores, help="parallel threads per batch "
                        f"(default: every core, {cores} here); the result is the same at any --jobs")
    parser.add_argument("--out", type=Path, default=None,
                        help="a folder (default workbench/GAME-compare), or a FILE.csv / "
                        "FILE.parquet; provenance in FILE.provenance.json / the Parquet metadata")
    parser.add_argument("--run-dir", type=Path, default=None, metavar="DIR",
                        help="keep every finished chunk in DIR; running the same command again "
                        "after a crash resumes it (a different command is refused)")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    parser.set_defaults(run=run_compare)


def _common(parser, games, add_game_arguments, name, default_games, precision=None) -> None:
    add_game_arguments(parser, games)
    if default_games is not None:
        parser.add_argument("--games", type=int, default=default_games,
                            help=f"games per point (default {default_games})")
    parser.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    from sim.runner import all_cores   # already loaded: the analysis.workbench package imports it

    cores = all_cores()
    parser.add_argument("--jobs", type=int, default=cores, help="parallel threads per batch "
                        f"(default: every core, {cores} here; 1 = this thread only)")
    parser.add_argument("--precision", type=float, default=precision, metavar="PP",
                        help="grow batches until every headline rate's 95%% half-width is at most "
                        "PP percentage points" + (f" (verification; default {precision})" if precision else ""))
    parser.add_argument("--max-games", type=int, default=None, help="cap for --precision")
    parser.add_argument("--out", type=Path, default=None,
                        help=f"output folder (default workbench/GAME-{name})")
    parser.add_argument("--run-dir", type=Path, default=None, metavar="DIR",
                        help="keep every finished chunk in DIR; running the same command again "
                        "after a crash resumes it (a different command is refused)")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")


def add_precision_arguments(parser) -> None:
    """--precision and --max-games on `balance simulate`."""
    parser.add_argument("--precision", type=float, metavar="PP", default=None,
                        help="instead of --games: grow the batch until every headline rate's 95%% "
                        "half-width is at most PP percentage points (deterministic)")
    parser.add_argument("--max-games", type=int, default=None,
                        help="cap for --precision (default 10^7)")


def run_simulate_precise(args) -> int:
    """`balance simulate --precision PP`: the usual summary, grown to the precision."""
    from analysis.tables import print_summary
    from .requests import game_request, state_strong_fit
    from sim.errors import BalanceError

    from analysis.workbench.precision import DEFAULT_MAX_GAMES, simulate_precise

    if getattr(args, "dask", None):
        raise BalanceError("--precision grows the batch in steps; it cannot be combined with "
                           "--dask yet")
    spec, rules, strategies = game_request(args)
    state_strong_fit(spec, rules, args.strategy, args)
    extra = {"rotate_seats": True} if getattr(args, "rotate_seats", False) else {}
    max_games = DEFAULT_MAX_GAMES if args.max_games is None else args.max_games  # 0 is refused
    results = simulate_precise(spec, rules, strategies, args.precision, args.seed,
                               max_games=max_games, jobs=args.jobs,
                               chunk_size=args.chunk_size, backend=args.backend,
                               stream=args.stream, progress=False if args.no_progress else None,
                               run_dir=getattr(args, "run_dir", None), **extra)
    p = results.provenance
    print(print_summary(results))
    if extra:
        from analysis.tables import strategy_shares_text

        print("\n" + strategy_shares_text(results))
    print(f"\n{p['n_games']:,} games (steps {', '.join(f'{n:,}' for n in p['steps'])}): precision "
          f"{args.precision} pp {'reached' if p['precision_met'] else 'NOT reached (max games)'}")
    if args.out:
        print(f"per-game table: {results.to_parquet(args.out)}")
    return 0


def _request(args):
    from .requests import game_request, state_strong_fit

    spec, rules, strategies = game_request(args)
    names = [*args.strategy, *(getattr(args, "a_strategy", None) or []),
             *(getattr(args, "b_strategy", None) or [])]
    state_strong_fit(spec, rules, names, args)
    return spec, rules, (strategies if len(strategies) > 1 else strategies[0])


def _out(args, name: str) -> Path:
    out = args.out or Path("workbench") / f"{args.game}-{name}"
    out.mkdir(parents=True, exist_ok=True)
    return out


def _save(out: Path, name: str, table, figure=None) -> list[Path]:
    paths = [out / f"{name}.csv", out / f"{name}.parquet"]
    table.to_csv(paths[0], index=False)
    table.to_parquet(paths[1], index=False)
    (out / f"{name}.provenance.json").write_text(json.dumps(table.attrs["provenance"], indent=1,
                                                            default=str))
    if figure is not None:
        paths.append(out / f"{name}.png")
        figure.savefig(paths[-1], dpi=110)
    return paths


def _interval_view(table, metrics):
    import pandas as pd

    from analysis.workbench.targets import SIGNED

    view = {}
    for m in metrics:
        if m in table and f"{m}_low" in table:
            f = "+.4f" if any(word in m for word in SIGNED) else ".4f"   # a difference
            view[m] = [f"{v:{f}} ({lo:{f}} to {hi:{f}})" for v, lo, hi in
                       zip(table[m], table[f"{m}_low"], table[f"{m}_high"])]
    return pd.DataFrame(view)


def run_sweep(args) -> int:
    from analysis.workbench.metrics import primary_metric
    from analysis.workbench.sweep import sweep, sweep_figure

    spec, rules, strategies = _request(args)
    table = sweep(spec, args.vary, rules, strategies, args.games, args.seed, precision=args.precision,
                  max_games=args.max_games, jobs=args.jobs, progress=not args.no_progress,
                  run_dir=args.run_dir)
    metric = args.metric or primary_metric(spec)
    figure = sweep_figure(table, metric)
    varied = list(table.attrs["provenance"]["vary"])
    view = table[[*varied, "n_games"]].join(_interval_view(table, [metric, "first_seat_advantage",
                                                                   f"{spec.length_name}_mean"]))
    print(view.to_string(index=False))
    for path in _save(_out(args, "sweep"), "sweep", table, figure):
        print(f"written: {path}")
    return 0


def run_ablate(args) -> int:
    from analysis.workbench.ablate import ablate, tornado
    from analysis.workbench.metrics import primary_metric

    spec, rules, strategies = _request(args)
    table = ablate(spec, rules, strategies, args.games, args.seed, knobs=args.param,
                   precision=args.precision, max_games=args.max_games, jobs=args.jobs,
                   progress=not args.no_progress, run_dir=args.run_dir)
    metric = args.metric or primary_metric(spec)
    part = table[table["metric"] == metric]
    print(f"paired change in {metric} (n={table.attrs['provenance']['n_games']:,} games per variant, "
          "95% paired CI, p Holm-corrected):")
    print(part[["parameter", "value_from", "value_to", "diff", "ci_low", "ci_high", "p_holm",
                "status"]].to_string(index=False, float_format="{:.4f}".format))
    for path in _save(_out(args, "ablate"), "ablate", table, tornado(table, metric)):
        print(f"written: {path}")
    return 0


def run_sensitivity(args) -> int:
    from analysis.workbench.sensitivity import METHODS, sensitivity, sensitivity_figure

    spec, rules, strategies = _request(args)
    table = sensitivity(spec, args.vary, rules, strategies, args.games, args.seed,
                        methods=args.method or METHODS, samples=args.samples, metrics=args.metric,
                        precision=args.precision, max_games=args.max_games, jobs=args.jobs,
                        progress=not args.no_progress, run_dir=args.run_dir)
    print(table.drop(columns=["n_games"]).to_string(index=False, float_format="{:.4f}".format))
    out = _out(args, "sensitivity")
    for path in _save(out, "sensitivity", table):
        print(f"written: {path}")
    for metric in table["metric"].unique():
        path = out / f"sensitivity_{metric}.png"
        sensitivity_figure(table, metric).savefig(path, dpi=110)
        print(f"written: {path}")
    return 0


def run_metrics(args) -> int:
    from analysis.workbench import metrics as M
    from analysis.workbench import targets as T
    from sim.errors import RunError
    from sim.runner import simulate

    if not 1 <= args.games <= METRICS_MAX_GAMES:
        raise RunError(f"--games {args.games}: `balance metrics` lists the metrics on a sample of "
                       f"1 to {METRICS_MAX_GAMES:,} games; measure them precisely with `balance "
                       f"simulate {args.game} --precision PP` or `balance sweep`")
    spec, rules, strategies = _request(args)
    show = args.games >= METRICS_PROGRESS_FROM and not args.no_progress
    result = simulate(spec, rules, strategies, args.games, 0, progress=show)
    row = M.measured(result, spec, rules.n_seats)
    print(f"metrics of {spec.title} ({rules.n_seats} seats; a sample of {args.games} games, "
          f"every seat {strategies}):")
    for name in T.known(row):
        print(f"  {name:28s} {row[name]:.4f}")
    groups = T.balance_groups(spec)
    print("balance groups (--balance GROUP = max_gap(PATTERN)=0): "
          + ", ".join(f"{k} = {v}" for k, v in groups.items()))
    print("goals may also name max_gap(PATTERN) and match(A,B): docs/workbench.md")
    return 0


def run_tune(args) -> int:
    from analysis.workbench.tune import tune

    spec, rules, strategies = _request(args)
    result = tune(spec, args.target, args.vary, args.over, rules, strategies, args.seed,
                  trials=args.trials, search_games=args.search_games, tolerance=args.tolerance,
                  fewest_changes=args.fewest_changes, precision=args.precision,
                  max_games=1_000_000 if args.max_games is None else args.max_games, jobs=args.jobs,
                  progress=not args.no_progress, run_dir=args.run_dir, balance=args.balance,
                  target_files=args.target_file, distance=args.distance, pareto=args.pareto)
    if result.front is not None:
        print("the front (every point verified on a fresh seed), fewest changes first:")
        print(result.front[["point", "changes", "changed", "verified_distance"]]
              .to_string(index=False, float_format="{:.4f}".format) + "\n")
    keys = list(result.verified.attrs["provenance"]["over"])
    changed = result.values[result.values["changed"]]
    print("changed values:" if len(changed) else "no value changed")
    if len(changed):
        print(changed.drop(columns="changed").to_string(index=False))
    print("\nverified on a fresh seed (never used in the search):")
    print(result.verified[[*keys, "metric", "target", "verified", "ci_low", "ci_high",
                           "within_tolerance", "n_games", "seed"]]
          .to_string(index=False, float_format="{:.4f}".format))
    paths = result.write(_out(args, "tune"))
    for path in paths.values():
        print(f"written: {path}")
    print(f"\nplay the tuned set: {replay_command(args, spec, result, paths)}")
    print("all targets hit" if result.hit else "NOT every target is within the tolerance")
    return 0 if result.hit else 1


def replay_command(args, spec, result, paths) -> str:
    """The `balance simulate` command that plays the tuned set as it was tuned: the request's own
    options and seats, the tuned values, and a placeholder for each --over name."""
    import shlex

    from analysis.workbench.specs import STRATEGIES

    over = result.verified.attrs["provenance"]["over"]
    tuned = {flag.split("=", 1)[0].split()[-1] for flag in result.flags}
    if result.file is not None:
        tuned.add(result.file[0])
    command = [f"balance simulate {spec.name}"]
    if args.players is not None and "n_players" not in over:
        command.append(f"--players {args.players}")
    for item in args.option:
        name = item.partition("=")[0].strip()
        if name not in over and name not in tuned:
            command.append(f"-o {shlex.quote(item)}")
    command += result.flags
    if result.file is not None:
        command.append(f"-o {result.file[0]}={shlex.quote(str(paths[result.file[0]]))}")
    seats = next((values for key, values in over.items() if key in STRATEGIES), None)
    if seats is None:
        command += [f"-s {shlex.quote(s)}" for s in args.strategy]
    else:
        command.append(f"-s <one -s per seat of one of {', '.join(seats)}>")
    command += [f"-o {key}=<one of {', '.join(values)}>" for key, values in over.items()
                if key not in STRATEGIES]
    return " ".join(command)


def parse_delta(text: str, metric: str | None) -> float:
    """``1pp``, ``1`` (percentage points of a rate) or a number in a mean metric's units."""
    from sim.errors import BalanceError

    raw = str(text).strip().lower()
    pp = raw.endswith("pp")
    try:
        value = float(raw[:-2] if pp else raw)
    except ValueError:
        raise BalanceError(f"--delta {text!r} must be a number of percentage points, e.g. 1pp") from None
    if value < 0:
        raise BalanceError(f"--delta {text!r}: delta is a size, the difference worth detecting; "
                           f"give --delta {raw.lstrip('-')} and --alternative less for B lower "
                           "than A (greater: higher)")
    if pp and metric is not None and metric.endswith("_mean"):
        raise BalanceError(f"--delta {text!r}: {metric} is a mean, not a rate; give its units "
                           "without pp, e.g. --delta 0.5")
    return value


def _state_sides_fit(spec, rules, strategies, args) -> None:
    """An edited side is a variant of its own: where strong plays it, how far the field carries
    there (cli.requests.state_strong_fit), for each side whose rules differ from the base."""
    from analysis.workbench.compare import make_side

    from .requests import state_strong_fit

    for label, changes, own in (("A", args.a, args.a_strategy), ("B", args.b, args.b_strategy)):
        if changes:
            side = make_side(spec, rules, strategies, label, changes)
            if side.rules.to_dict() != rules.to_dict():
                state_strong_fit(spec, side.rules, [*(own or args.strategy)], args)


def run_compare(args) -> int:
    from analysis.markdown import markdown_table
    from analysis.workbench.compare import compare, plan
    from sim.strategy import load_strategy

    spec, rules, strategies = _request(args)
    sides = {f"{k}_strategies": None if names is None else [load_strategy(s) for s in names]
             for k, names in (("a", args.a_strategy), ("b", args.b_strategy))}
    _state_sides_fit(spec, rules, strategies, args)
    common = dict(rules=rules, strategies=strategies, metric=args.metric,
                  delta=parse_delta(args.delta, args.metric), alpha=args.alpha, power=args.power,
                  alternative=args.alternative, seed=args.seed, jobs=args.jobs, **sides)
    a, b = args.a or None, args.b or None
    if args.plan:
        table = plan(spec, a, b, pilot=args.pilot, sd=args.sd, **common)
        print(markdown_table(_plan_view(table.iloc[0])))
        name = "plan"
    else:
        result = compare(spec, a, b, batch=args.batch, max_games=args.max_games,
                         progress=not args.no_progress, run_dir=args.run_dir, **common)
        table = result.table
        print(markdown_table(_compare_view(result.row)))
        name = "compare"
    for path in _write(args, table, name):
        print(f"written: {path}")
    return 0


def _write(args, table, name: str) -> list[Path]:
    """--out FILE.csv or FILE.parquet writes that file (a CSV with a provenance JSON beside it);
    a folder (the default) gets CSV + Parquet + provenance like every workbench command."""
    out = args.out
    if out is not None and out.suffix.lower() in (".csv", ".parquet"):
        out.parent.mkdir(parents=True, exist_ok=True)
        if out.suffix.lower() == ".parquet":
            table.to_parquet(out, index=False)   # pandas keeps df.attrs in the file's metadata
            return [out]
        table.to_csv(out, index=False)
        sidecar = out.with_suffix(".provenance.json")
        sidecar.write_text(json.dumps(table.attrs["provenance"], indent=1, default=str))
        return [out, sidecar]
    return _save(_out(args, "compare"), name, table)


def _amount(value: float, metric: str) -> str:
    return f"{100 * value:+.2f} pp" if not metric.endswith("_mean") else f"{value:+.3f}"


def _level(value: float, metric: str) -> str:
    return f"{100 * value:.2f}%" if not metric.endswith("_mean") else f"{value:.3f}"


def _compare_view(row: dict):
    import pandas as pd

    m = row["metric"]
    fixed = "n/a (A and B play identical games)" if row["fixed_games"] != row["fixed_games"] else \
        f"{row['fixed_games']:,} paired, {row['unpaired_games']:,} unpaired (saving " \
        f"{100 * row['saving']:.0f}%)"
    items = [
        ("A", f"{row['a']} / {row['strategies_a']}"), ("B", f"{row['b']} / {row['strategies_b']}"),
        ("metric", m), (f"A {m}", _level(row["mean_a"], m)), (f"B {m}", _level(row["mean_b"], m)),
        ("B - A (paired 95% CI)", f"{_amount(row['diff'], m)} ({_amount(row['ci_low'], m)} to "
                                  f"{_amount(row['ci_high'], m)})"),
        ("correlation of A and B per game", f"{row['corr']:.3f}"),
        ("decision", f"{row['decision']}: {row['verdict']}"),
        ("LLR (bounds)", f"{row['llr']:.2f} ({row['llr_lower']:.2f}, {row['llr_upper']:.2f})"),
        ("games per side", f"{row['games']:,}"),
        ("fixed-size test would need", fixed),
        ("alpha / power / delta", f"{row['alpha']} / {row['power']} / "
                                  f"{_amount(row['delta'], m).lstrip('+')} ({row['alternative']})"),
        ("seed / version", f"{row['seed']} / {row['version']}")]
    return pd.DataFrame(items, columns=["compare", "result"])


def _plan_view(row):
    import pandas as pd

    m = row["metric"]
    source = f"pilot of {row['pilot_games']:,} paired games (B - A {_amount(row['pilot_diff'], m)}, " \
             f"correlation {row['corr']:.3f})" if row["pilot_games"] else "stated (--sd)"
    items = [("A", f"{row['a']} / {row['strategies_a']}"), ("B", f"{row['b']} / {row['strategies_b']}"),
             ("metric / delta", f"{m} / {row['delta']:g}{' pp' if not m.endswith('_mean') else ''} "
                                f"({row['alternative']})"),
             ("alpha / power", f"{row['alpha']} / {row['power']}"),
             ("sd of B - A per game", f"{row['sd']:.4f} ({source})"),
             ("fixed-size paired test", f"{row['fixed_games']:,} games per side")]
    if row["unpaired_games"] == row["unpaired_games"]:
        items.append(("fixed-size, independent batches", f"{row['unpaired_games']:,} games per side"))
    items.append(("sequential (compare), mean", f"about {row['sequential_h0']:,} if no difference, "
                  f"{row['sequential_h1']:,} if the difference is delta"))
    return pd.DataFrame(items, columns=["plan", "games"])
