"""Where ``balance train`` writes, and which player counts it trains (issue 59, item 5).

Without --out it wrote ./policies/, where ``-s trained`` never looks; it now writes the game's
policies folder (a plugin's own package), or refuses in one line naming --out when that folder
cannot be written. A recipe's ``players`` trains one policy per count listed. The training
itself is replaced by a stub here: these tests are about the command, not CMA-ES.
"""
import json

import pandas as pd
import pytest

import analysis.training as training
import sim.games
from cli.main import main
from sim import trained
from sim.games import get_game


class Stub:
    def __init__(self, rules):
        self.n = rules.n_seats
        self.history = pd.DataFrame({"generation": [1]})

    def save(self, path):
        path.write_text(json.dumps({"n_players": self.n}))
        return path

    def player(self):
        return "trained"


class Figure:
    def savefig(self, path, **_):
        path.write_text("png")


@pytest.fixture
def trained_counts(monkeypatch, tmp_path):
    """The player counts trained, in order; every game's policies folder is tmp_path/policies."""
    counts = []

    def train_recipe(game, rules, plan, **_):
        counts.append((rules.n_seats, plan["generations"]))
        return Stub(rules)

    monkeypatch.setattr(training, "train_recipe", train_recipe)
    monkeypatch.setattr(training, "learning_curve", lambda *_: Figure())
    monkeypatch.setattr(training, "strength_table", lambda *_: pd.DataFrame({"vs": ["random"]}))
    real = sim.games.home
    for module in (sim.games, trained):   # trained reads it as its own name
        monkeypatch.setattr(module, "home",
                            lambda name: real(name)._replace(policies=tmp_path / "policies"))
    return counts


def test_the_default_is_where_trained_seats_it_one_policy_per_recipe_count(trained_counts,
                                                                          tmp_path):
    assert training.recipe("parthian")["players"] == (3, 4, 5, 6)
    assert main(["train", "parthian", "--generations", "2", "--jobs", "1", "--no-progress"]) == 0
    assert trained_counts == [(3, 2), (4, 2), (5, 2), (6, 2)]
    spec = get_game("parthian")
    for n in (3, 4, 5, 6):
        path = tmp_path / "policies" / f"parthian-{n}p.json"
        assert json.loads(path.read_text()) == {"n_players": n}
        assert trained.shipped_path(spec, n) == path   # what -s trained seats at n players
        assert path.with_suffix(".strength.csv").is_file()


def test_players_or_out_train_one_count(trained_counts, tmp_path):
    assert main(["train", "parthian", "--players", "4", "--generations", "1", "--jobs", "1",
                 "--no-progress"]) == 0
    assert trained_counts == [(4, 1)]
    out = tmp_path / "mine.json"
    assert main(["train", "parthian", "--players", "5", "--generations", "1", "--jobs", "1",
                 "--no-progress", "--out", str(out)]) == 0
    assert trained_counts == [(4, 1), (5, 1)] and out.is_file()
    # --out names one file: the default count (4), not the recipe's four
    assert main(["train", "parthian", "--generations", "1", "--jobs", "1", "--no-progress",
                 "--out", str(out)]) == 0
    assert trained_counts == [(4, 1), (5, 1), (4, 1)]


def test_a_game_without_a_player_count_option_writes_its_one_file(trained_counts, tmp_path):
    assert main(["train", "kuhn", "--generations", "1", "--jobs", "1", "--no-progress"]) == 0
    assert (tmp_path / "policies" / "kuhn.json").is_file()
    assert training.policy_path(get_game("kuhn"), 2) == tmp_path / "policies" / "kuhn.json"


def test_an_unwritable_policies_folder_is_refused_naming_out(trained_counts, tmp_path, capsys,
                                                            monkeypatch):
    (tmp_path / "policies").write_text("a file where the folder should be")
    assert main(["train", "parthian", "--players", "3", "--generations", "1"]) == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith("error: Parthian Shot's policies folder") and "--out FILE" in error
    assert "\n" not in error and trained_counts == []


def test_the_default_paths_are_the_shipped_policies():
    """Unpatched: the built-in games' default is games/<game>/policies/, the shipped files."""
    for game, n in (("kuhn", 2), ("parthian", 4), ("samurai", 5)):
        spec = get_game(game)
        assert training.policy_path(spec, n) == trained.shipped_path(spec, n)


def test_the_default_never_replaces_a_policy_unasked(trained_counts, tmp_path, capsys):
    """A short trial run (`balance train parthian --generations 2`) must not overwrite the
    policy -s trained seats now (for a built-in game, the shipped one): it says to name it."""
    shipped = tmp_path / "policies" / "parthian-4p.json"
    shipped.parent.mkdir()
    shipped.write_text("the shipped policy")
    assert main(["train", "parthian", "--players", "4", "--generations", "1", "--jobs", "1",
                 "--no-progress"]) == 2
    error = capsys.readouterr().err.strip()
    assert "exists" in error and f"--out {shipped}" in error and "\n" not in error
    assert shipped.read_text() == "the shipped policy" and trained_counts == []
    assert main(["train", "parthian", "--players", "4", "--generations", "1", "--jobs", "1",
                 "--no-progress", "--out", str(shipped)]) == 0
    assert json.loads(shipped.read_text()) == {"n_players": 4}
