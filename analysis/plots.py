"""Plots: a table from analysis.tables in -> matplotlib Figure out.

Figures are built with ``matplotlib.figure.Figure`` directly, never through pyplot: no screen,
no global figure registry to leak, and ``fig.savefig`` renders with the Agg backend. The title
of each figure says what it shows, then the table's provenance (game, variant, strategies, n).
"""
from __future__ import annotations

import textwrap
from typing import Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from .provenance import describe


def _figure(width: float = 7.0, height: float = 4.0):
    fig = Figure(figsize=(width, height), layout="constrained")
    return fig, fig.add_subplot()


def _title(ax, what: str, table: pd.DataFrame, title: str | None) -> None:
    provenance = table.attrs.get("provenance")
    line = title or (f"{what}\n{textwrap.fill(describe(provenance), 100)}" if provenance else what)
    ax.set_title(line, fontsize=9)


def _labels(table: pd.DataFrame, label: str | Sequence[str]) -> list[str]:
    columns = [label] if isinstance(label, str) else list(label)
    return [" | ".join(str(v) for v in row) for row in table[columns].itertuples(index=False)]


def win_rate_plot(table: pd.DataFrame, label: str | Sequence[str] = "seat",
                  title: str | None = None) -> Figure:
    """Win rate per row with its interval as error bars, and each row's fair share as a tick.

    Parameters
    ----------
    table : a :func:`~analysis.tables.seat_table` or ``strategy_table`` (or several
        concatenated): columns win_rate, ci_low, ci_high, fair, and the ``label`` column(s).
    label : column(s) that name a row on the x axis, e.g. "seat" or ["mix", "strategy"].
    """
    fig, ax = _figure(max(4.0, 0.45 * len(table) + 2), 4.0)
    x = np.arange(len(table))
    rate = table["win_rate"].to_numpy()
    # max(0, .): at a rate of exactly 0 or 1 float rounding can leave the bound a hair inside.
    err = np.maximum(np.vstack([rate - table["ci_low"], table["ci_high"] - rate]), 0)
    ax.errorbar(x, rate, yerr=err, fmt="o", capsize=4, label="win rate (95% CI)")
    # One fair-share tick per row, so that tables of different player counts can share a plot.
    ax.hlines(table["fair"], x - 0.4, x + 0.4, colors="grey", linestyles="--",
              label="fair share 1/N")
    ax.set_xticks(x, _labels(table, label), rotation=90 if len(table) > 8 else 0, fontsize=8)
    ax.set_ylabel("win rate per seat")
    ax.legend(fontsize=8)
    _title(ax, "Win rate per seat", table, title)
    return fig


def length_plot(counts: pd.DataFrame, group: str | None = None, title: str | None = None) -> Figure:
    """Game-length distribution: bars for one batch, one line per group for several.

    Parameters
    ----------
    counts : a :func:`~analysis.tables.length_counts` table (first column = the length, e.g.
        rounds; ``share``), or several concatenated with a ``group`` column.
    """
    fig, ax = _figure()
    length = counts.columns[0] if group is None else next(c for c in counts.columns if c != group)
    if group is None:
        ax.bar(counts[length], counts["share"], width=0.8)
    else:
        for key, part in counts.groupby(group, sort=False):
            ax.plot(part[length], part["share"], marker="o", label=f"{group} = {key}")
        ax.legend(fontsize=8)
    ax.set_xlabel(length)
    ax.set_ylabel("share of games")
    _title(ax, f"Game length ({length})", counts, title)
    return fig


def sweep_plot(table: pd.DataFrame, x: str, y: str, group: str | None = None,
               low: str | None = None, high: str | None = None, ylabel: str | None = None,
               title: str | None = None) -> Figure:
    """A metric against a swept parameter, with its interval as a band, one line per group.

    Parameters
    ----------
    table : e.g. a :func:`~analysis.tables.batch_table` with one row per (group, x).
    x, y : parameter column and metric column.
    low, high : interval columns; default ``y + "_low"`` / ``y + "_high"`` when present.
    """
    low = low or (f"{y}_low" if f"{y}_low" in table else None)
    high = high or (f"{y}_high" if f"{y}_high" in table else None)
    fig, ax = _figure()
    parts = table.groupby(group, sort=False) if group else [(None, table)]
    for key, part in parts:
        part = part.sort_values(x)
        line, = ax.plot(part[x], part[y], marker="o", label=None if key is None else f"{group} = {key}")
        if low and high:
            ax.fill_between(part[x], part[low], part[high], color=line.get_color(), alpha=0.25)
    if group:
        ax.legend(fontsize=8)
    ax.set_xlabel(x)
    ax.set_ylabel(ylabel or y)
    ax.grid(alpha=0.3)
    _title(ax, f"{ylabel or y} by {x}" + (" (band: 95% CI)" if low and high else ""), table, title)
    return fig


def heatmap(table: pd.DataFrame, row: str, col: str, value: str, fmt: str = "{:.2f}",
            cmap: str = "viridis", center: float | None = None, title: str | None = None) -> Figure:
    """A value over two keys, e.g. win rate of leader pairings or a rate over (players, offset).

    Parameters
    ----------
    table : tidy table with one row per (row, col) pair.
    fmt : format of the number written in each cell.
    center : value at the middle of the colour scale (use with a diverging cmap, e.g. the fair
        share with "RdBu_r"); default: the data's own range.
    """
    grid = table.pivot(index=row, columns=col, values=value)
    values = grid.to_numpy(float)
    fig, ax = _figure(max(4.0, 0.7 * grid.shape[1] + 2.5), max(3.0, 0.5 * grid.shape[0] + 1.5))
    vmin, vmax = np.nanmin(values), np.nanmax(values)
    if center is not None:
        span = max(abs(vmax - center), abs(center - vmin)) or 1.0
        vmin, vmax = center - span, center + span
    image = ax.imshow(values, cmap=cmap, vmin=vmin, vmax=vmax, aspect="auto")
    for (i, j), v in np.ndenumerate(values):
        if not np.isnan(v):
            ax.text(j, i, fmt.format(v), ha="center", va="center", fontsize=7,
                    color="white" if (v - vmin) < 0.5 * (vmax - vmin) else "black")
    ax.set_xticks(range(grid.shape[1]), [str(c) for c in grid.columns])
    ax.set_yticks(range(grid.shape[0]), [str(r) for r in grid.index])
    ax.set_xlabel(col)
    ax.set_ylabel(row)
    fig.colorbar(image, ax=ax, label=value)
    _title(ax, f"{value} by {row} and {col}", table, title)
    return fig
