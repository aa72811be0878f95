"""One reader for every data file a designer passes as a rule option.

``-o legion_table=`` (Parthian Shot), ``-o card_table=`` / ``-o role_table=`` (Samurai Sword),
``-o conditions=`` (Shuo Jian) and the tables shipped in ``games/<game>/data/`` are all read here,
so a file saved by a spreadsheet reads the same everywhere:

- text in UTF-8 with or without a byte-order mark (Excel's "CSV UTF-8"), or UTF-16 / UTF-32
  with a byte-order mark (Excel's "Unicode text" is tab-separated UTF-16LE with a BOM);
- the separator is found from the header line: ``,``, ``;`` (many European locales; values may
  then hold decimal commas) or a tab, whichever splits the header into the most columns;
- an ``.xlsx`` workbook (read by openpyxl): its first sheet, or ``FILE.xlsx#Sheet`` for a named
  one; a cell's number is written as text (``7.0`` -> ``"7"``), an empty cell as ``""``.

Column names are matched ignoring case, surrounding spaces and ``-``/``_``/space differences;
rows whose cells are all empty (a spreadsheet's formatted but unused rows) are skipped.
Anything else (an unknown encoding, a missing column, an unreadable file) raises
:class:`~sim.errors.RulesError` with one line that names the file and says what was found: the
encoding, the separator and the columns seen. Values stay strings: each caller checks its own.
"""
from __future__ import annotations

import codecs
import csv
import io
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from . import confine
from .errors import RulesError

SEPARATORS = {",": "comma", ";": "semicolon", "\t": "tab"}
WORKBOOK_SUFFIXES = (".xlsx", ".xlsm")
TABLE_SUFFIXES = (".csv", ".tsv", ".txt", *WORKBOOK_SUFFIXES)
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32", "UTF-32LE with BOM"),   # before UTF-16LE: same start
         (codecs.BOM_UTF32_BE, "utf-32", "UTF-32BE with BOM"),
         (codecs.BOM_UTF8, "utf-8-sig", "UTF-8 with BOM"),
         (codecs.BOM_UTF16_LE, "utf-16", "UTF-16LE with BOM"),
         (codecs.BOM_UTF16_BE, "utf-16", "UTF-16BE with BOM"))
_ZIP = b"PK\x03\x04"              # .xlsx (and .ods, .numbers...) are zip files
_OLE = b"\xd0\xcf\x11\xe0"        # the old binary .xls
_SHOWN_COLUMNS = 12


def column_key(name) -> str:
    """The form column names are compared in: 'Top stars-multiplier ' -> 'top_stars_multiplier'."""
    return "_".join(str(name).strip().lower().replace("-", " ").replace("_", " ").split())


def is_table_path(text: str) -> bool:
    """Whether an option value names a data file by its suffix (x.csv, x.tsv, x.xlsx#Sheet)."""
    base = str(text).strip().lower()
    if "#" in base and base.rpartition("#")[0].endswith(WORKBOOK_SUFFIXES):
        base = base.rpartition("#")[0]
    return base.endswith(TABLE_SUFFIXES)


@dataclass
class Table:
    """A data file read: ``rows`` are dicts of column -> string (a required column under its
    required spelling), ``lines`` the file line (or sheet row) of each row, for messages."""
    label: str                      # how messages name the file: "legion_table 'my.csv'"
    encoding: str                   # "UTF-8", "UTF-8 with BOM", ..., or "xlsx"
    separator: str | None           # ",", ";", "\t"; None for a workbook or a one-column file
    columns: list[str]
    rows: list[dict] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    sheet: str | None = None

    def __iter__(self):
        """(line, row) pairs."""
        return iter(zip(self.lines, self.rows))

    def __len__(self) -> int:
        return len(self.rows)

    def decimal(self, cell: str) -> str:
        """A number cell as Python reads it: where commas do not separate the cells (a European
        spreadsheet's ';' file, a tab file or a workbook), a decimal comma is a decimal point
        ('0,45' -> '0.45'). Callers that read numbers use it, so every data file agrees."""
        text = str(cell).strip()
        if self.separator != "," and text.count(",") == 1 and "." not in text:
            return text.replace(",", ".")
        return cell

    @property
    def found(self) -> str:
        """What was found, for messages: encoding, separator, columns seen."""
        if self.encoding == "xlsx":
            where = f"an .xlsx workbook, sheet {self.sheet!r}"
        else:
            where = f"encoding {self.encoding}, separator {SEPARATORS.get(self.separator, 'none')}"
        return f"{where}, columns seen: {_shown(self.columns)}"


def _shown(columns) -> str:
    if not columns:
        return "none"
    names = [c if len(c) <= 40 else c[:37] + "..." for c in map(str, columns[:_SHOWN_COLUMNS])]
    more = f" ... ({len(columns)} in all)" if len(columns) > _SHOWN_COLUMNS else ""
    return ", ".join(names) + more


def read_table(path, what: str, columns=(), *, comment: str | None = None,
               hint: str | None = None) -> Table:
    """Read the data file ``path`` (``FILE.xlsx#Sheet`` picks a sheet) given for option ``what``.

    ``columns``: required columns; ``comment``: a prefix that marks comment lines (text files;
    in a workbook, rows whose first cell starts with it); ``hint``: the end of the message for a
    missing column (default: "it needs the columns ...")."""
    label = f"{what} {str(path)!r}"
    file, sheet = Path(path), None
    if not file.is_file() and "#" in str(path):
        base, _, name = str(path).rpartition("#")
        if base.lower().endswith(WORKBOOK_SUFFIXES):
            file, sheet = Path(base), name
    confine.check_file(file, what)   # before any look at the file: a refusal tells nothing
    if file.is_dir():
        raise RulesError(f"{label} is a folder; give a data file ({', '.join(TABLE_SUFFIXES)})")
    if not file.is_file():
        raise RulesError(f"{label}: no such file")
    try:
        data = file.read_bytes()
    except OSError as error:
        raise RulesError(f"{label} cannot be read: {error.strerror or error}") from None
    return parse_table(data, label, columns, sheet=sheet, comment=comment, hint=hint)


def read_packaged(package: str, name: str, what: str, columns=(), *, comment: str | None = None,
                  hint: str | None = None) -> Table:
    """Read a table shipped with the toolkit (``games/<game>/data/NAME``), named "the default WHAT"."""
    data = resources.files(package).joinpath(f"data/{name}").read_bytes()
    return parse_table(data, f"the default {what}", columns, comment=comment, hint=hint)


def parse_table(data: bytes | str, label: str, columns=(), *, sheet: str | None = None,
                comment: str | None = None, hint: str | None = None) -> Table:
    """Read a table from the bytes of a file (or from text), named ``label`` in messages."""
    if isinstance(data, str):
        table = _text_table(data, label, "text", comment)
    elif data.startswith(_ZIP):
        table = _workbook_table(data, label, sheet, comment)
    else:
        if sheet is not None:
            raise RulesError(f"{label}: a sheet ({sheet!r}) was named but the file is not an "
                             ".xlsx workbook (no zip signature); name a sheet of a workbook only")
        text, encoding = _decode(data, label)
        table = _text_table(text, label, encoding, comment)
    _require(table, columns, hint)
    return table


# --- text ------------------------------------------------------------------------------------

def _sniff_encoding(data: bytes) -> tuple[str | None, str]:
    for bom, codec, name in _BOMS:
        if data.startswith(bom):
            return codec, name
    return None, "UTF-8"


def _unreadable(label: str, why: str) -> RulesError:
    return RulesError(f"{label} cannot be read: encoding unknown ({why}), separator none, "
                      "columns seen: none; save it as CSV UTF-8, as Unicode text or as .xlsx")


def _decode(data: bytes, label: str) -> tuple[str, str]:
    if data.startswith(_OLE):
        raise _unreadable(label, "an old binary .xls workbook; the toolkit reads .xlsx")
    return decode_text(data, lambda why: _unreadable(label, why))


def decode_text(data: bytes, unreadable, fallback: str | None = None) -> tuple[str, str]:
    """(text, encoding name) of a text file's bytes: UTF-8 with or without a byte-order mark,
    or UTF-16 / UTF-32 with one. Bytes that are not UTF-8 are decoded with ``fallback`` (a codec
    such as "cp1252", for a reader that accepts a Windows editor's "ANSI" files) when given;
    anything else raises ``unreadable(why)``, the caller's error. Shared by the data files and
    the study files (analysis/study_file.py), so both read the same encodings."""
    codec, name = _sniff_encoding(data)
    if codec is not None:
        try:
            text = data.decode(codec)
        except UnicodeDecodeError as error:
            family = name.split()[0]
            raise unreadable(f"starts with a {family} byte-order mark but is not valid "
                             f"{family}: byte {error.start} after the mark") from None
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as error:
            bad = data[error.start]
            why = (f"not UTF-8: byte 0x{bad:02x} at offset {error.start}; not UTF-16 or UTF-32 "
                   "with a byte-order mark")
            if fallback is None:
                raise unreadable(why + "; not .xlsx") from None
            try:
                text, name = data.decode(fallback), fallback
            except UnicodeDecodeError:
                raise unreadable(f"{why}; not {fallback} either") from None
        if "\x00" in text:
            ascii_utf16 = len(data) > 1 and data.count(0) * 3 >= len(data)
            raise unreadable("holds NUL bytes" + (": UTF-16 without a byte-order mark?"
                                                  if ascii_utf16 else ": not a text file"))
    if "\x00" in text:
        raise unreadable(f"{name} text holding NUL bytes")
    return text, name


def _split(line: str, separator: str) -> list[str]:
    return next(csv.reader([line], delimiter=separator), [])


def _separator(header: str, sample: list[str]) -> str | None:
    """The separator that splits the header into the most columns; a tie goes to the one whose
    sample lines have the header's column count, then to comma, semicolon, tab in that order."""
    best, best_score = None, None
    for rank, sep in enumerate(SEPARATORS):
        width = len(_split(header, sep))
        consistent = sum(len(_split(line, sep)) == width for line in sample)
        score = (width, consistent, -rank)
        if width > 1 and (best_score is None or score > best_score):
            best, best_score = sep, score
    return best


def _refuse_json(text: str, label: str) -> None:
    """A JSON file (a policy, a study's settings) given where a table goes: say so, rather than
    report the columns its braces and quotes split into."""
    start = text.lstrip()[:1]
    if start not in ("{", "["):
        return
    import json

    try:
        body = json.loads(text)
    except ValueError:
        return
    kind = "a policy file (JSON)" if isinstance(body, dict) and "weights" in body else "a JSON file"
    raise RulesError(f"{label} is {kind}, not a table; give a CSV (comma, semicolon or tab), "
                     "tab-separated text or an .xlsx workbook")


def _text_table(text: str, label: str, encoding: str, comment: str | None) -> Table:
    if text.startswith("\ufeff"):   # text handed over with its BOM still on
        text, encoding = text[1:], encoding if encoding != "text" else "UTF-8 with BOM"
    if encoding == "text":
        encoding = "UTF-8"
    _refuse_json(text, label)
    kept = [(number, line) for number, line in enumerate(text.splitlines(), start=1)
            if line.strip() and not (comment and line.lstrip().startswith(comment))]
    if not kept:
        raise RulesError(f"{label} is empty: no header line (encoding {encoding})")
    separator = _separator(kept[0][1], [line for _, line in kept[1:21]])
    reader = csv.reader([line for _, line in kept], delimiter=separator or ",")
    records, lines = [], []
    try:
        for record in reader:
            records.append(record)
            lines.append(kept[reader.line_num - 1][0])
    except csv.Error as error:
        raise RulesError(f"{label}, line {kept[reader.line_num - 1][0]}: {error}; found encoding "
                         f"{encoding}, separator {SEPARATORS.get(separator, 'none')}") from None
    return _build(label, encoding, separator, None, records, lines)


# --- workbooks -------------------------------------------------------------------------------

def _cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return str(value)


def _workbook_table(data: bytes, label: str, sheet: str | None, comment: str | None) -> Table:
    import openpyxl   # only a workbook needs it

    try:
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as error:   # openpyxl raises many kinds (zip, XML, key errors)
        raise RulesError(f"{label} cannot be read: a zip file but not an .xlsx workbook "
                         f"({type(error).__name__}: {str(error)[:120]}), separator none, "
                         "columns seen: none; save it as .xlsx or CSV UTF-8") from None
    try:
        if sheet is None:
            ws = book.worksheets[0]
        elif sheet in book.sheetnames:
            ws = book[sheet]
        else:
            raise RulesError(f"{label}: the workbook has no sheet {sheet!r}; its sheets are "
                             f"{', '.join(map(repr, book.sheetnames))}")
        records, lines = [], []
        for number, values in enumerate(ws.iter_rows(values_only=True), start=1):
            cells = [_cell(v) for v in values]
            while cells and not cells[-1].strip():
                cells.pop()
            if not cells or (comment and cells[0].lstrip().startswith(comment)):
                continue
            records.append(cells)
            lines.append(number)
        title = ws.title
    finally:
        book.close()
    if not records:
        raise RulesError(f"{label} is empty: sheet {title!r} of the workbook has no header row")
    return _build(label, "xlsx", None, title, records, lines, pad=True)


# --- rows ------------------------------------------------------------------------------------

def _build(label, encoding, separator, sheet, records, lines, pad: bool = False) -> Table:
    """Rows as dicts from the header record; like csv.DictReader, a short row's missing fields
    are None (a workbook's are "", its cells exist), extra fields go under the key None."""
    header = [name.strip() for name in records[0]]
    while header and not header[-1]:
        header.pop()
    table = Table(label, encoding, separator, header, sheet=sheet)
    keys = [column_key(name) for name in header]
    twice = sorted({name for name, key in zip(header, keys) if key and keys.count(key) > 1})
    if twice:
        raise RulesError(f"{label}: the column(s) {', '.join(twice)} appear more than once; "
                         f"found {table.found}")
    width = len(header)
    for record, line in zip(records[1:], lines[1:]):
        if not any(cell.strip() for cell in record):
            continue
        if pad and len(record) < width:
            record = record + [""] * (width - len(record))
        row = {name: (record[i] if i < len(record) else None) for i, name in enumerate(header)}
        extra = [cell for cell in record[width:]]
        if any(cell.strip() for cell in extra):
            row[None] = extra
        table.rows.append(row)
        table.lines.append(line)
    return table


def _require(table: Table, columns, hint: str | None) -> None:
    """Check the required columns (by column_key) and rename each to its required spelling."""
    if not columns:
        return
    by_key = {column_key(name): name for name in table.columns}
    missing = [c for c in columns if column_key(c) not in by_key]
    if missing:
        hint = hint or f"it needs the columns {', '.join(columns)}"
        raise RulesError(f"{table.label} lacks the column(s) {', '.join(missing)}; found "
                         f"{table.found}; {hint}")
    renames = {by_key[column_key(c)]: c for c in columns if by_key[column_key(c)] != c}
    if renames:
        table.columns = [renames.get(name, name) for name in table.columns]
        table.rows = [{renames.get(k, k): v for k, v in row.items()} for row in table.rows]
