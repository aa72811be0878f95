"""One study per game: ``<package>.study`` of the game's package (``games.<game>.study`` for a
built-in game; sim/games.py: ``GameHome.study``), a module or a package, runs that game's default
balance study and writes its report, and declares what the shared modules read of it in one
record, ``STUDY = Study(...)`` (:class:`Study`; :func:`study_of` reads it). ``analysis.default_study`` writes the sections every game
gets from its spec, so a study may be as small as a ``write_report`` that calls
``write_default_report(NAME, out_dir, **run)`` (what ``balance new-game`` writes).

Each study exposes ``write_report(out_dir, *, n_games=None, seed=2026, jobs=1, progress=False,
quick=False) -> Path`` (the path of the written ``index.md``); ``quick`` is a small run, about a
minute for all games together. ``analysis.report`` finds a study by the game's registered name,
so a new game joins ``balance report`` and the HTML site by adding its study.
Game-specific tables live with the study, not in the shared modules.

A study writes through ``analysis.markdown.Doc``, which renders the same content as Markdown
(``index.md``) and HTML (``index.html``):

- ``doc.text(markdown)``: the first block opens with ``# <Game>: balance report``; ``## `` headings
  become the page's contents;
- ``doc.table(name, table, view, caption=None)``: ``table`` (with ``attrs["provenance"]``) goes
  to ``<name>.csv``, ``view`` (formatted cells) is shown as a sortable table with its provenance;
- ``doc.show(view, caption=..., file=..., provenance=...)``: part of a CSV written with
  ``doc.csv``, or ``source=...`` for a table that is not simulated (e.g. the rules' own data);
- ``doc.figure(name, fig, how_to_read)``: ``<name>.png`` with its caption;
- ``doc.finding(text)``: a line of the "Summary of findings" shown at the top;
- ``doc.verdict(text)``: the one line next to the game on the site's index, computed from the
  tables (``markdown.interval_verdict`` words an effect with its interval and whether it
  excludes zero);
- ``doc.write()`` at the end.
"""


import importlib
import importlib.util
from dataclasses import dataclass, field
from types import ModuleType
from typing import Callable, Mapping


@dataclass(frozen=True)
class Bench:
    """What ``balance bench`` times of a game (cli/bench.py, docs/benchmarks.md).

    speed : (rule options, strategy, label) rows of the speed table; ``quick`` the indices of
        those that ``--quick`` keeps; each row plays ``games_share`` of the bench's game count.
    end_to_end : rule options of the end-to-end, cold-start and streaming rows (one game's).
    straight : ``straight(variant, key, out)``, a minimal kernel that writes the engine's table
        with random players and nothing of the engine (the overhead row), at ``straight_rules``,
        ``straight_games`` games.
    adapters : the rule options the adapters are timed at.
    openspiel : the module that times the same game in OpenSpiel (``require_openspiel``,
        ``decisions_per_game(rules)``, ``openspiel_speed(rules, n_python, n_cpp)``), at each of
        ``openspiel_rules``.
    explore : (rule options, changed options): the live page's paired difference at +-1 pp.
    """
    speed: tuple = ()
    quick: tuple = ()
    games_share: float = 0.2
    end_to_end: Mapping | None = None
    straight: Callable | None = None
    straight_rules: Mapping = field(default_factory=dict)
    straight_games: int = 500_000
    adapters: tuple = ({},)
    openspiel: str | None = None
    openspiel_rules: tuple = ()
    explore: tuple | None = None


@dataclass(frozen=True)
class Study:
    """What a game's study declares, in one place (scikit-learn's ``Tags``); every field may be
    left out. The shared modules read it through :func:`study_of`, never by attribute name.

    levels : level name -> strategy for the card table and the comparisons; None derives them
        from the spec (random, ``spec.heuristic``, the shipped trained policy or strong field:
        analysis.interventions.levels).
    edge : the headline metric a card's effect is read on (None: the spec's primary metric).
    metrics : ``game_metrics(records, n_seats) -> {name: per-game values}``, the game's own
        per-game metrics beside the generic ones (analysis.workbench.metrics).
    cards : ``cards(rules) -> [Card]``, the card table's cards (analysis.interventions).
    balance : named groups of balance targets for ``balance tune`` (analysis.workbench.targets).
    training, field : the recipes of ``balance train`` and ``balance field`` (docs/training.md).
    write_report : ``write_report(out_dir, **run) -> Path``, the game's report (its sections).
    bench : what ``balance bench`` times of the game (:class:`Bench`).
    """
    levels: Mapping[str, str] | None = None
    edge: str | None = None
    metrics: Callable | None = None
    cards: Callable | None = None
    balance: Mapping = field(default_factory=dict)
    training: Mapping | None = None
    field: Mapping | None = None
    write_report: Callable | None = None
    bench: Bench = Bench()


# a study module written before the record: its module-level names, read once here
_NAMES = {"levels": "LEVELS", "edge": "EDGE", "metrics": "game_metrics", "cards": "cards",
          "balance": "BALANCE", "training": "TRAINING", "field": "FIELD",
          "write_report": "write_report"}


def study_of(game: str) -> Study:
    """The game's :class:`Study` (an empty one for a game without a study). A study module
    without ``STUDY`` (a plugin written before the record) is read by its module-level names
    (``LEVELS``, ``EDGE``, ``game_metrics``, ``cards``, ``BALANCE``, ``TRAINING``, ``FIELD``,
    ``write_report``)."""
    module = study_module(game)
    if module is None:
        return Study()
    declared = getattr(module, "STUDY", None)
    if isinstance(declared, Study):
        return declared
    return Study(**{key: getattr(module, name) for key, name in _NAMES.items()
                    if getattr(module, name, None) is not None})


def study_module(game: str) -> ModuleType | None:
    """The study of a registered game (sim/games.py: ``home(game).study``), or None when it has
    none: how every shared module finds what a game declares (report, metrics, cards, goals)."""
    from sim.games import game_names, home

    if game not in game_names():
        return None
    name = home(game).study
    try:
        if importlib.util.find_spec(name) is None:
            return None
    except ModuleNotFoundError:   # a plugin whose package is gone: no study either
        return None
    return importlib.import_module(name)
