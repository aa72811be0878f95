"""A readable narrative of one Samurai Sword game from its event log (the omniscient view:
hidden roles and private draws are shown, marked as secret)."""
from __future__ import annotations

from . import layout as L

HONOUR_WHY = {L.HONOUR.DEFEAT: "defeat (SS-12)", L.HONOUR.RESHUFFLE: "the deck ran out (SS-6)",
              L.HONOUR.BUSHIDO: "Bushido (SS-18)"}
DISCARD_WHY = {L.WHY.HAND_LIMIT: "down to the hand limit (SS-8)", L.WHY.GEISHA: "to a Geisha (SS-16)",
               L.WHY.ANSWER: "to answer", L.WHY.FLIP: "flipped for Bushido (SS-18)",
               L.WHY.BUSHIDO: "to pass Bushido on (SS-18)"}
END_WHY = {L.END.HONOUR: "a player has no honour left (SS-19): the teams count their points",
           L.END.SWORDMASTER: "every player but one is at 0 resilience: Swordmaster (SS-20)",
           L.END.TEAMMATE_DEFEAT: "every player but one is at 0 resilience, but by the defeat of "
                                  "a teammate: no Swordmaster (SS-20); the teams count their "
                                  "points (SS-19)",
           L.END.CAPPED: "the turn cap was reached (OP-3): nobody wins",
           L.END.BROKEN: "an invariant failed (a bug in the kernel)"}


def card(t: int) -> str:
    return L.CARD_NAMES[t] if 0 <= t < L.N_TYPES else "nothing"


def role_name(role: int, stars: int) -> str:
    name = L.ROLE_NAMES[role].capitalize()
    return f"{name} ({stars}*)" if role == L.ROLE.NINJA and stars else name


def answer(a: int, against: int) -> str:
    if a == L.ACT.TAKE:
        return "takes it"
    if a == L.CARD.PARRY:
        return "parries" if against != L.CARD.BATTLE_CRY else "discards a Parry"
    if against == L.CARD.JUJUTSU:
        return f"discards {card(a)}"
    return f"parries with {card(a)} (Hanzo)"


def narrate(events, labels) -> str:
    """Text of one game: roles, characters, every card and target, every reaction, honour
    changes, the end and the scores."""
    who = {}
    lines = []

    def p(seat):
        return who.get(int(seat), f"P{seat}")

    pending_cards: dict[int, list[str]] = {}
    first_score = None
    for row in events:
        event, turn, seat, a, b, c, d = (int(x) for x in row)
        if event == L.EV.ROLE:
            lines.append(f"P{seat} ({labels[seat]}) is secretly {role_name(a, b)}")
        elif event == L.EV.SHOGUN:
            lines.append(f"P{seat} reveals the Shogun card and starts (SS-1)")
        elif event == L.EV.CHARACTER:
            who[seat] = f"P{seat} {L.CHARACTER_NAMES[a]}"
            lines.append(f"{p(seat)}: resilience {b}, honour {c}")
        elif event == L.EV.TURN:
            lines.append(f"\nTurn {turn}: {p(seat)}")
        elif event == L.EV.RECOVER:
            lines.append(f"  {p(seat)} recovers to {a} resilience (SS-5)")
        elif event == L.EV.CARD:
            if b == 0:
                pending_cards.setdefault(seat, []).append(card(a))
            elif b == 1:
                lines.append(f"  (secret) {p(seat)} got {card(a)}")
        elif event == L.EV.DRAWS:
            got = pending_cards.pop(seat, [])
            if b == 1:
                lines.append(f"  {p(seat)} takes {card(c)} from the discard pile (Ieyasu)")
            elif a or got:
                lines.append(f"  {p(seat)} draws {a}" + (f" (secret: {', '.join(got)})" if got else ""))
        elif event == L.EV.PLAY:
            target = f" on {p(b)}" if b >= 0 and b != seat else (" (in front of self)" if b == seat else "")
            if a == L.CARD.BREATHING:
                target = f": full resilience, and {p(b)} draws 1"
            lines.append(f"  {p(seat)} plays {card(a)}{target}")
        elif event == L.EV.REACT:
            lines.append(f"    {p(seat)} {answer(a, b)}")
        elif event == L.EV.WOUND:
            kind = "" if d else " (no weapon)"
            lines.append(f"    {p(seat)} loses {a} resilience{kind}, {c} left")
        elif event == L.EV.DEFEAT:
            lines.append(f"    {p(seat)} is defeated by {p(a)} and is harmless until recovered (SS-12)")
        elif event == L.EV.HONOUR:
            lines.append(f"    honour: {p(seat)} {a:+d} -> {b} ({HONOUR_WHY[c]})")
        elif event == L.EV.RESHUFFLE:
            lines.append(f"  The deck is empty: {a} discards shuffled into a new deck "
                         f"(reshuffle {b}); everyone loses honour (SS-6)")
        elif event == L.EV.DISCARD:
            lines.append(f"    {p(seat)} discards {card(a)} {DISCARD_WHY.get(b, '')}")
        elif event == L.EV.STEAL:
            lines.append(f"    {p(seat)} takes a random card from {p(a)} (Diversion)")
        elif event == L.EV.LOST:
            lines.append(f"    (secret) it was {card(a)}")
        elif event == L.EV.PROPERTY_LOST:
            lines.append(f"    {p(seat)} discards {card(a)} from play (Geisha)")
        elif event == L.EV.BUSHIDO:
            flip = card(a) if a >= 0 else "nothing"
            fate = f"passes to {p(b)}" if b >= 0 else "is discarded"
            lines.append(f"  Bushido: {p(seat)} flips {flip}; Bushido {fate}")
        elif event == L.EV.NOBUNAGA:
            lines.append(f"  {p(seat)} trades 1 resilience for a card ({a} left)")
        elif event == L.EV.SCORE:
            if first_score is None:
                first_score = len(lines)
            lines.append(f"  {p(seat)} ({labels[seat]}) was {role_name(a, b)}: {c} points"
                         + (f" ({d} Daimyo)" if d else ""))
        elif event == L.EV.TEAM:
            if a != L.TEAM.RONIN or b:
                lines.append(f"  team {L.TEAM_NAMES[a]}: {b}")
        elif event == L.EV.END:
            end = [f"\nGame over after {turn} turns: {END_WHY[a]}."]
            if d >= 0:
                end.append(f"Deadly strike: team {L.TEAM_NAMES[d]} loses 3 points (SS-19).")
            at = len(lines) if first_score is None else first_score
            lines[at:at] = end + ["Scores (SS-19):"]
            won = [p(s) for s in range(len(labels)) if (b >> s) & 1]
            lines.append(f"Winner: team {L.TEAM_NAMES[c]} ({', '.join(won)})" if c >= 0
                         else "Winner: nobody")
    return "\n".join(lines).strip("\n")
