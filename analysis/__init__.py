"""Analysis: statistics, tables, plots and reports. No simulation happens in here except in the studies.

- ``stats``      intervals and tests on arrays (Wilson, seat advantage + Holm, chi-square
                 uniformity, Ludii balance, paired differences on common random numbers)
- ``tables``     a batch (``Results`` or its mergeable ``Summary``) -> tidy DataFrame, with the
                 batch's provenance in ``df.attrs["provenance"]``
- ``cards``      per-card tables (GIH / OH / GD / GNS win rates, IWD, Played WR, play rate) for
                 any game whose records carry per-seat card bitmasks
- ``plots``      DataFrame -> matplotlib Figure (no pyplot, no screen)
- ``evidence``   when an interval says nothing (fewer than MIN_GAMES games, or identical games):
                 ``unmeasured(n, low, high)``, the one rule reports, tables and tools share
- ``provenance`` where a table came from, and its one-line description for titles and captions
- ``studies``    one per game: ``studies.<game>`` runs its default study (and holds the game's own
                 tables) and writes its report through ``markdown.Doc``
- ``report``     finds the studies by game name, runs them, writes the HTML site
- ``markdown``   the report writer (Doc: Markdown and HTML from one content) and shared formatters
- ``workbench``  sweep, ablate, sensitivity, tune and adaptive sample sizes for every game
                 (``balance sweep|ablate|sensitivity|tune``, ``--precision``; docs/workbench.md)
"""
