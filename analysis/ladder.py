"""A rating ladder: a round-robin tournament of strategies with rotated seats, rated by a
Plackett-Luce model (Bradley-Terry for two seats) with bootstrap intervals.

    balance ladder GAME -s random -s HEURISTIC -s ismcts:budget=64 --games 400

Every table of the tournament seats a combination of the strategies, cycled over the seats and
rotated every game (``rotate_seats``), so that no strategy keeps a seat with a turn-order
advantage. A game won by one strategy is a "top-1" observation: that strategy was chosen among
the distinct strategies at the table. choix's I-LSR fits the Plackett-Luce strengths by maximum
likelihood; for two seats that is the Bradley-Terry model. Games nobody wins and wins shared
between strategies carry no ranking and are counted apart. Ratings are on the Elo scale
(400 / ln 10 per unit of log-strength, mean 0); intervals are percentiles of ratings refitted on
games resampled with replacement.
"""
from __future__ import annotations

import itertools
from typing import Sequence

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from sim import __version__
from sim.errors import RunError
from sim.games import get_game
from sim.runner import as_rules, simulate
from sim.strategy import lookup

ELO = 400 / np.log(10)


def tables_for(n_strategies: int, n_seats: int) -> list[tuple[int, ...]]:
    """Which strategies meet at each table: every combination of min(K, N) of the K strategies,
    cycled over the N seats."""
    size = min(n_strategies, n_seats)
    return [tuple(combo[s % size] for s in range(n_seats))
            for combo in itertools.combinations(range(n_strategies), size)]


def play_ladder(game: str, strategies: Sequence[str], rules=None, n_games: int = 400,
                seed: int = 0, jobs: int = 1, progress: bool = False) -> pd.DataFrame:
    """Play the tournament: one row per game with the table, the winning strategy (-1: nobody
    or shared between strategies) and its seats' strategies."""
    spec = get_game(game)
    rules = as_rules(spec, rules)
    players = list(dict.fromkeys(strategies))
    # a strategy given as an object (a user's or a Python agent) is named by its label
    names = [s if isinstance(s, str) else lookup(spec, s).name for s in players]
    if len(players) < 2 or len(set(names)) < len(names):
        raise RunError(f"a ladder needs at least two different strategies with different "
                       f"names, got {names}")
    rows = []
    tables = tables_for(len(names), rules.n_seats)
    for t, table in enumerate(tqdm(tables, desc=f"{game} ladder", disable=not progress)):
        batch = simulate(spec, rules, [players[i] for i in table], n_games, seed, jobs=jobs,
                         rotate_seats=True, progress=False)
        records = batch.records
        shares = records[[f"win_{s}" for s in range(rules.n_seats)]].to_numpy()
        rotation = records["rotation"].to_numpy()
        for g in range(len(records)):
            # with rotation r, seat s plays slot (s + r) mod N
            slot_of = [(s + rotation[g]) % rules.n_seats for s in range(rules.n_seats)]
            winners = {table[slot_of[s]] for s in range(rules.n_seats) if shares[g, s] > 0}
            rows.append((t, len(set(table)), winners.pop() if len(winners) == 1 else -1,
                         tuple(sorted(set(table)))))
    frame = pd.DataFrame(rows, columns=["table", "n_strategies", "winner", "present"])
    frame.attrs["strategies"] = names
    frame.attrs["provenance"] = {"game": spec.name, "variant": rules.to_dict(),
                                 "strategies": names, "n_games": n_games * len(tables),
                                 "games_per_table": n_games, "seed": seed, "version": __version__,
                                 "rotate_seats": True}
    return frame


def _fit(n_items: int, data: list) -> np.ndarray:
    import choix

    strengths = choix.ilsr_top1(n_items, data, alpha=1e-4, max_iter=500, tol=1e-9)
    return ELO * (strengths - strengths.mean())


def ratings(games: pd.DataFrame, confidence: float = 0.95, resamples: int = 200,
            seed: int = 0) -> pd.DataFrame:
    """Plackett-Luce (Bradley-Terry for two seats) ratings of a played ladder, Elo scale, with
    percentile bootstrap intervals, wins, games decided and the raw win share per strategy."""
    names = games.attrs["strategies"]
    decided = games[games["winner"] >= 0]
    data = [(int(w), tuple(i for i in present if i != w))
            for w, present in zip(decided["winner"], decided["present"])]
    if not data:
        raise RunError("no game of the ladder was won by a single strategy: nothing to rate")
    estimate = _fit(len(names), data)
    rng = np.random.default_rng(seed)
    boot = np.array([_fit(len(names), [data[i] for i in rng.integers(0, len(data), len(data))])
                     for _ in range(resamples)])
    alpha = (1 - confidence) / 2
    played = np.array([sum(i in p for p in games["present"]) for i in range(len(names))])
    won = np.array([int((decided["winner"] == i).sum()) for i in range(len(names))])
    table = pd.DataFrame({
        "strategy": names, "rating": estimate,
        "ci_low": np.quantile(boot, alpha, axis=0), "ci_high": np.quantile(boot, 1 - alpha, axis=0),
        "games": played, "wins": won, "win_share": won / np.maximum(played, 1)})
    table = table.sort_values("rating", ascending=False, ignore_index=True)
    table.attrs["provenance"] = {**games.attrs["provenance"], "model": "Plackett-Luce (choix "
                                 "I-LSR); Bradley-Terry for two seats", "bootstrap": resamples,
                                 "undecided_games": int((games["winner"] < 0).sum())}
    return table


def rating_plot(table: pd.DataFrame, title: str | None = None):
    """Ratings with their intervals, strongest on top."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7, 0.5 + 0.45 * len(table)), layout="constrained")
    ax = fig.subplots()
    y = np.arange(len(table))[::-1]
    ax.errorbar(table["rating"], y, xerr=[table["rating"] - table["ci_low"],
                                          table["ci_high"] - table["rating"]],
                fmt="o", capsize=3)
    ax.set_yticks(y, table["strategy"])
    ax.axvline(0, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("rating (Elo scale, mean 0) with 95% bootstrap interval")
    prov = table.attrs.get("provenance", {})
    ax.set_title(title or f"{prov.get('game', '')} ladder: {prov.get('n_games', '?')} games, "
                 f"seats rotated, seed {prov.get('seed', '?')}", fontsize=9)
    return fig
