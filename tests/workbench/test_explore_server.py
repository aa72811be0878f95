"""Who may use `balance explore`'s server, and what a request may make it do (cli/explore.py).

A real uvicorn on 127.0.0.1 (cli.explore.Server), spoken to with http.client, so every header
(Host, Origin, Content-Type, Cookie) is the test's own. Goofspiel plays the sessions (the
fastest kernel; no data files); Parthian Shot, which has a data-file option, answers the grid and
data-file requests, all refused before a game is played, so its kernel is never compiled.
"""
from __future__ import annotations

import http.client
import json
import threading
import time
from pathlib import Path
from urllib.parse import quote

import pytest

from analysis import explore as X
from cli import explore as E
from cli.explore import Server


@pytest.fixture(scope="module")
def server():
    X.Session(X.View("goofspiel", max_games=240)).run_until_done()   # a warm kernel
    server = Server("goofspiel", jobs=1)
    yield server
    server.close()


@pytest.fixture(scope="module")
def parthian():
    server = Server("parthian", jobs=1)
    yield server
    server.close()


def call(server, method: str, path: str, body=None, headers: dict | None = None,
         token: bool = True):
    """(status, JSON answer or text) of one request; ``token`` sends the Authorization header,
    and a POST says its body is JSON, unless ``headers`` say otherwise."""
    sent = {}
    if token:
        sent.update(server.headers)
    if method == "POST":
        sent["Content-Type"] = "application/json"
    sent.update(headers or {})
    sent = {k: v for k, v in sent.items() if v is not None}
    if isinstance(body, (dict, list)):
        body = json.dumps(body)
    connection = http.client.HTTPConnection(E.HOST, server.port, timeout=60)
    try:
        connection.request(method, path, body=body, headers=sent)
        response = connection.getresponse()
        text = response.read().decode()
    finally:
        connection.close()
    try:
        return response.status, json.loads(text)
    except ValueError:
        return response.status, text


def status(server) -> dict:
    return call(server, "GET", "/api/status")[1]


def files_under(folder: Path) -> set[Path]:
    return {p for p in folder.rglob("*") if p.is_file()}


# --- who may ask -------------------------------------------------------------------------------

@pytest.mark.parametrize("method, path", [("GET", "/"), ("GET", "/api/form"),
                                          ("GET", "/api/status"), ("GET", "/api/stream"),
                                          ("POST", "/api/view"), ("POST", "/api/command")])
@pytest.mark.parametrize("token", [None, "wrong", ""])
def test_a_request_without_the_token_is_refused(server, method, path, token):
    headers = {} if token is None else {"Authorization": f"token {token}"}
    got, answer = call(server, method, path + (f"?token={token}" if token else ""),
                       body={} if method == "POST" else None, headers=headers, token=False)
    assert got == 403 and answer["ok"] is False and "token" in answer["error"]
    assert server.explorer.session is None


def test_the_token_in_the_address_sets_a_strict_cookie_the_page_uses(server):
    connection = http.client.HTTPConnection(E.HOST, server.port, timeout=30)
    connection.request("GET", f"/?token={server.token}")
    response = connection.getresponse()
    page = response.read().decode()
    connection.close()
    assert response.status == 200 and "balance explore" in page
    cookie = response.getheader("set-cookie")
    assert "HttpOnly" in cookie and "samesite=strict" in cookie.lower()
    pair = cookie.split(";")[0]
    assert pair == f"balance-explore-{server.port}={server.token}"
    assert response.getheader("content-security-policy") == "frame-ancestors 'none'"
    # the page's own calls: the cookie alone for a GET (EventSource), cookie and the page's
    # Origin for a POST (fetch)
    got, answer = call(server, "GET", "/api/status", headers={"Cookie": pair}, token=False)
    assert got == 200 and "running" in answer
    got, answer = call(server, "POST", "/api/command", body={"knobs": {"num_cards": 9}},
                       headers={"Cookie": pair, "Origin": f"http://127.0.0.1:{server.port}"},
                       token=False)
    assert got == 200 and "--b num_cards=9" in answer["command"]
    got, _ = call(server, "GET", "/api/status", token=False,
                  headers={"Cookie": f"balance-explore-{server.port}=wrong"})
    assert got == 403


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1:1",
                                  "127.0.0.1.evil.example:{port}", "192.168.1.5:{port}", ""])
def test_a_foreign_host_is_refused_even_with_the_token(server, host):
    """DNS rebinding: a page of another site resolved to 127.0.0.1 still sends its own Host."""
    got, answer = call(server, "GET", "/api/status",
                       headers={"Host": host.format(port=server.port)})
    assert got == 403 and "Host" in answer["error"]


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}", "LOCALHOST:{port}",
                                  "[::1]:{port}"])
def test_the_loopback_names_at_the_port_are_hosts(server, host):
    got, _ = call(server, "GET", "/api/status", headers={"Host": host.format(port=server.port)})
    assert got == 200


@pytest.mark.parametrize("origin", ["http://evil.example", "null", "http://127.0.0.1:1",
                                    "https://127.0.0.1:{port}", "http://localhost.evil:{port}"])
def test_a_cross_site_post_is_refused_and_starts_nothing(server, origin):
    got, answer = call(server, "POST", "/api/view", body={"knobs": {"num_cards": 9}},
                       headers={"Origin": origin.format(port=server.port)})
    assert got == 403 and "another site" in answer["error"]
    assert server.explorer.session is None


def test_a_post_without_origin_needs_the_token_header(server):
    got, answer = call(server, "POST", f"/api/command?token={server.token}",
                       body={"knobs": {"num_cards": 9}}, token=False)
    assert got == 403 and "Authorization" in answer["error"]
    got, answer = call(server, "POST", "/api/command", body={"knobs": {"num_cards": 9}})
    assert got == 200 and answer["command"].startswith("balance compare goofspiel")


@pytest.mark.parametrize("kind", ["text/plain", "application/x-www-form-urlencoded",
                                  "multipart/form-data; boundary=x", None])
def test_a_post_that_is_not_json_is_refused(server, kind):
    """A simple cross-site form or text post (no preflight) can send none of these as JSON."""
    got, answer = call(server, "POST", "/api/view", body=json.dumps({"knobs": {"num_cards": 9}}),
                       headers={"Content-Type": kind})
    assert got == 415 and answer["ok"] is False
    assert server.explorer.session is None


# --- what a request may touch ------------------------------------------------------------------

@pytest.mark.parametrize("name", ["../../../explore-escape", "/tmp/explore-escape",
                                  "a/b", "x\u0000y", "legion_table/../../explore-escape",
                                  "../legion_table", ""])
def test_a_grid_named_as_a_path_writes_nothing_and_is_a_field_error(parthian, name, tmp_path):
    before = files_under(parthian.explorer.tables)
    outside = parthian.explorer.tables.parent
    escaped = set(outside.glob("*explore-escape*")) | set(Path("/").glob("explore-escape*"))
    for target in ("/api/view", "/api/command"):
        got, answer = call(parthian, "POST", target, body={"tables": {name: [["a", "b"]]}})
        assert got == 200 and answer["ok"] is False and answer["field"] == "tables"
        assert "not a data-file option" in answer["error"] and "legion_table" in answer["error"]
    assert files_under(parthian.explorer.tables) == before
    assert set(outside.glob("*explore-escape*")) | set(Path("/").glob("explore-escape*")) \
        == escaped


def test_a_grid_is_written_only_in_the_session_folder_named_by_its_content(parthian):
    rows = [["strength", "p3"], ["1", "2"]]     # no p4..p6: the rules refuse it
    got, answer = call(parthian, "POST", "/api/view", body={"tables": {"legion_table": rows},
                                                             "players": 4})
    assert got == 200 and answer["ok"] is False and answer["field"] == "legion_table"
    written = [p for p in files_under(parthian.explorer.tables) if "legion_table" in p.name]
    assert written and all(p.parent == parthian.explorer.tables for p in written)
    assert any(p.read_text() == "strength,p3\n1,2\n" for p in written)
    assert parthian.explorer.session is None


@pytest.mark.parametrize("rows, text", [
    ([["1"]] * (E.GRID_ROWS + 1), "at most 1,000 rows of 64 cells of 200 characters"),
    ([["1"] * (E.GRID_CELLS + 1)], "at most 1,000 rows"),
    ([["x" * (E.GRID_CELL_CHARS + 1)]], "at most 1,000 rows"),
    ([["a\nb"]], "line break"),
    ([["a\u0000"]], "NUL"),
    ([[{"a": 1}]], "a cell is text or a number"),
    ([[True]], "a cell is text or a number"),
    ("strength,p3", "a list of rows"),
    ([1, 2], "a list of rows"),
])
def test_a_grid_out_of_bounds_is_refused_before_it_is_written(parthian, rows, text):
    before = files_under(parthian.explorer.tables)
    got, answer = call(parthian, "POST", "/api/view", body={"tables": {"legion_table": rows}})
    assert got == 200 and answer["ok"] is False and answer["field"] == "legion_table"
    assert text in answer["error"]
    assert files_under(parthian.explorer.tables) == before


def test_a_file_outside_the_game_is_refused_as_a_data_option_unread(parthian, tmp_path):
    secret = tmp_path / "secret.csv"
    secret.write_text("TOP-SECRET-LINE,p3,p4,p5,p6\n1,2,3,4,5\n")
    answers = []
    for path in (secret, tmp_path / "missing.csv", "/etc/passwd", "../../../../etc/passwd",
                 "games/parthian/data/../../../README.md"):
        got, answer = call(parthian, "POST", "/api/view",
                           body={"options": {"legion_table": str(path)}, "players": 4})
        assert got == 200 and answer["ok"] is False and answer["field"] == "legion_table"
        assert "TOP-SECRET" not in answer["error"] and "root" not in answer["error"]
        answers.append(answer["error"])
    assert len(set(answers)) == 1          # no difference between a file and no file
    assert "shipped data" in answers[0]
    # the game's own shipped tables stay usable by name (here: as the command names them)
    shipped = X.data_options(X.get_game("parthian"))["legion_table"]
    got, answer = call(parthian, "POST", "/api/command",
                       body={"options": {"legion_table": shipped}, "players": 4})
    assert got == 200 and "command" in answer


# --- every body type-checked into a field error --------------------------------------------------

DEEP = '{"options": ' + "[" * 50 + "]" * 50 + "}"


@pytest.mark.parametrize("path, body, field, text", [
    ("/api/view", {"levels": 5}, "levels", "must be text"),
    ("/api/view", {"levels": ["random", 1]}, "levels", "must be text"),
    ("/api/view", {"levels": ["random", "random\u0000"]}, "levels", "NUL"),
    ("/api/view", {"options": [1]}, "options", "must be an object"),
    ("/api/view", {"options": {"num_cards": {"a": 1}}}, "num_cards", "text, a number"),
    ("/api/view", {"options": {"num_cards": "1\u00002"}}, "num_cards", "NUL"),
    ("/api/view", {"options": {"num\u0000cards": "1"}}, "options", "NUL"),
    ("/api/view", {"options": {"strategies": "heuristic"}}, "strategies", "'levels' field"),
    ("/api/view", {"options": {"levels": "random"}}, "levels", "'levels' field"),
    ("/api/view", {"options": {"players": 3}}, "players", "'players' field"),
    ("/api/view", {"options": {"n_players": 3}}, "n_players", "'players' field"),
    ("/api/view", {"options": {"legions[0]": "1"}}, "legions[0]", "not a rule option"),
    ("/api/view", {"knobs": 5}, "knobs", "must be an object"),
    ("/api/view", {"knobs": {"num_cards": "9"}}, "num_cards", "must be a finite number"),
    ("/api/view", {"knobs": {"num_cards": True}}, "num_cards", "must be a finite number"),
    ("/api/view", {"knobs": {"num_cards": 10**400}}, "num_cards", "up to 2^53"),
    ("/api/view", {"options": {"num_cards": 10**400}}, "num_cards", "up to 2^53"),
    ("/api/view", {"options": {"num_cards": "9" * 5000}}, "num_cards", "at most 4,096"),
    ("/api/view", {"levels": "x" * 300}, "levels", "at most 200 characters"),
    ("/api/view", {"seed": 2**64}, "seed", "below 2^63"),
    ("/api/view", {"players": 10**30}, "players", "whole number"),
    ("/api/view", {"knobs": {"strategies": 1}}, "strategies", "'levels' field"),
    ("/api/view", {"tables": [1]}, "tables", "must be an object"),
    ("/api/view", {"tables": {"x\u0000y": [["a"]]}}, "tables", "not a data-file option"),
    ("/api/view", {"precision": "fine"}, "precision", "must be a number"),
    ("/api/view", {"precision": {"a": 1}}, "precision", "must be a number"),
    ("/api/view", {"seed": 1.5}, "seed", "must be an integer"),
    ("/api/view", {"max_games": "many"}, "max_games", "must be an integer"),
    ("/api/view", {"max_games": 10**12}, "max_games", "at most 100,000,000"),
    ("/api/view", {"players": "4"}, "players", "whole number"),
    ("/api/view", {"colour": "red"}, "colour", "unknown key 'colour'"),
    ("/api/view", {"changed": {"a": 1}, "levels": 5}, "levels", "must be text"),
    ("/api/view", DEEP, "body", "nests deeper than 8"),
    ("/api/view", "[" * 100_000 + "]" * 100_000, "body", "nests deeper than 8"),
    ("/api/view", "[" * 100_000, "body", "nests deeper than 8"),
    ("/api/view", "not json", "body", "must be JSON"),
    ("/api/view", b"\xff\xfe{", "body", "must be JSON"),
    ("/api/view", "[1]", "body", "a JSON object"),
    ("/api/view", '"\\u0000"', "body", "a JSON object"),
    ("/api/sweep", {"knob": {"a": 1}}, "knob", "choose a tunable"),
    ("/api/sweep", {"knob": ["num_cards"]}, "knob", "choose a tunable"),
    ("/api/cards", {"levels": 5}, "levels", "must be text"),
    ("/api/study", {"options": {"strategies": "x"}}, "strategies", "'levels' field"),
    ("/api/command", {"knobs": {"num_cards": []}}, "num_cards", "must be a finite number"),
])
def test_a_malformed_body_is_a_field_error_never_a_500(server, path, body, field, text, capfd):
    got, answer = call(server, "POST", path, body=body)
    assert got == 200, answer
    assert answer["ok"] is False and answer["field"] == field and text in answer["error"]
    assert "\n" not in answer["error"] and len(answer["error"]) < 300
    assert "Traceback" not in capfd.readouterr().err


def test_the_form_refuses_a_bad_player_count_in_one_line(server):
    for text in ("x", "1" * 5000, "4\u0000", "４x"):
        got, answer = call(server, "GET", f"/api/form?players={quote(text)}")
        assert got == 200 and answer["field"] == "players"
        assert "whole number" in answer["error"] and len(answer["error"]) < 300


def test_a_body_over_the_bound_is_refused(server):
    big = json.dumps({"options": {"num_cards": "9" * (E.MAX_BODY + 10)}})
    got, answer = call(server, "POST", "/api/view", body=big)
    assert got == 413 and "1,000,000 bytes" in answer["error"]
    # without a Content-Length (chunked), the stream is cut at the bound

    def chunks():
        for _ in range(E.MAX_BODY // 50_000 + 2):
            yield b" " * 50_000

    connection = http.client.HTTPConnection(E.HOST, server.port, timeout=60)
    try:
        connection.request("POST", "/api/view", body=chunks(), encode_chunked=True,
                           headers={**server.headers, "Content-Type": "application/json",
                                    "Transfer-Encoding": "chunked"})
        response = connection.getresponse()
        answer = json.loads(response.read())
    finally:
        connection.close()
    assert response.status == 413 and answer["field"] == "body"


def test_an_unforeseen_failure_answers_its_type_only(server, monkeypatch, capfd):
    def broken(view):
        raise ZeroDivisionError("a secret detail")

    monkeypatch.setattr(X, "command_line", broken)
    got, answer = call(server, "POST", "/api/command", body={})
    assert got == 500
    assert answer == {"ok": False, "error": "internal error: ZeroDivisionError"}
    err = capfd.readouterr().err
    assert "Traceback" not in err and "a secret detail" not in err


def test_one_card_table_or_sweep_at_a_time(server):
    lock = server.app.state.button_lock
    assert lock.acquire(timeout=60)       # a card table is running
    try:
        for path in ("/api/cards", "/api/sweep"):
            got, answer = call(server, "POST", path, body={"knob": "num_cards"})
            assert got == 200 and answer["ok"] is False and answer["field"] == "button"
            assert answer["error"].startswith("busy")
    finally:
        lock.release()


# --- sessions stop without a listener; the folder goes with the server -------------------------

def wait_until_stopped(server, bound: float) -> float:
    began = time.monotonic()
    while time.monotonic() - began < bound:
        if not status(server)["running"]:
            return time.monotonic() - began
        time.sleep(0.2)
    return float("inf")


@pytest.mark.timeout(120)
def test_a_view_nobody_streams_stops_within_the_grace(server):
    posted = time.monotonic()
    got, answer = call(server, "POST", "/api/view",
                       body={"knobs": {"num_cards": 8}, "precision": 0.01,
                             "max_games": E.PAGE_MAX_GAMES})
    assert got == 200 and answer == {"ok": True}
    took = wait_until_stopped(server, E.NO_LISTENER_GRACE + 30)
    assert took < E.NO_LISTENER_GRACE + 30
    now = status(server)
    assert now["stopped"] and now["listeners"] == 0 and now["games"] < E.PAGE_MAX_GAMES
    assert time.monotonic() - posted >= E.NO_LISTENER_GRACE - 0.5


@pytest.mark.timeout(120)
def test_a_streamed_view_plays_on_until_its_stream_closes(server):
    stop, lines = threading.Event(), []

    def listen():
        connection = http.client.HTTPConnection(E.HOST, server.port, timeout=30)
        try:
            connection.request("GET", "/api/stream", headers=server.headers)
            response = connection.getresponse()
            deadline = time.monotonic() + 60
            while not stop.is_set() and time.monotonic() < deadline:
                lines.append(response.readline())
        finally:
            connection.close()

    thread = threading.Thread(target=listen, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while status(server)["listeners"] < 1 and time.monotonic() < deadline:
        time.sleep(0.1)
    got, answer = call(server, "POST", "/api/view",
                       body={"knobs": {"num_cards": 7}, "precision": 0.01,
                             "max_games": E.PAGE_MAX_GAMES})
    assert answer == {"ok": True}
    time.sleep(E.NO_LISTENER_GRACE + 1.5)
    assert status(server)["running"]
    stop.set()
    thread.join(30)
    assert wait_until_stopped(server, 30) < 30
    assert any(line.startswith(b"data: ") for line in lines)


def test_the_session_folder_is_removed_when_the_server_stops():
    server = Server("goofspiel", jobs=1)
    folder = server.explorer.tables
    assert folder.is_dir() and folder.name.startswith("balance-explore-")
    (folder / "legion_table-0123456789ab.csv").write_text("a\n")   # as a written grid
    server.server.should_exit = True          # uvicorn's own shutdown, as Ctrl-C: the lifespan
    server.thread.join(30)
    assert not folder.exists()
    server.close()                             # twice is harmless
    other = Server("goofspiel", jobs=1)
    folder = other.explorer.tables
    other.close()
    assert not folder.exists()
