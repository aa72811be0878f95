"""The study every game gets from its spec: a first report with no game-specific code.

A game's study (``analysis.studies.<game>`` or a plugin's ``<package>.study``) may be just::

    from analysis.default_study import option_cards, write_default_report

    def cards(rules):                       # the card table: one card per tunable option
        return option_cards("dice_duel", rules)

    def write_report(out_dir, **run):
        return write_default_report("dice_duel", out_dir, **run)

and ``write_default_report(..., extra=[section, ...])`` adds what is special to the game: a
section is ``section(doc, run, spec, rules)`` where ``run(rules, strategies, **options)`` plays
one batch of the study's size (sim.runner.simulate's options) and ``doc`` is the report
(analysis/studies/__init__.py lists what it can hold).

The default sections, each derived from the spec and the rules class:

1. **Seat advantage at every player count**, every seat random: each count the rules accept
   (the ``n_players`` option, or ``players``), each seat's win share against its fair share.
2. **How games end**: end reasons (``end_reasons``) and the game length (``length_name``).
3. **Per-seat metrics**: the mean of every seat column (``seat_columns``).
4. **The built-ins against each other**, seats rotated every game.
5. **Cards**: the card table of the study's ``cards(rules)``; :func:`option_cards` makes one
   card per tunable option (``Tunable`` in rules.py), its value moved one step down and up.
6. **Skill ladder**: random, ``SPEC.heuristic``, a trained policy where one ships, the search.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Callable, Sequence

import pandas as pd
from tqdm.auto import tqdm

from sim import __version__
from sim.errors import RulesError
from sim.games import get_game
from sim.runner import as_rules, simulate

from . import plots
from . import tables as T
from .interventions import Card, card_section
from .markdown import Doc, largest_seat_advantage, p_text, pct_text, seat_view
from .skill import skill_games, skill_section
from .workbench.metrics import primary_metric

DEFAULT_GAMES = 20_000
QUICK_GAMES = 1_000
MOST_PLAYERS = 12                           # counts tried for a rules class that names no range


def player_counts(spec) -> list[int]:
    """The player counts the rules accept (tried 1 to MOST_PLAYERS), default count first when
    the rules have no player option."""
    option = spec.rules_class.player_option()
    if option is None:
        return [spec.rules_class().n_seats]
    counts = []
    for n in range(1, MOST_PLAYERS + 1):
        try:
            spec.rules_class.from_options({option: n})
        except RulesError:
            continue
        counts.append(n)
    return counts


def option_cards(game, rules=None, owner: str | None = None) -> list[Card]:
    """One card per tunable option of the variant (each element of a vector option): its value
    one ``Tunable.step`` down and up, where the option's range allows; its effect is read on
    ``owner`` (default the game's primary metric: its first headline end, else the first-seat
    advantage). The designer's own cards (a card dealt to a seat) replace these in the study."""
    spec = get_game(game)
    rules = as_rules(spec, rules)
    owner = owner or primary_metric(spec)
    cards = []
    for name, knob in rules.tunables().items():
        changes = {}
        for label, value in ((f"-{knob.step:g}", knob.value - knob.step),
                             (f"+{knob.step:g}", knob.value + knob.step)):
            if knob.low <= value <= knob.high:
                changes[label] = (lambda base, n=name, v=value: base.with_knobs({n: v}))
        if changes:
            cards.append(Card(name, "option", changes, owner=owner, value=knob.value))
    return cards


def write_default_report(game, out_dir: Path, *, n_games: int | None = None, seed: int = 2026,
                         jobs: int = 1, progress: bool = False, quick: bool = False,
                         extra: Sequence[Callable] = (), intro: str = "") -> Path:
    """Run the default study of ``game`` and write ``index.md`` (with PNGs and CSVs) in
    ``out_dir``; ``extra`` sections come after the default ones (module docstring), ``intro`` is
    a paragraph under the title. ``n_games`` per batch (default DEFAULT_GAMES, QUICK_GAMES with
    ``quick``). Returns the path of index.md."""
    from .report import ran_in
    from .studies import study_of

    spec = get_game(game)
    rules = spec.rules_class()
    n_games = n_games or (QUICK_GAMES if quick else DEFAULT_GAMES)
    doc = Doc(Path(out_dir))
    bar = tqdm(unit="batch", disable=not progress, desc=f"{spec.name} report")
    batches = 0

    def run(variant, strategies, **options):
        nonlocal batches
        result = simulate(spec.name, variant, strategies, n_games, seed, jobs=jobs,
                          backend="threading", progress=False, **options)
        batches += 1
        bar.update(1)
        return result

    started = time.perf_counter()
    doc.text(f"# {spec.title}: balance report\n\nMade by `analysis.default_study` "
             f"(balance-toolkit {__version__}) for the game `{spec.name}`: {n_games:,} games per "
             f"batch, master seed {seed}. {intro}\n\n"
             "**Reading the numbers.** A shared win counts 1/k to each of the k winners. "
             "Intervals are 95% (Wilson for rates, t for means). *Advantage* is a seat's win "
             "rate minus its fair share of the decided games; its p-value is a z-test, "
             "Holm-corrected across the seats of one batch.")
    _seats(doc, run, spec)
    batch = run(rules, "random")
    _endings(doc, spec, batch)
    _seat_metrics(doc, spec, batch)
    _builtins(doc, run, spec, rules)
    cards = study_of(spec.name).cards
    if cards is not None and cards(rules):
        card_section(doc, spec.name, rules, n_games=max(n_games // 4, 200), seed=seed,
                     jobs=jobs, quick=quick)
    skill_section(doc, spec.name, None, spec.heuristic, skill_games(n_games, quick), seed, jobs,
                  (4, 16) if quick else (16, 64))
    for section in extra:
        section(doc, run, spec, rules)
    bar.close()
    doc.text(ran_in(spec.name, started, f"{batches} batches of {n_games:,} games and the "
                    f"card and skill sections, jobs={jobs}"))
    return doc.write()


def _seats(doc: Doc, run, spec) -> None:
    counts = player_counts(spec)
    doc.text("## Seat advantage, every seat random\n\n"
             f"At each player count the rules accept ({', '.join(map(str, counts))}), every seat "
             "plays at random: a seat that wins more than its share owes it to the rules alone.")
    option = spec.rules_class.player_option()
    batches = [({"players": n}, run({option: n} if option else None, "random")) for n in counts]
    seats = T.stack([(k, T.seat_table(b)) for k, b in batches])
    doc.table("a_seat_win_rates", seats, seat_view(seats, ["players", "seat"]))
    doc.figure("a_seat_win_rates", plots.win_rate_plot(seats, ["players", "seat"]),
               "Each dot is one seat's win share with its 95% interval; the dashed tick is the "
               "fair share. An interval that misses its tick is a seat advantage.")
    top, verdict = largest_seat_advantage(seats, lambda top: f"seat {top['seat']}, "
                                             f"{top['players']} players")
    doc.verdict(verdict)
    doc.finding(f"{verdict[0].upper()}{verdict[1:]} under random play (Holm-corrected p "
                f"{p_text(top['p_holm'])}; table a_seat_win_rates).")


def _endings(doc: Doc, spec, batch) -> None:
    doc.text(f"## How games end\n\nThe default rules, every seat random: how often each end "
             f"reason closes a game, and how many {spec.length_name} a game lasts.")
    ends = T.end_reason_table(batch)
    doc.table("b_end_reasons", ends, pd.DataFrame({
        "end reason": ends["end_reason"], "games": ends["games"],
        "share (95% CI)": pct_text(ends["rate"], ends["ci_low"], ends["ci_high"]),
        "unfinished": ends["unfinished"].map({True: "yes", False: ""})}))
    length = T.length_table(batch)
    doc.table("b_length", length, length.round(2))
    counts = T.length_counts(batch)
    doc.csv("b_length_counts", counts)
    doc.figure("b_length_counts", plots.length_plot(counts),
               f"Share of games lasting each number of {spec.length_name}.")
    unfinished = ends.loc[ends["unfinished"], "rate"].sum()
    if unfinished > 0:
        doc.finding(f"{unfinished:.1%} of random games do not finish (capped; table "
                    "b_end_reasons).")


def _seat_metrics(doc: Doc, spec, batch) -> None:
    if not spec.seat_columns:
        return
    doc.text("## Per-seat metrics\n\nThe mean of every per-seat column of the record "
             f"({', '.join(spec.seat_columns)}), seat by seat, every seat random.")
    means = T.seat_means_table(batch)
    doc.table("c_seat_metrics", means, pd.DataFrame({
        "seat": means["seat"], "metric": means["metric"],
        "mean (95% CI)": [f"{m:.3g} ({lo:.3g} to {hi:.3g})" for m, lo, hi in
                          zip(means["mean"], means["ci_low"], means["ci_high"])],
        "min": means["min"], "max": means["max"]}))


def _builtins(doc: Doc, run, spec, rules) -> None:
    names = list(spec.strategies)
    if len(names) < 2:
        return
    n = rules.n_seats
    mix = [names[s % len(names)] for s in range(n)]
    doc.text("## The built-in strategies against each other\n\n"
             f"One table of {', '.join(f'`{m}`' for m in dict.fromkeys(mix))}, seats rotated "
             "every game so that no strategy keeps a lucky seat.")
    result = run(rules, mix, rotate_seats=True)
    table = T.strategy_table(result)
    doc.table("d_builtins", table, pd.DataFrame({
        "strategy": table["strategy"], "games": table["n_games"],
        "win rate per seat (95% CI)": pct_text(table["win_rate"], table["ci_low"],
                                               table["ci_high"])}))
    best = table.loc[table["win_rate"].idxmax()]
    doc.finding(f"Of the built-ins, `{best['strategy']}` wins most: {best['win_rate']:.1%} per "
                f"seat (95% CI {best['ci_low']:.1%} to {best['ci_high']:.1%}; table d_builtins).")
