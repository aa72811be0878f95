"""Benchmark: games/s per core and peak memory, each measurement in a fresh process.

Run with `balance bench` (or `python -m cli.bench`); figures are recorded in docs/benchmarks.md. Every figure comes from its own Python
process so that memory peaks and worker pools do not leak between measurements. Timed runs
start after a warm-up (kernels loaded from the disk cache, worker pool started), except the
end-to-end and cold-start rows, which include everything a user waits for.
"""
from __future__ import annotations

import itertools
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

import numpy as np



def benches() -> dict:
    """game -> what its study asks the benchmark to time (analysis.studies.Bench), every game."""
    from analysis.studies import study_of
    from sim.games import game_names

    return {game: study_of(game).bench for game in game_names()}


def speed_cases(quick: bool = False) -> list[tuple]:
    """(game, rule options, strategy, label, share of the games) of the speed table: every
    game's ``Bench.speed`` rows (``--quick``: its ``Bench.quick`` ones)."""
    return [(game, dict(rules), strategy, label, bench.games_share)
            for game, bench in benches().items()
            for i, (rules, strategy, label) in enumerate(bench.speed)
            if not quick or i in bench.quick]


def end_to_end_case() -> tuple[str, dict]:
    """The game and rules of the end-to-end, cold-start and streaming rows."""
    return next((game, dict(bench.end_to_end)) for game, bench in benches().items()
                if bench.end_to_end is not None)


def measure(mode: str, game: str, rules: dict, strategy: str, jobs: int, n_games: int) -> dict:
    """Run inside the child process; returns the figures as a dict."""
    import resource

    from joblib.externals.loky import get_reusable_executor

    start = time.perf_counter()
    from sim.runner import simulate

    if mode == "steady":
        simulate(game, rules, strategy, max(jobs * 2000, 2000), seed=1, jobs=jobs, stream=True)
        start = time.perf_counter()
    simulate(game, rules, strategy, n_games, seed=1, jobs=jobs, stream=True)
    seconds = time.perf_counter() - start
    if jobs > 1:
        get_reusable_executor().shutdown(wait=True)  # reap workers so their peak is counted
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return {"seconds": seconds, "games_per_s": n_games / seconds,
            "per_core": n_games / seconds / jobs, "rss_mb": own, "worker_rss_mb": workers}


def measure_search(game: str, budget: int = 64, n_games: int = 20) -> dict:
    """Search iterations per second on one core (ismcts at seat 0, random rollouts, random
    opponents), against random games per second of the same game in the same process."""
    from sim.core.header import iterations
    from sim.games import get_game
    from sim.rng import master_key
    from sim.runner import as_rules, play_kernel, simulate
    from sim.strategy import resolve_seats

    spec = get_game(game)
    rules = as_rules(spec, None)
    n = rules.n_seats
    seats = resolve_seats(spec, [f"ismcts:budget={budget},rollout=random"] + ["random"] * (n - 1), n)

    def run(count, first):
        ctl = seats.controller(spec)
        play_kernel(spec, rules.kernel_args(), seats, master_key(1), first, count, ctl=ctl)
        return iterations(ctl)

    run(1, 10**6)  # compile or load
    start = time.perf_counter()
    iterations = run(n_games, 0)
    seconds = time.perf_counter() - start
    simulate(game, None, "random", 2000, seed=1)
    start = time.perf_counter()
    simulate(game, None, "random", 100_000, seed=1)
    random_rate = 100_000 / (time.perf_counter() - start)
    per_s = iterations / seconds
    return {"iterations_per_s": per_s, "random_games_per_s": random_rate,
            "games_per_iteration": random_rate / per_s, "search_games_per_s": n_games / seconds}


def run_search(budget: int = 64, n_games: int = 20) -> str:
    """`balance bench --search`: the search player's cost, every game, one process each."""
    from sim.games import game_names

    lines = ["| game | search iterations/s per core | random games/s | one iteration costs "
             "(random games) | games/s with one search seat |", "|---|---|---|---|---|"]
    for game in game_names():
        r = _subprocess_json(f"b.measure_search({game!r}, {budget}, {n_games})")
        lines.append(f"| {game} | {r['iterations_per_s']:,.0f} | {r['random_games_per_s']:,.0f} | "
                     f"{r['games_per_iteration']:.2f} | {r['search_games_per_s']:.2f} |")
    return "\n".join(lines)


def trained_cases() -> list[tuple[str, dict]]:
    """Trained play against the game's best heuristic (balance bench --trained): a row for
    every shipped policy (at its player count) and every field shipped for a variant."""
    from sim import field as F
    from sim import trained as T
    from sim.games import game_names, get_game

    rows = []
    for game in game_names():
        spec = get_game(game)
        count = spec.rules_class.player_option()
        policies = [(n, {}) for n in T.shipped_policies(spec)]
        variants = [(n, F.variant_of(spec, path)) for n, _, path in F.shipped_variants(spec)]
        rows += [(game, {**options, **({count: n} if n is not None and count else {})})
                 for n, options in policies + variants]
    return rows


HIDDEN_BENCH = 4   # hidden units per decision type in the benchmark's network row


def measure_trained(game: str, rules: dict, n_games: int = 20_000,
                    min_seconds: float = 1.0) -> dict:
    """Games per CPU-second in one process with every seat the shipped trained policy, the
    same policy with HIDDEN_BENCH hidden units where training puts them (the game's
    HIDDEN_DECISIONS, else every decision type; output weights 1e-9, so the units are computed
    and the play is the linear policy's but for exact ties), the shipped strong field where one
    ships (``strong``), and the game's best heuristic (GameSpec.heuristic): best of 3, after a
    warm-up; a fast game plays more games, so that every timed run takes at least
    ``min_seconds``."""
    from sim import field as F
    from sim import trained as T
    from sim.games import get_game
    from sim.runner import as_rules, simulate
    from sim.strategy import trained_player

    spec = get_game(game)
    n_seats = as_rules(spec, rules).n_seats
    linear = T.load(T.shipped_path(spec, n_seats), spec)["weights"]
    f = T.n_features(spec)
    wide = T.widen(linear, f, HIDDEN_BENCH)
    names = list(spec.decision_names or ("decision",))
    where = getattr(T._strategies_module(spec), "HIDDEN_DECISIONS", None) or names
    for d in (names.index(name) for name in where):
        wide[d, f + f + 1::f + 2] = 1e-9          # every unit's output weight in that row
    network = trained_player(spec, wide, "network")
    strategies = ["trained", network, spec.heuristic]
    if F.shipped_path(spec, n_seats) is not None:
        strategies.insert(1, "strong")
    rates = {}
    for strategy in strategies:
        simulate(game, rules, strategy, 500, seed=1, jobs=1, stream=True, progress=False)

        def timed(count):
            start = time.process_time()
            simulate(game, rules, strategy, count, seed=1, jobs=1, stream=True, progress=False)
            return time.process_time() - start

        count = max(n_games, int(n_games * min_seconds / max(timed(n_games), 1e-3)) + 1)
        rates[getattr(strategy, "name", strategy)] = max(count / timed(count) for _ in range(3))
    best = rates[spec.heuristic]
    return {"heuristic": spec.heuristic, "trained_per_s": rates["trained"],
            "network_per_s": rates["network"], "network_ratio": rates["network"] / best,
            "strong_per_s": rates.get("strong"), "heuristic_per_s": best,
            "ratio": rates["trained"] / best,
            "strong_ratio": rates["strong"] / best if "strong" in rates else None}


def run_trained(n_games: int = 20_000) -> str:
    """`balance bench --trained`: trained play's and the strong field's speed against the best
    heuristic's (targets: trained at least 1/3, issue 16; the field at least 1/4, issue 28), one
    process per game."""
    lines = ["| game | variant | every seat trained, games/CPU-s "
             f"| the same with {HIDDEN_BENCH} hidden units where training puts them "
             "| every seat the strong field "
             "| every seat the best heuristic | trained ÷ heuristic (target ≥ 0.33) "
             "| hidden units ÷ heuristic "
             "| field ÷ heuristic (target ≥ 0.25) |", "|---|---|---|---|---|---|---|---|---|"]
    for game, rules in trained_cases():
        r = _subprocess_json(f"b.measure_trained({game!r}, {rules!r}, {n_games})")
        variant = ", ".join(f"{k}={v}" for k, v in rules.items()) or "default"
        strong = "no field shipped" if r["strong_per_s"] is None else f"{r['strong_per_s']:,.0f}"
        strong_ratio = "" if r["strong_ratio"] is None else f"{r['strong_ratio']:.2f}"
        lines.append(f"| {game} | {variant} | {r['trained_per_s']:,.0f} "
                     f"| {r['network_per_s']:,.0f} | {strong} "
                     f"| {r['heuristic_per_s']:,.0f} ({r['heuristic']}) | {r['ratio']:.2f} "
                     f"| {r['network_ratio']:.2f} | {strong_ratio} |")
    return "\n".join(lines)


# A user strategy as a user writes it: the built-in random player's code, in a file of its own.
USER_STRATEGY = """from numba import njit
from sim.rng import choose_legal

@njit
def mine(decision, seat, obs, legal, params, rng):
    return choose_legal(legal, rng, 0)
"""


def measure_startup(game: str, user_strategy: str | None = None) -> dict:
    """Import, compile (or load) and play 1,000 random games; with ``user_strategy`` (a file)
    the first seat plays it. Run in a fresh process: the figure is what a user waits for."""
    start = time.perf_counter()
    from sim.runner import simulate
    from sim.strategy import Strategy

    seats = "random"
    if user_strategy:
        import importlib.util

        spec = importlib.util.spec_from_file_location("user_strategy", user_strategy)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        seats = [Strategy("mine", fn=module.mine), "random"]
        from sim.games import get_game
        n = get_game(game).rules_class().n_seats
        seats = seats[:1] + ["random"] * (n - 1)
    simulate(game, None, seats, 1000, seed=1)
    return {"seconds": time.perf_counter() - start}


def measure_overhead(game: str, n_games: int) -> dict:
    """Games per CPU-second of the engine (random players, one process) and of the game's
    minimal straight-line kernel (its ``Bench.straight``), back to back in one process."""
    from analysis.studies import study_of
    from sim.games import get_game
    from sim.rng import master_key
    from sim.runner import as_rules, simulate

    bench = study_of(game).bench
    rules = dict(bench.straight_rules)
    spec = get_game(game)
    variant = as_rules(spec, rules)
    out = np.zeros((n_games, spec.record_width(variant.n_seats)), np.int16)

    def straight(n):
        return bench.straight(variant, master_key(1), out[:n])

    straight(1000)
    simulate(game, rules, "random", 2000, seed=1, stream=True)
    best = {"engine": 0.0, "straight": 0.0}
    for _ in range(3):
        start = time.process_time()
        simulate(game, rules, "random", n_games, seed=1, stream=True)
        best["engine"] = max(best["engine"], n_games / (time.process_time() - start))
        start = time.process_time()
        straight(n_games)
        best["straight"] = max(best["straight"], n_games / (time.process_time() - start))
    return best


def run_startup() -> str:
    """`balance bench --startup`: what a new user waits for, each figure in a fresh process with
    an empty kernel cache (cold start of every game), and a user strategy compiled into every
    game with the game's kernel already cached; then the engine against minimal straight-line
    kernels of the games that declare one (the engine's overhead as a ratio)."""
    from sim.games import game_names

    lines = ["| game | cold start: import, compile, 1,000 games (s) | a user strategy: import, "
             "compile it, 1,000 games (s) |", "|---|---|---|"]
    with tempfile.TemporaryDirectory() as folder:
        user_file = os.path.join(folder, "mine.py")
        with open(user_file, "w") as f:
            f.write(USER_STRATEGY)
        for game in game_names():
            with tempfile.TemporaryDirectory() as empty_cache:
                cold = _startup_child(game, None, empty_cache)
                user = _startup_child(game, user_file, empty_cache)  # the kernel is cached now
            lines.append(f"| {game} | {cold['seconds']:.1f} | {user['seconds']:.1f} |")
    lines += ["", "| game | engine games per CPU-s | straight-line kernel games per CPU-s | "
              "engine / straight-line |", "|---|---|---|---|"]
    for game, bench in benches().items():
        if bench.straight is None:
            continue
        r = _subprocess_json(f"b.measure_overhead({game!r}, {bench.straight_games})")
        lines.append(f"| {game} | {r['engine']:,.0f} | {r['straight']:,.0f} | "
                     f"{r['engine'] / r['straight']:.2f} |")
    return "\n".join(lines)


def _startup_child(game, user_file, cache_dir) -> dict:
    return _subprocess_json(f"b.measure_startup({game!r}, {user_file!r})", cache_dir)


def _subprocess_json(call: str, cache_dir=None) -> dict:
    env = dict(os.environ)
    if cache_dir:
        env["NUMBA_CACHE_DIR"] = cache_dir
    code = f"import json, cli.bench as b; print(json.dumps({call}))"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"benchmark child failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _child(mode, game, rules, strategy, jobs, n_games, cache_dir=None) -> dict:
    env = dict(os.environ)
    if cache_dir:
        env["NUMBA_CACHE_DIR"] = cache_dir
    code = (f"import json, cli.bench as b; print(json.dumps(b.measure({mode!r}, {game!r}, {rules!r}, "
            f"{strategy!r}, {jobs}, {n_games})))")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"benchmark child failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _openspiel_child(module: str, rules: dict, n_python: int, n_cpp: int) -> dict:
    code = (f"import json; from {module} import openspiel_speed; "
            f"print(json.dumps(openspiel_speed({rules!r}, {n_python}, {n_cpp})))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"OpenSpiel benchmark child failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def run_openspiel(n_games: int = 1_000_000, n_python: int = 5_000, n_cpp: int = 50_000) -> str:
    """The games that declare an OpenSpiel twin (``Bench.openspiel``: Goofspiel) here against
    OpenSpiel's, same variants, same machine, same run: random players; a decision is one seat's
    choice (a forced move is automatic in both). Needs the calibration extra (open_spiel)."""
    import importlib

    rows = []
    for game, bench in benches().items():
        if bench.openspiel is None:
            continue
        twin = importlib.import_module(bench.openspiel)
        twin.require_openspiel()
        for rules in map(dict, bench.openspiel_rules):
            rows += _openspiel_rows(game, bench.openspiel, twin.decisions_per_game(rules), rules,
                                    n_games, n_python, n_cpp)
    return "\n".join([
        "The toolkit against OpenSpiel (random players, one process each, same run)", "",
        "| variant | implementation | games | games/s | decisions/s | ours is faster by |",
        "|---|---|---|---|---|---|", *rows, ""])


def _openspiel_rows(game, module, per_game, rules, n_games, n_python, n_cpp) -> list[str]:
    ours = _child("steady", game, rules, "random", 1, n_games)
    theirs = _openspiel_child(module, rules, n_python, n_cpp)
    label = f"{game}, " + (", ".join(f"{k}={v}" for k, v in rules.items()) or "defaults")
    return [f"| {label} | {who} | {n:,} | {games_s:,.0f} | {games_s * per_game:,.0f} | "
            f"{ours['games_per_s'] / games_s:,.0f}x |"
            for who, games_s, n in (("balance-toolkit kernel", ours["games_per_s"], n_games),
                                    ("OpenSpiel, Python loop", theirs["python_games_per_s"], n_python),
                                    ("OpenSpiel, C++ loop (evaluate_bots)", theirs["cpp_games_per_s"],
                                     n_cpp))]


def adapter_cases() -> list[tuple[str, dict]]:
    """Adapters (balance bench --adapters): every game at its ``Bench.adapters`` rules (its
    defaults unless it says more). Every loop picks uniformly random legal actions."""
    return [(game, dict(rules)) for game, bench in benches().items() for rules in bench.adapters]


def _timed_loop(step, seconds: float) -> tuple[float, int]:
    """Run ``step()`` (it returns how many decisions it played) for about ``seconds``."""
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        done += step()
    return time.perf_counter() - start, done


def measure_adapters(game: str, rules: dict, seconds: float = 2.0) -> dict:
    """Decisions/s of one game inside the kernel (random play) and through every adapter
    (random legal actions chosen in Python), one process; the step time in the first and the
    second half of the games (a replay from the start would make the second half slower)."""
    import pyspiel

    import sim.adapters.openspiel as os_adapter
    from sim.adapters import Table
    from sim.adapters.gymnasium import SeatEnv
    from sim.adapters.pettingzoo import BalanceAEC
    from sim.runner import simulate

    table = Table(game, rules)
    rng = np.random.default_rng(0)
    counter = iter(range(10**9))
    halves = [0.0, 0.0, 0, 0]

    def live_game():
        live = table.live(1, next(counter))
        times = []
        while live.pending is not None:
            legal = np.flatnonzero(live.pending.legal)
            start = time.perf_counter()
            live.play(legal[rng.integers(len(legal))])
            times.append(time.perf_counter() - start)
        half = len(times) // 2
        halves[0] += sum(times[:half])
        halves[1] += sum(times[half:2 * half])
        halves[2] += half
        return len(times)

    live_game()  # compile or load the controlled kernel
    asks = [live_game() for _ in range(20)]
    per_game = float(np.mean(asks))
    simulate(game, rules, "random", 200, seed=1)
    n_kernel = 2000
    while True:
        start = time.perf_counter()
        simulate(game, rules, "random", n_kernel, seed=1, stream=True)
        elapsed = time.perf_counter() - start
        if elapsed > seconds / 4 or n_kernel > 10**7:
            break
        n_kernel *= 4
    kernel = n_kernel * per_game / elapsed
    halves[:] = [0.0, 0.0, 0, 0]
    live_s, live_n = _timed_loop(live_game, seconds)

    aec = BalanceAEC(table)

    def pettingzoo_game():
        aec.reset()
        n = 0
        for agent in aec.agent_iter():
            obs, _, terminated, truncated, _ = aec.last()
            if terminated or truncated:
                aec.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            aec.step(legal[rng.integers(len(legal))])
            n += 1
        return n

    pz_s, pz_n = _timed_loop(pettingzoo_game, seconds)
    gym = SeatEnv(table, 0, "random")

    def gymnasium_game():
        _, info = gym.reset()
        n, done = 0, False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            _, _, done, _, info = gym.step(legal[rng.integers(len(legal))])
            n += 1
        return n

    gym_s, gym_n = _timed_loop(gymnasium_game, seconds)
    spiel = pyspiel.load_game(os_adapter.PREFIX + game, rules)

    def openspiel_game():
        state, n = spiel.new_initial_state(), 0
        state.apply_action(int(rng.integers(spiel.max_chance_outcomes())))
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
            n += 1
        return n

    os_s, os_n = _timed_loop(openspiel_game, seconds)
    first = table.n_seats
    calls = [0]

    def agent(obs, legal):
        calls[0] += 1
        return int(np.flatnonzero(legal)[0])

    n_agent = max(20, int(200 / max(per_game, 1)))
    simulate(game, rules, [agent] * first, 5, seed=1)
    calls[0] = 0
    start = time.perf_counter()
    simulate(game, rules, [agent] * first, n_agent, seed=1)
    agent_rate = calls[0] / (time.perf_counter() - start)
    return {"decisions_per_game": per_game, "kernel": kernel, "live": live_n / live_s,
            "pettingzoo": pz_n / pz_s, "gymnasium": gym_n / gym_s, "openspiel": os_n / os_s,
            "agent": agent_rate,
            "late_over_early": (halves[1] / halves[0]) if halves[0] else float("nan")}


def run_adapters(seconds: float = 2.0) -> str:
    """`balance bench --adapters`: decisions/s through the adapters, every game, one process
    each, against random play inside the kernel; and OpenSpiel's own Python loop of every game
    that declares an OpenSpiel twin, at its first rules."""
    from sim.games import game_names

    lines = ["Adapters (decisions/s, one process; random legal actions chosen in Python; a "
             "decision is one asked choice, forced moves are not asked)", "",
             "| game | variant | decisions/game | kernel | live game | PettingZoo | Gymnasium "
             "(1 seat) | OpenSpiel adapter | Python agent in simulate | adapter step / kernel "
             "decision | late / early step |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    known = set(game_names())
    for game, rules in adapter_cases():
        if game not in known:
            continue
        variant = ", ".join(f"{k}={v}" for k, v in rules.items()) or "defaults"
        try:
            r = _subprocess_json(f"b.measure_adapters({game!r}, {rules!r}, {seconds})")
        except RuntimeError as failure:
            lines.append(f"| {game} | {variant} | failed: {str(failure).splitlines()[-1][:80]} |")
            continue
        lines.append(f"| {game} | {variant} | {r['decisions_per_game']:.1f} | {r['kernel']:,.0f} | "
                     f"{r['live']:,.0f} | {r['pettingzoo']:,.0f} | {r['gymnasium']:,.0f} | "
                     f"{r['openspiel']:,.0f} | {r['agent']:,.0f} | "
                     f"{r['kernel'] / r['pettingzoo']:,.0f}x | {r['late_over_early']:.2f} |")
    for game, bench in benches().items():
        if bench.openspiel is None:
            continue
        rules = dict(bench.openspiel_rules[0])
        theirs = _openspiel_child(bench.openspiel, rules, 2000, 1)
        lines += ["", f"OpenSpiel's own {game} ({rules}), driven from a Python loop: "
                  f"{theirs['python_decisions_per_s']:,.0f} decisions/s (same run)."]
    return "\n".join(lines)


def run(n_games: int = 1_000_000, stream_games: int = 10_000_000, quick: bool = False,
        record=None) -> str:
    from sim import __version__
    from sim.games import get_game

    rows = []
    for game, rules, strategy, label, share in speed_cases(quick):
        n = max(int(n_games * share), 1)
        n = min(n, 200_000) if quick else n
        for jobs in (1, 2):
            r = _child("steady", game, rules, strategy, jobs, n)
            rows.append(f"| {game} | {label} | {strategy} | {jobs} | {n:,} | {r['games_per_s']:,.0f} | "
                        f"{r['per_core']:,.0f} | {r['rss_mb']:.0f} / {r['worker_rss_mb']:.0f} |")
    lines = [f"balance-toolkit {__version__} benchmark, Python {platform.python_version()}, "
             f"{os.cpu_count()} cores ({platform.machine()})", "",
             "| game | variant | strategy | processes | games | games/s | games/s per core | "
             "peak RSS MB (main / worker) |", "|---|---|---|---|---|---|---|---|", *rows, ""]
    game, rules = end_to_end_case()
    title, at = get_game(game).title, ", ".join(f"{k}={v}" for k, v in rules.items()) or "defaults"
    e2e = _child("end_to_end", game, rules, "random", 2, 1_000_000)
    lines.append(f"- 10^6 {title} games ({at}), random, 2 processes, end to end (pool start "
                 f"included): {e2e['seconds']:.1f} s")
    with tempfile.TemporaryDirectory() as empty_cache:
        cold = _child("end_to_end", game, rules, "random", 1, 1000, cache_dir=empty_cache)
    lines.append(f"- cold start with an empty kernel cache (import, compile, 1,000 games): "
                 f"{title} {cold['seconds']:.1f} s (every game: `balance bench --startup`)")
    big = stream_games if not quick else min(stream_games, 2_000_000)
    st = _child("end_to_end", game, rules, "random", 2, big)
    lines.append(f"- streaming {big:,} {title} games ({at}, random), 2 processes: "
                 f"{st['seconds']:.0f} s, peak RSS "
                 f"{st['rss_mb']:.0f} MB main / {st['worker_rss_mb']:.0f} MB per worker")
    text = "\n".join(lines)
    if record:
        with open(record, "w") as f:
            f.write(text + "\n")
    return text


def _first_numbers(server, view: dict) -> float:
    """Seconds from posting a changed view to the first event of its numbers on the page's own
    stream (HTTP POST, the session's first step, the stream's poll)."""
    import threading
    import urllib.request

    got = threading.Event()

    def listen():
        with urllib.request.urlopen(server.api("api/stream"), timeout=60) as stream:
            for line in stream:
                if not line.startswith(b"data: "):
                    continue
                snap = json.loads(line[6:])
                if snap["games"] > 0 and snap["provenance"]["changes"] and \
                        snap["provenance"]["variant_b"] != seen.get("last"):
                    seen["last"] = snap["provenance"]["variant_b"]
                    got.set()
                    return

    seen: dict = {"last": server.explorer.session.snapshot()["provenance"]["variant_b"]
                  if server.explorer.session else None}
    thread = threading.Thread(target=listen, daemon=True)
    thread.start()
    time.sleep(0.5)   # the stream is open, as the page's is
    request = urllib.request.Request(server.base + "api/view", data=json.dumps(view).encode(),
                                     headers={"Content-Type": "application/json",
                                              **server.headers}, method="POST")
    began = time.perf_counter()
    urllib.request.urlopen(request, timeout=60).read()
    got.wait(60)
    took = time.perf_counter() - began
    thread.join(5)
    return took


def run_explore(changes: int = 5) -> str:
    """`balance bench --explore`: the live loop's latency. For every game, the seconds from a
    changed value to its first numbers on the page's stream (warm kernel: a first view plays
    before the clock starts; median of ``changes`` changes of the first tunable); then, for the
    games whose ``Bench.explore`` names a change (Parthian Shot: 4 players, charge_threshold
    9 -> 8), the seconds to a paired difference of the headline metric at +-1 pp (seats rotated,
    every core)."""
    from analysis.explore import Session, View, form, headline_metric
    from cli.explore import Server
    from sim.games import game_names, get_game
    from sim.runner import all_cores

    cores = all_cores()
    lines = [f"| game | first numbers after a change, median of {changes} (s) |", "|---|---|"]
    for game in game_names():
        knob = next(k for o in form(game)["options"] if o["kind"] == "knobs" for k in o["knobs"])
        values = [knob["value"] + knob["step"] * (i + 1) if knob["value"] + knob["step"] *
                  (changes + 1) <= knob["high"] else knob["value"] - knob["step"] * (i + 1)
                  for i in range(changes + 1)]
        server = Server(game, jobs=cores)
        try:
            _first_numbers(server, {"knobs": {knob["name"]: values[0]}})    # warms the kernel
            times = [_first_numbers(server, {"knobs": {knob["name"]: v}}) for v in values[1:]]
        finally:
            server.close()
        lines.append(f"| {game} | {float(np.median(times)):.2f} |")
    lines += ["", "| game | players | levels | change | headline | headline difference at +-1 pp "
              "after (s) | paired games | every rate at +-1 pp after (s) | paired games | games/s "
              "(both sides) |", "|---|---|---|---|---|---|---|---|---|---|"]
    changed = [(game, bench.explore) for game, bench in benches().items() if bench.explore]
    for (game, (players, knobs)), level in itertools.product(changed, ("random", "heuristic")):
        view = View(game, players=players, levels=level, knobs=dict(knobs), precision=1.0)
        metric = headline_metric(get_game(game))
        Session(View(game, players=players, levels=level, max_games=480)).run_until_done()
        reached: dict = {}

        def note(snap, reached=reached, began=time.perf_counter()):
            row = next(m for m in snap["metrics"] if m["metric"] == metric)["diff"]
            if "at" not in reached and row["high"] is not None and \
                    row["high"] - row["mean"] <= 0.01:
                reached.update(at=time.perf_counter() - began, games=snap["games"],
                               rate=snap["games_per_s"])

        began = time.perf_counter()
        session = Session(view, jobs=cores, on_step=note)
        final = session.run_until_done(time.monotonic() + 120)
        every = time.perf_counter() - began if final["precision_reached"] else float("nan")
        change = ", ".join(f"{k} {form_value(game, players, k)} -> {v}" for k, v in knobs.items())
        lines.append(f"| {game} | {players} | {level} | {change} | {metric} | "
                     f"{reached.get('at', float('nan')):.2f} | {reached.get('games', 0):,} | "
                     f"{every:.2f} | {final['games']:,} | {final['games_per_s']:,.0f} |")
    return "\n".join([f"balance explore latency, {cores} cores ({platform.machine()})", "",
                      *lines])


def form_value(game: str, players: int, knob: str):
    """The knob's default value at ``players`` (the explore page's form)."""
    from analysis.explore import base_rules
    from sim.games import get_game

    return getattr(base_rules(get_game(game), players), knob)

if __name__ == "__main__":
    print(run_openspiel() if "--openspiel" in sys.argv else run_adapters() if "--adapters" in sys.argv
          else run(quick="--quick" in sys.argv))
