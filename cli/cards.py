"""`balance cards GAME`: the interventional card table (analysis/interventions.py).

A thin wrapper: the Python function ``analysis.interventions.interventions`` does the work and
returns the table; this writes it (CSV, Parquet with provenance), its forest plot, and with
``--interactions K`` the synergy heat map and Shapley shares of the K strongest cards.
"""
from __future__ import annotations

import argparse
import textwrap
from pathlib import Path

EXAMPLES = """\
examples:
  balance cards samurai                        # every card, every level, each effect to +-1 pp
  balance cards sunzi -o mode=advanced --level heuristic --precision 2
  balance cards shuojian --card "Slash" --card "Thrust" --games 20000
  balance cards parthian -s cautious --interactions 4   # your own seats instead of the levels
  balance cards samurai --list                 # the cards and interventions it declares
"""


def add_commands(commands, games: list[str], add_game_arguments) -> None:
    from sim.runner import all_cores

    parser = commands.add_parser(
        "cards", help="what each card is worth, by changing it: paired effects with FDR control",
        description=textwrap.fill(
            "Remove each card, replace it by a neutral one, or move its printed value by one "
            "(what the game's study declares for it: cards(rules), e.g. games/GAME/study/"
            "cards.py; a plugin's NAME/study.py), play the changed "
            "game on the same games as the unchanged one (common random numbers), and report "
            "the change in the win rate of whoever the card belongs to, with its paired 95% "
            "interval and a Benjamini-Hochberg q over the table, at each level of play (random, "
            "the best heuristic, the trained policy). The observational OH gain stands beside "
            "it. Each effect's batch grows until its half-width reaches --precision.")
        + "\n\n" + EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_game_arguments(parser, games)
    parser.add_argument("--level", action="append", metavar="NAME",
                        help="a level of play: random, heuristic, trained (repeatable; default "
                        "every level the game has; -s seats your own strategies instead)")
    parser.add_argument("--card", action="append", metavar="NAME",
                        help="only these cards (repeatable; --list shows the names)")
    parser.add_argument("--precision", type=float, default=1.0, metavar="PP",
                        help="grow each effect's batch until its 95%% half-width is at most PP "
                        "percentage points (default 1)")
    parser.add_argument("--games", type=int, default=None,
                        help="instead of --precision: this many games per version")
    parser.add_argument("--max-games", type=int, default=200_000,
                        help="games per version at most (default 200,000)")
    parser.add_argument("--interactions", type=int, default=0, metavar="K",
                        help="also the synergy of every pair and the Shapley shares of the K "
                        "strongest cards (2^K batches; 2-8; default none)")
    parser.add_argument("--list", action="store_true",
                        help="list the declared cards and their interventions, play nothing")
    parser.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    cores = all_cores()
    parser.add_argument("--jobs", type=int, default=cores, help="parallel threads per batch "
                        f"(default: every core, {cores} here); the table is the same at any --jobs")
    parser.add_argument("--out", type=Path, default=None,
                        help="output folder (default workbench/GAME-cards)")
    parser.add_argument("--run-dir", type=Path, default=None, metavar="DIR",
                        help="keep every finished chunk in DIR; the same command resumes a "
                        "killed table")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    parser.set_defaults(run=run_cards)


def run_cards(args) -> int:
    import pandas as pd

    from analysis import interventions as I
    from analysis.markdown import pp_text

    from .requests import game_request
    from .workbench import _save

    spec, rules, strategies = game_request(args)
    if args.list:
        for card in I.declared_cards(spec, rules, args.card):
            owner = "the seats dealt it" if card.owner == I.HOLDER else card.owner
            print(f"{card.name} ({card.kind}; read on {owner}): {', '.join(card.interventions)}")
        print("levels: " + ", ".join(f"{k} = {v}" for k, v in I.levels(spec, rules).items()))
        return 0
    from .requests import state_strong_fit

    state_strong_fit(spec, rules, args.strategy or [
        name for level, name in I.levels(spec, rules).items()
        if not args.level or level in args.level], args)
    custom = strategies if args.strategy else None
    if custom is not None and len(custom) == 1:
        custom = custom[0]
    table = I.interventions(spec, rules, args.level, cards=args.card, n_games=args.games,
                            precision=None if args.games else args.precision,
                            max_games=args.max_games, seed=args.seed, jobs=args.jobs,
                            run_dir=args.run_dir, progress=not args.no_progress,
                            strategies=custom)
    ok = table[table["status"] == "ok"]
    shown = ok.assign(**{"effect, pp (95% CI)": pp_text(ok["effect"], ok["ci_low"],
                                                        ok["ci_high"], ok["n"])})
    print(shown[["level", "card", "intervention", "n", "effect, pp (95% CI)", "q",
                 "significant", "disagrees"]].to_string(index=False, float_format="{:.3g}".format))
    for row in table[table["status"] != "ok"].itertuples():
        print(f"not played: {row.card} {row.intervention}: {row.status}")
    p = table.attrs["provenance"]
    print(f"\n{p['games_played']:,} games played; q: {p['fdr']}")
    out = args.out or Path("workbench") / f"{spec.name}-cards"
    out.mkdir(parents=True, exist_ok=True)
    last = I.strongest_level(table, list(dict.fromkeys(table["level"])))
    figure = I.forest_figure(table, last, 30)
    for path in _save(out, "cards", table, figure):
        print(f"written: {path}")
    for change in I.sign_changes(table).itertuples():
        print(f"sign change between levels: {change.card} {change.intervention} ({change.verdict})")
    if args.interactions:
        chosen = I.strongest(table, args.interactions, last)
        seats = p["strategies"][last]
        n = args.games or int(ok[ok["level"] == last]["n"].max())
        synergy, shapley = I.coalitions(spec, rules, chosen, seats, n, args.seed, jobs=args.jobs,
                                        run_dir=args.run_dir, progress=not args.no_progress)
        print(f"\nShapley shares of {synergy.attrs['provenance']['metric']} "
              f"(they add up to {100 * shapley.attrs['total']:+.2f} pp):")
        print(pd.DataFrame({"card": shapley["card"], "share, pp (95% CI)": pp_text(
            shapley["share"], shapley["ci_low"], shapley["ci_high"])}).to_string(index=False))
        for path in [*_save(out, "synergy", synergy, I.synergy_figure(synergy, last)), *_save(out, "shapley", shapley)]:
            print(f"written: {path}")
    return 0
