"""Analysis: statistics, tables, plots and reports. No simulation happens in here except in the <game>_report modules.

- ``stats``      intervals and tests on arrays (Wilson, seat advantage + Holm, chi-square
                 uniformity, Ludii balance, paired differences on common random numbers)
- ``tables``     a batch (``Results`` or its mergeable ``Summary``) -> tidy DataFrame, with the
                 batch's provenance in ``df.attrs["provenance"]``
- ``cards``      per-card tables (GIH / OH / GD / GNS win rates, IWD, Played WR, play rate) for
                 any game whose records carry per-seat card bitmasks
- ``sunzi``      Sunzi / Dynasties tables: sides, outcomes by round, the score general, cards,
                 the paired mode comparison, leader pairings
- ``plots``      DataFrame -> matplotlib Figure (no pyplot, no screen)
- ``provenance`` where a table came from, and its one-line description for titles and captions
- ``report``     which games have a report; ``<game>_report`` each default study -> Markdown + PNG + CSV
- ``markdown``   the report writer (Doc) and formatters the reports share
"""
