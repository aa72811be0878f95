"""Plots: the right marks on the axes, titles that carry the provenance, PNGs that render."""
import io

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from analysis import plots
from analysis import tables as T
from sim.runner import simulate


@pytest.fixture(scope="module")
def batch():
    return simulate("parthian", {"n_players": 5}, "random", 2000, seed=4, stream=True)


def png_bytes(fig: Figure) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return buffer.getvalue()


def test_win_rate_plot(batch):
    table = T.seat_table(batch)
    fig = plots.win_rate_plot(table)
    ax = fig.axes[0]
    assert "Parthian Shot" in ax.get_title() and "n=2,000" in ax.get_title()
    assert "5 players" in ax.get_title()
    points = ax.lines[0].get_ydata()
    np.testing.assert_allclose(points, table["win_rate"])
    ticks = next(c for c in ax.collections if c.get_label().startswith("fair share"))
    fair = ticks.get_segments()  # one fair-share tick per seat
    assert len(fair) == 5 and all(seg[0][1] == pytest.approx(table["fair"][0]) for seg in fair)
    assert png_bytes(fig).startswith(b"\x89PNG")


def test_length_plot(batch):
    counts = T.length_counts(batch)
    fig = plots.length_plot(counts)
    assert len(fig.axes[0].patches) == len(counts)
    stacked = T.stack([({"players": 5}, counts), ({"players": 6}, counts)])
    assert len(plots.length_plot(stacked, group="players").axes[0].lines) == 2


def test_sweep_plot_draws_a_line_and_band_per_group():
    table = pd.DataFrame({"players": [3, 3, 4, 4], "offset": [0, 1, 0, 1],
                          "rate": [0.5, 0.4, 0.6, 0.5], "rate_low": [0.45, 0.35, 0.55, 0.45],
                          "rate_high": [0.55, 0.45, 0.65, 0.55]})
    fig = plots.sweep_plot(table, "offset", "rate", "players")
    ax = fig.axes[0]
    assert len(ax.lines) == 2 and len(ax.collections) == 2
    np.testing.assert_allclose(ax.lines[1].get_ydata(), [0.6, 0.5])
    assert png_bytes(fig)


def test_heatmap_writes_every_cell():
    table = pd.DataFrame([(a, b, (i + j) / 6) for i, a in enumerate("ABCD") for j, b in enumerate("ABCD")],
                         columns=["leader", "opponent", "win_rate"])
    fig = plots.heatmap(table, "leader", "opponent", "win_rate", center=0.5, cmap="RdBu_r")
    ax = fig.axes[0]
    assert len(ax.texts) == 16
    assert ax.images[0].get_array().shape == (4, 4)
    assert ax.images[0].norm.vmin + ax.images[0].norm.vmax == pytest.approx(1.0)  # centred on 0.5
    assert png_bytes(fig)
