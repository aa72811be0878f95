"""The held-out opponents (heldout/, issue 28): independent players that measure the strong
field's robustness. Each plays only legal moves and is a decent player (it beats random with an
interval), and no installed package imports them, so nothing trains on them."""
import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # heldout/ runs from the repository root, on purpose not installed
    sys.path.insert(0, str(ROOT))

from analysis.field import field_recipe  # noqa: E402
from analysis.training import shares  # noqa: E402
from heldout.measure import (GAMES, heldout_table, modules, players, read_shares,  # noqa: E402
                             undecided_reading)
from heldout.tune import knobs  # noqa: E402
from sim.errors import BalanceError  # noqa: E402
from sim.games import get_game  # noqa: E402
from sim.runner import as_rules, simulate  # noqa: E402

TWO_PLAYER = [game for game in GAMES if as_rules(get_game(game), None).n_seats == 2]
PLAYERS = [(game, name) for game in TWO_PLAYER for name in players(game)]
EVERY = [(game, name) for game in GAMES for name in players(game)]


def counts(game):
    """The smallest, default and largest player counts the game's fields are built for."""
    shipped = field_recipe(game)["players"]
    return sorted({min(shipped), shipped[0], max(shipped)})


MULTI = [game for game in GAMES if as_rules(get_game(game), None).n_seats > 2]
MULTI_PLAYERS = [(game, name) for game in MULTI for name in players(game)]
MULTI_COUNTS = [(game, name, n) for game, name in MULTI_PLAYERS for n in counts(game)]


@pytest.mark.parametrize("game", GAMES)
def test_every_heldout_module_of_a_game_is_found(game):
    """heldout/<game>.py and every heldout/<game>_*.py (players written later, by someone else)
    join one roster, so heldout.measure and heldout.tune see them all."""
    files = {path.stem for path in (ROOT / "heldout").glob(f"{game}*.py")
             if path.stem == game or path.stem.startswith(f"{game}_")}
    assert {module.__name__.split(".")[-1] for module in modules(game)} == files
    for module in modules(game):
        assert set(module.PLAYERS) == set(module.KNOBS)
        assert all(players(game)[name] is player for name, player in module.PLAYERS.items())


@pytest.mark.parametrize("game, name", EVERY)
def test_a_heldout_player_declares_knobs_the_tuner_can_search(game, name):
    """heldout.tune draws each knob from its range and setting 0 is the player as described, so
    every range holds 0 and has room to move."""
    ranges = knobs(game, name)
    assert ranges and all(lo < hi and lo <= 0 <= hi for lo, hi in ranges), ranges


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


@pytest.mark.timeout(600)
@pytest.mark.parametrize("game, name, n_players", MULTI_COUNTS)
def test_a_multiplayer_heldout_player_plays_legal_full_games(game, name, n_players):
    """200 games, one held-out seat among random ones, seats rotated: an illegal answer would
    stop the batch; every game ends by a rule, never by a turn cap (Samurai's OP-3) or a broken
    invariant, and the held-out seat wins some. Samurai Sword always has a winning team (SS-19,
    SS-20); a Parthian Shot game may end with every seat routed (PS-12, PS-16)."""
    lineup = [players(game)[name]] + ["random"] * (n_players - 1)
    records = simulate(game, {"n_players": n_players}, lineup, 200, seed=5,
                       rotate_seats=True).records
    assert len(records) == 200
    assert not records["end_reason"].isin(["invariant_broken", "turn_cap", "capped"]).any()
    wins = records[[f"win_{s}" for s in range(n_players)]].to_numpy(float)
    assert (wins.sum(axis=1) <= n_players).all() and wins.sum() > 0
    if game == "samurai":
        assert (wins.sum(axis=1) > 0).all()  # every game has a winning team


@pytest.mark.timeout(600)
@pytest.mark.parametrize("game, name", MULTI_PLAYERS)
def test_a_multiplayer_heldout_player_beats_random_seats(game, name):
    """5 players, one held-out seat among random ones: it wins more than the random seats."""
    spec = get_game(game)
    result = shares(spec, as_rules(spec, {"n_players": 5}),
                    [players(game)[name]] + ["random"] * 4, 1000, seed=6)
    assert result["low"] > result["field"], result


def test_the_multiplayer_table_gives_the_heldout_share_next_to_the_field_share():
    table = heldout_table("samurai", "random", n_games=200, seed=1, n_players=5)
    assert list(table["opponent"]) == list(players("samurai"))
    assert (table["players"] == 5).all() and (table["games"] == 200).all()
    assert ((table["low"] <= table["share"]) & (table["share"] <= table["high"])).all()
    assert table["field"].between(0, 1).all()
    assert (table["margin"] - (table["share"] - table["field"])).abs().max() < 1e-12
    assert (table["share"] > table["field"]).all()  # random seats lose to it


def test_the_players_option_sets_the_count_and_two_player_games_keep_their_table(capsys):
    from heldout.measure import main
    main(["samurai", "random", "--players", "3", "--games", "50", "--seed", "2"])
    out = capsys.readouterr().out
    assert "one held-out samurai player against 2 seats of random" in out and "field" in out
    table = heldout_table("shuojian", "random", n_games=50, seed=1)
    assert "field" not in table and "players" not in table


def test_only_the_named_opponents_are_played_and_an_unknown_name_is_refused():
    """--player: a slow strategy (the search) is measured against one held-out player; the
    row is the one the whole table would give for it (the same games)."""
    whole = heldout_table("shuojian", "random", n_games=60, seed=1)
    name = list(players("shuojian"))[-1]
    one = heldout_table("shuojian", "random", n_games=60, seed=1, only=[name])
    assert list(one["opponent"]) == [name]
    pd.testing.assert_frame_equal(one.reset_index(drop=True),
                                  whole[whole["opponent"] == name].reset_index(drop=True))
    with pytest.raises(BalanceError, match="no held-out shuojian player 'nobody'"):
        heldout_table("shuojian", "random", n_games=60, seed=1, only=["nobody"])


def test_a_game_without_heldout_players_is_refused():
    with pytest.raises(BalanceError, match="no held-out players for 'kuhn'"):
        heldout_table("kuhn", "random", n_games=10)


def test_games_nobody_wins_are_read_as_the_games_own_fields_are_measured():
    """Parthian Shot's fields count a game nobody wins as lost by every seat (its FIELD recipe;
    a rout of every seat is a rule outcome, PS-12, PS-16), so its held-out figures do too; the
    other games keep shares of the decided games; an explicit reading overrides."""
    assert undecided_reading("parthian", 4) == "loss"
    assert undecided_reading("sunzi") == "apart" and undecided_reading("samurai", 5) == "apart"
    assert undecided_reading("parthian", 4, "apart") == "apart"
    with pytest.raises(BalanceError, match="undecided='draw'"):
        undecided_reading("sunzi", None, "draw")


def test_a_share_of_every_game_counts_a_game_nobody_won_as_lost_by_every_seat():
    """Four cautious seats leave most games undecided (PS-12, PS-16): read over every game, the
    same wins are divided by all the games, and the decided games' figures stay beside them."""
    spec = get_game("parthian")
    rules = as_rules(spec, {"n_players": 4})
    apart = read_shares(spec, rules, ["cautious"] * 4, 300, 4, "apart")
    loss = read_shares(spec, rules, ["cautious"] * 4, 300, 4, "loss")
    assert 0 < apart["decided"] < 150 and loss["decided"] == apart["decided"]
    assert loss["share"] * 300 == pytest.approx(apart["share"] * apart["decided"])
    assert loss["field"] * 300 == pytest.approx(apart["field"] * apart["decided"])
    assert loss["decided_share"] == pytest.approx(apart["share"])
    assert loss["low"] <= loss["share"] <= loss["high"] < apart["low"]


def test_every_shipped_field_of_a_game_with_heldout_players_states_their_tuned_check():
    """Every report prints a field's line beside the strong rung; where held-out players exist,
    the line says what they reached tuned against that field (its recipe's caveat), at every
    player count."""
    from sim import field as F

    for game in GAMES:
        spec = get_game(game)
        shipped = [(n, path, None) for n, path in F.shipped_fields(spec).items()]
        assert shipped, game
        shipped += [(n, path, as_rules(spec, F.variant_of(spec, path)))
                    for n, _, path in F.shipped_variants(spec)]
        for n, path, rules in shipped:
            record = F.load(path, spec)["exploitability"]
            assert record["caveat"] == field_recipe(game, n, rules)["caveat"], path
            assert record["line"].endswith(". " + record["caveat"]), path
            assert "tuned against this field" in record["line"], path
            assert f"heldout.tune {game} strong" in record["line"], path


def test_no_installed_code_imports_the_heldout_players():
    """The rule of heldout/__init__.py: training code, fields, exploit searches and tuners never
    play them, so no installed package imports them."""
    for package in ("sim", "analysis", "cli", "games"):
        for path in (ROOT / package).rglob("*.py"):
            if "tests" in path.relative_to(ROOT).parts:   # a game's tests measure with them
                continue
            text = path.read_text(encoding="utf-8")
            assert "import heldout" not in text and "from heldout" not in text, path
