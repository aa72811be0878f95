"""Invariants of Parthian Shot over many random games (mixed built-in strategies, 3-6 players).

Two views: a small jitted driver that replays the kernel's round loop and checks the state after
every round, and the per-game records that the real engine (sim.runner.simulate) writes.
"""
import numpy as np
import pytest
from numba import njit

from sim import core
from sim.core.state import E_SET, ERROR, KIND, RANDOM, seat_at
from games.parthian import kernel as K
from games.parthian.layout import END, G, I, N_ACTIONS, N_LEGIONS, P, R, SHOTS
from games.parthian.rules import ParthianRules
from sim.rng import rand_below, seed_game
from sim.runner import kernel_state, simulate
from games.parthian.strategies import CAUTIOUS, GLORY, LOWBALL

ALL = (1 << SHOTS) - 1
# Failure codes of the driver (0 = every check passed).
FAILURES = {
    1: "a shooting card is both in hand and in front, or in neither",
    2: "FRONT_SUM is not the sum of the cards in front",
    3: "negative charge cards in hand",
    4: "charges + wounds + charges played != starting charges",
    5: "a routed player still holds a charge card",
    6: "a player still in the game has fewer than 2 shooting cards in hand (PS-14)",
    7: "defeated + left in deck != 7",
    8: "merits + unclaimed != legions defeated",
    9: "game not over after 7 + charges x N rounds",
    10: "a player has no legal action",
    11: "a built-in strategy chose an illegal action",
    12: "a routed player is among the winners",
    13: "victory without all 7 legions defeated",
    14: "defeat without a routed player, or no-survivor with a survivor",
    15: "victory or defeat (shared ties) without a winner",
}


@njit
def check_state(rules, pl, gs):
    n = pl.shape[0]
    merits = 0
    for p in range(n):
        hand, front = pl[p, P.HAND], pl[p, P.FRONT]
        if hand & front != 0 or hand | front != ALL:
            return 1
        total, in_hand = 0, 0
        for v in range(SHOTS):
            total += (v + 1) * ((front >> v) & 1)
            in_hand += (hand >> v) & 1
        if total != pl[p, P.FRONT_SUM]:
            return 2
        if pl[p, P.CHARGES] < 0:
            return 3
        if pl[p, P.CHARGES] + pl[p, P.WOUNDS] + pl[p, P.CHARGES_PLAYED] != rules[R.CHARGES]:
            return 4
        if pl[p, P.ROUTED] == 1 and pl[p, P.CHARGES] != 0:
            return 5
        if gs[G.END] < 0 and in_hand < 2:
            return 6
        merits += pl[p, P.MERITS]
    if gs[G.DEFEATED] + gs[G.LEFT] != N_LEGIONS:
        return 7
    if merits + gs[G.UNCLAIMED] != gs[G.DEFEATED]:
        return 8
    return 0


@njit
def check_end(rules, pl, gs, share_ties):
    n = pl.shape[0]
    end = gs[G.END]
    mask = K.winners(rules, pl, end)
    routed = 0
    for p in range(n):
        if pl[p, P.ROUTED] == 1:
            routed += 1
            if (mask >> p) & 1:
                return 12
    if end == END.VICTORY and gs[G.DEFEATED] != N_LEGIONS:
        return 13
    if (end == END.DEFEAT and not 0 < routed < n) or (end == END.NO_SURVIVOR and routed != n):
        return 14
    if share_ties and (end == END.VICTORY or end == END.DEFEAT) and mask == 0:
        return 15
    return 0


@njit
def drive(g, kinds_pool, key, n_games, share_ties, ends, failure):
    """Play n_games with random strategy kinds per seat through the engine's ask, checking the
    state after every round; stop at the first broken invariant.

    failure = (game, round, code); ends counts games per end reason.
    """
    rules, pl, gs, info, deck = g.rules, g.pl, g.gs, g.info, g.deck
    c = g.core
    n = rules[R.PLAYERS]
    max_rounds = N_LEGIONS + n * rules[R.CHARGES]
    for game in range(n_games):
        seed_game(key, game, c.streams)
        for p in range(n):
            c.ints[seat_at(p, KIND)] = kinds_pool[rand_below(c.streams, 0, kinds_pool.shape[0])]
            c.params[p, 0] = rand_below(c.streams, 0, 2)  # cautious margin / glory prudence
        K.setup(g)
        while gs[G.END] < 0:
            if gs[G.ROUND] == max_rounds:
                failure[0], failure[1], failure[2] = game, gs[G.ROUND], 9
                return
            gs[G.ROUND] += 1
            info[I.ROUND] = gs[G.ROUND]
            info[I.LEGION] = deck[gs[G.HEAD]]
            info[I.DECK_LEFT] = gs[G.LEFT]
            for p in range(n):
                K.legal_actions(g, p)
                if not c.legal.any():
                    failure[0], failure[1], failure[2] = game, gs[G.ROUND], 10
                    return
                g.actions[p] = core.ask(g, 0, p, N_ACTIONS)
                if c.ints[ERROR + E_SET] == 1:
                    failure[0], failure[1], failure[2] = game, gs[G.ROUND], 11
                    return
            K.resolve_round(g)
            code = check_state(rules, pl, gs)
            if code != 0:
                failure[0], failure[1], failure[2] = game, gs[G.ROUND], code
                return
        code = check_end(rules, pl, gs, share_ties)
        if code != 0:
            failure[0], failure[1], failure[2] = game, gs[G.ROUND], code
            return
        ends[gs[G.END]] += 1


VARIANTS = [
    {},
    {"merit_ties": "any", "charger_spares_all": False, "final_ties": "nobody"},
    {"charger_spares_all": False, "charges": 3},
    {"merit_ties": "any", "final_ties": "nobody", "charge_threshold": 6},
]


# 5,000 games per case: about 10 s warm (the driver compiles), 26 s with a cold Numba cache on
# the 2-core machine; a hang must fail, not stall the run (issue 21)
@pytest.mark.timeout(300)
@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: ",".join(o) or "default")
@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_invariants_hold_after_every_round(n, options):
    rules = ParthianRules(n_players=n, **options)
    g = kernel_state("parthian", rules, seed=100 + n)
    pool = np.array([RANDOM, CAUTIOUS, GLORY, LOWBALL], np.int64)
    ends = np.zeros(4, np.int64)
    failure = np.full(3, -1, np.int64)
    n_games = 5000
    drive(g, pool, np.uint64(1234 + n), n_games, rules.final_ties == "share", ends, failure)
    game, rnd, code = failure
    assert code == -1, f"game {game}, round {rnd}: {FAILURES[int(code)]}"
    assert ends.sum() == n_games and ends[3] == 0  # never the round cap
    assert ends[END.VICTORY] > 0 and ends[END.DEFEAT] > 0  # both endings were exercised


MIXES = [["random", "cautious", "glory", "lowball"], ["glory", "lowball", "random", "cautious"]]


# 3,000 games per case: under 1 s warm, 94 s for the case that compiles the kernels cold
@pytest.mark.timeout(300)
@pytest.mark.parametrize("mix", [0, 1])
@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_records_of_the_engine_are_consistent(n, mix):
    seats = (MIXES[mix] * 2)[:n]
    df = simulate("parthian", {"n_players": n}, seats, n_games=3000, seed=n * 10 + mix).records
    assert (df["end_reason"] != "round_cap").all()
    assert (df["rounds"] <= 7 + 2 * n).all()
    assert (df["rounds"] == df["legions_defeated"] + df["breakthroughs"]).all()
    wins = df[[f"win_{p}" for p in range(n)]].sum(axis=1)
    decided = df["end_reason"].isin(["victory", "defeat"])
    assert np.allclose(wins[decided], 1.0)
    assert (wins[df["end_reason"] == "defeat_no_survivor"] == 0).all()
    assert ((df["legions_defeated"] == 7) == (df["end_reason"] == "victory")).all()
    merits = sum(df[f"merits_{p}"] for p in range(n))
    assert (merits + df["merits_unclaimed"] == df["legions_defeated"]).all()
    for p in range(n):
        in_hand = df[f"score_{p}"] - df[f"merits_{p}"]
        assert (in_hand >= 0).all()
        assert (in_hand + df[f"wounds_{p}"] + df[f"charges_played_{p}"] == 2).all()
        routed = df[f"routed_{p}"] == 1
        assert (df.loc[routed, f"win_{p}"] == 0).all()
        assert (in_hand[routed] == 0).all()
    assert set(df["end_reason"]) >= {"victory", "defeat"}
