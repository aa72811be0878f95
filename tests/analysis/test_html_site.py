"""The HTML report site, opened in a real browser (headless Chromium through Playwright).

Builds every game's report with small batches into a temporary folder and opens every page from
disk (file://): no console errors, every image loaded, every table has rows, every internal link
resolves, clicking a header sorts its table. A screenshot of each page is saved next to the site
and, when REPORT_SCREENSHOTS names a folder, there too.

The browser is the system Chromium (Debian package `chromium`; `.ci/run` installs it). A missing
or broken browser fails this test with a message saying so: it never skips.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from analysis import report
from analysis.report import write_reports

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
N_GAMES = 100   # small batches: this checks the pages, not the numbers


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    write_reports(None, out_dir=out, n_games=N_GAMES, seed=5, jobs=2)
    return out


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as error:  # pragma: no cover - an install problem, reported loudly
        pytest.fail(f"the browser test needs the Python package playwright ({error}); install "
                    "the test extra: pip install -e '.[test]'", pytrace=False)
    if not CHROMIUM.exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: install the Debian package `chromium` "
                    "(.ci/run does: apt-get install -y chromium) or set CHROMIUM to a Chromium "
                    "binary. This test never skips.", pytrace=False)
    with sync_playwright() as playwright:
        try:
            chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                                  args=CHROMIUM_ARGS)
        except Exception as error:
            pytest.fail(f"Chromium at {CHROMIUM} could not be started: {error}", pytrace=False)
        yield chromium
        chromium.close()


def pages_of(site: Path) -> list[Path]:
    return [site / "index.html", *sorted(site.glob("*/index.html"))]


def test_site_lists_every_game_with_a_study(site):
    games = sorted(report.studies())
    assert [p.parent.name for p in pages_of(site)[1:]] == games
    index = (site / "index.html").read_text()
    for game in games:
        assert f'href="{game}/index.html"' in index
    assert "largest" in index  # the verdicts of the studies, not the placeholder
    assert "http://" not in index and "https://" not in index  # nothing fetched at view time


def test_every_page_in_chromium(site, browser):
    screenshots = site / "screenshots"
    screenshots.mkdir(exist_ok=True)
    keep = os.environ.get("REPORT_SCREENSHOTS")
    for path in pages_of(site):
        name = "index" if path.parent == site else path.parent.name
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("requestfailed", lambda request: errors.append(f"failed: {request.url}"))
        page.goto(path.as_uri())
        page.wait_for_load_state("load")
        shot = screenshots / f"{name}.png"   # as a reader first sees it, before any sorting
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 0
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            shutil.copy(shot, Path(keep) / shot.name)

        assert not errors, f"{name}: console errors {errors}"
        broken = page.eval_on_selector_all(
            "img", "imgs => imgs.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src)")
        assert not broken, f"{name}: images not loaded {broken}"
        row_counts = page.eval_on_selector_all("table", "ts => ts.map(t => t.tBodies[0].rows.length)")
        assert all(n > 0 for n in row_counts), f"{name}: a table without rows {row_counts}"
        check_links(page, path, name)
        if name != "index":
            assert row_counts, f"{name}: no tables"
            assert page.locator("img").count() > 0, f"{name}: no figures"
            assert page.locator("p.verdict").count() == 1, f"{name}: no verdict"
            assert page.get_by_role("heading", name="Summary of findings").count() == 1
            assert page.locator("p.provenance").count() == len(row_counts), \
                f"{name}: a table without its provenance"
            check_sorting(page, name)

        page.close()


def check_links(page, path: Path, name: str) -> None:
    """Every link to a file resolves on disk; every #anchor names an element of its page."""
    hrefs = page.eval_on_selector_all("a[href]", "as => as.map(a => a.href)")
    assert hrefs, f"{name}: no links"
    for href in hrefs:
        url = urlparse(href)
        assert url.scheme == "file", f"{name}: external link {href}"
        target = Path(unquote(url.path))
        assert target.is_file(), f"{name}: broken link {href}"
        if url.fragment and target == path:
            assert page.locator(f"[id='{url.fragment}']").count() == 1, f"{name}: no #{url.fragment}"


SORT_KEYS = """table => Array.from(table.tBodies[0].rows).map(r => r.cells[COLUMN]).map(
    c => c.hasAttribute('data-sort') ? parseFloat(c.getAttribute('data-sort')) : null)"""


def check_sorting(page, name: str) -> None:
    """Clicking a numeric column's header sorts the rows ascending, a second click descending."""
    tables = page.locator("table.sortable")
    checked = 0
    for t in range(tables.count()):
        table = tables.nth(t)
        headers = table.locator("thead th")
        for column in range(headers.count() - 1, -1, -1):
            keys = table.evaluate(SORT_KEYS.replace("COLUMN", str(column)))
            if len(keys) < 3 or None in keys or keys == sorted(keys):
                continue  # not a numeric column, or already in order: clicking proves nothing
            headers.nth(column).click()
            ascending = table.evaluate(SORT_KEYS.replace("COLUMN", str(column)))
            assert ascending == sorted(keys), f"{name}: table {t} column {column} not sorted"
            assert headers.nth(column).get_attribute("aria-sort") == "ascending"
            headers.nth(column).click()
            assert table.evaluate(SORT_KEYS.replace("COLUMN", str(column))) == sorted(
                keys, reverse=True), f"{name}: table {t} column {column} not reversed"
            checked += 1
            break
    assert checked > 0, f"{name}: no table could be sorted"
