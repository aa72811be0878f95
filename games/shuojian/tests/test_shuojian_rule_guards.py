"""Scripted duels that catch the loss of a rule (shared/rules/shuo_jian.md, issue 21 item 6).

The first-round rule tests (test_shuojian_rules.py) name every rule id, but faults planted in the
kernel one at a time showed rules whose loss they could not see: SJ-10's extra draw after a pass
with no follow-up, SJ-12's "no Counter-kill against a Thrust", SJ-11's "whose swordsman" (both
scripted swordsmen used to be 9). Each test here was checked against its planted fault (the
fault named in its docstring made it fail; the kernel was then restored).

Scripted duels (sj_script.py): every card has the condition "any", seat 0 attacks first, the
swordsmen are V9 (seat 0) and H4 (seat 1), both on their owner's right square (diagonal).
"""
import pytest
from .sj_script import L, duel

from sim.errors import StrategyError
from sim.runner import play_one
from games.shuojian.log import narrate

LEAD_98 = ("V9", "V8", "SL", "V1", "V2", "V3", "V4")   # seat 0 leads straight 98...
NO_REPLY = ("V1", "V2", "V3", "V4", "V5", "V6", "V7")  # ...which these cards cannot answer
A98 = ("attack", "V98")
DODGER = ("V1", "V2", "V3", "V4", "V5", "V6", "DL")
COUNTERER = ("V1", "V2", "V3", "V4", "V5", "CK", "DL")
KINDS = (L.EV.DRAW, L.EV.ATTACK, L.EV.REPLY, L.EV.PASS, L.EV.FOLLOW, L.EV.DODGE, L.EV.COUNTER,
         L.EV.HIT, L.EV.NO_LEAD)


def story(d, start=0, stop=None, kinds=KINDS):
    """(event, seat, a, b) of the rows start..stop of the given kinds (deal draws left out)."""
    rows = d.rows[start:stop]
    return [(r[0], r[2], r[3], r[4]) for r in rows
            if r[0] in kinds and not (r[0] == L.EV.DRAW and r[4] == L.WHY.DEAL)]


def index_of(d, row):
    return d.rows.index(row)


def next_attack_after(d, i):
    return next(k for k in range(i + 1, len(d.rows)) if d.rows[k][0] == L.EV.ATTACK)


# --- SJ-2: the redraw message (issue 21 item 4) ----------------------------------------------

def counted_numbers(rows, redraw_index, seat, zeros_count):
    """SJ-2 / OP-16 read from the log: the number cards in the hand dealt just before a redraw
    (the seat's last 7 deal draws), 0s counted only when opening_zeros is on."""
    types = {r[3]: r[4] for r in rows if r[0] == L.EV.TYPE}   # type -> action
    dealt = [r[3] for r in rows[:redraw_index]
             if r[0] == L.EV.DRAW and r[2] == seat and r[4] == L.WHY.DEAL][-L.HAND_SIZE:]
    numbers = [t for t in dealt if t >= L.FIRST_NUMBER]
    return sum(1 for t in numbers if zeros_count or types[t] != L.ACT.ZERO), \
        sum(1 for t in numbers if types[t] == L.ACT.ZERO)


def redraw_lines(events, labels):
    text = narrate(events, labels)
    return [line for line in text.splitlines() if "shuffled back and redrawn" in line]


def test_sj2_the_redraw_message_gives_the_count_the_rule_used_issue_example():
    """SJ-2 / OP-16, issue 21's example: game 646 of seed 1 (random vs random) with
    opening_zeros=false redraws a hand of one non-zero number card and three 0s. The narrative
    must say it has 1 number card (the 0s do not count), not 4."""
    _, events, seats = play_one("shuojian", {"opening_zeros": False}, ["random", "random"], seed=1,
                                game_index=646)
    rows = [tuple(int(x) for x in r) for r in events]
    redraws = [i for i, r in enumerate(rows) if r[0] == L.EV.REDRAW]
    assert redraws, "the example game no longer redraws (the random streams changed?)"
    lines = redraw_lines(events, seats.labels)
    assert len(lines) == len(redraws)
    with_zeros = 0
    for i, line in zip(redraws, lines):
        counted, zeros = counted_numbers(rows, i, rows[i][2], zeros_count=False)
        assert counted < L.MIN_OPENING_NUMBERS                 # the kernel redrew the right hand
        assert (rows[i][3], rows[i][4]) == (counted, zeros)   # the event carries the rule's count
        assert f"has {counted} number card(s)" in line
        with_zeros += zeros > 0
    assert with_zeros   # the example's point: a redrawn hand held 0s


@pytest.mark.parametrize("hand, zeros_count, counted, zeros", [
    (("SL", "SL", "SL", "DL", "0", "0", "V1"), False, 1, 2),
    (("SL", "SL", "SL", "DL", "DR", "0", "0"), False, 0, 2),
    (("SL", "SL", "SL", "DL", "DR", "TH", "V1"), True, 1, 0),
])
def test_sj2_the_redraw_message_counts_number_cards_as_sj2_does(hand, zeros_count, counted, zeros):
    """SJ-2 / OP-16: the redraw event and its narrative give the number cards SJ-2 counted (0s
    only when opening_zeros is on) and, when they were left out, how many 0s."""
    d = duel(hands=(hand, NO_REPLY), opening_zeros=zeros_count)
    redraw = d.events(L.EV.REDRAW, seat=0)[0]   # the scripted hand (a redrawn one may fail too)
    assert (redraw[3], redraw[4]) == (counted, zeros)
    assert counted_numbers(d.rows, index_of(d, redraw), 0, zeros_count) == (counted, zeros)
    line = redraw_lines(d.rows, d.labels)[0]
    assert f"has {counted} number card(s)" in line
    assert (f"not counting its {zeros} 0(s)" in line) == (zeros > 0)


# --- SJ-3 -------------------------------------------------------------------------------------

def test_sj3_every_play_and_pass_of_a_long_exchange_follows_its_own_draw():
    """SJ-3 / SJ-5 (OP-11 every_play): V35, H35, V17 and on: each player draws 1 before every play
    of number cards (and before finding it must pass), not only before its first one of an
    exchange. Planted fault caught: a draw only before each player's first play of an exchange."""
    lead = ("V3", "V5", "H1", "H2", "SL", "DL", "DR")
    replier = ("V3", "V6", "H3", "H5", "H6", "SL", "DL")
    d = duel(hands=(lead, replier), draws=("V7", "V8", "V1"),
             steps=((("attack", "V35"), ("reply", "V17")), (("reply", "H35"),)))
    assert d.numbers(L.EV.REPLY)[:2] == [35, 17]   # seat 0's second play of the exchange
    plays = 0
    for i, row in enumerate(d.rows):
        if row[0] in (L.EV.ATTACK, L.EV.REPLY, L.EV.PASS):
            before = story(d, 0, i)[-1]
            assert before[:2] == (L.EV.DRAW, row[2]) and before[3] == L.WHY.PLAY, (i, row)
            plays += 1
    assert plays >= 5


# --- SJ-5 -------------------------------------------------------------------------------------

@pytest.mark.parametrize("lead_play, reply, legal", [
    ("V35", "V35", False), ("V35", "V53", True), ("V35", "H35", True), ("V35", "H36", False),
    ("V53", "V53", False), ("V53", "V54", True), ("V53", "H53", True), ("V53", "H54", False),
])
def test_sj5_an_equal_number_answers_only_with_the_other_action(lead_play, reply, legal):
    """SJ-5 at the boundary, below and above 50 (the kernel keeps 0..49 and 50..99 in two
    words): same action must be greater (equal is not enough), other action at most equal
    (equal is allowed)."""
    lead = ("V3", "V5", "V1", "V2", "SL", "DL", "DR")
    replier = ("V3", "V5", "V4", "H3", "H5", "H4", "H6")
    steps = ((("attack", lead_play),), (("reply", reply),))
    if legal:
        d = duel(hands=(lead, replier), draws=("V7", "V8"), steps=steps)
        assert d.numbers(L.EV.REPLY, seat=1)[0] == int(reply[1:])
    else:
        with pytest.raises(StrategyError, match="illegal action"):
            duel(hands=(lead, replier), draws=("V7", "V8"), steps=steps)


# --- SJ-7 -------------------------------------------------------------------------------------

def test_sj7_the_passer_takes_every_number_card_of_the_exchange():
    """SJ-7 / OP-14: V21 (seat 0), H4 (seat 1), H21 (seat 0); seat 1 cannot answer sweep 21 and
    must pass: it takes all 5 cards on the table, both players' plays, not only the last one."""
    lead = ("V2", "V1", "H2", "H1", "SL", "DL", "DR")
    passer = ("H4", "H9", "SL", "SL", "DL", "DR", "TH")
    d = duel(hands=(lead, passer), draws=("H3", "DL", "H5", "SL"),
             steps=((("attack", "V21"), ("reply", "H21"), ("follow", "none")), (("reply", "H4"),)))
    assert d.numbers(L.EV.ATTACK)[:1] + d.numbers(L.EV.REPLY)[:2] == [21, 4, 21]
    (pass_row,) = d.events(L.EV.PASS)[:1]
    assert pass_row[2] == 1 and pass_row[3] == 1 and pass_row[6] == 5   # forced, 5 on the table
    taken = [r[3] for r in d.events(L.EV.TAKE, seat=1) if r[1] == pass_row[1]]
    played = []
    for r in d.rows[:index_of(d, pass_row)]:
        if r[0] in (L.EV.ATTACK, L.EV.REPLY):
            played += [t for t in (r[3], r[4]) if t >= 0]
    assert sorted(taken) == sorted(played)
    assert d.record["taken_1"] >= 5


# --- SJ-8 -------------------------------------------------------------------------------------

def test_sj8_only_a_striker_holding_a_slash_may_slash():
    """SJ-8: seat 0 holds a Thrust (facing: a legal follow-up) but no Slash: a scripted Slash is
    an illegal action. Planted fault caught: a Slash allowed without the card."""
    hand = ("V9", "V8", "TH", "V1", "V2", "V3", "V4")
    with pytest.raises(StrategyError, match="illegal action"):
        duel(hands=(hand, NO_REPLY), draws=("V5", "V7"), steps=((A98, ("follow", "slash")), ()),
             mat_start="facing")


# --- SJ-9 -------------------------------------------------------------------------------------

def test_sj9_dodge_right_moves_right_and_dodge_left_from_the_left_square_is_void():
    """SJ-9 / OP-5 (mat_start=left): seat 1 starts on its left square; Dodge right moves it to
    its right square; Dodge left has no square there: void, and it loses."""
    d = duel(hands=(LEAD_98, DODGER[:6] + ("DR",)), draws=("V5", "V7"),
             steps=((A98, ("follow", "slash")), ()), mat_start="left")
    assert d.events(L.EV.PLACE, seat=1)[0][3] == 0
    dodge = d.events(L.EV.DODGE, seat=1)[0]
    assert (dodge[3], dodge[4], dodge[5]) == (L.ANSWER.RIGHT, 1, 0)
    void = duel(hands=(LEAD_98, DODGER[:5] + ("DL", "DR")), draws=("V5", "V7"),
                steps=((A98, ("follow", "slash")), (("answer", "left"),)), mat_start="left")
    assert void.end == "void_dodge" and void.winners == [0]
    assert void.events(L.EV.DODGE, seat=1)[0][3:6] == (L.ANSWER.LEFT, 0, 1)


# --- SJ-10 ------------------------------------------------------------------------------------

NO_SLASH_98 = ("V9", "V8", "V1", "V2", "V3", "V4", "DL")


@pytest.mark.parametrize("hand, steps",
                         [(LEAD_98, (A98, ("follow", "none"))), (NO_SLASH_98, (A98,))],
                         ids=["declines_the_slash", "holds_no_slash"])
def test_sj10_with_no_follow_up_the_striker_draws_one_more_and_attacks_again(hand, steps):
    """SJ-10 / OP-10: seat 1 passes; seat 0 does not follow up (it declines its Slash, or holds
    none): it draws 1 more card on top of the SJ-3 draw, then attacks again with number cards.
    extra_draw=same: only the SJ-3 draw. Planted fault caught: the extra draw skipped when the
    striker plays no Slash or Thrust after a pass (it was tested only after a dodge)."""
    for extra, draws in (("extra", [L.WHY.EXTRA, L.WHY.PLAY]), ("same", [L.WHY.PLAY])):
        d = duel(hands=(hand, NO_REPLY), draws=("V5", "V7", "H1", "H2"), steps=(steps, ()),
                 extra_draw=extra)
        i = index_of(d, d.events(L.EV.PASS)[0])
        after = story(d, i + 1, next_attack_after(d, i) + 1)
        assert after[0] == (L.EV.FOLLOW, 0, L.FOLLOW.NONE, 0)
        assert [(e[0], e[1], e[3]) for e in after[1:-1]] == [(L.EV.DRAW, 0, why) for why in draws]
        assert after[-1][:2] == (L.EV.ATTACK, 0)


# --- SJ-11 ------------------------------------------------------------------------------------

@pytest.mark.parametrize("first", ["seat0", "seat1"])
def test_sj11_a_counter_kill_names_the_strikers_swordsman_not_the_passers(first):
    """SJ-11: the swordsmen are 9 (seat 0) and 4 (seat 1). The passer names the striker's
    swordsman: right, and the striker (no dodge) loses; naming its own swordsman's number is
    wrong, and the passer must still dodge. Seat 0 strikes, then seat 1 (first_player=seat1).
    Planted fault caught: the guess checked against the passer's own swordsman."""
    striker = 0 if first == "seat0" else 1
    passer = 1 - striker
    lead = ("V9", "V8", "SL", "V1", "V2", "V3", "V4")   # the striker holds no dodge
    hands = (lead, COUNTERER) if striker == 0 else (COUNTERER, lead)

    def play(guess):
        steps = [None, None]
        steps[striker] = (A98, ("follow", "slash"))
        steps[passer] = (("answer", "counter"), ("guess", guess))
        return duel(hands=hands, draws=("V5", "V7", "H1", "H2"), steps=tuple(steps),
                    first_player=first)

    mine, theirs = (9, 4) if striker == 0 else (4, 9)
    right = play(mine)
    assert right.swordsman(striker) == mine and right.swordsman(passer) == theirs
    assert right.events(L.EV.COUNTER)[0][2:5] == (passer, mine, 1)
    assert right.end == "counter_kill" and right.winners == [passer]
    wrong = play(theirs)
    assert wrong.events(L.EV.COUNTER)[0][2:5] == (passer, theirs, 0)
    assert wrong.events(L.EV.DODGE)[0][2:4] == (passer, L.ANSWER.LEFT)
    assert wrong.record["counter_kills_right"] == 0


def test_sj11_a_right_counter_kill_can_only_be_dodged_not_countered_back():
    """SJ-11: the striker must dodge a right Counter-kill or lose; a Counter-kill of its own is
    no answer (counter_kills=2: seat 0 holds one, and no dodge). Planted fault caught: the
    striker allowed to answer with a Counter-kill."""
    lead = ("V9", "V8", "SL", "CK", "V1", "V2", "V3")
    d = duel(hands=(lead, COUNTERER), draws=("V5", "V7", "H1", "H2"),
             steps=((A98, ("follow", "slash"), ("answer", "counter"), ("guess", 4)),
                    (("answer", "counter"), ("guess", 9))), counter_kills=2)
    assert [r[2:5] for r in d.events(L.EV.COUNTER)] == [(1, 9, 1)]
    assert d.events(L.EV.HIT)[0][2:4] == (0, L.CARD.COUNTER)
    assert d.end == "counter_kill" and d.winners == [1]


def test_sj11_one_counter_kill_per_blow_even_when_a_wrong_one_is_kept():
    """SJ-11 / OP-7 (wrong_counter=kept): a wrong Counter-kill goes back to the hand, but the
    passer must still dodge: it cannot name a second number against the same Slash."""
    d = duel(hands=(LEAD_98, COUNTERER), draws=("V5", "V7", "H1", "H2"),
             steps=((A98, ("follow", "slash")),
                    (("answer", "counter"), ("guess", 5), ("answer", "counter"), ("guess", 6))),
             wrong_counter="kept")
    i = index_of(d, d.events(L.EV.FOLLOW)[0])
    window = story(d, i, next_attack_after(d, i))
    assert [e for e in window if e[0] == L.EV.COUNTER] == [(L.EV.COUNTER, 1, 5, 0)]
    assert (L.EV.DODGE, 1, L.ANSWER.LEFT, 0) in window


# --- SJ-12 ------------------------------------------------------------------------------------

THRUSTER = ("V9", "V8", "TH", "V1", "V2", "V3", "V4")


def test_sj12_a_thrust_cannot_be_answered_by_a_counter_kill_only_dodged():
    """SJ-12 (mat_start=facing: seat 1 on its left square, so only Dodge right finds a square):
    seat 1 holds a Counter-kill and a Dodge right and would name the right number (9): it may
    only dodge. Holding the Counter-kill and no dodge, it has no answer: the Thrust wins.
    Planted fault caught: a Thrust answered by a Counter-kill."""
    d = duel(hands=(THRUSTER, ("V1", "V2", "V3", "V4", "V5", "CK", "DR")),
             draws=("V5", "V7", "H1", "H2"),
             steps=((A98, ("follow", "thrust")), (("answer", "counter"), ("guess", 9))),
             mat_start="facing")
    assert d.events(L.EV.FOLLOW)[0][3] == L.FOLLOW.THRUST
    first_attack = next_attack_after(d, index_of(d, d.events(L.EV.FOLLOW)[0]))
    window = story(d, 0, first_attack)
    assert not [e for e in window if e[0] == L.EV.COUNTER]
    assert (L.EV.DODGE, 1, L.ANSWER.RIGHT, 1) in window
    with pytest.raises(StrategyError, match="illegal action"):   # asked, it may not counter
        duel(hands=(THRUSTER, ("V1", "V2", "V3", "V4", "CK", "DL", "DR")),
             draws=("V5", "V7"), steps=((A98, ("follow", "thrust")), (("answer", "counter"),)),
             mat_start="facing")
    hit = duel(hands=(THRUSTER, COUNTERER[:6] + ("V6",)), draws=("V5", "V7"),
               steps=((A98, ("follow", "thrust")), (("guess", 9),)), mat_start="facing")
    assert not hit.events(L.EV.COUNTER)
    assert hit.events(L.EV.HIT)[0][2:4] == (1, L.CARD.THRUST)
    assert hit.end == "thrust" and hit.winners == [0]


def test_sj12_one_follow_up_per_pass():
    """SJ-12: one follow-up per pass, Slash or Thrust. Seat 0 holds both; its Slash is dodged
    into facing (a Thrust would now be legal), but it draws and attacks again (SJ-10): no
    second follow-up before the next exchange."""
    lead = ("V9", "V8", "SL", "TH", "V1", "V2", "V3")
    d = duel(hands=(lead, DODGER), draws=("V5", "V7", "H1", "H2"),
             steps=((A98, ("follow", "slash"), ("follow", "thrust")), ()))
    i = index_of(d, d.events(L.EV.PASS)[0])
    window = story(d, i, next_attack_after(d, i) + 1)
    assert [e for e in window if e[0] == L.EV.FOLLOW] == [(L.EV.FOLLOW, 0, L.FOLLOW.SLASH, 0)]
    assert (L.EV.DODGE, 1, L.ANSWER.LEFT, 0) in window
    assert [e[3] for e in window if e[0] == L.EV.DRAW] == [L.WHY.EXTRA, L.WHY.PLAY]
    assert window[-1][:2] == (L.EV.ATTACK, 0)


# --- SJ-13 ------------------------------------------------------------------------------------

def finishing_cards_used(d, kept_wrong: bool) -> int:
    """SJ-13 read from the log: Slashes and Thrusts played, dodges, Counter-kills (a wrong one
    goes back to the hand when OP-7 says kept)."""
    follows = sum(1 for r in d.events(L.EV.FOLLOW) if r[3] != L.FOLLOW.NONE)
    counters = sum(1 for r in d.events(L.EV.COUNTER) if r[4] == 1 or not kept_wrong)
    return follows + len(d.events(L.EV.DODGE)) + counters


@pytest.mark.parametrize("wrong_counter", ["lost", "kept"])
def test_sj13_every_used_finishing_card_leaves_the_hand_for_the_discards(wrong_counter):
    """SJ-13 / OP-7: a Slash, a wrong Counter-kill and a Dodge: at the end of the game the
    discards hold exactly the finishing-blow cards used (number cards never go there with
    OP-14 until_pass), and every card is still accounted for (no invariant_broken: a card that
    stayed in the hand as well would break conservation). Planted faults caught: a used card
    kept in the hand as well as discarded; a used card put back into the hand."""
    lead = ("V9", "V8", "SL", "V1", "V2", "V3", "V4")
    d = duel(hands=(lead, COUNTERER), draws=("V5", "V7", "H1", "H2"),
             steps=((A98, ("follow", "slash")), (("answer", "counter"), ("guess", 5))),
             wrong_counter=wrong_counter)
    assert d.end != "invariant_broken"
    assert d.record["slashes"] >= 1 and d.record["counter_kills"] >= 1 and d.record["dodges"] >= 1
    used = finishing_cards_used(d, wrong_counter == "kept")
    assert used >= (2 if wrong_counter == "kept" else 3)
    assert d.record["discards"] == used


# --- SJ-14 ------------------------------------------------------------------------------------

SMALL = [("straight", v, "any") for v in range(1, 10) for _ in range(2)]
NONE = dict(dodge_left=0, dodge_right=0, slashes=0, thrusts=0, counter_kills=0)


@pytest.mark.parametrize("deck_out, winner, hands, table", [("empty_draw", 1, (7, 6), 3),
                                                            ("last_card", 0, (7, 8), 1)])
def test_sj14_cards_on_the_table_count_for_nobody(deck_out, winner, hands, table):
    """SJ-14 / OP-12: 18 straight cards, no finishing-blow cards; seat 0 leads 4 (hand 7), seat 1
    draws the last card and replies 98 (hand 6): seat 0's draw finds the deck empty. The 3
    table cards count for nobody: 7 against 6, seat 1 wins (counted for those who played them,
    it would be 8 against 8). With deck_out=last_card the game ends at seat 1's draw: 7 against
    8, seat 0 wins. Planted fault caught: the table counted into a hand."""
    d = duel(hands=(("V1", "V1", "V2", "V2", "V3", "V3", "V4"),
                    ("V5", "V5", "V6", "V6", "V7", "V7", "V8")), draws=("V4", "V9"),
             steps=((("attack", "V4"),), (("reply", "V98"),)), swordsmen=("V9", "V8"),
             conditions=SMALL, deck_out=deck_out, **NONE)
    assert d.end == "deck_out" and d.record["deck"] == 0
    assert (d.record["hand_0"], d.record["hand_1"], d.record["table"]) == (*hands, table)
    assert d.winners == [winner]
