"""Issue 17: Sunzi's cards for the interventional card table (games/sunzi/study/cards.py).

Rule ids: SZ-3, SZ-16, SZ-17 (leaders; ``none`` = the leader-less yardstick), SZ-6 (each side's
deck; option ``removed``), SZ-4 / OP-2 (scoring tiles), SZ-1 / SZ-2 (armies), OP-12 (a draw is
half a win). (games/sunzi/tests/test_sunzi_cards.py is the SZ-11 special-card table.)
"""
import numpy as np
import pytest

from analysis.interventions import (NEUTRAL, REMOVE, UP, YARDSTICK, Card, declared_cards, levels,
                                    interventions)
import games.sunzi.study as study
from analysis.workbench.metrics import per_game
from sim.errors import RulesError
from sim.runner import simulate
from games.sunzi import layout as L
from games.sunzi.rules import PUBLISHED_TILES, SunziRules

MODES = [{"mode": "basic"}, {"mode": "advanced"}, {"mode": "basic", "warlord": True},
         {"mode": "advanced", "warlord": True},
         {"mode": "basic", "warlord": True, "leader_white": "c", "leader_black": "d"}]


def bits(records, column, bit):
    return (records[column].to_numpy(np.int64) >> bit) & 1


@pytest.mark.parametrize("options", MODES, ids=lambda o: "-".join(map(str, o.values())))
def test_every_intervention_is_accepted_and_changes_the_variant(options):
    base = SunziRules.from_options(options)
    cards = declared_cards("sunzi", base)
    labels = {card.name: set(card.interventions) for card in cards}
    deck = {"7", "8", "9", "10", "+1", "-1", "Plague"} | (
        {"+2", "+3"} if options["mode"] == "advanced" else set())
    assert deck <= set(labels) and all(labels[c] == {REMOVE} for c in deck)          # SZ-6
    assert sum(c.kind == "tile" for c in cards) == len(PUBLISHED_TILES)               # SZ-4
    leaders = [c for c in cards if c.kind.startswith("leader")]
    assert len(leaders) == (2 if options.get("warlord") else 0)                       # SZ-3
    assert all(set(c.interventions) == {YARDSTICK} for c in leaders)
    for card in cards:
        for label in card.interventions:
            changed = card.changed(label, base)
            assert changed != base, (card.name, label)
            before, after = base.kernel_args(), changed.kernel_args()
            assert any(not np.array_equal(a, b) for a, b in zip(before, after)), (card.name, label)


def test_sz6_a_removed_card_is_never_dealt_nor_drawn():
    base = SunziRules.from_options({"mode": "advanced"})
    card = next(c for c in declared_cards("sunzi", base) if c.name == "Plague")
    bit = card.held[1]
    old = simulate("sunzi", base, "random", 200, 7, progress=False).records
    new = simulate("sunzi", card.changed(REMOVE, base), "random", 200, 7, progress=False).records
    for seat in (0, 1):
        assert bits(old, f"drawn_{seat}", bit).any()
        assert not bits(new, f"drawn_{seat}", bit).any()
        assert not bits(new, f"opening_{seat}", bit).any()
        # SZ-6: an opening hand still has 4 deck cards
        assert all(bin(m).count("1") == 4 for m in new[f"opening_{seat}"].astype(int))


def test_sz3_the_yardstick_plays_one_side_without_a_leader():
    base = SunziRules.from_options({"mode": "basic", "warlord": True, "leader_white": "a",
                                    "leader_black": "b"})
    white = next(c for c in declared_cards("sunzi", base) if c.name == "White leader a")
    assert white.owner == "win_white"
    records = simulate("sunzi", white.changed(YARDSTICK, base), "counter", 200, 3,
                       progress=False).records
    assert (records["leader_0"] == -1).all() and (records["leader_round_0"] == -1).all()
    assert (records["leader_1"] == 1).all() and (records["leader_round_1"] >= 0).any()


def test_rules_refuse_what_the_deck_cannot_hold():
    with pytest.raises(RulesError):  # +2 is an advanced card (SZ-1)
        SunziRules.from_options({"mode": "basic", "removed": ("+2",)})
    with pytest.raises(RulesError):  # fewer than the 4 cards of an opening hand (SZ-6)
        SunziRules.from_options({"mode": "basic", "removed": ("7", "8", "9", "10")})
    with pytest.raises(RulesError):  # a leader-less side with the leader card in its deck (OP-9)
        SunziRules.from_options({"warlord": True, "leader_white": "none", "leader_card": "deck"})
    base = SunziRules()
    tile = next(c for c in declared_cards("sunzi", base) if c.name.startswith("tile 0"))
    assert tile.changed(UP, base).tile_set()[0] == tuple(v + 1 for v in PUBLISHED_TILES[0])


def test_side_metrics_read_white_on_seat_0():
    records = simulate("sunzi", None, "random", 300, 1, progress=False).records
    values = per_game(records, "sunzi", 2)
    assert np.array_equal(values["win_white"], records["win_0"].to_numpy(float))
    assert np.array_equal(values["win_black"], records["win_1"].to_numpy(float))
    assert np.allclose(values["white_edge"], values["win_white"] - values["win_black"])
    assert study.STUDY.edge == "white_edge" and levels("sunzi")["heuristic"] == "counter"


def test_a_small_table_has_finite_effects():
    table = interventions("sunzi", {"mode": "advanced", "warlord": True}, level="random",
                          cards=["7", "Plague", "White leader (strategy's pick)",
                                 "tile 0 (1-2-4)"], n_games=300, precision=None, seed=5)
    assert len(table) == 5 and (table["status"] == "ok").all()
    assert np.isfinite(table[["effect", "ci_low", "ci_high", "p", "q"]].to_numpy(float)).all()
    assert np.isfinite(table.loc[table["card"] == "7", "oh_gain"]).all()   # observational beside


def test_a_planted_effect_comes_out_on_top_and_a_null_change_stays_null():
    """Issue 17's "Done when": White's weakest leader (c under counter play, SZ-16c) swapped for
    its strongest (a, SZ-16a: an outpost marker at game start) must top the table with an
    interval above zero; reordering the tile set, which is shuffled beside the regions anyway
    (SZ-4), changes every game's tiles but cannot matter on average, and must stay null."""
    base = {"mode": "basic", "warlord": True, "leader_white": "c", "leader_black": "a"}
    planted = Card("White leader c -> a", "leader", {UP: {"leader_white": "a"}},
                   owner="win_white")
    null = Card("tiles reordered", "tile", {NEUTRAL: {"tiles": tuple(reversed(PUBLISHED_TILES))}},
                owner="win_white")
    real = declared_cards("sunzi", base, ["7", "Plague", "Black leader a"])
    table = interventions("sunzi", base, level="heuristic", cards=[planted, null, *real],
                          n_games=500, precision=None, seed=11).set_index("card")
    top = table["effect"].abs().idxmax()
    assert top == planted.name
    assert table.loc[top, "ci_low"] > 0.05 and table.loc[top, "significant"]
    assert table.loc[null.name, "ci_low"] < 0 < table.loc[null.name, "ci_high"]
    assert not table.loc[null.name, "significant"]
    assert np.isfinite(table.loc[null.name, "corr"])  # a real change: the games differ


def test_leader_powers_numbers_are_tunable_and_default_to_the_printed_one():
    """SZ-16b (one extra army), SZ-16d (one army moved), SZ-17d (one army removed), SZ-16a (one
    marker), SZ-17b (a Plague down to one): leader_amounts moves each number. The printed 1s
    play the very same games as the default; a Sun Wu b that places five armies wins White
    more games on the same deals."""
    import numpy as np

    from sim.errors import RulesError
    from sim.runner import simulate

    base = {"warlord": True, "leader_white": "b", "leader_black": "a"}
    printed = simulate("sunzi", {**base, "leader_amounts": "1,1,1,1,1"}, "counter", 1500, seed=3)
    default = simulate("sunzi", base, "counter", 1500, seed=3)
    assert printed.records.equals(default.records)
    stronger = simulate("sunzi", {**base, "leader_amounts": "1,5,1,1,1"}, "counter", 1500, seed=3)
    gain = stronger.records["win_0"].to_numpy(float) - default.records["win_0"].to_numpy(float)
    assert gain.mean() - 2.6 * gain.std(ddof=1) / np.sqrt(gain.size) > 0
    with pytest.raises(RulesError, match="leader_amounts"):
        simulate("sunzi", {**base, "leader_amounts": "1,1"}, "counter", 10)
