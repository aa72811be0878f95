"""Conditions as data (OP-2) and the deck as data (OP-1): the vocabulary, the table forms (preset,
CSV, Python rows, mapping, user predicates) and bad input (RulesError naming the value; the CLI
exits non-zero without a traceback)."""
import numpy as np
import pytest

from cli.main import main
from sim.errors import RulesError
from sim.runner import simulate
from games.shuojian import conditions as C
from games.shuojian.rules import ShuoJianRules


def test_the_vocabulary_means_what_it_says():
    allowed = {name: C.condition(name).allowed() for name in C.VOCABULARY}
    assert allowed["prime"][:8] == [2, 3, 5, 7, 11, 13, 17, 19] and len(allowed["prime"]) == 25
    assert allowed["square"] == [1, 4, 9, 16, 25, 36, 49, 64, 81]
    assert allowed["triangular"][:6] == [1, 3, 6, 10, 15, 21] and 91 in allowed["triangular"]
    assert allowed["fibonacci"] == [1, 2, 3, 5, 8, 13, 21, 34, 55, 89]
    assert allowed["palindrome"][-3:] == [77, 88, 99]
    assert C.condition("multiple of 7").allowed()[:3] == [0, 7, 14]
    assert C.condition("Multiple-of-3").name == "multiple_of_3"


def test_the_default_table_is_the_printed_deck_with_a_condition_per_copy():
    """OP-1: 3 copies of each value per action, 4 zeros, 6 + 6 + 1 + 1 finishing cards = 72."""
    rules = ShuoJianRules()
    rows = rules.compiled["rows"]
    assert rules.compiled["n_cards"] == 72 and len(rows) == 58
    for action in (0, 1):
        for value in range(1, 10):
            assert sum(1 for a, v, _ in rows if (a, v) == (action, value)) == 3
    assert "triangular" in rules.condition_names()
    assert "V8:triangular" in rules.card_labels()   # the seed's example card


def test_every_table_form_gives_the_same_game(tmp_path):
    """A CSV file, Python rows, a mapping and user predicates make one and the same table."""
    csv_rows = C.to_csv(C.table_rows("harsh"))
    path = tmp_path / "harsh.csv"
    path.write_text(csv_rows)
    rows = [(C.ACTION_NAMES[a], v, c.name) for a, v, c in C.table_rows("harsh")]
    mapping = {}
    for a, v, c in C.table_rows("harsh"):
        mapping.setdefault(C.card_label(a, v), []).append(c.name)
    square = C.Condition("my_square", lambda n: int(n ** 0.5) ** 2 == n and n > 0)
    with_predicates = [(a, v, square if c == "square" else c) for a, v, c in rows]
    tables = [simulate("shuojian", {"conditions": spec}, "random", 500, seed=1).records
              for spec in ("harsh", str(path), rows, mapping, with_predicates)]
    for t in tables[1:]:
        assert t.drop(columns=[]).equals(tables[0])


def test_the_cli_takes_a_table_file(tmp_path, capsys):
    path = tmp_path / "odd.csv"
    path.write_text(C.to_csv(C.uniform_rows("odd")))
    assert main(["simulate", "shuojian", "-o", f"conditions={path}", "--games", "200",
                 "--no-progress"]) == 0
    assert "win" in capsys.readouterr().out.lower()


def test_a_table_sets_the_deck_composition():
    """OP-1 as data: 2 copies of each value and no zeros make a 36 + 14 card deck."""
    rows = [("straight", v, "any") for v in range(1, 10) for _ in range(2)] + \
        [("sweep", v, "odd") for v in range(1, 10) for _ in range(2)]
    rules = ShuoJianRules(conditions=rows)
    assert rules.compiled["n_cards"] == 36 + 14
    t = simulate("shuojian", rules, "random", 2000, seed=2).records
    assert ((t.deck + t.hand_0 + t.hand_1 + t.table + t.discards + 2) == 50).all()
    assert (t.opening_x_0 & 1 == 0).all()   # no zeros in this deck


@pytest.mark.parametrize("options, message", [
    ({"conditions": "bogus"}, r"conditions='bogus' is neither a preset .* nor a CSV file"),
    ({"conditions": [("straight", 3, "lucky")]}, r"unknown condition 'lucky'; known: any, odd"),
    ({"conditions": [("straight", 3, lambda n: 1 / (n - 5) > 0)]},
     r"condition 'custom' raised ZeroDivisionError at 5"),
    ({"conditions": [("straight", 3, C.Condition("half", lambda n: n / 2))]},
     r"condition 'half' answered 0.5 for 1; a condition must answer true or false"),
    ({"conditions": [("diagonal", 3, "any")]}, r"action 'diagonal' is not one of straight"),
    ({"conditions": [("straight", 0, "any")]}, r"straight 0 is not a card"),
    ({"conditions": [("zero", 0, "odd")]}, r"a 0 carries no condition \(OP-3\), got 'odd'"),
    ({"conditions": [("straight", 3)]}, r"must be \(action, value, condition\)"),
    ({"conditions": {"X9": "any"}}, r"card label 'X9' must be V1..V9"),
    ({"conditions": [("straight", v, "any") for v in range(1, 4)]}, r"at least 6 number cards"),
    ({"conditions": [("straight", v % 9 + 1, f"multiple_of_{v + 2}") for v in range(40)]},
     r"uses \d+ different conditions; at most 15"),
    ({"slashes": -1}, r"slashes=-1 must be between 0 and 20"),
    ({"slashes": 2.5}, r"slashes=2.5 must be an integer"),
    ({"draws": "sometimes"}, r"draws='sometimes' is not allowed; choose one of"),
    ({"swordsmen": ("V5",)}, r"swordsmen=\('V5',\) must name two number cards"),
    ({"swordsmen": ("SL", "V5")}, r"swordsmen: 'SL' is not a number card"),
    ({"deck_order": ("V7", "V7", "V7", "V7")}, r"use more copies of 'V7"),
    ({"deck_order": ("Z1",)}, r"card 'Z1' is not in this deck"),
])
def test_bad_input_raises_a_rules_error_naming_it(options, message):
    with pytest.raises(RulesError, match=message):
        ShuoJianRules(**options)


def test_a_malformed_csv_is_named_with_its_line(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("action,value\nstraight,3\n")
    with pytest.raises(RulesError, match=r"lacks the column\(s\) condition"):
        ShuoJianRules(conditions=str(bad))
    bad.write_text("action,value,condition\nstraight,3,any\nstraight,x,odd\n")
    with pytest.raises(RulesError, match=r"bad.csv', line 3: value 'x' is not a number 0..9"):
        ShuoJianRules(conditions=str(bad))
    bad.write_text("action,value,condition\nstraight,3,prime,extra\n")
    with pytest.raises(RulesError, match=r"line 2: expected 3 fields"):
        ShuoJianRules(conditions=str(bad))
    with pytest.raises(RulesError, match=r"no such file"):
        ShuoJianRules(conditions=str(tmp_path / "missing.csv"))


@pytest.mark.parametrize("argv, message", [
    (["-o", "conditions=bogus"], "conditions='bogus'"),
    (["-o", "conditions=missing_table.csv"], "no such file"),
    (["-o", "draws=never"], "draws='never' is not allowed"),
    (["-o", "slashes=many"], "option slashes='many' is not valid"),
])
def test_the_cli_exits_non_zero_without_a_traceback(argv, message, capsys):
    assert main(["simulate", "shuojian", *argv, "--games", "10"]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_options_list_every_open_point(capsys):
    assert main(["options", "shuojian"]) == 0
    out = capsys.readouterr().out
    for k in range(1, 17):
        if k in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16):
            assert f"OP-{k}" in out, f"OP-{k} is not an option"
    assert np.all([f"SJ-{k}" in out for k in (1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 14)])
