"""The held-out opponents (heldout/, issue 28): independent players that measure the strong
field's robustness. Each plays only legal moves and is a decent player (it beats random with an
interval), and no installed package imports them, so nothing trains on them."""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # heldout/ runs from the repository root, on purpose not installed
    sys.path.insert(0, str(ROOT))

from analysis.training import shares  # noqa: E402
from heldout.measure import GAMES, heldout_table, players  # noqa: E402
from sim.errors import BalanceError  # noqa: E402
from sim.games import get_game  # noqa: E402
from sim.runner import as_rules, simulate  # noqa: E402

PLAYERS = [(game, name) for game in GAMES for name in players(game)]


@pytest.mark.timeout(600)
@pytest.mark.parametrize("game, name", PLAYERS)
def test_a_heldout_player_plays_only_legal_moves(game, name):
    """200 games against random, both seats: an illegal answer would stop the batch with an
    error; every game ends by a rule (SZ-19/SZ-20, SJ-8..SJ-14), never by the safety cap or a
    broken invariant, and has its win shared out."""
    records = simulate(game, None, [players(game)[name], "random"], 200, seed=5,
                       rotate_seats=True).records
    assert len(records) == 200
    assert not records["end_reason"].isin(["invariant_broken", "turn_cap"]).any()
    assert ((records["win_0"] + records["win_1"]).round(9) == 1).all()


@pytest.mark.timeout(600)
@pytest.mark.parametrize("game, name", PLAYERS)
def test_a_heldout_player_beats_random(game, name):
    spec = get_game(game)
    result = shares(spec, as_rules(spec, None), [players(game)[name], "random"], 1000, seed=6)
    assert result["low"] > 0.5, f"{name} wins only {result['share']:.3f} against random"


def test_the_table_has_one_row_per_opponent_and_an_interval_around_each_share():
    table = heldout_table("shuojian", "random", n_games=200, seed=1)
    assert list(table["opponent"]) == list(players("shuojian"))
    assert (table["strategy"] == "random").all() and (table["games"] == 200).all()
    assert ((table["low"] <= table["share"]) & (table["share"] <= table["high"])).all()
    assert (table["share"] < 0.5).all()  # random loses to every one of them


def test_a_game_without_heldout_players_is_refused():
    with pytest.raises(BalanceError, match="no held-out players for 'kuhn'"):
        heldout_table("kuhn", "random", n_games=10)


def test_no_installed_code_imports_the_heldout_players():
    """The rule of heldout/__init__.py: training code, fields, exploit searches and tuners never
    play them, so no installed package imports them."""
    for package in ("sim", "strategies", "analysis", "cli"):
        for path in (ROOT / package).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            assert "import heldout" not in text and "from heldout" not in text, path
