"""Balance tables: one batch (``Results`` or its ``Summary``) in -> tidy DataFrame out.

Every table is computed from the batch's mergeable Summary, so a streamed batch (no per-game
table) gives the same tables as a kept one; only :func:`paired_table` and :func:`value_counts`
need per-game records.
Each table carries its provenance in ``df.attrs["provenance"]`` (see analysis.provenance).

Win rates are over all games, so a seat's rate counts its shared wins as 1/k and the rates sum
to 1 minus the share of games nobody won (capped games, everyone routed). Tests of advantage
are over the decided games, where the fair share of a seat is exactly 1/N.
"""
from __future__ import annotations

from typing import Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from sim.games import get_game
from sim.results import Results, Summary

from .provenance import combined, describe, strategies_text, unpack, with_provenance
from .stats import (balance, holm, mean_interval, paired_difference, seat_advantage_test,
                    uniformity_test, wilson)

QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)


def n_decided(summary: Summary) -> int:
    """Games somebody won: each such game hands out win shares that sum to exactly 1."""
    return summary.n_decided


def seat_table(batch: Results | Summary, provenance: dict | None = None,
               confidence: float = 0.95) -> pd.DataFrame:
    """Win rate of every seat with its Wilson interval and a test against the fair share.

    Returns
    -------
    DataFrame, one row per seat
        seat, strategy, n_games, n_decided, wins (summed shares), win_rate, ci_low,
        ci_high, fair (1/N of the decided share), advantage (win_rate - fair), z, p, p_holm
        (Holm over the seats; see stats.seat_advantage_test).
    """
    summary, prov = unpack(batch, provenance)
    labels = prov.get("strategies") or [""] * summary.n_seats
    if summary.rotated:  # every strategy sat at every seat equally often
        labels = ["rotated"] * summary.n_seats
    frame = _share_table(summary, [[seat] for seat in range(summary.n_seats)], confidence)
    frame = frame.drop(columns="seats")
    frame.insert(0, "seat", np.arange(summary.n_seats))
    frame.insert(1, "strategy", list(labels))
    return with_provenance(frame, prov)


def strategy_table(batch: Results | Summary, provenance: dict | None = None,
                   confidence: float = 0.95) -> pd.DataFrame:
    """Win rate per seat of each strategy in a mix (seats with the same label pooled).

    A strategy holding k seats wins a share X of each game, X in [0, 1]; its Wilson interval is
    taken on X (one trial per game, which is honest: the k seats of one game are not
    independent) and divided by k to give a per-seat rate comparable with 1/N.

    Returns
    -------
    DataFrame, one row per strategy, in seat order
        strategy, seats (k), then the columns of :func:`seat_table` after ``strategy``.

    For a rotated-seat batch (``simulate(..., rotate_seats=True)``) the rates are free of any
    seat advantage: each strategy held every seat equally often.
    """
    summary, prov = unpack(batch, provenance)
    if "strategies" not in prov:
        raise ValueError("strategy_table needs the strategies per seat: pass Results, or a "
                         "provenance with 'strategies'")
    labels = list(prov["strategies"])
    names = list(dict.fromkeys(labels))
    groups = [[seat for seat, label in enumerate(labels) if label == name] for name in names]
    frame = _share_table(summary, groups, confidence, summary.slot_win_sums)
    frame.insert(0, "strategy", names)
    return with_provenance(frame, prov)


def strategy_seat_table(batch: Results | Summary, provenance: dict | None = None,
                        confidence: float = 0.95) -> pd.DataFrame:
    """Win rate of each strategy at each seat: turn-order effects per strategy.

    Meant for rotated-seat batches (``simulate(..., rotate_seats=True)``), where every strategy
    holds every seat in 1/N of the games (game g seats strategy (s + g) mod N at seat s); for a
    fixed-seat batch it lists each strategy at the seats it held. Seats of the same label pool.

    Returns
    -------
    DataFrame, one row per strategy x seat
        strategy, seat, n_games (games it held that seat), wins (summed shares), win_rate,
        ci_low, ci_high (Wilson), strategy_rate (its rate over all its seats), seat_effect
        (win_rate - strategy_rate).
    """
    summary, prov = unpack(batch, provenance)
    if "strategies" not in prov:
        raise ValueError("strategy_seat_table needs the strategies: pass Results, or a "
                         "provenance with 'strategies'")
    labels, n = list(prov["strategies"]), summary.n_seats
    names = list(dict.fromkeys(labels))
    if summary.rotated:
        by_rotation, games_by_rotation = summary.win_sums_by_rotation, summary.rotation_games
        # slot j sits at seat s in the games of rotation (j - s) mod N
        def held(slot, seat):
            r = (slot - seat) % n
            return games_by_rotation[r], by_rotation[r, seat]
    else:
        def held(slot, seat):
            return (summary.n_games, summary.win_sums[seat]) if slot == seat else (0, 0.0)
    rows = []
    for name in names:
        slots = [j for j, label in enumerate(labels) if label == name]
        for seat in range(n):
            parts = [held(j, seat) for j in slots]
            games, wins = int(sum(p[0] for p in parts)), float(sum(p[1] for p in parts))
            if games:
                rows.append({"strategy": name, "seat": seat, "n_games": games, "wins": wins})
    frame = pd.DataFrame(rows)
    frame["win_rate"] = frame["wins"] / frame["n_games"]
    low, high = wilson(frame["wins"].to_numpy(), frame["n_games"].to_numpy(), confidence)
    frame["ci_low"], frame["ci_high"] = low, high
    totals = frame.groupby("strategy", sort=False)[["wins", "n_games"]].transform("sum")
    frame["strategy_rate"] = totals["wins"] / totals["n_games"]
    frame["seat_effect"] = frame["win_rate"] - frame["strategy_rate"]
    return with_provenance(frame, prov)


def _share_table(summary: Summary, groups: list[list[int]], confidence: float,
                 win_sums: np.ndarray | None = None) -> pd.DataFrame:
    """Pooled win shares of groups of seats (or of strategy slots, given ``win_sums``)."""
    n, decided, n_seats = summary.n_games, n_decided(summary), summary.n_seats
    k = np.array([len(g) for g in groups], float)
    win_sums = summary.win_sums if win_sums is None else win_sums
    wins = np.array([win_sums[g].sum() for g in groups])
    low, high = wilson(wins, n, confidence)
    fair = decided / n / n_seats
    with np.errstate(divide="ignore", invalid="ignore"):  # no decided game, or one group = all seats
        test = seat_advantage_test(wins, decided, k / n_seats)
    return pd.DataFrame({
        "seats": k.astype(int), "n_games": n, "n_decided": decided, "wins": wins,
        "win_rate": wins / (k * n), "ci_low": low / k, "ci_high": high / k, "fair": fair,
        "advantage": wins / (k * n) - fair, "z": test["z"], "p": test["p"], "p_holm": test["p_holm"]})


def end_reason_table(batch: Results | Summary, provenance: dict | None = None,
                     confidence: float = 0.95) -> pd.DataFrame:
    """How games end: count and rate of each end reason with a Wilson interval.

    Returns
    -------
    DataFrame, one row per end reason
        end_reason, games, rate, ci_low, ci_high, unfinished (True for capped games).
    """
    summary, prov = unpack(batch, provenance)
    low, high = wilson(summary.end_counts, summary.n_games, confidence)
    frame = pd.DataFrame({"end_reason": list(summary.end_labels), "games": summary.end_counts,
                          "rate": summary.end_counts / summary.n_games, "ci_low": low,
                          "ci_high": high,
                          "unfinished": [r in summary.unfinished for r in summary.end_labels]})
    return with_provenance(frame, prov)


def length_counts(batch: Results | Summary, provenance: dict | None = None) -> pd.DataFrame:
    """Game-length distribution: one row per length from the shortest to the longest game.

    Returns
    -------
    DataFrame
        <length name> (e.g. rounds), games, share.
    """
    summary, prov = unpack(batch, provenance)
    hist = summary.length_hist
    lengths = np.flatnonzero(hist)
    span = np.arange(lengths.min(), lengths.max() + 1)
    frame = pd.DataFrame({summary.length_name: span, "games": hist[span],
                          "share": hist[span] / summary.n_games})
    return with_provenance(frame, prov)


def value_counts(batch: Results | pd.DataFrame, column: str, values: Sequence[int] | None = None,
                 provenance: dict | None = None, confidence: float = 0.95) -> pd.DataFrame:
    """Distribution of an integer record column (e.g. a final score margin, lead changes).

    Parameters
    ----------
    batch : Results with per-game records, or the records DataFrame.
    column : record column with integer values.
    values : values to list (default: every integer from the smallest to the largest seen), so
        that tables of several batches line up and a value nobody reached shows as 0.

    Returns
    -------
    DataFrame, one row per value
        <column>, games, share, ci_low, ci_high (95% Wilson interval of the share).
    """
    if isinstance(batch, Results):
        if batch.records is None:
            raise ValueError("value_counts needs per-game records; run simulate(..., stream=False)")
        records, prov = batch.records, dict(provenance or batch.provenance)
    else:
        records, prov = batch, dict(provenance or batch.attrs.get("provenance", {}))
    data = records[column].to_numpy().astype(np.int64)
    if values is None:
        values = np.arange(data.min(), data.max() + 1)
    values = np.asarray(values, np.int64)
    games = (data[:, None] == values[None, :]).sum(axis=0)
    low, high = wilson(games, len(data), confidence)
    frame = pd.DataFrame({column: values, "games": games, "share": games / len(data),
                          "ci_low": low, "ci_high": high})
    return with_provenance(frame, prov)


def length_table(batch: Results | Summary, provenance: dict | None = None,
                 quantiles: Sequence[float] = QUANTILES, confidence: float = 0.95) -> pd.DataFrame:
    """Game length in one row: mean (with interval), sd, min, quantiles, max.

    Quantiles are read off the length histogram as the smallest length whose cumulative share
    reaches q (``numpy.quantile(..., method="inverted_cdf")`` on the per-game lengths).

    Returns
    -------
    DataFrame, one row
        measure, n_games, mean, sd, ci_low, ci_high, min, q05 .. q95, max.
    """
    summary, prov = unpack(batch, provenance)
    hist, n = summary.length_hist, summary.n_games
    k = np.arange(hist.size)
    stats_ = mean_interval((k * hist).sum(), (k * k * hist).sum(), n, confidence)
    cumulative = np.cumsum(hist)
    # A tiny slack keeps q * n = 1000.0000000001 from skipping past a length that reaches 1000.
    picks = np.searchsorted(cumulative, np.asarray(quantiles) * n - 1e-9, side="left")
    row = {"measure": summary.length_name, "n_games": n, **{c: float(v) for c, v in stats_.items()},
           "min": int(np.flatnonzero(hist)[0])}
    row.update({f"q{round(q * 100):02d}": int(v) for q, v in zip(quantiles, picks)})
    row["max"] = int(np.flatnonzero(hist)[-1])
    return with_provenance(pd.DataFrame([row]), prov)


def seat_means_table(batch: Results | Summary, metrics: Sequence[str] | None = None,
                     provenance: dict | None = None, confidence: float = 0.95) -> pd.DataFrame:
    """Per-seat means of the game's seat columns (merits, wounds, charges played, score...).

    Parameters
    ----------
    metrics : names of seat columns without the seat suffix; default all of the game's.

    Returns
    -------
    DataFrame, one row per seat x metric (tidy)
        seat, strategy, metric, mean, sd, ci_low, ci_high (t-interval of the mean), min, max.
    """
    summary, prov = unpack(batch, provenance)
    metrics = list(metrics or get_game(summary.game).seat_columns)
    labels = prov.get("strategies") or [""] * summary.n_seats
    rows = [{"seat": seat, "strategy": labels[seat], "metric": metric, "column": f"{metric}_{seat}"}
            for seat in range(summary.n_seats) for metric in metrics]
    frame = pd.DataFrame(rows)
    frame = pd.concat([frame.drop(columns="column"),
                       _column_stats(summary, frame["column"], confidence)], axis=1)
    return with_provenance(frame, prov)


def _column_stats(summary: Summary, columns, confidence: float) -> pd.DataFrame:
    missing = [c for c in columns if c not in summary.columns]
    if missing:
        raise KeyError(f"no record column(s) {missing}; this batch has {list(summary.columns)}")
    idx = [summary.columns.index(c) for c in columns]
    stats_ = mean_interval(summary.sums[idx], summary.sumsq[idx], summary.n_games, confidence)
    return pd.DataFrame({**stats_, "min": summary.mins[idx], "max": summary.maxs[idx]})


def headline(batch: Results | Summary, end_reason: str | None = None,
             provenance: dict | None = None, confidence: float = 0.95) -> dict:
    """The few numbers that describe one batch, as a flat dict (one row of :func:`batch_table`).

    Keys: strategies, n_games, n_decided, [<end_reason>, _low, _high], balance (Ludii, over the
    seats' win rates), uniformity_p (chi-square over the seats), <length>_mean, _sd, _low, _high.
    """
    summary, prov = unpack(batch, provenance)
    n = summary.n_games
    row = {"strategies": strategies_text(prov.get("strategies", [])), "n_games": n,
           "n_decided": n_decided(summary)}
    if end_reason is not None:
        count = summary.end_counts[summary.end_labels.index(end_reason)]
        low, high = wilson(count, n, confidence)
        row.update({end_reason: count / n, f"{end_reason}_low": float(low),
                    f"{end_reason}_high": float(high)})
    row["balance"] = float(balance(summary.win_sums / n))
    row["uniformity_p"] = uniformity_test(summary.win_sums)[1] if row["n_decided"] else np.nan
    name = summary.length_name
    i = summary.columns.index(name)
    length = mean_interval(summary.sums[i], summary.sumsq[i], n, confidence)
    row.update({f"{name}_mean": float(length["mean"]), f"{name}_sd": float(length["sd"]),
                f"{name}_low": float(length["ci_low"]), f"{name}_high": float(length["ci_high"])})
    return row


def batch_table(batches: Sequence[tuple[Mapping, Results | Summary]], end_reason: str | None = None,
                confidence: float = 0.95) -> pd.DataFrame:
    """One row per batch: its keys (e.g. players, a rule option, a strategy mix) then :func:`headline`.

    Parameters
    ----------
    batches : sequence of (keys, batch)
        ``keys`` is a dict of the columns that identify the batch in the table.

    Returns
    -------
    DataFrame, one row per batch; ``attrs["provenance"] = {"batches": [...]}`` in row order.
    """
    rows, provenances = [], []
    for keys, batch in batches:
        summary, prov = unpack(batch)
        rows.append({**keys, **headline(summary, end_reason, prov, confidence)})
        provenances.append(prov)
    return with_provenance(pd.DataFrame(rows), combined(provenances))


def stack(tables: Sequence[tuple[Mapping, pd.DataFrame]]) -> pd.DataFrame:
    """Tables of several batches in one, each row prefixed by its batch's keys.

    Parameters
    ----------
    tables : sequence of (keys, table), e.g. ``[({"players": 3}, seat_table(r3)), ...]``.

    Returns
    -------
    DataFrame with the key columns first; ``attrs["provenance"] = {"batches": [...]}``.
    """
    parts = [table.assign(**keys)[[*keys, *table.columns]] for keys, table in tables]
    frame = pd.concat(parts, ignore_index=True)
    return with_provenance(frame, combined([table.attrs.get("provenance", {}) for _, table in tables]))


def paired_table(a: Results, b: Results,
                 metrics: Sequence[str] | Mapping[str, Callable[[pd.DataFrame], np.ndarray]],
                 confidence: float = 0.95) -> pd.DataFrame:
    """Paired differences a - b of two variants played on the same seeds (common random numbers).

    Parameters
    ----------
    a, b : Results with per-game records (not streamed), same seed and game ids.
    metrics : record columns (e.g. ``"win_0"``, ``"rounds"``), end-reason labels (e.g.
        ``"victory"``: the per-game indicator of that end), or a mapping name -> function of the
        records frame returning one value per game.

    Returns
    -------
    DataFrame, one row per metric
        metric, n, mean_a, mean_b, diff, ci_low, ci_high, p, p_holm (Holm over the metrics).
        ``attrs["provenance"] = {"a": ..., "b": ...}``.
    """
    if a.records is None or b.records is None:
        raise ValueError("paired_table needs per-game records; run simulate(..., stream=False)")
    if a.provenance.get("seed") != b.provenance.get("seed"):
        raise ValueError(f"variants were played on different seeds ({a.provenance.get('seed')} vs "
                         f"{b.provenance.get('seed')}): no common random numbers to pair")
    joined = a.records.merge(b.records, on="game_id", suffixes=("_a", "_b"), validate="one_to_one")
    if len(joined) != len(a.records) or len(joined) != len(b.records):
        raise ValueError("the two batches do not hold the same game ids")
    if not isinstance(metrics, Mapping):
        metrics = {name: _metric(name) for name in metrics}
    rows = []
    for name, fn in metrics.items():
        values_a = np.asarray(fn(_side(joined, "_a")), float)
        values_b = np.asarray(fn(_side(joined, "_b")), float)
        rows.append({"metric": name, **paired_difference(values_a, values_b, confidence)})
    frame = pd.DataFrame(rows)
    frame["p_holm"] = holm(frame["p"])
    return with_provenance(frame, {"a": dict(a.provenance), "b": dict(b.provenance)})


def _metric(name: str) -> Callable[[pd.DataFrame], np.ndarray]:
    def value(records: pd.DataFrame) -> np.ndarray:
        if name in records.columns:
            return records[name].to_numpy()
        if name in records["end_reason"].cat.categories:
            return (records["end_reason"] == name).to_numpy()
        raise KeyError(f"{name!r} is neither a record column nor an end reason")
    return value


def _side(joined: pd.DataFrame, suffix: str) -> pd.DataFrame:
    """One variant's columns from the merged frame, under their own names."""
    own = {c: c[:-len(suffix)] for c in joined.columns if c.endswith(suffix)}
    return joined[["game_id", *own]].rename(columns=own)


def summary_text(batch: Results | Summary, provenance: dict | None = None) -> str:
    """The headline tables of one batch as plain text for a terminal: seats, end reasons, length."""
    summary, prov = unpack(batch, provenance)
    seats = seat_table(summary, prov)[["seat", "strategy", "win_rate", "ci_low", "ci_high",
                                         "advantage", "p_holm"]]
    ends = end_reason_table(summary, prov).drop(columns="unfinished")
    length = length_table(summary, prov).drop(columns=["measure", "n_games"])
    row = headline(summary, None, prov)
    fmt = "{:.4f}".format
    return "\n\n".join([
        describe(prov),
        "Win rate per seat (a shared win counts 1/k; 95% Wilson interval; advantage = rate - "
        "fair share, p Holm-corrected):\n"
        + seats.to_string(index=False, float_format=fmt, formatters={"p_holm": "{:.2g}".format}),
        f"balance {row['balance']:.4f}; seat uniformity chi-square p = {row['uniformity_p']:.3g}",
        "End reasons (95% Wilson interval):\n" + ends.to_string(index=False, float_format=fmt),
        f"Game length ({summary.length_name}; 95% t-interval of the mean):\n"
        + length.to_string(index=False, float_format="{:.3f}".format)])


print_summary = summary_text  # the name cli/main.py calls (it prints the returned text)


def strategy_shares_text(results) -> str:
    """Each strategy's own win rate in a rotated batch: the per-seat rows of the summary are
    pooled over strategies there ("rotated"), so this is the figure a designer looks for."""
    table = strategy_table(results)[["strategy", "seats", "win_rate", "ci_low", "ci_high",
                                     "advantage", "p_holm"]]
    return ("Win rate per strategy (seats rotated: each strategy held every seat equally "
            "often; a strategy on k seats, its rate per seat; 95% Wilson interval; advantage = "
            "rate - fair share, p Holm-corrected):\n"
            + table.to_string(index=False, float_format="{:.4f}".format,
                              formatters={"p_holm": "{:.2g}".format}))
