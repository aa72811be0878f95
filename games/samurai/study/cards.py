"""Samurai Sword's cards for the interventional card table (analysis/interventions.py).

Every intervention is a change of an existing rule option of games/samurai/rules.py, made as a
function of the rules it is applied to (so that several changes combine: the interactions
table plays them together):

- **The 25 play cards** (the 90-card deck, OP-2): ``remove one`` lowers the card's count by one
  (``card_counts``; a card with one copy is gone); ``neutral`` replaces one copy by the weakest
  card of its kind, which keeps the deck at 90 cards, so the reshuffles that cost every player
  an honour (SS-6) come at the same time and only the card's own worth changes. There is no
  blank card in the game; the neutral cards are:

  - weapons: **Bokken** (difficulty 1, damage 1, SS-10): every other weapon reaches as far and
    hits as hard or more, and it is the commonest weapon (6 copies);
  - actions: **Breathing** (SS-14): it heals only its own player and only matters when wounded,
    and it hands another player a card; the other actions attack, defend or draw;
  - properties: **Armor** (SS-17): a passive +1 difficulty that weapons of difficulty 2 or more
    (20 of the 32) still overcome from a neighbouring seat.

  The neutral cards themselves have no ``neutral`` row; their ``remove one`` row shows how far
  from blank they are.
- **The 13 weapons' printed values** (SS-10): ``<weapon> damage`` and ``<weapon> difficulty``
  ±1 (``weapon_stats``), where the rules allow it (1..9: no -1 below 1).
- **The 12 characters** (SS-3): ``yardstick`` seats the ability-less character of the same
  resilience (Plain4 / Plain5) at seat 0, the character out of the random draw: the mechanism
  of the study's section (d). Its effect is read on ``seat0_<character>`` (``game_metrics``):
  seat 0's win in the games where the unchanged game dealt seat 0 that character, about 1 game
  in 12 at 5 players, so these rows need about 12 times the games of a deck card for the same
  interval. Roles and the deck are the same in both games; the other seats' characters are
  drawn from the same pool but not one for one (seat 0 no longer draws), so the pairing is
  weaker than in section (d).
- **Roles** (SS-1, SS-2, SS-19): ``<role> honour`` ±1 (``starting_honour``, 1..99) and
  ``<role> multiplier`` ±1 (``multipliers``; no -1 below 1: a role whose honour scores nothing
  is not a sensible variant), for every role dealt at the player count. A role wins with its
  team (SS-19, SS-20), so its effect is read on its team's win rate (``team_shogun`` for the
  Shogun and the Samurai, ``team_ninja``, ``team_ronin``).

Each change function remembers its last few results: the table applies every change once per
level of play, and building a variant reads and checks its data tables (tens of ms).

Cards dealt to seats are read on their **holder** (``opening_w_{seat}`` / ``opening_a_{seat}``,
the bits of layout.WEAPON_BITS / ACTION_BITS): the seats that were dealt the card in the
unchanged game. How to read the table: ``remove one`` and ``neutral`` of a useful card are
*negative* (its holder loses it), a damage ``+1`` of a weapon is positive if the weapon helps
its holder; a difficulty ``+1`` reaches one seat further. A ``yardstick`` row is minus the
ability's worth (negative: the ability helps). A role's ``honour +1`` is usually positive for
its team.
"""
from __future__ import annotations

import functools

from games.samurai import layout as L
from games.samurai.rules import SamuraiRules

from analysis.interventions import DOWN, NEUTRAL, REMOVE, UP, YARDSTICK, Card

NEUTRAL_CARDS = {"weapon": "Bokken", "action": "Breathing", "property": "Armor"}
ROLE_TEAMS = {"shogun": "team_shogun", "samurai": "team_shogun", "ninja": "team_ninja",
              "ronin": "team_ronin"}


def kind_of(t: int) -> str:
    return "weapon" if t < L.N_WEAPONS else "action" if t < L.FIRST_PROPERTY else "property"


def _held(t: int) -> tuple[tuple[str, int], str]:
    if t < L.N_WEAPONS:
        return ("opening_w_{seat}", t), "held_w_{seat}"
    return ("opening_a_{seat}", t - L.N_WEAPONS), "held_a_{seat}"


def _count(rules: SamuraiRules, name: str) -> int:
    return int(rules.card_matrix()[L.CARD_NAMES.index(name), L.CT.COUNT])


def _recount(*changes):
    """rules -> rules with each (card, delta) added to its count (card_counts, OP-2)."""
    @functools.lru_cache(maxsize=8)
    def change(rules: SamuraiRules) -> SamuraiRules:
        counts = tuple((name, str(_count(rules, name) + delta)) for name, delta in changes)
        return rules.replace(card_counts=tuple(rules.card_counts) + counts)
    return change


def _restat(name: str, difficulty: int = 0, damage: int = 0):
    """rules -> rules with the weapon's difficulty / damage moved (weapon_stats, SS-10)."""
    t = L.CARD_NAMES.index(name)

    @functools.lru_cache(maxsize=8)
    def change(rules: SamuraiRules) -> SamuraiRules:
        d, h = rules.card_matrix()[t, [L.CT.DIFFICULTY, L.CT.DAMAGE]]
        stat = (name, f"{int(d) + difficulty}/{int(h) + damage}")
        return rules.replace(weapon_stats=tuple(rules.weapon_stats) + (stat,))
    return change


def _yardstick(name: str):
    """rules -> rules with seat 0 holding the ability-less character of the same resilience
    and ``name`` out of the random draw (SS-3; the study's section (d))."""
    c = L.CHARACTER_NAMES.index(name)

    @functools.lru_cache(maxsize=8)
    def change(rules: SamuraiRules) -> SamuraiRules:
        resilience = int(rules.resilience()[c])
        plain = "Plain5" if resilience >= 5 else "Plain4"
        seats = list(rules.characters or ("random",) * rules.n_players)
        seats[0] = plain
        extra = {}
        if resilience not in (4, 5):
            extra["character_resilience"] = tuple(rules.character_resilience) + ((plain, str(resilience)),)
        return rules.replace(characters=tuple(seats),
                             exclude_characters=tuple(rules.exclude_characters) + (name,), **extra)
    return change


def _role(role: str, option: str, delta: int):
    key = "honour" if option == "starting_honour" else "multiplier"

    @functools.lru_cache(maxsize=8)
    def change(rules: SamuraiRules) -> SamuraiRules:
        value = rules.role_rows()[role][key] + delta
        return rules.replace(**{option: tuple(getattr(rules, option)) + ((role, str(value)),)})
    return change


def character_metric(name: str) -> str:
    return f"seat0_{name.lower()}"


def cards(rules: SamuraiRules) -> list[Card]:
    """Every card of this variant with the interventions that make sense for it (module doc)."""
    matrix = rules.card_matrix()
    out = []
    for t, name in enumerate(L.CARD_NAMES):
        count = int(matrix[t, L.CT.COUNT])
        if count == 0:
            continue
        kind = kind_of(t)
        held, drawn = _held(t)
        changes = {REMOVE: _recount((name, -1))}
        neutral = NEUTRAL_CARDS[kind]
        if name != neutral:
            changes[NEUTRAL] = _recount((name, -1), (neutral, +1))
        out.append(Card(name, kind, changes, held=held, drawn=drawn))
    for t in range(L.N_WEAPONS):
        name = L.CARD_NAMES[t]
        if matrix[t, L.CT.COUNT] == 0:
            continue
        held, drawn = _held(t)
        for stat, column, top in (("damage", L.CT.DAMAGE, 9), ("difficulty", L.CT.DIFFICULTY, 9)):
            value = int(matrix[t, column])
            changes = {}
            if value < top:
                changes[UP] = _restat(name, **{stat: +1})
            if value > 1:
                changes[DOWN] = _restat(name, **{stat: -1})
            out.append(Card(f"{name} {stat}", f"weapon {stat}", changes, held=held, drawn=drawn,
                            value=value))
    for c in range(L.N_PRINTED_CHARACTERS):
        name = L.CHARACTER_NAMES[c]
        if name in rules.exclude_characters or (rules.characters and name in rules.characters):
            continue
        out.append(Card(name, "character", {YARDSTICK: _yardstick(name)},
                        owner=character_metric(name)))
    for role, entry in rules.role_rows().items():
        if entry["count"] == 0:
            continue
        owner = ROLE_TEAMS[role]
        title = role.capitalize()
        honour = {UP: _role(role, "starting_honour", +1)} if entry["honour"] < 99 else {}
        if entry["honour"] > 1:
            honour[DOWN] = _role(role, "starting_honour", -1)
        out.append(Card(f"{title} honour", "role honour", honour, owner=owner,
                        value=entry["honour"]))
        multiplier = {UP: _role(role, "multipliers", +1)} if entry["multiplier"] < 9 else {}
        if entry["multiplier"] > 1:
            multiplier[DOWN] = _role(role, "multipliers", -1)
        out.append(Card(f"{title} multiplier", "role multiplier", multiplier, owner=owner,
                        value=entry["multiplier"]))
    return out
