"""Held-out opponents: players written independently from the rules briefs, used only to measure.

Why they exist: a strong field trained against a fixed pool of built-in heuristics can be strong
against that pool and weak against everything else (issue 28: a plain heuristic written from the
Sunzi rules beat the shipped policy). Robustness is measured against opponents from outside the
pool the field learnt from: best responses computed against it, and players like these.

The rule: nothing trains against them. No training recipe, field, exploit search or tuner may put
them in its pool of opponents, its start or its fitness; the moment one does, they stop measuring
anything. That is why they live here, outside the game packages and outside the
installed packages (run them from the repository root), and why they were written from
``shared/rules/`` without copying the built-in heuristics.

- ``heldout.sunzi``: Sunzi / Dynasties players (``PLAYERS``: concentrate, spread, builder,
  mixer, attrition).
- ``heldout.sunzi_reader_gambler``: two more Sunzi players (``PLAYERS``: reader, gambler), written by a
  helper from the rules brief alone after the field's authors had read the first five while
  designing ``settle``; nobody who builds or tunes a field reads this file. Any
  ``heldout/<game>_*.py`` module's players join ``heldout/<game>.py``'s in heldout.measure and
  heldout.tune (``heldout.measure.modules``).
- ``heldout.sunzi_accountant``: ``accountant``, written by another helper from the rules brief alone
  to a one-paragraph idea (each region's chance of being held at the coming scoring, a logistic
  in the margin, against a distribution of the opponent's card), the idea the built-in
  ``planner`` was written on at the same time; its code was not read either.
- ``heldout.sunzi_solver_rusher``: ``solver`` (each round a small zero-sum matrix game between a few
  whole-round placements of its own and guesses of the opponent's, solved by regret matching,
  its placement sampled from the mixture) and ``rusher`` (strong cards on the best round-3
  tiles to win the first scoring, then defends its leads), written by a helper from the rules
  brief alone, without reading the built-in strategies or the other held-out players (it set
  the defaults by playing against greedy, counter and settle, never reading them); nobody who
  builds or tunes a field reads this file.
- ``heldout.shuojian``: Shuo Jian players (``PLAYERS``).
- ``heldout.samurai``: Samurai Sword players (``PLAYERS``, 3 to 7 players).
- ``heldout.parthian``: Parthian Shot players (``PLAYERS``: steward, jackal; 3 to 6 players),
  written by a helper from the rules brief and the observation's layout alone, without reading
  the built-ins, the trained policies or the other held-out players; its defaults were set
  against random, cautious and glory only, by name. Nobody who builds or tunes a field reads
  more of it than its docstring.
- ``heldout.measure``: a strategy's share against every one of them, rotated seats, Wilson
  intervals: ``python -m heldout.measure sunzi trained``; with more than two players one
  held-out seat among the strategy's seats, next to the field's share:
  ``python -m heldout.measure samurai strong --players 5``. Games nobody wins count as the
  game's own fields count them (its study's FIELD recipe: Parthian Shot's are lost by every
  seat), ``--undecided`` to override.
- ``heldout.tune``: the reviewers' check, a random search over one held-out player's knobs
  against a strategy, the best setting re-measured on fresh games (and, against a strong
  field, played against each of its members alone):
  ``python -m heldout.tune sunzi trained --player concentrate --settings 150 --games 1000``.

Each player is a user strategy (a ``numba.njit`` function with the engine's signature), so it
also sits at any table: ``balance simulate sunzi -s heldout/sunzi.py:concentrate -s trained``.
Its knobs are ``params``: each one shifts a setting from its default, so all zeros (what a seat
from the command line gets) is the player as described. Each module's ``KNOBS`` gives every
player's search range per knob, for ``heldout.tune``. Tuning a held-out player against a field
measures the field; a tuned setting still never becomes anything's training opponent.
"""
