"""One scripted situation per rule id (GS-1..GS-9, games/goofspiel/RULES.md), outcome known by hand."""
import numpy as np
import pytest

from games.goofspiel import layout as L
from games.goofspiel.rules import GoofspielRules, returns
from sim.runner import play_one, simulate


def test_gs1_every_hand_and_the_prize_deck_hold_1_to_n(play):
    """GS-1: each player bids every card 1..N exactly once; the prizes are 1..N."""
    game = play([3, 1, 4, 2], [[1, 2, 3, 4], [4, 3, 2, 1]])
    bids = {p: sorted(r[3] for r in game.events(L.EV.REVEAL, seat=p)) for p in range(2)}
    assert bids == {0: [1, 2, 3, 4], 1: [1, 2, 3, 4]}
    assert [r[3] for r in game.events(L.EV.PRIZE)] == [3, 1, 4, 2]


@pytest.mark.parametrize("order, expected", [("descending", [5, 4, 3, 2, 1]),
                                             ("ascending", [1, 2, 3, 4, 5])])
def test_gs2_fixed_prize_orders(order, expected):
    """GS-2: points_order descending / ascending deals the prizes in that order."""
    _, events, _ = play_one("goofspiel", {"num_cards": 5, "points_order": order}, "random", seed=4)
    assert [int(e[3]) for e in events if e[0] == L.EV.PRIZE] == expected


def test_gs2_random_order_is_a_shuffle_from_the_chance_stream():
    """GS-2: points_order random deals a permutation of 1..N that differs between games."""
    orders = set()
    for g in range(20):
        _, events, _ = play_one("goofspiel", {"num_cards": 6}, "random", seed=9, game_index=g)
        prizes = [int(e[3]) for e in events if e[0] == L.EV.PRIZE]
        assert sorted(prizes) == [1, 2, 3, 4, 5, 6]
        orders.add(tuple(prizes))
    assert len(orders) > 15


def test_gs2_the_deal_does_not_depend_on_the_strategies():
    """GS-2: the prize deck comes from the chance stream only (common random numbers)."""
    deals = []
    for seats in (["random", "random"], ["match", "greedy"]):
        _, events, _ = play_one("goofspiel", {"num_cards": 8}, seats, seed=5, game_index=3)
        deals.append([int(e[3]) for e in events if e[0] == L.EV.PRIZE])
    assert deals[0] == deals[1]


def test_gs3_bids_are_private_until_every_bid_is_in(play):
    """GS-3: a bid is logged as the bidder's own event when made; the reveals come after every
    seat has bid, and no seat is asked after any reveal of that turn."""
    game = play([2, 1, 3], [[3, 1, 2], [1, 3, 2]])
    assert L.EVENT_VISIBILITY[L.EV.BID] == 1 and L.EVENT_VISIBILITY[L.EV.REVEAL] == 0
    for turn in (1, 2, 3):
        rows = [r[0] for r in game.rows if r[1] == turn]
        last_bid = max(i for i, e in enumerate(rows) if e == L.EV.BID)
        first_reveal = min(i for i, e in enumerate(rows) if e == L.EV.REVEAL)
        assert rows[0] == L.EV.PRIZE and last_bid < first_reveal


def test_gs4_the_higher_bid_takes_the_prize(play):
    """GS-4: turn 1 prize 3, bids 1 vs 3: P1 takes 3; turn 2 prize 1, bids 2 vs 1: P0 takes 1."""
    game = play([3, 1, 2], [[1, 2, 3], [3, 1, 2]])
    assert game.taker(1) == 1 and game.taker(2) == 0
    assert game.events(L.EV.TURN, 1)[0][3:5] == (3, 3)


def test_gs4_a_tie_for_the_highest_bid_discards_the_prize(play):
    """GS-4 (OpenSpiel's rule): equal bids, nobody gets the prize; it is not carried over."""
    game = play([3, 1, 2], [[3, 1, 2], [3, 2, 1]])
    assert game.taker(1) == -1
    assert game.record["tied_turns"] == 1 and game.record["points_discarded"] == 3
    assert game.seats("points") == [2, 1]  # turn 2: 2 > 1 takes prize 1; turn 3: 2 > 1 takes 2
    assert game.taker(2) == 1 and game.taker(3) == 0


def test_gs4_with_three_players_a_tie_at_the_top_discards_even_over_a_lower_bid(play):
    """GS-4: bids 3, 3, 1: the two highest tie; the lone lower bid does not take it."""
    game = play([3, 2, 1], [[3, 1, 2], [3, 2, 1], [1, 3, 2]])
    assert game.taker(1) == -1
    assert game.taker(2) == 2  # bids 1, 2, 3 for prize 2
    assert game.taker(3) == -1  # bids 2, 1, 2: the top tie discards prize 1


def test_gs5_a_bid_card_leaves_the_hand(play):
    """GS-5: after the first turn the bid card is no longer legal (kernel state)."""
    from games.goofspiel.strategies import script

    with pytest.raises(Exception, match="illegal action 2"):
        play_one("goofspiel", {"num_cards": 4, "prize_order": (1, 2, 3, 4)},
                 [script([3, 3, 1, 2]), script([1, 2, 3, 4])])


def test_gs6_the_last_card_is_played_without_a_decision(play):
    """GS-6: a full game asks N - 1 bids per seat; the script never reaches the last turn."""
    game = play([1, 2, 3], [[1, 2], [2, 1]])
    assert game.record["turns"] == 3
    assert [r[3] for r in game.events(L.EV.REVEAL, 3)] == [3, 3]


def test_gs6_num_turns_stops_early():
    """GS-6: num_turns=3 plays three of the five prize cards."""
    record, events, _ = play_one("goofspiel", {"num_cards": 5, "num_turns": 3}, "random", seed=2)
    assert record["turns"] == 3
    assert sum(1 for e in events if e[0] == L.EV.PRIZE) == 3


def game_wins(game) -> list[float]:
    return game.seats("win")


def test_gs7_most_points_wins_and_equal_points_draw(play):
    """GS-7: prizes 2, 3, 1 split 3 vs 3 (a draw: both share); prizes 1, 2, 3 give 2 vs 4."""
    draw = play([2, 3, 1], [[1, 3], [2, 1]])  # P1 takes 2, P0 takes 3, last 2 vs 3: P1 takes 1
    assert draw.seats("points") == [3, 3]
    assert draw.record["end_reason"] == "draw" and game_wins(draw) == [0.5, 0.5]
    won = play([1, 2, 3], [[1, 3], [2, 1]])  # P1 takes 1, P0 takes 2, last 2 vs 3: P1 takes 3
    assert won.seats("points") == [2, 4] and won.seats("prizes") == [1, 2]
    assert won.record["end_reason"] == "won" and game_wins(won) == [0, 1]


def test_gs7_seats_tied_at_the_top_share_the_win(play):
    """GS-7: three players end 4, 4, 0: P0 and P1 share the win (end reason 'shared').

    Prize 4: bids 1, 3, 2 -> P1; prize 3: 2, 1, 1 -> P0; prize 2: 3, 4, 4 -> tie, discarded;
    prize 1: 4, 2, 3 -> P0."""
    game = play([4, 3, 2, 1], [[1, 2, 3, 4], [3, 1, 4, 2], [2, 1, 4, 3]])
    assert game.seats("points") == [4, 4, 0]
    assert game.record["end_reason"] == "shared" and game_wins(game) == [0.5, 0.5, 0]
    assert game.record["points_discarded"] == 2


@pytest.mark.parametrize("kind, expected", [
    ("win_loss", [[1, -1, 0], [0.5, 0.5, -1], [0, 0, 0]]),
    ("point_difference", [[4, -2, -2], [1, 1, -2], [0, 0, 0]]),
    ("total_points", [[6, 0, 0], [3, 3, 0], [2, 2, 2]]),
])
def test_gs8_returns_match_openspiel_definitions(kind, expected):
    """GS-8: win_loss gives 1/k to the k winners and -1/m to the m others (0 when all tie);
    point_difference is points minus the mean; total_points the points."""
    points = np.array([[6, 0, 0], [3, 3, 0], [2, 2, 2]])
    got = returns(points, kind)
    if kind == "win_loss":  # three players: one winner -> the two losers get -1/2 each
        expected = [[1, -0.5, -0.5], [0.5, 0.5, -1], [0, 0, 0]]
    assert np.allclose(got, expected)


def test_gs9_imp_info_hides_the_bids(play):
    """GS-9: under imp_info no bid is revealed; only each turn's taker is public, and a seat
    sees the other seat's hand as unknown."""
    game = play([2, 1, 3], [[3, 1], [1, 3]], imp_info=True)
    assert not game.events(L.EV.REVEAL)
    assert [game.taker(t) for t in (1, 2, 3)] == [0, 1, -1]
    assert len(game.events(L.EV.BID)) == 6  # private to each bidder


def test_gs9_imp_info_observation_masks_other_hands():
    """GS-9: the array handed to a strategy shows its own hand and UNKNOWN for the others."""
    from games.goofspiel import kernel as K
    from sim.runner import kernel_state

    for imp_info, others in ((True, L.UNKNOWN), (False, 0b0111)):
        g = kernel_state("goofspiel", GoofspielRules(num_cards=4, imp_info=imp_info))
        pl = g.rec[0]["pl"]  # the players' rows: the record's first n rows (layout.STATE_DTYPE)
        pl[:2, L.P.HAND] = [0b1011, 0b0111]
        pl[:2, L.P.LAST_BID] = [3, 4]
        seen = K.observe(g, 0, 0).players
        assert list(seen[:, L.P.HAND]) == [0b1011, others]
        assert list(seen[:, L.P.LAST_BID]) == ([3, 0] if imp_info else [3, 4])


def test_defaults_are_openspiels():
    """The option defaults are OpenSpiel's goofspiel defaults (GS-1, GS-2, GS-8, GS-9)."""
    assert GoofspielRules().openspiel_params() == {
        "num_cards": 13, "players": 2, "points_order": "random", "returns_type": "win_loss",
        "imp_info": False, "num_turns": -1}


def test_records_hold_the_points_and_prizes_of_every_seat():
    results = simulate("goofspiel", {"num_cards": 5, "players": 3}, "random", 50, seed=1)
    assert {"points_0", "prizes_2", "tied_turns", "points_discarded"} <= set(results.records.columns)
