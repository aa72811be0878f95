"""Ablation: which design values matter, and in which direction.

Every declared tunable knob (sim.variant) is moved one step up and one step down from its
current value; each changed variant plays the same games as the base (same seed, same game ids:
common random numbers), and the effect on every headline metric is the mean paired difference
per game with its paired t-interval (analysis.stats.paired_difference). Pairing removes the
deal-to-deal noise both variants share, so effects far smaller than the unpaired intervals are
resolved. p-values are Holm-corrected over the comparisons of one metric.
"""
from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from sim import __version__
from sim.errors import RulesError

from . import metrics as M
from . import specs
from .precision import check_precision, open_run, run_batch
from ..stats import holm, paired_where_both


def paired_effects(game, rules, strategies, variants: Mapping[str, object], n_games: int = 10_000,
                   seed: int = 0, *, precision: float | None = None, max_games: int | None = None,
                   jobs: int = 1, progress: bool = False, run_dir=None) -> pd.DataFrame:
    """Paired effect of each variant against the base on every headline metric.

    Parameters
    ----------
    variants : {label: rules dataclass, or dict of option changes from the base}.
    n_games, precision : the base batch's size, or the precision it is grown to; every variant
        then plays exactly the base's games.
    run_dir : a folder (made by :func:`open_run`) that keeps every finished chunk.

    Returns
    -------
    DataFrame, one row per (variant, metric): variant, metric, n, base, changed (the variant's
    mean), diff (changed - base), ci_low, ci_high, p, corr and unpaired_half (what the pairing
    bought: analysis.stats.paired_difference), p_holm (Holm over the variants, per metric).
    """
    check_precision(precision, max_games)
    spec, base = specs.resolve(game, rules)
    base_run = run_batch(spec, base, strategies, n_games, seed, precision=precision,
                         max_games=max_games, jobs=jobs, stream=False, run_dir=run_dir)
    n = base_run.provenance["n_games"]
    base_values = M.per_game(base_run.records, spec, base.n_seats)
    rows, batches = [], [base_run.provenance]
    for label, variant in tqdm(variants.items(), desc=f"ablate {spec.name}", unit="variant",
                               disable=not progress):
        if isinstance(variant, Mapping):
            variant = base.replace(**variant)
        result = run_batch(spec, variant, strategies, n, seed, jobs=jobs, stream=False,
                           run_dir=run_dir)
        batches.append(result.provenance)
        values = M.per_game(result.records, spec, variant.n_seats)
        for metric, before in base_values.items():
            if metric not in values:
                continue
            d = paired_where_both(values[metric], before)  # a declared metric may be NaN in some games
            rows.append({"variant": label, "metric": metric, "n": n, "base": d["mean_b"],
                         "changed": d["mean_a"], "diff": d["diff"], "ci_low": d["ci_low"],
                         "ci_high": d["ci_high"], "p": d["p"], "corr": d["corr"],
                         "unpaired_half": d["unpaired_half"]})
    table = pd.DataFrame(rows, columns=["variant", "metric", "n", "base", "changed", "diff",
                                        "ci_low", "ci_high", "p", "corr", "unpaired_half"])
    table["p_holm"] = table.groupby("metric", sort=False)["p"].transform(
        lambda p: pd.Series(holm(p.to_numpy()), index=p.index))
    table.attrs["provenance"] = {"command": "paired_effects", "game": spec.name, "seed": int(seed),
                                 "n_games": n, "precision_pp": precision, "version": __version__,
                                 "batches": batches}
    return table


def ablate(game, rules=None, strategies="random", n_games: int = 10_000, seed: int = 0, *,
           knobs: Sequence[str] | None = None, precision: float | None = None,
           max_games: int | None = None, jobs: int = 1, progress: bool = False,
           run_dir=None) -> pd.DataFrame:
    """Every tunable knob one step up and one step down, paired against the current values.

    Parameters
    ----------
    knobs : knob or vector-option names (default: every declared tunable of the game).
    run_dir : a folder that keeps every finished chunk: the same call resumes a killed run.

    Returns
    -------
    DataFrame, one row per (knob, direction, metric): parameter, step (+1 / -1), value_from,
    value_to, status ("ok", or why the step was not played: out of bounds, refused by the
    rules), then the columns of :func:`paired_effects`.
    """
    spec, base = specs.resolve(game, rules)
    all_knobs = base.tunables()
    names = list(all_knobs) if knobs is None else \
        [k for name in knobs for k in specs.knob_names(name, base)]
    if not names:
        raise specs.WorkbenchError(f"{spec.title} declares no tunable parameters to ablate")
    variants, steps, skipped = {}, {}, []
    for name in names:
        knob = all_knobs[name]
        for direction in (+1, -1):
            value = knob.cast(knob.value + direction * knob.step)
            label = f"{name} {'+' if direction > 0 else '-'}{knob.step:g}"
            steps[label] = (name, direction, knob.value, value)
            if not knob.low <= value <= knob.high:
                skipped.append((label, "out of bounds"))
                continue
            try:
                variants[label] = base.with_knobs({name: value})
            except RulesError as refused:
                skipped.append((label, f"refused by the rules: {refused}"))
    run_dir = open_run(run_dir, "ablate", spec, base, strategies, seed=seed, n_games=n_games,
                       knobs=names, precision=precision, max_games=max_games)
    effects = paired_effects(spec, base, strategies, variants, n_games, seed, precision=precision,
                             max_games=max_games, jobs=jobs, progress=progress, run_dir=run_dir)
    rows = [effects.assign(status="ok")]
    if skipped:
        rows.append(pd.DataFrame([{"variant": label, "metric": m, "status": why}
                                  for label, why in skipped for m in effects["metric"].unique()]))
    table = pd.concat(rows, ignore_index=True)
    keys = pd.DataFrame([steps[label] for label in table["variant"]],
                        columns=["parameter", "step", "value_from", "value_to"])
    table = pd.concat([keys, table.drop(columns="variant")], axis=1)
    order = {name: i for i, name in enumerate(names)}
    table = table.sort_values(["metric", "parameter", "step"], key=lambda c: c.map(order)
                              if c.name == "parameter" else (-c if c.name == "step" else c),
                              kind="stable", ignore_index=True)
    table.attrs["provenance"] = {**effects.attrs["provenance"], "command": "ablate",
                                 "parameters": names}
    return table


def tornado(table: pd.DataFrame, metric: str | None = None, top: int = 20):
    """A tornado chart of one metric: per parameter, the paired effect of one step up and one
    step down with 95% intervals, the parameters that move it most on top."""
    from matplotlib.figure import Figure
    from ..plots import _title

    metric = metric or M.primary_metric(table.attrs["provenance"]["game"])
    part = table[(table["metric"] == metric) & (table["status"] == "ok")]
    if part.empty:
        raise specs.WorkbenchError(f"no ablation effects for metric {metric!r}; metrics: "
                                   f"{', '.join(table['metric'].unique())}")
    size = part.groupby("parameter", sort=False)["diff"].apply(lambda d: np.nanmax(np.abs(d)))
    order = list(size.sort_values(ascending=False).index[:top])[::-1]
    fig = Figure(figsize=(7.0, max(2.5, 0.35 * len(order) + 1.8)), layout="constrained")
    ax = fig.add_subplot()
    y = {name: i for i, name in enumerate(order)}
    for direction, colour, label in ((+1, "tab:red", "one step up"), (-1, "tab:blue", "one step down")):
        rows = part[(part["step"] == direction) & part["parameter"].isin(order)]
        ys = np.array([y[p] for p in rows["parameter"]]) + (0.18 if direction > 0 else -0.18)
        diff = rows["diff"].to_numpy(float)
        err = np.nan_to_num(np.vstack([diff - rows["ci_low"].to_numpy(float),
                                       rows["ci_high"].to_numpy(float) - diff]))
        ax.barh(ys, diff, height=0.34, color=colour, alpha=0.7, label=label)
        ax.errorbar(diff, ys, xerr=np.maximum(err, 0), fmt="none", ecolor="black", capsize=2,
                    linewidth=0.8)
    ax.axvline(0, color="grey", linewidth=1)
    ax.set_yticks(range(len(order)), order, fontsize=8)
    ax.set_xlabel(f"paired change in {metric} (95% CI)")
    ax.grid(alpha=0.3, axis="x")
    ax.legend(fontsize=8)
    _title(ax, f"Ablation: effect of one step on {metric}", _describable(table), None)
    return fig


def _describable(table: pd.DataFrame) -> pd.DataFrame:
    """A stand-in whose provenance analysis.provenance.describe can read (the batches)."""
    frame = pd.DataFrame()
    frame.attrs["provenance"] = {"batches": table.attrs["provenance"]["batches"]}
    return frame


def ablation_section(doc, game, rules=None, strategies="random", n_games: int = 10_000,
                     seed: int = 0, jobs: int = 1, metric: str | None = None) -> pd.DataFrame:
    """Add an ablation section (table + tornado chart) to a report: one line in a game's study.

    ``doc`` is an analysis.markdown.Doc. Returns the full ablation table.
    """
    from ..markdown import markdown_table, pp_text, p_text

    table = ablate(game, rules, strategies, n_games, seed, jobs=jobs)
    metric = metric or M.primary_metric(table.attrs["provenance"]["game"])
    part = table[(table["metric"] == metric)].reset_index(drop=True)
    view = pd.DataFrame({
        "parameter": part["parameter"],
        "step": [f"{a:g} -> {b:g}" for a, b in zip(part["value_from"], part["value_to"])],
        f"change in {metric}, pp (95% CI)": [s if s != "ok" else t for s, t in
                                              zip(part["status"], pp_text(part["diff"], part["ci_low"], part["ci_high"]))],
        "p (Holm)": part["p_holm"].map(p_text)})
    doc.text(f"## Ablation: which design values matter\n\nEvery tunable parameter "
             f"(`balance ablate {table.attrs['provenance']['game']}`) moved one step up and one step "
             f"down, each change played on the same {table.attrs['provenance']['n_games']:,} games "
             "as the current values (common random numbers); the change in "
             f"`{metric}` is the mean paired difference with its 95% paired interval, p "
             "Holm-corrected over the changes.")
    doc.table("ablation", table, view)
    doc.figure("ablation_tornado", tornado(table, metric),
               "Each bar is the paired change of one step up (red) or down (blue); the longest "
               "bars, on top, are the values a designer should tune first. A bar whose interval "
               "crosses zero has no effect we can distinguish from chance at this sample size.")
    return table
