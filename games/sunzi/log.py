"""A readable narrative of one Sunzi / Dynasties game from its event log.

The narrative knows the default region names (OP-1); with a user region list it says
"region 0", "region 1"... because the engine hands narratives the events only.
"""
from __future__ import annotations

from . import layout as L
from .rules import DEFAULT_REGIONS, LEADER_NAMES

SIDES = ("White (Sun Wu)", "Black (Chu)")
SHORT = ("White", "Black")
END_WHY = {
    L.END.RED_ZONE: "the score general reached a red zone (SZ-19)",
    L.END.GENERAL: "after round 9 the score general stands on one side (SZ-20)",
    L.END.SUPPLY: "after round 9 the general is central; more armies in supply wins (SZ-20)",
    L.END.DRAW: "after round 9 the general is central and the supplies are equal: a draw (OP-12)",
    L.END.BROKEN: "army conservation failed (a simulator bug)",
}
WHY_MOVE = {L.WHY.PLACE: "to cover a shortage (SZ-12)", L.WHY.COST: "to pay a +2/+3 cost (SZ-12)",
            L.WHY.MARKER: "for a marker (SZ-15)"}


def region(r: int, n_regions: int) -> str:
    return DEFAULT_REGIONS[r] if n_regions == len(DEFAULT_REGIONS) else f"region {r}"


def card(c: int) -> str:
    return L.CARD_LABELS[c] if c >= 0 else "?"


def cards(mask: int) -> str:
    return ", ".join(card(c) for c in range(L.N_CARDS) if (mask >> c) & 1) or "nothing"


def battle_text(a: int, b: int, margin: int) -> str:
    """The arithmetic of SZ-9 / SZ-11 for White's card a against Black's card b."""
    if a <= L.CARD.W10 and b <= L.CARD.W10:
        sums = f"{a + 1} - {b + 1} = {margin}"
    else:
        sums = f"special card (SZ-11): White's margin {margin:+d}"
    if margin == 0:
        return f"{sums}: a tie, nothing happens (SZ-9)"
    return f"{sums}: {SHORT[0] if margin > 0 else SHORT[1]} wins by {abs(margin)}"


def narrate(events, labels) -> str:
    """Text of one game: set-up, every placement, reveal order, battle, scoring and the end."""
    rows = [tuple(int(x) for x in e) for e in events]
    n_regions = sum(1 for e in rows if e[0] == L.EV.TILE)
    name = lambda r: region(r, n_regions)  # noqa: E731
    who = lambda s: f"{SIDES[s]} [{labels[s]}]" if s >= 0 else ""  # noqa: E731
    lines = [f"Sunzi / Dynasties: {who(0)} against {who(1)}.", "Set-up (SZ-4..SZ-6): tiles beside the "
             "regions (points after rounds 3 / 6 / 9):"]
    board, placed, rnd_seen = {}, {}, 0
    for event, rnd, seat, a, b, c, d, e in rows:
        side = SHORT[seat] if seat >= 0 else ""
        if rnd != rnd_seen and rnd > 0:
            lines.append(f"\nRound {rnd}")
            rnd_seen = rnd
        if event == L.EV.TILE:
            lines.append(f"  {name(a)}: {b}-{c}-{d}")
        elif event == L.EV.LEADER:
            lines.append(f"  {side} plays without a leader (SZ-3)" if a < 0 else
                         f"  {side} chooses its leader (SZ-3): {'abcd'[a]} = {LEADER_NAMES[seat][a]}")
        elif event == L.EV.LEADER_SHOWN:
            lines.append(f"  {side}'s leader is shown: {'abcd'[a]} = {LEADER_NAMES[seat][a]}")
        elif event == L.EV.HAND:
            lines.append(f"  {side}'s hand: {cards(a)}")
        elif event == L.EV.BUY:
            lines.append(f"  {side} discards {card(a)} for an army (SZ-2); supply {b}")
        elif event == L.EV.DECIDER:
            if seat < 0:
                why = "round 1" if rnd == 1 else f"equal armies ({a} / {b}) and nobody decided before"
                lines.append(f"  Reveal order: left to right ({why}; SZ-8)")
            else:
                lines.append(f"  {side} decides the reveal order (SZ-8; armies White {a}, Black {b})")
        elif event == L.EV.PLACE:
            placed.setdefault(seat, []).append(f"{name(b)} {card(a)}" + (" (as a 6)" if c else ""))
            if len(placed[seat]) == n_regions:
                lines.append(f"  {side} places face down: {', '.join(placed.pop(seat))}")
        elif event == L.EV.ORDER:
            order = [(a >> (4 * i)) & 15 for i in range(b)]
            what = "Next region to reveal" if b == 1 else "Reveal order"
            lines.append(f"  {what}: {', '.join(name(r) for r in order)}")
        elif event == L.EV.REVEAL:
            lines.append(f"  {name(a)}: White {card(b)} vs Black {card(c)}")
        elif event == L.EV.MARKER:
            why = {6: "the 6 power (SZ-15)", 0: "Sun Wu's outpost (SZ-16a)",
                   L.POWER.C: "Chu's second 6 power (SZ-17c)"}[b]
            lines.append(f"    {side} puts a marker beside {name(a)}: {why}")
        elif event == L.EV.BATTLE:
            lines.append(f"    {battle_text(b, c, d)}")
        elif event == L.EV.COST:
            unpaid = f" ({c} could not be paid)" if c else ""
            lines.append(f"    {side} loses {a} arm{'y' if a == 1 else 'ies'} for the attack "
                         f"(SZ-11, OP-7){unpaid}")
        elif event == L.EV.SPLIT:
            loser = SHORT[1 - seat]
            short = f", {d} could not be placed (no army left)" if d else ""
            lines.append(f"    {side} removes {b} of {loser}'s armies and places {c} (SZ-10){short}")
        elif event == L.EV.MOVE:
            target = name(b) if b >= 0 else "out of the game"
            lines.append(f"    {side} moves an army from {name(a)} to {target} {WHY_MOVE[c]}")
        elif event == L.EV.PLAGUE:
            how = ("Chu's Plague wipes armies down to one (SZ-17b)" if d
                   else "Plague: no battle, armies halved (SZ-11, OP-4)")
            lines.append(f"    {how}: White loses {b}, Black loses {c}")
        elif event == L.EV.SHIELD:
            lines.append(f"    Chu is immune to the Plague (SZ-17a): keeps {b} "
                         f"arm{'y' if b == 1 else 'ies'}")
        elif event == L.EV.POWER:
            target = f" on {name(b)}" if b >= 0 else ""
            target += f" to {name(c)}" if c >= 0 and a == L.POWER.D and seat == L.WHITE else ""
            lines.append(f"    {side} uses leader power {'abcd'[a]} ({LEADER_NAMES[seat][a]}){target}")
        elif event == L.EV.STATE:
            board[a] = f"{name(a)} W {b}{f'+{c}m' if c else ''} / B {d}{f'+{e}m' if e else ''}"
            if len(board) == n_regions:
                regions = "; ".join(board[r] for r in range(n_regions))
                lines.append(f"  Board (armies + markers): {regions}")
                board = {}
        elif event == L.EV.SCORE:
            lines.append(f"  Scoring (SZ-18): {name(a)} to {side} for {b} point{'s' * (b != 1)}; "
                         f"general at {c:+d}")
        elif event == L.EV.DRAW and a:
            lines.append(f"  {side} draws {cards(a)} and keeps {cards(b)} (SZ-13/14)")
        elif event == L.EV.END:
            won = [SIDES[s] for s in range(2) if (b >> s) & 1]
            lines.append(f"\nGame over after round {rnd}: {END_WHY[a]}. General at {c:+d} (+ = White's "
                         f"side), supplies White {d}, Black {e}.")
            lines.append("Winner: " + (" and ".join(won) + (" (a draw)" if len(won) == 2 else "")
                                       if won else "nobody"))
    return "\n".join(lines)
