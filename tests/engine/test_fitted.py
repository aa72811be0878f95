"""The strong level in a variant (analysis/fitted.py, sim.field.fitted_path): the variant's own
field where one was fitted, else the nearest field with its measured transfer, stated by every
front end; ``balance field -o ... --from strong`` fits a variant once, stored by content hash."""
import json

import pytest

import analysis.fitted as fitted
from analysis.explore import View, resolve
from cli.main import main
from sim import field as F
from sim.games import get_game
from sim.runner import as_rules
from sim.strategy import lookup

KUHN = get_game("kuhn")
TINY = ["--iterations", "1", "--oracle-generations", "2", "--oracle-games", "40",
        "--table-games", "60", "--check-games", "100", "--response-budget", "2", "40",
        "--jobs", "1", "--no-progress"]


@pytest.fixture(autouse=True)
def own_folder(tmp_path, monkeypatch):
    """Fits and transfers go to a folder of the test's own, never the user's."""
    monkeypatch.setenv("BALANCE_FIELDS", str(tmp_path / "fields"))
    return tmp_path / "fields"


def test_a_variant_key_is_its_content():
    """The same options in any order, or spelled as strings, are one variant; another value or
    player count is another; the default rules have a key of their own."""
    key = F.variant_key
    assert key(KUHN, as_rules(KUHN, {"bet": 2, "ante": 1})) == key(KUHN, as_rules(KUHN, {"bet": "2"}))
    assert key(KUHN, as_rules(KUHN, {"bet": 2})) != key(KUHN, as_rules(KUHN, {"bet": 3}))
    assert key(KUHN, as_rules(KUHN, None)) != key(KUHN, as_rules(KUHN, {"bet": 2}))
    assert len(key(KUHN, as_rules(KUHN, None))) == 12


def test_the_default_field_is_its_own_variants_and_elsewhere_says_so():
    """At the rules it was fitted to the field is the variant's own; with a changed bet it is
    not, and the line names both, says the transfer is not measured, and gives the commands."""
    assert fitted.strong_fit("kuhn").own
    elsewhere = fitted.strong_fit("kuhn", {"bet": 2})
    assert not elsewhere.own and elsewhere.differs == {"bet": [1, 2]}
    assert elsewhere.transfer is None
    line = elsewhere.line()
    assert "not to this variant (bet=2)" in line and "not measured" in line
    assert "`balance field kuhn -o bet=2 --transfer`" in line
    assert "`balance field kuhn -o bet=2 --from strong`" in line
    assert fitted.strong_fit("goofspiel") is None   # no field: no strong level


def test_a_measured_transfer_is_stored_once_and_stated(monkeypatch, own_folder):
    """measure_transfer searches a best response in the variant, keeps it under the variant's
    and the field's hashes, and every later strong_fit states it (a share with its interval)."""
    monkeypatch.setattr(fitted, "TRANSFER_GENERATIONS", 2)
    monkeypatch.setattr(fitted, "TRANSFER_GAMES", 40)
    monkeypatch.setattr(fitted, "TRANSFER_CHECK_GAMES", 200)
    record = fitted.measure_transfer("kuhn", {"bet": 2})
    assert 0.0 <= record["low"] <= record["share"] <= record["high"] <= 1.0
    assert record["variant"]["bet"] == 2 and record["field"] == "kuhn.field.json"
    stored = list(own_folder.glob("kuhn-2p.v*.from-*.transfer.json"))
    assert len(stored) == 1 and json.loads(stored[0].read_text())["share"] == record["share"]
    fit = fitted.strong_fit("kuhn", {"bet": 2})
    assert fit.transfer == record
    assert f"wins {record['share']:.1%}" in fit.line()
    # another variant has no measure yet
    assert fitted.strong_fit("kuhn", {"bet": 3}).transfer is None


def test_the_commands_in_the_line_name_the_whole_variant():
    """The field nearest a warlord advanced game with a fixed leader is the warlord advanced
    one; the line names only that leader as the difference, but its commands give the whole
    variant, so that they fit and measure this game and not another."""
    fit = fitted.strong_fit("sunzi", {"mode": "advanced", "warlord": True, "leader_white": "c"})
    assert not fit.own and set(fit.differs) == {"leader_white"}
    assert fit.options() == " -o mode=advanced -o warlord=true -o leader_white=c"
    assert f"`balance field sunzi{fit.options()} --from strong`" in fit.line()


def test_a_fitted_variant_is_seated_by_strong_and_never_fitted_twice(own_folder, capsys):
    """`balance field kuhn -o bet=2 --from strong` starts from the nearest field's members,
    writes the variant's field under its content hash, and -s strong then seats it in that
    variant only; the same command again fits nothing."""
    assert main(["field", "kuhn", "-o", "bet=2", "--from", "strong", *TINY]) == 0
    rules = as_rules(KUHN, {"bet": 2})
    path = F.fitted_path(KUHN, rules)
    assert path.is_file() and path.parent == own_folder
    body = json.loads(path.read_text())
    assert body["variant"]["bet"] == 2 and body["exploitability"]["line"]
    assert lookup(KUHN, "strong", 2, rules).source == str(path)
    assert lookup(KUHN, "strong", 2, as_rules(KUHN, None)).source != str(path)
    assert fitted.strong_fit("kuhn", {"bet": 2}).own
    capsys.readouterr()
    assert main(["field", "kuhn", "-o", "bet=2", "--from", "strong", *TINY]) == 0
    assert "already fitted" in capsys.readouterr().out


def test_every_front_end_states_the_fit_where_strong_plays_an_unfitted_variant(capsys):
    """The command line prints the line before its table; the explore page adds it to the
    verdict of the edited side."""
    assert main(["simulate", "kuhn", "-o", "bet=2", "-s", "strong", "--games", "200",
                 "--no-transfer", "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert "Strong play: the field fitted to the default rules" in err and "bet=2" in err
    assert main(["simulate", "kuhn", "-s", "strong", "--games", "200", "--no-progress"]) == 0
    assert "Strong play" not in capsys.readouterr().err   # its own variant: nothing to state
    view = View(game="kuhn", levels="strong", options={"bet": 2})
    assert "not to this variant (bet=2)" in resolve(view).strong_play
    assert resolve(View(game="kuhn", levels="random", options={"bet": 2})).strong_play == ""


def test_a_warm_start_takes_every_near_fields_members(monkeypatch, tmp_path):
    """Two fields can be equally near a variant (one built for mode=advanced, one for
    warlord=true, and a warlord advanced game); a fit from one alone lost 78.5% to banker, so
    the warm start is every near field's members, named by their field, and the default's."""
    from types import SimpleNamespace

    from analysis.field import warm_start

    sunzi = get_game("sunzi")
    monkeypatch.setattr(F, "home", lambda spec: SimpleNamespace(policies=tmp_path))

    def one(strategy, options, name):
        variant = json.loads(json.dumps(as_rules(sunzi, options).to_dict(), default=str))
        F.save(tmp_path / name, sunzi, [{"name": strategy, "probability": 1.0,
                                         "strategy": strategy}], 2, variant, {}, {})

    one("counter", None, "sunzi.field.json")
    one("banker", {"mode": "advanced"}, "sunzi.advanced.field.json")
    one("tempo", {"warlord": True}, "sunzi-2p.warlord.field.json")
    both = as_rules(sunzi, {"mode": "advanced", "warlord": True})
    assert [p.name for p in F.nearest_fields(sunzi, 2, both)] == [
        "sunzi-2p.warlord.field.json", "sunzi.advanced.field.json", "sunzi.field.json"]
    assert [m.name for m in warm_start("sunzi", both)] == [
        "sunzi-2p.warlord: tempo", "sunzi.advanced: banker", "sunzi: counter"]
    # a field never starts from itself: the warlord field's own rebuild starts from the default
    assert [m.name for m in warm_start("sunzi", {"warlord": True})] == ["counter"]
