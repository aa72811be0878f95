"""One study per game: ``analysis.studies.<game>`` for a built-in game, ``<package>.study`` for
a plugin game (sim/games.py: ``GameHome.study``), a module or a package, runs that game's default
balance study and writes its report. ``analysis.default_study`` writes the sections every game
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
from types import ModuleType


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
