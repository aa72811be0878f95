"""Calibration against OpenSpiel (optional extra ``calibration``: ``pip install -e '.[calibration]'``).

OpenSpiel's ``goofspiel`` is the reference implementation of this toolkit's ``goofspiel``
(rule ids GS-n: games/goofspiel/RULES.md); ``GoofspielRules.openspiel_params()`` names the same game
there. This module holds the OpenSpiel side of three comparisons:

- outcome distributions under random play (:func:`openspiel_random_points`, used by
  games/goofspiel/tests/test_openspiel_calibration.py);
- speed: OpenSpiel driven from Python and OpenSpiel's C++ loop (:func:`openspiel_speed`, used
  by ``balance bench --openspiel``);
- head to head: seat 0 chosen by a callback that sees this toolkit's observation, seat 1 by
  OpenSpiel's ISMCTS or MCTS bot (:func:`play_against_openspiel`; API in games/goofspiel/RULES.md).
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from sim.errors import RulesError, RunError
from sim.games import get_game
from games.goofspiel import layout as L
from games.goofspiel.rules import GoofspielRules


def require_openspiel():
    """Import and return ``pyspiel``, or raise a clear error naming the extra to install."""
    try:
        import pyspiel
    except ImportError as missing:
        raise RunError("OpenSpiel is not installed; the calibration needs it: "
                       "pip install -e '.[calibration]' (PyPI package open_spiel)") from missing
    return pyspiel


def _rules(rules) -> GoofspielRules:
    if rules is None:
        return GoofspielRules()
    if isinstance(rules, dict):
        return GoofspielRules.from_options(rules)
    return rules


def openspiel_game(rules=None, **overrides):
    """OpenSpiel's goofspiel with the same parameters as ``rules`` (plus ``overrides``)."""
    pyspiel = require_openspiel()
    rules = _rules(rules)
    if rules.prize_order is not None:
        raise RulesError("prize_order has no OpenSpiel equivalent (its prize deck is chance)")
    return pyspiel.load_game("goofspiel", {**rules.openspiel_params(), **overrides})


# --- outcome distributions -------------------------------------------------------------------

def openspiel_random_points(rules=None, n_games: int = 20_000, seed: int = 0) -> np.ndarray:
    """Final points per seat of ``n_games`` OpenSpiel games between uniformly random players.

    Played by OpenSpiel's C++ loop (``pyspiel.evaluate_bots`` with its uniform random bots, the
    prize deck dealt by its own chance sampling) under ``returns_type="total_points"``, whose
    returns are the points. Returns int64[n_games, players].
    """
    pyspiel = require_openspiel()
    rules = _rules(rules)
    game = openspiel_game(rules, returns_type="total_points")
    bots = [pyspiel.make_uniform_random_bot(p, seed * 1000 + p) for p in range(rules.players)]
    points = np.empty((n_games, rules.players), np.int64)
    for g in range(n_games):
        points[g] = pyspiel.evaluate_bots(game.new_initial_state(), bots, seed * 1_000_003 + g)
    return points


def outcome_counts(points: np.ndarray) -> np.ndarray:
    """Seat 0's (wins, draws, losses) against seat 1, from points int[n_games, 2]."""
    diff = points[:, 0] - points[:, 1]
    return np.array([(diff > 0).sum(), (diff == 0).sum(), (diff < 0).sum()])


def compare_random_play(rules=None, n_games: int = 20_000, seed: int = 2026,
                        openspiel_seed: int = 7, ours=None) -> dict:
    """Random play here against random play in OpenSpiel, same parameters (two players).

    Seat 0's win/draw/loss counts are compared by a chi-square test of homogeneity, the mean
    point difference (seat 0 - seat 1) by Welch's t-test. ``ours`` overrides our variant (to
    check that the tests tell different games apart). Returns shares, means and p-values.
    """
    from scipy import stats

    from sim.runner import simulate

    rules = _rules(rules)
    mine = _rules(ours) if ours is not None else rules
    records = simulate("goofspiel", mine, "random", n_games, seed=seed).records
    points = {"ours": records[["points_0", "points_1"]].to_numpy(),
              "openspiel": openspiel_random_points(rules, n_games, openspiel_seed)}
    counts = {k: outcome_counts(v) for k, v in points.items()}
    table = np.array([counts["ours"], counts["openspiel"]])
    chi = stats.chi2_contingency(table[:, table.sum(axis=0) > 0]).pvalue
    diffs = {k: v[:, 0] - v[:, 1] for k, v in points.items()}
    welch = stats.ttest_ind(diffs["ours"], diffs["openspiel"], equal_var=False).pvalue
    row = {"n_games": n_games, "chi2_p": float(chi), "welch_p": float(welch)}
    for k in points:
        row.update({f"{k}_win": counts[k][0] / n_games, f"{k}_draw": counts[k][1] / n_games,
                    f"{k}_loss": counts[k][2] / n_games, f"{k}_mean_diff": float(diffs[k].mean()),
                    f"{k}_mean_points": float(points[k].mean())})
    return row


def replay_in_openspiel(rules, prizes, bids):
    """Play one game's prizes and bids (card values, ``bids[turn][seat]``) in OpenSpiel; return
    the terminal state. OpenSpiel plays the last card itself (GS-6), so a full game's last
    turn is skipped here."""
    game = openspiel_game(rules)
    state = game.new_initial_state()
    for prize, turn_bids in zip(prizes, bids):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(prize - 1)
        state.apply_actions([b - 1 for b in turn_bids])
    return state


def points_of(state) -> list[int]:
    """Points per seat of an OpenSpiel goofspiel state (its text's "Points:" line)."""
    line = next(row for row in str(state).splitlines() if row.startswith("Points:"))
    return [int(v) for v in line.split()[1:]]


# --- speed -----------------------------------------------------------------------------------

def openspiel_speed(rules=None, n_python: int = 2_000, n_cpp: int = 20_000, seed: int = 0) -> dict:
    """Games/s and decisions/s of OpenSpiel's goofspiel between uniformly random players.

    ``python``: a Python loop over pyspiel states (random bids drawn in Python, as most
    OpenSpiel research code drives games); ``cpp``: OpenSpiel's own C++ loop
    (``pyspiel.evaluate_bots`` with C++ uniform random bots), called once per game. A decision
    is one seat's bid at a turn with a choice (the last card is played automatically, GS-6).
    """
    pyspiel = require_openspiel()
    rules = _rules(rules)
    game = openspiel_game(rules)
    rng = np.random.default_rng(seed)
    decisions = 0
    start = time.perf_counter()
    for _ in range(n_python):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.integers(len(outcomes))][0])
            else:
                joint = []
                for p in range(rules.players):
                    legal = state.legal_actions(p)
                    joint.append(legal[rng.integers(len(legal))])
                decisions += rules.players
                state.apply_actions(joint)
    python_s = time.perf_counter() - start
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(rules.players)]
    start = time.perf_counter()
    for g in range(n_cpp):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed + g)
    cpp_s = time.perf_counter() - start
    per_game = decisions / n_python  # the same in every game: turns with a choice x seats
    return {"python_games_per_s": n_python / python_s, "python_decisions_per_s": decisions / python_s,
            "cpp_games_per_s": n_cpp / cpp_s, "cpp_decisions_per_s": n_cpp * per_game / cpp_s,
            "decisions_per_game": per_game}


def decisions_per_game(rules=None) -> int:
    """Strategy decisions in one game of this toolkit (turns with a choice x seats, GS-6)."""
    rules = _rules(rules)
    choice_turns = rules.turns - (1 if rules.turns == rules.num_cards else 0)
    return choice_turns * rules.players


# --- head to head ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Observation:
    """What seat ``seat`` knows when it bids, in this toolkit's encoding (games/goofspiel/strategies.py).

    players, info, legal : exactly the arrays a strategy of this toolkit receives.
    prizes : the prize values revealed so far, this turn's last.
    bids : each finished turn's bids (card values) per seat, ``bids[turn][seat]``.
    rules : the variant (a search player replays ``prizes``/``bids`` through the kernel with
        ``prize_order`` and scripted seats, or through the controller, sim/core/control.py, to reach this point).
    """

    seat: int
    players: np.ndarray
    info: np.ndarray
    legal: np.ndarray
    prizes: tuple
    bids: tuple
    rules: GoofspielRules


def observation(rules: GoofspielRules, seat: int, prizes, bids) -> Observation:
    """Build a seat's observation from the public history, as the kernel does (GS-1..GS-5)."""
    if rules.imp_info:
        raise RulesError("observations from a history need imp_info=false (bids are public)")
    n, n_cards = rules.players, rules.num_cards
    full = (1 << n_cards) - 1
    players = np.zeros((n, L.N_FIELDS), np.int64)
    players[:, L.P.HAND] = full
    players[:, L.P.CARDS_LEFT] = n_cards
    info = np.zeros(L.INFO_SIZE, np.int64)
    info[L.I.UNSEEN] = full
    info[L.I.CARDS], info[L.I.PLAYERS], info[L.I.TURNS] = n_cards, n, rules.turns
    info[L.I.ORDER] = L.POINTS_ORDERS.index(rules.points_order)
    for turn, prize in enumerate(prizes, start=1):
        info[L.I.TURN], info[L.I.PRIZE] = turn, prize
        info[L.I.UNSEEN] &= ~(1 << (prize - 1))
        if turn > len(bids):
            break
        turn_bids = bids[turn - 1]
        top = max(turn_bids)
        taker = turn_bids.index(top) if turn_bids.count(top) == 1 else -1
        for p, bid in enumerate(turn_bids):
            players[p, L.P.HAND] &= ~(1 << (bid - 1))
            players[p, L.P.CARDS_LEFT] -= 1
            players[p, L.P.LAST_BID] = bid
        if taker >= 0:
            players[taker, L.P.POINTS] += prize
            players[taker, L.P.PRIZES] += 1
        else:
            info[L.I.DISCARDED] += prize
    legal = np.array([(players[seat, L.P.HAND] >> v) & 1 == 1 for v in range(n_cards)], np.bool_)
    return Observation(seat, players, info, legal, tuple(prizes), tuple(map(tuple, bids)), rules)


def builtin_chooser(strategy: str = "random", seed: int = 0) -> Callable[[Observation], int]:
    """A callback for :func:`play_against_openspiel` that plays one of this toolkit's built-in
    goofspiel strategies (its compiled function, with its default parameters)."""
    from sim.core.state import RANDOM
    from games.goofspiel.kernel import Observation as KernelObservation
    from sim.rng import choose_legal
    from games.goofspiel.strategies import BUILTINS, builtin_decide

    if strategy not in BUILTINS:
        raise RunError(f"unknown goofspiel strategy {strategy!r}; built-ins: {', '.join(BUILTINS)}")
    chosen = BUILTINS[strategy]
    params = np.zeros(L.N_STRATEGY_PARAMS, np.float64)
    params[:len(chosen.params)] = chosen.params
    rng = np.random.SeedSequence(seed).generate_state(1, np.uint64)

    def choose(obs: Observation) -> int:
        if chosen.builtin == RANDOM:
            return int(choose_legal(obs.legal, rng, 0))
        return int(builtin_decide(chosen.builtin, 0, obs.seat, KernelObservation(obs.players, obs.info),
                                  obs.legal, params, rng))
    return choose


def _history(state, n_players, rules):
    """(prizes, finished turns' bids, this turn's pending bids) of a turn-based OpenSpiel
    goofspiel state, as card values."""
    prizes, flat = [], []
    for entry in state.full_history():
        if entry.player < 0:
            prizes.append(entry.action + 1)
        else:
            flat.append(entry.action + 1)
    if rules.points_order != "random":  # no chance nodes: the prizes follow the order
        turn = len(flat) // n_players + 1
        order = range(rules.num_cards, 0, -1) if rules.points_order == "descending" \
            else range(1, rules.num_cards + 1)
        prizes = list(order)[:turn]
    done = len(flat) // n_players * n_players
    bids = [flat[i:i + n_players] for i in range(0, done, n_players)]
    return prizes, bids, flat[done:]


def _hide_pending(game, state, rng):
    """The state with this turn's earlier bids (not yet revealed, GS-3) drawn again at random:
    an OpenSpiel bot gets this, never the opponent's actual pending bid."""
    entries = state.full_history()
    trailing = 0
    while trailing < len(entries) and entries[-1 - trailing].player >= 0:
        trailing += 1
    pending = trailing % state.num_players()  # bids of this turn; earlier turns are complete
    if pending == 0:
        return state.clone()
    history = state.history()
    fresh = game.new_initial_state()
    for action in history[:len(history) - pending]:
        fresh.apply_action(action)
    for _ in range(pending):
        legal = fresh.legal_actions()
        fresh.apply_action(legal[rng.integers(len(legal))])
    return fresh


def search_chooser(budget: int = 256, rollout: str = "random", c: float = 0.7,
                   seed: int = 0) -> Callable[[Observation], int]:
    """A callback for :func:`play_against_openspiel` that plays this toolkit's search player.

    The game so far is rebuilt in this toolkit's kernel: the prizes seen (the rest of the deck
    in any order: the search redeals what it has not seen), the other seat's past bids as a
    script (its pending bid this turn is redealt too), and our past bids as the search seat's
    decisions given in advance; the kernel stops after our next, searched, decision."""
    from sim.core.header import last_searched
    from sim.rng import master_key
    from sim.runner import play_kernel
    from sim.strategy import resolve_seats
    from games.goofspiel.strategies import script

    def choose(obs: Observation) -> int:
        rules, seat, n = obs.rules, obs.seat, obs.rules.num_cards
        seen = list(obs.prizes)
        order = seen + sorted(set(range(1, n + 1)) - set(seen))
        game_rules = rules.replace(prize_order=tuple(order))
        spec = get_game("goofspiel")
        theirs = [turn[1 - seat] for turn in obs.bids]
        left = sorted(set(range(1, n + 1)) - set(theirs))
        search = f"ismcts:budget={budget},c={c},rollout={rollout}"
        lineup = [search, script(theirs + left)] if seat == 0 else [script(theirs + left), search]
        seats = resolve_seats(spec, lineup, 2)
        plan = [(2 * turn + seat, turn_bids[seat] - 1) for turn, turn_bids in enumerate(obs.bids)]
        ctl = seats.controller(spec, plan=plan, one_decision=True)
        play_kernel(spec, game_rules.kernel_args(), seats, master_key(seed), len(obs.bids), 1,
                    ctl=ctl)
        action = last_searched(ctl)
        if action < 0:  # a single legal bid is never searched
            action = int(np.flatnonzero(obs.legal)[0])
        return action
    return choose


def play_against_openspiel(choose: Callable[[Observation], int], rules=None, n_games: int = 100,
                           *, bot: str = "ismcts", iterations: int = 256, uct_c: float = 2.0,
                           seed: int = 0, progress: bool = False) -> dict:
    """Play ``n_games`` of goofspiel: ``choose`` against one of OpenSpiel's search bots.

    ``choose(obs: Observation) -> action`` (card - 1) picks this toolkit's bid from its seat's
    observation. The other seat is OpenSpiel's ``ISMCTSBot`` (``bot="ismcts"``) or ``MCTSBot``
    (``"mcts"``) with ``iterations`` simulations per decision, exploration ``uct_c`` and one
    random rollout per leaf. Our side takes OpenSpiel's player 0 in even games and player 1 in
    odd ones. OpenSpiel plays the simultaneous game through its turn-based wrapper; neither
    side ever sees the other's pending bid: ISMCTS samples it again at every iteration (our
    resampler: the game implements no ResampleFromInfostate), MCTS gets a state with it drawn
    at random.

    Returns a dict: n, wins, draws, losses (our side), win_share = (wins + draws / 2) / n with
    its 95% Wilson interval (share_low, share_high), and the settings.
    """
    pyspiel = require_openspiel()
    from open_spiel.python.algorithms import ismcts, mcts
    from tqdm.auto import tqdm

    from analysis.stats import wilson

    rules = _rules(rules)
    if rules.players != 2 or rules.imp_info:
        raise RulesError("the head-to-head needs players=2 and imp_info=false")
    if bot not in ("ismcts", "mcts"):
        raise RunError(f"bot={bot!r} is not known; choose 'ismcts' or 'mcts'")
    if isinstance(n_games, bool) or not isinstance(n_games, int) or n_games <= 0:
        raise RunError(f"number of games must be a positive integer, got {n_games!r}")
    game = pyspiel.convert_to_turn_based(openspiel_game(rules))
    rng = np.random.default_rng(seed)
    random_state = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, random_state)

    def resample(state, player):
        return _hide_pending(game, state, rng)

    if bot == "ismcts":
        searcher = ismcts.ISMCTSBot(game, evaluator, uct_c, iterations, random_state=random_state)
        searcher.set_resampler(resample)
    else:
        searcher = mcts.MCTSBot(game, uct_c, iterations, evaluator, random_state=random_state)
    wins = draws = losses = 0
    for g in tqdm(range(n_games), disable=not progress, desc=f"goofspiel vs {bot}"):
        ours = g % 2
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.integers(len(outcomes))][0])
            elif state.current_player() == ours:
                prizes, bids, _ = _history(state, 2, rules)
                action = choose(observation(rules, ours, prizes, bids))
                if action not in state.legal_actions():
                    raise RunError(f"the callback bid action {action} (card {action + 1}), "
                                   f"which is not in seat {ours}'s hand")
                state.apply_action(action)
            else:
                view = state.clone() if bot == "ismcts" else _hide_pending(game, state, rng)
                state.apply_action(searcher.step(view))
        outcome = np.sign(state.returns()[ours] - state.returns()[1 - ours])
        wins += outcome > 0
        draws += outcome == 0
        losses += outcome < 0
    share = (wins + draws / 2) / n_games
    low, high = wilson(wins + draws / 2, n_games)
    return {"n": n_games, "wins": int(wins), "draws": int(draws), "losses": int(losses),
            "win_share": float(share), "share_low": float(low), "share_high": float(high),
            "bot": bot, "iterations": iterations, "uct_c": uct_c, "seed": seed,
            "rules": rules.to_dict()}


CALIBRATION_SETTINGS = [{"num_cards": 4}, {"num_cards": 6}, {"num_cards": 6, "points_order": "descending"},
                        {"num_cards": 13}, {"num_cards": 13, "points_order": "descending"}]


def calibration_markdown(n_games: int = 20_000) -> str:
    """The random-play calibration table of games/goofspiel/RULES.md (``python -m games.goofspiel.calibration``)."""
    lines = ["| num_cards | points_order | W / D / L here (%) | W / D / L OpenSpiel (%) | "
             "mean diff here | mean diff OpenSpiel | chi-square p | Welch p |",
             "|---|---|---|---|---|---|---|---|"]
    for options in CALIBRATION_SETTINGS:
        r = compare_random_play(options, n_games)
        shares = {k: " / ".join(f"{100 * r[f'{k}_{o}']:.2f}" for o in ("win", "draw", "loss"))
                  for k in ("ours", "openspiel")}
        lines.append(f"| {options['num_cards']} | {options.get('points_order', 'random')} | "
                     f"{shares['ours']} | {shares['openspiel']} | {r['ours_mean_diff']:+.3f} | "
                     f"{r['openspiel_mean_diff']:+.3f} | {r['chi2_p']:.2f} | {r['welch_p']:.2f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    print(calibration_markdown())
