"""Leduc poker rules, one scripted situation per rule id (games/leduc/RULES.md), and invariants
over many random games. Expected payoffs are worked out from the rules in the comments, not
read from the kernel."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.errors import RulesError, StrategyError
from games.leduc import layout as L
from sim.runner import play_one, simulate
from sim.strategy import script

F, C, R = L.FOLD, L.CALL, L.RAISE


def play(deal, first, second, **options):
    """Seat 0 plays the actions ``first``, seat 1 ``second``; returns (record, event rows)."""
    seats = [script([(0, a) for a in first]), script([(0, a) for a in second])]
    record, events, _ = play_one("leduc", {"deal": deal, **options}, seats)
    return record, [tuple(int(x) for x in e) for e in events]


def payoffs(record):
    return record["payoff_0"], record["payoff_1"]


def test_lp1_lp5_three_different_cards_each_deal_about_equally_often():
    records = simulate("leduc", None, "aggressive", 6000, seed=1).records  # always a round 2
    cards = records[["card_0", "card_1", "public"]].to_numpy()
    assert (cards[:, 0] != cards[:, 1]).all() and (cards[:, 2] != cards[:, 0]).all() \
        and (cards[:, 2] != cards[:, 1]).all()
    assert set(cards.ravel()) == set(range(L.N_CARDS))
    deals = records.groupby(["card_0", "card_1"]).size()
    assert len(deals) == 30 and deals.min() > 6000 / 30 * 0.7   # 30 private deals, uniform
    assert np.bincount(cards[:, 2], minlength=6).min() > 6000 / 6 * 0.85


def test_lp1_a_private_card_is_seen_only_by_its_holder_and_the_public_card_by_both():
    _, events = play("Qs,Kh,Jh", [C, C], [C, C])
    deals = [(e[2], e[3]) for e in events if e[0] == L.EV.DEAL]
    assert deals == [(0, 2), (1, 5)]
    assert L.EVENT_VISIBILITY[L.EV.DEAL] == L.OWNER
    flops = [e for e in events if e[0] == L.EV.FLOP]
    assert [e[3] for e in flops] == [1] and L.EVENT_VISIBILITY[L.EV.FLOP] == L.PUBLIC


def test_lp2_lp7_check_check_twice_is_a_showdown_for_the_antes():
    record, _ = play("Ks,Jh,Qs", [C, C], [C, C], ante=3)   # King high beats Jack high
    assert record["end_reason"] == "showdown" and record["pot"] == 6
    assert payoffs(record) == (3, -3) and record["actions"] == 4


def test_lp6_a_fold_loses_only_what_the_folder_put_in_and_shows_nothing():
    record, events = play("Ks,Jh,Qs", [R], [F])   # the Jack folds to a raise of 2
    assert record["end_reason"] == "fold" and record["win_0"] == 1 and record["public"] == -1
    assert payoffs(record) == (1, -1) and record["pot"] == 4
    assert not [e for e in events if e[0] in (L.EV.SHOW, L.EV.FLOP)]
    # check, raise, fold in round 2: seat 0 put in 1 + 2 (the called round-1 raise), seat 1 wins it
    record, _ = play("Ks,Jh,Qs", [C, C, C, F], [R, R])
    assert record["end_reason"] == "fold" and payoffs(record) == (-3, 3) and record["pot"] == 10


def test_lp3_lp4_raises_are_two_then_four_and_capped_at_two_a_round():
    # check-raise-reraise-call in both rounds: 1 + 2 + 2 = 5 each, then + 4 + 4 = 13 each
    record, events = play("Ks,Jh,Qs", [C, R, C, R, C], [R, C, R, C])
    chips = [(e[1], e[2], e[4]) for e in events if e[0] == L.EV.ACT]
    assert chips == [(1, 0, 1), (1, 1, 3), (1, 0, 5), (1, 1, 5),
                     (2, 0, 5), (2, 1, 9), (2, 0, 13), (2, 1, 13)]
    assert record["pot"] == 26 and payoffs(record) == (13, -13) and record["actions"] == 8
    with pytest.raises(StrategyError):   # a third raise in a round is not legal
        play("Ks,Jh,Qs", [R, R], [R])


def test_lp3_the_raise_cap_and_sizes_are_options():
    record, _ = play("Ks,Jh,Qs", [R, R, C], [R, C, C], max_raises=3, small_raise=1, big_raise=5)
    assert payoffs(record) == (4, -4)   # ante 1 + three raises of 1; round 2 checked through


def test_lp7_a_pair_with_the_public_card_beats_a_higher_card():
    record, _ = play("Jh,Ks,Js", [C, C], [C, C])
    assert record["end_reason"] == "showdown" and payoffs(record) == (1, -1)
    record, _ = play("Ks,Jh,Js", [C, C], [C, C])
    assert payoffs(record) == (-1, 1)


def test_lp7_equal_ranks_split_the_pot():
    record, events = play("Qs,Qh,Ks", [R, C], [C, C])   # 3 each in, Queen against Queen
    assert record["end_reason"] == "split" and payoffs(record) == (0, 0)
    assert record["win_0"] == record["win_1"] == 0.5 and record["pot"] == 6
    assert events[-1][0] == L.EV.END and events[-1][4] == 0b11


def test_the_betting_is_the_same_in_round_two_seat_zero_first():
    _, events = play("Ks,Jh,Qs", [C, R], [C, C])
    assert [(e[1], e[2], e[3]) for e in events if e[0] == L.EV.ACT] == [
        (1, 0, C), (1, 1, C), (2, 0, R), (2, 1, C)]


@settings(max_examples=40, deadline=None)
@given(ante=st.integers(1, 10), small=st.integers(1, 20), big=st.integers(1, 20),
       cap=st.integers(1, L.MAX_RAISES_LIMIT), seed=st.integers(0, 2**32),
       lineup=st.lists(st.sampled_from(["random", "raiser", "cautious", "aggressive"]),
                       min_size=2, max_size=2))
def test_chips_are_conserved_and_games_are_short_in_any_variant(ante, small, big, cap, seed,
                                                                lineup):
    """LP-6/LP-7: what one seat wins the other loses; a seat risks at most its ante and every
    raise; a game has at most 2 * (cap + 2) actions; the winner is the seat paid."""
    records = simulate("leduc", {"ante": ante, "small_raise": small, "big_raise": big,
                                 "max_raises": cap}, lineup, 300, seed=seed).records
    p0, p1 = records["payoff_0"], records["payoff_1"]
    assert (p0 + p1 == 0).all()
    assert (p0.abs() <= ante + cap * (small + big)).all() and (p0.abs() >= 0).all()
    assert records["actions"].between(2, 2 * (cap + 2)).all()
    assert ((p0 > 0) == (records["win_0"] == 1)).all()
    assert ((p0 == 0) == (records["end_reason"] == "split")).all()
    assert (records["pot"] >= 2 * ante).all()
    folded_early = records["public"] == -1
    assert (records.loc[folded_early, "end_reason"] == "fold").all()


@pytest.mark.parametrize("options", [{"ante": 0}, {"small_raise": 21}, {"max_raises": 5},
                                     {"deal": "Ks,Ks,Qh"}, {"deal": "As,Ks,Qh"},
                                     {"deal": "Ks,Qh"}, {"ante": 1.5}])
def test_bad_options_are_refused_with_their_name(options):
    with pytest.raises(RulesError, match=next(iter(options))):
        simulate("leduc", options, "random", 10)
