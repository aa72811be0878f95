"""A readable narrative of one Leduc poker game from its event log (rule ids: games/leduc/RULES.md)."""
from __future__ import annotations

from . import layout as L


def narrate(events, labels) -> str:
    lines, owed = [], False
    for event, rnd, seat, a, b, c in events:
        who = f"P{seat} ({labels[seat]})" if seat >= 0 else ""
        if event == L.EV.DEAL:
            lines.append(f"{who} is dealt the {L.CARD_NAMES[a]} (only they see it).")
        elif event == L.EV.FLOP:
            lines.append(f"Round 2: the public card is the {L.CARD_NAMES[a]} (LP-5).")
            owed = False
        elif event == L.EV.ACT:
            verb = {L.FOLD: "folds (LP-6)", L.CALL: "calls" if owed else "checks",
                    L.RAISE: "raises" if owed else "bets"}[a]
            lines.append(f"  {who} {verb}: {b} chip(s) in the pot from them")
            owed = a == L.RAISE
        elif event == L.EV.SHOW:
            lines.append(f"  Showdown: {who} shows the {L.CARD_NAMES[a]}")
        elif event == L.EV.END:
            winners = [p for p in range(len(labels)) if (b >> p) & 1]
            if a == L.END.SPLIT:
                lines.append(f"Equal ranks split the pot of {c} (LP-7).")
            else:
                how = "wins the showdown (LP-7)" if a == L.END.SHOWDOWN else "takes the pot (LP-6)"
                lines.append(f"P{winners[0]} ({labels[winners[0]]}) {how}: a pot of {c}.")
    return "\n".join(lines)
