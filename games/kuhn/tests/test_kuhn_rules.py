"""Kuhn poker rules, one scripted situation per rule id (games/kuhn/RULES.md). Expected payoffs
are worked out from the rules in the comments, not read from the kernel."""
import numpy as np
import pytest

from sim.errors import RulesError
from games.kuhn import layout as L
from sim.runner import play_one, simulate
from sim.strategy import script

P, B = L.PASS, L.BET


def play(deal, first, second, **options):
    """Seat 0 plays the actions ``first``, seat 1 ``second``; returns (record, event rows)."""
    seats = [script([(0, a) for a in first]), script([(0, a) for a in second])]
    record, events, _ = play_one("kuhn", {"deal": deal, **options}, seats)
    return record, [tuple(int(x) for x in e) for e in events]


def test_kp1_each_seat_gets_one_of_the_three_cards_and_never_the_same():
    records = simulate("kuhn", None, "random", 3000, seed=1).records
    assert (records["card_0"] != records["card_1"]).all()
    assert set(records["card_0"]) == set(records["card_1"]) == {0, 1, 2}
    pairs = records.groupby(["card_0", "card_1"]).size()
    assert len(pairs) == 6 and pairs.min() > 3000 / 6 * 0.8   # six deals, about equally often


def test_kp1_a_card_is_seen_only_by_its_holder():
    _, events = play("Q,K", [P], [P])
    deals = [e for e in events if e[0] == L.EV.DEAL]
    assert [(e[2], e[3]) for e in deals] == [(0, 1), (1, 2)]
    assert all(L.EVENT_VISIBILITY[L.EV.DEAL] == L.OWNER for _ in deals)


@pytest.mark.parametrize("ante, bet", [(1, 1), (2, 3)])
def test_kp2_kp5_check_check_is_a_showdown_for_the_antes(ante, bet):
    record, _ = play("K,J", [P], [P], ante=ante, bet=bet)
    # both check: the King beats the Jack and wins the other seat's ante
    assert record["end_reason"] == "showdown" and record["pot"] == 2 * ante
    assert (record["payoff_0"], record["payoff_1"]) == (ante, -ante)


def test_kp3_kp5_a_called_bet_doubles_the_stake():
    record, _ = play("J,Q", [B], [B])  # seat 0 bets the Jack, seat 1 calls with the Queen
    assert record["end_reason"] == "showdown" and record["pot"] == 4
    assert (record["payoff_0"], record["payoff_1"]) == (-2, 2)


def test_kp4_a_pass_facing_a_bet_folds_and_loses_only_what_it_put_in():
    record, events = play("K,J", [B], [P])  # the Jack folds to the King's bet
    assert record["end_reason"] == "fold" and record["win_0"] == 1
    assert (record["payoff_0"], record["payoff_1"]) == (1, -1)
    assert not [e for e in events if e[0] == L.EV.SHOW]  # no showdown after a fold


def test_kp4_after_check_bet_the_first_seat_acts_once_more():
    record, _ = play("Q,J", [P, B], [B])  # check, a bluff, the Queen calls: showdown of 2 each
    assert record["actions"] == 3 and (record["payoff_0"], record["payoff_1"]) == (2, -2)
    record, _ = play("Q,K", [P, P], [B])  # check, bet, fold: seat 0 loses its ante
    assert record["actions"] == 3 and (record["payoff_0"], record["payoff_1"]) == (-1, 1)


def test_kp5_every_game_is_zero_sum_and_has_one_winner():
    records = simulate("kuhn", None, ["random", "nash"], 5000, seed=2).records
    assert (records["payoff_0"] + records["payoff_1"] == 0).all()
    assert (records["win_0"] + records["win_1"] == 1).all()
    assert ((records["payoff_0"] > 0) == (records["win_0"] == 1)).all()
    assert records["actions"].between(2, 3).all()
    assert set(np.abs(records["payoff_0"])) == {1, 2}


@pytest.mark.parametrize("options", [{"ante": 0}, {"bet": 11}, {"deal": "K,K"},
                                     {"deal": "A,K"}, {"ante": 1.5}])
def test_bad_options_are_refused_with_their_name(options):
    with pytest.raises(RulesError, match=next(iter(options))):
        simulate("kuhn", options, "random", 10)
