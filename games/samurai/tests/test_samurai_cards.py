"""Samurai Sword's interventional card table (games/samurai/study/cards.py): every declared
intervention is a rule variant the rules accept and that changes the game (OP-2 card counts,
SS-10 weapon stats, SS-3 characters, SS-2 / SS-19 roles), it does what its label says, and a
small table runs."""
import numpy as np
import pytest

from analysis.evidence import MIN_GAMES
from analysis.interventions import DOWN, NEUTRAL, REMOVE, UP, YARDSTICK, interventions
from games.samurai import study as samurai
from games.samurai.study.cards import NEUTRAL_CARDS, cards
from analysis.workbench.metrics import per_game
from sim.runner import simulate
from games.samurai import layout as L
from games.samurai.rules import PLAYER_COUNTS, SamuraiRules


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_every_intervention_is_a_valid_changed_variant(n):
    """SS-1: at every player count each intervention is accepted (rules validation runs in
    the constructor) and changes what the kernel is given."""
    base = SamuraiRules(n_players=n)
    args = [np.asarray(a).tolist() for a in base.kernel_args()]
    declared = cards(base)
    assert len({c.name for c in declared}) == len(declared)
    for card in declared:
        assert card.interventions, card.name
        for label in card.interventions:
            changed = card.changed(label, base)
            assert isinstance(changed, SamuraiRules) and changed.n_players == n
            assert [np.asarray(a).tolist() for a in changed.kernel_args()] != args, (card.name, label)


def test_card_types_weapons_characters_and_roles_are_declared():
    """OP-2: the 25 play cards; SS-10: 13 weapons x damage / difficulty; SS-3: 12 characters;
    SS-1 at 5 players: Shogun, Samurai, Ninja, Ronin."""
    names = {c.name: c for c in cards(SamuraiRules())}
    assert all(name in names for name in L.CARD_NAMES)
    assert all(f"{w} {s}" in names for w in L.CARD_NAMES[:L.N_WEAPONS]
               for s in ("damage", "difficulty"))
    assert all(names[c].interventions.keys() == {YARDSTICK}
               for c in L.CHARACTER_NAMES[:L.N_PRINTED_CHARACTERS])
    assert {"Shogun honour", "Samurai honour", "Ninja honour", "Ronin multiplier"} <= names.keys()
    assert "Ronin honour" not in {c.name for c in cards(SamuraiRules(n_players=3))}
    # no -1 below the rules' minimum of 1 (SS-10): Bokken is 1/1
    assert names["Bokken damage"].interventions.keys() == {UP}
    assert NEUTRAL not in names["Bokken"].interventions


def test_interventions_do_what_they_say():
    """OP-2: remove one = one copy fewer, the deck one card smaller; neutral = the same deck
    size with one copy moved to the kind's neutral card. SS-10: damage +1 reaches the kernel's
    card table. SS-3: the yardstick seats Plain4 / Plain5 at seat 0. SS-2: honour +1."""
    base = SamuraiRules()
    names = {c.name: c for c in cards(base)}
    r0, c0, _, _ = base.kernel_args()
    parry, katana = L.CARD_NAMES.index("Parry"), L.CARD_NAMES.index("Katana")
    r1, c1, _, _ = names["Parry"].changed(REMOVE, base).kernel_args()
    assert c1[parry, L.CT.COUNT] == c0[parry, L.CT.COUNT] - 1
    assert r1[L.R.DECK_SIZE] == r0[L.R.DECK_SIZE] - 1 == 89
    r2, c2, _, _ = names["Parry"].changed(NEUTRAL, base).kernel_args()
    breathing = L.CARD_NAMES.index(NEUTRAL_CARDS["action"])
    assert r2[L.R.DECK_SIZE] == r0[L.R.DECK_SIZE] == 90
    assert c2[parry, 0] == c0[parry, 0] - 1 and c2[breathing, 0] == c0[breathing, 0] + 1
    _, c3, _, _ = names["Katana damage"].changed(UP, base).kernel_args()
    assert c3[katana, L.CT.DAMAGE] == c0[katana, L.CT.DAMAGE] + 1 == 4
    assert c3[katana, L.CT.DIFFICULTY] == c0[katana, L.CT.DIFFICULTY]
    # changes combine (the interactions table plays several at once)
    both = names["Katana difficulty"].changed(DOWN, names["Katana damage"].changed(UP, base))
    assert both.card_matrix()[katana, 1:].tolist() == [1, 4]
    r4 = names["Benkei"].changed(YARDSTICK, base).kernel_args()[0]
    assert r4[L.R.CHARACTER] == L.CH.PLAIN5 and not r4[L.R.POOL] >> L.CH.BENKEI & 1
    assert names["Ginchiyo"].changed(YARDSTICK, base).kernel_args()[0][L.R.CHARACTER] == L.CH.PLAIN4
    honour = names["Ninja honour"].changed(UP, base).role_rows()["ninja"]["honour"]
    assert honour == base.role_rows()["ninja"]["honour"] + 1


def test_a_removed_single_copy_card_is_never_dealt():
    """OP-2: the Katana has one copy; removed, no seat ever holds one (seeded games)."""
    katana = next(c for c in cards(SamuraiRules()) if c.name == "Katana")
    records = simulate("samurai", katana.changed(REMOVE, SamuraiRules()), "random", 200, seed=3,
                       progress=False).records
    held = np.concatenate([records[f"held_w_{s}"].to_numpy() for s in range(5)])
    assert not (held >> L.CARD.KATANA & 1).any()
    base = simulate("samurai", {}, "random", 200, seed=3, progress=False).records
    assert (base["held_w_0"].to_numpy() >> L.CARD.KATANA & 1).any()


def test_game_metrics_teams_and_seat0_characters():
    """SS-19: every decided game has exactly one winning team; the seat-0 character metric is
    defined only where seat 0 holds that character (or a yardstick)."""
    records = simulate("samurai", {}, "random", 200, seed=5, progress=False).records
    values = per_game(records, "samurai", 5)
    teams = values["team_shogun"] + values["team_ninja"] + values["team_ronin"]
    assert np.array_equal(teams, (records["winning_team"] >= 0).to_numpy(float))
    benkei = values["seat0_benkei"]
    assert np.array_equal(~np.isnan(benkei), (records["character_0"] == L.CH.BENKEI).to_numpy())
    assert samurai.EDGE in values


def test_small_table_has_finite_effects():
    """A few cards of each family, 300 games per version, random play."""
    table = interventions("samurai", {}, "random", cards=["Katana", "Katana damage", "Parry",
                                                          "Shogun honour", "Kojiro"],
                          n_games=300, precision=None, seed=11)
    assert (table["status"] == "ok").all() and np.isfinite(table["effect"]).all()
    # a character is dealt to few seats in 300 games: under MIN_GAMES paired games an effect
    # gets no interval and no q (analysis.evidence), every other effect gets both
    measured = table["n"] >= MIN_GAMES
    assert measured.sum() >= 8 and not measured.all()
    assert np.isfinite(table.loc[measured, "ci_low"]).all() and table.loc[measured, "q"].notna().all()
    assert table.loc[~measured, "ci_low"].isna().all() and table.loc[~measured, "q"].isna().all()
    held = table[table["card"] == "Katana"]
    assert np.isfinite(held["oh_gain"]).all() and np.isfinite(held["iwd"]).all()
