"""Parthian Shot rules as Numba kernels (rule ids PS-n refer to shared/rules/parthian_shot.md).

State is small integer arrays whose fields are named in layout.py. Nothing here allocates per
game: play_chunk allocates the scratch arrays once and reuses them for every game.
"""
import numpy as np
from numba import njit

from strategies.parthian import builtin_decide

from .. import control
from ..game import RECORD_END, RECORD_LENGTH, RECORD_WINNERS, USER_KIND_BASE
from ..rng import choose_legal, seat_stream, seed_game, shuffle, stream_count
from .layout import (BEST_MERIT, C_BREAKTHROUGHS, C_DEFEATED, C_SEAT0, C_UNCLAIMED, CHARGE,
                     CHARGES, CHARGES_PLAYED, END_CAP, END_DEFEAT, END_NO_SURVIVOR, END_VICTORY,
                     EV_BREAKTHROUGH, EV_DAMAGE, EV_DEFEATED, EV_END, EV_LEGION, EV_PLAY,
                     EV_RESUPPLY, EV_SCORE, FRONT, FRONT_SUM, G_BREAKTHROUGHS, G_DEFEATED, G_END,
                     G_HEAD, G_LEFT, G_ROUND, G_UNCLAIMED, G_UNSEEN, HAND, I_DECK_LEFT, I_LEGION, I_LEGIONS,
                     I_N_PLAYERS, I_ROUND, I_THRESHOLD, INFO_SIZE, LOG_WIDTH, MERITS, N_ACTIONS, N_CHANCE,
                     N_DECISIONS,
                     N_FIELDS, N_GAME_FIELDS, N_LEGIONS, N_SEAT_COLUMNS, R_CHARGER_SHIELDS,
                     R_CHARGES, R_FIXED_DECK, R_MERIT_DEPTH, R_PLAYERS, R_SHARE_TIES, R_THRESHOLD,
                     ROUTED, SHOTS, WOUNDS)

ALL_SHOTS = (1 << SHOTS) - 1
LOG_WIDTH = LOG_WIDTH


@njit(cache=True)
def decide_custom(k, seat, pl, info, legal, params, rng):
    """Placeholder for user strategies; sim.strategy recompiles the kernel with the real ones."""
    return -1


@njit(cache=True, inline="always")
def decide(kind, seat, pl, info, legal, params, rng):
    if kind >= USER_KIND_BASE:
        return decide_custom(kind - USER_KIND_BASE, seat, pl, info, legal, params, rng)
    return builtin_decide(kind, seat, pl, info, legal, params, rng)


@njit(cache=True, inline="always")
def log_event(log, event, rnd, player, a, b, c):
    if log.shape[0] == 0:
        return
    k = log[0, 0] + 1
    if k < log.shape[0]:
        log[k, 0], log[k, 1], log[k, 2], log[k, 3], log[k, 4], log[k, 5] = event, rnd, player, a, b, c
        log[0, 0] = k


@njit(cache=True)
def setup(rules, legions, pl, deck, gs, streams):
    """PS-1 hands of shots 1-6 and charge cards; PS-2 the 7 legions, shuffled."""
    for p in range(pl.shape[0]):
        pl[p, :] = 0
        pl[p, HAND] = ALL_SHOTS
        pl[p, CHARGES] = rules[R_CHARGES]
    for i in range(N_LEGIONS):
        deck[i] = legions[i]
    if rules[R_FIXED_DECK] == 0:
        shuffle(deck, N_LEGIONS, streams, 0)
    gs[:] = 0
    gs[G_LEFT] = N_LEGIONS
    gs[G_UNSEEN] = N_LEGIONS
    gs[G_END] = -1


@njit(cache=True, inline="always")
def legal_actions(rules, pl, p, legal):
    """PS-3 any shooting card in hand; PS-4 a charge only when the shots in front exceed 9."""
    for v in range(SHOTS):
        legal[v] = (pl[p, HAND] >> v) & 1 == 1
    legal[CHARGE] = pl[p, CHARGES] > 0 and pl[p, FRONT_SUM] > rules[R_THRESHOLD]


@njit(cache=True, inline="always")
def ask(rules, pl, deck, gs, info, legal, kinds, params, streams, actions, log, ctl, p):
    """PS-3: seat p chooses its card for this round, seeing the public table only."""
    legal_actions(rules, pl, p, legal)
    own = seat_stream(N_CHANCE, N_DECISIONS, p, 0)
    rng = streams[own:own + 1]
    if not control.active(ctl):
        return decide(kinds[p], p, pl, info, legal, params[p], rng)
    if control.redeal_due(ctl):
        control.reseed(ctl, streams, own, N_DECISIONS)
        redeal(rules, pl, deck, gs, info, legal, kinds, params, streams, actions, ctl, p)
        legal_actions(rules, pl, p, legal)
    h = np.uint64(0)
    if control.needs_hash(ctl, p):
        h = control.hash_ints(pl, np.uint64(p))
        h = control.hash_ints(info, h)
        h = control.hash_ints(legal, h)
        h = control.hash_floats(params[p], h)
        h = control.hash_ints(rng, h)
    a = control.before_decision(ctl, p, np.int64(0), h, legal)
    if a < 0:
        a = decide(kinds[p], p, pl, info, legal, params[p], rng)
    return control.after_decision(ctl, p, np.int64(0), h, legal, a, log[0, 0] if log.shape[0] else 0)


@njit(cache=True)
def redeal(rules, pl, deck, gs, info, legal, kinds, params, streams, actions, ctl, p):
    """Re-randomise what seat p cannot know: the order of the legions never revealed, and the
    cards the seats before p chose this round (hidden until PS-5's reveal), chosen again by
    their own strategies (in a search: the model of those players) on fresh random streams."""
    unseen = gs[G_UNSEEN]
    for i in range(unseen - 1, 0, -1):
        j = control.rand_below(ctl, i + 1)
        a, b = (gs[G_HEAD] + 1 + i) % N_LEGIONS, (gs[G_HEAD] + 1 + j) % N_LEGIONS
        deck[a], deck[b] = deck[b], deck[a]
    for q in range(p):
        legal_actions(rules, pl, q, legal)
        own = seat_stream(N_CHANCE, N_DECISIONS, q, 0)
        a = decide(kinds[q], q, pl, info, legal, params[q], streams[own:own + 1])
        if a < 0 or a >= N_ACTIONS or not legal[a]:
            a = choose_legal(legal, streams, own)
        actions[q] = a


@njit(cache=True)
def start_info(rules, legions, info):
    """What every player knows from the start: the 7 strengths (PS-2), strongest first."""
    info[:] = 0
    info[I_THRESHOLD] = rules[R_THRESHOLD]
    info[I_N_PLAYERS] = rules[R_PLAYERS]
    for i in range(N_LEGIONS):  # insertion sort
        v = legions[i]
        j = I_LEGIONS + i
        while j > I_LEGIONS and info[j - 1] < v:
            info[j] = info[j - 1]
            j -= 1
        info[j] = v


@njit(cache=True, inline="always")
def forget_legion(info, strength):
    """A defeated legion leaves the public list of strengths still to come."""
    j = I_LEGIONS
    while info[j] != strength:
        j += 1
    while j < I_LEGIONS + N_LEGIONS - 1:
        info[j] = info[j + 1]
        j += 1
    info[I_LEGIONS + N_LEGIONS - 1] = 0


@njit(cache=True, inline="always")
def merit_winner(values, actions, n_chargers, depth):
    """PS-6/7/8 and OP-2: the player who gets a defeated legion, or -1 for nobody.

    Distinct values are searched from the highest down; a tied value quarrels and passes the
    merit on, at most ``depth`` values deep. Two or more chargers are one tied top group.
    """
    n = values.shape[0]
    excluded = 0
    level = 0
    if n_chargers >= 2:
        for p in range(n):
            if actions[p] == CHARGE:
                excluded |= 1 << p
        level = 1
    while level < depth:
        best, count, who = -1, 0, -1
        for p in range(n):
            if (excluded >> p) & 1 == 0:
                if values[p] > best:
                    best, count, who = values[p], 1, p
                elif values[p] == best:
                    count += 1
        if count == 0:
            return -1
        if count == 1:
            return who
        for p in range(n):
            if values[p] == best:
                excluded |= 1 << p
        level += 1
    return -1


@njit(cache=True, inline="always")
def return_shots(pl, p):
    pl[p, HAND] = ALL_SHOTS
    pl[p, FRONT] = 0
    pl[p, FRONT_SUM] = 0


@njit(cache=True, inline="always")
def resolve_round(rules, pl, deck, gs, info, actions, values, log):
    """PS-3..PS-14: reveal the chosen cards and apply the round's outcome."""
    n = pl.shape[0]
    rnd = gs[G_ROUND]
    strength = deck[gs[G_HEAD]]
    total, n_chargers = 0, 0
    for p in range(n):  # PS-5 reveal; played shots stay face up in front
        a = actions[p]
        if a == CHARGE:
            values[p] = pl[p, FRONT_SUM]  # PS-4: a charge's power is the sum in front
            pl[p, CHARGES] -= 1
            pl[p, CHARGES_PLAYED] += 1
            n_chargers += 1
        else:
            values[p] = a + 1
            pl[p, HAND] &= ~(1 << a)
            pl[p, FRONT] |= 1 << a
            pl[p, FRONT_SUM] += a + 1
        total += values[p]
        log_event(log, EV_PLAY, rnd, p, a, values[p], 0)

    routed = 0
    if total > strength:  # PS-5/6/7/8: the legion is defeated and leaves the deck
        winner = merit_winner(values, actions, n_chargers, rules[R_MERIT_DEPTH])
        if winner >= 0:
            pl[winner, MERITS] += 1
            pl[winner, BEST_MERIT] = max(pl[winner, BEST_MERIT], strength)
        else:
            gs[G_UNCLAIMED] += 1
        gs[G_DEFEATED] += 1
        forget_legion(info, strength)
        gs[G_HEAD] = (gs[G_HEAD] + 1) % N_LEGIONS
        gs[G_LEFT] -= 1
        log_event(log, EV_DEFEATED, rnd, -1, total, strength, winner)
    else:  # PS-9..PS-12: the legion breaks through
        gs[G_BREAKTHROUGHS] += 1
        spared = n_chargers > 0 and rules[R_CHARGER_SHIELDS] == 1
        log_event(log, EV_BREAKTHROUGH, rnd, -1, total, strength, 1 if spared else 0)
        if not spared:  # PS-9 the highest value(s) take damage (OP-3: chargers never do)
            best = -1
            for p in range(n):
                if actions[p] != CHARGE and values[p] > best:
                    best = values[p]
            for p in range(n):
                if actions[p] != CHARGE and values[p] == best:
                    if pl[p, CHARGES] > 0:
                        pl[p, CHARGES] -= 1
                        pl[p, WOUNDS] += 1
                        return_shots(pl, p)
                        log_event(log, EV_DAMAGE, rnd, p, pl[p, CHARGES], 0, 0)
                        log_event(log, EV_RESUPPLY, rnd, p, 9, 0, 0)
                    else:  # PS-12 routed
                        pl[p, ROUTED] = 1
                        routed += 1
                        log_event(log, EV_DAMAGE, rnd, p, -1, 0, 0)
        # PS-11 to the bottom of the deck (a lone last legion simply stays in play)
        bottom = (gs[G_HEAD] + gs[G_LEFT]) % N_LEGIONS
        deck[bottom] = strength
        gs[G_HEAD] = (gs[G_HEAD] + 1) % N_LEGIONS

    for p in range(n):  # PS-13 charge resupply, PS-14 camel resupply (OP-5: once)
        if actions[p] == CHARGE and pl[p, FRONT] != 0:
            return_shots(pl, p)
            log_event(log, EV_RESUPPLY, rnd, p, 13, 0, 0)
        elif actions[p] != CHARGE and pl[p, HAND] != 0 and pl[p, HAND] & (pl[p, HAND] - 1) == 0:
            return_shots(pl, p)
            log_event(log, EV_RESUPPLY, rnd, p, 14, 0, 0)

    if routed > 0:
        gs[G_END] = END_NO_SURVIVOR if routed == n else END_DEFEAT
    elif gs[G_LEFT] == 0:
        gs[G_END] = END_VICTORY


@njit(cache=True)
def winners(rules, pl, end):
    """PS-15/16 and OP-4: bitmask of the seats that share the win."""
    n = pl.shape[0]
    if end != END_VICTORY and end != END_DEFEAT:
        return 0
    sign = 1 if end == END_VICTORY else -1  # defeat: the lowest score escapes
    best_score, best_tie, mask = -(1 << 30), -(1 << 30), 0
    for p in range(n):
        if pl[p, ROUTED] == 1:
            continue
        score = sign * (pl[p, MERITS] + pl[p, CHARGES])
        tie = sign * pl[p, BEST_MERIT]  # victory: strongest merit wins; defeat: it is beheaded first
        if score > best_score or (score == best_score and tie > best_tie):
            best_score, best_tie, mask = score, tie, 1 << p
        elif score == best_score and tie == best_tie:
            mask |= 1 << p
    if mask & (mask - 1) != 0 and rules[R_SHARE_TIES] == 0:
        return 0
    return mask


@njit(cache=True)
def write_record(rules, pl, gs, out, row, log):
    n = pl.shape[0]
    mask = winners(rules, pl, gs[G_END])
    out[row, RECORD_LENGTH] = gs[G_ROUND]
    out[row, RECORD_END] = gs[G_END]
    out[row, RECORD_WINNERS] = mask
    out[row, C_DEFEATED] = gs[G_DEFEATED]
    out[row, C_BREAKTHROUGHS] = gs[G_BREAKTHROUGHS]
    out[row, C_UNCLAIMED] = gs[G_UNCLAIMED]
    for p in range(n):
        c = C_SEAT0 + p * N_SEAT_COLUMNS
        score = pl[p, MERITS] + pl[p, CHARGES]
        out[row, c] = score
        out[row, c + 1] = pl[p, MERITS]
        out[row, c + 2] = pl[p, BEST_MERIT]
        out[row, c + 3] = pl[p, WOUNDS]
        out[row, c + 4] = pl[p, CHARGES_PLAYED]
        out[row, c + 5] = pl[p, ROUTED]
        log_event(log, EV_SCORE, gs[G_ROUND], p, score, pl[p, BEST_MERIT], 0)
    log_event(log, EV_END, gs[G_ROUND], -1, gs[G_END], mask, 0)


# _nrt=False: no reference counting inside the game loop. Numba otherwise pays an atomic
# incref/decref for every array view and argument, which cost 40% of the run time here
# (benchmark: 325k -> 565k games/s). Nothing below play_chunk may allocate arrays.
@njit(cache=True, _nrt=False)
def play_game(rules, legions, kinds, params, streams, pl, deck, gs, info, legal, actions,
              values, out, row, error, log, ctl):
    """One game from set-up to record. Returns False if a strategy made an illegal move."""
    n = pl.shape[0]
    setup(rules, legions, pl, deck, gs, streams)
    start_info(rules, legions, info)
    max_rounds = N_LEGIONS + n * rules[R_CHARGES]  # every breakthrough costs a charge card
    while gs[G_END] < 0 and not control.stopped(ctl):
        if gs[G_ROUND] == max_rounds:
            gs[G_END] = END_CAP
            break
        gs[G_ROUND] += 1
        info[I_ROUND] = gs[G_ROUND]
        info[I_LEGION] = deck[gs[G_HEAD]]
        info[I_DECK_LEFT] = gs[G_LEFT]
        if gs[G_UNSEEN] > 0:  # the head was still unseen (returned legions lie below)
            gs[G_UNSEEN] -= 1
        log_event(log, EV_LEGION, gs[G_ROUND], -1, info[I_LEGION], gs[G_LEFT], 0)
        for p in range(n):  # PS-3 simultaneous: everyone decides on the same information
            a = ask(rules, pl, deck, gs, info, legal, kinds, params, streams, actions, log, ctl, p)
            if a < 0 or a >= N_ACTIONS or not legal[a]:
                error[0], error[1], error[2], error[3] = row, p, a, 1
                return False
            actions[p] = a
        resolve_round(rules, pl, deck, gs, info, actions, values, log)
    write_record(rules, pl, gs, out, row, log)
    return True


@njit(cache=True, nogil=True)
def play_chunk(rules, legions, kinds, params, key, first_game, out, error, log, ctl):
    """Play out.shape[0] games (see sim.game for the contract)."""
    n = rules[R_PLAYERS]
    pl = np.zeros((n, N_FIELDS), np.int64)
    deck = np.zeros(N_LEGIONS, np.int64)
    gs = np.zeros(N_GAME_FIELDS, np.int64)
    info = np.zeros(INFO_SIZE, np.int64)
    legal = np.zeros(N_ACTIONS, np.bool_)
    actions = np.zeros(n, np.int64)
    values = np.zeros(n, np.int64)
    streams = np.zeros(stream_count(N_CHANCE, n, N_DECISIONS), np.uint64)
    seat_kinds = np.zeros(n, np.int64)
    seat_params = np.zeros(params.shape, np.float64)
    trial, trial_error = out[:1].copy(), error.copy()
    no_log = np.zeros((0, log.shape[1]), np.int64)
    for row in range(out.shape[0]):
        game = first_game + row
        control.begin_game(ctl, game, row == 0, kinds, params, seat_kinds, seat_params)
        while True:  # a search seat pauses the game at each of its decisions (sim.control)
            seed_game(key, game, streams)
            if log.shape[0] > 0:
                log[0, 0] = 0
            ok = play_game(rules, legions, seat_kinds, seat_params, streams, pl, deck, gs, info,
                           legal, actions, values, out, row, error, log, ctl)
            if not control.search_pending(ctl):
                break
            for _ in range(control.begin_search(ctl, seat_params)):
                seed_game(key, game, streams)
                control.begin_iteration(ctl, seat_kinds, seat_params)
                play_game(rules, legions, seat_kinds, seat_params, streams, pl, deck, gs, info,
                          legal, actions, values, trial, 0, trial_error, no_log, ctl)
                control.end_iteration(ctl, trial[0, RECORD_WINNERS])
            control.end_search(ctl, kinds, params, seat_kinds, seat_params)
        if not ok:
            return
