"""Issue 17: Shuo Jian's cards for the interventional card table (games/shuojian/study/cards.py).

Rule ids: OP-1 (the card counts), SJ-8..SJ-12 (finishing blows and dodges), SJ-4 (number cards),
SJ-6 / OP-2 (printed conditions and the condition table), OP-3 (a 0 carries no condition, the
neutral card), SJ-3 (the first player is drawn at random).
"""
import importlib

import numpy as np
import pytest

from analysis.interventions import NEUTRAL, REMOVE, UP, DOWN, declared_cards, interventions, levels
import games.shuojian.study as study
from analysis.workbench.metrics import per_game
from sim.runner import simulate
from games.shuojian import layout as L
from games.shuojian.rules import SPECIAL_OPTIONS, ShuoJianRules

# the module (the package's ``cards`` is the function it re-exports)
SJC = importlib.import_module("games.shuojian.study.cards")
TABLES = ["default", "any", "harsh", "random:2026"]   # OP-2


def copies(rules):
    types = rules.compiled["types"]
    return {label: int(types[t, L.TY.COPIES]) for t, label in enumerate(rules.card_labels())}


@pytest.mark.parametrize("table", TABLES)
def test_every_intervention_is_accepted_and_changes_the_variant(table):
    base = ShuoJianRules.from_options({"conditions": table})
    cards = declared_cards("shuojian", base)
    names = {c.name for c in cards}
    assert {"Dodge left", "Dodge right", "Slash", "Thrust", "Counter-kill"} <= names   # OP-1
    assert {f"V{v}" for v in range(1, 10)} | {f"H{v}" for v in range(1, 10)} | {"0"} <= names
    conditions = [c for c in cards if c.kind.startswith("condition")]
    assert len(conditions) == len(base.condition_names())                           # SJ-6
    for card in cards:
        assert card.interventions, card.name
        for label in card.interventions:
            changed = card.changed(label, base)
            assert changed != base, (card.name, label)
            before, after = base.kernel_args(), changed.kernel_args()
            assert any(not np.array_equal(a, b) for a, b in zip(before, after)), (card.name, label)


def test_op1_remove_and_neutral_change_one_copy():
    base = ShuoJianRules()
    slash = next(c for c in declared_cards("shuojian", base) if c.name == "Slash")
    removed, neutral = slash.changed(REMOVE, base), slash.changed(NEUTRAL, base)
    assert removed.slashes == neutral.slashes == base.slashes - 1
    assert removed.compiled["n_cards"] == base.compiled["n_cards"] - 1
    assert neutral.compiled["n_cards"] == base.compiled["n_cards"]                 # a 0 in its place
    assert copies(neutral)["0"] == copies(base)["0"] + 1                           # OP-3
    v2 = next(c for c in declared_cards("shuojian", base) if c.name == "V2")
    up, down = v2.changed(UP, base), v2.changed(DOWN, base)
    count = lambda r, lab: sum(n for k, n in copies(r).items() if k.partition(":")[0] == lab)
    assert count(up, "V2") == count(base, "V2") - 1 and count(up, "V3") == count(base, "V3") + 1
    assert count(down, "V1") == count(base, "V1") + 1


def test_sj6_looseness_moves_every_copy_one_step_on_the_same_deals():
    base = ShuoJianRules()
    odd = next(c for c in declared_cards("shuojian", base) if c.name == "condition odd")
    looser, harsher = odd.changed(UP, base), odd.changed(DOWN, base)
    assert "odd" not in looser.condition_names() and "composite" in looser.condition_names()
    assert "odd" not in harsher.condition_names() and "even" in harsher.condition_names()
    assert SJC.looser(SJC.C.condition("any"), +1) is None                          # loosest
    old = simulate("shuojian", base, "random", 200, 4, progress=False).records
    new = simulate("shuojian", looser, "random", 200, 4, progress=False).records
    for seat in (0, 1):  # the same composition: the same shuffle, the same opening hands
        for key in ("v", "h", "x"):
            assert (old[f"opening_{key}_{seat}"] == new[f"opening_{key}_{seat}"]).all()
    assert (old["replies"] != new["replies"]).any()                                # games differ


def test_first_player_metrics():
    records = simulate("shuojian", None, "random", 300, 2, progress=False).records
    values = per_game(records, "shuojian", 2)
    assert np.array_equal(values["first_player_win"], study.first_player_share(records))
    second = np.where(records["first"] == 0, records["win_1"], records["win_0"])
    assert np.allclose(values["first_player_advantage"], values["first_player_win"] - second)
    assert study.STUDY.edge == "first_player_advantage" and levels("shuojian")["heuristic"] == "counter"


def test_a_small_table_has_finite_effects():
    table = interventions("shuojian", None, level="heuristic",
                          cards=["Dodge left", "Slash", "V5", "condition odd"], n_games=300,
                          precision=None, seed=3)
    assert len(table) == 9 and (table["status"] == "ok").all()
    assert np.isfinite(table[["effect", "ci_low", "ci_high", "p", "q", "oh_gain", "iwd"]]
                       .to_numpy(float)).all()
