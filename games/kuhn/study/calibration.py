"""Kuhn poker against the truth: exact exploitability (NashConv, OpenSpiel's ``exploitability``
module) of any policy of ours, as a table of bet probabilities over the 12 information sets.

NashConv is the sum over both seats of what a best response gains against the policy; 0 exactly
at a Nash equilibrium. Kuhn poker is the one game here where "strong" can be checked against the
truth, so the trained policy is trained on it (``objective``) and every policy's figure is
recorded in docs/training.md. Needs OpenSpiel (the calibration extra).
"""
from __future__ import annotations

import numpy as np

from sim.errors import RunError
from games.kuhn.layout import BET, CARD_NAMES, SITUATIONS

HISTORIES = ("", "p", "b", "pb")   # OpenSpiel's information-state suffixes, as layout.SITUATIONS


def require_openspiel():
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        raise RunError("Kuhn poker's exploitability needs OpenSpiel: pip install "
                       "'balance-toolkit[calibration]'") from None


def tabular_policy(bets):
    """OpenSpiel's TabularPolicy of kuhn_poker with P(bet) = bets[4 * card + situation]."""
    require_openspiel()
    import pyspiel
    from open_spiel.python import policy as openspiel_policy

    policy = openspiel_policy.TabularPolicy(pyspiel.load_game("kuhn_poker"))
    for state, row in policy.state_lookup.items():
        card, history = int(state[0]), state[1:]
        p = float(bets[4 * card + HISTORIES.index(history)])
        policy.action_probability_array[row] = [1 - p, p]
    return policy


def nash_conv(bets) -> float:
    """The exact NashConv of a table of bet probabilities (0 at an equilibrium)."""
    import pyspiel
    from open_spiel.python.algorithms import exploitability

    return float(exploitability.nash_conv(pyspiel.load_game("kuhn_poker"), tabular_policy(bets)))


def trained_bets(weights, temperature: float = 1.0) -> np.ndarray:
    """A trained Kuhn policy's bet probabilities: its features are one indicator per information
    set on the bet (games/kuhn/strategies.py), so P(bet) = 1 / (1 + exp(-w / temperature))."""
    w = np.asarray(weights, float).reshape(-1)
    if temperature <= 0:
        return (w > 0).astype(float)
    return 1 / (1 + np.exp(-w / temperature))


def objective(weights) -> float:
    """Training objective (analysis.training.train(objective=...)): minus the NashConv."""
    return -nash_conv(trained_bets(weights))


def search_bets(budget: int, runs: int = 100, seed: int = 0, rollout: str = "random") -> np.ndarray:
    """The search player's bet probability at each information set, estimated from ``runs``
    searches there (each from a deal consistent with it, the other seat scripted to reach it)."""
    from sim.core.header import last_searched
    from sim.games import get_game
    from sim.rng import master_key
    from sim.runner import as_rules, play_kernel
    from sim.strategy import resolve_seats, script

    spec = get_game("kuhn")
    search = f"ismcts:budget={budget},rollout={rollout}"
    bets = np.zeros(12)
    for card in range(3):
        for situation, history in enumerate(HISTORIES):
            seat = 0 if situation in (0, 3) else 1
            mine = [BET if h == "b" else 0 for h in history][seat::2] if history else []
            theirs = [BET if h == "b" else 0 for h in history][1 - seat::2] if history else []
            plan = [(2 * k + seat, a) for k, a in enumerate(mine)]
            other = [c for c in range(3) if c != card]
            chosen = 0
            for run in range(runs):
                deal = [0, 0]
                deal[seat], deal[1 - seat] = card, other[run % 2]
                rules = as_rules(spec, {"deal": f"{CARD_NAMES[deal[0]]},{CARD_NAMES[deal[1]]}"})
                lineup = [None, None]
                lineup[seat] = search
                lineup[1 - seat] = script([(0, a) for a in theirs])
                seats = resolve_seats(spec, lineup, 2)
                ctl = seats.controller(spec, plan=plan, one_decision=True)
                play_kernel(spec, rules.kernel_args(), seats, master_key(seed + run), run, 1,
                            ctl=ctl)
                chosen += last_searched(ctl) == BET
            bets[4 * card + situation] = chosen / runs
    return bets


def exploitability_table(named_bets: dict) -> "object":
    """One row per policy: its NashConv (exact)."""
    import pandas as pd

    return pd.DataFrame([{"policy": name, "nash_conv": nash_conv(bets)}
                         for name, bets in named_bets.items()])


def mixture_bets(member_bets, probabilities) -> np.ndarray:
    """The one table of bet probabilities that plays as a field does (a member drawn per game,
    then played throughout; Kuhn's theorem): at each information set, the members' bets
    weighted by how likely each member is to reach it. Only the first seat's second decision
    ("pb": it passed, was bet against) depends on its own earlier action."""
    bets = np.asarray(member_bets, float)
    weights = np.asarray(probabilities, float)[:, None]
    mixed = (weights * bets).sum(axis=0) / weights.sum()
    for card in range(len(CARD_NAMES)):
        first, later = 4 * card + HISTORIES.index(""), 4 * card + HISTORIES.index("pb")
        reach = weights[:, 0] * (1 - bets[:, first])
        if reach.sum() > 0:
            mixed[later] = float((reach * bets[:, later]).sum() / reach.sum())
    return mixed


def field_bets(path) -> np.ndarray:
    """A Kuhn field file's (sim/field.py) bets: every member must be a trained policy or the
    closed-form equilibrium (``nash``), whose bets are known."""
    from sim import field as F
    from sim.games import get_game
    from games.kuhn.strategies import nash

    spec = get_game("kuhn")
    body = F.load(path, spec)
    tables = []
    for member in body["members"]:
        if "weights" in member:
            tables.append(trained_bets(member["weights"], member.get("temperature", 0.0)))
        elif member["strategy"] == "nash":
            tables.append(np.asarray(nash().params, float))
        else:
            raise RunError(f"{path}: member {member['strategy']!r} has no exact bet table")
    return mixture_bets(tables, [m["probability"] for m in body["members"]])


def field_exactly(path) -> tuple[float, str]:
    """The FIELD recipe's ``exact`` measure: a field file's NashConv, and how to read it (Kuhn's
    payoff is chips: a best response's share of won hands is not what the equilibrium
    minimises)."""
    return nash_conv(field_bets(path)), "exact NashConv (OpenSpiel, chips; 0 at an equilibrium)"


SEARCH_BUDGETS = (16, 64, 256, 1024)


def shipped_bets() -> np.ndarray:
    """The shipped trained policy's (games/kuhn/policies/kuhn.json) bet probabilities."""
    from sim import trained as T
    from sim.games import get_game

    spec = get_game("kuhn")
    policy = T.load(T.shipped_path(spec, 2), spec)
    return trained_bets(policy["weights"], policy.get("temperature", 0.0))


def calibration_table(budgets=SEARCH_BUDGETS, runs: int = 100, seed: int = 0):
    """The figures docs/training.md records: the NashConv of the shipped trained policy, of
    uniform random play, of Kuhn's closed-form equilibrium and of the search player at each
    budget with random and with equilibrium rollouts (its bets estimated from ``runs`` searches
    per information set, so its figure carries that sampling error)."""
    from games.kuhn.strategies import nash

    from sim import field as F
    from sim.games import get_game

    named = {"trained (shipped)": shipped_bets(), "uniform random": np.full(12, 0.5),
             "nash (alpha 1/6)": np.asarray(nash().params, float)}
    strong = F.shipped_path(get_game("kuhn"), 2)
    if strong is not None:
        named["strong field (shipped)"] = field_bets(strong)
    for rollout in ("random", "nash"):
        for budget in budgets:
            named[f"ismcts:budget={budget},rollout={rollout}"] = search_bets(
                budget, runs=runs, seed=seed, rollout=rollout)
    return exploitability_table(named)


__all__ = ["nash_conv", "objective", "search_bets", "tabular_policy", "trained_bets",
           "mixture_bets", "field_bets",
           "exploitability_table", "calibration_table", "shipped_bets", "SITUATIONS"]


if __name__ == "__main__":  # python -m games.kuhn.study.calibration: docs/training.md's table
    require_openspiel()
    print(calibration_table().to_string(index=False, float_format="%.4f"))
