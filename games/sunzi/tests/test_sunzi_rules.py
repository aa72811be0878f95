"""One scripted situation per rule id SZ-1..SZ-20, and one per open point OP-1..OP-13.

Tiles (see sunzi_script.py): Xinjiang 1-2-4, Tibet 1-3-5, Qinghai 1-4-3, Mongolia 2-3-2,
Mandarin 2-3-4; regions are 0..4 left to right. Unscripted placements are the lowest cards, so
unscripted rounds are ties everywhere. The expected numbers are worked out in the comments.
"""
import pytest

from sim.errors import StrategyError
from sim.runner import play_one, simulate
from games.sunzi import layout as L
from games.sunzi.rules import PUBLISHED_TILES, SunziRules
from .sunzi_script import card, deck, place

PASS = L.PASS
EQUAL_TILES = ((1, 1, 1),) * 5


def hand_of(game, seat):
    (row,) = game.events(L.EV.HAND, 0, seat)
    return {L.CARD_LABELS[c] for c in range(L.N_CARDS) if (row[3] >> c) & 1}


# --- modes ---------------------------------------------------------------------------------

def test_sz1_basic_has_21_armies_and_no_suicide_cards():
    rules = SunziRules()
    assert rules.start_armies() == 21
    assert [L.CARD_LABELS[c] for c in rules.deck_cards()] == ["7", "8", "9", "10", "+1", "-1", "Plague"]
    table = simulate("sunzi", rules, "random", 3000, seed=11).records
    for seat in (0, 1):
        total = (table[f"supply_{seat}"] + table[f"armies_{seat}"] + table[f"markers_{seat}"]
                 + table[f"removed_{seat}"])
        assert (total == 21).all()
        suicide = (1 << (L.CARD.PLUS2 - L.RECORD_CARD_SHIFT)) | (1 << (L.CARD.PLUS3 - L.RECORD_CARD_SHIFT))
        assert (table[f"drawn_{seat}"] & suicide).sum() == 0
        assert (table[f"leader_{seat}"] == -1).all()


def test_sz2_advanced_18_armies_and_buying(play):
    """White discards its 7 for an army before placing in round 1 (OP-11): supply 19."""
    assert SunziRules(mode="advanced").start_armies() == 18
    assert {L.CARD_LABELS[c] for c in SunziRules(mode="advanced").deck_cards()} >= {"+2", "+3"}
    game = play([(L.D.BUY, card(7)), (L.D.BUY, PASS)], mode="advanced")
    assert game.events(L.EV.BUY, 1, 0) == [(L.EV.BUY, 1, 0, card(7), 19, 0, 0, 0)]
    first_place = next(i for i, r in enumerate(game.rows) if r[0] == L.EV.PLACE)
    assert game.rows.index(game.events(L.EV.BUY)[0]) < first_place
    rec = game.record
    assert rec["bought_0"] == 1 and rec["bought_1"] == 0
    assert rec["supply_0"] + rec["armies_0"] + rec["markers_0"] + rec["removed_0"] == 19
    with pytest.raises(StrategyError, match="illegal action 6"):  # the 7 is gone
        play([(L.D.BUY, card(7)), (L.D.BUY, PASS), (L.D.PLACE, card(7))], mode="advanced")


def test_sz3_warlord_leaders_fixed_or_chosen(play):
    game = play(warlord=True, leader_white="c", leader_black="d")
    assert (game.record["leader_0"], game.record["leader_1"]) == (2, 3)
    game = play([(L.D.LEADER, 1)], [(L.D.LEADER, 0)], warlord=True)
    assert (game.record["leader_0"], game.record["leader_1"]) == (1, 0)
    assert [r[3] for r in game.events(L.EV.LEADER)] == [1, 0]
    # once per game, whatever the strategy does
    for i in range(40):
        _, events, _ = play_one("sunzi", {"warlord": True, "mode": "advanced"}, "random", 5, i)
        used = [int(e[2]) for e in events if e[0] == L.EV.POWER]
        assert used.count(0) <= 1 and used.count(1) <= 1
    assert play().record["leader_0"] == -1  # no warlord: no leaders


# --- set-up --------------------------------------------------------------------------------

def test_sz4_five_different_tiles_drawn_at_random():
    seen = set()
    for i in range(20):
        _, events, _ = play_one("sunzi", None, "random", 3, i)
        tiles = [tuple(int(x) for x in e[3:8]) for e in events if e[0] == L.EV.TILE]
        assert [t[0] for t in tiles] == [0, 1, 2, 3, 4]
        assert len({t[4] for t in tiles}) == 5
        assert all(PUBLISHED_TILES[t[4]] == t[1:4] for t in tiles)
        seen.add(tuple(t[4] for t in tiles))
    assert len(seen) > 15


def test_sz5_general_starts_central(play):
    """Round 1: White wins Xinjiang by 2 (7 vs 5). First scoring: Xinjiang's round-3 value 1
    moves the general from the centre to +1."""
    game = play(place("7 1 2 3 4"), place("5 1 2 3 4"))
    assert [r[5] for r in game.events(L.EV.SCORE, 3)] == [1]
    assert game.events(L.EV.SCORE, 3)[0][2:6] == (0, 0, 1, 1)


def test_sz6_hand_is_yellows_and_four_drawn_cards(play):
    game = play(deck_white=deck("+1", "-1", "9", "plague"))
    assert hand_of(game, 0) == {"1", "2", "3", "4", "5", "6", "+1", "-1", "9", "Plague"}
    assert hand_of(game, 1) == {"1", "2", "3", "4", "5", "6", "7", "8", "9", "10"}


# --- a round -------------------------------------------------------------------------------

def test_sz7_one_card_face_down_on_every_region(play):
    game = play()
    for rnd in range(1, 10):
        for seat in (0, 1):
            assert sorted(r[4] for r in game.events(L.EV.PLACE, rnd, seat)) == [0, 1, 2, 3, 4]
    with pytest.raises(StrategyError, match="illegal action 0"):  # the yellow 1 is already down
        play(place("1 1 2 3 4"))


def test_sz8_reveal_order_decided_by_fewer_armies(play):
    """R1: White 6 on Xinjiang (marker + 5 armies, 6 vs 1) against Black's 1 army on each other
    region: 6 vs 4 on the map, so Black decides round 2 (order: Mandarin, Qinghai, then left to
    right). R2: Black wins Qinghai by 1 (+1: 2), White Mongolia by 1 (Black has 1 there: White
    places 1), Black Mandarin by 1 with a 6 (+1 and a marker): 7 vs 7, so Black decides again."""
    white = place("6 1 2 3 4") + place("1 2 3 4 5")
    black = place("1 2 3 4 5") + place("1 2 4 3 6") + [(L.D.ORDER, 4), (L.D.ORDER, 2)]
    game = play(white, black)
    assert game.decider(1) == -1 and game.order(1) == [0, 1, 2, 3, 4]  # round 1: left to right
    assert game.decider(2) == L.BLACK and game.events(L.EV.DECIDER, 2)[0][3:5] == (6, 4)
    assert game.order(2) == [4, 2, 0, 1, 3]
    assert game.decider(3) == L.BLACK and game.events(L.EV.DECIDER, 3)[0][3:5] == (7, 7)


def test_sz8_equal_armies_and_no_earlier_decider_reveal_left_to_right(play):
    game = play(place("2 1 3 4 5"), place("1 2 3 4 5"))
    assert game.events(L.EV.DECIDER, 2)[0][2:5] == (-1, 1, 1)
    assert game.order(2) == [0, 1, 2, 3, 4]


def test_sz9_higher_card_wins_by_the_difference_ties_do_nothing(play):
    game = play(place("7 1 2 3 4"), place("4 1 2 3 5"))
    assert game.battle(1, 0) == (card(7), card(4), 3)
    assert game.split(1, 0) == (L.WHITE, 0, 3, 0)
    assert [game.battle(1, r)[2] for r in (1, 2, 3)] == [0, 0, 0]
    assert game.board(1)[1] == game.board(1)[2] == game.board(1)[3] == (0, 0, 0, 0)
    assert game.split(1, 4) == (L.BLACK, 0, 1, 0)


def test_sz10_winner_splits_between_removing_and_placing(play):
    """R1: Black wins Xinjiang by 5 with a 6 (marker + 5 armies). R2: White wins it by 9 (10 vs
    1) and removes 3 of the 5 armies (markers cannot be removed), placing 6."""
    white = place("1 2 3 4 5") + place("10 1 2 3 4") + [(L.D.SPLIT, 3)]
    game = play(white, place("6 2 3 4 5"))
    assert game.split(1, 0) == (L.BLACK, 0, 5, 0)  # no White armies: all 5 placed, nothing asked
    assert game.split(2, 0) == (L.WHITE, 3, 6, 0)
    assert game.board(2)[0] == (6, 0, 2, 1)


def test_sz12_shortage_moves_armies_from_adjacent_then_other_regions(play):
    """5 armies each. R1: White wins Xinjiang and Tibet by 2 (supply 1 left). R2: White wins
    Qinghai by 6 and places all 6: 1 from supply, 2 from Tibet (adjacent), 2 from Xinjiang (not
    adjacent); 1 cannot be placed."""
    white = place("3 4 1 2 5") + place("1 2 10 3 5") + [(L.D.SPLIT, 0)]
    black = place("1 2 3 4 5") + place("1 2 4 3 5")
    game = play(white, black, armies=5)
    assert game.board(1)[0][0] == game.board(1)[1][0] == 2
    moves = [(r[3], r[4], r[5]) for r in game.events(L.EV.MOVE, 2, 0)]
    assert moves == [(1, 2, L.WHY.PLACE)] * 2 + [(0, 2, L.WHY.PLACE)] * 2
    assert game.split(2, 2) == (L.WHITE, 0, 5, 1)
    assert game.board(2)[2][0] == 5 and game.board(2)[0][0] == game.board(2)[1][0] == 0


def test_sz13_used_whites_leave_draw_two_keep_one_other_to_the_bottom(play):
    """White's deck after the opening hand: +1, -1, Plague. R1 (no 1 played): draws +1, -1,
    keeps -1; +1 goes under the Plague. R2 (the unscripted 1 is played): draws Plague, +1."""
    white = place("7 2 3 4 5") + [(L.D.KEEP, card("-1"))]
    game = play(white)
    draws = [(r[3], r[4]) for r in game.events(L.EV.DRAW, seat=0)]
    bits = lambda *cs: sum(1 << card(c) for c in cs)  # noqa: E731
    assert draws[0] == (bits("+1", "-1"), bits("-1"))
    assert draws[1] == (bits("plague", "+1"), bits("plague", "+1"))  # SZ-14 with 2 left: keep both
    assert game.record["played_0"] & 1 and not game.record["played_1"] & 1  # the 7 was played once
    with pytest.raises(StrategyError, match="illegal action 6"):
        play(white + place("7 1 2 3 4"))


def test_sz14_yellow_one_draws_three_keeps_two(play):
    white = place("1 2 3 4 5") + [(L.D.KEEP, card("plague")), (L.D.KEEP, card("-1"))]
    game = play(white)
    bits = lambda *cs: sum(1 << card(c) for c in cs)  # noqa: E731
    assert game.events(L.EV.DRAW, 1, 0)[0][3:5] == (bits("+1", "-1", "plague"), bits("-1", "plague"))
    assert game.events(L.EV.DRAW, 1, 1)[0][3:5] == (bits("+1", "-1", "plague"), bits("+1", "-1"))


def test_sz15_six_marker_once_per_region_counts_for_control(play):
    """R1: White's 6 on Xinjiang puts a marker; Black's 7 wins by 1 and places 1. 1 marker vs 1
    army: a tie at scoring, nobody scores (without the marker Black would). R2: White's 6 on
    Xinjiang again: no second marker; Black's 8 wins by 2 and places 2 (White has no army there,
    and the marker cannot be removed), so Black scores Xinjiang 3 to 1."""
    white = place("6 1 2 3 4") + place("6 1 2 3 4")
    black = place("7 1 2 3 4") + place("8 1 2 3 4")
    game = play(white, black)
    assert game.events(L.EV.MARKER, 1) == [(L.EV.MARKER, 1, 0, 0, 6, 0, 0, 0)]
    assert game.events(L.EV.MARKER, 2) == []
    assert game.board(1)[0] == (0, 1, 1, 0)
    assert game.board(2)[0] == (0, 1, 3, 0)  # 8 vs 6: Black +2
    assert [r for r in game.events(L.EV.SCORE, 3) if r[3] == 0] == [(L.EV.SCORE, 3, 1, 0, 1, -1, 0, 0)]
    tied = play(place("6 1 2 3 4"), place("7 1 2 3 4"))
    assert tied.board(3)[0] == (0, 1, 1, 0) and tied.events(L.EV.SCORE, 3) == []


# --- leaders -------------------------------------------------------------------------------

def test_sz16a_sun_wu_outpost_marker_at_start(play):
    game = play([(L.D.TARGET, 3)], warlord=True, leader_white="a")
    assert game.events(L.EV.MARKER, 0) == [(L.EV.MARKER, 0, 0, 3, 0, 0, 0, 0)]
    assert game.board(1)[3] == (0, 1, 0, 0) and game.record["leader_round_0"] == 0
    assert game.events(L.EV.SCORE, 3) == [(L.EV.SCORE, 3, 0, 3, 2, 2, 0, 0)]


def test_sz16b_sun_wu_extra_army_in_round_6(play):
    game = play([(L.D.TARGET, 2)], warlord=True, leader_white="b")
    assert game.events(L.EV.POWER) == [(L.EV.POWER, 6, 0, L.POWER.B, 2, -1, 0, 0)]
    assert game.board(5)[2] == (0, 0, 0, 0) and game.board(6)[2] == (1, 0, 0, 0)
    assert game.record["supply_0"] == 20 and game.record["leader_round_0"] == 6


def test_sz16c_sun_wu_plays_a_seven_as_a_six(play):
    white = [(L.D.PLACE, card(7)), (L.D.POWER, 1)] + place("1 2 3 4")
    game = play(white, place("5 1 2 3 4"), warlord=True, leader_white="c")
    assert game.battle(1, 0) == (card(6), card(5), 1)
    assert game.events(L.EV.MARKER, 1) == [(L.EV.MARKER, 1, 0, 0, 6, 0, 0, 0)]  # OP-10 full
    assert game.board(1)[0] == (1, 1, 0, 0)
    value_only = play(white, place("5 1 2 3 4"), warlord=True, leader_white="c", as_six="value")
    assert value_only.battle(1, 0)[2] == 1 and value_only.events(L.EV.MARKER, 1) == []
    declined = play([(L.D.PLACE, card(7)), (L.D.POWER, 0)], place("5 1 2 3 4"), warlord=True,
                    leader_white="c")
    assert declined.battle(1, 0)[2] == 2


def test_sz16d_sun_wu_moves_an_army_in_round_6(play):
    white = place("7 1 2 3 4") + [(L.D.TARGET, 0), (L.D.TARGET, 1)]
    game = play(white, place("5 1 2 3 4"), warlord=True, leader_white="d")
    assert game.board(5)[0][0] == 2
    assert game.board(6)[0][0] == 1 and game.board(6)[1][0] == 1
    assert game.events(L.EV.POWER) == [(L.EV.POWER, 6, 0, L.POWER.D, 0, 1, 0, 0)]


def test_sz17a_chu_is_immune_to_the_plague(play):
    """R1: Black wins Xinjiang by 2. R2: White's Plague would remove 1 of the 2."""
    white = place("5 1 2 3 4") + place("plague 1 2 3 4")
    options = dict(warlord=True, leader_black="a", deck_white=deck("plague"))
    shielded = play(white, place("7 1 2 3 4") + [(L.D.POWER, 1)], **options)
    assert shielded.events(L.EV.PLAGUE, 2)[0][3:6] == (0, 0, 0)
    assert shielded.board(2)[0] == (0, 0, 2, 0) and shielded.events(L.EV.SHIELD, 2)
    plain = play(white, place("7 1 2 3 4") + [(L.D.POWER, 0)], **options)
    assert plain.events(L.EV.PLAGUE, 2)[0][3:6] == (0, 0, 1)


def test_sz17b_chu_plague_wipes_down_to_one(play):
    """R1: White wins Xinjiang by 5 (10 vs 5). R2: Chu's Plague: 5 -> 1 (halving: 5 -> 2)."""
    white = place("10 1 2 3 4") + place("5 1 2 3 4")
    black = place("5 1 2 3 4") + place("plague 1 2 3 4") + [(L.D.POWER, 1)]
    options = dict(warlord=True, leader_black="b", deck_black=deck("plague"))
    game = play(white, black, **options)
    assert game.events(L.EV.PLAGUE, 2)[0][3:7] == (0, 4, 0, 1)
    halved = play(white, black[:-1] + [(L.D.POWER, 0)], **options)
    assert halved.events(L.EV.PLAGUE, 2)[0][3:7] == (0, 3, 0, 0)


def test_sz17c_chu_uses_the_six_power_twice_in_one_region(play):
    both = place("6 1 2 3 4") + place("6 1 2 3 4")
    game = play(both, both + [(L.D.POWER, 1)], warlord=True, leader_black="c")
    assert [(r[1], r[2], r[4]) for r in game.events(L.EV.MARKER)] == [(1, 0, 6), (1, 1, 6), (2, 1, 2)]
    assert game.board(2)[0] == (0, 1, 0, 2) and game.record["leader_round_1"] == 2


def test_sz17d_chu_removes_one_army_in_round_6(play):
    game = play(place("7 1 2 3 4"), place("5 1 2 3 4") + [(L.D.TARGET, 0)], warlord=True,
                leader_black="d")
    assert game.board(5)[0][0] == 2 and game.board(6)[0][0] == 1
    assert game.record["removed_0"] == 1


# --- scoring and end -----------------------------------------------------------------------

def test_sz18_scoring_region_by_region_tug_of_war(play):
    """R1: White wins Xinjiang by 6, Black wins the other four by 1. Round-3 values 1,1,1,2,2:
    +1, then -1, -1, -2, -2: the general goes +1, 0, -1, -3, -5."""
    game = play(place("7 1 2 3 4"), place("1 2 3 4 5"))
    assert [(r[2], r[3], r[4], r[5]) for r in game.events(L.EV.SCORE, 3)] == [
        (0, 0, 1, 1), (1, 1, 1, 0), (1, 2, 1, -1), (1, 3, 2, -3), (1, 4, 2, -5)]


def test_sz19_red_zone_wins_at_once(play):
    """As SZ-18 with a track of 3 steps: -3 after Mongolia ends the game before Mandarin."""
    game = play(place("7 1 2 3 4"), place("1 2 3 4 5"), track_length=3)
    assert [r[5] for r in game.events(L.EV.SCORE, 3)] == [1, 0, -1, -3]
    rec = game.record
    assert (rec["rounds"], rec["end_reason"], rec["general"], game.winners) == (3, "red_zone", -3, [1])


def test_sz20_after_round_9_the_generals_side_wins(play):
    """Xinjiang (White +2 in round 1) scores 1, 2 and 4: the general ends at +7."""
    game = play(place("7 1 2 3 4"), place("5 1 2 3 4"))
    rec = game.record
    assert (rec["rounds"], rec["end_reason"], rec["general"], game.winners) == (9, "general", 7, [0])


def test_sz20_central_general_more_supply_wins(play):
    """Every tile 1-1-1. R1: White wins Xinjiang by 3, Black Tibet by 1, both 6s on Mandarin
    (a marker each): every scoring is +1 - 1. Supplies 17 and 19: Black wins."""
    game = play(place("4 1 5 3 6"), place("1 2 5 3 6"), tiles=EQUAL_TILES)
    rec = game.record
    assert (rec["general"], rec["supply_0"], rec["supply_1"]) == (0, 17, 19)
    assert (rec["end_reason"], game.winners) == ("supply", [1])


def test_sz20_op12_full_tie_is_a_draw_or_nobody(play):
    game = play()
    assert (game.record["end_reason"], game.record["win_0"], game.record["win_1"]) == ("draw", 0.5, 0.5)
    nobody = play(full_tie="nobody")
    assert (nobody.record["end_reason"], nobody.winners) == ("draw", [])


# --- open points ---------------------------------------------------------------------------

def test_op1_regions_and_adjacency_are_data(play):
    assert SunziRules().adjacency_masks() == [0b10, 0b101, 0b1010, 0b10100, 0b1000]
    ring = SunziRules(adjacency=((0, 1), (1, 2), (2, 3), (3, 4), (4, 0)))
    assert ring.adjacency_masks()[0] == 0b10010
    named = SunziRules(adjacency=(("Xinjiang", "Mandarin"),))
    assert named.adjacency_masks() == [0b10000, 0, 0, 0, 0b1]
    # SZ-12 with Xinjiang adjacent to Qinghai: its armies now move first
    white = place("3 4 1 2 5") + place("1 2 10 3 5") + [(L.D.SPLIT, 0), (L.D.SOURCE, 1)]
    game = play(white, place("1 2 3 4 5") + place("1 2 4 3 5"), armies=5,
                adjacency=((0, 2), (1, 2), (2, 3), (3, 4)))
    assert [r[3] for r in game.events(L.EV.MOVE, 2, 0)] == [1, 0, 0, 1]  # both adjacent: a choice
    three = play(regions=("North", "Centre", "South"), tile_order=(0, 1, 2))
    assert len(three.board(1)) == 3 and three.record["rounds"] == 9


def test_op2_tile_set_is_data():
    rules = SunziRules(tiles=((2, 3, 5),) * 9)
    _, events, _ = play_one("sunzi", rules, "random", 1)
    assert {tuple(int(x) for x in e[4:7]) for e in events if e[0] == L.EV.TILE} == {(2, 3, 5)}
    assert SunziRules.from_options({"tiles": "1-1-1,2-2-2,3-3-3,4-4-4,5-5-5"}).tile_set()[4] == (5, 5, 5)


def test_op3_track_length_default_9():
    assert SunziRules().track_length == 9
    table = simulate("sunzi", None, "random", 2000, seed=2).records
    red = table[table.end_reason == "red_zone"]
    assert len(red) and (red.general.abs() == 9).all() and (table.general.abs() <= 9).all()


@pytest.mark.parametrize("rounding, lost", [("seed", 1), ("ruling", 0)])
def test_op4_plague_rounding(play, rounding, lost):
    """One Black army on Xinjiang meets White's Plague: round-half-up(1/2) = 1 is removed; the
    designer's ruling (halve, round down, never below 1) leaves it."""
    white = place("5 1 2 3 4") + place("plague 1 2 3 4")
    game = play(white, place("6 1 2 3 4"), deck_white=deck("plague"), plague_rounding=rounding)
    assert game.board(1)[0] == (0, 0, 1, 1)
    assert game.events(L.EV.PLAGUE, 2)[0][5] == lost


def test_op5_fewer_armies_counted_in_supply(play):
    """The SZ-8 game's round 1 leaves White 6 on the map (15 in supply), Black 4 (17)."""
    game = play(place("6 1 2 3 4"), place("1 2 3 4 5"), fewer_armies="supply")
    assert game.decider(2) == L.WHITE and game.events(L.EV.DECIDER, 2)[0][3:5] == (15, 17)


def test_op6_remove_first_ruling(play):
    """The SZ-10 game with the designer's ruling: 5 of the margin 9 remove Black's 5 armies."""
    game = play(place("1 2 3 4 5") + place("10 1 2 3 4"), place("6 2 3 4 5"), split="remove_first")
    assert game.split(2, 0) == (L.WHITE, 5, 4, 0) and game.board(2)[0] == (4, 0, 0, 1)


@pytest.mark.parametrize("cost_from, armies", [("supply_first", 5), ("region_first", 3)])
def test_op7_where_a_suicide_attack_costs_come_from(play, cost_from, armies):
    """R1: White wins Xinjiang by 2. R2: White's +3 wins there by 3 and costs 2 armies: from
    supply (Xinjiang ends with 2 + 3 = 5), or from the 2 already in Xinjiang (0 + 3 = 3)."""
    white = place("7 1 2 3 4") + place("+3 1 2 3 4")
    game = play(white, place("5 1 2 3 4"), mode="advanced", cost_from=cost_from,
                deck_white=deck("7", "+3", mode="advanced"))
    assert game.board(2)[0] == (armies, 0, 0, 0)
    assert game.events(L.EV.COST, 2) == [(L.EV.COST, 2, 0, 2, 0, 0, 0, 0)]


def test_op8_tied_region_scores_for_nobody_or_for_more_markers(play):
    options = dict(white=place("6 1 2 3 4"), black=place("7 1 2 3 4"))
    assert play(**options).events(L.EV.SCORE, 3) == []
    game = play(**options, tied_region="markers")
    assert game.events(L.EV.SCORE, 3) == [(L.EV.SCORE, 3, 0, 0, 1, 1, 0, 0)]


def test_op9_leader_card_held_or_in_the_deck(play):
    """With leader_card="deck" the leader card is shuffled in: Sun Wu's outpost (at game start)
    needs it in the opening hand; once drawn later its power is available."""
    warlord_deck = ("7", "8", "9", "10", "+1", "-1", "Plague", "leader")
    game = play([(L.D.TARGET, 3)], warlord=True, leader_white="a", leader_card="deck",
                deck_white=warlord_deck)
    assert game.events(L.EV.MARKER, 0) == [] and game.record["leader_round_0"] == -1
    early = play([(L.D.TARGET, 3)], warlord=True, leader_white="a", leader_card="deck",
                 deck_white=("leader",) + warlord_deck[:-1])
    assert early.events(L.EV.MARKER, 0) == [(L.EV.MARKER, 0, 0, 3, 0, 0, 0, 0)]
    assert "leader" in hand_of(early, 0)
    drawn = play([(L.D.KEEP, L.CARD.LEADER), (L.D.TARGET, 2)], warlord=True, leader_white="b",
                 leader_card="deck", deck_white=("7", "8", "9", "10", "leader", "+1", "-1", "Plague"))
    assert drawn.events(L.EV.POWER) == [(L.EV.POWER, 6, 0, L.POWER.B, 2, -1, 0, 0)]


def test_op9_round6_powers_after_battles_or_at_round_start(play):
    """Chu d on Xinjiang, where White has 2 armies and wins 2 more in round 6."""
    white = place("7 1 2 3 4") + place("1 2 3 4 5") * 4 + place("8 1 2 3 4")
    black = place("5 1 2 3 4") + place("1 2 3 4 5") * 4
    after = play(white, black + place("6 1 2 3 4") + [(L.D.TARGET, 0)], warlord=True, leader_black="d")
    start = play(white, black + [(L.D.TARGET, 0)] + place("6 1 2 3 4"), warlord=True,
                 leader_black="d", round6_powers="round_start")
    power = lambda g: [r for r in g.rows if r[0] in (L.EV.POWER, L.EV.BATTLE) and r[1] == 6]  # noqa: E731
    assert power(after)[-1][0] == L.EV.POWER and power(start)[0][0] == L.EV.POWER
    assert after.board(6)[0] == start.board(6)[0] == (3, 0, 0, 1)


def test_op10_chu_plague_wipes_only_the_opponent(play):
    """R1: White 2 on Xinjiang; R2: Black 5 there (10 vs 5, nothing removed). R3: Chu's Plague
    wipes both sides down to one, or only White (his own 5 are halved to 2: OP-4 removes 3)."""
    white = place("7 1 2 3 4") + place("5 1 2 3 4") + place("6 1 2 3 4")
    black = (place("5 1 2 3 4") + place("10 1 2 3 4") + [(L.D.SPLIT, 0)] + place("plague 1 2 3 4")
             + [(L.D.POWER, 1)])
    for wipe, expected in (("all", (1, 1)), ("opponent", (1, 2))):
        game = play(white, black, warlord=True, leader_black="b", chu_plague=wipe,
                    deck_black=deck("10", "plague"))
        assert game.board(2)[0][0::2] == (2, 5)
        after = game.board(3)[0]
        assert (after[0], after[2]) == expected


def test_op11_buying_after_the_battles(play):
    game = play([(L.D.BUY, card(7)), (L.D.BUY, PASS)], mode="advanced", buy_timing="after_battles")
    buy = game.rows.index(game.events(L.EV.BUY)[0])
    assert buy > max(game.rows.index(r) for r in game.events(L.EV.REVEAL, 1))


def test_op13_order_chosen_before_placement(play):
    game = play(place("6 1 2 3 4"), place("1 2 3 4 5") + [(L.D.ORDER, 4)], order_timing="before_placement")
    order = game.rows.index(game.events(L.EV.ORDER, 2)[0])
    assert order < game.rows.index(game.events(L.EV.PLACE, 2)[0]) and game.order(2)[0] == 4


def test_removed_armies_may_return_to_supply(play):
    """SZ-10 game: the 3 removed Black armies leave the game, or go back to Black's supply."""
    white = place("1 2 3 4 5") + place("10 1 2 3 4") + [(L.D.SPLIT, 3)]
    left = play(white, place("6 2 3 4 5")).record
    back = play(white, place("6 2 3 4 5"), removed_armies="supply").record
    assert back["removed_1"] == left["removed_1"] - 3 and back["supply_1"] == left["supply_1"] + 3


def test_net_scoring_moves_the_general_once(play):
    game = play(place("7 1 2 3 4"), place("1 2 3 4 5"), track_length=3, scoring_steps="net")
    assert len(game.events(L.EV.SCORE, 3)) == 5 and game.record["general"] == -3
