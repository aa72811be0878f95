"""Samurai Sword rule variant (rules brief: shared/rules/samurai_sword.md, SS-1..SS-21,
OP-1..OP-12). Every open point is an option below with the brief's default reading.

Design data lives in three shipped tables (games/samurai/data/), each replaceable by a file of the
same columns and each entry overridable from the CLI (``-o card_counts=parry=12``):

- cards.csv: each card type's count, and each weapon's difficulty and damage (OP-2, SS-10);
- characters.csv: each character's resilience (SS-3; abilities are code, by name);
- roles.csv: role cards, starting honour and multipliers per player count (SS-1, SS-2, SS-19).

Where the brief is silent, the kernel reads it as follows:
- the weapon limit is counted when a weapon is played, so a Focus played this turn already
  allows one more weapon (SS-7, SS-17);
- Geisha and Diversion may target any other player; with nothing to take they do nothing;
  Bushido may be put in front of any player, oneself included; Geisha's chooser picks which
  property (or a random hand card) is discarded;
- a Bushido flip from an empty deck and discard pile flips nothing and passes Bushido on;
- the 3-player Shogun who flips a weapon under Bushido discards it with no choice (SS-21, the
  brief's "just discards it"); the option shogun_bushido="choose" is the seed's wording read
  as keeping his choice: discard a weapon and pass Bushido left, or discard Bushido (no honour);
- a game stopped by the turn cap is scored for the record but has no winner (OP-3).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.datafile import read_packaged, read_table
from sim.errors import RulesError
from sim.variant import Tunable, Variant, option, parse_int_tuple
from . import layout as L

PLAYER_COUNTS = (3, 4, 5, 6, 7)
ASSIGNMENT_OPTIONS = ("card_counts", "weapon_stats", "character_resilience", "starting_honour",
                      "multipliers")
DEFAULT_OPENING = (4, 5, 5, 6, 6, 7, 7)   # SS-4, clockwise from the Shogun
MAX_DIFFICULTY = 9
MAX_DAMAGE = 9
MAX_TURN_CAP = 30_000   # record column "turns" is int16


def _key(name) -> str:
    return "".join(ch for ch in str(name).lower() if ch.isalnum())


CARD_IDS = {_key(name): t for t, name in enumerate(L.CARD_NAMES)}
CHARACTER_IDS = {_key(name): c for c, name in enumerate(L.CHARACTER_NAMES)}
ROLE_IDS = {name: r for r, name in enumerate(L.ROLE_NAMES)}


def parse_names(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in str(text).split(",") if part.strip())


def parse_assignments(text: str) -> tuple[tuple[str, str], ...]:
    """'parry=12,bokken=5' -> (('parry', '12'), ('bokken', '5'))."""
    pairs = []
    for part in parse_names(text):
        if "=" not in part:  # a RulesError (a ValueError) also from the API, not only the CLI
            raise RulesError(f"{part!r} must look like NAME=VALUE, e.g. 'parry=12'")
        name, value = part.split("=", 1)
        pairs.append((name.strip(), value.strip()))
    return tuple(pairs)


def _read_csv(package_file: str, path: str | None, what: str, columns: list[str]):
    """A data table's rows and its name for messages, read by sim.datafile (CSV with comma,
    semicolon or tab in UTF-8/UTF-16, or .xlsx[#Sheet]); path None = the shipped table."""
    if path is None:
        table = read_packaged("games.samurai", package_file, what, columns)
    else:
        table = read_table(path, what, columns)
    return table, table.label


def _once(seen: dict, key, line: int, source: str, what: str) -> None:
    """Refuse a second row for one key of a data table: read on, the last row would silently
    replace the first."""
    if key in seen:
        raise RulesError(f"{source}: lines {seen[key]} and {line} both give {what}; keep one")
    seen[key] = line


def _int(value, what: str) -> int:
    try:
        if isinstance(value, bool):
            raise ValueError
        number = int(value)
        if isinstance(value, float) and value != number:
            raise ValueError
        return number
    except (TypeError, ValueError):
        raise RulesError(f"{what}: {value!r} is not an integer") from None


@dataclass(frozen=True)
class SamuraiRules(Variant):
    n_players: int = option(5, "number of players, 3 to 7", "SS-1")
    turn_cap: int = option(600, "turns after which an unfinished game is cut and reported as "
                           "'capped', never as a win", "OP-3")
    card_table: str | None = option(None, "CSV or .xlsx of play cards: card,kind,count,difficulty,"
                                    "damage; default: the shipped 90-card deck", "OP-2, SS-10")
    card_counts: tuple = option((), "override card counts, e.g. 'parry=12,bokken=5'", "OP-2",
                                parse=parse_assignments)
    weapon_stats: tuple = option((), "override weapons' difficulty/damage, e.g. 'katana=2/3,bo=3/1'",
                                 "SS-10", parse=parse_assignments)
    deck_counts: tuple | None = option(None, "all 25 card counts in the order of layout.CARD_NAMES "
                                       "(the workbench's knobs); default: the card table",
                                       "OP-2", parse=parse_int_tuple, tune=Tunable(0, 30, span=3))
    weapon_difficulty: tuple | None = option(None, "the 13 weapons' difficulties in the order of "
                                             "layout.CARD_NAMES; default: the card table", "SS-10",
                                             parse=parse_int_tuple, tune=Tunable(1, 9, span=2))
    weapon_damage: tuple | None = option(None, "the 13 weapons' damages in the order of "
                                         "layout.CARD_NAMES; default: the card table", "SS-10",
                                         parse=parse_int_tuple, tune=Tunable(1, 9, span=2))
    swordmaster: str = option("resilience", "Swordmaster when every player but one has 0 "
                              "resilience (official) or 0 honour (the seed's wording)", "OP-1, SS-20",
                              choices=("resilience", "honour"))
    reactions: str = option("strategy", "who chooses a reaction (Parry, Hanzo's weapon, take the "
                            "wound): the reacting player's strategy, or always_parry when able",
                            "OP-4", choices=("strategy", "always_parry"))
    geisha_own_property: bool = option(False, "Geisha may discard a property in front of its "
                                       "player", "OP-5")
    deadly_strike: str = option("teammate", "Deadly strike (-3) only when the game-ending defeat "
                                "was by a teammate (official), or for any game-ending defeat "
                                "(seed: the defeated player's team)", "OP-6",
                                choices=("teammate", "any"))
    swordmaster_vs_honour: str = option("swordmaster", "a defeat that both makes a Swordmaster "
                                        "and drops a player to 0 honour: Swordmaster decides, or "
                                        "honour scoring", "OP-7", choices=("swordmaster", "honour"))
    answer_order: str = option("clockwise", "Battle Cry / Jujutsu answered one player at a time "
                               "from the player who played it", "OP-8",
                               choices=("clockwise", "counterclockwise"))
    ushiwaka_draws: str = option("wounds", "Ushiwaka draws one card per wound actually taken, or "
                                 "per point of the weapon's damage (excess included)", "OP-9",
                                 choices=("wounds", "damage"))
    reshuffle_on: str = option("any_draw", "an empty deck is rebuilt from the discard pile as "
                               "soon as any effect draws, or only in the draw phase", "OP-10",
                               choices=("any_draw", "draw_phase"))
    damage_order: str = option("add_first", "Fast Draw and Musashi add before Ginchiyo "
                               "subtracts (minimum 1), or Ginchiyo first", "OP-11",
                               choices=("add_first", "subtract_first"))
    shogun_bushido: str = option("discard", "3 players, a weapon flipped under Bushido: the "
                                 "Shogun just discards Bushido (the brief), or still chooses "
                                 "between passing it left by discarding a weapon and discarding "
                                 "it at no honour (the seed: 'if he would have to lose honour, "
                                 "he discards Bushido')", "SS-21, SS-18",
                                 choices=("discard", "choose"))
    table_talk: str = option("none", "strategies share no hidden information (bluffing is a "
                             "strategy's own business)", "OP-12", choices=("none",))
    reshuffle_honour: int = option(1, "honour every player loses when the deck is rebuilt", "SS-6")
    hand_limit: int = option(7, "cards kept at the end of a turn", "SS-8")
    opening_hands: tuple = option(DEFAULT_OPENING, "opening hand sizes clockwise from the "
                                  "Shogun", "SS-4", parse=lambda t: tuple(int(v) for v in parse_names(t)))
    characters: tuple | None = option(None, "character per seat ('random' or a name), e.g. "
                                      "'kojiro,random,random,plain5,random'; default all random",
                                      "SS-3", parse=parse_names)
    exclude_characters: tuple = option((), "characters never drawn at random", "SS-3",
                                       parse=parse_names)
    character_resilience: tuple = option((), "override resilience, e.g. 'benkei=4'", "SS-3",
                                         parse=parse_assignments)
    resilience_values: tuple | None = option(
        None, "every character's resilience, in the order of layout.CHARACTER_NAMES (design "
        "data the workbench tunes: knobs resilience_values[benkei] ...); default: the printed "
        "cards", "SS-3", parse=parse_int_tuple, tune=Tunable(1, 9, span=2))
    role_honour: tuple | None = option(
        None, "starting honour of shogun, samurai, ninja, ronin at this player count (a role "
        "the count does not deal is ignored; knobs role_honour[shogun] ...); default: the role "
        "table", "SS-2", parse=parse_int_tuple, tune=Tunable(1, 9, span=2, per=("n_players",)))
    role_multiplier: tuple | None = option(
        None, "score multiplier of shogun, samurai, ninja, ronin at this player count (knobs "
        "role_multiplier[ninja] ...); default: the role table", "SS-19", parse=parse_int_tuple,
        tune=Tunable(0, 9, span=2, per=("n_players",)))
    role_table: str | None = option(None, "CSV or .xlsx of roles: players,role,count,honour,"
                                    "multiplier,top_stars_multiplier; default: the rulebook's",
                                    "SS-1, SS-2, SS-19")
    starting_honour: tuple = option((), "override starting honour at this player count, e.g. "
                                    "'shogun=6,ninja=3'", "SS-2", parse=parse_assignments)
    multipliers: tuple = option((), "override score multipliers at this player count, e.g. "
                                "'ronin=2'", "SS-19", parse=parse_assignments)
    roles: tuple | None = option(None, "role per seat (scripted games), e.g. "
                                 "'shogun,ninja1,samurai,ninja3,ronin'; default: dealt at random",
                                 "SS-1", parse=parse_names)
    deck_order: tuple | None = option(None, "the whole deck, top card first, by card name "
                                      "(scripted games); default: shuffled", "SS-4",
                                      parse=parse_names)

    check_invariants: bool = option(False, "check card conservation and bounds after every turn "
                                    "(tests; the end of every game is always checked)", "")

    def __post_init__(self):
        for name in ("card_counts", "weapon_stats", "deck_counts", "weapon_difficulty",
                     "weapon_damage", "opening_hands", "characters",
                     "exclude_characters", "character_resilience", "starting_honour",
                     "multipliers", "roles", "deck_order", "resilience_values", "role_honour",
                     "role_multiplier"):
            value = getattr(self, name)
            if isinstance(value, str):
                value = self.options()[name].metadata["parse"](value)
            if isinstance(value, (list, tuple)):
                value = tuple(tuple(v) if isinstance(v, list) else v for v in value)
                if name in ASSIGNMENT_OPTIONS:  # pairs (name, value); found by fuzzing
                    pairs = [parse_assignments(v) if isinstance(v, str) else (v,) for v in value]
                    if any(len(p) != 1 or not isinstance(p[0], tuple) or len(p[0]) != 2
                           for p in pairs):
                        raise RulesError(f"{name}={value!r} must be NAME=VALUE pairs, e.g. "
                                         "'parry=12,bokken=5'")
                    value = tuple(p[0] for p in pairs)
            object.__setattr__(self, name, value)
        n = _int(self.n_players, "n_players")
        if n not in PLAYER_COUNTS:
            raise RulesError(f"n_players={self.n_players!r} is not allowed; Samurai Sword is for "
                             "3 to 7 players (SS-1)")
        cap = _int(self.turn_cap, "turn_cap")
        if not 1 <= cap <= MAX_TURN_CAP:
            raise RulesError(f"turn_cap={cap} must be between 1 and {MAX_TURN_CAP} (OP-3)")
        if not 0 <= _int(self.reshuffle_honour, "reshuffle_honour") <= 9:
            raise RulesError(f"reshuffle_honour={self.reshuffle_honour} must be between 0 and 9")
        if not 1 <= _int(self.hand_limit, "hand_limit") <= 99:
            raise RulesError(f"hand_limit={self.hand_limit} must be between 1 and 99 (SS-8)")
        if not isinstance(self.geisha_own_property, bool):
            raise RulesError(f"option geisha_own_property={self.geisha_own_property!r} must be "
                             "true or false")
        self.check_choices()
        if len(self.opening_hands) < n or any(not 0 <= _int(v, "opening_hands") <= 99
                                              for v in self.opening_hands):
            raise RulesError(f"opening_hands={self.opening_hands} needs {n} sizes, each 0..99 (SS-4)")
        cards = self.card_matrix()
        opening = sum(self.opening_hands[:n])
        if cards[:, L.CT.COUNT].sum() < opening:
            raise RulesError(f"the deck has {cards[:, L.CT.COUNT].sum()} cards; the opening hands "
                             f"alone need {opening} (SS-4)")
        self.resilience()
        self.character_seats()
        self.role_rows()
        self.seat_roles()
        self.deck_ids()

    @property
    def n_seats(self) -> int:
        return self.n_players

    # --- cards ---------------------------------------------------------------------------------

    def card_matrix(self) -> np.ndarray:
        """int64[25, 3]: count, difficulty, damage per card type (OP-2, SS-10)."""
        rows, source = _read_csv("cards.csv", self.card_table, "card_table",
                                 ["card", "count", "difficulty", "damage"])
        matrix = np.zeros((L.N_TYPES, L.N_CARD_COLUMNS), np.int64)
        seen: dict[int, int] = {}   # card type -> its line
        for line, row in rows:
            t = CARD_IDS.get(_key(row["card"]))
            if t is None:
                raise RulesError(f"{source}, line {line}: unknown card {row['card']!r}; the cards "
                                 f"are {', '.join(L.CARD_NAMES)}")
            _once(seen, t, line, source, f"the card {L.CARD_NAMES[t]}")
            matrix[t, L.CT.COUNT] = _int(row["count"], f"{source}, line {line}, count")
            if t < L.N_WEAPONS:
                matrix[t, L.CT.DIFFICULTY] = _int(row["difficulty"], f"{source}, line {line}, difficulty")
                matrix[t, L.CT.DAMAGE] = _int(row["damage"], f"{source}, line {line}, damage")
        missing = [L.CARD_NAMES[t] for t in range(L.N_TYPES) if t not in seen]
        if missing:
            raise RulesError(f"{source} lacks the card(s) {', '.join(missing)}")
        for option_name, column, size in (("deck_counts", L.CT.COUNT, L.N_TYPES),
                                          ("weapon_difficulty", L.CT.DIFFICULTY, L.N_WEAPONS),
                                          ("weapon_damage", L.CT.DAMAGE, L.N_WEAPONS)):
            values = getattr(self, option_name)
            if values is not None:
                if len(values) != size:
                    raise RulesError(f"{option_name} has {len(values)} values; it needs {size}, in "
                                     "the order of games/samurai/layout.py CARD_NAMES")
                matrix[:size, column] = [_int(v, option_name) for v in values]
        for name, value in self.card_counts:
            matrix[self._card(name, "card_counts"), L.CT.COUNT] = _int(value, f"card_counts {name}")
        for name, value in self.weapon_stats:
            t = self._card(name, "weapon_stats")
            if t >= L.N_WEAPONS:
                raise RulesError(f"weapon_stats: {name!r} is not a weapon; only weapons have "
                                 "difficulty and damage")
            parts = str(value).split("/")
            if len(parts) != 2:
                raise RulesError(f"weapon_stats {name}={value!r}: write difficulty/damage, e.g. 2/3")
            matrix[t, L.CT.DIFFICULTY] = _int(parts[0], f"weapon_stats {name} difficulty")
            matrix[t, L.CT.DAMAGE] = _int(parts[1], f"weapon_stats {name} damage")
        for t in range(L.N_TYPES):
            if matrix[t, L.CT.COUNT] < 0:
                raise RulesError(f"card count of {L.CARD_NAMES[t]} is {matrix[t, L.CT.COUNT]}; "
                                 "counts must be 0 or more (OP-2)")
            if t < L.N_WEAPONS:
                d, h = matrix[t, L.CT.DIFFICULTY], matrix[t, L.CT.DAMAGE]
                if not (1 <= d <= MAX_DIFFICULTY and 1 <= h <= MAX_DAMAGE):
                    raise RulesError(f"weapon {L.CARD_NAMES[t]} has difficulty {d} and damage {h}; "
                                     f"a weapon needs difficulty 1..{MAX_DIFFICULTY} and damage "
                                     f"1..{MAX_DAMAGE} (SS-10)")
        total = int(matrix[:, L.CT.COUNT].sum())
        if total > L.DECK_MAX - 64:
            raise RulesError(f"the deck has {total} cards; at most {L.DECK_MAX - 64} are supported")
        return matrix

    @staticmethod
    def _card(name, option_name) -> int:
        t = CARD_IDS.get(_key(name))
        if t is None:
            raise RulesError(f"{option_name}: unknown card {name!r}; the cards are "
                             f"{', '.join(L.CARD_NAMES)}")
        return t

    def tunable_value(self, name: str):
        if name == "resilience_values":
            return tuple(int(v) for v in self.resilience())
        if name in ("role_honour", "role_multiplier"):
            key = "honour" if name == "role_honour" else "multiplier"
            table = self.role_rows()
            return tuple(table[r][key] if r in table else 0 for r in L.ROLE_NAMES)
        column = {"deck_counts": L.CT.COUNT, "weapon_difficulty": L.CT.DIFFICULTY,
                  "weapon_damage": L.CT.DAMAGE}.get(name)
        if column is None:
            return super().tunable_value(name)
        size = L.N_TYPES if name == "deck_counts" else L.N_WEAPONS
        return tuple(int(v) for v in self.card_matrix()[:size, column])

    def knob_labels(self, name: str):
        if name in ("deck_counts", "weapon_difficulty", "weapon_damage"):  # deck_counts[katana]
            size = L.N_TYPES if name == "deck_counts" else L.N_WEAPONS
            return tuple(c.lower().replace(" ", "_") for c in L.CARD_NAMES[:size])
        if name == "resilience_values":  # the ability-less yardsticks keep their own
            return tuple(name.lower() if c < L.N_PRINTED_CHARACTERS else None
                         for c, name in enumerate(L.CHARACTER_NAMES))
        if name in ("role_honour", "role_multiplier"):  # only the roles this count deals
            table = self.role_rows()
            return tuple(r if table.get(r, {}).get("count", 0) > 0 else None for r in L.ROLE_NAMES)
        return None

    def deck_ids(self) -> list[int] | None:
        if self.deck_order is None:
            return None
        ids = [self._card(name, "deck_order") for name in self.deck_order]
        counts = self.card_matrix()[:, L.CT.COUNT]
        if np.bincount(ids, minlength=L.N_TYPES).tolist() != counts.tolist():
            raise RulesError(f"deck_order lists {len(ids)} cards; it must be an ordering of this "
                             f"game's whole deck ({int(counts.sum())} cards)")
        return ids

    # --- characters ----------------------------------------------------------------------------

    def _character(self, name, option_name) -> int:
        c = CHARACTER_IDS.get(_key(name))
        if c is None:
            raise RulesError(f"{option_name}: unknown character {name!r}; the characters are "
                             f"{', '.join(L.CHARACTER_NAMES)}")
        return c

    def resilience(self) -> np.ndarray:
        rows, source = _read_csv("characters.csv", None, "character table",
                                 ["character", "resilience"])
        values = np.zeros(L.N_CHARACTERS, np.int64)
        seen: dict[int, int] = {}
        for line, row in rows:
            c = self._character(row["character"], source)
            _once(seen, c, line, source, f"the character {L.CHARACTER_NAMES[c]}")
            values[c] = _int(row["resilience"], source)
        for name, value in self.character_resilience:
            values[self._character(name, "character_resilience")] = _int(value, f"resilience of {name}")
        if self.resilience_values is not None:
            if len(self.resilience_values) != L.N_CHARACTERS:
                raise RulesError(f"resilience_values has {len(self.resilience_values)} values; it "
                                 f"needs {L.N_CHARACTERS}, in the order {', '.join(L.CHARACTER_NAMES)}")
            values[:] = [_int(v, "resilience_values") for v in self.resilience_values]
        for c, v in enumerate(values):
            if not 1 <= v <= 20:
                raise RulesError(f"{L.CHARACTER_NAMES[c]}'s resilience {v} must be 1..20 (SS-3)")
        return values

    def character_seats(self) -> tuple[list[int], int]:
        """Fixed character per seat (-1 = random) and the random pool bitmask (SS-3)."""
        n = self.n_players
        fixed = [L.RANDOM_CHARACTER] * n
        if self.characters is not None:
            if len(self.characters) != n:
                raise RulesError(f"characters={self.characters!r} must name one character (or "
                                 f"'random') for each of the {n} seats")
            for s, name in enumerate(self.characters):
                if _key(name) != "random":
                    fixed[s] = self._character(name, "characters")
        chosen = [c for c in fixed if c >= 0]
        printed = [c for c in chosen if c < L.N_PRINTED_CHARACTERS]   # Plain4/5 may repeat
        if len(set(printed)) != len(printed):
            raise RulesError(f"characters={self.characters!r}: a character can sit at one seat only")
        pool = (1 << L.N_PRINTED_CHARACTERS) - 1
        for name in self.exclude_characters:
            pool &= ~(1 << self._character(name, "exclude_characters"))
        for c in printed:
            pool &= ~(1 << c)
        if bin(pool).count("1") < fixed.count(L.RANDOM_CHARACTER):
            raise RulesError(f"{fixed.count(L.RANDOM_CHARACTER)} seats draw a character at random "
                             f"but only {bin(pool).count('1')} remain after exclusions (SS-3)")
        return fixed, pool

    # --- roles ---------------------------------------------------------------------------------

    def role_rows(self) -> dict[str, dict]:
        """{role: {count, honour, multiplier, top}} at this player count (SS-1, SS-2, SS-19)."""
        rows, source = _read_csv("roles.csv", self.role_table, "role_table",
                                 ["players", "role", "count", "honour", "multiplier"])
        table, seen = {}, {}
        for line, row in rows:
            players = _int(row["players"], f"{source}, line {line}")
            role = str(row["role"]).strip().lower()
            # at every player count, not only this one: the file is wrong whatever is played
            _once(seen, (players, role), line, source, f"the {role} at {players} players")
            if players != self.n_players:
                continue
            if role not in ROLE_IDS:
                raise RulesError(f"{source}, line {line}: unknown role {row['role']!r}; roles are "
                                 f"{', '.join(L.ROLE_NAMES)}")
            top = (row.get("top_stars_multiplier") or "").strip()
            table[role] = {"count": _int(row["count"], f"{source}, line {line}, count"),
                           "honour": _int(row["honour"], f"{source}, line {line}, honour"),
                           "multiplier": _int(row["multiplier"], f"{source}, line {line}, multiplier"),
                           "top": _int(top, f"{source}, line {line}, top_stars_multiplier") if top else 0}
        for name, value in self.starting_honour:
            self._role_entry(table, name, "starting_honour")["honour"] = _int(value, f"starting_honour {name}")
        for name, value in self.multipliers:
            self._role_entry(table, name, "multipliers")["multiplier"] = _int(value, f"multipliers {name}")
        for option_name, key in (("role_honour", "honour"), ("role_multiplier", "multiplier")):
            values = getattr(self, option_name)
            if values is None:
                continue
            if len(values) != len(L.ROLE_NAMES):
                raise RulesError(f"{option_name} has {len(values)} values; it needs "
                                 f"{len(L.ROLE_NAMES)}: {', '.join(L.ROLE_NAMES)}")
            for role, value in zip(L.ROLE_NAMES, values):
                if role in table:
                    table[role][key] = _int(value, f"{option_name} {role}")
        counts = {r: table.get(r, {"count": 0})["count"] for r in L.ROLE_NAMES}
        if sum(counts.values()) != self.n_players or counts["shogun"] != 1 or not 2 <= counts["ninja"] <= 3:
            raise RulesError(f"{source}: the roles at {self.n_players} players are {counts}; they "
                             "must add up to the players, with one Shogun and 2 or 3 Ninja (SS-1)")
        for role, entry in table.items():
            if not 1 <= entry["honour"] <= 99 or not 0 <= entry["multiplier"] <= 9 or not 0 <= entry["top"] <= 9:
                raise RulesError(f"{source}: {role} honour {entry['honour']} (1..99) or multiplier "
                                 f"{entry['multiplier']} (0..9) out of range (SS-2, SS-19)")
        return table

    @staticmethod
    def _role_entry(table, name, option_name):
        role = str(name).strip().lower()
        if role not in table:
            raise RulesError(f"{option_name}: {name!r} is not a role in this game; roles here: "
                             f"{', '.join(table)}")
        return table[role]

    def seat_roles(self) -> tuple[list[int], list[int], int] | None:
        """Fixed roles (role, stars per seat, removed Ninja's stars) or None (dealt at random)."""
        if self.roles is None:
            return None
        if len(self.roles) != self.n_players:
            raise RulesError(f"roles={self.roles!r} must give one role per seat ({self.n_players})")
        roles, stars = [], []
        for name in self.roles:
            text = str(name).strip().lower()
            base = text.rstrip("0123456789")
            if base not in ROLE_IDS:
                raise RulesError(f"roles: unknown role {name!r}; write shogun, samurai, ronin or "
                                 "ninja1/ninja2/ninja3")
            roles.append(ROLE_IDS[base])
            stars.append(int(text[len(base):]) if base == "ninja" and text != base else 0)
        table = self.role_rows()
        for role, entry in table.items():
            if roles.count(ROLE_IDS[role]) != entry["count"]:
                raise RulesError(f"roles={self.roles!r}: {self.n_players} players need "
                                 f"{entry['count']} {role} (SS-1)")
        ninja = [s for r, s in zip(roles, stars) if r == L.ROLE.NINJA]
        full = 3 if len(ninja) == 2 else len(ninja)
        if sorted(ninja) != sorted(set(ninja)) or any(not 1 <= s <= full for s in ninja):
            raise RulesError(f"roles={self.roles!r}: Ninja need distinct stars 1..{full}, e.g. ninja1")
        removed = (set(range(1, full + 1)) - set(ninja)).pop() if len(ninja) == 2 else 0
        return roles, stars, removed

    # --- kernel --------------------------------------------------------------------------------

    def kernel_args(self) -> tuple:
        n = self.n_players
        r = np.zeros(L.N_RULES, np.int64)
        cards = self.card_matrix()
        r[L.R.PLAYERS] = n
        r[L.R.TURN_CAP] = self.turn_cap
        r[L.R.SWORD_HONOUR] = int(self.swordmaster == "honour")
        r[L.R.GEISHA_SELF] = int(self.geisha_own_property)
        r[L.R.DEADLY_ANY] = int(self.deadly_strike == "any")
        r[L.R.OP7_HONOUR] = int(self.swordmaster_vs_honour == "honour")
        r[L.R.USHI_DAMAGE] = int(self.ushiwaka_draws == "damage")
        r[L.R.AUTO_PARRY] = int(self.reactions == "always_parry")
        r[L.R.ANSWER_CCW] = int(self.answer_order == "counterclockwise")
        r[L.R.RESHUFFLE_PHASE] = int(self.reshuffle_on == "draw_phase")
        r[L.R.SUBTRACT_FIRST] = int(self.damage_order == "subtract_first")
        r[L.R.RESHUFFLE_HONOUR] = self.reshuffle_honour
        r[L.R.HAND_LIMIT] = self.hand_limit
        r[L.R.DECK_SIZE] = int(cards[:, L.CT.COUNT].sum())
        r[L.R.CHECK_EVERY_TURN] = int(self.check_invariants)
        r[L.R.SHOGUN_BUSHIDO_CHOICE] = int(self.shogun_bushido == "choose")
        fixed, pool = self.character_seats()
        r[L.R.POOL] = pool
        for s in range(L.MAX_SEATS):
            r[L.R.CHARACTER + s] = fixed[s] if s < n else L.RANDOM_CHARACTER
            r[L.R.OPENING + s] = self.opening_hands[s] if s < len(self.opening_hands) else 0
        for role, entry in self.role_rows().items():
            k = ROLE_IDS[role]
            r[L.R.N_ROLES + k] = entry["count"]
            r[L.R.HONOUR + k] = entry["honour"]
            r[L.R.MULT + k] = entry["multiplier"]
            if role == "ninja":
                r[L.R.TOP_STARS_MULT] = entry["top"]
        seats = self.seat_roles()
        if seats is not None:
            roles, stars, removed = seats
            r[L.R.FIXED_ROLES] = 1
            for s in range(n):
                r[L.R.ROLE + s], r[L.R.STARS + s] = roles[s], stars[s]
            r[L.R.REMOVED] = removed
        deck = np.zeros(L.DECK_MAX, np.int64)
        ids = self.deck_ids()
        if ids is not None:
            r[L.R.FIXED_DECK] = 1
            deck[:len(ids)] = ids
        return r, cards, self.resilience(), deck

    def to_dict(self, options_only: bool = False) -> dict:
        d = super().to_dict()
        for name in ("card_counts", "weapon_stats", "character_resilience", "starting_honour",
                     "multipliers"):
            d[name] = [f"{k}={v}" for k, v in getattr(self, name)]
        return d
