"""The registered games: every ``balance.games`` entry point, the toolkit's own games included.

A game is found the way pytest and Dask find their plugins: an installed distribution declares
it in its pyproject.toml, ::

    [project.entry-points."balance.games"]
    dice_duel = "dice_duel.spec:SPEC"

and the entry point names the game's ``SPEC`` (a :class:`sim.game.GameSpec`). The toolkit's
seven games are declared the same way in its own pyproject.toml (``kuhn = "games.kuhn.spec:SPEC"``),
so an installed plugin game and a built-in one are listed, loaded and checked by the same code;
``balance new-game NAME --dir PATH`` writes such a plugin package. A new entry point is visible
once its distribution is installed (``pip install -e PATH``; after editing the toolkit's own
entry points, reinstall it the same way).

Every game, built-in or plugin, is one package of the same shape (what ``balance new-game``
writes; :class:`GameHome` names the parts): ``rules``, ``layout``, ``kernel``, ``log``,
``spec``, ``strategies``, ``study`` (a module or a package), ``policies/`` (shipped policies and
fields), ``RULES.md`` (the rules with their ids) and ``tests/``. The toolkit's own games are the
packages under ``games/``. A game's compiled kernels are cached in
``numba-<game>-<hash of its package's code, its study and tests left out>``.

Listing the games imports none of them; a game's package is imported when it is asked for, and
before anything of it compiles its jitted functions are pointed at its own cache folder
(sim/__init__.py says why). A plugin that cannot be loaded (its import fails, its entry point
names no GameSpec, or it takes a name that an earlier one holds) gets one error that names the
entry point and its distribution; every other game works as before.
"""
from __future__ import annotations

import importlib
import importlib.util
import sys
import traceback
from importlib import metadata
from pathlib import Path
from typing import NamedTuple

from . import use_game_cache
from .errors import RulesError
from .game import GameSpec

GROUP = "balance.games"
TOOLKIT = "balance-toolkit"   # the distribution of the built-in games: it wins a shared name


class PluginError(RulesError):
    """A game's entry point that cannot be loaded; its message names the plugin."""


class GameHome(NamedTuple):
    """Where a registered game's parts are (the table in this module's docstring)."""
    name: str
    entry_point: str          # "module:attribute" of its SPEC
    distribution: str         # the installed distribution that declares it
    package: str              # the package that holds the spec: "games.kuhn" or a plugin's own
    strategies: str           # module: BUILTINS, builtin_decide, N_FEATURES, features
    study: str                # module: write_report, game_metrics, cards, TRAINING, ...
    policies: Path            # folder of shipped policies (<game>.json, <game>-<n>p.json)
    rules_brief: Path         # the rules with their ids
    sources: tuple[Path, ...]  # what the game's compiled kernels are keyed by (its cache folder)

    @property
    def builtin(self) -> bool:
        return self.distribution == TOOLKIT

    @property
    def modules(self) -> tuple[str, ...]:
        """Module names (and package prefixes) whose jitted functions are the game's own."""
        return (self.package, self.strategies)


_HOMES: dict[str, GameHome] | None = None
_PROBLEMS: dict[str, str] = {}   # entry point (or name) -> one-line error
_LOADED: dict[str, GameSpec] = {}


def _describe(entry: metadata.EntryPoint) -> str:
    dist = entry.dist.name if entry.dist is not None else "an unknown distribution"
    return f"plugin game {entry.name!r} ({entry.value}, from the package {dist})"


def _home(entry: metadata.EntryPoint) -> GameHome:
    module = entry.value.split(":")[0].strip()
    package = module.rpartition(".")[0] or module
    dist = entry.dist.name if entry.dist is not None else "?"
    name = entry.name
    found = importlib.util.find_spec(package.split(".")[0]) if package else None
    if found is None or not found.submodule_search_locations:
        raise PluginError(f"{_describe(entry)}: its package {package!r} is not installed "
                          "(reinstall the plugin: pip install -e PATH)")
    folder = Path(list(found.submodule_search_locations)[0]).joinpath(*package.split(".")[1:])
    return _plugin_home(name, entry.value, dist, package, folder)


def _plugin_home(name, entry_point, dist, package, folder: Path) -> GameHome:
    return GameHome(name, entry_point, dist, package, f"{package}.strategies", f"{package}.study",
                    folder / "policies", folder / "RULES.md", (folder,))


def _discover() -> dict[str, GameHome]:
    """Every entry point of the group, the toolkit's first, then by distribution name."""
    global _HOMES
    if _HOMES is not None:
        return _HOMES
    entries = sorted(metadata.entry_points(group=GROUP),
                     key=lambda e: (getattr(e.dist, "name", "") != TOOLKIT,
                                    getattr(e.dist, "name", ""), e.name))
    homes: dict[str, GameHome] = {}
    for entry in entries:
        if entry.name in homes:
            held = homes[entry.name]
            _PROBLEMS[f"{entry.name} = {entry.value}"] = (
                f"{_describe(entry)} is refused: the name {entry.name!r} is taken by "
                f"{held.entry_point} (package {held.distribution}); rename the game in the "
                "plugin's pyproject.toml [project.entry-points.\"balance.games\"] and its SPEC")
            continue
        try:
            homes[entry.name] = _home(entry)
        except PluginError as error:
            _PROBLEMS[entry.name] = str(error)
    if not homes and not _PROBLEMS:
        raise RulesError(f"no games are registered: the {GROUP!r} entry points are missing; "
                         "install the toolkit (pip install -e .) so that its pyproject.toml "
                         "declares them")
    _HOMES = homes
    for problem in _PROBLEMS.values():   # once a process: the other games work on
        print(f"balance: warning: {problem}", file=sys.stderr)
    return homes


def problems() -> list[str]:
    """One line for each plugin that cannot be used (an import error shows once it is asked
    for): what ``balance games`` shows below the games."""
    _discover()
    return list(_PROBLEMS.values())


def game_names() -> list[str]:
    """Every registered game's name, sorted (none of them is imported)."""
    return sorted(_discover())


def home(name: "str | GameSpec") -> GameHome:
    """Where the game's parts are (strategies, study, shipped policies, rules brief)."""
    name = name.name if isinstance(name, GameSpec) else name
    homes = _discover()
    if name not in homes:
        raise RulesError(_unknown(name))
    return homes[name]


def _unknown(name) -> str:
    if name in _PROBLEMS:
        return _PROBLEMS[name]
    return f"unknown game {name!r}; available: {', '.join(game_names())}"


def get_game(name: "str | GameSpec") -> GameSpec:
    if isinstance(name, GameSpec):
        return name
    if name not in _LOADED:
        if not isinstance(name, str) or name not in _discover():
            raise RulesError(_unknown(name))
        place = _HOMES[name]
        module, _, attribute = place.entry_point.partition(":")
        try:
            spec = getattr(importlib.import_module(module.strip()), attribute.strip() or "SPEC")
        # anything a plugin's import raises, sys.exit included (it would end the whole
        # command, `balance games` too): name the plugin
        except (Exception, SystemExit) as error:
            if place.builtin:
                raise   # the toolkit's own code: the whole traceback is the useful report
            raise _refuse(name, f"failed to load: {_where(error)}{type(error).__name__}: "
                                f"{error}") from error
        if not isinstance(spec, GameSpec) or spec.name != name:
            got = f"a GameSpec named {spec.name!r}" if isinstance(spec, GameSpec) else \
                type(spec).__name__
            held = _HOMES.get(spec.name) if isinstance(spec, GameSpec) else None
            taken = f" (the name {spec.name!r} is taken by {held.entry_point}, package " \
                    f"{held.distribution})" if held is not None and spec.name != name else ""
            raise _refuse(name, f"must name a GameSpec called {name!r}; it names {got}{taken}")
        use_game_cache(name, place.modules, list(place.sources))
        _LOADED[name] = spec
    return _LOADED[name]


def _refuse(name: str, why: str) -> PluginError:
    """The error of a plugin that cannot be used, kept for ``problems()`` (``balance games``
    lists it), and the game taken off the registry so that no command half-uses it."""
    place = _HOMES.pop(name)
    _PROBLEMS[name] = (f"plugin game {name!r} ({place.entry_point}, from the package "
                       f"{place.distribution}) {why}")
    return PluginError(_PROBLEMS[name])


def register(spec: GameSpec) -> GameSpec:
    """Register a game in this process only, without installing it (OpenSpiel's
    ``register_game``): its parts are found next to its spec, as a plugin's. For a package that
    is not installed yet (``balance new-game`` records the first golden game this way) or a
    notebook; a name an installed game holds is refused. Worker processes (``jobs`` > 1) start
    afresh and do not see it: install the package (``pip install -e``) for those."""
    homes = _discover()
    if spec.name in homes and _LOADED.get(spec.name) is not spec:
        held = homes[spec.name]
        raise PluginError(f"cannot register {spec.title} as {spec.name!r}: the name is taken by "
                          f"{held.entry_point} (package {held.distribution})")
    package = spec.kernel.__name__.rpartition(".")[0]
    folder = Path(importlib.import_module(package).__file__).resolve().parent
    homes[spec.name] = place = _plugin_home(spec.name, f"{spec.kernel.__name__}:", "(this process)",
                                            package, folder)
    use_game_cache(spec.name, place.modules, list(place.sources))
    _LOADED[spec.name] = spec
    return spec


def _where(error: BaseException) -> str:
    """``file:line: `` of the line that raised (a syntax error's own line)."""
    if isinstance(error, SyntaxError) and error.filename:
        return f"{error.filename}:{error.lineno}: "
    frames = traceback.extract_tb(error.__traceback__)
    return f"{frames[-1].filename}:{frames[-1].lineno}: " if frames else ""


def game_version(name: "str | GameSpec") -> str | None:
    """What names a plugin game's code in a table's provenance: its distribution and version,
    and a hash of its package's source (tests left out), as ``sim.__version__`` names the
    toolkit's; None for a built-in game, which ``sim.__version__`` covers already."""
    import hashlib

    name = name.name if isinstance(name, GameSpec) else name
    if name not in _discover():   # a spec used unregistered (a test's variant of a game)
        return None
    place = home(name)
    if place.builtin:
        return None
    digest = hashlib.sha1()
    for folder in place.sources:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and path.suffix in (".py", ".csv", ".json") and \
                    not {"tests", "__pycache__"} & set(path.relative_to(folder).parts):
                digest.update(path.relative_to(folder).as_posix().encode())
                digest.update(path.read_bytes())
    try:
        version = metadata.version(place.distribution)
    except (metadata.PackageNotFoundError, ValueError):   # registered in this process only
        version = "0"
    return f"{place.distribution} {version}+code.{digest.hexdigest()[:12]}"


def code_versions(name: "str | GameSpec") -> dict:
    """The code behind a game's table, for its provenance: ``version``, the toolkit's (all of a
    built-in game's code), and for a plugin game ``game_version`` too (``game_version()``)."""
    from . import __version__

    plugin = game_version(name)
    return {"version": __version__, **({"game_version": plugin} if plugin else {})}


def strategies_module(spec: "str | GameSpec"):
    """The game's strategies module (built-ins, features)."""
    return importlib.import_module(home(spec).strategies)
