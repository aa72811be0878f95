"""Writing a report: Markdown blocks, CSV tables and PNG figures with provenance per file,
and the small formatters every game's report shares."""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from .provenance import describe


def ordered(values) -> pd.Categorical:
    """Categories in order of first appearance, so that a heat map keeps the table's order."""
    values = list(values)
    return pd.Categorical(values, categories=list(dict.fromkeys(values)), ordered=True)


def pp_text(est, low, high) -> list[str]:
    return ["-" if pd.isna(e) else
            (f"{100 * e:+.1f} (n/a)" if pd.isna(lo) else
             f"{100 * e:+.1f} ({100 * lo:+.1f} to {100 * hi:+.1f})")
            for e, lo, hi in zip(est, low, high)]


# --- display helpers --------------------------------------------------------------------------

def pct_text(est, low, high) -> list[str]:
    return ["-" if pd.isna(e) else f"{100 * e:.1f}% ({100 * lo:.1f}-{100 * hi:.1f})"
            for e, lo, hi in zip(est, low, high)]


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


class Doc:
    """Collects the report: Markdown blocks, CSV tables, PNG figures, provenance per file."""

    def __init__(self, out: Path):
        self.out = out
        self.out.mkdir(parents=True, exist_ok=True)
        self.blocks: list[str] = []
        self.provenance: dict[str, dict] = {}

    def text(self, markdown: str) -> None:
        self.blocks.append(markdown)

    def csv(self, name: str, table: pd.DataFrame) -> str:
        table.to_csv(self.out / f"{name}.csv", index=False)
        self.provenance[f"{name}.csv"] = table.attrs.get("provenance", {})
        return f"{name}.csv"

    def table(self, name: str, table: pd.DataFrame, view: pd.DataFrame) -> None:
        file = self.csv(name, table)
        self.text(f"{markdown_table(view)}\n\n*Provenance:* {describe(table.attrs['provenance'])}. "
                  f"Full table: [`{file}`]({file}).")

    def figure(self, name: str, fig, how_to_read: str) -> None:
        fig.savefig(self.out / f"{name}.png", dpi=110)
        self.text(f"![{name}]({name}.png)\n\n{how_to_read}")

    def write(self) -> Path:
        (self.out / "provenance.json").write_text(json.dumps(self.provenance, indent=1))
        index = self.out / "index.md"
        index.write_text("\n\n".join(self.blocks) + "\n")
        return index
