"""`balance explore GAME`: the live loop (analysis/explore.py) as a local web page.

Starlette serves one HTML page (analysis/templates/explore.html, no external assets) and a small
JSON API; the numbers stream to the page as server-sent events (one ``GET /api/stream``), which
a browser reconnects by itself and which tell the server when the page is gone: when the last
stream closes, the background batches stop. uvicorn runs it on 127.0.0.1 only. docs/explore.md
says why this stack (the MCP SDK already depends on both).

API (JSON): ``GET /api/form?players=N`` the inputs; ``POST /api/view`` a view to play (a refused
value answers ``{"ok": false, "field", "error"}`` and the running view goes on); ``POST /api/cards``,
``/api/sweep``, ``/api/study``, ``/api/command`` the buttons; ``GET /api/status`` whether
batches run (for tests).

Who may ask (Jupyter's model; docs/explore.md, "Who may use the page"). Any web page the
designer visits could send requests to 127.0.0.1, so every request must show it comes from the
page this command opened, else 403 with ``{"ok": false, "error"}`` (the ``Guard`` middleware):

- a random token (``secrets.token_urlsafe``), made at start, is in the printed and opened
  address ``http://127.0.0.1:PORT/?token=...``; a request carries it as the query parameter
  ``token``, the header ``Authorization: token ...``, or the cookie the page gets with its first
  load (HttpOnly, SameSite=Strict: the page's fetch and EventSource calls send it);
- the Host header must be 127.0.0.1, localhost or [::1] at the server's port (no DNS
  rebinding);
- an Origin header, where present, must be http://127.0.0.1:PORT or http://localhost:PORT; a
  POST without one must carry the token in its Authorization header (a non-browser client);
- a POST body must be JSON (Content-Type application/json, else 415), so a cross-site form or
  text/plain post is refused before any work.

What a request may touch: it reads files only under the game's shipped data and policies and
the session's own folder (sim.confine, around each handler's work), so a data option naming
another file is refused without a look at it. An edited grid must be one of the game's
data-file options (checked before anything is written) and is written only into the session
folder, named by its content; the folder is removed when the server stops. Every body is
type-checked (analysis.explore.view_from) into a one-line ``{"ok": false, "field", "error"}``;
anything unforeseen answers ``internal error: <type>`` (500) with the traceback at debug level
only.

Bounds: one session plays at a time, and it stops when its last stream closes or, with no
stream open, NO_LISTENER_GRACE s after it started; ``max_games`` <= PAGE_MAX_GAMES; a body <=
MAX_BODY bytes, nested <= MAX_DEPTH levels; a grid <= GRID_ROWS rows of GRID_CELLS cells of
GRID_CELL_CHARS characters; one card table or sweep at a time (another answers "busy").
"""
from __future__ import annotations

import argparse
import asyncio
import atexit
import hashlib
import json
import secrets
import shutil
import tempfile
import textwrap
import threading
import time
from importlib import resources
from pathlib import Path

HOST = "127.0.0.1"   # never another interface: the page can run any variant on this machine
STREAM_LOOK = 0.1    # s between looks at the session: most of the latency a designer sees
DEFAULT_PORT = 8765
SWEEP_POINTS = 7
SWEEP_GAMES = 2_000        # per point: a chart in seconds; the live table has the precision
CARD_PRECISION = 2.0       # pp: a first card table in seconds to a minute, not a report
CARD_MAX_GAMES = 20_000
# Bounds on what one request may ask (module docstring; docs/explore.md)
NO_LISTENER_GRACE = 5.0    # s a session plays with no stream open before it stops
WATCH_LOOK = 0.25          # s between the watchdog's looks
PAGE_MAX_GAMES = 10**8     # paired games a view may ask for (the default is 2,000,000)
MAX_BODY = 1_000_000       # bytes of a request body
MAX_DEPTH = 8              # nesting of objects and lists in a body (a view needs 4)
GRID_ROWS, GRID_CELLS, GRID_CELL_CHARS = 1_000, 64, 200   # an edited grid's size
SHUTDOWN_GRACE = 2         # s uvicorn waits for open streams when it stops
CLOSE_WAIT = 10            # s the close waits for a session's thread to end its step


def add_commands(commands, games: list[str]) -> None:
    from sim.runner import all_cores

    parser = commands.add_parser(
        "explore", help="a live page: move a value, watch the balance move, with intervals",
        description=textwrap.fill("Start a local web page (http://127.0.0.1:PORT/?token=..., this machine "
        "only, and only the browser that opens that address) where "
        "every rule option and tunable of GAME is an input. The edited variant plays against "
        "the default rules in the background, on the same games (common random numbers) with "
        "seats rotated, and the page streams seat, level and declared metrics with 95% "
        "intervals and each paired difference, until every interval reaches the precision. "
        "Buttons: the card table at the current values, a sweep of one value, the view as a "
        "study file, the CLI command. Closing the page stops the games. docs/explore.md."),
        epilog="example:\n  balance explore parthian --players 4\n"
               "  balance explore goofspiel --port 9000 --no-browser",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", choices=games, help="which game")
    parser.add_argument("--players", type=int, help="number of players to start with (games "
                        "with a variable count; the page can change it)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=f"port on 127.0.0.1 (default {DEFAULT_PORT})")
    parser.add_argument("--no-browser", action="store_true",
                        help="do not open a browser; print the address only")
    cores = all_cores()
    parser.add_argument("--jobs", type=int, default=cores,
                        help=f"threads per batch (default: every core, {cores} here)")
    parser.set_defaults(run=run_explore)


def run_explore(args) -> int:
    import webbrowser

    import uvicorn

    from analysis.explore import base_rules
    from sim.errors import BalanceError
    from sim.games import get_game

    if not 1 <= args.port <= 65535:
        raise BalanceError(f"--port must be 1 to 65535, got {args.port}")
    spec = get_game(args.game)
    base_rules(spec, args.players)   # a refused player count stops here, in one line
    token = new_token()
    app = make_app(spec.name, args.players, jobs=args.jobs, token=token, port=args.port)
    url = f"http://{HOST}:{args.port}/?token={token}"
    print(f"balance explore {spec.name}: {url} (Ctrl-C stops)", flush=True)
    if not args.no_browser:
        threading.Timer(1.0, webbrowser.open, [url]).start()
    try:
        uvicorn.run(app, host=HOST, port=args.port, log_level="warning",
                    timeout_graceful_shutdown=SHUTDOWN_GRACE)
    except SystemExit as error:   # uvicorn exits when the port is taken
        raise BalanceError(f"cannot listen on http://{HOST}:{args.port}/: is the port in use? "
                           "try --port") from error
    finally:
        app.state.explorer.close()   # the lifespan's shutdown did it, unless startup failed
    return 0


def new_token() -> str:
    return secrets.token_urlsafe(32)


class Explorer:
    """The one live session of the app, the streams watching it and the session's folder (the
    edited grids). A session stops when its last stream closes, or NO_LISTENER_GRACE s after it
    started if no stream is open (the watchdog thread); :meth:`close` stops everything and
    removes the folder."""

    def __init__(self, game: str, players: int | None, jobs: int):
        self.game, self.players, self.jobs = game, players, jobs
        self.session = None
        self.started = 0.0            # time.monotonic() when the current session started
        self.retired: list = []       # replaced sessions whose thread may still end a step
        self.listeners = 0
        self.lock = threading.Lock()
        self.tables = Path(tempfile.mkdtemp(prefix="balance-explore-"))
        self._grids: tuple[str, ...] | None = None
        self._closed = threading.Event()
        atexit.register(self.close)   # a fallback: the server's shutdown closes it first
        self.watchdog = threading.Thread(target=self._watch, daemon=True,
                                         name="explore-watchdog")
        self.watchdog.start()

    @property
    def closed(self) -> bool:
        return self._closed.is_set()

    def grid_names(self) -> tuple[str, ...]:
        """The game's data-file options: the only names a grid may have."""
        from analysis.explore import data_options
        from sim.games import get_game

        if self._grids is None:
            self._grids = tuple(data_options(get_game(self.game)))
        return self._grids

    def prepare(self, data: dict):
        """A request's view, every value checked before anything is written; then its edited
        grids as files in the session folder, passed as their options."""
        from analysis.explore import ExploreError, view_from

        data = dict(data)
        data.pop("changed", None)
        grids = self.check_grids(data.pop("tables", None))
        view = view_from(data, self.game)
        if view.max_games > PAGE_MAX_GAMES:
            raise ExploreError(f"max_games must be at most {PAGE_MAX_GAMES:,} here, got "
                               f"{view.max_games:,}", "max_games")
        for name, rows in grids.items():
            view.options[name] = str(self.table_file(name, rows))
        return view

    def view(self, data: dict):
        """Resolve a view; replace the running session only when it is valid."""
        from analysis.explore import ExploreError, Session

        view = self.prepare(data)
        session = Session(view, jobs=self.jobs)     # raises ExploreError: nothing changes
        with self.lock:
            if self.closed:
                raise ExploreError("the server is stopping", "view")
            if self.session is not None:
                self.session.stop()
                self.retired.append(self.session)
            self.retired = [s for s in self.retired if s.running]
            self.session = session.start()
            self.started = time.monotonic()
        return view

    def check_grids(self, tables) -> dict[str, list[list[str]]]:
        """{option: rows of cell texts} from a request's ``tables``: each name one of the game's
        data-file options, each grid within the bounds, each cell text or a number."""
        from analysis.explore import ExploreError, _shown

        if tables is None:
            return {}
        if not isinstance(tables, dict):
            raise ExploreError("tables must be an object of data-file option: rows", "tables")
        names = self.grid_names()
        bound = (f"a grid has at most {GRID_ROWS:,} rows of {GRID_CELLS} cells of "
                 f"{GRID_CELL_CHARS} characters")
        grids = {}
        for name, rows in tables.items():
            if name not in names:
                raise ExploreError(f"{_shown(name)} is not a data-file option of this game; "
                                   f"grids: {', '.join(names) or 'none'}", "tables")
            if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
                raise ExploreError("a table is a list of rows, each a list of cells", name)
            if len(rows) > GRID_ROWS or any(len(r) > GRID_CELLS for r in rows):
                raise ExploreError(bound, name)
            grid = []
            for row in rows:
                cells = []
                for cell in row:
                    if isinstance(cell, bool) or not isinstance(cell, (str, int, float)):
                        raise ExploreError(f"a cell is text or a number, got {_shown(cell)}",
                                           name)
                    text = cell if isinstance(cell, str) else str(cell)
                    if len(text) > GRID_CELL_CHARS:
                        raise ExploreError(bound, name)
                    if any(c in text for c in "\x00\r\n"):
                        raise ExploreError("a cell may not hold a line break or a NUL character",
                                           name)
                    cells.append(text)
                grid.append(cells)
            grids[name] = grid
        return grids

    def table_file(self, name: str, rows: list[list[str]]) -> Path:
        """A checked grid as a CSV the rules read, in the session folder (named by its content,
        so the same grid is the same file and the same run)."""
        import csv
        import io

        from analysis.explore import ExploreError

        if name not in self.grid_names():   # check_grids refused it already; never a path
            raise ExploreError("not a data-file option of this game", "tables")
        text = io.StringIO()
        csv.writer(text, lineterminator="\n").writerows(rows)
        digest = hashlib.sha256(text.getvalue().encode()).hexdigest()[:12]
        path = self.tables / f"{name}-{digest}.csv"
        if self.closed:
            raise ExploreError("the server is stopping", "view")
        if not path.exists():
            path.write_text(text.getvalue())
        return path

    def watch(self) -> None:
        with self.lock:
            self.listeners += 1

    def unwatch(self) -> None:
        """A stream closed; the last one stops the background batches."""
        with self.lock:
            self.listeners -= 1
            if self.listeners <= 0 and self.session is not None:
                self.session.stop()

    def _watch(self) -> None:
        """A session nobody streams stops NO_LISTENER_GRACE s after it started."""
        while not self._closed.wait(WATCH_LOOK):
            with self.lock:
                session = self.session
                if session is not None and not session.stopped and self.listeners <= 0 and \
                        time.monotonic() - self.started >= NO_LISTENER_GRACE:
                    session.stop()

    def close(self) -> None:
        """Stop every session, wait for their threads, remove the session folder (the server's
        shutdown, Server.close, and at exit as a fallback; a second call returns at once)."""
        with self.lock:
            if self._closed.is_set():
                return
            self._closed.set()
            sessions = [s for s in (self.session, *self.retired) if s is not None]
        for session in sessions:
            session.stop()
        for session in sessions:
            session.thread.join(CLOSE_WAIT)
        shutil.rmtree(self.tables, ignore_errors=True)
        atexit.unregister(self.close)


LOOPBACK = ("127.0.0.1", "localhost", "[::1]")


def _deny(status: int, message: str):
    from starlette.responses import JSONResponse

    return JSONResponse({"ok": False, "error": message}, status_code=status)


class Guard:
    """ASGI middleware in front of every route: who may ask (the module docstring)."""

    def __init__(self, app, token: str, port: int | None, cookie: str):
        self.app, self.token, self.port, self.cookie = app, token, port, cookie

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            from starlette.requests import Request

            refusal = self.refusal(Request(scope))
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def valid(self, text) -> bool:
        return _same(text, self.token)

    def refusal(self, request):
        import re

        host = request.headers.get("host", "").lower()
        found = re.fullmatch(r"(127\.0\.0\.1|localhost|\[::1\]):(\d{1,5})", host)
        if found is None or (self.port is not None and int(found[2]) != self.port):
            return _deny(403, "refused: the Host must be 127.0.0.1 or localhost at this "
                              "server's port")
        origins = {f"http://{name}:{found[2]}" for name in LOOPBACK}
        origin = request.headers.get("origin")
        if origin is not None and origin.lower() not in origins:
            return _deny(403, "refused: a request from another site (Origin)")
        scheme, _, header = request.headers.get("authorization", "").partition(" ")
        header = header.strip() if scheme.lower() == "token" else None
        if not any(self.valid(t) for t in (request.query_params.get("token"), header,
                                            request.cookies.get(self.cookie))):
            return _deny(403, "refused: no valid token; open the address that balance explore "
                              "printed (it ends in ?token=...)")
        if request.method not in ("GET", "HEAD"):
            if origin is None and not self.valid(header):
                return _deny(403, "refused: a request without an Origin must carry the token "
                                  "in an 'Authorization: token ...' header")
            kind = request.headers.get("content-type", "").partition(";")[0].strip().lower()
            if kind != "application/json":
                return _deny(415, "refused: the body must be JSON (Content-Type: "
                                  "application/json)")
            length = request.headers.get("content-length", "0")
            if not length.isdigit() or int(length) > MAX_BODY:
                return _deny(413, f"refused: the body is over {MAX_BODY:,} bytes")
        return None


def _same(text, token: str) -> bool:
    return isinstance(text, str) and secrets.compare_digest(text.encode("utf-8", "replace"),
                                                            token.encode())


def _depth(value) -> int:
    """How deeply objects and lists nest in ``value`` (stops counting past MAX_DEPTH)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, depth)
            if depth > MAX_DEPTH:
                break
            stack.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict)
                                                  else item))
    return deepest


def make_app(game: str, players: int | None = None, jobs: int = 1, *, token: str | None = None,
             port: int | None = None):
    """The app for ``game``; every request must carry ``token`` (a new one if not given: read
    it from ``app.state.token``) and a Host at ``port`` (any port where None)."""
    import contextlib
    import logging

    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.middleware import Middleware
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, StreamingResponse
    from starlette.routing import Route

    from analysis import explore as X
    from sim import confine
    from sim.errors import BalanceError
    from sim.games import get_game

    log = logging.getLogger(__name__)
    spec = get_game(game)
    token = token or new_token()
    cookie = f"balance-explore-{port}" if port else "balance-explore"
    explorer = Explorer(game, players, jobs)
    folders = confine.game_folders(spec)
    page = resources.files("analysis").joinpath("templates/explore.html").read_text()
    button_lock = threading.Lock()

    def confined(work, *args):
        # Inside the worker thread, so the confinement (a context variable) covers the work.
        with confine.confined(explorer.tables, *folders):
            return work(*args)

    def error(e: BaseException, field: str | None = None) -> JSONResponse:
        # A refused value is an answer, not a failure: 200 with ok false (a 4xx would put an
        # error in the browser's console for every value a designer tries).
        return JSONResponse({"ok": False, "error": " ".join(str(e).split()),
                             "field": getattr(e, "field", None) or field},
                            status_code=getattr(e, "status", 200))

    def internal(e: BaseException) -> JSONResponse:
        # The last line: a hostile input never prints a traceback (debug logging shows it).
        log.debug("balance explore: a request failed", exc_info=e)
        return JSONResponse({"ok": False, "error": f"internal error: {type(e).__name__}"},
                            status_code=500)

    async def answer(work, *args, field: str | None = None) -> JSONResponse:
        try:
            return JSONResponse(await run_in_threadpool(confined, work, *args))
        except BalanceError as e:
            return error(e, field)
        except Exception as e:   # noqa: BLE001 - see internal()
            return internal(e)

    async def body(request: Request) -> dict:
        raw = bytearray()
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_BODY:
                refused = X.ExploreError(f"the request body is over {MAX_BODY:,} bytes", "body")
                refused.status = 413
                raise refused
        deep = X.ExploreError(f"the request body nests deeper than {MAX_DEPTH} levels", "body")
        try:
            data = json.loads(bytes(raw))
        except RecursionError:
            raise deep from None
        except ValueError:
            raise X.ExploreError("the request body must be JSON", "body") from None
        if _depth(data) > MAX_DEPTH:
            raise deep
        if not isinstance(data, dict):
            raise X.ExploreError("the request body must be a JSON object", "body")
        return data

    async def index(request):
        start = json.dumps({"game": game, "players": players}).replace("<", "\\u003c")
        response = HTMLResponse(page.replace("/*START*/null", start), headers={
            "Cache-Control": "no-store", "Referrer-Policy": "no-referrer",
            "Content-Security-Policy": "frame-ancestors 'none'", "X-Frame-Options": "DENY"})
        if _same(request.query_params.get("token"), token):
            # The page's own requests (fetch, EventSource) carry this cookie, never the token.
            response.set_cookie(cookie, token, httponly=True, samesite="strict", path="/")
        return response

    def read_form(players_text):
        try:
            count = int(players_text) if players_text not in (None, "") else players
        except ValueError:
            raise X.ExploreError(f"players must be a whole number, got "
                                 f"{X._shown(players_text)}", "players") from None
        return X.form(game, count)

    async def form(request):
        return await answer(read_form, request.query_params.get("players"), field="players")

    def play(data):
        explorer.view(data)
        return {"ok": True}

    async def view(request):
        try:
            data = await body(request)
        except BalanceError as e:
            return error(e)
        changed = data.get("changed")
        # the running view goes on: numbers stay at the last valid one
        return await answer(play, data, field=X._field_of(changed, None))

    async def stream(request):
        async def events():
            explorer.watch()
            last = None
            try:
                while not explorer.closed and not await request.is_disconnected():
                    session = explorer.session
                    snap = session.snapshot() if session is not None else None
                    if snap is not None and snap != last:
                        last = snap
                        yield f"data: {json.dumps(snap)}\n\n"
                    else:
                        yield ": waiting\n\n"    # a comment: finds a closed page promptly
                    await asyncio.sleep(STREAM_LOOK)
            finally:
                explorer.unwatch()

        return StreamingResponse(events(), media_type="text/event-stream",
                                 headers={"Cache-Control": "no-cache"})

    async def status(request):
        session = explorer.session
        return JSONResponse({"listeners": explorer.listeners,
                             "running": bool(session and session.running),
                             "stopped": bool(session and session.stopped),
                             "games": session.games if session else 0})

    def current_view(data: dict):
        data = dict(data)
        knob = data.pop("knob", None)
        return explorer.prepare(data), knob

    def one_at_a_time(work):
        """A long button (cards, sweep): one runs at a time; another answers busy."""
        def run(data):
            if not button_lock.acquire(blocking=False):
                raise X.ExploreError("busy: a card table or sweep is running; try again when "
                                     "it is done", "button")
            try:
                return work(data)
            finally:
                button_lock.release()
        return run

    def cards(data):
        from analysis.interventions import interventions

        view, _ = current_view(data)
        r = X.resolve(view)
        table = interventions(r.spec, r.b.rules, strategies=list(r.b.strategies),
                              precision=CARD_PRECISION, max_games=CARD_MAX_GAMES,
                              seed=view.seed, jobs=jobs)
        rows = []
        for row in table.itertuples():
            ok = row.status == "ok"
            # every paired difference equal (NaN interval): the interval is the point
            low, high = (row.effect, row.effect) if ok and _num(row.ci_low) is None else \
                (row.ci_low, row.ci_high)
            rows.append({"card": row.card, "intervention": row.intervention,
                         "n": int(row.n) if ok else 0,
                         "effect": _num(row.effect) if ok else None,
                         "low": _num(low) if ok else None,
                         "high": _num(high) if ok else None,
                         "q": _num(row.q) if ok else None, "status": row.status})
        return {"rows": rows, "precision_pp": CARD_PRECISION, "max_games": CARD_MAX_GAMES}

    def sweep(data):
        from analysis.workbench import sweep as run_sweep

        view, knob = current_view(data)
        r = X.resolve(view)
        knobs = r.b.rules.tunables()
        if not isinstance(knob, str) or knob not in knobs:
            raise X.ExploreError(f"choose a tunable to sweep: {', '.join(knobs) or 'none'}",
                                 "knob")
        values = sweep_values(knobs[knob])
        metric = X.headline_metric(r.spec)
        table = run_sweep(r.spec, {knob: [str(v) for v in values]}, r.b.rules,
                          list(r.b.strategies), n_games=SWEEP_GAMES, seed=view.seed, jobs=jobs)
        points = [{"x": v, "y": _num(t[metric]), "low": _num(t[f"{metric}_low"]),
                   "high": _num(t[f"{metric}_high"])} for v, (_, t) in zip(values, table.iterrows())]
        return {"knob": knob, "metric": metric, "games": SWEEP_GAMES, "points": points,
                "current": knobs[knob].value}

    def study(data):
        view, _ = current_view(data)
        text = X.study_toml(view)
        X.check_study(text)
        return {"toml": text, "file": f"{game}-explore.toml"}

    def command(data):
        view, _ = current_view(data)
        return {"command": X.command_line(view)}

    def button(work):
        async def handler(request):
            try:
                data = await body(request)
            except BalanceError as e:
                return error(e)
            return await answer(work, data)
        return handler

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        await run_in_threadpool(explorer.close)

    routes = [Route("/", index), Route("/api/form", form), Route("/api/stream", stream),
              Route("/api/status", status), Route("/api/view", view, methods=["POST"]),
              *(Route(f"/api/{name}", button(work), methods=["POST"])
                for name, work in (("cards", one_at_a_time(cards)),
                                   ("sweep", one_at_a_time(sweep)), ("study", study),
                                   ("command", command)))]
    app = Starlette(routes=routes, lifespan=lifespan,
                    middleware=[Middleware(Guard, token=token, port=port, cookie=cookie)])
    app.state.explorer = explorer
    app.state.token = token
    app.state.button_lock = button_lock
    return app


def sweep_values(knob) -> list:
    """SWEEP_POINTS values across the knob's search range (its integers where it is one)."""
    import numpy as np

    low, high = knob.search_range()
    values = np.linspace(low, high, SWEEP_POINTS)
    if knob.integer:
        return sorted({int(round(v)) for v in values})
    return [float(v) for v in values]


def _num(value):
    import math

    value = float(value)
    return None if math.isnan(value) else value


class Server:
    """The app in a background thread (tests, the screenshot, the benchmark): ``url`` (the
    address a browser opens, with its token), ``api(path)`` (an API address with the token),
    ``headers`` (the token as a non-browser client sends it), then ``close()``."""

    def __init__(self, game: str, players: int | None = None, jobs: int = 1, port: int = 0,
                 token: str | None = None):
        import socket

        import uvicorn

        if port == 0:
            with socket.socket() as s:
                s.bind((HOST, 0))
                port = s.getsockname()[1]
        self.port = port
        self.token = token or new_token()
        self.app = make_app(game, players, jobs, token=self.token, port=port)
        self.base = f"http://{HOST}:{port}/"
        self.url = f"{self.base}?token={self.token}"
        self.headers = {"Authorization": f"token {self.token}"}
        self.server = uvicorn.Server(uvicorn.Config(self.app, host=HOST, port=port,
                                                    log_level="warning",
                                                    timeout_graceful_shutdown=SHUTDOWN_GRACE))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                self.explorer.close()
                raise RuntimeError(f"the explore server did not start on {self.base}")
            time.sleep(0.05)

    def api(self, path: str, **query) -> str:
        """``path`` (``api/status``) with the token in its query."""
        from urllib.parse import urlencode

        return f"{self.base}{path}?{urlencode({**query, 'token': self.token})}"

    @property
    def explorer(self) -> Explorer:
        return self.app.state.explorer

    def close(self) -> None:
        """Stop the sessions, remove the session folder, stop the server."""
        self.explorer.close()      # also ends the open streams, so uvicorn stops at once
        self.server.should_exit = True
        self.thread.join(10)
