"""The ``balance`` command: the layer above the engine (sim/) and the analysis (analysis/).

- ``main``: the parser and the commands (simulate, play, report, options, strategies, ladder,
  bench, new-game), and the workbench's (``workbench``: sweep, ablate, sensitivity, tune);
- ``bench``: the benchmark command, each measurement in a fresh process;
- ``new_game``: ``balance new-game NAME`` writes a new game's parts.

Commands import what they run only when they run, so that ``balance --help`` answers at once
without loading Numba, pandas or a game's kernels.
"""
