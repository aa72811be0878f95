"""A designer's game as its own package (issue 29).

``balance new-game`` writes a plugin package in a temporary folder; pip installs it into a folder
of its own (``--target``; the project's environment is left as it is), and every command runs
in a subprocess whose PYTHONPATH holds that folder, so that importlib.metadata finds the
package's ``balance.games`` entry point as it would after ``pip install -e``. The plugin then
runs simulate, report, cards, train (its policy lands in the plugin's own policies folder and
``-s trained`` seats it), ladder and the adapters, and its own tests pass. A bad plugin (an
import error, a name another game holds) gets one error naming it and its package while the
other games work on.

The scaffold's kernel compiles twice (once where new-game records the golden game, once
installed): about a minute of the module's two to three.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

GAME = "plugin_demo"
DIST = "balance-game-plugin-demo"


def pip_install(source: Path, target: Path) -> None:
    """Install ``source`` into the folder ``target`` only. Without build isolation when the
    environment can build wheels itself (offline, faster), else with it (pip fetches the build
    backend)."""
    command = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target",
               str(target), str(source)]
    done = subprocess.run([*command, "--no-build-isolation"], capture_output=True, text=True)
    if done.returncode != 0:
        done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]


def runner(site: Path, cwd: Path):
    env = {**os.environ, "PYTHONPATH": str(site)}

    def run(*argv: str, check: bool = True) -> subprocess.CompletedProcess:
        done = subprocess.run(list(argv), cwd=cwd, env=env, capture_output=True, text=True)
        if check:
            assert done.returncode == 0, (argv, done.stdout[-2000:], done.stderr[-3000:])
        return done

    return run


def balance(run, *argv: str, check: bool = True) -> subprocess.CompletedProcess:
    return run(sys.executable, "-m", "cli.main", *argv, check=check)


@pytest.fixture(scope="module")
def plugin(tmp_path_factory):
    """The scaffold's package, written where the user stands (not in the toolkit) and
    installed into a folder of its own."""
    root = tmp_path_factory.mktemp("designer")
    site = root / "site"
    made = balance(runner(site, root), "new-game", GAME, "--title", "Plugin Demo")
    assert "wrote" in made.stdout and (root / GAME / "pyproject.toml").is_file()
    pip_install(root / GAME, site)
    work = root / "work"
    work.mkdir()
    return site, runner(site, work), work


@pytest.mark.timeout(900)
def test_the_scaffold_writes_a_complete_package(plugin):
    site, _, _ = plugin
    package = site / GAME
    for part in ("spec.py", "kernel.py", "layout.py", "rules.py", "strategies.py", "study.py",
                 "RULES.md", "tests/test_rules.py", "tests/test_conformance.py",
                 "tests/golden/first_game.json"):
        assert (package / part).is_file(), part
    golden = json.loads((package / "tests/golden/first_game.json").read_text())
    # the recorded game is the example's: seat 0 swaps its 1 for the 3 and wins (rule 3)
    assert golden["expected"]["record"]["card_0"] == 3 and golden["expected"]["record"]["win_0"] == 1
    entry = next(site.glob("*.dist-info")) / "entry_points.txt"
    assert f"{GAME} = {GAME}.spec:SPEC" in entry.read_text()


@pytest.mark.timeout(900)
def test_every_command_finds_the_plugin(plugin):
    site, run, work = plugin
    listed = balance(run, "games", "--check").stdout
    assert any(line.split()[:3] == [GAME, DIST, GAME] for line in listed.splitlines()), listed
    assert "cannot be used" not in listed

    out = balance(run, "simulate", GAME, "--games", "400", "--jobs", "1", "--no-progress").stdout
    assert "Win rate per seat" in out

    report = balance(run, "report", "--game", GAME, "--quick", "--games-per-batch", "200",
                     "--jobs", "1", "--no-progress",
                     "--out", str(work / "reports"))
    index = (work / "reports" / GAME / "index.md").read_text()
    for section in ("Seat advantage", "How games end", "Per-seat metrics", "built-in strategies",
                    "Card strength by intervention", "Does it hold under skilled play?"):
        assert section in index, (section, report.stdout)
    assert "compiling its kernels before it took" in index   # the study's time says what it holds
    assert f"{DIST} 0.1.0+code." in index   # the provenance names the plugin's own code

    cards = balance(run, "cards", GAME, "--games", "100", "--jobs", "1", "--no-progress",
                    "--out", str(work / "cards")).stdout
    assert "cards" in cards and (work / "cards" / "cards.csv").is_file()
    # issue 59, item 7: the card table names the plugin's own code too
    made = json.loads((work / "cards" / "cards.provenance.json").read_text())
    assert made["game_version"].startswith(f"{DIST} 0.1.0+code.")

    # trained, without --out, into the plugin's own policies folder, where -s trained finds it
    # (issue 59, item 5: it went to ./policies/)
    policy = site / GAME / "policies" / f"{GAME}-2p.json"
    balance(run, "train", GAME, "--generations", "2", "--games", "20", "--jobs", "1")
    assert json.loads(policy.read_text())["game"] == GAME and not (work / "policies").exists()
    assert str(policy) in balance(run, "strategies", GAME).stdout
    seated = balance(run, "simulate", GAME, "-s", "trained", "-s", "random", "--games", "100",
                     "--jobs", "1", "--no-progress").stdout
    assert "trained" in seated

    ladder = balance(run, "ladder", GAME, "-s", "random", "-s", "threshold", "--games", "40",
                     "--jobs", "1", "--out", str(work / "ladder")).stdout
    assert "threshold" in ladder and (work / "ladder" / "ladder.csv").is_file()


@pytest.mark.timeout(600)
def test_the_adapters_play_the_plugin(plugin):
    pytest.importorskip("pettingzoo")
    pytest.importorskip("gymnasium")
    pytest.importorskip("pyspiel")
    _, run, _ = plugin
    code = f"""
import pyspiel
from sim.adapters import gymnasium, openspiel, pettingzoo
env = pettingzoo.env({GAME!r})
env.reset(seed=1)
steps = 0
for agent in env.agent_iter():
    obs, reward, done, cut, info = env.last()
    env.step(None if done or cut else int(obs["action_mask"].nonzero()[0][0]))
    steps += 1
seat = gymnasium.env({GAME!r}, opponents="threshold")
seat.reset(seed=2)
_, reward, over, _, _ = seat.step(0)
state = pyspiel.load_game("python_balance_{GAME}").new_initial_state()
while not state.is_terminal():
    state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node()
                       else state.legal_actions()[0])
print(steps, over, sum(state.returns()))
"""
    steps, over, total = run(sys.executable, "-c", code).stdout.split()
    assert int(steps) >= 2 and over == "True" and float(total) == pytest.approx(1.0)



def test_the_live_loop_and_the_mcp_server_serve_the_plugin(plugin):
    """Issue 30 for a plugin game: the explore page's form comes from its declarations, a paired
    session plays it, and the MCP server lists it and answers a compare, with no code of its own."""
    _, run, _ = plugin
    code = f"""
import anyio, json
from analysis import explore as X
from cli.mcp_server import build_server
from mcp import Client
form = X.form({GAME!r})
knob = next(o for o in form["options"] if o.get("knobs"))["knobs"][0]
value = knob["value"] + knob["step"] if knob["value"] + knob["step"] <= knob["high"] else knob["value"] - knob["step"]
snap = X.Session(X.View({GAME!r}, knobs={{knob["name"]: value}}, max_games=240)).run_until_done()
async def ask():
    async with Client(build_server()) as client:
        games = json.loads((await client.call_tool("list_games", {{}})).content[0].text)
        answer = await client.call_tool("compare", {{"game": {GAME!r}, "b": {{knob["name"]: value}},
                                                    "max_games": 400}})
        return games, json.loads(answer.content[0].text)
games, compared = anyio.run(ask)
print(json.dumps({{"error": snap["error"], "games": snap["games"], "listed": json.dumps(games),
                  "compare": sorted(compared), "version": snap["provenance"].get("game_version")}}))
"""
    out = json.loads(run(sys.executable, "-c", code).stdout.strip().splitlines()[-1])
    assert out["error"] is None and out["games"] == 240
    assert out["version"].startswith(f"{DIST} 0.1.0+code.")   # issue 59, item 7
    assert GAME in out["listed"] and "provenance" in out["compare"]

@pytest.mark.timeout(900)
def test_the_plugins_own_tests_pass_and_its_golden_game_re_records(plugin):
    _, run, _ = plugin
    ran = run(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--pyargs",
              f"{GAME}.tests")
    assert " passed" in ran.stdout and "failed" not in ran.stdout, ran.stdout[-2000:]
    again = run(sys.executable, "-m", f"{GAME}.tests.golden").stdout
    assert "record differences none; events unchanged" in again


@pytest.mark.timeout(600)
def test_a_bad_plugin_is_named_and_the_other_games_work(tmp_path):
    source = tmp_path / "bad"
    (source / "broken_game").mkdir(parents=True)
    (source / "broken_game" / "__init__.py").write_text("")
    (source / "broken_game" / "spec.py").write_text("import a_module_nobody_has\n")
    (source / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools>=68"]\nbuild-backend = "setuptools.build_meta"\n'
        '[project]\nname = "balance-game-broken"\nversion = "0.1.0"\n'
        '[project.entry-points."balance.games"]\n'
        'broken = "broken_game.spec:SPEC"\nkuhn = "broken_game.spec:SPEC"\n'
        '[tool.setuptools]\npackages = ["broken_game"]\n')
    site = tmp_path / "site"
    pip_install(source, site)
    run = runner(site, tmp_path)

    listed = balance(run, "games", "--check").stdout
    problems = listed.split("cannot be used:")[1]
    assert "plugin game 'kuhn' (broken_game.spec:SPEC, from the package balance-game-broken) " \
           "is refused: the name 'kuhn' is taken by games.kuhn.spec:SPEC" in problems
    assert "plugin game 'broken' (broken_game.spec:SPEC, from the package balance-game-broken) " \
           "failed to load" in problems and "No module named 'a_module_nobody_has'" in problems
    assert "kuhn" in listed.split("cannot be used:")[0]

    failed = balance(run, "simulate", "broken", "--games", "10", check=False)
    assert failed.returncode == 2 and "Traceback" not in failed.stderr
    assert "error: plugin game 'broken'" in failed.stderr and "balance-game-broken" in failed.stderr

    kuhn = balance(run, "simulate", "kuhn", "--games", "20", "--jobs", "1", "--no-progress")
    assert "Win rate per seat" in kuhn.stdout   # the toolkit's kuhn, not the plugin's


def test_every_builtin_game_is_declared_as_an_entry_point():
    """A game folder of games/ without its line in pyproject.toml would be invisible: the
    registry reads only the entry points (sim/games.py)."""
    from importlib import metadata

    root = Path(__file__).resolve().parents[2]
    declared = {e.name: e.value for e in metadata.entry_points(group="balance.games")
                if e.dist is not None and e.dist.name == "balance-toolkit"}
    folders = {path.parent.name for path in (root / "games").glob("*/spec.py")}
    assert declared == {name: f"games.{name}.spec:SPEC" for name in folders}, \
        "pyproject.toml's [project.entry-points.\"balance.games\"] and games/*/spec.py differ " \
        "(after editing them, reinstall: pip install -e .)"


def test_a_builtin_games_parts_are_where_they_were_and_a_taken_name_is_refused():
    import dataclasses

    from sim.games import PluginError, get_game, home, register

    place = home("kuhn")
    assert (place.strategies, place.study) == ("games.kuhn.strategies", "games.kuhn.study")
    assert (place.policies / "kuhn.json").is_file()
    impostor = dataclasses.replace(get_game("kuhn"), title="Not Kuhn")
    with pytest.raises(PluginError, match="the name is taken by games.kuhn.spec:SPEC"):
        register(impostor)
    assert get_game("kuhn").title == "Kuhn poker"


def test_games_check_lists_every_plugin_it_cannot_use_with_why(tmp_path, monkeypatch, capsys):
    """Issue 59, item 6: a plugin whose SPEC is no GameSpec, or a GameSpec named after a game
    another entry point holds, vanished from `balance games --check` with no problem listed,
    and one that calls sys.exit at import ended the whole listing (rc 3, nothing named). The
    entry points are faked: plugin packages on sys.path, announced by the metadata lookup."""
    from importlib import metadata
    from types import SimpleNamespace

    import sim.games as G
    from cli.main import main

    bodies = {"quitter": "import sys\nsys.exit(3)\n", "number": "SPEC = 42\n",
              "impostor": "from sim.games import get_game\nSPEC = get_game('kuhn')\n"}
    for name, body in bodies.items():
        (tmp_path / f"{name}_game").mkdir()
        (tmp_path / f"{name}_game" / "__init__.py").write_text("")
        (tmp_path / f"{name}_game" / "spec.py").write_text(body)
    monkeypatch.syspath_prepend(str(tmp_path))
    real = list(metadata.entry_points(group=G.GROUP))
    dist = SimpleNamespace(name="balance-game-fakes")
    fakes = [SimpleNamespace(name=name, value=f"{name}_game.spec:SPEC", group=G.GROUP, dist=dist)
             for name in bodies]
    lookup = SimpleNamespace(version=metadata.version, entry_points=lambda group: real + fakes,
                             PackageNotFoundError=metadata.PackageNotFoundError)
    monkeypatch.setattr(G, "metadata", lookup)   # the registry's lookup only, not numba's
    monkeypatch.setattr(G, "_HOMES", None)   # discovered afresh, restored after the test
    monkeypatch.setattr(G, "_PROBLEMS", {})
    monkeypatch.setattr(G, "_LOADED", dict(G._LOADED))

    assert main(["games", "--check"]) == 0
    games, _, problems = capsys.readouterr().out.partition("cannot be used:")
    listed = {line.split()[0] for line in games.splitlines()[1:] if line.strip()}
    assert {"kuhn", "parthian", "sunzi"} <= listed and not listed & set(bodies)
    lines = [line.strip() for line in problems.strip().splitlines()]
    assert len(lines) == 3, lines
    start = "plugin game '{}' ({}_game.spec:SPEC, from the package balance-game-fakes) "
    for name, why in (("quitter", "failed to load: "),
                      ("number", "must name a GameSpec called 'number'; it names int"),
                      ("impostor", "must name a GameSpec called 'impostor'; it names a GameSpec "
                                   "named 'kuhn' (the name 'kuhn' is taken by games.kuhn.spec:SPEC")):
        assert any(line.startswith(start.format(name, name) + why) for line in lines), (name, lines)
    assert any("SystemExit: 3" in line for line in lines)
