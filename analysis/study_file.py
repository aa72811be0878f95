"""Studies as files: one TOML file describes a study, ``balance study FILE`` runs it and writes a
report that looks like the built-in ones (Markdown + HTML, CSVs, PNGs, provenance).

A file names the game and what every section shares, then its sections in order::

    title = "Samurai Sword: are the teams even at 5 players?"
    game = "samurai"
    players = 5                       # optional: n_players
    options = { turn_cap = 600 }      # optional: rule options, as -o takes them
    strategies = ["loyal", "shrewd", "random", "loyal", "shrewd"]   # one, or one per seat
    games = 20000                     # games per batch (or precision = 1.0, in pp)
    seed = 1

    [[section]]
    kind = "summary"                  # the headline and declared metrics, with intervals

    [[section]]
    kind = "tune"
    balance = ["teams"]               # goals: target = [...], balance = [...], target_file = ...
    vary = ["role_honour"]
    pareto = true

A section may override ``games``, ``precision``, ``strategies``, ``options`` and ``seed``.
Section kinds and their own keys (the workbench commands of the same names; docs/workbench.md):

==========  ========================================================================================
summary     metrics (names to show; default all)
sweep       vary (list of NAME=V1,V2), metric (the plotted one)
ablate      params (list), metric
cards       level (list), cards (list), interactions (k)
tune        target, balance, target_file (lists), vary, over (lists), pareto, fewest_changes,
            trials, search_games, tolerance, distance
compare     a, b (lists of NAME=VALUE,...), a_strategies, b_strategies, metric, delta (pp),
            alpha, power, alternative, max_games
skill       best (the heuristic), budgets (search iterations, e.g. [16, 64])
==========  ========================================================================================

Unknown keys and bad values are refused with the file's line. The file's path and its SHA-256
go into the provenance of every table the study writes.
"""
from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from sim import __version__
from sim.errors import BalanceError
from sim.games import game_names, get_game
from sim.runner import as_rules

SHARED = {"games", "precision", "strategies", "options", "seed"}
TOP = {"title", "game", "players", "description", *SHARED}
KINDS = {
    "summary": {"metrics"},
    "sweep": {"vary", "metric"},
    "ablate": {"params", "metric"},
    "cards": {"level", "cards", "interactions"},
    "tune": {"target", "balance", "target_file", "vary", "over", "pareto", "fewest_changes",
             "trials", "search_games", "tolerance", "distance"},
    "compare": {"a", "b", "a_strategies", "b_strategies", "metric", "delta", "alpha", "power",
                "alternative", "max_games"},
    "skill": {"best", "budgets"},
}
LISTS = {"metrics", "vary", "params", "level", "cards", "target", "balance", "target_file",
         "over", "a", "b", "budgets"}


class StudyFileError(BalanceError):
    """A study file that cannot be run: the message names the file and the line."""


@dataclass
class Study:
    path: Path
    text: str
    title: str
    game: str
    rules: object
    shared: dict
    sections: list[dict] = field(default_factory=list)

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.text.encode()).hexdigest()

    def provenance(self) -> dict:
        return {"study_file": str(self.path), "study_sha256": self.digest, "version": __version__}


def _line(text: str, key: str, after: int = 0) -> int:
    """The file line of ``key = ...`` (the first at or after line ``after``), for messages."""
    pattern = re.compile(rf"^\s*{re.escape(key)}\s*=")
    for number, line in enumerate(text.splitlines(), start=1):
        if number >= after and pattern.match(line):
            return number
    return after or 1


def _section_lines(text: str) -> list[int]:
    return [n for n, line in enumerate(text.splitlines(), start=1)
            if line.strip().startswith("[[section]]")]


def load(path) -> Study:
    """Read and check a study file; every problem is a StudyFileError naming its line."""
    path = Path(path)
    if not path.is_file():
        raise StudyFileError(f"study file {str(path)!r}: no such file")
    text = path.read_text(encoding="utf-8-sig")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise StudyFileError(f"{path}: not valid TOML: {error}") from None

    def fail(message: str, key: str | None = None, after: int = 0):
        line = _line(text, key, after) if key else after or 1
        raise StudyFileError(f"{path}, line {line}: {message}")

    for key in data:
        if key not in TOP and key != "section":
            fail(f"unknown key {key!r}; a study file's keys are {', '.join(sorted(TOP))} and "
                 "[[section]] tables", key)
    if "game" not in data:
        fail(f"no game: add game = \"NAME\" (one of {', '.join(game_names())})")
    if data["game"] not in game_names():
        fail(f"unknown game {data['game']!r}; the games are {', '.join(game_names())}", "game")
    spec = get_game(data["game"])
    options = dict(data.get("options", {}))
    if not isinstance(options, dict):
        fail("options must be a table, e.g. options = { mode = \"advanced\" }", "options")
    if "players" in data:
        options["n_players"] = data["players"]
    try:
        rules = as_rules(spec, {k: _text(v) for k, v in options.items()})
    except BalanceError as error:
        fail(str(error), "options" if "options" in data else "players")
    shared = {k: data[k] for k in SHARED - {"options"} if k in data}
    _check_shared(shared, fail, 0)
    sections = data.get("section", [])
    if not isinstance(sections, list) or not sections:
        fail("no sections: add at least one [[section]] with kind = \"summary\" (or sweep, "
             "ablate, cards, tune, compare, skill)")
    starts = _section_lines(text)
    for number, section in enumerate(sections):
        start = starts[number] if number < len(starts) else 0
        kind = section.get("kind")
        if kind not in KINDS:
            fail(f"section {number + 1}: kind {kind!r} must be one of {', '.join(KINDS)}",
                 "kind", start)
        for key, value in section.items():
            if key != "kind" and key not in KINDS[kind] and key not in SHARED:
                fail(f"section {number + 1} ({kind}): unknown key {key!r}; a {kind} section "
                     f"takes {', '.join(sorted(KINDS[kind] | SHARED))}", key, start)
            if key in LISTS and not isinstance(value, list):
                fail(f"section {number + 1} ({kind}): {key} must be a list, e.g. "
                     f"{key} = [\"...\"]", key, start)
        _check_shared(section, fail, start)
        _check_values(section, kind, number, fail, start)
        if "options" in section:
            try:
                section_rules(rules, section)
            except BalanceError as error:
                fail(f"section {number + 1} ({kind}): {error}", "options", start)
        if "target_file" in section:  # a file named in a study is found beside the study
            section["target_file"] = [str((path.parent / f).resolve()) if not Path(f).is_absolute()
                                      else f for f in section["target_file"]]
            for f in section["target_file"]:
                if not Path(f).is_file():
                    fail(f"section {number + 1} (tune): target file {f!r}: no such file",
                         "target_file", start)
    return Study(path, text, data.get("title", f"{spec.title}: a study"), spec.name, rules,
                 shared, [dict(s) for s in sections])


VALUE_CHECKS = {  # key: (test, what a good value is)
    "tolerance": (lambda v: isinstance(v, (int, float)) and 0 < v < 1, "a number in (0, 1)"),
    "trials": (lambda v: isinstance(v, int) and v >= 1, "an integer >= 1"),
    "search_games": (lambda v: isinstance(v, int) and v >= 1000, "an integer >= 1000"),
    "max_games": (lambda v: isinstance(v, int) and v >= 1000, "an integer >= 1000"),
    "interactions": (lambda v: isinstance(v, int) and (v == 0 or 2 <= v <= 8), "0 or 2 to 8"),
    "pareto": (lambda v: isinstance(v, bool), "true or false"),
    "fewest_changes": (lambda v: isinstance(v, bool), "true or false"),
    "distance": (lambda v: v in ("max", "rms"), "\"max\" or \"rms\""),
    "alternative": (lambda v: v in ("two-sided", "greater", "less"),
                    "\"two-sided\", \"greater\" or \"less\""),
    "alpha": (lambda v: isinstance(v, (int, float)) and 0 < v < 0.5, "a number in (0, 0.5)"),
    "power": (lambda v: isinstance(v, (int, float)) and 0.5 < v < 1, "a number in (0.5, 1)"),
    "delta": (lambda v: isinstance(v, (int, float)) and v > 0, "a positive number (pp)"),
}


def _check_values(section: dict, kind: str, number: int, fail, start: int) -> None:
    for key, (good, wanted) in VALUE_CHECKS.items():
        if key in section and (isinstance(section[key], bool) and wanted != "true or false"
                               or not good(section[key])):
            fail(f"section {number + 1} ({kind}): {key} must be {wanted}, got "
                 f"{section[key]!r}", key, start)


def _check_shared(table: dict, fail, start: int) -> None:
    if "games" in table and (not isinstance(table["games"], int) or table["games"] < 2):
        fail(f"games must be an integer >= 2, got {table['games']!r}", "games", start)
    if "precision" in table and not (isinstance(table["precision"], (int, float))
                                     and 0 < table["precision"] <= 50):
        fail(f"precision must be a number of pp in (0, 50], got {table['precision']!r}",
             "precision", start)
    if "seed" in table and not isinstance(table["seed"], int):
        fail(f"seed must be an integer, got {table['seed']!r}", "seed", start)
    if "strategies" in table and not isinstance(table["strategies"], (str, list)):
        fail("strategies must be a name or a list of names", "strategies", start)


# --- running ------------------------------------------------------------------------------------

def run(study: Study | str | Path, out_dir=None, *, jobs: int = 1, progress: bool = False) -> Path:
    """Run every section in order and write the report; returns its index.md."""
    from .markdown import Doc

    if not isinstance(study, Study):
        study = load(study)
    out = Path(out_dir) if out_dir else Path("reports") / "studies" / study.path.stem
    doc = Doc(out)
    spec = get_game(study.game)
    doc.text(f"# {study.title}\n\nA study file (`{study.path.name}`, SHA-256 "
             f"`{study.digest[:16]}`) run by `balance study` (balance-toolkit {__version__}) on "
             f"{spec.title}, {_variant_text(study.rules)}.")
    for number, section in enumerate(study.sections, start=1):
        settings = {**study.shared, **{k: v for k, v in section.items() if k in SHARED}}
        rules = section_rules(study.rules, section)
        RUNNERS[section["kind"]](doc, spec, rules, section, settings, number, jobs, progress,
                                 study.provenance())
    return doc.write()


def _text(value) -> str:
    """A TOML value as the text ``-o`` takes (lists joined by commas): the one conversion of
    option values, the command line's."""
    return ",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)


def section_rules(rules, section: dict):
    """The study's variant with a section's own ``options``."""
    if "options" not in section:
        return rules
    if not isinstance(section["options"], dict):
        raise StudyFileError("options must be a table, e.g. options = { mode = \"advanced\" }")
    return rules.replace(**{k: _text(v) for k, v in section["options"].items()})


def _variant_text(rules) -> str:
    return ", ".join(f"{k}={v}" for k, v in rules.to_dict(options_only=True).items()
                     if v is not None) or "default rules"


def _strategies(settings):
    s = settings.get("strategies", "random")
    return s if isinstance(s, str) or len(s) != 1 else s[0]


def _stamp(table: pd.DataFrame, study_provenance: dict) -> pd.DataFrame:
    table.attrs["provenance"] = {**table.attrs.get("provenance", {}), **study_provenance}
    return table


def _summary(doc, spec, rules, section, settings, number, jobs, progress, provenance):
    from .markdown import pct_text
    from .workbench import metrics as M
    from .workbench.precision import run_batch

    result = run_batch(spec, rules, _strategies(settings), settings.get("games", 10_000),
                       settings.get("seed", 0), precision=settings.get("precision"), jobs=jobs,
                       stream=not M.declares_metrics(spec))
    row = M.measured(result, spec, rules.n_seats)
    names = section.get("metrics") or [m for m in row if f"{m}_low" in row]
    missing = [m for m in names if m not in row]
    if missing:
        raise StudyFileError(f"section {number} (summary): unknown metric(s) "
                             f"{', '.join(missing)}; the metrics: "
                             f"{', '.join(m for m in row if f'{m}_low' in row)}")
    table = _stamp(pd.DataFrame([{"metric": m, "estimate": row[m], "ci_low": row[f"{m}_low"],
                                  "ci_high": row[f"{m}_high"]} for m in names]),
                   {**result.provenance, **provenance})
    view = pd.DataFrame({"metric": table["metric"], "estimate (95% CI)": [
        pct_text([e], [lo], [hi])[0] if not m.endswith("_mean") else f"{e:.2f} ({lo:.2f}-{hi:.2f})"
        for m, e, lo, hi in zip(table["metric"], table["estimate"], table["ci_low"],
                                table["ci_high"])]})
    doc.text(f"## {number}. Summary\n\n{row['n_games']:,} games, every metric with its 95% "
             "interval.")
    doc.table(f"s{number}_summary", table, view)


def _sweep(doc, spec, rules, section, settings, number, jobs, progress, provenance):
    from .workbench.sweep import sweep, sweep_figure

    table = _stamp(sweep(spec, section["vary"], rules, _strategies(settings),
                         settings.get("games", 10_000), settings.get("seed", 0),
                         precision=settings.get("precision"), jobs=jobs, progress=progress),
                   provenance)
    metric = section.get("metric")
    varied = list(table.attrs["provenance"]["vary"])
    shown = [c for c in table.columns if c in varied or (f"{c}_low" in table and
                                                         (metric is None or c == metric))]
    doc.text(f"## {number}. Sweep over {', '.join(varied)}\n\nEvery point plays the same games "
             "of the seed (common random numbers).")
    doc.table(f"s{number}_sweep", table, table[shown].round(4))
    figure = sweep_figure(table, metric)
    if figure is not None:
        doc.figure(f"s{number}_sweep", figure, "Each point with its 95% interval.")


def _ablate(doc, spec, rules, section, settings, number, jobs, progress, provenance):
    from .markdown import pp_text
    from .workbench.ablate import ablate, tornado
    from .workbench.metrics import primary_metric

    table = _stamp(ablate(spec, rules, _strategies(settings), settings.get("games", 10_000),
                          settings.get("seed", 0), knobs=section.get("params"),
                          precision=settings.get("precision"), jobs=jobs, progress=progress),
                   provenance)
    metric = section.get("metric") or primary_metric(spec)
    part = table[table["metric"] == metric]
    doc.text(f"## {number}. Ablation on `{metric}`\n\nEvery tunable one step up and down, "
             "paired against the current values; p Holm-corrected.")
    doc.table(f"s{number}_ablate", table, pd.DataFrame({
        "parameter": part["parameter"], "step": part["step"],
        f"change in {metric}, pp (95% CI)": pp_text(part["diff"], part["ci_low"], part["ci_high"]),
        "status": part["status"]}))
    doc.figure(f"s{number}_ablate", tornado(table, metric), "Paired change per step, longest first.")


def _cards(doc, spec, rules, section, settings, number, jobs, progress, provenance):
    from . import interventions as I

    precision = settings.get("precision")
    table = I.card_section(doc, spec, rules, n_games=None if precision else
                           settings.get("games", I.REPORT_GAMES), precision=precision,
                           level=section.get("level"), cards=section.get("cards"),
                           seed=settings.get("seed", 0), jobs=jobs,
                           k=section.get("interactions", I.INTERACTION_CARDS),
                           file_prefix=f"s{number}_cards")
    _stamp(table, provenance)


def _tune(doc, spec, rules, section, settings, number, jobs, progress, provenance):
    from .workbench.tune import front_figure, tune

    result = tune(spec, section.get("target", []), section["vary"], section.get("over"), rules,
                  _strategies(settings), settings.get("seed", 0),
                  trials=section.get("trials", 150), search_games=section.get("search_games",
                                                                              64_000),
                  tolerance=section.get("tolerance", 0.02),
                  fewest_changes=section.get("fewest_changes", False),
                  precision=settings.get("precision", 0.5), jobs=jobs, progress=progress,
                  balance=section.get("balance", []), target_files=section.get("target_file", []),
                  distance=section.get("distance", "max"), pareto=section.get("pareto", False))
    for table in (result.values, result.verified, *( [result.front] if result.front is not None else [])):
        _stamp(table, provenance)
    doc.text(f"## {number}. Tuning\n\nGoals: "
             + ", ".join(f"`{t}`" for t in result.verified.attrs["provenance"]["targets"])
             + ". The winner is re-played on a seed the search never used; "
             + ("every target is hit." if result.hit else "NOT every target is hit."))
    doc.table(f"s{number}_values", result.values, result.values)
    doc.table(f"s{number}_verified", result.verified, result.verified.round(4))
    if result.front is not None and len(result.front):
        front = result.front.drop(columns=["values"])
        doc.table(f"s{number}_front", front, front[["point", "changes", "changed",
                                                    "verified_distance"]].round(4))
        doc.figure(f"s{number}_front", front_figure(result.front),
                   "Each dot a front point verified on a fresh seed; the steps are the best "
                   "distance reached with that many changes. Pick the leftmost point under the "
                   "tolerance line.")


def _compare(doc, spec, rules, section, settings, number, jobs, progress, provenance):
    from .workbench.compare import compare

    result = compare(spec, section.get("a"), section.get("b"), rules=rules,
                     strategies=_strategies(settings), a_strategies=section.get("a_strategies"),
                     b_strategies=section.get("b_strategies"), metric=section.get("metric"),
                     delta=section.get("delta", 1.0), alpha=section.get("alpha", 0.05),
                     power=section.get("power", 0.9),
                     alternative=section.get("alternative", "two-sided"),
                     seed=settings.get("seed", 0),
                     max_games=section.get("max_games", 1_000_000), jobs=jobs, progress=progress)
    _stamp(result.table, provenance)
    doc.text(f"## {number}. Is B different from A?\n\n{result['verdict']}")
    doc.table(f"s{number}_compare", result.table, result.table.T.reset_index())


def _skill(doc, spec, rules, section, settings, number, jobs, progress, provenance):
    from .skill import skill_section

    games = settings.get("games", 2000)
    skill_section(doc, spec.name, rules, section.get("best", "random"),
                  (games, games, max(games // 10, 50), max(games // 20, 50)),
                  settings.get("seed", 0), jobs, tuple(section.get("budgets", (16, 64))))


RUNNERS = {"summary": _summary, "sweep": _sweep, "ablate": _ablate, "cards": _cards,
           "tune": _tune, "compare": _compare, "skill": _skill}
