"""Writing a report: one content (text, tables, figures, findings, a verdict) rendered twice,
as Markdown (``index.md``) and as an HTML page (``index.html``, see analysis/html.py), with CSV
tables and PNG figures next to them and the provenance of every table; plus the small formatters
every study shares.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from .evidence import unmeasured
from .html import render_game_page
from .provenance import describe


def ordered(values) -> pd.Categorical:
    """Categories in order of first appearance, so that a heat map keeps the table's order."""
    values = list(values)
    return pd.Categorical(values, categories=list(dict.fromkeys(values)), ordered=True)


def pp_text(est, low, high, n=None) -> list[str]:
    """Differences in percentage points, '+1.2 (-0.5 to +2.9)'. With ``n`` (games behind each
    cell), a cell without evidence says why instead (analysis.evidence: too few games,
    identical games)."""
    reasons = _reasons(n, low, high, len(est))
    return ["-" if pd.isna(e) else reason or
            (f"{100 * e:+.1f} (n/a)" if pd.isna(lo) else
             f"{100 * e:+.1f} ({100 * lo:+.1f} to {100 * hi:+.1f})")
            for e, lo, hi, reason in zip(est, low, high, reasons)]


# --- display helpers --------------------------------------------------------------------------

def pct_text(est, low, high, n=None, *, signed: bool = False) -> list[str]:
    """Rates in percent, '45.2% (44.1 to 46.3)'; ``signed`` for a difference of rates,
    '-2.1% (-5.6 to +5.2)' ("-5.6-5.2" would read as a subtraction). ``n`` as in pp_text."""
    f = "+.1f" if signed else ".1f"
    reasons = _reasons(n, low, high, len(est))
    return ["-" if pd.isna(e) else reason or
            f"{100 * e:{f}}% ({100 * lo:{f}} to {100 * hi:{f}})"
            for e, lo, hi, reason in zip(est, low, high, reasons)]


def _reasons(n, low, high, size: int) -> list:
    """Per cell, why its interval is not shown (analysis.evidence.unmeasured), or None."""
    if n is None:
        return [None] * size
    return [unmeasured(k, lo, hi) for k, lo, hi in zip(n, low, high)]


def p_text(p: float) -> str:
    return "n/a" if pd.isna(p) else f"{p:.2g}"  # n/a: nothing to test (one strategy, no winner)


def seat_view(table: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    return pd.DataFrame({
        **{k: table[k] for k in keys},
        **({} if "strategy" in keys else {"strategy": table["strategy"]}),
        "win rate (95% CI)": pct_text(table["win_rate"], table["ci_low"], table["ci_high"]),
        "fair": table["fair"].map("{:.3f}".format),
        "advantage (pp)": (100 * table["advantage"]).map("{:+.2f}".format),
        "p (Holm)": table["p_holm"].map(p_text),
    })


def interval_verdict(what: str, estimate: float, low: float, high: float, where: str = "") -> str:
    """'largest seat advantage +1.2 pp (seat 2, 5 players; 95% CI +0.8 to +1.6), excludes zero'.

    ``estimate``, ``low`` and ``high`` are differences of proportions (shown in percentage
    points) whose value of no effect is zero.
    """
    place = f"{where}; " if where else ""
    if pd.isna(low) or pd.isna(high):
        return f"{what} {100 * estimate:+.1f} pp ({place}no interval: the result never varied)"
    verdict = "excludes zero" if low > 0 or high < 0 else "includes zero"
    return (f"{what} {100 * estimate:+.1f} pp ({place}95% CI {100 * low:+.1f} to "
            f"{100 * high:+.1f}), {verdict}")


def largest_seat_advantage(seats: pd.DataFrame, where) -> tuple[pd.Series, str]:
    """A seat table's (analysis.tables.seat_table, stacked) row of largest advantage and its
    verdict: the win-rate interval shifted by the seat's fair share. ``where(row)`` names it."""
    top = seats.loc[seats["advantage"].abs().idxmax()]
    shift = top["win_rate"] - top["advantage"]   # the seat's fair share
    return top, interval_verdict("largest seat advantage", top["advantage"], top["ci_low"] - shift,
                                 top["ci_high"] - shift, where(top))


def markdown_table(frame: pd.DataFrame) -> str:
    """A GitHub-style Markdown table (pandas' to_markdown needs the tabulate package)."""
    def cell(v) -> str:
        if isinstance(v, float):
            return f"{v:.4g}"
        return str(v)
    header = "| " + " | ".join(map(str, frame.columns)) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    rows = ["| " + " | ".join(cell(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join([header, rule, *rows])


@dataclass
class Text:
    markdown: str
    kind = "text"   # what analysis/html.py renders it as (a class attribute, not a field)


@dataclass
class Table:
    """A table as shown (``view``: formatted cells) and where it comes from."""
    view: pd.DataFrame
    file: str | None            # the CSV with the full table (None: the view is all there is)
    provenance: dict | None     # the batches behind it (None: not simulated, see ``source``)
    caption: str | None = None
    source: str | None = None   # what a table that was not simulated comes from
    kind = "table"

    @property
    def provenance_text(self) -> str:
        return describe(self.provenance) if self.provenance else (self.source or "")


@dataclass
class Figure:
    file: str
    how_to_read: str
    kind = "figure"


@dataclass
class Doc:
    """Collects a report and writes it as Markdown and HTML, with CSVs, PNGs and provenance.

    The first text block should open with the report's title as a level-1 heading
    (``# Game: balance report``); the summary (verdict and findings) is shown right under it.
    """
    out: Path
    blocks: list = field(default_factory=list)
    provenance: dict[str, dict] = field(default_factory=dict)
    findings: list[str] = field(default_factory=list)
    verdict_given: str | None = None
    strong_verdict: str | None = None   # the verdict at the strongest well-measured level of play

    def __post_init__(self):
        self.out = Path(self.out)
        self.out.mkdir(parents=True, exist_ok=True)

    # --- content ------------------------------------------------------------------------------

    def text(self, markdown: str) -> None:
        self.blocks.append(Text(markdown))

    def finding(self, text: str, first: bool = False) -> None:
        """One line of the "Summary of findings" shown at the top (Markdown allowed); ``first``:
        what a designer must know before the rest, placed ahead of it."""
        self.findings.insert(0, text) if first else self.findings.append(text)

    def verdict(self, text: str) -> None:
        """The one-line verdict shown on the site's index next to the game."""
        self.verdict_given = text

    def skilled_verdict(self, text: str) -> None:
        """The verdict at the strongest level of play measured tightly (analysis.skill): it
        takes the study's own place on the verdict line (the study's verdict, at its own level,
        stays in the summary of findings)."""
        self.strong_verdict = text

    @property
    def verdict_text(self) -> str | None:
        """At most one sentence: the figure, its interval, the level (and, at the strong level,
        one exploitability figure); the rest is in the sections."""
        return self.strong_verdict or self.verdict_given

    def csv(self, name: str, table: pd.DataFrame) -> str:
        table.to_csv(self.out / f"{name}.csv", index=False)
        self.provenance[f"{name}.csv"] = table.attrs.get("provenance", {})
        return f"{name}.csv"

    def table(self, name: str, table: pd.DataFrame, view: pd.DataFrame,
              caption: str | None = None) -> None:
        """Write ``table`` to ``<name>.csv`` and show ``view`` (its formatted cells)."""
        file = self.csv(name, table)
        self.blocks.append(Table(view, file, table.attrs["provenance"], caption))

    def show(self, view: pd.DataFrame, *, caption: str | None = None, file: str | None = None,
             provenance: dict | None = None, source: str | None = None) -> None:
        """Show a table without writing a CSV: part of a CSV written with :meth:`csv` (``file``,
        ``provenance``), or a table that is not simulated (``source`` says where it is from)."""
        if provenance is None and source is None:
            raise ValueError("a shown table needs its provenance or a source")
        self.blocks.append(Table(view, file, provenance, caption, source))

    def figure(self, name: str, fig, how_to_read: str) -> None:
        fig.savefig(self.out / f"{name}.png", dpi=110)
        self.blocks.append(Figure(f"{name}.png", how_to_read))

    # --- output -------------------------------------------------------------------------------

    @property
    def title(self) -> str:
        first = next((b.markdown for b in self.blocks if isinstance(b, Text)), "")
        heading = re.match(r"#\s+(.+)", first)
        return heading.group(1).strip() if heading else self.out.name

    def summary_markdown(self) -> str:
        lines = ["## Summary of findings"]
        if self.verdict_text:
            lines.append(f"**Verdict:** {self.verdict_text}")
        if self.findings:
            lines.append("\n".join(f"- {line}" for line in self.findings))
        return "\n\n".join(lines)

    def sections(self) -> list:
        """The blocks in reading order: the title, the summary, then the rest."""
        blocks = list(self.blocks)
        if blocks and isinstance(blocks[0], Text) and blocks[0].markdown.startswith("# "):
            title, _, rest = blocks[0].markdown.partition("\n")
            blocks[:1] = [Text(title)] + ([Text(rest.strip())] if rest.strip() else [])
            at = 1
        else:
            at = 0
        if self.verdict_text or self.findings:
            blocks.insert(at, Text(self.summary_markdown()))
        return blocks

    def markdown(self) -> str:
        parts = []
        for block in self.sections():
            if isinstance(block, Text):
                parts.append(block.markdown)
            elif isinstance(block, Figure):
                parts.append(f"![{Path(block.file).stem}]({block.file})\n\n{block.how_to_read}")
            else:
                caption = f"**{block.caption}**\n\n" if block.caption else ""
                origin = (f"*Provenance:* {block.provenance_text}." if block.provenance
                          else f"*Source:* {block.source}.")
                link = f" Full table: [`{block.file}`]({block.file})." if block.file else ""
                parts.append(f"{caption}{markdown_table(block.view)}\n\n{origin}{link}")
        return "\n\n".join(parts) + "\n"

    def write(self) -> Path:
        """Write index.md, index.html, provenance.json and report.json (for the site index)."""
        (self.out / "provenance.json").write_text(json.dumps(self.provenance, indent=1))
        (self.out / "report.json").write_text(json.dumps(
            {"game": self.out.name, "title": self.title, "verdict": self.verdict_text,
             "findings": self.findings}, indent=1))
        (self.out / "index.html").write_text(render_game_page(self))
        index = self.out / "index.md"
        index.write_text(self.markdown())
        return index
