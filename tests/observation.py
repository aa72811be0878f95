"""Observation conformance: a strategy is handed only what its seat has observed.

The check compares two worlds that the deciding seat cannot tell apart. World A is a game
played with random strategies and every decision traced (sim/core/control.py). World B is the same game
(same seed, same strategies and random streams) where, at decision k, either

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

from dataclasses import dataclass, field

import numpy as np

from sim.core.header import T_ACTION, T_DECISION, T_EVENTS, T_OBS_HASH, T_SEAT, perturbed, trace_of
from sim.game import OWNER, PUBLIC
from sim.games import get_game
from sim.rng import master_key
from sim.runner import as_rules
from sim.runner import play_kernel
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
        seats = resolve_seats(spec, strategies, rules.n_seats)
        for g in range(games):
            check_game(spec, rules, seats, seed, g, rng, report, points, kernel)
    return report
