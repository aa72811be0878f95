"""Invariants over many random games, for many variants (rule ids: games/goofspiel/RULES.md)."""
import numpy as np
import pytest

from games.goofspiel import layout as L
from sim.runner import play_one, simulate

VARIANTS = [
    {"num_cards": 13},
    {"num_cards": 1},
    {"num_cards": 2, "points_order": "ascending"},
    {"num_cards": 6, "players": 3},
    {"num_cards": 8, "players": 5, "points_order": "descending"},
    {"num_cards": 7, "num_turns": 4},
    {"num_cards": 9, "imp_info": True},
    {"num_cards": 30, "players": 8},
]
SEATS = ["random", "match", "greedy"]


# A hang must fail (issue 21): under 1 s a case warm, 33 s for the one that compiles cold.
@pytest.mark.timeout(180)
@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_record_invariants(options):
    """GS-4/6/7: every turn's prize is taken or discarded; the turns are played out; the
    winners are exactly the seats with the most points and share the win equally."""
    n = options.get("players", 2)
    cards = options["num_cards"]
    turns = options.get("num_turns", cards)
    seats = [SEATS[p % 3] for p in range(n)]
    r = simulate("goofspiel", options, seats, 3000, seed=11).records
    points = r[[f"points_{p}" for p in range(n)]].to_numpy()
    prizes = r[[f"prizes_{p}" for p in range(n)]].to_numpy()
    wins = r[[f"win_{p}" for p in range(n)]].to_numpy()
    assert (r["turns"] == turns).all()
    assert (prizes.sum(axis=1) + r["tied_turns"] == turns).all()
    if turns == cards:
        assert (points.sum(axis=1) + r["points_discarded"] == cards * (cards + 1) // 2).all()
    top = points == points.max(axis=1, keepdims=True)
    assert np.allclose(wins, top / top.sum(axis=1, keepdims=True))
    k = top.sum(axis=1)
    expected_end = np.where(k == 1, "won", np.where(k == n, "draw", "shared"))
    assert (r["end_reason"].astype(str).to_numpy() == expected_end).all()
    assert ((points == 0) == (prizes == 0)).all()


@pytest.mark.timeout(180)
@pytest.mark.parametrize("options", VARIANTS[:7], ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_event_invariants(options):
    """GS-1/3/4/5: each seat bids distinct cards (all N in a full game); bids come before the
    reveals; each turn's taker is the unique highest bid."""
    n = options.get("players", 2)
    cards = options["num_cards"]
    for g in range(40):
        _, events, _ = play_one("goofspiel", options, [SEATS[(p + g) % 3] for p in range(n)],
                                seed=3, game_index=g)
        bids: dict[int, list] = {}
        for event, turn, seat, a, b, c in events:
            if event == L.EV.BID:
                bids.setdefault(turn, []).append(a)
            if event == L.EV.TURN:
                values = bids[turn]
                top = max(values)
                assert seat == (values.index(top) if values.count(top) == 1 else -1)
        for p in range(n):
            played = [bids[t][p] for t in sorted(bids)]
            assert len(set(played)) == len(played) and all(1 <= v <= cards for v in played)
        reveals = [e for e in events if e[0] == L.EV.REVEAL]
        assert len(reveals) == (0 if options.get("imp_info") else n * len(bids))
