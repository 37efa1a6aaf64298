"""Reading a file of game records: everything that can be read, and where it is damaged.

A record file holds one record (a JSON object), several (a JSON list), or one record per
line (JSON Lines); see ``docs/records.md``.  A file can be damaged: cut off by an
interrupted copy, or a line broken by an editor.  :func:`read_records` then gives every
record it can still read, in file order, and a :class:`RecordError` for each damaged
place, saying where (record number and line) in words; :func:`load_records` is the
strict form that refuses the whole file at the first problem.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "games.jsonl")
>>> with open(path, "w", encoding="utf-8") as f:
...     _ = f.write('{"game": "skat"}\\n{"game": "skat", "act')
>>> rf = read_records(path)
>>> [e.data for e in rf.entries if e.problem is None]
[{'game': 'skat'}]
>>> print(rf.problems[0])  # doctest: +ELLIPSIS
/.../games.jsonl is cut off: it ends in the middle of record 1 (line 2)
"""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stich.core import RecordError
from stich.messages import Msg
from stich.textfile import read_text

__all__ = ["RecordEntry", "RecordFile", "load_records", "read_records"]


@dataclass(frozen=True)
class RecordEntry:
    """One place in a record file: a record read (``data``), or a damaged place
    (``problem``).  ``index`` is the record's number in the file from 0 (None for a
    problem of the whole file), ``line`` the line it begins in, from 1."""

    index: int | None
    line: int
    data: Any = None
    problem: RecordError | None = None


@dataclass(frozen=True)
class RecordFile:
    """What :func:`read_records` found in a file, in file order."""

    path: str
    entries: list[RecordEntry] = field(default_factory=list)

    @property
    def records(self) -> list[Any]:
        """The records that could be read."""
        return [e.data for e in self.entries if e.problem is None]

    @property
    def problems(self) -> list[RecordError]:
        """The damaged places (and problems of the whole file)."""
        return [e.problem for e in self.entries if e.problem is not None]

    @property
    def several(self) -> bool:
        """Whether the file holds (or held) more than one record, so that a message
        names the record's number."""
        return sum(e.index is not None for e in self.entries) > 1


def load_records(path: str | Path) -> list[Any]:
    """Read one record (a JSON object) or many (a JSON list, or one object per line);
    a RecordError for the first damaged place or a file that cannot be read."""
    rf = read_records(path)
    if rf.problems:
        raise rf.problems[0]
    return rf.records


def read_records(path: str | Path) -> RecordFile:
    """Every record of the file that can be read, and the damaged places (see the module
    documentation).  Never raises for the file's content or for a file that cannot be
    read: such problems are entries too."""
    name = str(path)
    try:
        text = read_text(path, RecordError)
        return RecordFile(name, _entries(text, name))
    except RecordError as e:
        return RecordFile(name, [RecordEntry(None, 1, problem=e)])


_ISS_LINE = re.compile(r"^\s*\(;\s*GM\[", re.MULTILINE)
_POSITION_LINE = re.compile(r"\d+(,\d+){6}")


def _entries(text: str, name: str) -> list[RecordEntry]:
    """The file's records and damaged places, by the file's form."""
    stripped = text.strip()
    if not stripped:
        raise RecordError("records.empty", file=name)
    if not stripped.startswith(("{", "[")):
        if _ISS_LINE.search(text):
            raise RecordError("records.iss_file", file=name)
        if _POSITION_LINE.fullmatch(stripped.splitlines()[0].strip()):
            raise RecordError("records.positions_file", file=name)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as whole:
        if stripped.startswith("["):
            return _list_entries(text, name)
        if _looks_like_lines(text):
            return _line_entries(text, name)
        start = _line_of(text, len(text) - len(text.lstrip()))
        if _cut_off(text, whole):
            raise RecordError("records.truncated_single", file=name, line=start) from None
        raise _not_json("records.not_json", whole, file=name) from None
    if isinstance(data, list):
        return _list_entries(text, name)
    return [RecordEntry(0, _line_of(text, len(text) - len(text.lstrip())), data)]


def _looks_like_lines(text: str) -> bool:
    """A file of one record per line: its first line is a JSON object on its own, or
    (when the first line is the damaged one) a later line is a whole record.  A record
    spread over several lines never has a nested line that is a record itself."""
    lines = [line for line in text.splitlines() if line.strip()]
    for i, line in enumerate(lines):
        if not line.startswith("{"):
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(data, dict) and (i == 0 or "game" in data or "format" in data):
            return True
    return False


def _line_entries(text: str, name: str) -> list[RecordEntry]:
    """JSON Lines: each non-empty line is one record, read on its own, so a damaged line
    leaves the others readable.  The last line is cut off when the file ends inside it."""
    lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    out = []
    for index, (n, line) in enumerate(lines):
        try:
            out.append(RecordEntry(index, n, json.loads(line)))
        except json.JSONDecodeError as e:
            if index == len(lines) - 1 and _cut_off(line, e):
                problem = RecordError("records.truncated", file=name, n=index, line=n)
            else:
                problem = _not_json("records.damaged_line", e, file=name, n=index, line=n)
            out.append(RecordEntry(index, n, problem=problem))
    return out


def _list_entries(text: str, name: str) -> list[RecordEntry]:
    """A JSON list, read record by record: the records before a damaged place are kept;
    after it the list cannot be followed, so reading stops there."""
    decoder = json.JSONDecoder()
    at = _LineIndex(text)
    pos = _skip_space(text, text.index("[") + 1)
    out: list[RecordEntry] = []
    if pos < len(text) and text[pos] == "]":
        return _after_list(text, pos + 1, name, out)
    while True:
        index = len(out)
        line = at.line(pos)
        if pos >= len(text):  # the file ends after the opening bracket or a comma
            return [*out, _cut_list(name, line)]
        try:
            data, end = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as e:
            if _cut_off(text, e):
                problem = RecordError("records.truncated", file=name, n=index, line=line)
            else:
                problem = _not_json("records.damaged_list", e, file=name, n=index)
            return [*out, RecordEntry(index, line, problem=problem)]
        out.append(RecordEntry(index, line, data))
        pos = _skip_space(text, end)
        if pos >= len(text):
            return [*out, _cut_list(name, at.line(pos))]
        if text[pos] == "]":
            return _after_list(text, pos + 1, name, out)
        if text[pos] != ",":
            err = json.JSONDecodeError("Expecting ',' delimiter", text, pos)
            return [*out, RecordEntry(index + 1, err.lineno, problem=_not_json(
                "records.damaged_list", err, file=name, n=index + 1))]
        pos = _skip_space(text, pos + 1)


def _cut_list(name: str, line: int) -> RecordEntry:
    """The file ends before its list of records is closed."""
    return RecordEntry(None, line, problem=RecordError("records.truncated_list", file=name,
                                                       line=line))


def _after_list(text: str, pos: int, name: str, out: list[RecordEntry]) -> list[RecordEntry]:
    """The entries of a closed list, and a problem if more follows after it."""
    pos = _skip_space(text, pos)
    if pos < len(text):
        line, column = _line_of(text, pos), _column_of(text, pos)
        out.append(RecordEntry(None, line, problem=RecordError(
            "records.after_list", file=name, line=line, column=column)))
    return out


def _skip_space(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\r\n":
        pos += 1
    return pos


class _LineIndex:
    """The line of a position in a text, by bisection (a list may hold many records)."""

    def __init__(self, text: str) -> None:
        self._newlines = [m.start() for m in re.finditer("\n", text)]

    def line(self, pos: int) -> int:
        return bisect.bisect_left(self._newlines, pos) + 1


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _column_of(text: str, pos: int) -> int:
    return pos - text.rfind("\n", 0, pos)


_NUMBER_START = re.compile(r"[-+.eE0-9]*")


def _cut_off(text: str, e: json.JSONDecodeError) -> bool:
    """Whether the JSON reader failed because ``text`` ends inside a value: the error
    lies at the end, or in an unclosed string, a word or a number that the end cuts."""
    rest = text[e.pos:].strip()
    if not rest or e.msg.startswith("Unterminated string"):
        return True
    if any(word.startswith(rest) for word in ("true", "false", "null")):
        return True
    if e.msg.startswith("Invalid \\uXXXX") and len(text.rstrip()) - e.pos <= 6:
        return True
    return len(rest) <= 24 and _NUMBER_START.fullmatch(rest) is not None


_JSON_REASONS = (
    ("Expecting value", "records.json_value"),
    ("Expecting ',' delimiter", "records.json_comma"),
    ("Expecting ':' delimiter", "records.json_colon"),
    ("Expecting property name", "records.json_name"),
    ("Unterminated string", "records.json_string"),
    ("Invalid control character", "records.json_control"),
    ("Invalid \\", "records.json_escape"),
    ("Extra data", "records.json_extra"),
    ("Illegal trailing comma", "records.json_trailing_comma"),
)


def _json_reason(e: json.JSONDecodeError) -> Msg:
    """Why a text is not JSON, as a message of its own (the JSON reader's English
    phrases, such as "Unterminated string starting at", end mid-sentence)."""
    for prefix, code in _JSON_REASONS:
        if e.msg.startswith(prefix):
            return Msg(code, {})
    return Msg("text", {"text": e.msg})


def _not_json(code: str, e: json.JSONDecodeError, *, line: int | None = None,
              **params: Any) -> RecordError:
    """A RecordError for text that is not JSON: why, and where (``line``: the line in
    the file when ``e`` comes from reading one line alone)."""
    return RecordError(code, reason=_json_reason(e), line=line or e.lineno, column=e.colno,
                       **params)
