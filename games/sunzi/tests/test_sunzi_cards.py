"""SZ-11: every row of the special-card table, in both seat orders.

First the kernel's battle arithmetic for every row against every number card, then every row
played out in a scripted game (region Xinjiang, round 1) with White as A and with Black as A.
"""
import pytest

from games.sunzi import kernel as K
from games.sunzi import layout as L

from .sunzi_script import card, deck, place

# (A, B, A's margin, armies A loses, armies B loses); "n" = every number card 1-10.
TABLE = [
    ("+1", "n", 1, 0, 0),
    ("+2", "n", 2, 1, 0),
    ("+3", "n", 3, 2, 0),
    ("-1", "n", -1, 0, 0),
    ("+1", "+1", 0, 0, 0),
    ("+2", "+1", 1, 1, 0),
    ("+3", "+1", 2, 2, 0),
    ("+1", "-1", 1, 0, 0),
    ("+2", "-1", 2, 1, 0),
    ("+3", "-1", 3, 2, 0),
    ("-1", "-1", 0, 0, 0),
    ("+3", "+2", 1, 2, 1),
    ("+2", "+2", 0, 1, 1),
    ("+3", "+3", 0, 2, 2),
]
NUMBERS = [str(v) for v in range(1, 11)]


def opponents(b):
    return NUMBERS if b == "n" else [b]


@pytest.mark.parametrize("a, b, margin, lose_a, lose_b", TABLE)
def test_sz11_table_arithmetic_both_orders(a, b, margin, lose_a, lose_b):
    for other in opponents(b):
        assert K.battle(card(a), card(other)) == (margin, lose_a, lose_b)
        assert K.battle(card(other), card(a)) == (-margin, lose_b, lose_a)


def test_sz9_number_cards_subtract():
    for x in range(1, 11):
        for y in range(1, 11):
            assert K.battle(card(x), card(y)) == (x - y, 0, 0)


def duel(play, white_card, black_card, **options):
    """Round 1: White plays white_card and Black black_card on Xinjiang; the other four regions
    tie (both sides play their lowest cards there)."""
    mode = options.pop("mode", "advanced")
    options.update(deck_white=deck(*_top(white_card), mode=mode),
                   deck_black=deck(*_top(black_card), mode=mode), mode=mode)
    return play([(L.D.PLACE, card(white_card))], [(L.D.PLACE, card(black_card))], **options)


def _top(c):
    return [] if c in NUMBERS[:6] else [c]


@pytest.mark.parametrize("white_is_a", [True, False], ids=["A=White", "A=Black"])
@pytest.mark.parametrize("a, b, margin, lose_a, lose_b", TABLE)
def test_sz11_table_row_played_out(play, a, b, margin, lose_a, lose_b, white_is_a):
    other = "5" if b == "n" else b
    white, black = (a, other) if white_is_a else (other, a)
    game = duel(play, white, black)
    white_margin = margin if white_is_a else -margin
    assert game.battle(1, 0)[2] == white_margin
    losses = {row[2]: row[3] for row in game.events(L.EV.COST, 1)}
    lose_white, lose_black = (lose_a, lose_b) if white_is_a else (lose_b, lose_a)
    assert losses.get(L.WHITE, 0) == lose_white and losses.get(L.BLACK, 0) == lose_black
    # the loss comes from supply (OP-7) and leaves the game; the winner places the margin
    board = game.board(1)[0]
    assert board == ((white_margin, 0, 0, 0) if white_margin > 0 else (0, 0, -white_margin, 0))
    assert not game.events(L.EV.SPLIT, 1) or game.split(1, 0)[1:] == (0, abs(margin), 0)


@pytest.mark.parametrize("plague_side", [L.WHITE, L.BLACK], ids=["White's Plague", "Black's Plague"])
@pytest.mark.parametrize("other", ["3", "6", "+1", "+3", "-1", "plague"])
def test_sz11_plague_against_anything(play, plague_side, other):
    """Plague: no battle (so no +2/+3 cost either), each side's armies there halved, rounded
    half up (OP-4); markers are spared. Round 1 puts 9 of the victim's armies on Xinjiang
    (10 against 1); in round 2 the Plague meets `other` there."""
    victim = 1 - plague_side
    rounds = {plague_side: place("1 2 3 4 5") + place("plague 2 3 4 5"),
              victim: place("10 1 2 3 4") + place(f"{other} 1 2 4 5")}
    decks = {plague_side: deck("plague", mode="advanced"),
             victim: deck("10", *([] if other in NUMBERS else [other]), mode="advanced")}
    game = play(rounds[0], rounds[1], mode="advanced", deck_white=decks[0], deck_black=decks[1])
    assert game.board(1)[0][2 * victim] == 9
    assert [r for r in game.events(L.EV.BATTLE, 2) if r[3] == 0] == []
    assert [r for r in game.events(L.EV.COST, 2)] == []
    (plague,) = game.events(L.EV.PLAGUE, 2)
    assert plague[3] == 0 and plague[4 + victim] == 5 and plague[4 + plague_side] == 0
    assert game.board(2)[0][2 * victim] == 4
