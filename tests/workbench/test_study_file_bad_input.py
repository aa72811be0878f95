"""Study files that are wrong in every way a user's can be (issue 27): wrong-typed values, other
encodings, sections whose needs are checked before anything plays (one validation path for
`balance study --check` and the run), a run that fails anyway, Python agents as seats, and a
property test: any malformed file is a BalanceError, never another exception."""
import json
import re
import shutil
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analysis import study_file as S
from cli.main import main
from sim.errors import BalanceError
from sim.strategy import Strategy
from sim.games import home

SHIPPED = home("parthian").policies

HEAD = """game = "parthian"
players = 3
strategies = "cautious"
games = 200
seed = 4
"""
SUMMARY = '\n[[section]]\nkind = "summary"\n'


def write(folder: Path, text, name="study.toml") -> Path:
    path = folder / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


# --- 1. a value of the wrong TOML type: one line naming file, line, section, key and type ------

@pytest.mark.parametrize("text, where", [
    (HEAD + 'options = "x=1"' + SUMMARY, r"line 6: options must be a table"),
    (HEAD + "options = 5" + SUMMARY, r"line 6: options must be a table.*got an integer \(5\)"),
    (HEAD + "options = { a = { b = 1 } }" + SUMMARY,
     r"line 6: options: a must be a string, a number, true/false or a list of those"),
    (HEAD + '\n[[section]]\nkind = ["summary"]\n',
     r"line 8: section 1: kind must be a string.*got a list"),
    (HEAD + 'section = ["summary"]\n', r"line 6: section must be \[\[section\]\] tables"),
    (HEAD + '\n[section]\nkind = "summary"\n',
     r"line 7: section must be \[\[section\]\] tables \(double brackets\).*got a table"),
    (HEAD.replace("games = 200", "games = 2e2") + SUMMARY,
     r"line 4: games must be an integer.*got a number \(200.0\)"),
    (HEAD.replace('players = 3', 'players = "3"') + SUMMARY,
     r"line 2: players must be an integer.*got a string"),
    (HEAD.replace('strategies = "cautious"', "strategies = 3") + SUMMARY,
     r"line 3: strategies must be a strategy name or a list of them"),
    (HEAD + "precision = nan" + SUMMARY, r"line 6: precision must be a finite number"),
    (HEAD.replace("seed = 4", "seed = 99999999999999999999") + SUMMARY,
     r"seed: 99999999999999999999 is outside TOML's 64-bit integers"),
    (HEAD + SUMMARY + "metrics = \"victory\"\n",
     r"line 9: section 1 \(summary\): metrics must be a list of strings"),
    (HEAD + '\n[[section]]\nkind = "cards"\nlevel = "random"\n',
     r"line 9: section 1 \(cards\): level must be a list of strings"),
    (HEAD + '\n[[section]]\nkind = "tune"\ntarget = ["victory=0.4"]\nvary = ["charges"]\n'
     'pareto = "yes"\n', r"line 11: section 1 \(tune\): pareto must be true or false"),
    (HEAD + '\n[[section]]\nkind = "skill"\nbudgets = ["abc", 64]\n',
     r"line 9: section 1 \(skill\): budgets must be a list of integers"),
    (HEAD + '\n[[section]]\nkind = "compare"\na = { charges = 3 }\n',
     r"line 9: section 1 \(compare\): a must be a list of strings"),
    (HEAD + '\n[[section]]\nkind = "summary"\noptions = "charges=3"\n',
     r"line 9: section 1 \(summary\): options must be a table"),
    (HEAD + '\n[[section]]\nmetrics = ["victory"]\n', r"line 7: section 1: no kind"),
    (HEAD + '\n[[section]]\nkind = "sweep"\n', r"line 7: section 1 \(sweep\): no vary"),
])
def test_a_wrong_typed_value_is_one_line_naming_the_file_the_line_and_the_key(tmp_path, text,
                                                                             where):
    path = write(tmp_path, text)
    with pytest.raises(S.StudyFileError) as caught:
        S.load(path)
    message = str(caught.value)
    assert message.startswith(str(path)) and "\n" not in message
    assert re.search(where, message), message


def test_the_cli_refuses_a_wrong_type_without_a_traceback(tmp_path, capsys):
    path = write(tmp_path, HEAD + 'options = "x=1"' + SUMMARY)
    assert main(["study", str(path), "--check"]) == 2
    err = capsys.readouterr().err
    assert "options must be a table" in err and "Traceback" not in err


# --- 2. encodings: the data files' decoding (sim.datafile.decode_text), plus cp1252 -------------

TITLED = 'title = "Étude: Parthian à 3"\n' + HEAD + SUMMARY + "# café\n"


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "utf-32", "latin-1",
                                      "cp1252"])
def test_a_study_saved_in_another_encoding_reads_the_same(tmp_path, encoding):
    data = TITLED.encode(encoding)
    if encoding == "utf-16":
        assert data[:2] == b"\xff\xfe"   # Python writes the BOM, as Windows editors do
    study = S.read(write(tmp_path, data))
    assert study.title == "Étude: Parthian à 3" and study.rules.n_players == 3
    assert study.digest == __import__("hashlib").sha256(data).hexdigest()  # the file's bytes


def test_utf16_big_endian_with_its_mark_reads(tmp_path):
    study = S.read(write(tmp_path, b"\xfe\xff" + TITLED.encode("utf-16-be")))
    assert study.title.startswith("Étude")


@pytest.mark.parametrize("data, why", [
    (TITLED.encode("utf-16-le"), "UTF-16 without a byte-order mark"),
    (b'title = "\x81"\n', "not UTF-8: byte 0x81 at offset 9.*not cp1252 either"),
    (b"\xff\xfe\x00\xd8", "starts with a UTF-16LE byte-order mark but is not valid"),
])
def test_an_unreadable_encoding_is_refused_saying_what_was_found(tmp_path, data, why):
    path = write(tmp_path, data)
    with pytest.raises(S.StudyFileError, match=rf"{re.escape(str(path))}.* cannot be read: .*{why}"
                       r".*save it as UTF-8"):
        S.read(path)


# --- 3. one validation path: everything a section needs is checked before anything plays -------

LATER = [  # (the second section, the key blamed); section 1 is a summary that would play first
    ('kind = "summary"\nmetrics = ["victory", "nope"]', "metrics", "unknown metric.*nope"),
    ('kind = "sweep"\nvary = ["nope=1,2"]', "vary", "'nope' is not a tunable parameter"),
    ('kind = "sweep"\nvary = ["charge_threshold=8,x"]', "vary", "charge_threshold='x'"),
    ('kind = "sweep"\nvary = ["n_players=3,9"]', "vary", "3 to 6"),
    ('kind = "sweep"\nvary = ["charge_threshold=8,9"]\nmetric = "team_ninja"', "metric",
     "unknown metric.*team_ninja"),
    ('kind = "summary"\nstrategies = "nosuch"', "strategies", "unknown strategy 'nosuch'"),
    ('kind = "summary"\nstrategies = "ismcts:budget=abc"', "strategies",
     "budget must be an integer"),
    ('kind = "summary"\nstrategies = ["cautious", "random"]', "strategies",
     "2 strategies given for 3 seats"),
    ('kind = "summary"\nstrategies = "trained:nope.json"', "strategies", "nope.json"),
    ('kind = "cards"\nlevel = ["expert"]', "level", "no level 'expert'"),
    ('kind = "cards"\ncards = ["joker"]', "cards", "no card 'joker'"),
    ('kind = "ablate"\nparams = ["nope"]', "params", "'nope' is not a tunable parameter"),
    ('kind = "ablate"\nmetric = "nope"', "metric", "unknown metric.*nope"),
    ('kind = "tune"\ntarget = ["nope=0.4"]\nvary = ["charges"]', "target",
     "unknown metric 'nope' in goal"),
    ('kind = "tune"\ntarget = ["max_gap(team_*)<=0.1"]\nvary = ["charges"]', "target",
     r"max_gap\(team_\*\): the pattern matches no metric"),
    ('kind = "tune"\ntarget = ["match(nosuch,random)>=0.5"]\nvary = ["charges"]', "target",
     "goal match.*unknown strategy 'nosuch'"),
    ('kind = "tune"\nbalance = ["teams"]\nvary = ["charges"]', "balance",
     "no balance group 'teams'"),
    ('kind = "tune"\ntarget = ["victory=0.4"]\nvary = ["nope"]', "vary",
     "'nope' is not a tunable parameter"),
    ('kind = "tune"\ntarget = ["victory=0.4"]\nvary = ["charges=1..x"]', "vary",
     "must look like LO..HI"),
    ('kind = "tune"\ntarget = ["victory=0.4"]\nvary = ["charges"]\nover = ["n_players=3,4"]\n'
     'target_file = ["t.csv"]', "target_file", "lacks the column"),
    ('kind = "tune"\nvary = ["charges"]', None, "no goal"),
    ('kind = "tune"\nvary = ["charges"]\ntarget_file = ["four.csv"]', "target_file",
     "goal victory=0.4 .*applies at no point"),   # a row for 4 players, in a 3-player study
    ('kind = "compare"\na = ["charge_threshold=8"]\nmetric = "nope"', "metric",
     "unknown metric.*nope"),
    ('kind = "compare"\na = ["nope=8"]', "a", "'nope=8' .* is not NAME=VALUE"),
    ('kind = "compare"\nb_strategies = "nosuch"', "b_strategies", "unknown strategy 'nosuch'"),
    ('kind = "compare"\nb_strategies = "random"\nmax_games = 1500', "max_games",
     "must be at least the batch"),
    ('kind = "skill"\nbest = "nosuch"', "best", "unknown strategy 'nosuch'"),
    ('kind = "skill"\nbest = "cautious"\nbudgets = [16]', "budgets", "two search budgets"),
]


def _later(tmp_path, section):
    (tmp_path / "t.csv").write_text("metric,value\nvictory,0.4\n")
    (tmp_path / "four.csv").write_text("metric,target,n_players\nvictory,0.4,4\n")
    text = HEAD + SUMMARY + "\n[[section]]\n" + section + "\n"
    return write(tmp_path, text), text


@pytest.mark.parametrize("section, key, message", LATER)
def test_check_finds_what_a_later_section_needs_and_names_its_line(tmp_path, section, key,
                                                                  message):
    path, text = _later(tmp_path, section)
    lines = text.splitlines()
    start = lines.index("[[section]]", lines.index("[[section]]") + 1) + 1
    line = start if key is None else next(n for n, t in enumerate(lines, start=1)
                                          if n > start and t.startswith(f"{key} ="))
    with pytest.raises(S.StudyFileError, match=rf"line {line}: section 2 \(\w+\): .*{message}"):
        S.load(path)


@pytest.mark.parametrize("section, key, message", LATER[::4])
def test_the_run_checks_the_same_before_anything_plays(tmp_path, section, key, message,
                                                       capsys):
    path, _ = _later(tmp_path, section)
    assert main(["study", str(path), "--check"]) == 2   # --check no longer says OK
    assert "section 2" in capsys.readouterr().err
    played = []
    runners = {kind: lambda *a, kind=kind: played.append(kind) for kind in S.RUNNERS}
    with mock.patch.dict(S.RUNNERS, runners), pytest.raises(S.StudyFileError, match=message):
        S.run(path, tmp_path / "out")
    assert played == [] and not (tmp_path / "out" / "index.md").exists()


def test_check_plays_no_game(tmp_path):
    path, _ = _later(tmp_path, 'kind = "compare"\nb_strategies = "random"\nmetric = "victory"')
    with mock.patch("sim.runner.play_kernel", side_effect=AssertionError("played")):
        S.load(path)   # compare's own check_metric would play a sample; the study's does not


def test_a_declared_metric_is_known_without_playing(tmp_path):
    text = ('game = "samurai"\nplayers = 5\n[[section]]\nkind = "summary"\n'
            'metrics = ["team_ronin", "seat0_benkei"]\n[[section]]\nkind = "tune"\n'
            'balance = ["teams"]\nvary = ["role_honour"]\n')
    with mock.patch("sim.runner.play_kernel", side_effect=AssertionError("played")):
        S.load(write(tmp_path, text))
    with pytest.raises(S.StudyFileError, match="unknown metric.*team_ronin"):   # 4 players: none
        S.load(write(tmp_path, text.replace("players = 5", "players = 4")))


# --- 4. a run that fails anyway keeps the report of the sections that finished ----------------

@pytest.mark.parametrize("failure, raised", [(BalanceError("boom"), S.StudyFileError),
                                              (RuntimeError("bug"), RuntimeError)])
def test_a_failing_section_leaves_the_report_of_the_finished_ones(tmp_path, failure, raised):
    path = write(tmp_path, HEAD + SUMMARY + '\n[[section]]\nkind = "sweep"\n'
                 'vary = ["charge_threshold=8,10"]\n')

    def sweep_that_fails(doc, *args):
        doc.text("## 2. half a sweep")   # what it wrote before failing is not kept
        raise failure

    out = tmp_path / "out"
    with mock.patch.dict(S.RUNNERS, {"sweep": sweep_that_fails}), \
            pytest.raises(raised) as caught:
        S.run(path, out)
    text = str(caught.value) + " ".join(getattr(caught.value, "__notes__", []))
    assert "section 2 (sweep) failed" in text and str(out / "index.md") in text
    report = (out / "index.md").read_text()
    assert "## 1. Summary" in report and "## 2. Sweep: did not finish" in report
    assert "half a sweep" not in report and (out / "s1_summary.csv").exists()
    assert (out / "index.html").exists()


# --- 5. the seats -s takes: FILE.py:FUNCTION and trained:FILE, found beside the study ----------

AGENT = """import numpy as np


def first(obs, legal):
    return int(np.flatnonzero(legal)[0])
"""


def test_a_python_agent_beside_the_study_takes_a_seat(tmp_path, monkeypatch):
    folder = tmp_path / "studies"
    folder.mkdir()
    (folder / "agent.py").write_text(AGENT)
    shutil.copy(SHIPPED / "parthian-3p.json", folder / "mine.json")
    path = write(folder, HEAD.replace('strategies = "cautious"',
                                      'strategies = ["agent.py:first", "trained:mine.json", '
                                      '"random"]').replace("games = 200", "games = 30") + SUMMARY)
    monkeypatch.chdir(tmp_path)   # not the study's folder: FILEs are found beside the study
    study = S.load(path)
    seat = study.shared["strategies"][0]
    assert isinstance(seat, Strategy) and seat.agent is not None and seat.name == "first"
    assert study.shared["strategies"][1] == f"trained:{folder / 'mine.json'}"
    index = S.run(study, tmp_path / "out")
    provenance = json.loads((tmp_path / "out" / "provenance.json").read_text())
    assert "first" in json.dumps(provenance) and index.exists()


@pytest.mark.parametrize("module, message", [
    (None, "strategy file .*agent.py' not found"),
    (AGENT, "has no function 'second'"),
    ("def second(obs, legal):\n    return (\n", "failed to import: SyntaxError"),
    ("import no_such_module_here\n", "failed to import: ModuleNotFoundError"),
])
def test_a_bad_python_agent_is_refused_at_its_line(tmp_path, module, message):
    if module is not None:
        (tmp_path / "agent.py").write_text(module)
    path = write(tmp_path, HEAD + SUMMARY + 'strategies = "agent.py:second"\n')
    with pytest.raises(S.StudyFileError, match=rf"line 9: section 1 \(summary\): .*{message}"):
        S.load(path)


# --- 6. the property: any malformed file is a BalanceError --------------------------------------

KEYS = sorted(S.TOP | {k for keys in S.KINDS.values() for k in keys} | {"kind", "section"})
WORDS = ["parthian", "samurai", "summary", "sweep", "ablate", "cards", "tune", "compare",
         "skill", "random", "cautious", "victory", "win_0", "team_*", "victory=0.4",
         "charge_threshold=8,10", "n_players=3,4", "charges", "charges=1..4",
         "max_gap(win_*)<=0.1", "match(cautious,random)>=0.5", "ismcts:budget=abc",
         "ismcts:budget=16", "trained", "trained:nope.json", "x.py:f", "teams", "rms", "less",
         "heuristic", "legion 7", "strategies=random", ""]

texts = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)   # TOML has no surrogates
scalars = st.one_of(st.sampled_from(WORDS), texts, st.booleans(),
                    st.integers(-3, 3 * 10 ** 4), st.integers(), st.floats(allow_nan=True),
                    st.sampled_from([0.4, 1.0, 0.02, 1e-9]))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=3),
    st.dictionaries(st.one_of(st.sampled_from(KEYS), texts), inner, max_size=3)),
    max_leaves=6)
tables = st.dictionaries(st.one_of(st.sampled_from(KEYS), texts), values,
                         max_size=6)


def toml_string(text: str) -> str:
    """A TOML basic string: JSON's escapes are TOML's, but DEL must be escaped too."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def toml_value(value) -> str:
    """A TOML literal of a Python value (strings as JSON strings: TOML reads their escapes)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return "nan" if value != value else repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(map(toml_value, value)) + "]"
    return "{ " + ", ".join(f"{toml_string(k)} = {toml_value(v)}" for k, v in value.items()) + " }"


def toml_document(top: dict, sections: list[dict]) -> str:
    lines = [f"{toml_string(k)} = {toml_value(v)}" for k, v in top.items()]
    for section in sections:
        lines += ["[[section]]", *(f"{toml_string(k)} = {toml_value(v)}"
                                   for k, v in section.items())]
    return "\n".join(lines) + "\n"


def loads_or_refuses(path: Path) -> None:
    """The property: a Study, or a BalanceError; never another exception, never a game."""
    with mock.patch("sim.runner.play_kernel", side_effect=AssertionError("a game was played")):
        try:
            S.load(path)
        except BalanceError as error:
            assert str(error) and "\n" not in str(error)


PROPERTY = settings(max_examples=80, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


@PROPERTY
@given(data=st.binary(max_size=200))
def test_any_bytes_are_a_study_or_a_balance_error(tmp_path, data):
    loads_or_refuses(write(tmp_path, data))


@PROPERTY
@given(top=tables, sections=st.lists(tables, max_size=3))
def test_any_toml_with_any_keys_and_values_is_a_study_or_a_balance_error(tmp_path, top,
                                                                          sections):
    loads_or_refuses(write(tmp_path, toml_document(top, sections)))


@PROPERTY
@given(data=st.data(), kind=st.sampled_from(sorted(S.KINDS)), in_section=st.booleans())
def test_a_good_study_with_one_value_changed_is_a_study_or_a_balance_error(tmp_path, data, kind,
                                                                           in_section):
    top = {"game": "parthian", "players": 3, "strategies": "cautious", "games": 200}
    section = {"kind": kind, "vary": ["charges"], "target": ["victory=0.4"]} \
        if kind == "tune" else {"kind": kind}
    if kind == "sweep":
        section["vary"] = ["charge_threshold=8,10"]
    keys = S.KINDS[kind] | S.SHARED if in_section else S.TOP   # a key the place takes
    key = data.draw(st.sampled_from(sorted(keys)))
    (section if in_section else top)[key] = data.draw(values)
    loads_or_refuses(write(tmp_path, toml_document(top, [section])))
