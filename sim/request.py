"""One request: a game, its rule options and its player count, parsed and checked once.

Every front end builds it the same way, with one spelling of the player count, ``players``
(the game's own option, ``n_players`` or ``players``, is found by ``Variant.player_option``):
the command line (cli/requests.py), the explore page (analysis/explore.py), the MCP server
(cli/mcp_server.py) and TOML studies (analysis/study_file.py). OpenSpiel's
``load_game("goofspiel(players=3)")`` is the anchor: :func:`parse` reads the same text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping

from .errors import RulesError
from .game import GameSpec
from .games import game_names, get_game


class RequestError(RulesError):
    """A request that cannot be played; ``field`` names the part to correct: "game",
    "players" or "options"."""

    def __init__(self, message: str, field: str):
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class Request:
    """A checked request: the game and the rules it is played by."""
    spec: GameSpec
    rules: object

    @property
    def players(self) -> int:
        return self.rules.n_seats


def request(game, options: Mapping | None = None, players=None) -> Request:
    """The request for ``game`` (a name or a GameSpec) with rule ``options`` (name -> value; text
    is converted as the command line's ``-o``) at ``players`` seats (an int or its digits; an
    option ``players`` means the same where the game spells its count otherwise). Raises
    :class:`RequestError` naming the part at fault."""
    from .runner import as_rules

    if isinstance(game, str) and game not in game_names():
        raise RequestError(f"unknown game {game!r}; available: {', '.join(game_names())}", "game")
    spec = get_game(game)
    options = dict(options or {})
    count = spec.rules_class.player_option()
    if count != "players" and "players" in options:
        if players is not None:
            raise RequestError("the player count is given twice (players and the option "
                               "players); give it once", "players")
        players = options.pop("players")
    if players is not None:
        players = _whole(players)
        if count is None:
            if players != spec.rules_class().n_seats:
                raise RequestError(f"{spec.title} has a fixed number of players "
                                   f"({spec.rules_class().n_seats})", "players")
        else:
            if options.get(count) is not None and str(options[count]) != str(players):
                raise RequestError(f"players={players} and the option {count}={options[count]} "
                                   "disagree; give the count once", "players")
            try:
                as_rules(spec, {count: str(players)})
            except RulesError as error:
                raise RequestError(str(error), "players") from None
            options[count] = str(players)
    try:
        rules = as_rules(spec, options or None)
        rules.kernel_args()   # options each valid alone may not fit together
    except RulesError as error:
        raise RequestError(str(error), "options") from None
    return Request(spec, rules)


def _whole(players) -> int:
    if isinstance(players, str) and players.strip().isdigit():
        return int(players)
    if isinstance(players, bool) or not isinstance(players, int):
        raise RequestError(f"players must be a whole number, got {players!r}", "players")
    return players


_GAME_STRING = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*$")


def parse(text: str) -> Request:
    """``"goofspiel(players=3,num_cards=6)"`` or ``"sunzi"``: OpenSpiel's game string."""
    found = _GAME_STRING.match(text)
    if not found:
        raise RequestError(f"{text!r} is not GAME or GAME(KEY=VALUE,...)", "game")
    name, inside = found.groups()
    options = {}
    for item in filter(None, (part.strip() for part in (inside or "").split(","))):
        key, sign, value = item.partition("=")
        if not sign:
            raise RequestError(f"{item!r} in {text!r} must look like KEY=VALUE", "options")
        options[key.strip()] = value.strip()
    return request(name, options)
