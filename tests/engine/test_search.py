"""The search player (sim/core/search.py, sim/core/control.py) on every registered game.

It never uses what its seat could not know: with an opponent's private choice changed, it makes
the same decisions as long as the events it saw are the same (tests/observation.py). It plays
better than random, is deterministic, and rejects bad settings clearly.
"""
import numpy as np
import pytest

from analysis.stats import wilson
from sim.conformance import SEARCH, check_search
from sim.errors import StrategyError
from sim.games import game_names, get_game
from sim.runner import as_rules, simulate
from sim.strategy import resolve_seats



@pytest.mark.parametrize("name", game_names())
def test_search_decisions_ignore_what_the_seat_cannot_see(name):
    if check_search(name) == 0:   # sim/conformance.py: what a plugin game's tests run too
        pytest.skip(f"{name}: every choice of another seat is public the moment it is made, so "
                    "no perturbed world looks the same to the search seat; its hidden cards are "
                    "covered by the redeal check of tests/engine/test_observation.py")


@pytest.mark.parametrize("name", game_names())
def test_search_beats_random(name):
    """Against random players the search (24 iterations, random rollouts) wins more than its
    fair share: the lower end of its 95% Wilson interval is above 1/N."""
    spec = get_game(name)
    n = spec.rules_class().n_seats
    results = simulate(name, None, [SEARCH] + ["random"] * (n - 1), 150, seed=7)
    decided = results.records[[f"win_{s}" for s in range(n)]].sum(axis=1) > 0
    low, _ = wilson(results.records["win_0"].sum(), len(results.records))
    assert low > 1 / n * decided.mean(), (name, results.records["win_0"].mean())


def test_search_is_deterministic_across_jobs_and_chunks():
    a = simulate("parthian", {"n_players": 3}, [SEARCH, "random", "random"], 40, seed=2)
    b = simulate("parthian", {"n_players": 3}, [SEARCH, "random", "random"], 40, seed=2,
                 jobs=2, chunk_size=7, backend="threading")
    assert a.records.equals(b.records)


@pytest.mark.parametrize("text", ["ismcts:budget=0", "ismcts:depth=3", "ismcts:rollout=nobody",
                                  "ismcts:c=-1", "ismcts:budget=ten", "ismcts:widen=-1",
                                  "ismcts:alpha=0", "ismcts:alpha=1.5", "ismcts:widen=many",
                                  "ismcts:paired=2"])
def test_bad_search_settings_are_named(text):
    with pytest.raises(StrategyError, match="ismcts"):
        simulate("parthian", None, [text] * 4, 10)


def test_widening_limit_grows_with_the_square_root_of_the_visits():
    """Progressive widening: ceil(W (n + 1)^alpha) actions after n visits, at least one, at most
    the legal ones; W = 0 switches it off (every legal action is tried first)."""
    from sim.core.search import widening_limit
    assert [widening_limit(1.0, 0.5, n, 100) for n in (0, 1, 3, 4, 8, 99, 255)] == \
        [1, 2, 2, 3, 3, 10, 16]
    assert widening_limit(2.0, 0.5, 3, 100) == 4
    assert widening_limit(1.0, 0.5, 10_000, 7) == 7
    assert widening_limit(0.0, 0.5, 0, 7) == 7


def _root_visits(text, budget_seed=0, one_decision=True):
    """Search the first decision of a Goofspiel game (13 cards in hand; with ``one_decision``
    False, every decision of the game, to the last searched one) and return the visits of each
    action at the root of the tree."""
    from sim.core.header import H, last_searched
    from sim.rng import master_key
    from sim.runner import play_kernel
    spec = get_game("goofspiel")
    rules = as_rules(spec, None)
    seats = resolve_seats(spec, [text, "random"], 2)
    ctl = seats.controller(spec, one_decision=one_decision)
    play_kernel(spec, rules.kernel_args(), seats, master_key(budget_seed), 0, 1, ctl=ctl)
    assert last_searched(ctl) >= 0
    return ctl[ctl[H.O_NODES] + 1:ctl[H.O_NODES] + 1 + spec.n_actions].copy()


@pytest.mark.parametrize("widen, alpha, budget, tried", [(1, 0.5, 24, 5), (2, 0.5, 24, 10),
                                                         (1, 0.3, 40, 4), (0, 0.5, 24, 13)])
def test_widening_limits_the_actions_tried_at_a_node(widen, alpha, budget, tried):
    """After `budget` iterations the root (13 legal bids) has tried exactly the widening limit
    of its last visit, ceil(widen * budget^alpha), and every iteration visited it once; without
    widening (widen=0) it tries all 13."""
    visits = _root_visits(f"ismcts:budget={budget},rollout=match,widen={widen},alpha={alpha}")
    assert visits.sum() == budget
    assert np.count_nonzero(visits) == tried


def test_the_last_search_of_a_game_runs_its_whole_budget():
    """A search's rollouts overwrite every seat's parameters; the seats get their own back after
    it (the core's SEATED says the row no longer holds them), so the game's last searched
    decision still reads its own budget."""
    visits = _root_visits("ismcts:budget=24,rollout=match", one_decision=False)
    assert visits.sum() == 24


def test_widening_starts_from_the_rollout_policys_choice():
    """The first action a node tries is the one its rollout policy suggests: with one iteration
    per decision the search plays exactly like its (deterministic) rollout policy."""
    search = simulate("goofspiel", None, ["ismcts:budget=1,rollout=match", "random"], 30, seed=4)
    plain = simulate("goofspiel", None, ["match", "random"], 30, seed=4)
    columns = [c for c in plain.records.columns if c.startswith(("win_", "points_"))] or \
        list(plain.records.columns)
    assert search.records[columns].equals(plain.records[columns])


def test_root_actions_are_compared_on_the_same_worlds():
    """With paired worlds the root picks its action before the world is drawn and draws world k
    for the k-th visit of that action: the UCB choice among tried actions, or world 0 (and a
    new action) while the root is below its widening limit."""
    from sim.core import search
    from sim.core.header import H, new_ctl
    ctl = new_ctl(search_nodes=4, n_actions=5)
    ctl[H.WIDEN], ctl[H.WIDEN_ALPHA], ctl[H.C_UCT] = 1_000_000, 500_000, 0
    search.reset(ctl)
    root = ctl[H.O_NODES]
    n, w, av = root + 1, root + 6, root + 11
    ctl[av:av + 5] = [8, 8, 0, 8, 8]               # actions 0, 1, 3, 4 legal; 8 visits so far
    ctl[n:n + 5] = [3, 5, 0, 0, 0]
    ctl[w:w + 5] = [2_000_000, 2_000_000, 0, 0, 0]  # action 0 wins 2/3, action 1 2/5
    assert search.root_world(ctl) == 0 and ctl[H.ROOT_PICK] == 1   # 2 tried < ceil(9^0.5)
    ctl[n:n + 5] = [3, 4, 0, 1, 0]                  # 3 tried after 8 visits: at the limit
    ctl[w:w + 5] = [2_000_000, 2_000_000, 0, 0, 0]  # 2/3 beats 2/4 and 0/1 (c = 0)
    assert search.root_world(ctl) == 3 and ctl[H.ROOT_PICK] == 2   # action 0, its 4th world


@pytest.mark.parametrize("game", ["sunzi", "parthian", "shuojian", "samurai"])
def test_a_search_with_trained_rollouts_plays_whole_games(game):
    """The trained policy as the search's rollout: every redeal asks it for the other seats'
    hidden choices, with the legal mask cut to the game's actions (Sunzi's and Parthian's
    redeal once handed it the whole buffer, and the policy's features wrote past their rows:
    the process died with a corrupted heap)."""
    spec = get_game(game)
    n = spec.rules_class().n_seats
    result = simulate(game, None, ["ismcts:budget=8,rollout=trained"] + [spec.heuristic] * (n - 1),
                      12, seed=77, rotate_seats=True)
    assert len(result.records) == 12 and result.records["end_reason"].notna().all()
