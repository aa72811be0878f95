"""The engine-wide conformance checks, callable on any registered game (a plugin's included).

Like scikit-learn's ``check_estimator`` and pgx's ``api_test``: the toolkit's own engine-wide
tests (tests/engine) and a plugin game's tests call the same functions, so a game that lives in
its designer's own package is held to the same contract. A plugin's test module is::

    import pytest
    from sim import conformance

    @pytest.mark.parametrize("check", conformance.CHECKS, ids=str)
    def test_conformance(check):
        conformance.CHECKS[check]("dice_duel")

The checks:

- ``observation``: a strategy is handed only what its seat has observed (below);
- ``rotation``: rotated game g is the fixed-seat game g with the strategy list rotated by g;
- ``search``: the search player's decisions ignore what its seat cannot see;
- ``fuzz``: any options and strategies give a valid run or a clear error (Hypothesis);
- golden games: :func:`replay`, :func:`assert_replays_exactly` and :func:`regenerate` (the
  re-record command of a game's golden folder).

Observation conformance compares two worlds that the deciding seat cannot tell apart. World A
is a game played with random strategies and every decision traced (sim/core/control.py). World
B is the same game (same seed, same strategies and random streams) where, at decision k, either

- the seat deciding at k takes another legal action ("perturb"): a seat that did not make that
  decision must be handed identical arrays as long as the events it has seen are identical; or
- the game redeals everything the deciding seat has not observed before decision k ("redeal"):
  the hidden cards of the other seats, their pending private choices, the order of unseen
  decks. The deciding seat must be handed identical arrays from decision k on, as long as the
  events it sees are identical.

What a seat has seen is read from the game's event log and its layout.EVENT_VISIBILITY: the log
is the specification of what is public. So a kernel that leaves a trace of a private decision
in a public field (Sunzi's warlord leak) is caught, whichever field it uses.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import typing
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.core.header import T_ACTION, T_DECISION, T_EVENTS, T_OBS_HASH, T_SEAT, perturbed, trace_of
from sim.errors import BalanceError
from sim.game import OWNER, PUBLIC
from sim.games import get_game, home
from sim.rng import master_key
from sim.runner import as_rules, play_kernel, play_one, simulate
from sim.strategy import resolve_seats

MAX_EVENTS = 8192
MAX_TRACE = 4096


@dataclass
class World:
    trace: np.ndarray      # int64[decisions, TRACE_WIDTH]
    events: np.ndarray     # int64[events, LOG_WIDTH]
    perturbed: bool


def play_world(spec, rules, seats, seed: int, game: int, *, perturb_at=-1, redeal_at=-1,
               kernel=None) -> World:
    """One game with its decisions traced (and perturbed or redealt at one decision);
    ``kernel``: another play_chunk than the game's (a planted leak)."""
    ctl = seats.controller(spec, trace_rows=MAX_TRACE, perturb_at=perturb_at, redeal_at=redeal_at,
                           seed=seed * 1_000_003 + game)
    log = np.zeros((MAX_EVENTS, spec.kernel.LOG_WIDTH), np.int64)
    play_kernel(spec, rules.kernel_args(), seats, master_key(seed), game, 1, log, ctl, chunk=kernel)
    n = int(log[0, 0])
    assert n < MAX_EVENTS - 1, "event log full: raise MAX_EVENTS"
    return World(trace_of(ctl).copy(), log[1:1 + n].copy(), perturbed(ctl))


def view(world: World, seat: int, visibility, actions: bool = False) -> list[tuple]:
    """What `seat` lives through, in order: the events it sees and the hashes of the arrays
    handed to its strategy (and, with ``actions``, what it answered: for a search player,
    whose answer must not depend on what it cannot see either)."""
    items, e = [], 0
    def see(event):
        code = int(event[0])
        shown = visibility[code] if code < len(visibility) else PUBLIC
        return shown == PUBLIC or (shown == OWNER and int(event[2]) == seat)
    for row in world.trace:
        while e < row[T_EVENTS] and e < len(world.events):
            if see(world.events[e]):
                items.append(("event", tuple(int(x) for x in world.events[e])))
            e += 1
        if row[T_SEAT] == seat:
            items.append(("ask", int(row[T_DECISION]), int(row[T_OBS_HASH]),
                          int(row[T_ACTION]) if actions else 0))
    items += [("event", tuple(int(x) for x in ev)) for ev in world.events[e:] if see(ev)]
    return items


@dataclass
class Report:
    compared: dict = field(default_factory=dict)   # decision name -> decisions compared
    leaks: list = field(default_factory=list)

    def add(self, name, n=1):
        self.compared[name] = self.compared.get(name, 0) + n


def first_leak(a: list, b: list, start_ask: int = 0):
    """Walk two views in step; return (decision, position) of the first decision whose arrays
    differ while everything seen before was the same, or None. The walk stops at the first
    difference in what was seen (from there the seat may legitimately know more).

    ``start_ask``: compare decisions from this one on (earlier ones are the same game)."""
    asks = 0
    compared = []
    for x, y in zip(a, b):
        if x != y:
            if x[0] == "ask" and y[0] == "ask" and asks >= start_ask:
                return x[1], asks, compared
            return None, asks, compared
        if x[0] == "ask":
            if asks >= start_ask:
                compared.append(x[1])
            asks += 1
    return None, asks, compared


def check_game(spec, rules, seats, seed: int, game: int, rng: np.random.Generator,
               report: Report, points: int = 4, kernel=None) -> None:
    """Perturb and redeal at `points` random decisions of one game; record leaks in `report`."""
    vis = spec.event_visibility
    names = spec.decision_names or ("decision",)
    base = play_world(spec, rules, seats, seed, game, kernel=kernel)
    n = len(base.trace)
    if n == 0:
        return
    n_seats = len(seats.kinds)
    # Random decisions, plus the first decision of each type seen in this game
    first = {int(d): i for i, d in reversed(list(enumerate(base.trace[:, T_DECISION])))}
    chosen = set(int(k) for k in rng.choice(n, size=min(points, n), replace=False))
    for k in sorted(chosen | set(first.values())):
        decider = int(base.trace[k, T_SEAT])
        # own decisions of a seat before k: views agree on them by construction
        before = {s: int(np.sum(base.trace[:k, T_SEAT] == s)) for s in range(n_seats)}
        moved = play_world(spec, rules, seats, seed, game, perturb_at=k, kernel=kernel)
        if moved.perturbed:
            for s in range(n_seats):
                if s == decider:
                    continue
                leak, _, compared = first_leak(view(base, s, vis), view(moved, s, vis), before[s])
                for d in compared:
                    report.add(names[d])
                if leak is not None:
                    report.leaks.append(("perturb", dict(rules=rules.to_dict(options_only=True),
                                         seed=seed, game=game, at=k, seat=s,
                                         decision=names[leak])))
        redealt = play_world(spec, rules, seats, seed, game, redeal_at=k, kernel=kernel)
        leak, _, compared = first_leak(view(base, decider, vis), view(redealt, decider, vis),
                                       before[decider])
        for d in compared:
            report.add(names[d])
        if leak is not None:
            report.leaks.append(("redeal", dict(rules=rules.to_dict(options_only=True), seed=seed,
                                 game=game, at=k, seat=decider, decision=names[leak])))


def check(game_name: str, variants, strategies="random", games: int = 8, points: int = 4,
          seed: int = 11, kernel=None) -> Report:
    """Run the conformance check over rule variants (dicts of options) of one game."""
    spec = get_game(game_name)
    rng = np.random.default_rng(seed)
    report = Report()
    for options in variants:
        rules = as_rules(spec, dict(options))
        seats = resolve_seats(spec, strategies, rules.n_seats, rules)
        for g in range(games):
            check_game(spec, rules, seats, seed, g, rng, report, points, kernel)
    return report


# --- the checks, one game each ---------------------------------------------------------------

def variants(spec) -> list[dict]:
    """The defaults, every value of every choice option on its own, and the game's own list."""
    found = [{}]
    for name, f in spec.rules_class.options().items():
        choices = f.metadata.get("choices") or ((True, False) if isinstance(f.default, bool) else ())
        found += [{name: c} for c in choices if c != f.default]
    return found + [dict(v) for v in spec.observation_variants]


def check_observation(name: str, games: int = 3, points: int = 2) -> None:
    """No array handed to a strategy changes with hidden information, and every decision type
    is compared at least once."""
    spec = get_game(name)
    report = check(name, variants(spec), games=games, points=points)
    assert not report.leaks, (f"{name}: arrays handed to a strategy changed with hidden "
                              f"information: {report.leaks[:5]}")
    names = spec.decision_names or ("decision",)
    unchecked = [d for d in names if report.compared.get(d, 0) == 0]
    assert not unchecked, (f"{name}: no decision of type {unchecked} was compared; add rule "
                           f"variants that reach them to the spec's observation_variants "
                           f"(compared: {report.compared})")


def check_rotation(name: str) -> None:
    """Rotated game g = the fixed-seat game g with the strategy list rotated by g (every kernel
    seats its strategies through sim.core.protocol.seat_strategies)."""
    spec = get_game(name)
    rules = spec.rules_class()
    n = rules.n_seats
    names = list(spec.strategies)
    mix = [names[s % len(names)] for s in range(n)]
    rotated = simulate(name, rules, mix, 2 * n, seed=5, rotate_seats=True).records
    for g in range(2 * n):
        seated = [mix[(s + g) % n] for s in range(n)]
        record, _, _ = play_one(name, rules, seated, seed=5, game_index=g)
        row = rotated.iloc[g]
        assert {k: row[k] for k in record} == record, (name, g)


SEARCH = "ismcts:budget=24,rollout=random"


def check_search(name: str) -> int:
    """The search's decisions do not change with another seat's hidden choice while the
    events its seat saw are the same. Returns the decisions compared (0: every choice of the
    other seats is public at once, so no perturbed world looks the same to the search seat)."""
    spec = get_game(name)
    rules = as_rules(spec, None)
    n = rules.n_seats
    me = n - 1  # the last seat asked: the others' choices of a round are hidden from it
    seats = resolve_seats(spec, ["random"] * (n - 1) + [SEARCH], n)
    rng = np.random.default_rng(5)
    compared = 0
    for game in range(3):
        base = play_world(spec, rules, seats, 3, game)
        others = np.flatnonzero(base.trace[:, 0] != me)
        for k in rng.choice(others, size=min(4, len(others)), replace=False):
            moved = play_world(spec, rules, seats, 3, game, perturb_at=int(k))
            if not moved.perturbed:
                continue
            before = int(np.sum(base.trace[:k, 0] == me))
            leak, _, seen = first_leak(view(base, me, spec.event_visibility, actions=True),
                                       view(moved, me, spec.event_visibility, actions=True), before)
            assert leak is None, (f"{name}: the search's decision changed with another seat's "
                                  f"hidden choice (game {game}, decision {k})")
            compared += len(seen)
    return compared


# --- fuzzing: values generated from the rules dataclass's fields -----------------------------

MAX_GAMES = 24


def _hypothesis():
    from hypothesis import HealthCheck, event, given, settings
    from hypothesis import strategies as st
    fuzz = dict(deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                       HealthCheck.filter_too_much, HealthCheck.data_too_large])
    return st, given, settings, event, fuzz


def mostly(good, bad, one_in: int = 10):
    """``good``, and ``bad`` once in ``one_in``: enough valid cases to exercise the kernels."""
    st = _hypothesis()[0]
    return st.integers(1, one_in).flatmap(lambda i: bad if i == 1 else good)


def junk():
    st = _hypothesis()[0]
    return st.one_of(st.text(max_size=6), st.integers(-10**6, 10**6), st.floats(allow_nan=True),
                     st.none(), st.booleans(), st.lists(st.integers(-3, 40), max_size=4).map(tuple))


def _base_type(hint):
    """int for ``int | None``, tuple for ``tuple[int, ...] | None``, the hint itself otherwise."""
    args = typing.get_args(hint)
    if type(None) in args:
        hint = next(a for a in args if a is not type(None))
    return typing.get_origin(hint) or hint


def option_values(cls, field: dataclasses.Field):
    """Plausible and implausible values of one option, from its type, choices and default."""
    st = _hypothesis()[0]
    hint = typing.get_type_hints(cls)[field.name]
    base, default = _base_type(hint), field.default
    choices = tuple(field.metadata.get("choices") or ())
    if choices:
        good = st.sampled_from(choices)
    elif base is bool:
        good = st.booleans()
    elif base is int:
        centre = default if isinstance(default, int) and not isinstance(default, bool) else 0
        good = mostly(st.integers(centre - 3, centre + 3),
                      st.one_of(st.integers(-2, 12), st.integers(-2**40, 2**40)), 4)
    elif base is tuple:
        small = st.integers(-2, 30)
        good = mostly(st.just(default),
                      st.one_of(st.lists(small, max_size=9).map(tuple),
                                st.lists(st.text("abc-0123,+", max_size=4), max_size=6).map(tuple)), 3)
    elif base is str:
        good = mostly(st.just(default), st.one_of(st.text(max_size=8), st.just("/no/such/file.csv")), 3)
    else:
        good = st.one_of(st.just(default), st.text(max_size=6))
    if default is None:
        good = st.one_of(st.none(), good)
    as_text = good.map(lambda v: ",".join(map(str, v)) if isinstance(v, tuple) else str(v))
    return mostly(st.one_of(good, as_text), junk())   # good values, as Python or as CLI text


def option_dicts(spec):
    """One to three options changed from the defaults (more would almost always be refused)."""
    st = _hypothesis()[0]

    @st.composite
    def draw_options(draw) -> dict:
        fields = dataclasses.fields(spec.rules_class)
        chosen = draw(st.lists(st.sampled_from(fields), min_size=0, max_size=3,
                               unique_by=lambda f: f.name))
        options = {f.name: draw(option_values(spec.rules_class, f)) for f in chosen}
        if draw(st.integers(0, 19)) == 0:
            options[draw(st.text(min_size=1, max_size=5))] = 1   # an unknown option
        return options

    return draw_options()


def strategy_lists(spec, n_seats: int):
    st = _hypothesis()[0]
    names = mostly(st.sampled_from(list(spec.strategies)), st.sampled_from(["", "Random", "nope"]))
    return mostly(st.one_of(st.lists(names, min_size=n_seats, max_size=n_seats),
                            st.lists(names, min_size=1, max_size=1), names),
                  st.lists(names, min_size=0, max_size=n_seats + 2))


def check_invariants(spec, results, n_games: int, n_seats: int) -> None:
    records, summary = results.records, results.summary
    assert len(records) == summary.n_games == n_games
    shares = records[[f"win_{s}" for s in range(n_seats)]].to_numpy()
    totals = shares.sum(axis=1)
    assert np.all((shares >= 0) & (shares <= 1))
    assert np.all(np.isclose(totals, 0) | np.isclose(totals, 1)), "win shares sum to 1 or 0"
    k = (shares > 0).sum(axis=1)
    assert np.allclose(shares[k > 0].max(axis=1), 1 / k[k > 0]), "k winners share 1/k each"
    assert records["end_reason"].notna().all(), "every end-reason code has a label"
    assert (records[spec.length_name] >= 0).all()
    unfinished = records["end_reason"].isin(spec.unfinished_reasons).to_numpy()
    assert np.all(totals[unfinished] == 0), "capped or broken games are never wins"
    if "invariant_broken" in spec.end_reasons:
        assert not (records["end_reason"] == "invariant_broken").any(), "the kernel's own checks"
    assert summary.n_decided == int(np.isclose(totals, 1).sum())
    np.testing.assert_allclose(summary.win_sums, shares.sum(axis=0))


def check_fuzz(name: str, examples: int = 60) -> None:
    """Any options, strategies and run arguments give a valid run whose invariants hold, or a
    clear ``BalanceError``; nothing crashes inside compiled code. ``examples`` cases, fixed
    (derandomized) so that a run is reproducible; each plays at most MAX_GAMES games."""
    st, given, settings, event, fuzz = _hypothesis()
    spec = get_game(name)

    @settings(max_examples=examples, **fuzz)
    @given(data=st.data())
    def case(data):
        options = data.draw(option_dicts(spec), label="options")
        try:
            rules = spec.rules_class.from_options(options)
            n_seats = rules.n_seats
        except BalanceError as error:
            assert str(error)
            event(f"options refused: {type(error).__name__}")
            return
        strategies = data.draw(strategy_lists(spec, n_seats), label="strategies")
        bad = junk()
        run = data.draw(st.fixed_dictionaries({}, optional={
            "chunk_size": mostly(st.integers(1, 30), st.one_of(st.integers(-1, 0), bad), 25),
            "first_game": mostly(st.integers(0, 2**40), st.integers(-3, -1), 25),
            "rotate_seats": mostly(st.booleans(), bad, 25)}), label="run")
        n_games = data.draw(mostly(st.integers(1, MAX_GAMES), st.one_of(st.integers(-2, 0), bad),
                                   25), label="n")
        seed = data.draw(mostly(st.integers(0, 2**64 - 1), st.one_of(st.integers(-5, -1), bad),
                                25), label="seed")
        try:
            results = simulate(name, rules, strategies, n_games, seed, **run)
        except BalanceError as error:
            assert str(error)
            event(f"run refused: {type(error).__name__}")
            return
        event("valid run")
        check_invariants(spec, results, n_games, n_seats)

    case()


CHECKS = {"observation": check_observation, "rotation": check_rotation,
          "search": check_search, "fuzz": check_fuzz}


# --- golden games: a stored scripted game replayed exactly -----------------------------------

def golden_folder(name: str) -> Path:
    """Where a game's golden games are: <package>/tests/golden, for every game."""
    return home(name).sources[0] / "tests" / "golden"


def golden_files(name: str) -> list[Path]:
    return sorted(golden_folder(name).glob("*.json"))


def replay(game: dict, seats) -> tuple[dict, list]:
    # An optional "seed" (default 0) picks play_one's random streams, so that a game played by
    # built-in strategies can be chosen among seeds for the rules it exercises.
    record, events, _ = play_one(game["game"], game["rules"], seats, seed=game.get("seed", 0))
    return record, [[int(x) for x in row] for row in events]


def assert_replays_exactly(path: Path, seats_of) -> None:
    game = json.loads(Path(path).read_text())
    assert "expected" in game, (f"{path} is not recorded yet: record it with its folder's "
                                "re-record command and --write, then check it by hand")
    record, events = replay(game, seats_of(game))
    expected = game["expected"]
    assert {k: record[k] for k in expected["record"]} == expected["record"], (
        f"{path}: the record changed; after a deliberate rule change re-record it (its folder's "
        "regenerate command) and check it against the rules again")
    assert events == expected["events"], f"{path}: the events changed (see the record's note)"


def regenerate(seats_of, argv=None) -> int:
    """Rewrite the "expected" part of golden games from the current kernel. Run only by hand.

    A golden game is a hand-checked oracle: only rewrite it after a deliberate rule change, then
    check the new outcome against the rules again and update its "why" by hand.
    """
    parser = argparse.ArgumentParser(description=regenerate.__doc__)
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--write", action="store_true", help="overwrite the expected outcome")
    args = parser.parse_args(argv)
    for path in args.paths:
        game = json.loads(path.read_text())
        record, events = replay(game, seats_of(game))
        old = game.get("expected")   # None: a new golden game, recorded for the first time
        new_record = {k: (v.item() if hasattr(v, "item") else v) for k, v in record.items()
                      if k not in ("game_id", "n_players")}
        if old is None:
            print(f"{path}: not recorded yet" + ("" if args.write else "; --write records it"))
        else:
            changed = {k: (old["record"].get(k), v) for k, v in new_record.items()
                       if old["record"].get(k) != v}
            print(f"{path}: record differences {changed or 'none'}; "
                  f"events {'unchanged' if events == old['events'] else 'CHANGED'}")
        if args.write:
            game["expected"] = {**(old or {}), "record": new_record, "events": events}
            path.write_text(json.dumps(game, indent=2) + "\n")
            print("  written; now re-check it by hand and update its 'why'")
    return 0
