"""Compile-time dispatch: each game's hooks, and the plain path versus the controlled one.

The engine's protocol (sim/core/protocol.py) is written once and calls the game it runs through
hooks: ``observe(g, decision, seat)`` and the others below. Which game's function a hook calls is
decided by Numba at compile time from the type of the state ``g`` (each game registers its own
state class), with ``numba.extending.overload``: no function is passed as an argument, so every
game's kernel stays in Numba's on-disk cache (a kernel that takes a function argument is never
served from it, numba#6264).

The same mechanism keeps the decision controller (search, tracing) out of the plain path: a
kernel called with ``ctl=None`` compiles every ``by_controller`` function to its plain form, so
the controller and the search are neither compiled nor run unless a search seat or a test
asks for them.
"""
from __future__ import annotations

from numba import njit, types
from numba.extending import overload

# The hooks a game registers, with the argument names the engine calls them with. A game may
# leave out the ones with a default (sim/core/protocol.py documents each). The built-in
# strategies' dispatcher ``strategy`` is called without the state: a strategy sees only ``obs``.
HOOKS = {
    "play_game": ("g", "out", "row"),
    "observe": ("g", "decision", "seat"),
    "redeal": ("g", "seat"),
    "strategy": ("g", "kind", "decision", "seat", "obs", "legal", "params", "rng"),
    "script_action": ("g", "decision", "seat", "obs", "legal", "code"),
    "off_script": ("g", "decision", "seat", "legal"),
}


def _stub(name, arguments):
    namespace = {}
    exec(f"def {name}({', '.join(arguments)}):\n    raise NotImplementedError('{name}: no game "
         f"registered for this state')\n", namespace)
    return namespace[name]


play_game = _stub("play_game", HOOKS["play_game"])
observe = _stub("observe", HOOKS["observe"])
redeal = _stub("redeal", HOOKS["redeal"])
strategy = _stub("strategy", HOOKS["strategy"])
script_action = _stub("script_action", HOOKS["script_action"])
off_script = _stub("off_script", HOOKS["off_script"])
_STUBS = {"play_game": play_game, "observe": observe, "redeal": redeal, "strategy": strategy,
          "script_action": script_action, "off_script": off_script}


@njit(_nrt=False)
def script_code_is_action(g, decision, seat, obs, legal, code):
    """Default ``script_action``: a script lists the actions themselves."""
    return code


@njit(_nrt=False)
def no_answer_off_script(g, decision, seat, legal):
    """Default ``off_script``: a script has no answer for a decision it does not list (an
    illegal action: the runner reports it)."""
    return -1


DEFAULT_HOOKS = {"script_action": script_code_is_action, "off_script": no_answer_off_script}


def register(state_class, **implementations) -> None:
    """Let the engine call ``implementations`` (hook name -> jitted function) for states of
    ``state_class``; hooks left out keep their default (DEFAULT_HOOKS)."""
    unknown = set(implementations) - set(HOOKS)
    if unknown:
        raise TypeError(f"unknown game hooks {sorted(unknown)}; hooks are {sorted(HOOKS)}")
    chosen = {**DEFAULT_HOOKS, **implementations}
    missing = set(HOOKS) - set(chosen)
    if missing:
        raise TypeError(f"{state_class.__name__}: the game must provide {sorted(missing)}")
    for name, function in chosen.items():
        passed = HOOKS[name][1:] if name == "strategy" else HOOKS[name]
        _bind(_STUBS[name], HOOKS[name], passed, state_class, function)


def _bind(stub, arguments, passed, state_class, function) -> None:
    """One overload of ``stub`` that calls ``function`` when the state is a ``state_class``."""
    names = ", ".join(arguments)
    namespace = {"types": types, "state_class": state_class, "function": function}
    exec(f"def typer({names}):\n"
         f"    if isinstance(g, types.BaseNamedTuple) and g.instance_class is state_class:\n"
         f"        def call({names}):\n"
         f"            return function({', '.join(passed)})\n"
         f"        return call\n", namespace)
    overload(stub, jit_options={"_nrt": False})(namespace["typer"])


def controller_type(g):
    """The Numba type of the controller in state ``g`` (a NoneType on the plain path)."""
    return g.types[g.fields.index("core")].types[g.types[g.fields.index("core")].fields.index("ctl")]


def is_plain(first) -> bool:
    """True when a controller argument, or the state holding one, is None (the plain path)."""
    if isinstance(first, types.NoneType):
        return True
    return (isinstance(first, types.BaseNamedTuple) and "core" in first.fields
            and isinstance(controller_type(first), types.NoneType))


def by_controller(plain):
    """Decorator: the function runs as written with a controller, and as ``plain`` (a function
    of the same arguments) when its first argument - the controller ``ctl``, or a state ``g``
    holding it - is None. Neither body is compiled for the other path."""
    def decorate(controlled):
        code = controlled.__code__
        arguments = code.co_varnames[:code.co_argcount]
        names = ", ".join(arguments)
        namespace = {"is_plain": is_plain, "plain": plain, "controlled": controlled}
        exec(f"def typer({names}):\n"
             f"    return plain if is_plain({arguments[0]}) else controlled\n", namespace)
        stub = _stub(controlled.__name__, arguments)
        overload(stub, jit_options={"_nrt": False})(namespace["typer"])
        stub.__doc__ = controlled.__doc__
        return stub
    return decorate
