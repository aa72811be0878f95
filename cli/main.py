"""The `balance` command: simulate, play, report, bench, and list options and strategies."""
from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

from sim.errors import BalanceError

from .requests import add_game_arguments, game_request, state_strong_fit

_PROJECT = Path(__file__).resolve().parent.parent   # paths are shown from here

EPILOG = """examples:
  balance simulate parthian --players 4 --strategy cautious --strategy random --games 200000
  balance simulate parthian --players 5 --option merit_ties=any --out results/p5.parquet
  balance play parthian --players 3 --strategy glory --seed 7
  balance options parthian            (every rule option, its default and rule id)
  balance report                      (the default study of every game, under reports/)
  balance bench                       (games/s and memory; see docs/benchmarks.md)
  balance simulate parthian --precision 0.5      (as many games as 0.5 pp intervals need)
  balance sweep parthian --vary n_players=3,4,5,6 --vary legion_offset=-2,0,2
  balance ablate parthian --players 4           (which design values matter; tornado chart)
  balance sensitivity parthian --vary charge_threshold=6..12 --vary legion_offset=-3..3
  balance tune parthian --target victory=0.5 --over n_players=3,4,5,6 --vary legions -s cautious
  balance compare parthian --players 4 --b charge_threshold=8 --delta 1pp   (is B better than A?)
  balance explore parthian --players 4  (a live page: move a value, watch the balance move)
  balance mcp                           (the toolkit as tools for AI assistants, over stdio)
"""


# Options whose value may start with '-' ("--delta -1pp"): argparse takes such a value for an
# option unless it reads as a plain negative number, and answers "expected one argument".
SIGNED_VALUES = ("--delta",)


def glue_signed_values(argv: list[str]) -> list[str]:
    """``--delta -1pp`` -> ``--delta=-1pp``, which argparse reads as the value; the command
    then says what is wrong with it instead of argparse saying it is missing."""
    out, i = [], 0
    while i < len(argv):
        if argv[i] in SIGNED_VALUES and i + 1 < len(argv) and \
                re.match(r"-\.?\d", argv[i + 1]):
            out.append(f"{argv[i]}={argv[i + 1]}")
            i += 2
        else:
            out.append(argv[i])
            i += 1
    return out


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(glue_signed_values(sys.argv[1:] if argv is None else list(argv)))
    if not hasattr(args, "run"):
        parser.print_help()
        return 2
    try:
        status = args.run(args) or 0
        sys.stdout.flush()  # a closed pipe shows here, while it can still be handled
        return status
    except BrokenPipeError:
        # The reader went away (`balance play parthian | head`): stop quietly, as other tools do.
        # Python would report the broken pipe again when it flushes stdout at exit; point stdout
        # at /dev/null so that it has nothing left to flush.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, the status a shell gives a command killed by a closed pipe
    except BalanceError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


def build_parser() -> argparse.ArgumentParser:
    from sim.games import game_names

    from .cards import add_commands as add_cards_commands
    from .field import add_commands as add_field_commands
    from .explore import add_commands as add_explore_commands
    from .mcp_server import add_commands as add_mcp_commands
    from .study import add_commands as add_study_commands
    from .training import add_commands as add_training_commands
    from .workbench import add_commands as add_workbench_commands
    from .workbench import add_precision_arguments
    from sim.runner import all_cores

    cores = all_cores()   # every command that plays games uses them all unless told otherwise

    parser = argparse.ArgumentParser(
        prog="balance", description="Balance analysis for board games: simulate millions of games "
        "with pluggable strategies and report win rates with confidence intervals.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    games = game_names()

    sim = commands.add_parser("simulate", help="play a batch of games and print a summary table",
                              description="Play a batch of games; print seat win rates with 95% "
                              "Wilson intervals and write the per-game table (Parquet) if asked.")
    add_game_arguments(sim, games)
    sim.add_argument("--games", type=int, default=100_000, help="number of games (default 100000)")
    sim.add_argument("--seed", type=int, default=0, help="master seed: same seed, same table (default 0)")
    sim.add_argument("--jobs", type=int, default=cores, help="parallel worker processes (default: "
                     f"every core, {cores} here; 1 = this process only); the results are the same "
                     "at any --jobs")
    sim.add_argument("--backend", default="loky", help="joblib backend: loky (processes, default), "
                     "threading, sequential, or a registered one such as dask")
    sim.add_argument("--chunk-size", type=int, default=None, help="games per task (does not change results)")
    sim.add_argument("--stream", action="store_true",
                     help="keep only aggregates: bounded memory for 10^8 games, no per-game table")
    sim.add_argument("--out", type=Path, help="write the per-game table to this Parquet file")
    sim.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    add_precision_arguments(sim)
    sim.add_argument("--dask", metavar="local|tcp://HOST:PORT",
                     help="run the chunks on a Dask cluster: 'local' starts one worker process "
                     "per --jobs (default: per core), an address joins a running scheduler "
                     "(needs the dask extra; see docs/scaling.md)")
    sim.add_argument("--run-dir", type=Path, metavar="DIR",
                     help="keep every finished chunk in DIR: the same command again resumes "
                     "after a crash and gives the identical table; another command is refused")
    sim.add_argument("--rotate-seats", action="store_true",
                     help="fair seats: game g seats strategy (s + g) mod N at seat s, so every "
                     "strategy plays every seat equally often (tables by strategy and seat)")
    sim.set_defaults(run=run_simulate)

    play = commands.add_parser("play", help="play one game and print it as a narrative",
                               description="Play one game and print every decision and why it ended.")
    add_game_arguments(play, games)
    play.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    play.add_argument("--game-index", type=int, default=0,
                      help="which game of the batch with this seed (replays game N of a simulate run)")
    play.set_defaults(run=run_play)

    report = commands.add_parser(
        "report", help="run the games' default studies and write the report site",
        description="Run each game's default study and write its report under --out:\n"
        "  OUT/index.html       every game with a one-line verdict, one click to its page\n"
        "  OUT/GAME/index.html  summary of findings, sortable tables, figures, provenance\n"
        "  OUT/GAME/index.md    the same report as Markdown, with its CSV tables and PNGs\n"
        "The pages work offline (nothing is fetched at view time).",
        epilog="examples:\n  balance report                       (every game, full size)\n"
               "  balance report --quick               (every game, small batches: ~1 minute)\n"
               "  balance report --game sunzi --game parthian --jobs 2",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    report.add_argument("--game", dest="games", action="append", default=[], choices=games,
                        metavar="NAME", help=f"a game to report on, repeatable ({', '.join(games)}; "
                        "default: every game that has a study)")
    report.add_argument("legacy_games", nargs="*", help=argparse.SUPPRESS)
    report.add_argument("--quick", action="store_true",
                        help="small batches: checks the whole pipeline in about a minute; the "
                        "intervals are too wide to read balance from")
    report.add_argument("--games-per-batch", dest="n_games", type=int, default=None, metavar="N",
                        help="games per batch (default: the study's own, tuned for minutes)")
    report.add_argument("--seed", type=int, default=2026, help="master seed (default 2026)")
    report.add_argument("--jobs", type=int, default=cores,
                        help=f"parallel workers (default: every core, {cores} here)")
    report.add_argument("--out", type=Path, default=Path("reports"), help="output folder (default reports/)")
    report.add_argument("--no-progress", action="store_true", help="hide the progress bars")
    report.set_defaults(run=run_report)

    add_workbench_commands(commands, games, add_game_arguments)
    add_training_commands(commands, games, add_game_arguments, os.cpu_count() or 1)
    add_field_commands(commands, games, add_game_arguments, os.cpu_count() or 1)
    add_cards_commands(commands, games, add_game_arguments)
    add_study_commands(commands)
    add_explore_commands(commands, games)
    add_mcp_commands(commands)

    ladder = commands.add_parser(
        "ladder", help="rate strategies in a round-robin tournament with rotated seats",
        description="Play every combination of the strategies at the table, seats rotated every "
        "game, and rate them with a Plackett-Luce model (Bradley-Terry for 2 seats) with 95% "
        "bootstrap intervals (analysis/ladder.py). Give at least two strategies, e.g. "
        "-s random -s greedy -s ismcts:budget=64,rollout=greedy.")
    add_game_arguments(ladder, games)
    ladder.add_argument("--games", type=int, default=400, help="games per table (default 400)")
    ladder.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    ladder.add_argument("--jobs", type=int, default=cores,
                        help=f"parallel workers (default: every core, {cores} here; 1 = this "
                        "process only)")
    ladder.add_argument("--out", type=Path, default=Path("ladder"),
                        help="folder for ladder.csv, games.parquet and ladder.png (default ladder/)")
    ladder.set_defaults(run=run_ladder)

    bench = commands.add_parser("bench", help="measure games/s per core and peak memory",
                                description="Benchmark the kernels (see docs/benchmarks.md).")
    bench.add_argument("--games", type=int, default=1_000_000, help="games per measurement (default 10^6)")
    bench.add_argument("--stream-games", type=int, default=10_000_000,
                       help="games for the streaming-memory measurement (10^8 for the full figure)")
    bench.add_argument("--quick", action="store_true", help="a 1-minute subset")
    bench.add_argument("--openspiel", action="store_true",
                       help="only Goofspiel against OpenSpiel's goofspiel (Python and C++ loops), "
                       "games/s and decisions/s in the same run (needs the calibration extra)")
    bench.add_argument("--search", action="store_true",
                       help="only the search player: iterations/s per core for every game, and "
                       "what one iteration costs in random games (docs/search.md)")
    bench.add_argument("--trained", action="store_true",
                       help="only trained play: games per CPU-second with every seat the shipped "
                       "trained policy, and the shipped strong field, against every seat the "
                       "game's best heuristic, for every shipped policy (docs/training.md; "
                       "targets: trained at least 1/3 of the heuristic, the field 1/4)")
    bench.add_argument("--startup", action="store_true",
                       help="only what a new user waits for: every game's cold start with an "
                       "empty kernel cache, a user strategy's compile into every game, and the "
                       "engine against minimal straight-line kernels (its overhead as a ratio)")
    bench.add_argument("--adapters", action="store_true",
                       help="only the adapters: decisions/s of every game through the live game, "
                       "PettingZoo, Gymnasium, OpenSpiel and a Python agent, against the kernel "
                       "(needs the rl extra; docs/adapters.md)")
    bench.add_argument("--explore", action="store_true",
                       help="only the live loop's latency (balance explore): every game's first "
                       "numbers after a change on a warm kernel, and the time to a paired "
                       "difference at +-1 pp for Parthian Shot at 4 players (docs/explore.md)")
    bench.add_argument("--record", type=Path, help="also write the results as Markdown to this file")
    bench.set_defaults(run=run_bench)

    new = commands.add_parser(
        "new-game", help="write a new game as its own installable package (a small working game "
        "with TODOs)",
        description="Write an installable package for a new game in PATH (default: a new "
        "folder NAME in the current directory, not next to the installed toolkit): pyproject.toml with "
        "the balance.games entry point, NAME/ (rules, layout, kernel, log, spec, strategies "
        "with training features, a study that writes the default report, RULES.md, policies/), "
        "NAME/tests/ (rule tests, a recorded golden game with its re-record command "
        "`python -m NAME.tests.golden --write`, the engine's conformance checks) and a README. "
        "It is a small working example game under the new name, with TODOs where its own rules "
        "go. Then `pip install -e PATH` registers it: every command works on it, and "
        "`python -m pytest PATH/NAME/tests` passes. docs/new_game.md walks through a worked "
        "example.")
    new.add_argument("name", help="the game's name: a lowercase Python identifier, e.g. dice_duel")
    new.add_argument("--dir", type=Path, dest="folder", metavar="PATH",
                     help="where to write the package (default ./NAME; must be new or empty)")
    new.add_argument("--title", help="the game's title (default: from the name)")
    new.add_argument("--rule-id", help="prefix of its rule ids, 2 to 4 capitals (default: from "
                     "the name)")
    new.set_defaults(run=run_new_game)

    listing = commands.add_parser(
        "games", help="list the registered games and where each comes from",
        description="List every game registered through the balance.games entry points (the "
        "toolkit's own and installed plugin games: sim/games.py), with the distribution that "
        "declares it and its package, and the plugins that cannot be used, with why. "
        "--check also loads each game, so that a plugin that fails to import (or exits), or "
        "whose entry point names no GameSpec of its own name, shows there with why.")
    listing.add_argument("--check", action="store_true",
                         help="import every game (slower) and report those that fail")
    listing.set_defaults(run=run_games)

    for name, helptext, func in (("options", "list a game's rule options", run_options),
                                 ("strategies", "list a game's built-in strategies", run_strategies)):
        sub = commands.add_parser(name, help=helptext, description=helptext)
        sub.add_argument("game", choices=games)
        sub.set_defaults(run=func)
    return parser


def run_simulate(args) -> int:
    from analysis.tables import print_summary, strategy_shares_text
    from sim.runner import simulate

    if args.precision is not None:  # grown in steps to a precision (analysis.workbench)
        from cli.workbench import run_simulate_precise

        return run_simulate_precise(args)
    spec, rules, strategies = game_request(args)
    state_strong_fit(spec, rules, args.strategy, args)
    if args.out and args.stream:
        raise BalanceError("--stream keeps no per-game table, so --out cannot be written; drop one")
    run = dict(jobs=args.jobs, chunk_size=args.chunk_size, backend=args.backend,
               stream=args.stream, progress=False if args.no_progress else None,
               rotate_seats=args.rotate_seats, run_dir=args.run_dir)
    if args.dask:
        from sim.runner import dask_client

        with dask_client(args.dask, args.jobs if args.jobs > 1 else None):
            results = simulate(spec, rules, strategies, args.games, args.seed,
                               **{**run, "backend": "dask"})
    else:
        results = simulate(spec, rules, strategies, args.games, args.seed, **run)
    print(print_summary(results))
    if args.rotate_seats:
        print("\n" + strategy_shares_text(results))
    if args.out:
        print(f"\nper-game table: {results.to_parquet(args.out)}")
    return 0


def run_play(args) -> int:
    from sim.runner import play_one

    spec, rules, strategies = game_request(args)
    _, events, seats = play_one(spec, rules, strategies, args.seed, args.game_index)
    print(spec.narrate(events, seats.labels))
    return 0


def run_report(args) -> int:
    from analysis.report import write_reports

    if args.legacy_games:
        names = " ".join(f"--game {name}" for name in args.legacy_games)
        raise BalanceError(f"name the games with --game: balance report {names}")
    paths = write_reports(args.games or None, out_dir=args.out, n_games=args.n_games,
                          seed=args.seed, jobs=args.jobs, progress=not args.no_progress,
                          quick=args.quick)
    for path in paths:
        print(f"report written: {path} (and {path.with_suffix('.html').name})")
    print(f"open {Path(args.out) / 'index.html'}")
    return 0


def run_bench(args) -> int:
    from cli.bench import run

    if args.openspiel or args.search or args.startup or args.adapters or args.trained or \
            args.explore:
        from cli.bench import (run_adapters, run_explore, run_openspiel, run_search, run_startup,
                               run_trained)

        text = (run_search() if args.search else run_trained() if args.trained
                else run_explore() if args.explore
                else run_startup() if args.startup
                else run_adapters() if args.adapters else run_openspiel(args.games))
        if args.record:
            args.record.write_text(text + "\n")
        print(text)
        return 0
    print(run(args.games, args.stream_games, quick=args.quick, record=args.record))
    return 0


def run_options(args) -> int:
    from sim.games import get_game

    spec = get_game(args.game)
    for name, field in spec.rules_class.options().items():
        meta = field.metadata
        choices = f" [{' | '.join(map(str, meta['choices']))}]" if meta.get("choices") else ""
        print(f"{name} = {field.default!r}{choices}   ({meta.get('rule', '')})\n    {meta.get('help', '')}")
        if meta.get("tune"):  # declared design data: the workbench may vary it
            tune = meta["tune"]
            per = f", per {', '.join(tune.per)}" if tune.per else ""
            print(f"    tunable: {tune.low:g}..{tune.high:g}, step {tune.step:g}{per}")
    return 0


def run_strategies(args) -> int:
    from sim.games import get_game
    from sim.strategy import SEARCH_DEFAULTS

    spec = get_game(args.game)
    for name, strategy in spec.strategies.items():
        print(f"{name:12s} {strategy.doc}")
    if "ismcts" not in spec.strategies:
        settings = ",".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}"
                            for k, v in SEARCH_DEFAULTS.items())
        print("ismcts       the search player (information-set MCTS; docs/search.md): "
              f"ismcts:{settings} (rollout: any built-in above, trained, strong or broad)")
    if "trained" not in spec.strategies:
        print(trained_text(spec))
    if "strong" not in spec.strategies:
        print(strong_text(spec))
    return 0


def strong_text(spec) -> str:
    """The `strong` line of `balance strategies`: the shipped strong field per player count."""
    import json

    from sim import field

    root = _PROJECT
    rows = []
    variants = [(n, path, ", ".join(f"{k}={v}" for k, v in field.variant_of(spec, path).items()))
                for n, _, path in field.shipped_variants(spec)]
    for n, path, variant in [(n, path, "") for n, path in field.shipped_fields(spec).items()] \
            + variants:
        measured = json.loads(path.read_text()).get("exploitability", {})
        share = measured.get("best_response_share")
        rows.append(("other counts" if n is None else f"{n} players")
                    + (f" in {variant}" if variant else "") + ": "
                    + str(path.relative_to(root) if path.is_relative_to(root) else path)
                    + ("" if share is None else f" (best response found: {share:.1%}"
                       + (f" against the field seats' {measured['field_share']:.1%}"
                          if measured.get("field_share") is not None else "")
                       + (" of all games" if measured.get("undecided") == "loss" else "") + ")"))
    return ("strong       the strong field: a population of policies and an equilibrium mixture "
            "(PSRO, docs/training.md), one member drawn per game and seat: -s strong seats the "
            "shipped field (the one built for the variant played, where one is), -s strong:FILE "
            f"one that `balance field {spec.name}` wrote\n"
            "             shipped: " + ("; ".join(rows) or
                                        f"none yet; build one with `balance field {spec.name}`"))


def trained_text(spec) -> str:
    """The `trained` line of `balance strategies`: what -s trained seats at each player count."""
    from sim import trained

    if trained.n_features(spec) == 0:
        return f"trained      not available: {trained.no_features(spec)}"
    root = _PROJECT
    shipped = trained.shipped_policies(spec)
    other = "other counts: " if len(shipped) > 1 else ""   # <game>.json: any count without its own
    where = "; ".join((other if n is None else f"{n} players: ")
                      + str(path.relative_to(root) if path.is_relative_to(root) else path)
                      for n, path in shipped.items())
    return ("trained      a trained linear policy over the game's features (docs/training.md): "
            "-s trained seats the shipped policy for the player count, -s trained:FILE a policy "
            f"file that `balance train {spec.name}` wrote\n             shipped: "
            + (where or f"none yet; train one with `balance train {spec.name}`"))


def run_games(args) -> int:
    from sim.games import game_names, get_game, home, problems

    print(f"{'game':<12} {'from':<28} package")
    for name in game_names():
        place = home(name)
        if args.check:
            try:
                get_game(name)
            except BalanceError:
                continue   # listed with the problems below
        print(f"{name:<12} {place.distribution:<28} {place.package}")
    trouble = problems()
    if trouble:
        print("\ncannot be used:")
        for line in trouble:
            print(f"  {line}")
    return 0


def run_new_game(args) -> int:
    from .new_game import create

    folder = args.folder if args.folder is not None else Path.cwd() / args.name
    for path in create(args.name, args.title, args.rule_id, folder):
        print(f"wrote {path}")
    print(f"next: pip install -e {folder}; python -m pytest {folder / args.name / 'tests'}; then "
          f"replace the example rules in {folder / args.name} (the toolkit's docs/new_game.md "
          "walks through a worked example)")
    return 0


def run_ladder(args) -> int:
    from analysis.ladder import play_ladder, rating_plot, ratings

    spec, rules, strategies = game_request(args)
    games = play_ladder(spec.name, strategies, rules, args.games, args.seed, args.jobs,
                        progress=True)
    table = ratings(games)
    args.out.mkdir(parents=True, exist_ok=True)
    table.to_csv(args.out / "ladder.csv", index=False)
    games.assign(present=games["present"].map(list)).to_parquet(args.out / "games.parquet")
    rating_plot(table).savefig(args.out / "ladder.png", dpi=110)
    shown = table.assign(rating=table["rating"].map("{:+.0f}".format),
                         interval=[f"{lo:+.0f} to {hi:+.0f}" for lo, hi in
                                   zip(table["ci_low"], table["ci_high"])],
                         win_share=table["win_share"].map("{:.1%}".format))
    print(shown[["strategy", "rating", "interval", "games", "wins", "win_share"]]
          .to_string(index=False))
    prov = table.attrs["provenance"]
    print(f"\n{prov['n_games']} games, seats rotated, seed {prov['seed']}; "
          f"{prov['undecided_games']} games without a single winning strategy are not rated. "
          f"Written to {args.out}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
