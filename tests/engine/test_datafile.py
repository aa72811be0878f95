"""One reader for every data file a designer passes as a rule option (sim/datafile.py, issue 21
item 1): files in the forms a spreadsheet writes, each written here by the test itself, read the
same as the plain CSV, through the shared reader and end to end through -o legion_table=
(Parthian Shot), -o card_table= / role_table= (Samurai Sword) and -o conditions= (Shuo Jian)."""
import codecs
import csv
import io
from importlib import resources

import numpy as np
import openpyxl
import pytest

from cli.main import main
from sim.datafile import is_table_path, parse_table, read_packaged, read_table
from sim.errors import RulesError
from games.parthian.rules import ParthianRules, legion_table, legion_table_csv
from sim.runner import simulate
from games.samurai.rules import SamuraiRules
from games.shuojian import conditions as C
from games.shuojian.rules import ShuoJianRules

LEGION_COLUMNS = ["strength", "p3", "p4", "p5", "p6"]
GOOD_FORMS = ("utf8", "utf8_bom", "utf16_tab", "semicolon", "semicolon_bom", "tab", "xlsx",
              "xlsx_sheet")


def records_of(text: str) -> list[list[str]]:
    return [row for row in csv.reader(io.StringIO(text)) if row]


def _cell(value: str):
    return int(value) if value.lstrip("-").isdigit() else (value or None)


def write_form(tmp_path, text: str, form: str, stem: str = "table"):
    """The CSV ``text`` saved as a spreadsheet would in one form; returns the option value."""
    records = records_of(text)

    def joined(sep):
        out = io.StringIO()
        csv.writer(out, delimiter=sep, lineterminator="\r\n").writerows(records)
        return out.getvalue()

    if form.startswith("xlsx"):
        book = openpyxl.Workbook()
        sheet = book.active
        if form == "xlsx_sheet":   # the table on the second sheet, something else on the first
            sheet.title = "Notes"
            sheet.append(["These are the designer's notes, not a table"])
            sheet = book.create_sheet("My Table")
        for record in records:
            sheet.append([_cell(v) for v in record])
        path = tmp_path / f"{stem}-{form}.xlsx"
        book.save(path)
        return f"{path}#My Table" if form == "xlsx_sheet" else str(path)
    data = {
        "utf8": lambda: text.encode("utf-8"),
        "utf8_bom": lambda: codecs.BOM_UTF8 + joined(",").encode("utf-8"),       # "CSV UTF-8"
        "utf16_tab": lambda: codecs.BOM_UTF16_LE + joined("\t").encode("utf-16-le"),  # "Unicode text"
        "semicolon": lambda: joined(";").encode("utf-8"),
        "semicolon_bom": lambda: codecs.BOM_UTF8 + joined(";").encode("utf-8"),
        "tab": lambda: joined("\t").encode("utf-8"),
    }[form]()
    path = tmp_path / f"{stem}-{form}.{'txt' if form == 'utf16_tab' else 'csv'}"
    path.write_bytes(data)
    return str(path)


def legion_text(drop: str | None = None) -> str:
    text = legion_table_csv(legion_table())
    if drop is None:
        return text
    records = records_of(text)
    keep = [i for i, name in enumerate(records[0]) if name != drop]
    return "\n".join(",".join(r[i] for i in keep) for r in records) + "\n"


def same_args(a, b) -> bool:
    return len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b))


# --- the shared reader ----------------------------------------------------------------------

@pytest.mark.parametrize("form", GOOD_FORMS)
def test_every_form_reads_the_same_rows(tmp_path, form):
    text = legion_text()
    plain = read_table(write_form(tmp_path, text, "utf8"), "legion_table", LEGION_COLUMNS)
    table = read_table(write_form(tmp_path, text, form), "legion_table", LEGION_COLUMNS)
    assert table.columns == LEGION_COLUMNS
    assert table.rows == plain.rows and table.lines == plain.lines
    expected = {"utf8": ("UTF-8", ","), "utf8_bom": ("UTF-8 with BOM", ","),
                "utf16_tab": ("UTF-16LE with BOM", "\t"), "semicolon": ("UTF-8", ";"),
                "semicolon_bom": ("UTF-8 with BOM", ";"), "tab": ("UTF-8", "\t"),
                "xlsx": ("xlsx", None), "xlsx_sheet": ("xlsx", None)}[form]
    assert (table.encoding, table.separator) == expected
    if form == "xlsx_sheet":
        assert table.sheet == "My Table"


def test_semicolon_file_with_decimal_commas_in_its_values(tmp_path):
    """European locales: ';' separates, ',' is the decimal mark inside values."""
    path = tmp_path / "eu.csv"
    path.write_text("strength;p3;p4;p5;p6;weight\n7;1;0;0;0;1,5\n8;1;0;0;0;2,25\n")
    table = read_table(path, "legion_table", LEGION_COLUMNS)
    assert table.separator == ";"
    assert [row["weight"] for row in table.rows] == ["1,5", "2,25"]
    assert table.rows[0]["strength"] == "7"


def test_a_comma_file_whose_values_hold_semicolons_stays_comma_separated():
    """The shipped character table's abilities hold ';': the header decides."""
    table = read_packaged("games.samurai", "characters.csv", "character table", ["character"])
    assert table.separator == "," and "in_random_pool" in table.columns
    assert any(";" in row["ability"] for row in table.rows)


def test_packaged_tables_read_as_csv_dictreader_did():
    for package, name, comment in [("games.parthian", "legions_default.csv", None),
                                   ("games.parthian", "legions_tuned_cautious.csv", None),
                                   ("games.samurai", "cards.csv", None),
                                   ("games.samurai", "characters.csv", None),
                                   ("games.samurai", "roles.csv", None),
                                   ("games.shuojian", "conditions_default.csv", "#")]:
        text = resources.files(package).joinpath(f"data/{name}").read_text()
        lines = [line for line in text.splitlines()
                 if line.strip() and not (comment and line.lstrip().startswith(comment))]
        assert read_packaged(package, name, name, comment=comment).rows == list(csv.DictReader(lines))


def test_column_names_ignore_case_spaces_and_blank_spreadsheet_rows(tmp_path):
    path = tmp_path / "loose.csv"
    path.write_text(" Strength ;P3;p4;p5;p6\n7;1;0;0;0\n;;;;\n8;1;0;0;0\n")
    table = read_table(path, "legion_table", LEGION_COLUMNS)
    assert table.columns == LEGION_COLUMNS
    assert [row["strength"] for row in table.rows] == ["7", "8"]
    assert table.lines == [2, 4]   # the file's own line numbers, blank row skipped


def test_short_and_long_rows_look_as_csv_dictreader_shows_them():
    table = parse_table("a,b,c\n1,2\n1,2,3,4\n", "t")
    assert table.rows[0] == {"a": "1", "b": "2", "c": None}
    assert table.rows[1] == {"a": "1", "b": "2", "c": "3", None: ["4"]}


def test_garbage_binary_file_is_named_with_what_was_found(tmp_path):
    path = tmp_path / "legions.csv"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)
    with pytest.raises(RulesError) as error:
        read_table(path, "legion_table", LEGION_COLUMNS)
    message = str(error.value)
    assert "\n" not in message and str(path) in message
    assert "encoding unknown" in message and "byte 0x89 at offset 0" in message
    assert "separator none" in message and "columns seen: none" in message


@pytest.mark.parametrize("data, found", [
    ("strength,p3\n".encode("utf-16-le"), "UTF-16 without a byte-order mark"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(64), "old binary .xls"),
    (b"PK\x03\x04not really a zip", "a zip file but not an .xlsx workbook"),
    (b"strength,p3\nna\xefve,1\n", "not UTF-8: byte 0xef"),
])
def test_other_unreadable_files(tmp_path, data, found):
    path = tmp_path / "odd.csv"
    path.write_bytes(data)
    with pytest.raises(RulesError, match=found) as error:
        read_table(path, "legion_table", LEGION_COLUMNS)
    assert "odd.csv" in str(error.value) and "\n" not in str(error.value)


@pytest.mark.parametrize("form, found", [
    ("semicolon_bom", "encoding UTF-8 with BOM, separator semicolon"),
    ("utf16_tab", "encoding UTF-16LE with BOM, separator tab"),
    ("utf8", "encoding UTF-8, separator comma"),
    ("xlsx", "an .xlsx workbook, sheet 'Sheet'"),
])
def test_a_file_lacking_a_column_says_what_was_found(tmp_path, form, found):
    path = write_form(tmp_path, legion_text(drop="p5"), form)
    with pytest.raises(RulesError) as error:
        read_table(path, "legion_table", LEGION_COLUMNS)
    message = str(error.value)
    assert "\n" not in message and path in message
    assert "lacks the column(s) p5;" in message and found in message
    assert "columns seen: strength, p3, p4, p6" in message


def test_a_one_column_header_says_no_separator_was_found(tmp_path):
    path = tmp_path / "pipes.csv"
    path.write_text("strength|p3|p4|p5|p6\n7|1|0|0|0\n")
    with pytest.raises(RulesError, match=r"lacks the column\(s\) strength, p3, p4, p5, p6; found "
                       r"encoding UTF-8, separator none, columns seen: strength\|p3"):
        read_table(path, "legion_table", LEGION_COLUMNS)


def test_workbook_sheets_and_missing_files(tmp_path):
    path = write_form(tmp_path, legion_text(), "xlsx_sheet")
    book = path.rpartition("#")[0]
    assert read_table(book, "legion_table").columns == ["These are the designer's notes, not a table"]
    with pytest.raises(RulesError, match=r"no sheet 'Legions'; its sheets are 'Notes', 'My Table'"):
        read_table(f"{book}#Legions", "legion_table", LEGION_COLUMNS)
    with pytest.raises(RulesError, match=r"missing.xlsx#Sheet1': no such file"):
        read_table(tmp_path / "missing.xlsx#Sheet1", "legion_table", LEGION_COLUMNS)
    csv_path = write_form(tmp_path, legion_text(), "utf8")
    with pytest.raises(RulesError, match="no such file"):   # '#' names a sheet of a workbook only
        read_table(f"{csv_path}#Sheet1", "legion_table", LEGION_COLUMNS)


def test_empty_files_and_duplicate_columns(tmp_path):
    path = tmp_path / "empty.csv"
    path.write_bytes(codecs.BOM_UTF8 + b"\r\n\r\n")
    with pytest.raises(RulesError, match=r"empty.csv' is empty: no header line \(encoding UTF-8 with BOM\)"):
        read_table(path, "legion_table", LEGION_COLUMNS)
    path.write_text("strength,p3,Strength\n1,1,1\n")
    with pytest.raises(RulesError, match=r"column\(s\) Strength, strength appear more than once"):
        read_table(path, "legion_table", LEGION_COLUMNS)


def test_is_table_path():
    assert is_table_path("my.CSV") and is_table_path("a/b.tsv") and is_table_path("x.xlsx#Sheet 2")
    assert not is_table_path("harsh") and not is_table_path("random:3")


# --- end to end: Parthian Shot, -o legion_table= ----------------------------------------------

def test_legion_table_bom_file_is_accepted_where_it_was_refused(tmp_path):
    """The issue's failure: Excel's 'CSV UTF-8' was refused with "lacks the column(s) strength"."""
    path = write_form(tmp_path, legion_text(), "utf8_bom")
    assert legion_table(path) == legion_table()
    played = simulate("parthian", {"n_players": 4, "legion_table": path}, "random", 300, seed=3)
    default = simulate("parthian", {"n_players": 4}, "random", 300, seed=3)
    assert played.records.equals(default.records)


@pytest.mark.parametrize("form", GOOD_FORMS)
def test_legion_table_in_every_form(tmp_path, form):
    """UTF-16 no longer crashes with UnicodeDecodeError; ';' is no longer 'lacks the column(s)'."""
    path = write_form(tmp_path, legion_text(), form)
    for n in (3, 6):
        assert same_args(ParthianRules(n_players=n, legion_table=path).kernel_args(),
                         ParthianRules(n_players=n).kernel_args())


def test_legion_table_errors_name_the_file_encoding_separator_and_columns(tmp_path):
    path = write_form(tmp_path, legion_text(drop="p6"), "semicolon_bom")
    with pytest.raises(RulesError) as error:
        ParthianRules(n_players=3, legion_table=path)
    message = str(error.value)
    assert path in message and "UTF-8 with BOM" in message and "separator semicolon" in message
    assert "columns seen: strength, p3, p4, p5;" in message and "lacks the column(s) p6" in message
    bad = tmp_path / "bad.csv"
    bad.write_text("strength;p3;p4;p5;p6\n7;1;0;0;0\n\n1,5;1;0;0;0\n")
    with pytest.raises(RulesError, match=r"bad.csv', line 4: strength and marks must be integers"):
        ParthianRules(n_players=3, legion_table=str(bad))   # the caller's own checks, real lines


def test_legion_table_workbook_from_the_command_line(tmp_path, capsys):
    path = write_form(tmp_path, legion_text(), "xlsx_sheet")
    assert main(["simulate", "parthian", "--players", "3", "-o", f"legion_table={path}",
                 "--games", "200", "--jobs", "1", "--no-progress"]) == 0
    garbage = tmp_path / "garbage.xlsx"
    garbage.write_bytes(bytes(range(256)))
    assert main(["simulate", "parthian", "-o", f"legion_table={garbage}", "--games", "10"]) == 2
    err = capsys.readouterr().err
    assert "garbage.xlsx" in err and "encoding unknown" in err and "Traceback" not in err


# --- end to end: Samurai Sword, -o card_table= and -o role_table= -----------------------------

def _packaged(package, name):
    return resources.files(package).joinpath(f"data/{name}").read_text()


@pytest.mark.parametrize("form", GOOD_FORMS)
def test_card_and_role_tables_in_every_form(tmp_path, form):
    cards = write_form(tmp_path, _packaged("games.samurai", "cards.csv"), form, "cards")
    roles = write_form(tmp_path, _packaged("games.samurai", "roles.csv"), form, "roles")
    for n in (3, 7):
        assert same_args(SamuraiRules(n_players=n, card_table=cards, role_table=roles).kernel_args(),
                         SamuraiRules(n_players=n).kernel_args())


def test_card_table_bom_file_plays_the_shipped_deck(tmp_path):
    path = write_form(tmp_path, _packaged("games.samurai", "cards.csv"), "utf8_bom", "cards")
    played = simulate("samurai", {"n_players": 4, "card_table": path}, "random", 30, seed=5)
    default = simulate("samurai", {"n_players": 4}, "random", 30, seed=5)
    assert played.records.equals(default.records)


def test_card_table_errors_name_what_was_found(tmp_path):
    text = _packaged("games.samurai", "cards.csv").replace(",difficulty,", ",diff,")
    path = write_form(tmp_path, text, "utf16_tab", "cards")
    with pytest.raises(RulesError) as error:
        SamuraiRules(card_table=path)
    message = str(error.value)
    assert f"card_table {path!r} lacks the column(s) difficulty;" in message
    assert "encoding UTF-16LE with BOM, separator tab" in message
    assert "columns seen: card, kind, count, diff, damage" in message


# --- end to end: Shuo Jian, -o conditions= --------------------------------------------------

def _condition_key(rows):
    return [(a, v, c.mask()) for a, v, c in rows]


@pytest.mark.parametrize("form", GOOD_FORMS)
def test_conditions_in_every_form(tmp_path, form):
    path = write_form(tmp_path, C.to_csv(C.table_rows("harsh")), form, "conditions")
    assert _condition_key(C.table_rows(path)) == _condition_key(C.table_rows("harsh"))
    assert same_args(ShuoJianRules(conditions=path).kernel_args(),
                     ShuoJianRules(conditions="harsh").kernel_args())


def test_conditions_bom_file_plays_like_the_preset(tmp_path):
    path = write_form(tmp_path, C.to_csv(C.table_rows("harsh")), "utf8_bom", "conditions")
    played = simulate("shuojian", {"conditions": path}, "random", 300, seed=2)
    preset = simulate("shuojian", {"conditions": "harsh"}, "random", 300, seed=2)
    assert played.records.equals(preset.records)


def test_conditions_keep_comment_lines_in_every_form(tmp_path):
    text = "# my table\naction,value,condition\n# straights first\n" + \
        C.to_csv(C.table_rows("harsh")).split("\n", 1)[1]
    for form in ("utf8_bom", "semicolon", "xlsx"):
        path = write_form(tmp_path, text, form, "commented")
        assert _condition_key(C.table_rows(path)) == _condition_key(C.table_rows("harsh"))


def test_conditions_errors_name_what_was_found(tmp_path):
    path = write_form(tmp_path, "action,value\nstraight,3\n", "semicolon", "short")
    with pytest.raises(RulesError) as error:
        ShuoJianRules(conditions=path)
    message = str(error.value)
    assert "lacks the column(s) condition;" in message and path in message
    assert "encoding UTF-8, separator semicolon, columns seen: action, value" in message
    garbage = tmp_path / "garbage.csv"
    garbage.write_bytes(bytes(range(255, -1, -1)))
    with pytest.raises(RulesError, match=r"garbage.csv' cannot be read: encoding unknown"):
        ShuoJianRules(conditions=str(garbage))
