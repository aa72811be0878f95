"""The HTML side of a report: one page per game (from a ``markdown.Doc``) and the site index.

Pages are rendered with Jinja2 templates (analysis/templates/) and are self-contained: the CSS
and the small table-sorting script are inlined, figures are the PNG files next to the page, and
nothing is fetched at view time, so a report folder can be zipped and opened offline.
"""
from __future__ import annotations

import json
import math
import re
from numbers import Number
from pathlib import Path

import markdown as md
from jinja2 import Environment, PackageLoader, select_autoescape

from sim import __version__

SITE_TITLE = "Balance reports"
# A leading number in a formatted cell ("45.2% (44.1 to 46.3)", "+1.20", "12,345"): its sort key.
_LEADING_NUMBER = re.compile(r"^\s*([-+−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?)(?:%|\s|\(|$)")

_env = Environment(loader=PackageLoader("analysis", "templates"),
                   autoescape=select_autoescape(["html"]), trim_blocks=True, lstrip_blocks=True)


def markdown_html(text: str) -> str:
    """Markdown (the report's text blocks) -> HTML; headings get ids for the contents list."""
    return md.markdown(text, extensions=["tables", "toc", "sane_lists"], output_format="html")


def sort_key(value) -> float | None:
    """The number a cell sorts by, or None to sort it as text."""
    if isinstance(value, bool):
        return None
    if isinstance(value, Number):
        return None if math.isnan(value) else float(value)
    match = _LEADING_NUMBER.match(str(value))
    return float(match.group(1).replace(",", "").replace("−", "-")) if match else None


def cell_text(value) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def _table(block) -> dict:
    rows = [[{"text": cell_text(v), "key": sort_key(v)} for v in row]
            for row in block.view.itertuples(index=False)]
    return {"kind": "table", "caption": block.caption, "columns": list(map(str, block.view.columns)),
            "rows": rows, "file": block.file, "provenance_text": block.provenance_text,
            "provenance_json": json.dumps(block.provenance, indent=1) if block.provenance else None}


def render_game_page(doc) -> str:
    """The HTML page of one game's report (a ``markdown.Doc``: its blocks say their kind)."""
    items, contents = [], []
    for block in doc.sections():
        if block.kind == "table":
            items.append(_table(block))
        elif block.kind == "figure":
            items.append({"kind": "figure", "file": block.file, "alt": Path(block.file).stem,
                          "how_to_read": markdown_html(block.how_to_read)})
        elif block.markdown.startswith("# "):
            continue  # the title is the page's own heading
        else:
            html = markdown_html(block.markdown)
            contents += re.findall(r'<h2 id="([^"]+)">(.*?)</h2>', html)
            items.append({"kind": "text", "html": html})
    return _env.get_template("game.html").render(
        title=doc.title, site_title=SITE_TITLE, verdict=doc.verdict_text, items=items,
        contents=contents, version=__version__)


def write_site(out_dir: str | Path) -> Path:
    """Write ``out_dir/index.html``: every game report found under ``out_dir`` with its verdict."""
    out = Path(out_dir)
    games = []
    for meta_file in sorted(out.glob("*/report.json")):
        meta = json.loads(meta_file.read_text())
        if (meta_file.parent / "index.html").exists():
            games.append({**meta, "href": f"{meta_file.parent.name}/index.html",
                          "findings_html": [markdown_html(f) for f in meta.get("findings", [])]})
    index = out / "index.html"
    index.write_text(_env.get_template("index.html").render(
        site_title=SITE_TITLE, games=games, version=__version__))
    return index
