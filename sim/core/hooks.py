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

import sys

from numba import njit, types
from numba.extending import overload

from ..errors import StrategyError
from .hashing import hash_observation
from .policy import policy_choice, no_features
from .userfn import call_user

# The hooks a game registers (the names of the arguments the engine passes). A game may leave
# out the ones with a default. The engine never calls ``observe`` across a function boundary:
# a Numba function compiled without reference counting (the game loop) must not hand arrays back
# to one compiled with it (a test's driver, Python), or their counts go wrong and the heap breaks
# (measured: "malloc(): unaligned tcache chunk"). So observe is called inside the engine's
# per-game answers below, which return only integers.
HOOKS = {
    "play_game": ("g", "out", "row"),
    "observe": ("g", "decision", "seat"),
    "redeal": ("g", "seat"),
    "strategy": ("kind", "decision", "seat", "obs", "legal", "params", "rng"),
    "script_action": ("g", "decision", "seat", "obs", "legal", "code"),
    "off_script": ("g", "decision", "seat", "legal"),
    "features": ("decision", "seat", "obs", "legal", "rng", "phi"),
}

# What the protocol calls, per game: (arguments, body); ``observe``, ``strategy``,
# ``script_action`` are the game's own functions in the body.
ANSWERS = {
    "play_game": (("g", "out", "row"), "return play_game(g, out, row)"),
    "redeal": (("g", "seat"), "return redeal(g, seat)"),
    "off_script": (("g", "decision", "seat", "legal"), "return off_script(g, decision, seat, legal)"),
    "builtin_answer": (("g", "kind", "decision", "seat", "legal", "params", "rng"),
                       "return strategy(kind, decision, seat, observe(g, decision, seat), legal, "
                       "params, rng)"),
    "user_answer": (("g", "address", "decision", "seat", "legal", "params", "rng"),
                    "return call_user(address, decision, seat, observe(g, decision, seat), legal, "
                    "params, rng)"),
    "script_answer": (("g", "decision", "seat", "legal", "code"),
                      "return script_action(g, decision, seat, observe(g, decision, seat), legal, "
                      "code)"),
    "trained_answer": (("g", "decision", "seat", "legal", "params", "rng"),
                       "features(decision, seat, observe(g, decision, seat), legal, rng, "
                       "g.core.phi)\n            return policy_choice(g.core.phi, SPARSE, decision, "
                       "legal, params, rng)"),
    "observation_hash": (("g", "decision", "seat", "legal", "params", "rng", "h"),
                         "return hash_observation(h, observe(g, decision, seat), legal, params, "
                         "rng)"),
}


def _stub(name, arguments):
    namespace = {}
    exec(f"def {name}({', '.join(arguments)}):\n    raise NotImplementedError('{name}: no game "
         f"registered for this state')\n", namespace)
    return namespace[name]


_STUBS = {name: _stub(name, arguments) for name, (arguments, _) in ANSWERS.items()}
play_game = _STUBS["play_game"]
redeal = _STUBS["redeal"]
off_script = _STUBS["off_script"]
builtin_answer = _STUBS["builtin_answer"]
user_answer = _STUBS["user_answer"]
script_answer = _STUBS["script_answer"]
trained_answer = _STUBS["trained_answer"]
observation_hash = _STUBS["observation_hash"]
chance_streams = _stub("chance_streams", ("g",))
decision_types = _stub("decision_types", ("g",))


@njit(_nrt=False)
def script_code_is_action(g, decision, seat, obs, legal, code):
    """Default ``script_action``: a script lists the actions themselves."""
    return code


@njit(_nrt=False)
def no_answer_off_script(g, decision, seat, legal):
    """Default ``off_script``: a script has no answer for a decision it does not list (an
    illegal action: the runner reports it)."""
    return -1


DEFAULT_HOOKS = {"script_action": script_code_is_action, "off_script": no_answer_off_script,
                 "features": no_features}


def register(state_class, n_chance: int | None = None, n_decisions: int | None = None,
             inline_strategies: bool = False, sparse_features: int = 0,
             **implementations) -> None:
    """Let the engine call ``implementations`` (hook name -> jitted function) for states of
    ``state_class``; hooks left out keep their default (DEFAULT_HOOKS). ``n_chance`` and
    ``n_decisions`` are the game's random-stream layout (sim/rng.py; default: the N_CHANCE and
    N_DECISIONS of the state's module), compiled in as constants: reading them from the state
    on every decision cost 8% of Goofspiel's random play.

    ``inline_strategies``: compile the built-in strategies into the place that asks instead of
    calling them, for a game with one or two asks whose decisions take tens of nanoseconds (a
    call copies the whole state; Goofspiel's greedy bids 0.68x -> 0.80x of the pre-core kernel,
    match 0.86x -> 1.0x). This inlines the dispatch (the ``strategy`` hook); the strategy
    functions it calls stay calls unless they are ``inline="always"`` themselves, as Goofspiel's
    are (greedy 0.82x -> 1.08x). Games with many asks keep the call: inlining there costs
    compile time.

    The game's ``observe`` must not be compiled with ``_nrt=False`` (tests and adapters call it
    from Python, which counts references); inside the engine it is inlined into code that is.

    ``sparse_features``: the game's ``features`` hook writes that many (index, value) pairs an
    action instead of every feature (sim/core/policy.py: SPARSE_FEATURES); 0, dense."""
    module = vars(sys.modules[state_class.__module__])
    _distinct_type_names(state_class.__module__, module)
    n_chance = module.get("N_CHANCE") if n_chance is None else n_chance
    n_decisions = module.get("N_DECISIONS") if n_decisions is None else n_decisions
    if n_chance is None or n_decisions is None:
        raise TypeError(f"{state_class.__name__}: register needs n_chance and n_decisions")
    unknown = set(implementations) - set(HOOKS)
    if unknown:
        raise TypeError(f"unknown game hooks {sorted(unknown)}; hooks are {sorted(HOOKS)}")
    chosen = {**DEFAULT_HOOKS, **implementations}
    missing = set(HOOKS) - set(chosen)
    if missing:
        raise TypeError(f"{state_class.__name__}: the game must provide {sorted(missing)}")
    if isinstance(sparse_features, bool) or not isinstance(sparse_features, int) \
            or sparse_features < 0:
        raise TypeError(f"sparse_features must be a count of pairs per action, got "
                        f"{sparse_features!r}")
    # the pairs go into the features' own buffer (N_FEATURES + 1 columns): one that does not
    # fit would write past it, unchecked, in compiled code
    features = chosen["features"]
    width = getattr(sys.modules[getattr(features, "py_func", features).__module__], "N_FEATURES",
                    0)
    if 2 * sparse_features > width:
        raise TypeError(f"sparse_features={sparse_features}: {sparse_features} (index, value) "
                        f"pairs an action need {2 * sparse_features} feature columns, and the "
                        f"features hook's module declares N_FEATURES = {width}")
    functions = {**chosen, "call_user": call_user, "hash_observation": hash_observation,
                 "policy_choice": policy_choice}
    for name, (arguments, body) in ANSWERS.items():
        if name == "trained_answer":
            body = body.replace("SPARSE", str(sparse_features))  # the game's layout of phi
            # a new_core not given N_FEATURES makes a narrower buffer, and the features would
            # write past it unchecked (the heap breaks later, far away): a clear error instead
            narrow = (f"{state_class.__module__}: the trained policy's feature buffer is "
                      f"narrower than N_FEATURES = {width}; pass N_FEATURES to "
                      "core.new_core(..., n_features) in the kernel's new_state")
            body = (f"if g.core.phi.shape[1] < {width + 1}:\n"
                    f"                raise StrategyError({narrow!r})\n            {body}")
            _bind_trained(_STUBS[name], arguments, body, state_class,
                          {**functions, "StrategyError": StrategyError})
            continue
        _bind(_STUBS[name], arguments, body, state_class, functions,
              inline=inline_strategies and name == "builtin_answer")
    for stub, value in ((chance_streams, n_chance), (decision_types, n_decisions)):
        # inlined: a called constant would copy the whole state on every decision
        _bind(stub, ("g",), f"return {int(value)}", state_class, {}, inline=True)


def _distinct_type_names(module_name: str, module: dict) -> None:
    """Name the game's NamedTuples (its State, its Observation) after their module. Numba names
    a NamedTuple type after its class and field types, and two games whose states hold the same
    fields (Kuhn's and Leduc's) would give one name to two types: the second game then ran the
    first one's compiled code in the same process (measured: Leduc's live games played Kuhn's
    rules, and the heap broke). ``__qualname__`` stays, so the classes still pickle."""
    for value in module.values():
        if isinstance(value, type) and issubclass(value, tuple) and hasattr(value, "_fields") \
                and value.__module__ == module_name and "." not in value.__name__:
            value.__name__ = f"{module_name}.{value.__name__}"


def _bind(stub, arguments, body, state_class, functions, inline: bool = False) -> None:
    """One overload of ``stub``, for states of ``state_class``: ``body`` over ``functions``
    (called: each answer is compiled once per game, not into every place that asks)."""
    names = ", ".join(arguments)
    namespace = {"types": types, "state_class": state_class, **functions}
    exec(f"def typer({names}):\n"
         f"    if isinstance(g, types.BaseNamedTuple) and g.instance_class is state_class:\n"
         f"        def answer({names}):\n"
         f"            {body}\n"
         f"        return answer\n", namespace)
    if inline:
        overload(stub, inline="always")(namespace["typer"])
    else:
        overload(stub, jit_options={"_nrt": False})(namespace["typer"])


def _bind_trained(stub, arguments, body, state_class, functions) -> None:
    """``_bind`` for the trained policy's answer: on a state without the features' buffer (a
    batch with no trained seat, core.phi None) it is compiled as "no answer", so the game's
    features are compiled only into kernels that play a trained policy."""
    names = ", ".join(arguments)
    namespace = {"types": types, "state_class": state_class, "field_type": field_type,
                 **functions}
    exec(f"def typer({names}):\n"
         f"    if isinstance(g, types.BaseNamedTuple) and g.instance_class is state_class:\n"
         f"        if isinstance(field_type(g, 'phi'), types.NoneType):\n"
         f"            def answer({names}):\n"
         f"                return -1\n"
         f"            return answer\n"
         f"        def answer({names}):\n"
         f"            {body}\n"
         f"        return answer\n", namespace)
    overload(stub, jit_options={"_nrt": False})(namespace["typer"])


def field_type(g, name):
    """The Numba type of field ``name`` of the core in state type ``g``."""
    core = g.types[g.fields.index("core")]
    return core.types[core.fields.index(name)]


def controller_type(g):
    """The Numba type of the controller in state ``g`` (a NoneType on the plain path)."""
    return field_type(g, "ctl")


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
