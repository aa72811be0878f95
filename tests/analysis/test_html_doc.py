"""Doc renders one content as Markdown and as HTML; the site index lists the reports it finds.

No simulation here: hand-made tables with a hand-made provenance.
"""
import json

import matplotlib
import pandas as pd
import pytest
from matplotlib.figure import Figure

from analysis.html import sort_key, write_site
from analysis.markdown import Doc, interval_verdict

matplotlib.use("Agg")

PROVENANCE = {"game": "parthian", "variant": {"n_players": 3}, "strategies": ["random"] * 3,
              "n_games": 10, "seed": 1, "version": "0.1.0"}


def small_doc(out) -> Doc:
    doc = Doc(out)
    doc.text("# Toy: balance report\n\nAn intro with `code`.")
    doc.text("## (a) Seats")
    table = pd.DataFrame({"seat": [0, 1, 2], "win_rate": [0.5, 0.2, 0.3]})
    table.attrs["provenance"] = PROVENANCE
    doc.table("a_seats", table, table.assign(win_rate=["50.0%", "20.0%", "30.0%"]),
              caption="Seat win rates")
    doc.show(pd.DataFrame({"rule": ["x"]}), source="the rules brief")
    fig = Figure(figsize=(2, 2))
    fig.add_subplot().plot([0, 1], [0, 1])
    doc.figure("a_seats", fig, "How to read it.")
    doc.finding("Seat 0 wins **most**.")
    doc.verdict("largest seat advantage +16.7 pp, excludes zero")
    return doc


def test_markdown_and_html_carry_the_same_content(tmp_path):
    index = small_doc(tmp_path / "toy").write()
    text = index.read_text()
    html = (tmp_path / "toy" / "index.html").read_text()
    # The summary comes right after the title, before the intro, in both.
    assert text.index("# Toy") < text.index("## Summary of findings") < text.index("An intro")
    assert html.index("<h1>Toy") < html.index("Summary of findings") < html.index("An intro")
    for needle in ("largest seat advantage +16.7 pp", "Seat win rates", "a_seats.csv",
                   "a_seats.png", "How to read it.", "the rules brief"):
        assert needle in text and needle in html, needle
    assert "<strong>most</strong>" in html and "Seat 0 wins **most**." in text
    assert html.count('<table class="sortable">') == 2 and html.count("<img ") == 1
    assert 'data-sort="50.0"' in html and 'data-sort="2.0"' in html
    assert "Provenance:" in html and "Parthian Shot: 3 players" in html
    assert "http" not in html.replace("http-equiv", "")  # nothing fetched from elsewhere
    meta = json.loads((tmp_path / "toy" / "report.json").read_text())
    assert meta["title"] == "Toy: balance report" and meta["findings"] == ["Seat 0 wins **most**."]
    assert json.loads((tmp_path / "toy" / "provenance.json").read_text()) == {
        "a_seats.csv": PROVENANCE}


def test_site_index_lists_each_report_with_its_verdict(tmp_path):
    small_doc(tmp_path / "toy").write()
    (tmp_path / "not_a_report").mkdir()
    html = write_site(tmp_path).read_text()
    assert 'href="toy/index.html"' in html and "largest seat advantage +16.7 pp" in html
    assert "not_a_report" not in html
    assert "No game reports" in write_site(tmp_path / "not_a_report").read_text()


def test_a_shown_table_says_where_it_comes_from(tmp_path):
    with pytest.raises(ValueError, match="provenance or a source"):
        Doc(tmp_path).show(pd.DataFrame({"a": [1]}))


@pytest.mark.parametrize("cell, key", [(0.25, 0.25), (3, 3.0), ("45.2% (44.1 to 46.3)", 45.2),
                                       ("+1.20", 1.2), ("-3.00", -3.0), ("12,345", 12345.0),
                                       ("4.1e-05", 4.1e-05), ("random", None), ("-", None),
                                       ("n/a", None), (float("nan"), None), (True, None)])
def test_sort_key_reads_the_leading_number(cell, key):
    assert sort_key(cell) == key


def test_interval_verdict_says_whether_zero_is_excluded():
    assert interval_verdict("largest seat advantage", 0.012, 0.008, 0.016, "seat 2") == (
        "largest seat advantage +1.2 pp (seat 2; 95% CI +0.8 to +1.6), excludes zero")
    assert interval_verdict("x", 0.01, -0.002, 0.02).endswith("includes zero")
    assert interval_verdict("x", -0.03, -0.05, -0.01).endswith("excludes zero")
    assert "no interval" in interval_verdict("x", 0.0, float("nan"), float("nan"))
