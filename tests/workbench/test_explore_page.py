"""`balance explore` in a real browser (headless Chromium through Playwright), on Goofspiel.

Moving a slider changes the numbers and starts a paired comparison whose interval narrows as
games accumulate; a value the rules refuse shows the rule's own message beside its input while
the numbers stay; closing the page stops the background batches; the console shows no errors.
The browser is the system Chromium, launched as tests/analysis/test_html_site.py does.
"""
from __future__ import annotations

import json
import os
import time
import urllib.request
from pathlib import Path

import pytest

from cli.explore import Server

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
GAME = "goofspiel"     # the fastest kernel: thousands of paired games a second


@pytest.fixture(scope="module")
def server():
    server = Server(GAME, jobs=1)
    yield server
    server.close()


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as error:  # pragma: no cover - an install problem, reported loudly
        pytest.fail(f"the browser test needs the Python package playwright ({error})",
                    pytrace=False)
    if not CHROMIUM.exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: install the Debian package `chromium` or set "
                    "CHROMIUM. This test never skips.", pytrace=False)
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                              args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def status(server) -> dict:
    with urllib.request.urlopen(server.api("api/status"), timeout=10) as response:
        return json.loads(response.read())


def headline_cell(page):
    return page.locator('tr[data-metric="first_seat_advantage"] td.diff')


@pytest.mark.timeout(240)
def test_slider_moves_the_numbers_and_the_interval_narrows(server, browser):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.url)                    # the address with the token, as printed
    page.wait_for_selector('tr[data-metric="first_seat_advantage"]', timeout=60_000)
    assert "token=" not in page.url          # the page dropped it; its cookie carries on
    # The default against itself: every paired difference is exactly zero.
    assert headline_cell(page).get_attribute("data-mean") in ("0", "0.0")
    assert "Default rules" in page.locator("#verdict").inner_text()

    # A tight precision keeps the batches going long enough to watch the interval narrow
    # (Goofspiel plays some 10^5 paired games a second).
    page.locator("#precision").fill("0.15")
    page.locator("#precision").dispatch_event("change")
    slider = page.locator('input[data-knob="num_cards"]')
    slider.focus()
    for _ in range(5):                       # 13 -> 8 cards, as a user's arrow keys move it
        page.keyboard.press("ArrowLeft")
    assert slider.input_value() == "8"
    page.wait_for_function(
        "() => { const c = document.querySelector('tr[data-metric=\"first_seat_advantage\"] td.diff');"
        " return c && c.dataset.mean !== '' && Number(c.dataset.mean) !== 0; }", timeout=60_000)
    # both from one snapshot: read apart, a batch landing between them made this flaky
    first, games = page.evaluate(
        "() => [Number(document.querySelector('tr[data-metric=\"first_seat_advantage\"] "
        "td.diff').dataset.half), document.querySelector('#games').textContent]")
    page.wait_for_function(
        f"() => Number(document.querySelector('tr[data-metric=\"first_seat_advantage\"] "
        f"td.diff').dataset.half) < 0.7 * {first}", timeout=120_000)
    assert page.locator("#games").inner_text() != games
    assert "num_cards" not in page.locator("#err-num_cards").inner_text()
    assert "games/s" in page.locator("#rate").inner_text()

    # A player count the rules refuse: their message beside the input, the numbers go on.
    session = server.explorer.session
    page.locator("#players").fill("9")
    page.locator("#players").dispatch_event("change")
    page.wait_for_function("() => document.getElementById('err-players').textContent !== ''",
                           timeout=30_000)
    assert "players=9 is not allowed" in page.locator("#err-players").inner_text()
    assert "GS-1" in page.locator("#err-players").inner_text()
    assert page.locator('input[data-knob="num_cards"]').input_value() == "8"
    assert server.explorer.session is session          # the refused view replaced nothing
    assert headline_cell(page).get_attribute("data-mean") not in ("", "0")

    # A refused knob value from the API answers with the input's name and the rule's text.
    request = urllib.request.Request(server.base + "api/view", method="POST",
                                     data=json.dumps({"options": {"num_turns": "20"},
                                                      "changed": "num_turns"}).encode(),
                                     headers={"Content-Type": "application/json",
                                              **server.headers})
    with urllib.request.urlopen(request, timeout=30) as response:
        body = json.loads(response.read())
    assert body["ok"] is False
    assert body["field"] == "num_turns" and "GS-6" in body["error"]
    assert server.explorer.session is session

    # Back to a valid count: the edit is kept and plays again.
    page.locator("#players").fill("2")
    page.locator("#players").dispatch_event("change")
    page.wait_for_function("() => document.getElementById('err-players').textContent === ''",
                           timeout=30_000)
    assert page.locator('input[data-knob="num_cards"]').input_value() == "8"

    # The buttons: the command and the study file (checked by study_file on the server).
    page.locator("#btn-command").click()
    page.wait_for_selector("#command-text", timeout=30_000)
    assert "--b num_cards=8" in page.locator("#command-text").inner_text()
    page.locator("#btn-study").click()
    page.wait_for_selector("#study-text", timeout=30_000)
    assert 'kind = "compare"' in page.locator("#study-text").inner_text()
    assert errors == []

    page.close()   # the stream ends: the server stops the background batches
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and status(server)["listeners"] > 0:
        time.sleep(0.2)
    now = status(server)
    assert now["listeners"] == 0 and now["stopped"]
    time.sleep(1.0)
    assert not status(server)["running"]
