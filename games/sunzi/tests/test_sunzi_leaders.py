"""Leader powers (SZ-3, SZ-16, SZ-17, OP-9, OP-10): every built-in uses one only where it gains
(games.sunzi.strategies.leader_power), so an optional power never costs its own side."""
import numpy as np
import pytest

import games.sunzi.strategies as S
from analysis import interventions as I
from sim.runner import as_rules
from sim.games import get_game
from games.sunzi import layout as L

WHITE, BLACK = 0, 1


def board(round_=2, tiles=(3, 3, 3), line=True):
    """Five regions in a line, every region's tiles ``tiles``, no armies."""
    pub = np.zeros(L.PUB_SIZE, np.int64)
    pub[L.P.N_REGIONS] = 5
    pub[L.P.ROUND] = round_
    pub[L.P.REGION] = -1
    for r in range(5):
        for j, t in enumerate(tiles):
            pub[L.region_at(r, L.RG.TILE + j)] = t
        if line:
            pub[L.region_at(r, L.RG.ADJ)] = (1 << (r - 1) if r > 0 else 0) | \
                (1 << (r + 1) if r < 4 else 0)
    for seat in (WHITE, BLACK):
        pub[L.seat_at(seat, L.S.SUPPLY)] = 10
    return pub


def armies(pub, r, white, black):
    pub[L.region_at(r, L.RG.ARMIES + WHITE)] = white
    pub[L.region_at(r, L.RG.ARMIES + BLACK)] = black


def legal_of(*actions):
    legal = np.zeros(L.N_ACTIONS, np.bool_)
    legal[list(actions)] = True
    return legal


def ask(decision, seat, pub, power, region=-1, mine=None, legal=None):
    pub[L.P.AUX] = power
    pub[L.P.REGION] = region
    mine = np.zeros(L.HID_SIZE, np.int64) if mine is None else mine
    legal = legal_of(0, 1) if legal is None else legal
    return S.leader_power(decision, seat, pub, mine, legal)


@pytest.mark.parametrize("white, black, use", [(5, 1, 1), (1, 5, 0), (3, 2, 0), (6, 0, 1)])
def test_chu_b_wipes_only_where_it_turns_the_region(white, black, use):
    """SZ-17b, OP-10: Chu's Plague may wipe every army in the region down to one instead of
    halving (OP-4, round half up). White 5 vs Black 1: halved 2-0 (White holds it), wiped 1-1
    (nobody): used. Black 5 vs White 1: halved 0-2, wiped 1-1: kept. 3 vs 2: halved 1-1, wiped
    1-1, and Black keeps one more army halving: kept. 6 vs 0: halved 3-0, wiped 1-0, still
    White's, but two more White armies gone: used."""
    pub = board()
    armies(pub, 2, white, black)
    assert ask(L.D.POWER, BLACK, pub, L.POWER.B, 2) == use


@pytest.mark.parametrize("card, round_, marked, use", [
    (L.CARD.W7, 2, 0, 1), (L.CARD.W10, 2, 0, 0), (L.CARD.W7 + 1, 4, 0, 0),
    (L.CARD.W7, 3, 0, 0), (L.CARD.W7, 2, 1, 0)])
def test_sun_wu_c_plays_only_a_7_as_a_6_for_a_marker_outside_a_scoring_round(card, round_,
                                                                             marked, use):
    """SZ-16c, OP-10: the card fights as a 6 and has the 6's marker power (SZ-15). A 7 gives up
    one army of margin for a marker that no battle removes; an 8-10 gives up more, a scoring
    round's battle decides the tile, and a region already marked gets no second marker."""
    pub = board(round_)
    pub[L.region_at(1, L.RG.SIX_USED + WHITE)] = marked
    mine = np.zeros(L.HID_SIZE, np.int64)
    mine[L.H.PLACED + 1] = card
    assert ask(L.D.POWER, WHITE, pub, L.POWER.C, 1, mine) == use


def test_chu_d_and_sun_wu_b_act_where_one_army_turns_a_region():
    """SZ-17d: one White army off where White leads by 1 (the region is lost to Black's
    scoring otherwise), not where White leads by 5; SZ-16b: Sun Wu's extra army where he is
    tied, not where he leads or trails by 3."""
    pub = board(6, tiles=(1, 3, 1))
    for r in (1, 2, 4):
        armies(pub, r, 0, 3)   # Black's by 3: one army turns nothing
    armies(pub, 0, 6, 1)
    armies(pub, 3, 2, 1)
    everywhere = legal_of(0, 1, 2, 3, 4, L.PASS)
    assert ask(L.D.TARGET, BLACK, pub, L.POWER.D, legal=legal_of(0, 3, L.PASS)) == 3
    armies(pub, 3, 2, 2)
    assert ask(L.D.TARGET, WHITE, pub, L.POWER.B, legal=everywhere) == 3


def test_sun_wu_d_marches_only_when_the_move_gains():
    """SZ-16d: one army from a region led by 3 into the tied region next to it; with every
    lead safe and nothing to turn next door, the power is kept (PASS)."""
    pub = board(6)
    for r in (0, 3, 4):
        armies(pub, r, 0, 3)   # Black's by 3: one army turns nothing
    armies(pub, 1, 4, 1)
    armies(pub, 2, 2, 2)
    movable = legal_of(1, L.PASS)
    assert ask(L.D.TARGET, WHITE, pub, L.POWER.D, legal=movable) == 1
    pub[L.P.AUX] = L.AUX_MARCH_TO
    assert ask(L.D.TARGET, WHITE, pub, L.AUX_MARCH_TO, 1, legal=legal_of(0, 2)) == 2
    armies(pub, 2, 0, 3)
    armies(pub, 1, 2, 1)   # a lead of 1: moving one would tie it, and turn nothing
    assert ask(L.D.TARGET, WHITE, pub, L.POWER.D, legal=movable) == L.PASS


@pytest.mark.timeout(900)
@pytest.mark.parametrize("mode", ["basic", "advanced"])
def test_no_leader_power_costs_its_own_side_at_the_strong_level(mode):
    """Issue 61's target, at a suite's size: each of the eight leaders against no leader for
    its own side (the card table's yardstick), paired at the strong level; no effect of the
    leader on its side's win rate has an upper 95% bound below -1 pp. Before leader_power,
    Sun Wu c cost White 3.7 pp (3.2-4.2) in basic games and more in advanced ones."""
    spec = get_game("sunzi")
    for letter in "abcd":
        rules = as_rules(spec, {"mode": mode, "warlord": True, "leader_white": letter,
                                "leader_black": letter})
        table = I.interventions(spec, rules, "strong", n_games=3000, seed=17, jobs=2,
                                cards=[f"White leader {letter}", f"Black leader {letter}"])
        for row in table.itertuples():
            # the yardstick removes the leader: the leader's worth is minus the effect
            assert -row.ci_low >= -0.01, (mode, row.card, row.effect, row.ci_low, row.ci_high)


def test_the_built_ins_pick_the_leaders_of_the_strong_grids_equilibrium():
    """SZ-3: with leader_*=strategy every built-in draws its leader from LEADER_PICK, the
    equilibrium of the 16 fixed pairings at strong play: in both modes a saddle point, Sun Wu a
    against Chu c (games/sunzi/RULES.md, "Leader picks"). Each row is a distribution."""
    assert np.allclose(S.LEADER_PICK.sum(axis=2), 1.0) and (S.LEADER_PICK >= 0).all()
    legal = legal_of(0, 1, 2, 3)
    for advanced in (0, 1):
        pub = board()
        pub[L.P.ADVANCED] = advanced
        for seed in range(20):
            rng = np.array([seed], np.uint64)
            assert S.leader_pick(WHITE, pub, legal, rng) == 0
            assert S.leader_pick(BLACK, pub, legal, rng) == 2
    # and in play: every built-in that picks, picks them (the kernel logs each side's leader)
    from sim.runner import play_one
    for name in ("counter", "banker", "tempo"):
        for seed in range(3):
            _, events, _ = play_one("sunzi", {"warlord": True}, name, seed)
            picked = {e[2]: e[3] for e in events if e[0] == L.EV.LEADER}
            assert picked == {WHITE: 0, BLACK: 2}, (name, picked)
