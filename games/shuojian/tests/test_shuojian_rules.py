"""A scripted duel per rule id SJ-1..SJ-14 and per open point (shared/rules/shuo_jian.md).

Unless a test says otherwise: every card has the condition "any", seat 0 attacks first, the
swordsmen are V9 (seat 0) and H4 (seat 1), both on their owner's right square (diagonal).
"""
import pytest
from .sj_script import L, duel

from sim.errors import StrategyError
from sim.runner import simulate

# Many-game tests carry a time limit, so that a hang fails (issue 21): about 4x the warm duration
# plus up to 5 minutes for a cold kernel compile on a loaded machine (60-75 s measured at load
# 2-3; about 3 minutes reported under heavy load).
# method="thread": a hang inside a Numba loop never returns to the interpreter, so the default
# signal method could not stop it.

# Seat 0 leads V98; seat 1 holds only straight cards below 9, so it cannot reply (SJ-5):
# straight needs > 98 (99 = two 9s), and it has no sweep card to answer <= 98.
LEAD_98 = ("V9", "V8", "SL", "V1", "V2", "V3", "V4")
NO_REPLY = ("V1", "V2", "V3", "V4", "V5", "V6", "V7")
A98 = ("attack", "V98")


@pytest.mark.timeout(300, method="thread")  # 3,000 games ~0.05 s warm
def test_sj1_swordsmen_are_number_cards_on_their_owners_right_square():
    """SJ-1 / OP-5 / OP-6: a swordsman each, face down on its owner's right; diagonal."""
    d = duel(hands=(LEAD_98, NO_REPLY), draws=("V5", "V7"), steps=((A98,), ()))
    assert [r[3] for r in d.events(L.EV.PLACE)] == [1, 1]
    assert (d.record["swordsman_0"], d.record["swordsman_1"]) == (9, 4)
    assert [r[2] for r in d.events(L.EV.SWORDSMAN)] == [0, 1]   # each seen by its owner only
    assert L.EVENT_VISIBILITY[L.EV.SWORDSMAN] == L.OWNER
    table = simulate("shuojian", None, "random", 3000, seed=11).records
    for s in (0, 1):  # OP-6: drawn at random from the number cards (0..9)
        assert set(table[f"swordsman_{s}"].unique()) == set(range(10))


def test_sj2_an_opening_hand_with_fewer_than_two_number_cards_is_redrawn():
    """SJ-2 / OP-16: 6 finishing-blow cards and one number: shuffled back and redrawn."""
    d = duel(hands=(("SL", "SL", "SL", "DL", "DR", "TH", "V1"), NO_REPLY))
    (redraw,) = d.events(L.EV.REDRAW)
    assert redraw[2] == 0 and redraw[3] == 1
    numbers = d.record["opening_v_0"], d.record["opening_h_0"], d.record["opening_x_0"] & 1
    assert sum(bin(int(m)).count("1") for m in numbers) >= 1  # at least one number type...
    deal = [r for r in d.rows if r[0] == L.EV.DRAW and r[2] == 0 and r[4] == L.WHY.DEAL]
    assert len(deal) == 14  # ...out of 7 + 7 cards dealt
    assert sum(1 for r in deal[7:] if r[3] >= L.FIRST_NUMBER) >= 2


def test_sj2_zeros_count_unless_the_option_says_otherwise():
    """OP-16 (opening_zeros): two 0s are two number cards; with the option off they are not."""
    hand = ("SL", "SL", "SL", "DL", "DR", "0", "0")
    assert not duel(hands=(hand, NO_REPLY)).events(L.EV.REDRAW)
    assert duel(hands=(hand, NO_REPLY), opening_zeros=False).events(L.EV.REDRAW)


@pytest.mark.timeout(300, method="thread")  # 4,000 games
def test_sj3_every_play_is_preceded_by_a_draw_and_the_first_player_is_random():
    """SJ-3 / OP-11 default: a draw before the lead and before the reply."""
    d = duel(hands=(LEAD_98, NO_REPLY), draws=("V5", "V7"), steps=((A98,), ()))
    kinds = [(r[0], r[2]) for r in d.rows if r[0] in (L.EV.DRAW, L.EV.ATTACK, L.EV.PASS)
             and not (r[0] == L.EV.DRAW and r[4] == L.WHY.DEAL)]
    assert kinds[:4] == [(L.EV.DRAW, 0), (L.EV.ATTACK, 0), (L.EV.DRAW, 1), (L.EV.PASS, 1)]
    first = simulate("shuojian", None, "random", 4000, seed=3).records["first"]
    assert 0.45 < first.mean() < 0.55   # 4000 fair coins: sd 0.8 points


def test_sj4_a_lead_is_one_or_two_cards_of_one_action_and_a_zero_only_as_units():
    """SJ-4 / OP-4: V3 + V5 make 35 or 53, V3 + 0 makes 30, H5 + 0 makes 50 (a 0 is either
    action); V3 + H5 (mixed actions) and a lone 0 are no plays."""
    hand = ("V3", "V5", "0", "H5", "V1", "V2", "SL")
    for play, number in (("V35", 35), ("V53", 53), ("V30", 30), ("V3", 3), ("H50", 50)):
        d = duel(hands=(hand, NO_REPLY), steps=((("attack", play),), ()))
        assert d.numbers(L.EV.ATTACK)[0] == number
    mixed = ("V3", "H5", "0", "V1", "V2", "SL", "DL")
    for illegal in ("V35", "H35", "V53", "V0", "H0"):
        with pytest.raises(StrategyError, match="illegal action"):
            duel(hands=(mixed, NO_REPLY), steps=((("attack", illegal),), ()))


def test_op4_high_first_forbids_the_low_digit_first():
    hand = ("V3", "V5", "0", "V1", "V2", "SL", "DL")
    assert duel(hands=(hand, NO_REPLY), steps=((("attack", "V53"),), ()),
                pair_order="high_first").numbers(L.EV.ATTACK)[0] == 53
    with pytest.raises(StrategyError):
        duel(hands=(hand, NO_REPLY), steps=((("attack", "V35"),), ()), pair_order="high_first")


REPLIER = ("V3", "V6", "H3", "H5", "H6", "SL", "DL")


@pytest.mark.parametrize("reply, legal", [("V36", True), ("V63", True), ("V6", False),
                                          ("H35", True), ("H5", True), ("H36", False),
                                          ("V35", False)])
def test_sj5_same_action_must_be_greater_other_action_at_most_equal(reply, legal):
    """SJ-5: against straight 35, a straight reply must be > 35, a sweep reply <= 35."""
    lead = ("V3", "V5", "V1", "V2", "SL", "DL", "DR")
    steps = ((("attack", "V35"),), (("reply", reply),))
    if legal:
        d = duel(hands=(lead, REPLIER), draws=("V7", "V8"), steps=steps)
        assert d.numbers(L.EV.REPLY, seat=1)[0] == int(reply[1:])
    else:
        with pytest.raises(StrategyError):
            duel(hands=(lead, REPLIER), draws=("V7", "V8"), steps=steps)


TRIANGULAR_8 = [("straight", 8, "triangular")] + [("straight", v, "any") for v in range(1, 10)
                                                 for _ in range(2)] + \
    [("sweep", v, "any") for v in range(1, 10) for _ in range(3)] + [("zero", 0, "")] * 4


@pytest.mark.parametrize("reply, legal", [("V10", True), ("V9", False), ("V15", True),
                                          ("H6", True), ("H7", False), ("H3", True)])
def test_sj6_the_reply_satisfies_the_answered_cards_condition(reply, legal):
    """SJ-6, the seed's example: straight 8 marked triangular: straight 10 (1|0) or 15, sweep 6
    or 3 (triangular <= 8); straight 9 and sweep 7 are not triangular."""
    lead = ("V8:triangular", "V2", "V3", "V4", "SL", "DL", "DR")
    replier = ("V1", "0", "V9", "V5", "H6", "H7", "H3")
    steps = ((("attack", "V8"),), (("reply", reply),))
    options = dict(conditions=TRIANGULAR_8, swordsmen=("V9", "H9"))
    if legal:
        d = duel(hands=(lead, replier), draws=("V7", "H8"), steps=steps, **options)
        row = d.events(L.EV.REPLY)[0]
        assert row[5] == int(reply[1:]) and row[6] == 8 and row[7] == 1  # condition 0 checked
    else:
        with pytest.raises(StrategyError):
            duel(hands=(lead, replier), draws=("V7", "H8"), steps=steps, **options)


def test_op3_a_pair_is_bound_by_both_conditions_or_only_the_tens_card():
    """OP-3: V3 (odd) + V6 (even) bind a reply to odd and even: nothing passes. With
    pair_conditions=tens only the tens card's (odd) binds."""
    table = [("straight", 3, "odd"), ("straight", 6, "even")] + \
        [("straight", v, "any") for v in range(1, 10) for _ in range(2)] + \
        [("sweep", v, "any") for v in range(1, 10) for _ in range(3)] + [("zero", 0, "")] * 4
    lead = ("V3:odd", "V6:even", "V1", "V2", "SL", "DL", "DR")
    replier = ("H1", "H3", "H5", "V7", "V8", "V9", "H2")
    steps = ((("attack", "V36"),), ())
    both = duel(hands=(lead, replier), draws=("V4", "H4"), steps=steps, conditions=table)
    assert both.events(L.EV.PASS, seat=1)[0][3] == 1   # a forced pass
    tens = duel(hands=(lead, replier), draws=("V4", "H4"), steps=steps, conditions=table,
                pair_conditions="tens")
    assert tens.events(L.EV.REPLY, seat=1)[0][5] % 2 == 1


def test_sj7_a_player_without_a_reply_passes_and_takes_the_table():
    """SJ-7: seat 1 cannot answer 98; it takes the two cards (and must pass: OP-13 off)."""
    d = duel(hands=(LEAD_98, NO_REPLY), draws=("V5", "V7"), steps=((A98, ("follow", "none"),), ()))
    row = d.events(L.EV.PASS)[0]
    assert row[2] == 1 and row[3] == 1 and row[4] == 98 and row[6] == 2
    assert len([r for r in d.events(L.EV.TAKE, seat=1) if r[1] == row[1]]) == 2


def test_op13_a_voluntary_pass_needs_the_option():
    lead = ("V3", "V5", "V1", "V2", "SL", "DL", "DR")
    steps = ((("attack", "V35"), ("follow", "none")), (("reply", "pass"),))
    with pytest.raises(StrategyError):
        duel(hands=(lead, REPLIER), draws=("V7", "V8"), steps=steps)
    d = duel(hands=(lead, REPLIER), draws=("V7", "V8"), steps=steps, voluntary_pass=True)
    assert d.events(L.EV.PASS, seat=1)[0][3] == 0    # voluntary


def test_op14_the_exchange_goes_on_until_a_pass_or_stops_after_one_reply():
    """OP-14: V35, H35, then seat 0 must answer sweep 35; with one_reply the replier attacks."""
    lead = ("V3", "V5", "H1", "H2", "SL", "DL", "DR")
    steps = ((("attack", "V35"), ("reply", "V17")), (("reply", "H35"),))
    d = duel(hands=(lead, REPLIER), draws=("V7", "V8", "V1"), steps=steps)
    assert d.numbers(L.EV.REPLY)[:2] == [35, 17]
    one = duel(hands=(lead, REPLIER), draws=("V7", "V8", "V1"),
               steps=((("attack", "V35"),), (("reply", "H35"),)), exchange="one_reply")
    assert one.events(L.EV.CLEAR)[0][3] == 4 and one.events(L.EV.ATTACK)[1][2] == 1


def test_sj8_an_unanswered_slash_wins():
    """SJ-8: seat 1 passes, seat 0 slashes, seat 1 has no Dodge or Counter-kill."""
    d = duel(hands=(LEAD_98, NO_REPLY), draws=("V5", "V7"), steps=((A98, ("follow", "slash"),), ()))
    assert d.end == "slash" and d.winners == [0]
    assert d.events(L.EV.HIT, seat=1)[0][3] == L.CARD.SLASH


def test_sj8_the_slash_is_optional():
    d = duel(hands=(LEAD_98, NO_REPLY), draws=("V5", "V7"), steps=((A98, ("follow", "none"),), ()))
    assert d.events(L.EV.FOLLOW)[0][3] == L.FOLLOW.NONE and d.record["slashes"] == 0


DODGER = ("V1", "V2", "V3", "V4", "V5", "V6", "DL")


def test_sj9_a_dodge_moves_one_square_and_a_void_dodge_loses():
    """SJ-9: from the right square, Dodge left moves left (now facing, OP-5); Dodge right has
    no square: void, and it loses (a blunder: seat 1 also held a real answer)."""
    d = duel(hands=(LEAD_98, DODGER), draws=("V5", "V7"), steps=((A98, ("follow", "slash"),), ()))
    (dodge,) = d.events(L.EV.DODGE, seat=1)[:1]
    assert dodge[3] == L.ANSWER.LEFT and dodge[4] == 0 and dodge[5] == 0
    void = duel(hands=(LEAD_98, DODGER[:6] + ("DR",)), draws=("DL", "V7"),
                steps=((A98, ("follow", "slash"),), ()))
    assert void.end == "slash"   # only a void dodge held: no real answer, the Slash lands
    blunder = duel(hands=(LEAD_98, DODGER[:5] + ("DL", "DR")), draws=("V5", "V7"),
                   steps=((A98, ("follow", "slash"),), (("answer", "right"),)))
    assert blunder.end == "void_dodge" and blunder.winners == [0]
    assert blunder.events(L.EV.DODGE, seat=1)[0][5] == 1


def test_sj10_after_a_dodge_the_striker_draws_one_more_and_attacks_again():
    """SJ-10 / OP-10: one extra card on top of the SJ-3 draw; option same: no extra."""
    d = duel(hands=(LEAD_98, DODGER), draws=("V5", "V7", "H1", "H2"),
             steps=((A98, ("follow", "slash"),), ()))
    after = [r for r in d.rows if r[0] in (L.EV.DODGE, L.EV.DRAW, L.EV.ATTACK)]
    i = next(k for k, r in enumerate(after) if r[0] == L.EV.DODGE)
    assert [(r[0], r[2]) for r in after[i + 1:i + 4]] == [(L.EV.DRAW, 0), (L.EV.DRAW, 0),
                                                          (L.EV.ATTACK, 0)]
    assert [r[4] for r in after[i + 1:i + 3]] == [L.WHY.EXTRA, L.WHY.PLAY]
    same = duel(hands=(LEAD_98, DODGER), draws=("V5", "V7", "H1", "H2"),
                steps=((A98, ("follow", "slash"),), ()), extra_draw="same")
    assert not [r for r in same.rows if r[0] == L.EV.DRAW and r[4] == L.WHY.EXTRA]


COUNTERER = ("V1", "V2", "V3", "V4", "V5", "CK", "DL")


def test_sj11_a_right_counter_kill_must_be_dodged_or_it_wins():
    """SJ-11: seat 1 names 9 (seat 0's swordsman is V9): right; seat 0 has no dodge."""
    lead = ("V9", "V8", "SL", "V1", "V2", "V3", "V4")
    d = duel(hands=(lead, COUNTERER), draws=("V5", "V7"),
             steps=((A98, ("follow", "slash"),), (("answer", "counter"), ("guess", 9))))
    assert d.events(L.EV.COUNTER)[0][3:5] == (9, 1)
    assert d.end == "counter_kill" and d.winners == [1]


def test_sj11_a_dodged_counter_kill_gives_the_counter_killer_the_attack():
    lead = ("V9", "V8", "SL", "V1", "V2", "V3", "DL")
    d = duel(hands=(lead, COUNTERER), draws=("V5", "V7", "H1", "H2"),
             steps=((A98, ("follow", "slash"),), (("answer", "counter"), ("guess", 9))))
    assert d.events(L.EV.DODGE, seat=0)[0][3] == L.ANSWER.LEFT
    assert d.events(L.EV.ATTACK)[1][2] == 1   # seat 1 attacks next...
    i = d.rows.index(d.events(L.EV.COUNTER)[0])
    j = d.rows.index(d.events(L.EV.ATTACK)[1])
    assert not [r for r in d.rows[i:j] if r[0] == L.EV.DRAW and r[4] == L.WHY.EXTRA]  # ...no extra


def test_sj11_a_wrong_counter_kill_fails_and_the_passer_must_still_dodge():
    """SJ-11 / OP-7: naming 5 is wrong; the card is lost and seat 1 dodges left."""
    lead = ("V9", "V8", "SL", "V1", "V2", "V3", "V4")
    d = duel(hands=(lead, COUNTERER), draws=("V5", "V7", "H1", "H2"),
             steps=((A98, ("follow", "slash"),), (("answer", "counter"), ("guess", 5))))
    assert d.events(L.EV.COUNTER)[0][3:5] == (5, 0)
    assert d.events(L.EV.DODGE, seat=1)[0][3] == L.ANSWER.LEFT
    assert d.record["counter_kills"] == 1 and d.record["counter_kills_right"] == 0
    lost = duel(hands=(lead, COUNTERER[:6] + ("V6",)), draws=("V5", "V7"),
                steps=((A98, ("follow", "slash"),), (("answer", "counter"), ("guess", 5))))
    assert lost.end == "slash"   # wrong, and no dodge left


def test_sj12_a_thrust_needs_facing_swordsmen_and_cannot_be_countered():
    """SJ-12: diagonal at the start: no Thrust; facing (mat_start=facing): the Thrust lands
    although seat 1 holds a Counter-kill."""
    lead = ("V9", "V8", "TH", "V1", "V2", "V3", "V4")
    with pytest.raises(StrategyError):
        duel(hands=(lead, COUNTERER[:6] + ("V6",)), draws=("V5", "V7"),
             steps=((A98, ("follow", "thrust"),), ()))
    d = duel(hands=(lead, COUNTERER[:6] + ("V6",)), draws=("V5", "V7"),
             steps=((A98, ("follow", "thrust"),), ()), mat_start="facing")
    assert d.end == "thrust" and d.winners == [0]


def test_sj13_used_finishing_blow_cards_leave_play():
    """SJ-13: the Slash and the Dodge are discarded (2 cards out of play)."""
    d = duel(hands=(LEAD_98, DODGER), draws=("V5", "V7", "H1", "H2"),
             steps=((A98, ("follow", "slash"),), ()))
    assert d.record["slashes"] == 1 and d.record["dodges"] >= 1
    assert d.record["discards"] >= 2


SMALL = [("straight", v, "any") for v in range(1, 10) for _ in range(2)]


def test_sj14_when_the_deck_runs_out_the_smaller_hand_wins():
    """SJ-14 / OP-12: 18 number cards, no finishing-blow cards: 2 swordsmen, 14 dealt, 2 to
    draw; seat 1 passes with 9 cards against 6: the next draw finds the deck empty."""
    none = dict(dodge_left=0, dodge_right=0, slashes=0, thrusts=0, counter_kills=0)
    d = duel(hands=(("V9", "V8", "V1", "V1", "V2", "V2", "V3"),
                    ("V3", "V4", "V4", "V5", "V5", "V6", "V6")), draws=("V7", "V7"),
             steps=((A98,), ()), swordsmen=("V9", "V8"), conditions=SMALL, **none)
    assert d.end == "deck_out" and d.record["deck"] == 0
    assert d.record["hand_0"] < d.record["hand_1"] and d.winners == [0]
    last = duel(hands=(("V9", "V8", "V1", "V1", "V2", "V2", "V3"),
                       ("V3", "V4", "V4", "V5", "V5", "V6", "V6")), draws=("V7", "V7"),
                steps=((A98,), ()), swordsmen=("V9", "V8"), conditions=SMALL, deck_out="last_card",
                **none)
    assert last.end in ("deck_out", "draw") and last.record["turns"] <= d.record["turns"]


@pytest.mark.timeout(300, method="thread")  # 8,000 games ~0.1 s warm
def test_op8_equal_hands_are_a_draw_or_nobodys_win():
    table = simulate("shuojian", {"conditions": "any"}, "random", 4000, seed=5).records
    draws = table[table.end_reason == "draw"]
    assert len(draws) > 0 and (draws.hand_0 == draws.hand_1).all()
    assert ((draws.win_0 == 0.5) & (draws.win_1 == 0.5)).all()
    nobody = simulate("shuojian", {"conditions": "any", "tie": "nobody"}, "random", 4000,
                      seed=5).records
    assert ((nobody.win_0 + nobody.win_1)[nobody.end_reason == "draw"] == 0).all()


def test_op15_a_hidden_swordsman_is_not_shown_to_its_owner():
    d = duel(hands=(LEAD_98, NO_REPLY), draws=("V5", "V7"), steps=((A98,), ()), see_own=False)
    assert not d.events(L.EV.SWORDSMAN) and len(d.events(L.EV.SWORDSMAN_HIDDEN)) == 2
    assert L.EVENT_VISIBILITY[L.EV.SWORDSMAN_HIDDEN] == L.NOBODY


def test_op16_an_attacker_without_a_lead_passes_the_attack_or_draws_for_one():
    """OP-16: seat 0 holds only 0s and finishing-blow cards and draws a 0: no lead."""
    hand = ("0", "0", "SL", "SL", "DL", "DR", "TH")
    d = duel(hands=(hand, NO_REPLY), draws=("0", "V7"))
    assert d.events(L.EV.NO_LEAD)[0][2] == 0 and d.events(L.EV.ATTACK)[0][2] == 1
    drawing = duel(hands=(hand, NO_REPLY), draws=("0", "V7"), no_lead="draw")
    assert not drawing.events(L.EV.NO_LEAD) and drawing.events(L.EV.ATTACK)[0][2] == 0
