"""A readable narrative of one Kuhn poker game from its event log (rule ids: games/kuhn/RULES.md)."""
from __future__ import annotations

from . import layout as L

ACTS = {(False, L.PASS): "checks", (False, L.BET): "bets", (True, L.PASS): "folds (KP-4)",
        (True, L.BET): "calls"}


def narrate(events, labels) -> str:
    lines, facing = [], False
    for event, k, seat, a, b, c in events:
        who = f"P{seat} ({labels[seat]})" if seat >= 0 else ""
        if event == L.EV.DEAL:
            lines.append(f"{who} is dealt the {L.CARD_NAMES[a]} (only they see it).")
        elif event == L.EV.ACT:
            lines.append(f"  {who} {ACTS[(facing, a)]}: {b} chip(s) in the pot")
            facing = facing or a == L.BET
        elif event == L.EV.SHOW:
            lines.append(f"  Showdown: {who} shows the {L.CARD_NAMES[a]}")
        elif event == L.EV.END:
            winner = [p for p in range(len(labels)) if (b >> p) & 1][0]
            how = "wins the showdown (KP-5)" if a == L.END.SHOWDOWN else "takes the pot (KP-4)"
            lines.append(f"P{winner} ({labels[winner]}) {how}: a pot of {c}.")
    return "\n".join(lines)
