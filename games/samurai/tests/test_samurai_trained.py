"""Samurai Sword's trained policy (games/samurai/strategies.py: features; games/samurai/policies/
samurai-5p.json): it can imitate the heuristics exactly, it reads nothing hidden from the seat
(the other roles and hands), the shipped policy seats as ``-s trained`` and plays, and training
moves only the decision types and feature slots it is told to."""
import numpy as np
import pytest
from .conftest import Table, card, many_games

from sim.games import get_game
from sim.runner import simulate
from games.samurai import kernel as K
from games.samurai import layout as L
from sim.core.header import new_ctl
from sim.strategy import trained_player
import games.samurai.strategies as S

SAMURAI = get_game("samurai")


def only(slot: int):
    """Weight 1 on one feature in every decision type, 0 elsewhere."""
    weights = np.zeros((len(L.D), S.N_FEATURES))
    weights[:, slot] = 1.0
    return trained_player(SAMURAI, weights, "imitation")


@many_games(1.0)
@pytest.mark.parametrize("slot, heuristic", [(S.SHREWD_PICK, "shrewd"), (S.LOYAL_PICK, "loyal")])
def test_weight_one_on_a_heuristics_choice_plays_exactly_that_heuristic(slot, heuristic):
    """Slot 1 (0) is "shrewd (loyal) would play this action": with weight 1 and the rest 0 the
    argmax is the heuristic's action at every decision (both keep the same suspicion memory,
    read once per new harm), so the games are identical one by one, at 5 and at 3 players."""
    for n, field in ((5, ["loyal", "shrewd", "random", "loyal", "shrewd"]),
                     (3, ["shrewd", "random", "loyal"])):
        for seat in (0, n - 1):
            ours, theirs = list(field), list(field)
            ours[seat], theirs[seat] = only(slot), heuristic
            a = simulate("samurai", {"n_players": n}, ours, 300, seed=3 + seat).records
            b = simulate("samurai", {"n_players": n}, theirs, 300, seed=3 + seat).records
            assert a.equals(b), (heuristic, n, seat)


def phi_of(t, decision, seat, legal_types, memory):
    legal = np.zeros(L.N_ACTIONS, np.bool_)
    legal[list(legal_types)] = True
    t.pub[L.P.DECISION] = decision
    t.pub[L.P.LEGAL] = sum(1 << a for a in legal_types)
    mine = t.hid[seat].copy()
    mine[L.H.MEMORY:] = memory
    phi = np.zeros((L.N_ACTIONS, S.N_FEATURES + 1))
    S.features(decision, seat, K.Observation(t.pub, mine), legal, np.zeros(1, np.uint64), phi)
    return phi[legal]


def test_the_features_do_not_read_the_other_seats_hidden_roles_or_hands():
    """K.redeal(g, seat) re-randomises everything the seat has not observed (the others' roles
    and hands; test_samurai_hidden): the features of the seat's play, target and reaction
    decisions are the same before and after, bit for bit. (The features read only the
    observation, which the observation-conformance test checks for every kernel.)"""
    t = Table(6, seed=5, ctl=new_ctl())
    seat = 2
    t.set_hand(seat, "Katana", "Bo", "Parry", "Battle Cry", "Breathing", "Geisha")
    for (a, b), harm in {(0, 3): 2, (3, 0): 1, (4, seat): 1, (1, 4): 2}.items():
        t.pub[L.P.HARM + a * L.MAX_SEATS + b] = harm
        t.pub[L.P.ATTACKS + a * L.MAX_SEATS + b] = 1
    t.set(seat, L.S.RESILIENCE, 2)
    memory = t.hid[seat, L.H.MEMORY:].copy()
    plays = [card(c) for c in ("Katana", "Bo", "Battle Cry", "Breathing", "Geisha")] + [L.ACT.END]
    others = [q for q in range(6) if q != seat]

    def all_phi():
        out = [phi_of(t, L.D.PLAY, seat, plays, memory)]
        t.pub[L.P.CTX_CARD] = card("Katana")
        out.append(phi_of(t, L.D.TARGET, seat, others, memory))
        t.pub[L.P.CTX_SEAT], t.pub[L.P.CTX_AMOUNT] = 4, 2
        out.append(phi_of(t, L.D.REACT, seat, [card("Parry"), L.ACT.TAKE], memory))
        return out

    before = all_phi()
    assert any(np.abs(p[:, 2:]).sum() > 0 for p in before)
    hidden_before = t.hid[[q for q in others], :L.H.MEMORY].copy()
    moved = False
    for _ in range(6):
        K.redeal(t.g, seat)
        moved |= not (t.hid[others, :L.H.MEMORY] == hidden_before).all()
        for p, q in zip(before, all_phi()):
            assert (p == q).all()
    assert moved


@many_games(1.0)
def test_the_shipped_policy_seats_as_trained_and_plays():
    """`-s trained` seats the shipped policy of each player count (samurai-Np.json, 3 to 7
    players): it plays whole games (every one decided) and, against a table of random players,
    wins far more often than they do (docs/training.md has the strength tables)."""
    from games.samurai.study import team_share
    from sim.trained import shipped_path

    for n in (3, 4, 5, 6, 7):
        assert shipped_path(SAMURAI, n).name == f"samurai-{n}p.json"
        result = team_share(["trained"] + ["random"] * (n - 1), 400, seed=77)
        assert result["decided"] == 400
        assert result["low"] > result["field"] + 0.05, (n, result)


@many_games(2.0)
def test_training_moves_only_the_chosen_decision_types_and_the_features_they_fill():
    """The recipe trains play, target and the reactions; TRAINABLE leaves out the feature slots
    a type never fills: both keep their start (shrewd's) weights."""
    from analysis.training import train

    result = train("samurai", None, opponents=["shrewd"], generations=1, games=20, population=4,
                   seed=1, decisions=("play", "target"), check_games=20)
    moved = result.weights != S.START_WEIGHTS
    assert moved[L.D.PLAY].any() and moved[L.D.TARGET].any()
    assert not moved[[d for d in range(len(L.D)) if d not in (L.D.PLAY, L.D.TARGET)]].any()
    assert not moved[~S.TRAINABLE].any()
