"""An independent referee for Samurai Sword event logs.

It replays a game's event log (rows ``(event, turn, seat, a, b, c, d)`` as documented in
games/samurai/layout.py) against shared/rules/samurai_sword.md with the default rule options (or, for SS-21's
Bushido, the seed's reading: ``shogun_bushido="choose"``) and its own bookkeeping: roles, characters, hands, resilience, honour, properties, Bushido, the deck
(as the multiset of cards not yet seen) and the discard pile. ``referee(...)`` returns the list of
problems found, each naming the event index and the rule id (SS-n / OP-n) it breaks.

The referee shares only the log's *encodings* with the kernel (event, card, character and role
numbers from layout.py). Every number the rules fix (card stats and copies, resilience, honour,
opening hands, multipliers, teams) is typed again below from the rules brief, so a slip in the
kernel or in its data files shows up as a disagreement instead of being copied.
"""
from collections import Counter

from games.samurai import layout as L

# --- the rules brief, typed again ---------------------------------------------------------------
CARD = {name: i for i, name in enumerate(L.CARD_NAMES)}
# "The 90 play cards": copies, and the weapons' difficulty (reach) / damage.
COPIES = {"Bokken": 6, "Bo": 5, "Kiseru": 5, "Kusarigama": 4, "Shuriken": 3, "Naginata": 2,
          "Nagayari": 1, "Kanabo": 1, "Daikyu": 1, "Tanegashima": 1, "Wakizashi": 1, "Katana": 1,
          "Nodachi": 1, "Parry": 15, "Geisha": 6, "Diversion": 5, "Tea Ceremony": 4,
          "Battle Cry": 4, "Jujutsu": 3, "Breathing": 3, "Daimyo": 3, "Focus": 6, "Armor": 4,
          "Fast Draw": 3, "Bushido": 2}
REACH_DAMAGE = {"Bokken": (1, 1), "Bo": (2, 1), "Kiseru": (1, 2), "Kusarigama": (2, 2),
                "Shuriken": (3, 1), "Naginata": (4, 1), "Nagayari": (4, 2), "Kanabo": (3, 2),
                "Daikyu": (5, 2), "Tanegashima": (5, 1), "Wakizashi": (1, 3), "Katana": (2, 3),
                "Nodachi": (3, 3)}
FULL_DECK = Counter({CARD[name]: k for name, k in COPIES.items()})
WEAPONS = {CARD[name] for name in REACH_DAMAGE}
REACH = {CARD[name]: r for name, (r, _) in REACH_DAMAGE.items()}
DAMAGE = {CARD[name]: d for name, (_, d) in REACH_DAMAGE.items()}
PROPERTIES = {CARD[name] for name in ("Focus", "Armor", "Fast Draw", "Bushido")}
# SS-3: the 12 characters and their resilience.
RESILIENCE = {"Benkei": 5, "Chiyome": 4, "Ginchiyo": 4, "Goemon": 5, "Hanzo": 4, "Hideyoshi": 4,
              "Ieyasu": 5, "Kojiro": 5, "Musashi": 5, "Nobunaga": 5, "Tomoe": 5, "Ushiwaka": 4}
CHARACTER = {name: i for i, name in enumerate(L.CHARACTER_NAMES)}
BENKEI, CHIYOME, GINCHIYO, GOEMON, HANZO, HIDEYOSHI, IEYASU, KOJIRO, MUSASHI, NOBUNAGA, TOMOE, \
    USHIWAKA = (CHARACTER[name] for name in RESILIENCE)
SHOGUN, SAMURAI, NINJA, RONIN = L.ROLE.SHOGUN, L.ROLE.SAMURAI, L.ROLE.NINJA, L.ROLE.RONIN
# SS-1: the role cards in play; SS-2: starting honour; SS-19: multipliers (4p Ninja: see score).
ROLES = {3: {SHOGUN: 1, NINJA: 2}, 4: {SHOGUN: 1, SAMURAI: 1, NINJA: 2},
         5: {SHOGUN: 1, SAMURAI: 1, NINJA: 2, RONIN: 1}, 6: {SHOGUN: 1, SAMURAI: 1, NINJA: 3, RONIN: 1},
         7: {SHOGUN: 1, SAMURAI: 2, NINJA: 3, RONIN: 1}}
HONOUR = {3: {SHOGUN: 6, NINJA: 3}, 4: {SHOGUN: 5, SAMURAI: 3, NINJA: 3},
          5: {SHOGUN: 5, SAMURAI: 3, NINJA: 3, RONIN: 3}, 6: {SHOGUN: 5, SAMURAI: 4, NINJA: 4, RONIN: 4},
          7: {SHOGUN: 5, SAMURAI: 4, NINJA: 4, RONIN: 4}}
MULTIPLIER = {3: {SHOGUN: 2, NINJA: 1}, 4: {SHOGUN: 1, SAMURAI: 2, NINJA: 1},
              5: {SHOGUN: 1, SAMURAI: 1, NINJA: 1, RONIN: 2}, 6: {SHOGUN: 1, SAMURAI: 2, NINJA: 1, RONIN: 3},
              7: {SHOGUN: 1, SAMURAI: 1, NINJA: 1, RONIN: 3}}
OPENING_HAND = (4, 5, 5, 6, 6, 7, 7)          # SS-4, clockwise from the Shogun
HAND_LIMIT = 7                                 # SS-8
DEADLY_STRIKE = 3                              # SS-19
TEAM = {SHOGUN: L.TEAM.SHOGUN, SAMURAI: L.TEAM.SHOGUN, NINJA: L.TEAM.NINJA, RONIN: L.TEAM.RONIN}
TIE_ORDER = (L.TEAM.NINJA, L.TEAM.SHOGUN, L.TEAM.RONIN)   # SS-19: Ninja beat all, Shogun beats Ronin
TEAM_RECORD = {L.TEAM.SHOGUN: "score_shogun_team", L.TEAM.NINJA: "score_ninja", L.TEAM.RONIN: "score_ronin"}
DEFAULT_TURN_CAP = 600                         # OP-3 (games/samurai/rules.py option turn_cap)

# Log encodings (layout.py): where an EV.CARD comes from, and EV.DRAWS' source for Ieyasu's draw.
FROM_DECK, STOLEN, FROM_DISCARD_TOP = 0, 1, 2
DRAWN_FROM_DISCARD = 1


class Referee:
    """Replays one event log; ``problems`` collects every disagreement with the rules."""

    def __init__(self, n_players: int, events, record: dict | None = None, turn_cap=DEFAULT_TURN_CAP,
                 shogun_bushido: str = "discard"):
        self.n = n_players
        # SS-21: the 3-player Shogun "never loses honour to Bushido (just discards it)" (the
        # brief, "discard"); the seed: "if he would have to lose honour, he discards Bushido",
        # read as keeping his choice to pass it on with a weapon ("choose").
        self.shogun_bushido = shogun_bushido
        self.events = [tuple(int(x) for x in row) for row in events]
        self.record = record
        self.turn_cap = turn_cap
        self.problems: list[str] = []
        self.seen = Counter()            # event code -> count, and a few named situations
        n = n_players
        self.role, self.stars, self.char = [None] * n, [0] * n, [None] * n
        self.res, self.max_res, self.honour = [0] * n, [0] * n, [0] * n
        self.hand = [Counter() for _ in range(n)]
        self.props = [Counter() for _ in range(n)]   # Focus, Armor, Fast Draw in front of a seat
        self.bushido = -1                            # SS-18: its holder, -1 none in play
        self.deck = Counter(FULL_DECK)               # cards not yet seen: the deck's contents
        self.discard: list[int] = []                 # the discard pile, top last
        self.shogun = -1
        self.turn, self.current = 0, -1
        self.opening = []                            # (seat, cards) of the deal, in order
        self.received = []                           # (seat, card, source) since the last EV.DRAWS
        self.phase = None                            # the current turn's draw phase bookkeeping
        self.flip_due = False                        # SS-18: the holder must flip a card
        self.recover_due = False                     # SS-5
        self.weapons = 0                             # weapons played this turn (SS-7)
        self.owed = []                               # draws owed by effects: [seat, cards, why]
        self.attack = None                           # the weapon attack being answered
        self.volley = None                           # the Battle Cry / Jujutsu being answered
        self.geisha = self.diversion = None          # (player, target) awaiting their effect
        self.bushido_flip = None                     # the card the holder just flipped
        self.wound_due = None                        # (seat, source, amount, by_weapon)
        self.defeat_due = None                       # (victim, defeater)
        self.honour_due = []                         # (seat, change, why) still to be logged
        self.end_due = None                          # the end reason the rules now demand
        self.last_defeat = None                      # (victim, defeater) of the latest defeat
        self.ended_by = None                         # why the honour that ended the game was lost
        self.swordmaster = None                      # SS-20: the seat left standing, if it wins
        self.reported_overrun = False
        self.scores, self.team_totals, self.end = {}, {}, None
        self.i = -1

    # --- helpers -------------------------------------------------------------------------
    def bad(self, message: str) -> None:
        where = f"event {self.i} {list(self.events[self.i])}" if self.i >= 0 else "log"
        self.problems.append(f"{where}: {message}")

    def name(self, s: int) -> str:
        return f"P{s} {L.CHARACTER_NAMES[self.char[s]]}" if self.char[s] is not None else f"P{s}"

    def cards(self, s: int) -> int:
        return sum(self.hand[s].values())

    def harmless(self, s: int) -> bool:
        # SS-11: 0 resilience or no cards in hand.
        return self.res[s] == 0 or self.cards(s) == 0

    def over(self) -> bool:
        # SS-19: the game ends at once when a player reaches 0 honour (or Swordmaster, SS-20).
        return self.end_due is not None

    def exhausted(self) -> bool:
        # OP-10: with both the deck and the discard pile empty nothing more can be drawn.
        return sum(self.deck.values()) == 0 and not self.discard

    def take_from_hand(self, s: int, t: int, why: str) -> None:
        if self.hand[s][t] <= 0:
            self.bad(f"{self.name(s)} {why} a {L.CARD_NAMES[t]} it does not hold")
        else:
            self.hand[s][t] -= 1

    def distance(self, a: int, b: int) -> int:
        # SS-9: fewest seats either way round, adjacent = 1, harmless players not counted.
        best = self.n
        for step in (1, -1):
            d, q = 1, (a + step) % self.n
            while q != b:
                d += not self.harmless(q)
                q = (q + step) % self.n
            best = min(best, d)
        return best

    def difficulty(self, a: int, b: int) -> int:
        # SS-9: + 1 per Armor on the target, + 1 against Benkei.
        return self.distance(a, b) + self.props[b][CARD["Armor"]] + (self.char[b] == BENKEI)

    def weapon_damage(self, a: int, b: int, w: int) -> int:
        # SS-10, OP-11: Fast Draw and Musashi add first, then Ginchiyo subtracts, minimum 1.
        damage = DAMAGE[w] + self.props[a][CARD["Fast Draw"]] + (self.char[a] == MUSASHI)
        return max(1, damage - 1) if self.char[b] == GINCHIYO else damage

    def weapon_limit(self, s: int) -> int:
        # SS-7, SS-17, SS-3 Goemon, SS-21 (the 3-player Shogun).
        return (1 + self.props[s][CARD["Focus"]] + (self.char[s] == GOEMON)
                + (self.n == 3 and s == self.shogun))

    def phase_draw(self, s: int) -> int:
        # SS-6 draw 2; SS-3 Hideyoshi + 1; SS-21 the 3-player Shogun + 1.
        return 2 + (self.char[s] == HIDEYOSHI) + (self.n == 3 and s == self.shogun)

    def to_discard(self, t: int) -> None:
        self.discard.append(t)

    # --- the replay ----------------------------------------------------------------------
    def run(self) -> "Referee":
        handlers = {L.EV.ROLE: self.on_role, L.EV.SHOGUN: self.on_shogun,
                    L.EV.CHARACTER: self.on_character, L.EV.TURN: self.on_turn,
                    L.EV.RECOVER: self.on_recover, L.EV.DRAWS: self.on_draws, L.EV.CARD: self.on_card,
                    L.EV.PLAY: self.on_play, L.EV.REACT: self.on_react, L.EV.WOUND: self.on_wound,
                    L.EV.DEFEAT: self.on_defeat, L.EV.HONOUR: self.on_honour,
                    L.EV.RESHUFFLE: self.on_reshuffle, L.EV.DISCARD: self.on_discard,
                    L.EV.STEAL: self.on_steal, L.EV.LOST: self.on_lost, L.EV.BUSHIDO: self.on_bushido,
                    L.EV.NOBUNAGA: self.on_nobunaga, L.EV.PROPERTY_LOST: self.on_property_lost,
                    L.EV.SCORE: self.on_score, L.EV.TEAM: self.on_team, L.EV.END: self.on_end}
        for self.i, (e, turn, s, a, b, c, d) in enumerate(self.events):
            self.seen[e] += 1
            if e != L.EV.TURN and turn != self.turn:
                self.bad(f"turn field {turn}, the game is in turn {self.turn}")
            self.check_sequence(e, a, b)
            try:
                handlers[e](s, a, b, c, d)
            except (KeyError, IndexError, TypeError, ValueError, StopIteration) as error:
                # A seat, card or code out of range: the log itself is malformed.
                self.bad(f"malformed event ({type(error).__name__}: {error})")
            if self.end is not None:
                break
        if self.end is None:
            self.i = len(self.events) - 1
            self.bad("the log stops before the game's end (no EV.END)")
        elif self.i != len(self.events) - 1:
            self.bad("events after EV.END")
        if self.record is not None and self.end is not None:
            self.check_record()
        return self

    def check_sequence(self, e: int, a: int, b: int) -> None:
        """What must come next, whatever the event: owed wounds, defeats, honour, the end."""
        if self.wound_due and e != L.EV.WOUND:
            self.bad(f"SS-10/SS-13 {self.name(self.wound_due[0])} took the blow but lost no resilience")
            self.wound_due = None
        if self.defeat_due and e != L.EV.DEFEAT:
            self.bad(f"SS-12 {self.name(self.defeat_due[0])} reached 0 resilience without a defeat")
            self.defeat_due = None
        if self.honour_due and e != L.EV.HONOUR:
            self.bad(f"honour changes {self.honour_due} (SS-6/SS-12/SS-18) were not made")
            self.honour_due = []
        # After the end only the rest of the same honour change, the summary of a draw cut short
        # (its cards came before the end) and the scores may follow.
        if self.over() and not self.reported_overrun and e not in (
                L.EV.HONOUR, L.EV.DRAWS, L.EV.SCORE, L.EV.TEAM, L.EV.END):
            self.bad(f"SS-19/SS-20 the game went on after it ended ({L.END_REASONS[self.end_due]})")
            self.reported_overrun = True
        if e in (L.EV.PLAY, L.EV.TURN, L.EV.NOBUNAGA, L.EV.SCORE) or (
                e == L.EV.DISCARD and b == L.WHY.HAND_LIMIT):
            self.settle()

    def settle(self) -> None:
        """Close the draw phase and the effects of the last card: they must all have happened
        before the next card, the hand limit, the next turn or the scores."""
        if self.phase is not None:
            self.close_draw_phase()
        if self.over():
            self.owed, self.attack, self.volley = [], None, None
            self.geisha = self.diversion = None
            return
        if self.attack:
            self.bad(f"SS-10 the attack on {self.name(self.attack['target'])} was never answered")
            self.attack = None
        if self.volley:
            left = self.still_to_answer()
            if left is not None:
                self.bad(f"SS-13/OP-8 {self.name(left)} never answered the "
                         f"{L.CARD_NAMES[self.volley['card']]}")
            self.volley = None
        self.resolve_geisha_or_diversion()
        if self.owed:
            self.bad(f"draws owed but not made: {self.owed}")
            self.owed = []

    # --- set-up (SS-1..SS-4) -----------------------------------------------------------------
    def on_role(self, s, role, stars, c, d):
        self.role[s], self.stars[s] = role, stars

    def on_shogun(self, s, a, b, c, d):
        self.shogun = s
        if self.role[s] != SHOGUN:
            self.bad(f"SS-1 P{s} is named Shogun but holds role {self.role[s]}")
        roles = Counter(r for r in self.role if r is not None)
        if roles != Counter(ROLES[self.n]):
            self.bad(f"SS-1 roles {dict(roles)} for {self.n} players, want {ROLES[self.n]}")
        stars = sorted(self.stars[q] for q in range(self.n) if self.role[q] == NINJA)
        if len(set(stars)) != len(stars) or not set(stars) <= {1, 2, 3}:
            self.bad(f"SS-1 Ninja stars {stars}: the cards carry 1, 2 and 3 stars")
        if self.record is not None:
            removed = self.record["removed_ninja"]
            want = 0 if ROLES[self.n][NINJA] == 3 else ({1, 2, 3} - set(stars)).pop()
            if removed != want:
                self.bad(f"SS-1 removed Ninja {removed}, want {want}")

    def on_character(self, s, char, resilience, honour, d):
        name = L.CHARACTER_NAMES[char] if 0 <= char < len(L.CHARACTER_NAMES) else "?"
        if RESILIENCE.get(name) != resilience:
            self.bad(f"SS-3 character {name} with resilience {resilience}")
        if self.role[s] is None or HONOUR[self.n].get(self.role[s]) != honour:
            self.bad(f"SS-2 starting honour {honour} for role {self.role[s]}")
        if char in self.char:
            self.bad(f"SS-3 character {name} dealt twice")
        self.char[s] = char
        self.res[s] = self.max_res[s] = resilience
        self.honour[s] = honour

    # --- turns (SS-5..SS-8) ------------------------------------------------------------------
    def on_turn(self, s, a, b, c, d):
        turn = self.events[self.i][1]
        if self.current < 0:
            want = [((self.shogun + k) % self.n, OPENING_HAND[k]) for k in range(self.n)]
            if self.opening != want:
                self.bad(f"SS-4 opening hands {self.opening}, want {want}")
            if None in self.char:
                self.bad("SS-3 a seat has no character")
            want_seat = self.shogun                     # the Shogun starts
        else:
            if self.cards(self.current) > HAND_LIMIT:
                self.bad(f"SS-8 {self.name(self.current)} ends the turn with "
                         f"{self.cards(self.current)} cards")
            want_seat = (self.current + 1) % self.n     # then clockwise
        if s != want_seat:
            self.bad(f"turn order: P{s} plays, want P{want_seat}")
        if turn != self.turn + 1:
            self.bad(f"turn {turn} follows turn {self.turn}")
        self.turn, self.current, self.weapons = turn, s, 0
        self.recover_due = self.res[s] == 0             # SS-5
        self.flip_due = self.bushido == s               # SS-18
        self.phase = {"seat": s, "want": self.phase_draw(s), "got": 0, "draws": 0}
        self.seen["turns"] += 1

    def on_recover(self, s, resilience, b, c, d):
        # SS-5: only a player at 0 resilience, at the start of their turn, restores it fully.
        if not self.recover_due or s != self.current:
            self.bad(f"SS-5 {self.name(s)} recovers at {self.res[s]} resilience")
        if resilience != self.max_res[s]:
            self.bad(f"SS-5 recovers to {resilience}, want {self.max_res[s]}")
        self.res[s], self.recover_due = resilience, False
        self.seen["recover"] += 1

    def close_draw_phase(self):
        phase, self.phase = self.phase, None
        s = phase["seat"]
        if self.recover_due:
            self.bad(f"SS-5 {self.name(s)} starts the turn at 0 resilience without recovering")
            self.recover_due = False
        if self.flip_due and not self.over():
            self.bad(f"SS-18 {self.name(s)} holds Bushido but flipped no card")
            self.flip_due = False
        if phase["got"] != phase["want"] and not (self.over() or self.exhausted()):
            self.bad(f"SS-6 {self.name(s)} drew {phase['got']} in the draw phase, want {phase['want']}")

    def on_card(self, s, t, source, c, d):
        if source == STOLEN:
            # The second half of a Diversion: the card the victim just lost (on_lost adds it).
            lost = self.events[self.i - 1]
            if lost[0] != L.EV.LOST or (lost[3], lost[4]) != (t, s):
                self.bad(f"{self.name(s)} receives a stolen {L.CARD_NAMES[t]} nobody lost")
            return
        if source not in (FROM_DECK, FROM_DISCARD_TOP):
            self.bad(f"card from unknown source {source}")
        if source == FROM_DISCARD_TOP:
            # SS-3 Ieyasu: his first draw of the draw phase may be the top of the discard pile.
            phase = self.phase
            if self.char[s] != IEYASU or phase is None or phase["seat"] != s or phase["draws"]:
                self.bad(f"SS-3 {self.name(s)} draws from the discard pile")
            if not self.discard or self.discard[-1] != t:
                top = L.CARD_NAMES[self.discard[-1]] if self.discard else "nothing"
                self.bad(f"SS-3 Ieyasu takes a {L.CARD_NAMES[t]} from the discard pile; its top is {top}")
            elif self.discard:
                self.discard.pop()
        else:
            if self.deck[t] <= 0:
                self.bad(f"draws a {L.CARD_NAMES[t]}, none is left in the deck")
            self.deck[t] -= 1
        self.hand[s][t] += 1
        self.received.append((s, t, source))

    def on_draws(self, s, got, source, top, d):
        received, self.received = self.received, []
        # The summary of a draw: its seat, how many, and (source 1) the discard pile's top card
        # when Ieyasu took it; the cards themselves came just before.
        from_top = [t for _, t, where in received if where == FROM_DISCARD_TOP]
        if [seat for seat, _, _ in received] != [s] * got or len(from_top) > 1 \
                or (source, top) != ((DRAWN_FROM_DISCARD, from_top[0]) if from_top else (0, -1)):
            self.bad(f"EV.DRAWS says P{s} drew {got} (source {source}, top {top}); received: {received}")
        if self.turn == 0:                               # SS-4: the deal
            self.opening.append((s, got))
            return
        phase = self.phase
        if phase is not None and phase["seat"] == s:
            if self.flip_due and not (self.over() or self.exhausted()):
                self.bad(f"SS-18 {self.name(s)} drew before flipping for Bushido")
                self.flip_due = False
            if source == DRAWN_FROM_DISCARD:
                self.seen["ieyasu_discard"] += 1
            phase["got"] += got
            phase["draws"] += 1
            return
        for k, (seat, cards, why) in enumerate(self.owed):
            if seat == s:
                del self.owed[k]
                if got != cards and not (self.over() or (got < cards and self.exhausted())):
                    self.bad(f"{self.name(s)} drew {got} for {why}, want {cards}")
                return
        self.bad(f"{self.name(s)} draws {got} for no reason")

    # --- the play phase (SS-7, SS-13..SS-18) ---------------------------------------------------
    def on_play(self, s, t, target, c, d):
        if s != self.current:
            self.bad(f"SS-7 {self.name(s)} plays out of turn")
        self.take_from_hand(s, t, "plays")
        self.seen["play"] += 1
        if t in WEAPONS:
            self.play_weapon(s, t, target)
        elif t in PROPERTIES:
            self.play_property(s, t, target)
        else:
            self.to_discard(t)
            self.play_action(s, t, target)

    def play_weapon(self, s, w, b):
        self.to_discard(w)          # SS-10: discarded whether it hits or not
        self.weapons += 1
        if self.weapons > self.weapon_limit(s):
            self.bad(f"SS-7 {self.name(s)} plays weapon {self.weapons}, limit {self.weapon_limit(s)}")
        if not 0 <= b < self.n or b == s or self.harmless(b):
            self.bad(f"SS-10/SS-11 weapon aimed at P{b}, not a non-harmless other player")
            return
        difficulty = self.difficulty(s, b)
        if difficulty > REACH[w] and self.char[s] != KOJIRO:
            self.bad(f"SS-9/SS-10 {L.CARD_NAMES[w]} reaches {REACH[w]}, "
                     f"{self.name(b)} is at difficulty {difficulty}")
        self.attack = {"attacker": s, "target": b, "weapon": w, "damage": self.weapon_damage(s, b, w)}
        self.seen["attack"] += 1

    def play_property(self, s, t, b):
        if t == CARD["Bushido"]:
            # SS-18: in front of any player, only one in play at a time.
            if self.bushido >= 0:
                self.bad("SS-18 a second Bushido in play")
            if not 0 <= b < self.n:
                self.bad(f"SS-18 Bushido played in front of P{b}")
            self.bushido = b
            self.seen["bushido_played"] += 1
        else:
            if b != s:
                self.bad(f"SS-17 {L.CARD_NAMES[t]} played in front of P{b}, not its player")
            self.props[s][t] += 1

    def play_action(self, s, t, b):
        name = L.CARD_NAMES[t]
        if name == "Daimyo":                               # SS-15
            self.owed.append([s, 2, "Daimyo"])
        elif name == "Tea Ceremony":                       # SS-16: 3, then every other player 1
            self.owed.append([s, 3, "Tea Ceremony"])
            self.owed += [[(s + k) % self.n, 1, "Tea Ceremony"] for k in range(1, self.n)]
        elif name == "Breathing":                          # SS-14
            self.res[s] = self.max_res[s]
            if b == s or not 0 <= b < self.n:
                self.bad(f"SS-14 Breathing makes P{b} draw: it must be another player")
            else:
                self.owed.append([b, 1, "Breathing"])
        elif name in ("Battle Cry", "Jujutsu"):            # SS-13, OP-8
            self.volley = {"card": t, "player": s, "last": s}
            self.seen["volley"] += 1
        elif name in ("Geisha", "Diversion"):              # SS-16
            if b == s or not 0 <= b < self.n:
                self.bad(f"SS-16 {name} aimed at P{b}: it must be another player")
            elif name == "Geisha":
                self.geisha = (s, b)
            else:
                self.diversion = (s, b)

    def resolve_geisha_or_diversion(self):
        # SS-16: against an empty hand (and, for Geisha, no properties) they do nothing.
        if self.geisha:
            s, b = self.geisha
            properties = sum(self.props[b].values()) + (self.bushido == b)
            if self.cards(b) or properties:
                self.bad(f"SS-16 Geisha on {self.name(b)} ({self.cards(b)} cards, {properties} "
                         f"properties) discarded nothing")
        if self.diversion and self.cards(self.diversion[1]):
            self.bad(f"SS-16 Diversion on {self.name(self.diversion[1])} took nothing")
        self.geisha = self.diversion = None

    def on_nobunaga(self, s, resilience, b, c, d):
        # SS-3: in his play phase, lose 1 resilience (never the last) to draw 1.
        if self.char[s] != NOBUNAGA or s != self.current or self.res[s] <= 1:
            self.bad(f"SS-3 {self.name(s)} trades resilience at {self.res[s]}")
        self.res[s] -= 1
        if resilience != self.res[s]:
            self.bad(f"SS-3 Nobunaga left at {resilience}, want {self.res[s]}")
        self.owed.append([s, 1, "Nobunaga"])
        self.seen["nobunaga"] += 1

    # --- answers, wounds and defeats (SS-10..SS-13, SS-20) --------------------------------------
    def on_react(self, s, answer, card, player, d):
        if card in WEAPONS:
            self.answer_weapon(s, answer, card, player)
        elif card in (CARD["Battle Cry"], CARD["Jujutsu"]):
            self.answer_volley(s, answer, card, player)
        else:
            self.bad(f"answer to a {L.CARD_NAMES[card]}, which asks for none")

    def parries_with(self, s, answer):
        """SS-10 a Parry; SS-3 Hanzo a weapon, unless it is his last card. True if allowed."""
        if answer == CARD["Parry"]:
            self.seen["parry"] += 1
            return True
        if answer in WEAPONS and self.char[s] == HANZO and self.cards(s) >= 2:
            self.seen["hanzo_weapon_parry"] += 1
            return True
        return False

    def answer_weapon(self, s, answer, w, attacker):
        attack, self.attack = self.attack, None
        if attack is None or (attack["target"], attack["weapon"], attack["attacker"]) != (s, w, attacker):
            self.bad(f"{self.name(s)} answers an attack that was not made")
            return
        if answer == L.ACT.TAKE:
            self.wound_due = (s, attacker, min(attack["damage"], self.res[s]), 1)
            self.seen["take"] += 1
        elif self.parries_with(s, answer):
            self.take_from_hand(s, answer, "parries with")
            self.to_discard(answer)
        else:
            self.bad(f"SS-10 {self.name(s)} answers a weapon with {answer}")

    def still_to_answer(self):
        """OP-8: the next player clockwise from the last answer who must answer, or None.
        SS-13 / SS-11 / SS-3: not the card's player, not harmless players, not Chiyome."""
        v = self.volley
        q = (v["last"] + 1) % self.n
        while q != v["player"]:
            if not self.harmless(q) and self.char[q] != CHIYOME:
                return q
            q = (q + 1) % self.n
        return None

    def answer_volley(self, s, answer, card, player):
        v = self.volley
        if v is None or (v["card"], v["player"]) != (card, player):
            self.bad(f"{self.name(s)} answers a {L.CARD_NAMES[card]} that was not played")
            return
        want = self.still_to_answer()
        if s != want:
            self.bad(f"SS-13/OP-8 {self.name(s)} answers, want P{want}")
        v["last"] = s
        self.seen["volley_answer"] += 1
        if answer == L.ACT.TAKE:
            self.wound_due = (s, player, 1, 0)
        elif card == CARD["Battle Cry"] and self.parries_with(s, answer):
            self.take_from_hand(s, answer, "answers with")
            self.to_discard(answer)
        elif card == CARD["Jujutsu"] and answer in WEAPONS:
            self.take_from_hand(s, answer, "answers with")
            self.to_discard(answer)
        else:
            self.bad(f"SS-13 {self.name(s)} answers {L.CARD_NAMES[card]} with {answer}")

    def on_wound(self, s, lost, source, left, by_weapon):
        due, self.wound_due = self.wound_due, None
        if due is None or due[0] != s or due[1] != source or due[3] != by_weapon:
            self.bad(f"{self.name(s)} loses resilience to P{source} without taking a blow")
        elif lost != due[2]:
            self.bad(f"SS-10/SS-12/SS-13 {self.name(s)} loses {lost}, want {due[2]}")
        if not by_weapon and self.char[s] == CHIYOME:
            self.bad("SS-3 Chiyome is hurt only by weapons")
        if left != self.res[s] - lost:
            self.bad(f"resilience left {left}, want {self.res[s] - lost}")
        self.res[s] -= lost
        self.seen["wound"] += 1
        if by_weapon and lost > 0:
            if self.char[source] == TOMOE:                   # SS-3: 1 card per wounding hit
                self.owed.append([source, 1, "Tomoe"])
            if self.char[s] == USHIWAKA:                     # SS-3, OP-9: 1 per wound taken
                self.owed.append([s, lost, "Ushiwaka"])
        if self.res[s] == 0:
            self.defeat_due = (s, source)

    def on_defeat(self, s, defeater, b, c, d):
        due, self.defeat_due = self.defeat_due, None
        if due != (s, defeater):
            self.bad(f"SS-12 {self.name(s)} defeated by P{defeater} at {self.res[s]} resilience")
        # SS-12: the defeated player gives 1 honour to whoever defeated them.
        self.honour_due = [(s, -1, L.HONOUR.DEFEAT), (defeater, 1, L.HONOUR.DEFEAT)]
        self.last_defeat = (s, defeater)
        self.seen["defeat"] += 1
        standing = [q for q in range(self.n) if self.res[q] > 0]
        # SS-20 / SS-21: every player but one at 0 resilience ends the game (not with 3 players).
        # OP-7 (default): this Swordmaster decides even if the defeat also ends it on honour.
        # SS-20: "not if it came from defeating a teammate: the game still ends, and scores are
        # counted as in SS-19, Deadly strike included": its own end, teammate_defeat.
        if self.n > 3 and len(standing) == 1:
            if self.teammates(s, defeater):
                self.end_due, self.swordmaster = L.END.TEAMMATE_DEFEAT, None
                self.seen["teammate_defeat"] += 1
            else:
                self.end_due, self.swordmaster = L.END.SWORDMASTER, standing[0]

    def teammates(self, p, q) -> bool:
        return TEAM[self.role[p]] == TEAM[self.role[q]]

    def on_honour(self, s, change, honour, why, d):
        if self.honour_due and self.honour_due[0] == (s, change, why):
            self.honour_due.pop(0)
        else:
            self.bad(f"{self.name(s)} honour {change:+d} (why {why}) not due: want {self.honour_due[:1]}")
        if honour != self.honour[s] + change:
            self.bad(f"honour {self.honour[s]} {change:+d} logged as {honour}")
        self.honour[s] += change
        if self.honour[s] <= 0 and self.end_due is None:
            self.end_due = L.END.HONOUR               # SS-19: the game ends at once
            self.ended_by = why

    def on_reshuffle(self, s, cards, count, c, d):
        # SS-6, OP-10: only when a card must be drawn from an empty deck; everyone loses 1 honour.
        if sum(self.deck.values()):
            self.bad(f"SS-6 reshuffle with {sum(self.deck.values())} cards still in the deck")
        if cards != len(self.discard) or not cards:
            self.bad(f"SS-6 reshuffles {cards} cards, the discard pile holds {len(self.discard)}")
        self.deck = Counter(self.discard)
        self.discard = []
        self.seen["reshuffle"] += 1
        if count != self.seen["reshuffle"]:
            self.bad(f"reshuffle numbered {count}, it is number {self.seen['reshuffle']}")
        self.honour_due += [(q, -1, L.HONOUR.RESHUFFLE) for q in range(self.n)]

    def on_discard(self, s, t, why, c, d):
        if why == L.WHY.FLIP:
            self.flip(s, t)
            return
        self.take_from_hand(s, t, "discards")
        self.to_discard(t)
        if why == L.WHY.HAND_LIMIT:
            # SS-8: at the end of one's own turn, down to 7.
            if s != self.current or self.cards(s) < HAND_LIMIT:
                self.bad(f"SS-8 {self.name(s)} discards to the hand limit with {self.cards(s) + 1} cards")
            self.seen["hand_limit"] += 1
        elif why == L.WHY.GEISHA:
            if self.geisha is None or self.geisha[1] != s:
                self.bad(f"SS-16 {self.name(s)} discards to a Geisha nobody played")
            self.geisha = None
        elif why == L.WHY.BUSHIDO:
            # SS-18: the holder discards a weapon to pass Bushido on.
            if t not in WEAPONS or self.bushido_flip not in WEAPONS or s != self.bushido:
                self.bad(f"SS-18 {self.name(s)} discards {L.CARD_NAMES[t]} for Bushido")
        else:
            self.bad(f"discard for an unknown reason {why}")

    def flip(self, s, t):
        # SS-18: at the end of the holder's Recover phase, flip the top card of the deck.
        if not self.flip_due or s != self.current:
            self.bad(f"SS-18 {self.name(s)} flips a card without holding Bushido at turn start")
        self.flip_due = False
        if self.deck[t] <= 0:
            self.bad(f"SS-18 flips a {L.CARD_NAMES[t]}, none is left in the deck")
        self.deck[t] -= 1
        self.to_discard(t)
        self.bushido_flip = t

    def on_bushido(self, s, flipped, holder, c, d):
        t, self.bushido_flip = self.bushido_flip, None
        if t != flipped or s != self.bushido:
            self.bad(f"SS-18 Bushido of P{self.bushido} resolves a flip of {flipped}")
        self.seen["bushido_flip"] += 1
        passed = self.events[self.i - 1][0] == L.EV.DISCARD and self.events[self.i - 1][4] == L.WHY.BUSHIDO
        free = self.n == 3 and s == self.shogun           # SS-21: no honour lost to Bushido
        if free and flipped in WEAPONS:
            self.seen["shogun_bushido_" + ("passed" if holder >= 0 else "discarded")] += 1
            if holder >= 0 and self.shogun_bushido != "choose":
                self.bad("SS-21 the 3-player Shogun passes Bushido on a weapon: he just discards it")
        if holder >= 0:
            # Anything but a weapon, or a weapon paid with a weapon: Bushido passes to the left.
            if holder != (s + 1) % self.n:
                self.bad(f"SS-18 Bushido passed to P{holder}, not to the left")
            if flipped in WEAPONS and not passed:
                self.bad("SS-18 Bushido passed on a weapon without discarding a weapon")
            self.bushido = holder
            return
        # A weapon paid with honour: 1 honour leaves the game and Bushido is discarded;
        # SS-21: the 3-player Shogun just discards it.
        if flipped not in WEAPONS:
            self.bad(f"SS-18 Bushido discarded on a {L.CARD_NAMES[flipped]}")
        self.bushido = -1
        self.to_discard(CARD["Bushido"])
        if not free:
            self.honour_due.append((s, -1, L.HONOUR.BUSHIDO))

    def on_steal(self, s, victim, b, c, d):
        if self.diversion != (s, victim):
            self.bad(f"SS-16 {self.name(s)} steals from P{victim} without a Diversion")

    def on_lost(self, s, t, thief, c, d):
        # SS-16 Diversion: a random card of the victim's hand goes to the thief.
        self.take_from_hand(s, t, "loses")
        following = self.events[self.i + 1] if self.i + 1 < len(self.events) else None
        if self.diversion != (thief, s) or following is None or following[0] != L.EV.CARD \
                or following[2:5] != (thief, t, STOLEN):
            self.bad("SS-16 the Diversion's card does not reach the thief")
        self.hand[thief][t] += 1
        self.diversion = None

    def on_property_lost(self, s, t, player, c, d):
        # SS-16 Geisha: a property in play in front of the target; OP-5: not one's own.
        if self.geisha != (player, s):
            self.bad(f"SS-16 {self.name(s)} loses a property to no Geisha")
        self.geisha = None
        if t == CARD["Bushido"]:
            if self.bushido != s:
                self.bad(f"SS-16 Bushido taken from P{s}, who does not hold it")
            self.bushido = -1
        elif self.props[s][t] <= 0:
            self.bad(f"SS-16 {L.CARD_NAMES[t]} taken from P{s}, who has none in play")
        else:
            self.props[s][t] -= 1
        self.to_discard(t)

    # --- the end (SS-19, SS-20) ----------------------------------------------------------------
    def on_score(self, s, role, stars, score, daimyo):
        if self.end_due is None and self.turn < self.turn_cap:
            self.bad("SS-19 scores before anyone reached 0 honour (or Swordmaster, or the OP-3 cap)")
        if (role, stars) != (self.role[s], self.stars[s]):
            self.bad(f"score row of P{s} gives role {role}, stars {stars}")
        multiplier = MULTIPLIER[self.n][self.role[s]]
        if self.n == 4 and self.role[s] == NINJA:
            # SS-19: at 4 players the Ninja with the most stars scores x2.
            top = max(self.stars[q] for q in range(self.n) if self.role[q] == NINJA)
            multiplier = 2 if self.stars[s] == top else 1
        held = self.hand[s][CARD["Daimyo"]]
        points = 0 if self.role[s] == RONIN else held        # SS-15: nothing for the Ronin
        want = self.honour[s] * multiplier + points
        if score != want or daimyo != held:
            self.bad(f"SS-19 P{s} scores {score} ({daimyo} Daimyo held), want {self.honour[s]} x "
                     f"{multiplier} + {points} = {want} ({held} held)")
        self.scores[s] = want

    def deadly_team(self):
        # SS-19, OP-6 (default): the game ended because a player was defeated by a teammate.
        if self.end_due == L.END.TEAMMATE_DEFEAT:
            return TEAM[self.role[self.last_defeat[0]]]
        if self.end_due == L.END.HONOUR and self.ended_by == L.HONOUR.DEFEAT \
                and self.teammates(self.last_defeat[0], self.last_defeat[1]):
            return TEAM[self.role[self.last_defeat[0]]]
        return -1

    def on_team(self, s, team, total, c, d):
        members = [q for q in range(self.n) if TEAM[self.role[q]] == team]
        want = sum(self.scores.get(q, 0) for q in members)
        if team == self.deadly_team():
            want -= DEADLY_STRIKE
        if total != want:
            self.bad(f"SS-19 team {L.TEAM_NAMES[team]} totals {total}, want {want}")
        if members:
            self.team_totals[team] = want

    def on_end(self, s, reason, winners, team, deadly):
        self.end = (reason, winners, team, deadly)
        want_reason = self.end_due if self.end_due is not None else L.END.CAPPED
        if reason != want_reason:
            self.bad(f"end reason {L.END_REASONS[reason]}, want {L.END_REASONS[want_reason]}")
        if want_reason == L.END.CAPPED:
            want_team = -1                                   # OP-3: never anyone's win
            if self.turn < self.turn_cap:
                self.bad(f"OP-3 game cut at turn {self.turn} before the cap {self.turn_cap}")
        elif want_reason == L.END.SWORDMASTER:
            want_team = TEAM[self.role[self.swordmaster]]   # SS-20
            self.seen["swordmaster"] += 1
        else:
            best = max(self.team_totals.values())
            want_team = next(t for t in TIE_ORDER if self.team_totals.get(t) == best)   # SS-19
        want_winners = sum(1 << q for q in range(self.n)
                           if want_team >= 0 and TEAM[self.role[q]] == want_team)
        if (team, winners) != (want_team, want_winners):
            self.bad(f"SS-19/SS-20 winners team {team} mask {winners}, "
                     f"want team {want_team} mask {want_winners}")
        if deadly != self.deadly_team():
            self.bad(f"SS-19 Deadly strike team {deadly}, want {self.deadly_team()}")
        if deadly >= 0:
            self.seen["deadly_strike"] += 1
        if len(self.scores) != self.n:
            self.bad(f"SS-19 {len(self.scores)} score rows for {self.n} players")

    def check_record(self):
        """The game record must say what the log says."""
        r, (reason, winners, team, deadly) = self.record, self.end
        self.i = len(self.events) - 1
        want = {"turns": self.turn, "end_reason": L.END_REASONS[reason], "shogun_seat": self.shogun,
                "winning_team": team, "deadly_strike_team": deadly, "reshuffles": self.seen["reshuffle"],
                "swordmaster_seat": self.swordmaster if reason == L.END.SWORDMASTER else -1}
        want |= {TEAM_RECORD[t]: v for t, v in self.team_totals.items()}
        k = bin(winners).count("1")
        for q in range(self.n):
            want |= {f"role_{q}": self.role[q], f"stars_{q}": self.stars[q], f"character_{q}": self.char[q],
                     f"honour_{q}": self.honour[q], f"resilience_{q}": self.res[q],
                     f"score_{q}": self.scores.get(q), f"win_{q}": (winners >> q & 1) / k if k else 0.0}
        for key, value in want.items():
            if key in r and r[key] != value:
                self.bad(f"record {key} = {r[key]}, the log says {value}")


def referee(n_players: int, events, record: dict | None = None, turn_cap=DEFAULT_TURN_CAP,
            shogun_bushido: str = "discard") -> list[str]:
    """The problems an event log (and optionally its record) shows against the rules."""
    return Referee(n_players, events, record, turn_cap, shogun_bushido).run().problems
