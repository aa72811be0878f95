"""Samurai Sword's study: its default report (``report``), its cards for the interventional
card table (``cards``), the per-game metrics it declares (``game_metrics``) and how its shipped
trained policies are made (``TRAINING``)."""
from __future__ import annotations

import numpy as np

from games.samurai import layout as L

from analysis.field import tuned_heldout_line
from analysis.studies import Bench, Study

from .cards import cards, character_metric
from .report import strength_table, team_share, write_report

__all__ = ["write_report", "cards", "game_metrics", "team_share", "strength_table", "LEVELS",
           "EDGE", "BALANCE", "TRAINING", "FIELD"]

# The edge whose Shapley shares and synergies the card section shows: the Shogun team's win
# rate (the Shogun and the Samurai, SS-19), the study's headline.
EDGE = "team_shogun"
# `--balance teams` (analysis.workbench.targets): the gap between the teams' win rates at 0.
BALANCE = {"teams": "team_*"}


def game_metrics(records, n_seats: int) -> dict[str, np.ndarray]:
    """Per game: each team's win (``team_shogun``, ``team_ninja``, ``team_ronin`` at 5+ players;
    1 when the team won, SS-19 / SS-20; a capped game has no winner, OP-3), and for each printed
    character ``seat0_<character>``: seat 0's win in the games where seat 0 holds the character
    or an ability-less yardstick (Plain4 / Plain5), NaN in the others (the character table's
    ``yardstick`` rows). A role wins with its team, so a role's win rate is its team's."""
    team = records["winning_team"].to_numpy()
    out = {f"team_{name}": (team == t).astype(float) for t, name in enumerate(L.TEAM_NAMES)
           if name != "ronin" or n_seats >= 5}
    character = records["character_0"].to_numpy()
    win = records["win_0"].to_numpy(float)
    plain = (character == L.CH.PLAIN4) | (character == L.CH.PLAIN5)
    for c in range(L.N_PRINTED_CHARACTERS):
        out[character_metric(L.CHARACTER_NAMES[c])] = np.where((character == c) | plain, win, np.nan)
    return out


# How the shipped trained policies (games/samurai/policies/samurai-5p.json, samurai-3p.json) are
# made: `balance train samurai [--players 3]` alone (and analysis.training.regenerate_shipped)
# reads this. 5 players (the default count) first, then 3; there is no samurai.json, so
# `-s trained` at 4, 6 or 7 players finds no policy (seat the 5-player one with
# -s trained:games/samurai/policies/samurai-5p.json; docs/training.md measures it there).
# CMA-ES starts from the weights that play exactly shrewd (games.samurai.strategies.START_WEIGHTS)
# and trains one seat against tables of shrewd, of loyal, of random and a mixed table, and
# every 30 generations the policy of an earlier generation. Only the decisions that matter
# most are trained (which card to play, whom to aim it at, how to answer an attack, a Battle
# Cry or a Jujutsu); breathing, geisha, bushido, ieyasu and discard keep shrewd's play. seed 0
# is the CLI's default seed, so `balance train samurai --jobs 1` reproduces the file.
TRAINING = {"players": (5, 3, 4, 6, 7), "against": ("shrewd", "loyal", "random"), "hold_out": None,
            "generations": 120, "games": 400, "seed": 0, "sigma": 0.25, "pool_every": 30,
            "decisions": ("play", "target", "react", "battle_cry", "jujutsu")}

# How the shipped strong fields (games/samurai/policies/samurai-Np.field.json) are built:
# `balance field --shipped samurai`. PSRO's iteration 0: replicator dynamics over the built-ins
# and the trained policy of the player count (it puts the whole mixture on the trained policy),
# then the best-response search from both starts at the exploit search's default budget, with
# a fitness over the field's own seats (more than two players). A count ships only where the
# best response found stays within 5 points of the field's own share (issue 28's target for
# multi-player games); docs/training.md has the count measured and those left out.
# HELDOUT: measured after the build (docs/training.md), printed beside each count's
# exploitability (the recipe's "caveat"): avenger tuned against the field, its share with its
# Wilson interval and the field seats' in the same games, percent.
HELDOUT = {3: ((34.1, 32.7, 35.6), 32.9), 4: ((26.3, 24.9, 27.7), 24.6),
           5: ((19.2, 18.0, 20.5), 20.2), 6: ((14.7, 13.6, 15.8), 17.1),
           7: ((12.7, 11.7, 13.8), 14.6)}
FIELD = {"players": (5, 3, 4, 6, 7), "iterations": 0, "seed": 11,
         "per_players": {n: {"caveat": tuned_heldout_line("samurai", n, mine, field, "avenger")}
                         for n, (mine, field) in HELDOUT.items()}}

# What the shared modules read of this study (analysis.studies.Study); its levels of play are
# the spec's (analysis.interventions.levels).
BENCH = Bench(speed=tuple(({"n_players": n}, s, f"{n} players")
                          for s in ("random", "loyal") for n in (3, 5, 7)),
              adapters=({}, {"n_players": 7}))
STUDY = Study(edge=EDGE, metrics=game_metrics, cards=cards, balance=BALANCE,
              training=TRAINING, field=FIELD, write_report=write_report, bench=BENCH)
