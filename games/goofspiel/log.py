"""A readable narrative of one Goofspiel game from its event log (rule ids: games/goofspiel/RULES.md)."""
from __future__ import annotations

from . import layout as L

END_WHY = {
    L.END.WON: "the most prize points wins (GS-7)",
    L.END.SHARED: "several players tie for the most points and share the win (GS-7)",
    L.END.DRAW: "every player has the same points: a draw (GS-7)",
}


def narrate(events, labels) -> str:
    """Text of one game: each prize, every bid as it is revealed, who took what, the result."""
    lines = []
    for event, turn, seat, a, b, c in events:
        who = f"P{seat} ({labels[seat]})" if seat >= 0 else ""
        if event == L.EV.PRIZE:
            lines.append(f"\nTurn {turn}: prize {a} is revealed (unseen prize cards: {b}).")
        elif event == L.EV.REVEAL:
            lines.append(f"  {who} bids {a}")
        elif event == L.EV.TURN:
            if seat >= 0:
                lines.append(f"  {who} takes the {a} (now {b} points).")
            else:
                lines.append(f"  Tie for the highest bid: the {a} is discarded (GS-4).")
        elif event == L.EV.SCORE:
            lines.append(f"  {who}: {a} points from {b} prizes")
        elif event == L.EV.END:
            n_scores = sum(1 for e in events if e[0] == L.EV.SCORE)
            lines.insert(len(lines) - n_scores, f"\nGame over after {turn} turns: {END_WHY[a]}.")
            won = [f"P{p} ({labels[p]})" for p in range(len(labels)) if (b >> p) & 1]
            text = "draw" if a == L.END.DRAW else " and ".join(won) + (" (shared)" if len(won) > 1 else "")
            lines.append("Winner: " + text)
    return "\n".join(lines).lstrip("\n")
