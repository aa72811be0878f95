"""A readable narrative of one Parthian Shot game from its event log."""
from __future__ import annotations

from . import layout as L

RESUPPLY_WHY = {13: "charged (PS-13)", 14: "played their 5th shot, camels bring arrows (PS-14)",
                9: "took damage (PS-9)"}
END_WHY = {
    L.END.VICTORY: "all 7 legions are defeated: Parthian victory (PS-15); the highest score wins",
    L.END.DEFEAT: "a player could not pay damage: the Parthians are routed (PS-12, PS-16); "
                  "the routed cannot win and the lowest score among the others escapes",
    L.END.NO_SURVIVOR: "every player was routed at once: nobody can win (PS-16)",
    L.END.CAP: "the round cap was reached (should never happen)",
}


def card_name(action: int, value: int) -> str:
    return f"CHARGE (power {value})" if action == L.CHARGE else f"shot {value}"


def narrate(events, labels) -> str:
    """Text of one game: every card played, each legion's fate, and why the game ended."""
    lines = []
    for event, rnd, player, a, b, c in events:
        who = f"P{player} ({labels[player]})" if player >= 0 else ""
        if event == L.EV.LEGION:
            lines.append(f"\nRound {rnd}: a legion of strength {a} attacks ({b} in the deck).")
        elif event == L.EV.PLAY:
            lines.append(f"  {who} plays {card_name(a, b)}")
        elif event == L.EV.DEFEATED:
            merit = f"merit to P{c}" if c >= 0 else "nobody gets the merit (quarrel, PS-7)"
            lines.append(f"  Total {a} > {b}: the legion is defeated; {merit}.")
        elif event == L.EV.BREAKTHROUGH:
            spared = " A charger died for everyone: no damage (PS-10)." if c else ""
            lines.append(f"  Total {a} <= {b}: the legion breaks through (PS-9).{spared}")
        elif event == L.EV.DAMAGE:
            if a >= 0:
                lines.append(f"  {who} played the highest card and takes 1 damage ({a} charge card(s) left).")
            else:
                lines.append(f"  {who} must take damage but has no charge card: routed (PS-12)!")
        elif event == L.EV.RESUPPLY:
            lines.append(f"  {who}'s shooting cards return to hand: {RESUPPLY_WHY[a]}.")
        elif event == L.EV.SCORE:
            lines.append(f"  {who}: score {a} (merits + charge cards in hand), best legion {b}")
        elif event == L.EV.END:
            lines.insert(len(lines) - sum(1 for e in events if e[0] == L.EV.SCORE),
                         f"\nGame over after {rnd} rounds: {END_WHY[a]}.")
            won = [f"P{p} ({labels[p]})" for p in range(len(labels)) if (b >> p) & 1]
            lines.append("Winner: " + (" and ".join(won) + (" (shared)" if len(won) > 1 else "")
                                       if won else "nobody"))
    return "\n".join(lines).lstrip("\n")
