"""The observation contract (sim/game.py) for Goofspiel: what a seat is handed depends only on
what it may know (GS-3 simultaneous bids, GS-2 hidden prize order, GS-9 hidden bids).

tests/engine/test_observation.py checks every game the same way; these are Goofspiel's own
cases: the pending bid of an earlier seat, the prize order, and the imp_info bid history.
"""
import numpy as np
import pytest

from sim.core import header as control
from games.goofspiel import layout as L
from sim.runner import play_one

VARIANTS = [{"num_cards": 6}, {"num_cards": 6, "players": 3},
            {"num_cards": 7, "imp_info": True}, {"num_cards": 6, "players": 3, "imp_info": True},
            {"num_cards": 5, "points_order": "descending"}]
IDS = ["2p", "3p", "imp_info", "imp_info_3p", "descending"]


def traced(options, seats, game_index, **ctl_options):
    ctl = control.new_ctl(trace_rows=64, **ctl_options)
    record, events, _ = play_one("goofspiel", options, seats, seed=21, game_index=game_index, ctl=ctl)
    return control.trace_of(ctl).copy(), record, events


@pytest.mark.parametrize("options", VARIANTS, ids=IDS)
def test_a_redeal_never_changes_what_the_deciding_seat_is_handed(options):
    """Redealing everything seat s has not observed, right before its decision, leaves the
    arrays handed to its strategy (hashed by the controller) exactly as they were."""
    n = options.get("players", 2)
    seats = ["random", "match", "greedy"][:n]
    changed_futures = 0
    for g in range(12):
        trace, record, _ = traced(options, seats, g)
        for k in range(0, len(trace), 3):
            for ctl_seed in (1, 2):
                redealt, other_record, _ = traced(options, seats, g, redeal_at=k, seed=ctl_seed)
                assert redealt[k, control.T_SEAT] == trace[k, control.T_SEAT]
                assert redealt[k, control.T_OBS_HASH] == trace[k, control.T_OBS_HASH]
                changed_futures += other_record != record
                points = [other_record[f"points_{p}"] for p in range(n)]
                if options["num_cards"] == other_record["turns"]:
                    total = options["num_cards"] * (options["num_cards"] + 1) // 2
                    assert sum(points) + other_record["points_discarded"] == total
    assert changed_futures > 0  # the redeal does re-randomise something


@pytest.mark.parametrize("options", VARIANTS, ids=IDS)
def test_another_seats_pending_bid_is_invisible(options):
    """GS-3: changing the bid an earlier seat made this turn leaves the next seat's handed
    arrays unchanged (bids are simultaneous)."""
    n = options.get("players", 2)
    seats = ["random"] * n
    checked = 0
    for g in range(12):
        trace, _, _ = traced(options, seats, g)
        for k in range(len(trace) - 1):
            same_turn = trace[k + 1, control.T_EVENTS] == trace[k, control.T_EVENTS] + 1
            if not same_turn:  # only the bid event lies between two asks of one turn
                continue
            perturbed, _, _ = traced(options, seats, g, perturb_at=k, seed=5)
            assert perturbed[k, control.T_ACTION] != trace[k, control.T_ACTION]
            assert perturbed[k + 1, control.T_OBS_HASH] == trace[k + 1, control.T_OBS_HASH]
            checked += 1
    assert checked > 10


def test_imp_info_keeps_earlier_bids_hidden_after_the_turn():
    """GS-9: under imp_info, a different earlier bid that leaves the turn's taker the same
    leaves the other seat's later observations unchanged; with bids revealed it does not."""
    base = {"num_cards": 8, "prize_order": (8, 7, 6, 5, 4, 3, 2, 1)}
    from games.goofspiel.strategies import script

    def hashes(imp_info, first_bid):
        seats = [script([first_bid, 1, 2, 3, 4, 5, 6]), script([1, 2, 3, 4, 5, 6, 7])]
        trace, _, _ = traced({**base, "imp_info": imp_info}, seats, 0)
        return [row[control.T_OBS_HASH] for row in trace if row[control.T_SEAT] == 1]

    # seat 0 bids 8 or 7 on turn 1; seat 1 bids 1: seat 0 takes the prize either way
    assert hashes(True, 8)[1:] == hashes(True, 7)[1:]
    assert hashes(False, 8)[1:] != hashes(False, 7)[1:]


def test_same_seed_and_decisions_replay_the_same_game():
    """Replayable: the same seed and the same decisions give the same events and trace."""
    first = traced({"num_cards": 9}, ["random", "greedy"], 4)
    second = traced({"num_cards": 9}, ["random", "greedy"], 4)
    assert np.array_equal(first[0], second[0]) and np.array_equal(first[2], second[2])


def test_events_have_a_declared_visibility():
    assert max(L.EV) < len(L.EVENT_VISIBILITY)


@pytest.mark.parametrize("players", [2, 3])
def test_imp_info_resampled_histories_keep_every_turns_taker(players):
    """GS-9 redeal: the other seats' bid histories are drawn again so that every finished turn
    has the same taker (or tie) as the seat saw; the seat's own bids stay; hands follow."""
    from games.goofspiel import kernel as K
    from games.goofspiel.rules import GoofspielRules

    n_cards, done, p = 9, 6, 1
    rules, _ = GoofspielRules(num_cards=n_cards, players=players, imp_info=True).kernel_args()
    rng = np.random.default_rng(4)
    history = np.zeros((n_cards, players), np.int64)
    for q in range(players):
        history[:, q] = rng.permutation(n_cards)
    wins = np.array([_taker(history[s]) for s in range(n_cards)], np.int64)
    pl = np.zeros((players, L.N_FIELDS), np.int64)
    ctl = control.new_ctl(trace_rows=1, seed=3)
    truth = history.copy()
    differs = 0
    for _ in range(20):
        K.resample_bid_history(rules, pl, history, np.zeros_like(history), wins,
                               np.zeros(players, np.int64), ctl, p, done)
        assert [_taker(history[s]) for s in range(done)] == list(wins[:done])
        assert np.array_equal(history[:done, p], truth[:done, p])
        for q in range(players):
            if q != p:
                assert len(set(history[:done, q])) == done
                played = sum(1 << int(b) for b in history[:done, q])
                assert pl[q, L.P.HAND] == ((1 << n_cards) - 1) & ~played
        differs += not np.array_equal(history[:done], truth[:done])
    assert differs > 10


def _taker(bids) -> int:
    top = bids.max()
    return int(np.argmax(bids)) if (bids == top).sum() == 1 else -1
