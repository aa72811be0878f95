"""``balance field``: build a game's strong field (PSRO) and measure its exploitability."""
from __future__ import annotations

import argparse
import json
import sys
import textwrap
from pathlib import Path

from sim.errors import BalanceError


def add_commands(commands, games: list[str], add_game_arguments, all_cores: int) -> None:
    from analysis.field import (ORACLE_GAMES, ORACLE_GENERATIONS, ORACLE_STARTS, SCHEDULES,
                                UNDECIDED)

    from .training import add_dask_argument

    parser = commands.add_parser(
        "field", help="build a strong field: a population of policies and an equilibrium mixture",
        description=textwrap.fill(
            "Build the game's strong field with PSRO (analysis/field.py): start from the "
            "built-in heuristics and the shipped trained policy, solve the meta-game of their "
            "win shares for an equilibrium mixture, add the exploit search's best response "
            "against that mixture, and repeat. The last best response, re-measured on fresh "
            "seeds, is the field's exploitability at the stated budget. Seat the field with "
            "-s strong:FILE (the shipped one: -s strong). With --shipped, rebuild every shipped "
            "field from its game's recipe (the study's FIELD).", 88),
        epilog="examples:\n  balance field sunzi --out my_sunzi.field.json\n"
               "  balance field sunzi -o warlord=true --from strong   (fit a variant's field)\n"
               "  balance field sunzi -o warlord=true --transfer      (how far strong carries)\n"
               "  balance field --shipped sunzi          (the shipped field, from its recipe)\n"
               "  balance field sunzi --check games/sunzi/policies/sunzi.field.json"
               "   (re-measure a field)",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    add_game_arguments(parser, games, many=True)
    parser.add_argument("--iterations", type=int, help="best responses added (default: the "
                        "game's recipe, else 6)")
    parser.add_argument("--oracle-generations", type=int, help="generations of each best-response "
                        f"search (default: the recipe, else {ORACLE_GENERATIONS}, balance exploit's)")
    parser.add_argument("--oracle-games", type=int, help="games per table per candidate of each "
                        f"search (default: the recipe, else {ORACLE_GAMES})")
    parser.add_argument("--response-budget", type=int, nargs=2, metavar=("GENERATIONS", "GAMES"),
                        help="a smaller budget for the iterations' own best responses (the "
                        "final measure keeps --oracle-generations x --oracle-games); default: "
                        "the recipe, else the same as the final's")
    parser.add_argument("--oracle-hidden", type=int, metavar="H", help="hidden units per decision "
                        "type of every best response searched (a one-hidden-layer network "
                        "beside the linear scorer, sim/core/policy.py): a richer class of "
                        "responses, for the iterations and the exploitability measure (default: "
                        "the recipe, else 0, linear)")
    parser.add_argument("--final-generalist", type=float, metavar="TOLERANCE",
                        help="two players: ship, instead of the last Nash mixture, the mixture "
                        "with the highest mean share against the whole population among those "
                        "no member beats by more than TOLERANCE (e.g. 0.02, the pair table's "
                        "noise at 2000 games); the exploitability is measured against it "
                        "(default: the recipe, else the Nash mixture)")
    parser.add_argument("--oracle-schedule", choices=SCHEDULES,
                        help="how the iterations take the oracle starts: rotate (in turn) or "
                        "leading (the start whose last search won most, a rested one coming "
                        "back as the mixture moves); default: the recipe, else rotate")
    parser.add_argument("--table-games", type=int, help="games per pair of members in the "
                        "meta-game's table (default: the recipe, else 2000)")
    parser.add_argument("--oracle-starts", nargs="+", metavar="START",
                        help="where each best-response search starts: heuristic (the game's "
                             "start weights), field (the mixture's most probable policy), a "
                             "style the game declares by name (Sunzi: reserve) or styles (every "
                             "one); the iterations take them in turn and the final measure runs "
                             f"every one (default: the recipe, else {' '.join(ORACLE_STARTS)})")
    parser.add_argument("--undecided", choices=UNDECIDED, help="what a game nobody wins counts "
                        "for: apart (shares of the decided games) or loss (lost by every seat: "
                        "win probabilities over all games, and the oracle maximises its own); "
                        "default: the recipe (with --check, the file's), else apart")
    parser.add_argument("--check-games", type=int, default=4000, help="fresh games that "
                        "re-measure each best response (default 4000)")
    parser.add_argument("--seed", type=int, help="master seed (default: the recipe, else 0)")
    parser.add_argument("--jobs", type=int, default=all_cores,
                        help=f"parallel workers (default: every core, {all_cores} here)")
    parser.add_argument("--out", type=Path, help="the field file (default "
                        "fields/GAME-Np.field.json; its history CSV beside it); with --shipped, "
                        "the folder (default the game's policies folder)")
    parser.add_argument("--shipped", action="store_true", help="rebuild the shipped fields of "
                        "the games named (default: every game with a FIELD recipe)")
    parser.add_argument("--check", type=Path, metavar="FIELD_FILE", help="only re-measure this "
                        "field's exploitability: a best-response search from each start at the "
                        "budget given")
    parser.add_argument("--from", dest="warm_from", metavar="strong|FIELD_FILE",
                        help="fit a field to the variant the options name, starting from the "
                        "members of the nearest field (strong: the one -s strong seats there) "
                        "with a short PSRO (analysis.field.WARM_START; the flags above change "
                        "it); stored under the variant's content hash where -s strong finds it "
                        "(sim.field.fitted_path), and never fitted twice")
    parser.add_argument("--transfer", action="store_true", help="measure how far the field "
                        "-s strong seats in this variant transfers to it: a short best-response "
                        "search here (analysis/fitted.py), stored and stated beside every "
                        "strong verdict in this variant")
    parser.add_argument("--search", type=int, nargs="?", const=0, default=None, metavar="BUDGET",
                        help="measure the search with the field as its rollouts "
                        "(ismcts:rollout=strong, at its default budget or BUDGET) against the "
                        "field -s strong seats here, 400 games seats rotated (a 2-player game); "
                        "written beside a shipped or fitted field and stated in the reports")
    parser.add_argument("--members", type=int, default=2000, metavar="GAMES",
                        help="with --check, also play the best response found against each "
                             "member of the field alone, GAMES fresh games each, to show which "
                             "members it beats (default 2000; 0 skips)")
    add_dask_argument(parser)
    parser.add_argument("--run-dir", type=Path, metavar="DIR", help="keep every oracle's result "
                        "here: the same command resumes (a run with more --iterations resumes a "
                        "shorter one's folder)")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    parser.set_defaults(run=run_field)


def _positive(args) -> None:
    if args.members < 0:
        raise BalanceError(f"--members must be >= 0 (0 skips the member table), got {args.members}")
    for name in ("iterations", "oracle_generations", "oracle_games", "table_games", "check_games"):
        value = getattr(args, name)
        if value is not None and (value < (0 if name == "iterations" else 1)):
            raise BalanceError(f"--{name.replace('_', '-')} must be "
                               f"{'>= 0' if name == 'iterations' else 'positive'}, got {value}")


def run_field(args) -> int:
    from .training import on_backend

    with on_backend(args) as jobs:   # --dask: every table and oracle on the cluster
        args.jobs = jobs
        return _run_field(args)


def _run_field(args) -> int:
    from analysis.field import (field_recipe, history_path, measure_field,
                                recipe_start, regenerate_shipped)
    from sim.games import game_names

    from .requests import game_request
    from .training import _check_writable

    _positive(args)
    unknown = [g for g in args.game if g not in game_names()]
    if unknown:
        raise BalanceError(f"unknown game {unknown[0]!r}; choose from {', '.join(game_names())}")
    if args.shipped:
        if args.out is not None:
            _check_writable(args.out, "--out", folder=True, nothing="nothing was built")
        written = regenerate_shipped(args.game or None, jobs=args.jobs,
                                     progress=not args.no_progress, out=args.out,
                                     run_dir=args.run_dir)
        for path in written:
            print(f"wrote {path}")
        return 0
    if len(args.game) != 1:
        raise BalanceError("name one game (or use --shipped for several)")
    args.game = args.game[0]
    spec, rules, _ = game_request(args)
    plan = field_recipe(spec.name, rules.n_seats, rules) or {}
    settings = {name: getattr(args, name) if getattr(args, name) is not None else plan.get(name)
                for name in ("iterations", "oracle_generations", "oracle_games", "table_games",
                             "seed", "oracle_starts", "undecided", "response_budget",
                             "oracle_hidden", "final_generalist", "oracle_schedule")}
    settings = {k: v for k, v in settings.items() if v is not None}
    if "oracle_starts" in settings:
        settings["oracle_starts"] = tuple(settings["oracle_starts"])
    if args.check is not None:
        if args.undecided is None:  # as the file was built, not as today's recipe says
            settings.pop("undecided", None)
        result = measure_field(spec.name, rules, args.check, jobs=args.jobs,
                               check_games=args.check_games, progress=not args.no_progress,
                               member_games=args.members,
                               **{k: v for k, v in settings.items() if k not in (
                                   "iterations", "table_games", "response_budget",
                                   "final_generalist", "oracle_schedule")})
        print(json.dumps(result, indent=1))
        if result.get("members"):  # the JSON stays whole on stdout; the table is for reading
            import pandas as pd

            print("\nthe best response against each member alone:\n"
                  + pd.DataFrame(result["members"]).to_string(index=False, float_format="%.3f"),
                  file=sys.stderr)
        return 0
    if args.transfer:
        return _transfer(spec, rules, args)
    if args.search is not None:
        return _search(spec, rules, args.search or None)
    if args.warm_from is not None:
        return _warm(spec, rules, args, settings)
    out = args.out or Path("fields") / f"{spec.name}-{rules.n_seats}p.field.json"
    if out.is_dir():
        raise BalanceError(f"--out {str(out)!r} is a folder; give the field file's path")
    # now, not after the whole build: a path that cannot be written would lose it
    for path in (out, history_path(out)):
        _check_writable(path, "--out", folder=False, nothing="nothing was built")
    return _build(spec, rules, args, out, recipe_start(spec.name, rules, plan), settings,
                  f"seat it with -s strong:{out}")


def _build(spec, rules, args, out, start, plan, seat_it: str) -> int:
    """Build the field, write it and its history, and print both."""
    from analysis.field import build_field, history_path

    build = build_field(spec.name, rules, jobs=args.jobs, check_games=args.check_games,
                        progress=not args.no_progress, run_dir=args.run_dir, start=start, **plan)
    build.save(out)
    build.history.to_csv(history_path(out), index=False)
    print(build.history.to_string(index=False))
    print(build.exploitability["line"])
    print(f"wrote {out}; {seat_it}")
    return 0


def _transfer(spec, rules, args) -> int:
    from analysis.fitted import measure_transfer, strong_fit

    fit = strong_fit(spec.name, rules)
    if fit is None:
        raise BalanceError(f"no strong {spec.title} field at {rules.n_seats} players; build one "
                           f"with `balance field {spec.name}`")
    if not fit.own and fit.transfer is None:
        measure_transfer(spec.name, rules, jobs=args.jobs, progress=not args.no_progress)
        fit = strong_fit(spec.name, rules)
    print(fit.line())
    return 0


def _search(spec, rules, budget) -> int:
    from analysis.field import search_against_field, search_line
    from sim import field as F

    path = (F.nearest_fields(spec, rules.n_seats, rules) or [None])[0]
    if path is None:
        raise BalanceError(f"no strong {spec.title} field at {rules.n_seats} players; build one "
                           f"with `balance field {spec.name}`")
    search_against_field(spec.name, rules, budget=budget, path=path)
    print(search_line(path))
    return 0


def _warm(spec, rules, args, settings) -> int:
    """--from: a field of the variant's own, from the nearest one's members."""
    from analysis.field import WARM_START, field_recipe, history_path, warm_start
    from sim import field as F

    from .training import _check_writable

    out = args.out or F.fitted_path(spec, rules)
    own = F.shipped_path(spec, rules.n_seats, rules)
    if args.out is None and (out.is_file() or own is not None and
                             F.variant_of(spec, own) == F.variant_of_rules(spec, rules)):
        print(f"this variant's field is already fitted: {own} (-s strong seats it here)")
        return 0
    for path in (out, history_path(out)):
        _check_writable(path, "--out", folder=False, nothing="nothing was built")
    given = {k: getattr(args, k) for k in ("iterations", "oracle_generations", "oracle_games",
                                           "table_games", "seed", "response_budget",
                                           "oracle_starts", "undecided", "oracle_hidden")
             if getattr(args, k) is not None}
    recipe = field_recipe(spec.name, rules.n_seats, rules) or {}
    # a variant whose recipe continues from the fields near it is built as the recipe says
    plan = {**settings, **given} if recipe.get("from") else {**settings, **WARM_START, **given}
    plan.pop("final_generalist", None)
    plan.pop("oracle_schedule", None)
    if "oracle_starts" in plan:
        plan["oracle_starts"] = tuple(plan["oracle_starts"])
    if plan.get("response_budget") is not None:
        plan["response_budget"] = tuple(plan["response_budget"])
    return _build(spec, rules, args, out, warm_start(spec.name, rules, args.warm_from), plan,
                  "-s strong seats it in this variant")
