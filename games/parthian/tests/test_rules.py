"""Parthian Shot rules, one scripted situation per rule id (shared/rules/parthian_shot.md).

Rounds are written as card values per seat (1-6 shots, "C" a charge). Legion strength BIG can
never be defeated and 0 always is, so the situation under test is the only interesting round.
Most games end with FILLER: everyone plays the same card on a BIG legion, so everyone is hit
each round until someone cannot pay (PS-9, PS-12). Expected values are worked out from the rules
in the comments, not copied from the kernel.
"""
import csv
from importlib import resources

import numpy as np
import pytest

from sim.errors import StrategyError
from games.parthian import kernel as K
from games.parthian import layout as L
from games.parthian.rules import ParthianRules
from sim.runner import kernel_state, play_one

BIG = 99


def filler(card, n):
    """Three rounds of everyone playing ``card`` on BIG legions: enough to rout someone."""
    return [(card,) * n] * 3


def pl_for(*seats):
    """Player table for winners(): seats as (merits, charges in hand, best merit, routed)."""
    pl = np.zeros((len(seats), L.N_FIELDS), np.int64)
    for p, (merits, charges, best, routed) in enumerate(seats):
        pl[p, L.P.MERITS], pl[p, L.P.CHARGES], pl[p, L.P.BEST_MERIT], pl[p, L.P.ROUTED] = merits, charges, best, routed
    return pl


def rules_arr(**options):
    return ParthianRules(**options).kernel_args()[0]


def mask(*seats):
    return sum(1 << p for p in seats)


# --- Set-up ---------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_ps1_each_player_starts_with_shots_1_to_6_and_two_charge_cards(table, play, n):
    t = table(n, (5,) * 7)
    for p in range(n):
        assert t.hand(p) == {1, 2, 3, 4, 5, 6}
        assert t.pl[p, L.P.FRONT] == 0 and t.pl[p, L.P.FRONT_SUM] == 0
        assert t.pl[p, L.P.CHARGES] == 2
    # Everyone always ties for the highest card on a legion nobody can beat: two charge cards pay
    # for two hits, the third hit routs every player at once.
    g = play((BIG,) * 7, [(6,) * n] * 3)
    assert [g.damaged(r) for r in (1, 2, 3)] == [dict.fromkeys(range(n), 1),
                                                dict.fromkeys(range(n), 0),
                                                dict.fromkeys(range(n), -1)]
    assert g.record["rounds"] == 3 and g.record["end_reason"] == "defeat_no_survivor"
    assert g.seats("wounds") == [2] * n and g.seats("routed") == [1] * n


def test_ps2_default_legions_per_player_count_are_the_cards_marked_for_it():
    text = resources.files("games.parthian").joinpath("data/legions_default.csv").read_text()
    rows = list(csv.DictReader(text.splitlines()))
    assert len(rows) == 19  # Components: 19 legion cards
    for n in (3, 4, 5, 6):
        marked = sorted(int(r["strength"]) for r in rows if r[f"p{n}"] == "1")
        assert len(marked) == 7
        assert sorted(ParthianRules(n_players=n).strengths()) == marked


@pytest.mark.parametrize("n", [3, 6])
def test_ps2_all_seven_strengths_are_public_from_the_start(n):
    g = kernel_state("parthian", {"n_players": n})
    K.start_info(g)
    assert list(g.info[L.I.LEGIONS:]) == sorted(ParthianRules(n_players=n).strengths(), reverse=True)


def test_ps2_legion_deck_is_shuffled_from_the_cards_of_this_count():
    strengths = set(ParthianRules(n_players=4).strengths())
    tops = []
    for seed in range(40):
        _, events, _ = play_one("parthian", {"n_players": 4}, "random", seed=seed)
        revealed = [int(e[3]) for e in events if e[0] == L.EV.LEGION]
        assert set(revealed) <= strengths
        tops.append(revealed[0])
    # 40 shuffles: each of the 7 cards is on top 1/7 of the time; fewer than 4 distinct tops
    # has probability < 1e-12.
    assert len(set(tops)) >= 4


# --- Round ----------------------------------------------------------------------------------

def test_ps3_each_round_reveals_the_top_legion_then_every_player_plays_one_card(play):
    order = (10, BIG, BIG, BIG, BIG, BIG, BIG)
    rounds = [(6, 3, 2, 1)] + filler(4, 4)
    g = play(order, rounds)
    assert g.record["rounds"] == 4
    for r in range(1, 5):
        in_round = [row for row in g.rows if row[1] == r]
        assert in_round[0][0] == L.EV.LEGION
        plays = [row for row in in_round if row[0] == L.EV.PLAY]
        assert [(row[2], row[3]) for row in plays] == [(p, c - 1) for p, c in enumerate(rounds[r - 1])]
    assert g.legions() == [10, BIG, BIG, BIG]


def test_ps4_charge_needs_shots_in_front_over_9_and_its_power_is_their_sum(play):
    # R1, R2 on legion 0: P0 plays 4 then 6 (front 10 > 9). R3: P0 charges with power 10,
    # total 10+3+3 = 16 > 15: a lone charger is the unique highest and takes the merit.
    order = (0, 0, 15, BIG, BIG, BIG, BIG)
    g = play(order, [(4, 1, 1), (6, 2, 2), ("C", 3, 3)] + filler(4, 3))
    assert g.events(L.EV.PLAY, 3, 0) == [(L.EV.PLAY, 3, 0, L.CHARGE, 10, 0)]
    assert g.events(L.EV.DEFEATED, 3) == [(L.EV.DEFEATED, 3, -1, 16, 15, 0)]
    assert g.seats("charges_played") == [1, 0, 0]


def test_ps4_charge_with_shots_in_front_summing_to_9_is_illegal(play):
    with pytest.raises(StrategyError, match="seat 0 returned illegal action 6"):
        play((0,) * 7, [(4, 1, 1), (5, 2, 2), ("C", 3, 3)] + filler(4, 3))


def test_ps4_legal_charge_depends_on_front_sum_and_charges_left(table):
    t = table(3, (0,) * 7)
    for front_sum, charges, allowed in [(9, 2, False), (10, 2, True), (10, 0, False), (21, 1, True)]:
        t.pl[0, L.P.FRONT_SUM], t.pl[0, L.P.CHARGES] = front_sum, charges
        assert t.legal(0)[L.CHARGE] == allowed, (front_sum, charges)
    t = table(3, (0,) * 7, charge_threshold=5)
    t.pl[0, L.P.FRONT_SUM] = 6
    assert t.legal(0)[L.CHARGE]


def test_ps5_legion_is_defeated_only_when_the_total_exceeds_its_strength(play):
    # R1: 4+3+2 = 9 is not > 9: breakthrough, P0 (highest) is hit and takes back the 4.
    # R2: 5+1+3 = 9 > 8: defeated, merit to P0.
    order = (9, 8, BIG, BIG, BIG, BIG, BIG)
    g = play(order, [(4, 3, 2), (5, 1, 3)] + filler(6, 3))
    assert g.events(L.EV.BREAKTHROUGH, 1) == [(L.EV.BREAKTHROUGH, 1, -1, 9, 9, 0)]
    assert g.events(L.EV.DEFEATED, 2) == [(L.EV.DEFEATED, 2, -1, 9, 8, 0)]


def test_ps5_played_shooting_cards_stay_in_front(play, table):
    # P1 played 3 in round 1 and took no damage, so 3 is not in P1's hand in round 2.
    with pytest.raises(StrategyError, match="seat 1 returned illegal action 2"):
        play((9, 8, BIG, BIG, BIG, BIG, BIG), [(4, 3, 2), (5, 3, 1)] + filler(6, 3))
    t = table(3, (0,) * 7)
    t.play((4, 1, 6))
    t.play((2, 5, 1))
    assert [t.hand(p) for p in range(3)] == [{1, 3, 5, 6}, {2, 3, 4, 6}, {2, 3, 4, 5}]
    assert list(t.pl[:, L.P.FRONT_SUM]) == [6, 6, 7]


# --- Legion defeated ------------------------------------------------------------------------

def test_ps6_defeated_legion_is_a_merit_of_the_highest_card(play):
    # R1: 6+4+3 = 13 > 12, P0 highest. R2: 5+2+4 = 11 > 10, P0 highest again.
    # Best merit is the strongest legion won (12), not the latest (10).
    order = (12, 10, BIG, BIG, BIG, BIG, BIG)
    g = play(order, [(6, 4, 3), (5, 2, 4)] + filler(1, 3))
    assert g.merit_to(1) == 0 and g.merit_to(2) == 0
    assert g.seats("merits") == [2, 0, 0] and g.seats("best_merit") == [12, 0, 0]
    assert g.record["legions_defeated"] == 2 and g.record["merits_unclaimed"] == 0
    assert g.legions() == [12, 10, BIG, BIG, BIG]  # defeated legions never come back


def test_ps7_tied_highest_passes_merit_to_second_highest(play):
    g = play((0,) + (BIG,) * 6, [(5, 5, 2)] + filler(1, 3))
    assert g.merit_to(1) == 2
    assert g.seats("merits") == [0, 0, 1]


@pytest.mark.parametrize("cards, winner", [
    ((6, 6, 3, 2), 2),           # highest tied: second-highest (unique) gets it
    ((6, 6, 5, 5, 4), 4),        # highest and second tied: third-highest
    ((6, 6, 5, 5, 4, 4), -1),    # third tied too: nobody
    ((6, 6, 5, 5), -1),          # no third value at all: nobody
    ((4, 4, 4), -1),             # everyone the same: nobody
    ((3, 5, 5, 5, 2, 2), 0),     # a tie of three counts as one value
])
def test_ps7_quarrels_pass_the_merit_down_at_most_to_the_third_value(play, cards, winner):
    n = len(cards)
    g = play((0,) + (BIG,) * 6, [cards] + filler(1, n))
    assert g.merit_to(1) == winner
    assert g.seats("merits") == [int(p == winner) for p in range(n)]
    # Either way the legion leaves the deck (it is not shuffled back).
    assert g.record["legions_defeated"] == 1
    assert g.record["merits_unclaimed"] == int(winner == -1)
    assert g.legions().count(0) == 1


def test_ps8_two_chargers_quarrel_whatever_their_powers(play):
    # R1, R2 on legion 0 build fronts: P0 6+4 = 10, P1 6+5 = 11 (R2 merit to P1, the unique 5).
    # R3: P0 and P1 charge with different powers 10 and 11, yet both quarrel; among the others
    # 4 beats 3,3, so P4 gets the legion.
    order = (0, 0, 0, BIG, BIG, BIG, BIG)
    g = play(order, [(6, 6, 1, 1, 1), (4, 5, 2, 2, 2), ("C", "C", 3, 3, 4)] + filler(6, 5))
    assert [r[4] for r in g.events(L.EV.PLAY, 3)][:2] == [10, 11]
    assert g.merit_to(3) == 4
    assert g.seats("merits") == [0, 1, 0, 0, 1]


def test_ps8_chargers_are_the_top_tied_group_of_the_third_value_rule():
    charge, depth = L.CHARGE, 3
    cases = [  # values, actions, expected winner
        ([10, 11, 3, 3, 2, 2], [charge, charge, 2, 2, 1, 1], -1),  # chargers, 3s, 2s all tied
        ([10, 11, 3, 3, 2, 1], [charge, charge, 2, 2, 1, 0], 4),   # third value unique
        ([12, 5, 5], [charge, 4, 4], 0),                             # a lone charger just wins
    ]
    for values, actions, expected in cases:
        n_chargers = actions.count(charge)
        got = K.merit_winner(np.array(values), np.array(actions), n_chargers, depth)
        assert got == expected, values


# --- Legion breaks through ------------------------------------------------------------------

def test_ps9_highest_cards_take_damage_and_take_back_their_shots(play):
    # P0 and P1 tie on 6 every round: R1 and R2 cost them a charge card each and return their
    # shots (so 6 is playable again); R3 they cannot pay. P2 is never hit.
    g = play((BIG,) * 7, [(6, 6, 1), (6, 6, 2), (6, 6, 3)])
    assert g.damaged(1) == {0: 1, 1: 1} and g.resupplied(1) == {0: 9, 1: 9}
    assert g.damaged(2) == {0: 0, 1: 0}
    assert g.damaged(3) == {0: -1, 1: -1}
    assert g.seats("wounds") == [2, 2, 0] and g.seats("routed") == [1, 1, 0]
    assert g.record["end_reason"] == "defeat" and g.winners == [2]


def test_ps10_a_charger_on_a_breakthrough_spares_everyone(play):
    # R1, R2: P0 builds 6+4 = 10 (merits on legion 0). R3: P0 charges, 10+6+3 = 19 <= 99.
    # P1's 6 is the highest shot, but the charger died for everyone: no damage.
    order = (0, 0, BIG, BIG, BIG, BIG, BIG)
    g = play(order, [(6, 1, 2), (4, 2, 1), ("C", 6, 3)] + filler(5, 3))
    assert g.events(L.EV.BREAKTHROUGH, 3) == [(L.EV.BREAKTHROUGH, 3, -1, 19, BIG, 1)]
    assert g.damaged(3) == {}
    assert g.resupplied(3) == {0: 13}
    # Filler: R4 hits all three (P0 had 1 charge left -> 0, P1/P2 -> 1); R5 routs P0 while
    # P1 and P2 pay their last charge card.
    assert g.seats("wounds") == [1, 2, 2] and g.seats("routed") == [1, 0, 0]


def test_ps11_broken_through_legion_goes_to_the_bottom_and_the_last_one_stays(play):
    # R1: 1+1+1 <= 12, everyone tied and hit. The 12 goes under the six 0s (R2-R7, all tied:
    # no merit; R6 is everyone's 5th shot: camels). R8: the 12 is the last card, 6+2+2 <= 12,
    # P0 is hit and it stays in play. R9: 6+6+3 = 15 > 12, P0/P1 quarrel, merit to P2.
    order = (12, 0, 0, 0, 0, 0, 0)
    rounds = [(1, 1, 1), (1, 1, 1), (2, 2, 2), (3, 3, 3), (4, 4, 4), (5, 5, 5), (1, 1, 1),
              (6, 2, 2), (6, 6, 3)]
    g = play(order, rounds)
    assert g.legions() == [12, 0, 0, 0, 0, 0, 0, 12, 12]
    assert [r[4] for r in g.events(L.EV.LEGION)] == [7, 7, 6, 5, 4, 3, 2, 1, 1]
    assert g.damaged(8) == {0: 0} and g.merit_to(9) == 2
    rec = g.record
    assert (rec["rounds"], rec["end_reason"], rec["legions_defeated"], rec["breakthroughs"],
            rec["merits_unclaimed"]) == (9, "victory", 7, 2, 6)
    assert g.seats("wounds") == [2, 1, 1]
    assert g.seats("score") == [0, 1, 2] and g.winners == [2]


def test_ps12_a_hit_player_without_charge_cards_routs_everyone_at_once(play):
    # P0 plays the highest card three times; the third hit cannot be paid. Round 4 is scripted
    # with cards P1/P2 no longer hold: had the game gone on, it would be an illegal move.
    g = play((BIG,) * 7, [(6, 1, 2), (6, 2, 1), (6, 3, 3), (6, 1, 1)])
    assert g.damaged(3) == {0: -1}
    assert g.resupplied(3) == {}
    assert g.record["rounds"] == 3 and g.record["end_reason"] == "defeat"
    assert g.legions() == [BIG] * 3
    assert g.seats("routed") == [1, 0, 0] and g.record["win_0"] == 0


# --- After resolution -----------------------------------------------------------------------

def test_ps13_a_charger_takes_back_all_shooting_cards_but_not_the_charge(play):
    # R1-R2: P0 6+5 = 11 in front. R3 on legion 0: P0 charges (power 11), merit to P0.
    # R4: P0 plays 6 again, which needs the resupply. Filler: P0 has 1 charge card left, so
    # R4 costs it and R5 routs P0.
    order = (0, 0, 0, BIG, BIG, BIG, BIG)
    g = play(order, [(6, 1, 2), (5, 2, 1), ("C", 3, 3)] + filler(6, 3))
    assert g.resupplied(3) == {0: 13}
    assert g.merit_to(3) == 0
    assert g.seats("charges_played") == [1, 0, 0]
    assert g.damaged(4) == {0: 0, 1: 1, 2: 1}
    assert g.damaged(5) == {0: -1, 1: 0, 2: 0}


def test_ps14_camels_return_the_shots_after_the_fifth_shooting_card(play):
    # Legions of 2 always fall. R1-R4 everyone plays the same card (no merit, no resupply yet).
    # R5: P0, P1 play their 5th shot (camels); P2 charges instead (power 1+2+3+4 = 10,
    # merit, PS-13). R6-R7: shots 1 and 5 again, only possible after the returns.
    rounds = [(1, 1, 1), (2, 2, 2), (3, 3, 3), (4, 4, 4), (5, 5, "C"), (1, 1, 1), (5, 5, 5)]
    g = play((2,) * 7, rounds)
    assert all(g.resupplied(r) == {} for r in (1, 2, 3, 4, 6, 7))
    assert g.resupplied(5) == {0: 14, 1: 14, 2: 13}
    assert g.merit_to(5) == 2
    # PS-15: scores 0+2, 0+2, 1+1 all tie at 2; P2 holds a legion, the others none.
    assert g.record["end_reason"] == "victory" and g.seats("score") == [2, 2, 2]
    assert g.winners == [2]


# --- End and scoring ------------------------------------------------------------------------

def test_ps15_victory_highest_score_wins_tie_broken_by_strongest_legion(play):
    # R1 legion 2 -> P0 (6); R2 legion 1 -> P1 (6); R3-R7 everyone ties (R5 camels).
    # Scores: P0 1 merit + 2 charges = 3 (best 2), P1 1 + 2 = 3 (best 1), P2 0 + 2 = 2.
    order = (2, 1, 0, 0, 0, 0, 0)
    rounds = [(6, 1, 1), (1, 6, 2), (3, 3, 3), (4, 4, 4), (5, 5, 5), (1, 1, 1), (2, 2, 2)]
    g = play(order, rounds)
    assert g.record["end_reason"] == "victory"
    assert g.seats("score") == [3, 3, 2] and g.seats("best_merit") == [2, 1, 0]
    assert g.winners == [0] and g.record["win_0"] == 1.0


def test_ps15_score_counts_merits_and_charge_cards_in_hand():
    rules = rules_arr(n_players=3)
    # Charge cards in hand count: 2 merits + 2 charges = 4 beats 3 merits + 0 charges = 3.
    pl = pl_for((3, 0, 15, 0), (2, 2, 10, 0), (1, 1, 12, 0))
    assert K.winners(rules, pl, L.END.VICTORY) == mask(1)
    pl = pl_for((3, 1, 15, 0), (2, 2, 10, 0), (1, 1, 12, 0))  # 4 vs 4: strongest legion 15
    assert K.winners(rules, pl, L.END.VICTORY) == mask(0)


def test_ps16_defeat_lowest_score_escapes_the_routed_cannot_win(play):
    # R1 legion 10: 2+3+6 = 11 -> P2. R2 legion 11: 5+6+1 = 12 -> P1. R3-R5: P0 plays the
    # highest card on BIG legions: hit, hit, routed. P0 scores 0 (lowest) but is routed.
    # P1 and P2 both score 1 merit + 2 charges = 3; P1 holds the stronger legion (11 > 10) and
    # is beheaded first, so P2 escapes.
    order = (10, 11, BIG, BIG, BIG, BIG, BIG)
    g = play(order, [(2, 3, 6), (5, 6, 1), (6, 1, 2), (6, 2, 3), (6, 4, 4)])
    assert g.record["end_reason"] == "defeat" and g.record["rounds"] == 5
    assert g.seats("score") == [0, 3, 3] and g.seats("best_merit") == [0, 11, 10]
    assert g.seats("routed") == [1, 0, 0]
    assert g.winners == [2]


def test_ps16_defeat_scoring_rules_directly():
    rules = rules_arr(n_players=4)
    # Lowest score among the survivors wins; the routed seat 0 has the lowest score of all.
    pl = pl_for((0, 0, 0, 1), (2, 1, 13, 0), (1, 1, 12, 0), (1, 2, 10, 0))
    assert K.winners(rules, pl, L.END.DEFEAT) == mask(2)
    # Tie on score 2: the highest legion is beheaded first; seat 3 (best 10) escapes.
    pl = pl_for((0, 0, 0, 1), (1, 1, 13, 0), (1, 1, 12, 0), (1, 1, 10, 0))
    assert K.winners(rules, pl, L.END.DEFEAT) == mask(3)
    # Everyone routed: nobody can win.
    pl = pl_for((0, 0, 0, 1), (1, 0, 13, 1), (0, 0, 0, 1), (0, 0, 0, 1))
    assert K.winners(rules, pl, L.END.NO_SURVIVOR) == 0


def test_ps16_everyone_routed_at_once_is_a_defeat_without_winner(play):
    g = play((BIG,) * 7, [(2, 2, 2)] * 3)
    assert g.record["end_reason"] == "defeat_no_survivor"
    assert [g.record[f"win_{p}"] for p in range(3)] == [0, 0, 0]


# --- Open points ----------------------------------------------------------------------------

def test_op1_legion_table_from_a_csv_and_explicit_legions(tmp_path):
    path = tmp_path / "legions.csv"
    lines = ["strength,p3,p4,p5,p6"] + [f"{s},1,1,1,1" for s in (3, 4, 5, 6, 7, 8, 40)]
    path.write_text("\n".join(lines) + "\n")
    for n in (3, 4, 5, 6):
        assert sorted(ParthianRules(n_players=n, legion_table=str(path)).strengths()) == [3, 4, 5, 6, 7, 8, 40]
    _, events, _ = play_one("parthian", {"n_players": 3, "legion_table": str(path)}, "random", seed=3)
    assert {int(e[3]) for e in events if e[0] == L.EV.LEGION} <= {3, 4, 5, 6, 7, 8, 40}
    # Explicit strengths override the table; the offset shifts every strength.
    rules = ParthianRules(n_players=3, legion_table=str(path), legions=(1, 2, 3, 4, 5, 6, 7))
    assert rules.strengths() == (1, 2, 3, 4, 5, 6, 7)
    assert ParthianRules(n_players=3, legions=(1, 2, 3, 4, 5, 6, 7), legion_offset=2).strengths() == (3, 4, 5, 6, 7, 8, 9)
    # Default table: the shipped set (checked against the CSV in the PS-2 test).
    assert ParthianRules(n_players=3).legion_table is None


@pytest.mark.parametrize("merit_ties", ["third", "any"])
def test_op2_merit_ties_setting_in_games_up_to_six_players(play, merit_ties):
    # With at most 6 players a fourth distinct value can only follow three tied pairs, which
    # already uses all six seats: both settings must give the same merits.
    g = play((0,) + (BIG,) * 6, [(6, 6, 5, 5, 4, 4)] + filler(1, 6), merit_ties=merit_ties)
    assert g.merit_to(1) == -1
    g = play((0,) + (BIG,) * 6, [(6, 6, 5, 5, 4, 3)] + filler(1, 6), merit_ties=merit_ties)
    assert g.merit_to(1) == 4


@pytest.mark.parametrize("merit_ties, expected", [("third", -1), ("any", 6)])
def test_op2_fourth_value_only_with_merit_ties_any(merit_ties, expected):
    depth = rules_arr(n_players=6, merit_ties=merit_ties)[L.R.MERIT_DEPTH]
    values = np.array([6, 6, 5, 5, 4, 4, 3])  # 7 values: three tied pairs, then a unique 3
    assert K.merit_winner(values, values - 1, 0, depth) == expected
    # Two chargers are the first tied group: 2 + two pairs leave the unique 2 fourth.
    values = np.array([10, 11, 6, 6, 5, 5, 2])
    actions = np.array([L.CHARGE, L.CHARGE, 5, 5, 4, 4, 1])
    assert K.merit_winner(values, actions, 2, depth) == expected


@pytest.mark.parametrize("spares_all", [True, False])
def test_op3_charger_on_a_breakthrough(play, spares_all):
    # As in the PS-10 test: R3 P0 charges (10), P1 plays 6, P2 3, total 19 <= 99.
    order = (0, 0, BIG, BIG, BIG, BIG, BIG)
    g = play(order, [(6, 1, 2), (4, 2, 1), ("C", 6, 3)] + filler(5, 3), charger_spares_all=spares_all)
    if spares_all:
        assert g.damaged(3) == {}
        # R4 hits everyone (P0 -> 0, P1, P2 -> 1), R5 routs P0; P1, P2 tie on 0 + 0.
        assert g.seats("routed") == [1, 0, 0] and g.winners == [1, 2]
    else:
        # Only the charger is spared: P1's 6 is the highest shot and pays.
        assert g.damaged(3) == {1: 1} and g.resupplied(3) == {0: 13, 1: 9}
        # R4: P0 -> 0, P1 -> 0, P2 -> 1; R5 routs P0 and P1; P2 alone escapes.
        assert g.seats("routed") == [1, 1, 0] and g.winners == [2]
    assert g.events(L.EV.BREAKTHROUGH, 3)[0][5] == int(spares_all)


@pytest.mark.parametrize("final_ties", ["share", "nobody"])
def test_op4_unbroken_ties_share_the_win_or_nobody_wins(play, final_ties):
    # Victory: every round everyone plays the same card, so nobody ever gets a merit and all
    # score 2 with no legion: a complete tie.
    rounds = [(1, 1, 1), (2, 2, 2), (3, 3, 3), (4, 4, 4), (5, 5, 5), (1, 1, 1), (2, 2, 2)]
    g = play((0,) * 7, rounds, final_ties=final_ties)
    assert g.record["end_reason"] == "victory" and g.seats("score") == [2, 2, 2]
    share = 1 / 3 if final_ties == "share" else 0.0
    assert [g.record[f"win_{p}"] for p in range(3)] == pytest.approx([share] * 3)
    # Defeat: P0 routed; P1 and P2 tie on score and best merit.
    g = play((BIG,) * 7, [(6, 1, 2), (6, 2, 1), (6, 3, 3)], final_ties=final_ties)
    share = 0.5 if final_ties == "share" else 0.0
    assert [g.record[f"win_{p}"] for p in range(3)] == pytest.approx([0.0, share, share])


def test_op5_damage_and_camel_in_the_same_round_return_the_shots_once(play):
    # R1-R4 on legion 0: all play 1..4 (ties, no merit). R5 on BIG: everyone plays a 5th shot;
    # P0's 6 is the highest, so P0 is hit (damage return) and would also get camels.
    # R6: P0 plays 1 (back in hand); P1 and P2 tie on 6 and are hit.
    order = (0, 0, 0, 0, BIG, BIG, BIG)
    rounds = [(1, 1, 1), (2, 2, 2), (3, 3, 3), (4, 4, 4), (6, 5, 5), (1, 6, 6)] + filler(6, 3)
    g = play(order, rounds)
    assert g.resupplied(5) == {0: 9, 1: 14, 2: 14}
    assert len(g.events(L.EV.RESUPPLY, 5, 0)) == 1
    assert g.damaged(5) == {0: 1} and g.damaged(6) == {1: 1, 2: 1}


def test_op5_order_of_the_returns_does_not_matter(table):
    t = table(3, (0, 0, 0, 0, BIG, BIG, BIG))
    for c in (1, 2, 3, 4):
        t.play((c, c, c))
    before = t.pl.copy()
    t.play((6, 5, 5))
    # Camels first, then damage, done by hand on P0's row: the same state as the kernel's.
    row = before[0].copy()
    row[L.P.HAND], row[L.P.FRONT], row[L.P.FRONT_SUM] = 0b111111, 0, 0          # camels
    row[L.P.CHARGES], row[L.P.WOUNDS] = row[L.P.CHARGES] - 1, row[L.P.WOUNDS] + 1  # damage (return again)
    assert list(t.pl[0]) == list(row)
    # A second return after the kernel's changes nothing either.
    again = t.pl.copy()
    K.return_shots(again, 0)
    assert (again == t.pl).all()
