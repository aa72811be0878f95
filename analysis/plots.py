"""Plots: a table from analysis.tables in -> matplotlib Figure out.

Figures are built with ``matplotlib.figure.Figure`` directly, never through pyplot: no screen,
no global figure registry to leak, and ``fig.savefig`` renders with the Agg backend. The title
of each figure says what it shows, then the table's provenance (game, variant, strategies, n).
"""
from __future__ import annotations

import textwrap
from typing import Mapping, Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from .provenance import describe


def _figure(width: float = 7.0, height: float = 4.0):
    fig = Figure(figsize=(width, height), layout="constrained")
    return fig, fig.add_subplot()


def _title(ax, what: str, table: pd.DataFrame, title: str | None) -> None:
    provenance = table.attrs.get("provenance")
    # Wrap to the figure's width (about 12 characters an inch at 9 pt).
    width = max(40, int(ax.figure.get_figwidth() * 12))
    what = textwrap.fill(what, width)
    line = title or (f"{what}\n{textwrap.fill(describe(provenance), width)}" if provenance else what)
    ax.set_title(line, fontsize=9)


def _labels(table: pd.DataFrame, label: str | Sequence[str]) -> list[str]:
    columns = [label] if isinstance(label, str) else list(label)
    return [" | ".join(str(v) for v in row) for row in table[columns].itertuples(index=False)]


def win_rate_plot(table: pd.DataFrame, label: str | Sequence[str] = "seat",
                  title: str | None = None, what: str = "Win rate per seat") -> Figure:
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
    names = _labels(table, label)
    # Upright names when they fit, slanted when they are long, vertical when there are many.
    slant = 90 if len(table) > 8 else (25 if sum(map(len, names)) > 70 else 0)
    ax.set_xticks(x, names, rotation=slant, ha="right" if slant == 25 else "center", fontsize=8)
    ax.set_ylabel("win rate per seat")
    ax.legend(fontsize=8)
    _title(ax, what, table, title)
    return fig


def length_plot(counts: pd.DataFrame, group: str | None = None, title: str | None = None) -> Figure:
    """Game-length distribution: bars for one batch, one line per group for several.

    Parameters
    ----------
    counts : a :func:`~analysis.tables.length_counts` table (first column = the length, e.g.
        rounds; ``share``), or several concatenated with a ``group`` column.
    """
    length = counts.columns[0] if group is None else next(c for c in counts.columns if c != group)
    return distribution_plot(counts, length, group, what=f"Game length ({length})", title=title)


def distribution_plot(counts: pd.DataFrame, x: str, group: str | None = None,
                      what: str | None = None, xlabel: str | None = None,
                      title: str | None = None) -> Figure:
    """Share of games at each value of ``x``: bars for one batch, one line per group for several.

    Parameters
    ----------
    counts : e.g. :func:`~analysis.tables.length_counts` or :func:`~analysis.tables.value_counts`
        (columns ``x`` and ``share``), or several concatenated with a ``group`` column.
    what : first line of the title (default "Distribution of <x>"); the provenance follows.
    """
    fig, ax = _figure()
    if group is None:
        ax.bar(counts[x], counts["share"], width=0.8)
    else:
        for key, part in counts.groupby(group, sort=False):
            ax.plot(part[x], part["share"], marker="o", label=f"{group} = {key}")
        ax.legend(fontsize=8)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(xlabel or x)
    ax.set_ylabel("share of games")
    _title(ax, what or f"Distribution of {x}", counts, title)
    return fig


def difference_plot(table: pd.DataFrame, label: str | Sequence[str], value: str = "diff",
                    low: str = "ci_low", high: str = "ci_high", xlabel: str | None = None,
                    what: str | None = None, title: str | None = None) -> Figure:
    """Differences (e.g. paired differences against a baseline) with intervals and a zero line.

    One row per comparison, top to bottom in table order, named on the left (long names fit).

    Parameters
    ----------
    table : e.g. :func:`~analysis.tables.paired_table` rows, one per comparison.
    label : column(s) that name a row.
    """
    fig, ax = _figure(7.0, max(2.5, 0.4 * len(table) + 1.8))
    y = np.arange(len(table))[::-1]
    est = table[value].to_numpy(float)
    lo, hi = table[low].to_numpy(float), table[high].to_numpy(float)
    # A difference with no spread (identical variants) has no interval: draw it as a bare dot.
    err = np.nan_to_num(np.maximum(np.vstack([est - lo, hi - est]), 0))
    ax.errorbar(est, y, xerr=err, fmt="o", capsize=4, label=f"{value} (95% CI)")
    ax.axvline(0, color="grey", linestyle="--", linewidth=1, label="no difference")
    ax.set_yticks(y, _labels(table, label), fontsize=8)
    ax.set_xlabel(xlabel or value)
    ax.grid(alpha=0.3, axis="x")
    ax.legend(fontsize=8)
    _title(ax, what or f"{xlabel or value}", table, title)
    return fig


def card_plot(table: pd.DataFrame, metrics: Sequence[str] = ("oh", "played"),
              names: Mapping[str, str] | None = None, title: str | None = None) -> Figure:
    """Per-card win rates with intervals, one panel per seat, and the seat's overall win rate.

    Parameters
    ----------
    table : a :func:`~analysis.cards.card_table` (columns side, card, win_rate and, per metric
        m, ``m_wr``, ``m_low``, ``m_high``).
    metrics : which win rates to draw side by side for each card (e.g. "gih", "oh", "played").
    names : legend text per metric (default the metric's 17lands name).
    """
    names = {**_CARD_METRIC_NAMES, **(names or {})}
    sides = list(dict.fromkeys(table["side"]))
    fig = Figure(figsize=(max(6.0, 0.55 * table["card"].nunique() * len(sides) + 2), 4.2),
                 layout="constrained")
    axes = fig.subplots(1, len(sides), sharey=True, squeeze=False)[0]
    width = 0.8 / len(metrics)
    for ax, side in zip(axes, sides):
        part = table[table["side"] == side]
        x = np.arange(len(part))
        for i, m in enumerate(metrics):
            est = part[f"{m}_wr"].to_numpy(float)
            err = np.nan_to_num(np.maximum(np.vstack([est - part[f"{m}_low"], part[f"{m}_high"] - est]), 0))
            ax.errorbar(x - 0.4 + width * (i + 0.5), est, yerr=err, fmt="o", capsize=3,
                        markersize=4, label=names.get(m, m))
        ax.axhline(part["win_rate"].iloc[0], color="grey", linestyle="--", linewidth=1,
                   label="overall win rate")
        ax.set_xticks(x, [str(c) for c in part["card"]], fontsize=8)
        ax.set_xlabel("card")
        ax.set_title(str(side), fontsize=9)
        ax.grid(alpha=0.3, axis="y")
    axes[0].set_ylabel("win rate (95% CI)")
    axes[0].legend(fontsize=7)
    provenance = table.attrs.get("provenance")
    fig.suptitle(title or ("Win rate by card" + (f"\n{textwrap.fill(describe(provenance), 110)}"
                                                 if provenance else "")), fontsize=9)
    return fig


_CARD_METRIC_NAMES = {"gih": "GIH WR (ever held)", "oh": "OH WR (opening hand)",
                      "gd": "GD WR (drawn later)", "gns": "GNS WR (never held)",
                      "noh": "not in opening hand", "played": "Played WR"}


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
            cmap: str = "viridis", center: float | None = None, title: str | None = None,
            rotation: float = 0, what: str | None = None) -> Figure:
    """A value over two keys, e.g. win rate of leader pairings or a rate over (players, offset).

    Parameters
    ----------
    table : tidy table with one row per (row, col) pair.
    fmt : format of the number written in each cell.
    center : value at the middle of the colour scale (use with a diverging cmap, e.g. the fair
        share with "RdBu_r"); default: the data's own range.
    rotation : angle of the column labels (e.g. 30 for long ones).
    what : first line of the title (default "<value> by <row> and <col>").
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
            # Black on light cells, white on dark ones, whatever the colour map.
            r, g, b, _ = image.cmap(image.norm(v))
            ax.text(j, i, fmt.format(v), ha="center", va="center", fontsize=7,
                    color="black" if 0.299 * r + 0.587 * g + 0.114 * b > 0.5 else "white")
    ax.set_xticks(range(grid.shape[1]), [str(c) for c in grid.columns], rotation=rotation,
                  ha="right" if rotation else "center")
    ax.set_yticks(range(grid.shape[0]), [str(r) for r in grid.index])
    ax.set_xlabel(col)
    ax.set_ylabel(row)
    fig.colorbar(image, ax=ax, label=value)
    _title(ax, what or f"{value} by {row} and {col}", table, title)
    return fig
