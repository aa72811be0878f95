"""A readable narrative of one Shuo Jian duel from its event log (rule ids: shared/rules/shuo_jian.md).

The log carries the game's own card and condition tables (EV.TYPE, EV.CONDITION), so the
narrative names every card and the condition each reply was checked against.
"""
from __future__ import annotations

from . import layout as L
from .conditions import name_of

WHY_DRAW = {L.WHY.DEAL: "deal", L.WHY.PLAY: "draws before playing (SJ-3)",
            L.WHY.EXTRA: "draws 1 more (SJ-10)",
            L.WHY.EXCHANGE: "draws as the exchange starts (OP-11)"}
BLOW = {L.CARD.SLASH: "Slash", L.CARD.THRUST: "Thrust", L.CARD.COUNTER: "Counter-kill"}
END_WHY = {
    L.END.SLASH: "a Slash was not answered (SJ-8)",
    L.END.THRUST: "a Thrust was not dodged (SJ-12)",
    L.END.COUNTER: "a right Counter-kill was not dodged (SJ-11)",
    L.END.VOID_DODGE: "a dodge found no square to move to: void (SJ-9)",
    L.END.DECK_OUT: "the deck ran out: the smaller hand wins (SJ-14)",
    L.END.DRAW: "the deck ran out with equal hands (SJ-14, OP-8)",
    L.END.CAP: "the turn cap was reached (should never happen)",
    L.END.BROKEN: "card conservation failed (a kernel bug)",
}
SQUARE = ("left", "right")


class _Cards:
    """Card and condition names from the log's own tables."""

    def __init__(self, events):
        self.conditions = {e[3]: name_of(int(e[4]), int(e[5])) for e in events
                           if e[0] == L.EV.CONDITION}
        self.types = {e[3]: (e[4], e[5], e[6]) for e in events if e[0] == L.EV.TYPE}

    def card(self, t: int, with_condition: bool = True) -> str:
        if t < L.FIRST_NUMBER:
            return L.SPECIAL_NAMES[t]
        action, value, cond = self.types.get(t, (-1, -1, -1))
        if action == L.ACT.ZERO:
            return "0"
        name = f"{'straight' if action == L.ACT.STRAIGHT else 'sweep'} {value}"
        return f"{name} [{self.conditions.get(cond, '?')}]" if with_condition and cond >= 0 else name

    def play(self, tens: int, units: int, number: int) -> str:
        if units < 0:
            return f"{number} ({self.card(tens)})"
        return f"{number} ({self.card(tens)} | {self.card(units)})"

    def condition_list(self, bits: int) -> str:
        names = [self.conditions.get(c, f"#{c}") for c in range(L.MAX_CONDITIONS) if (bits >> c) & 1]
        return " and ".join(names) if names else "no condition"


def narrate(events, labels) -> str:
    """Text of one duel: set-up, every play with the condition it was checked against, every
    pass, finishing blow and dodge, and why it ended."""
    cards = _Cards(events)
    who = lambda s: f"P{s} ({labels[s]})"  # noqa: E731
    lines: list[str] = []
    hands: dict[int, list[str]] = {0: [], 1: []}
    for row in events:
        event, turn, seat, a, b, c, d, e = (int(x) for x in row[:8])
        if event in (L.EV.SWORDSMAN, L.EV.SWORDSMAN_HIDDEN):
            hidden = " (its owner may not look, OP-15)" if event == L.EV.SWORDSMAN_HIDDEN else ""
            lines.append(f"{who(seat)} takes a swordsman face down: {cards.card(a, False)}{hidden} (SJ-1).")
        elif event == L.EV.PLACE:
            lines.append(f"  {who(seat)}'s swordsman stands on its owner's {SQUARE[a]} square (OP-5).")
        elif event == L.EV.DRAW and b == L.WHY.DEAL:
            hands[seat].append(cards.card(a))
        elif event == L.EV.REDRAW:
            zeros = f" not counting its {b} 0(s) (opening_zeros=false, OP-16)" if b else ""
            lines.append(f"  {who(seat)}'s opening hand ({', '.join(hands[seat])}) has {a} number "
                         f"card(s){zeros}: shuffled back and redrawn (SJ-2).")
            hands[seat] = []
        elif event == L.EV.FIRST:
            for s in (0, 1):
                lines.append(f"{who(s)} opening hand: {', '.join(hands[s])}")
            lines.append(f"{who(seat)} attacks first (SJ-3).\n")
        elif event == L.EV.DRAW:
            lines.append(f"  {who(seat)} {WHY_DRAW[b]}: {cards.card(a)}")
        elif event == L.EV.ATTACK:
            lines.append(f"Turn {turn}: {who(seat)} attacks with {cards.play(a, b, c)}.")
        elif event == L.EV.REPLY:
            lines.append(f"Turn {turn}: {who(seat)} replies {cards.play(a, b, c)} to {d}, "
                         f"checked against {cards.condition_list(e)} (SJ-5, SJ-6).")
        elif event == L.EV.PASS:
            why = "cannot reply" if a else "chooses to pass (OP-13)"
            lines.append(f"Turn {turn}: {who(seat)} {why} to {b} ({cards.condition_list(c)}): "
                         f"pass, and takes the {d} card(s) on the table (SJ-7).")
        elif event == L.EV.NO_LEAD:
            lines.append(f"  {who(seat)} has no legal lead: the attack passes (OP-16).")
        elif event == L.EV.FOLLOW:
            text = {L.FOLLOW.NONE: "does not follow up", L.FOLLOW.SLASH: "SLASHES (SJ-8)",
                    L.FOLLOW.THRUST: "THRUSTS (SJ-12)"}[a]
            lines.append(f"  {who(seat)} {text}.")
        elif event == L.EV.DODGE:
            side = "left" if a == L.ANSWER.LEFT else "right"
            if c:
                lines.append(f"  {who(seat)} dodges {side}, but there is no square there: void (SJ-9)!")
            else:
                lines.append(f"  {who(seat)} dodges {side} to its {SQUARE[b]} square (SJ-9).")
        elif event == L.EV.COUNTER:
            result = "right! The opponent must dodge (SJ-11)" if b else "wrong: it fails (SJ-11)"
            lines.append(f"  {who(seat)} plays a Counter-kill naming {a}: {result}.")
        elif event == L.EV.HIT:
            lines.append(f"  {who(seat)} has no answer to the {BLOW[a]}.")
        elif event == L.EV.CLEAR:
            lines.append(f"  The {a} card(s) on the table leave play (OP-14).")
        elif event == L.EV.REVEAL:
            lines.append(f"  {who(seat)}'s swordsman was {cards.card(a, False)}.")
        elif event == L.EV.END:
            lines.insert(len(lines) - 2, f"\nGame over after {turn} turns: {END_WHY[a]}. Hands: "
                         f"P0 {c}, P1 {d} card(s); {e} left in the deck.")
            won = [who(s) for s in (0, 1) if (b >> s) & 1]
            lines.append("Winner: " + (" and ".join(won) + " (draw)" if len(won) > 1 else
                                       won[0] if won else "nobody"))
    return "\n".join(lines)
