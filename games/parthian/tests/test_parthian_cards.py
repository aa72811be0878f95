"""Parthian Shot's interventional card table (games/parthian/study/cards.py): the legions
(PS-2, OP-1), the charge cards (PS-1) and the charge condition (PS-4) as rule variants, and the
machinery's planted-effect check (issue 17): a deliberately strengthened card comes out on top
with an interval that excludes zero, a change that cannot matter comes out null."""
import numpy as np
import pytest

from analysis.interventions import DOWN, NEUTRAL, UP, Card, interventions
from games.parthian.study import EDGE
from games.parthian.study.cards import cards
from games.parthian import layout as L
from games.parthian.rules import PLAYER_COUNTS, ParthianRules


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_every_intervention_is_a_valid_changed_variant(n):
    """PS-1: at every player count each intervention is accepted and changes the kernel's input."""
    base = ParthianRules(n_players=n)
    args = [np.asarray(a).tolist() for a in base.kernel_args()]
    declared = cards(base)
    assert len({c.name for c in declared}) == len(declared) == L.N_LEGIONS + 2
    for card in declared:
        assert card.owner == EDGE == "victory"
        for label in card.interventions:
            changed = card.changed(label, base)
            assert changed.n_players == n
            assert [np.asarray(a).tolist() for a in changed.kernel_args()] != args, (card.name, label)
    # the weakest legion has no neutral row; every other legion has one
    legions = [c for c in declared if c.kind == "legion"]
    assert [NEUTRAL in c.interventions for c in legions].count(False) == 1


def test_interventions_do_what_they_say():
    """PS-2: one legion's strength moves by one, the other six stay; neutral = the weakest
    strength of the set. PS-1: charge cards per player; PS-4: the charge threshold."""
    base = ParthianRules(n_players=4)
    strengths = sorted(base.strengths())
    named = {c.name: c for c in cards(base)}
    top = named[f"legion {strengths[-1]}"]
    assert sorted(top.changed(UP, base).strengths()) == strengths[:-1] + [strengths[-1] + 1]
    assert sorted(top.changed(NEUTRAL, base).strengths()) == sorted(strengths[:-1] + [strengths[0]])
    assert top.changed(NEUTRAL, base).kernel_args()[1].tolist().count(strengths[0]) == 2
    rules = named["charge card"].changed(DOWN, base).kernel_args()[0]
    assert rules[L.R.CHARGES] == base.charges - 1 == 1
    assert named["charge condition"].changed(UP, base).kernel_args()[0][L.R.THRESHOLD] == 10
    # an offset set: the named strengths are the played ones, the change is still one card
    shifted = ParthianRules(n_players=4, legion_offset=2)
    card = next(c for c in cards(shifted) if c.name == f"legion {strengths[0] + 2}")
    assert sorted(card.changed(DOWN, shifted).strengths())[0] == strengths[0] + 1


def test_small_table_has_finite_effects():
    table = interventions("parthian", {"n_players": 4}, "random",
                          cards=["legion 10", "legion 18", "charge card"], n_games=300,
                          precision=None, seed=7)
    assert (table["status"] == "ok").all() and len(table) == 7
    assert np.isfinite(table[["effect", "ci_low", "ci_high", "p", "q"]].to_numpy()).all()


def test_planted_effect_comes_out_on_top_and_a_null_change_stays_null():
    """Issue 17's check of the machinery. The planted card: the strongest legion +10 (PS-5: a
    legion beaten only by a total above its strength), which must lower victory the most, with
    an interval that excludes zero. The null card: the seven strengths listed in another order
    (PS-2 shuffles them, so every game is dealt differently but the game is the same): its
    effect must be null within its interval."""
    base = ParthianRules(n_players=4)
    strengths = tuple(base.tunable_value("legions"))
    planted = Card("planted legion", "legion", {UP: {"legions": strengths[:-1] + (strengths[-1] + 10,)}},
                   owner="victory")
    null = Card("reordered legions", "legion", {UP: {"legions": strengths[::-1]}}, owner="victory")
    declared = {c.name: c for c in cards(base)}
    chosen = [planted, null, declared["legion 12"], declared["legion 16"]]
    table = interventions("parthian", base, "random", cards=chosen, n_games=4000,
                          precision=None, seed=2026)
    table = table.assign(size=table["effect"].abs()).sort_values("size", ascending=False)
    top = table.iloc[0]
    assert top["card"] == "planted legion" and top["ci_high"] < 0 and top["significant"]
    row = table[table["card"] == "reordered legions"].iloc[0]
    assert row["ci_low"] <= 0 <= row["ci_high"] and not row["significant"]
    # the pairing does its job for a real change: the planted interval beats two independent batches
    assert (top["ci_high"] - top["ci_low"]) / 2 < top["unpaired_half"]
