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
"""
from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import tempfile
import textwrap
import threading
from importlib import resources
from pathlib import Path

HOST = "127.0.0.1"   # never another interface: the page can run any variant on this machine
STREAM_LOOK = 0.1    # s between looks at the session: most of the latency a designer sees
DEFAULT_PORT = 8765
SWEEP_POINTS = 7
SWEEP_GAMES = 2_000        # per point: a chart in seconds; the live table has the precision
CARD_PRECISION = 2.0       # pp: a first card table in seconds to a minute, not a report
CARD_MAX_GAMES = 20_000


def add_commands(commands, games: list[str]) -> None:
    from sim.runner import all_cores

    parser = commands.add_parser(
        "explore", help="a live page: move a value, watch the balance move, with intervals",
        description=textwrap.fill("Start a local web page (http://127.0.0.1:PORT, this machine only) where "
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
    app = make_app(spec.name, args.players, jobs=args.jobs)
    url = f"http://{HOST}:{args.port}/"
    print(f"balance explore {spec.name}: {url} (Ctrl-C stops)", flush=True)
    if not args.no_browser:
        threading.Timer(1.0, webbrowser.open, [url]).start()
    try:
        uvicorn.run(app, host=HOST, port=args.port, log_level="warning")
    except SystemExit as error:   # uvicorn exits when the port is taken
        raise BalanceError(f"cannot listen on {url}: is the port in use? try --port") from error
    return 0


class Explorer:
    """The one live session of the app and the streams watching it."""

    def __init__(self, game: str, players: int | None, jobs: int):
        self.game, self.players, self.jobs = game, players, jobs
        self.session = None
        self.listeners = 0
        self.lock = threading.Lock()
        self.tables = Path(tempfile.mkdtemp(prefix="balance-explore-"))

    def view(self, data: dict):
        """Resolve a view; replace the running session only when it is valid."""
        from analysis.explore import Session, view_from

        data = dict(data)
        data.pop("changed", None)
        options = dict(data.get("options") or {})
        for name, rows in (data.pop("tables", None) or {}).items():
            options[name] = str(self.table_file(name, rows))
        data["options"] = options
        view = view_from(data, self.game)
        session = Session(view, jobs=self.jobs)     # raises ExploreError: nothing changes
        with self.lock:
            if self.session is not None:
                self.session.stop()
            self.session = session.start()
        return view

    def table_file(self, name: str, rows) -> Path:
        """An edited grid as a CSV the rules read (named by its content, so the same grid is the
        same file and the same run)."""
        import csv
        import io

        from analysis.explore import ExploreError

        if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
            raise ExploreError("a table is a list of rows, each a list of cells", name)
        text = io.StringIO()
        csv.writer(text, lineterminator="\n").writerows([[str(c) for c in r] for r in rows])
        digest = hashlib.sha256(text.getvalue().encode()).hexdigest()[:12]
        path = self.tables / f"{name}-{digest}.csv"
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


def make_app(game: str, players: int | None = None, jobs: int = 1):
    from starlette.applications import Starlette
    from starlette.concurrency import run_in_threadpool
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, StreamingResponse
    from starlette.routing import Route

    from analysis import explore as X
    from sim.errors import BalanceError

    explorer = Explorer(game, players, jobs)
    page = resources.files("analysis").joinpath("templates/explore.html").read_text()

    def error(e: BaseException, field: str | None = None) -> JSONResponse:
        # A refused value is an answer, not a failure: 200 with ok false (a 4xx would put an
        # error in the browser's console for every value a designer tries).
        return JSONResponse({"ok": False, "error": " ".join(str(e).split()),
                             "field": getattr(e, "field", None) or field})

    async def body(request: Request) -> dict:
        try:
            data = await request.json()
        except ValueError:
            raise X.ExploreError("the request body must be JSON", "body") from None
        if not isinstance(data, dict):
            raise X.ExploreError("the request body must be a JSON object", "body")
        return data

    async def index(request):
        start = {"game": game, "players": players}
        return HTMLResponse(page.replace("/*START*/null", json.dumps(start)))

    async def form(request):
        players_text = request.query_params.get("players")
        try:
            count = int(players_text) if players_text not in (None, "") else players
        except ValueError:
            return error(X.ExploreError(f"players must be a whole number, got {players_text!r}",
                                        "players"))
        try:
            return JSONResponse(await run_in_threadpool(X.form, game, count))
        except BalanceError as e:
            return error(e, "players")

    async def view(request):
        changed = None
        try:
            data = await body(request)
            changed = data.get("changed")
            await run_in_threadpool(explorer.view, data)
        except BalanceError as e:   # the running view goes on: numbers stay at the last valid one
            return error(e, changed)
        return JSONResponse({"ok": True})

    async def stream(request):
        explorer.watch()

        async def events():
            last = None
            try:
                while not await request.is_disconnected():
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
        data.pop("changed", None)
        knob = data.pop("knob", None)
        options = dict(data.get("options") or {})
        for name, rows in (data.pop("tables", None) or {}).items():
            options[name] = str(explorer.table_file(name, rows))
        data["options"] = options
        return X.view_from(data, game), knob

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
        if knob not in knobs:
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
                return JSONResponse(await run_in_threadpool(work, data))
            except BalanceError as e:
                return error(e)
        return handler

    routes = [Route("/", index), Route("/api/form", form), Route("/api/stream", stream),
              Route("/api/status", status), Route("/api/view", view, methods=["POST"]),
              *(Route(f"/api/{name}", button(work), methods=["POST"])
                for name, work in (("cards", cards), ("sweep", sweep), ("study", study),
                                   ("command", command)))]
    app = Starlette(routes=routes)
    app.state.explorer = explorer
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
    """The app in a background thread (tests, the screenshot, the benchmark): ``url``, then
    ``close()``."""

    def __init__(self, game: str, players: int | None = None, jobs: int = 1, port: int = 0):
        import socket
        import time

        import uvicorn

        if port == 0:
            with socket.socket() as s:
                s.bind((HOST, 0))
                port = s.getsockname()[1]
        self.app = make_app(game, players, jobs)
        self.url = f"http://{HOST}:{port}/"
        self.server = uvicorn.Server(uvicorn.Config(self.app, host=HOST, port=port,
                                                    log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError(f"the explore server did not start on {self.url}")
            time.sleep(0.05)

    @property
    def explorer(self) -> Explorer:
        return self.app.state.explorer

    def close(self) -> None:
        session = self.explorer.session
        if session is not None:
            session.stop()
        self.server.should_exit = True
        self.thread.join(10)
