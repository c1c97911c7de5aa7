"""The JSON form of the package's values: commands, events, positions,
states, tables, views and scoreboards, and bounded reading of JSON text.

Every object is a JSON object whose ``"type"`` is its class name and whose
other keys are its fields. Cards are written by name (``"Guard"``, exactly), enums by
value (``"guard-guess"``), tuples and seat sets as arrays, the ruleset by
name. Every field named ``seed`` is written as a string of decimal digits
(JSON numbers above 2**53 are not exact in many languages) and read from
one, or from a JSON integer (older files). A list or tuple of values is an
array, read back as a tuple.

Reading checks every field against its declared type and raises
:class:`~loveletter.errors.SerializationError` with the path of the first
wrong one (``events[3].card``): for bytes that are not UTF-8, JSON nested
deeper than :data:`MAX_DEPTH`, numbers longer than :data:`MAX_DIGITS`
digits, ``NaN`` and ``Infinity``, a float or a bool where an integer
belongs, a value longer than :data:`MAX_ITEM_CHARS` characters (an array
is read one item at a time: no more than :data:`MAX_ITEMS`).
A state read back must be one that play reaches
(:func:`loveletter.validation.check_state`) and a position one that can
occur (:func:`loveletter.from_position`); otherwise the error's path names
the field at fault.

A game record has a JSON form of its own, built on this one
(:mod:`loveletter.records`); :mod:`loveletter.serialization` reads and
writes every value, records included.
"""

from __future__ import annotations

import json
import os
import re
import stat
import types
import typing
from collections.abc import Callable, Iterator
from enum import Enum
from typing import Any, Union, cast

import attrs

from loveletter.chance import is_seed
from loveletter.commands import (
    Command,
    Decline,
    DrawCard,
    KeepCard,
    Leave,
    LookAtHand,
    PlayCard,
    Redraw,
    StartRound,
    TimeOut,
)
from loveletter.errors import LoveLetterError, SerializationError
from loveletter.events import EVENT_TYPES
from loveletter.kinds import Card
from loveletter.positions import Position, from_position
from loveletter.rulesets import RULESETS, Ruleset, get_ruleset
from loveletter.scoreboard import Scoreboard
from loveletter.state import GameState, RoundResult, Sighting, Table, TableSettings
from loveletter.validation import check_state, check_table, short
from loveletter.views import PlayerView

COMMAND_TYPES: dict[str, type[Command]] = {
    cls.__name__: cls
    for cls in (
        PlayCard,
        KeepCard,
        DrawCard,
        StartRound,
        LookAtHand,
        Redraw,
        Decline,
        Leave,
        TimeOut,
    )
}
#: every type that can be read back, by its ``"type"`` tag
TYPES: dict[str, type] = {
    **COMMAND_TYPES,
    **EVENT_TYPES,
    **{cls.__name__: cls for cls in (Position, GameState, Table, PlayerView, Scoreboard)},
}
_NESTED: dict[type, type] = {
    Sighting: Sighting,
    RoundResult: RoundResult,
    TableSettings: TableSettings,
}

JSON = Any


def to_data(value: object) -> JSON:
    """``value`` as plain JSON-compatible data."""
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, Card):
        return value.title
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, int):
        return value
    if isinstance(value, Ruleset):
        return value.name
    if isinstance(value, tuple | list):
        return [to_data(item) for item in value]
    if isinstance(value, frozenset | set):
        return sorted(to_data(item) for item in value)
    if attrs.has(type(value)):
        data: dict[str, JSON] = {}
        if type(value) in TYPES.values():
            data["type"] = type(value).__name__
        for field in attrs.fields(cast(Any, type(value))):
            if field.init:
                item = getattr(value, field.name)
                # seeds as decimal text: exact in every language's JSON
                data[field.name] = (
                    str(item) if field.name == "seed" and is_seed(item) else to_data(item)
                )
        return data
    raise TypeError(f"cannot serialize {short(value)}")


def dumps(value: object, **options: Any) -> str:
    """``value`` as JSON text (``json.dumps`` options pass through)."""
    return json.dumps(to_data(value), **options)


#: how deeply JSON may nest: far more than anything :func:`dumps` writes
#: (a record's position's sighting is 5 levels down), far less than
#: Python's recursion limit
MAX_DEPTH = 64
#: the most digits a JSON number may have (a seed has at most 78)
MAX_DIGITS = 100


class _Unreadable:
    """What a JSON number or constant this format refuses is read as, so
    that the error names its path: NaN, Infinity, an integer too long."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def __repr__(self) -> str:
        return f"<{self.reason}>"


def _parse_int(text: str) -> int | _Unreadable:
    if len(text) > MAX_DIGITS + (text[0] == "-"):
        return _Unreadable(f"a number of {len(text)} digits (at most {MAX_DIGITS})")
    return int(text)


def _parse_float(text: str) -> float | _Unreadable:
    if len(text) > MAX_DIGITS * 4:
        return _Unreadable(f"a number of {len(text)} characters")
    return float(text)


def _parse_constant(text: str) -> _Unreadable:
    return _Unreadable(f"{text} is not a JSON number")


def loads(text: str | bytes | bytearray, expected: type | None = None) -> Any:
    """Read JSON text written by :func:`dumps` (``bytes`` must be UTF-8).

    An array gives a tuple of its values, each read as ``expected``; it is
    read one item at a time, each converted as soon as it is read: a wrong
    item fails at once, and memory follows what is kept, never a multiple
    of the text. Each item, and any other document, is at most
    :data:`MAX_ITEM_CHARS` characters."""
    text = json_text(text)
    reader = JSONReader(text)
    if reader.peek() == "[":
        values = tuple(_tagged(item, expected, path) for path, item in reader.items("", 0))
        reader.end()
        return values
    return from_data(reader.whole(), expected)


def json_text(text: object) -> str:
    """``text`` as a string: bytes are decoded as UTF-8; anything but text
    and bytes is refused."""
    if isinstance(text, bytes | bytearray | memoryview):
        try:
            return bytes(text).decode("utf-8")
        except UnicodeDecodeError as error:
            raise SerializationError(
                "", f"not UTF-8 text: byte {error.start} cannot start or continue a character"
            ) from None
    if not isinstance(text, str):
        raise SerializationError("", f"expected JSON text, not {short(text)}")
    return text


#: the most characters of one value read whole: one item of an array or of
#: a record's events, or a document that is neither. A game's largest (a
#: position of eight players and three decks) takes a few thousand; since
#: parsed JSON can take some 30 times its text in memory, this bounds the
#: cost of a hostile one.
MAX_ITEM_CHARS = 2**20
#: the most items of an array read one at a time (a record's events among
#: them: a record of :data:`loveletter.records.MAX_RECORD_BYTES` holds fewer)
MAX_ITEMS = 2**20
_DECODER = json.JSONDecoder(
    parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant
)
_SPACE = re.compile(r"[ \t\n\r]*")


class JSONReader:
    """JSON text read one value at a time, from ``pos`` on: how
    :func:`loads` reads an array, item by item (and
    :func:`loveletter.records.read_record` a record's events)."""

    def __init__(self, text: str, pos: int = 0) -> None:
        self.text = text
        self.pos = pos

    def peek(self) -> str:
        """The next character that is not white space (``""`` at the end)."""
        match = _SPACE.match(self.text, self.pos)
        assert match is not None  # the pattern matches the empty string
        self.pos = match.end()
        return self.text[self.pos : self.pos + 1]

    def value(self, depth: int, path: str) -> JSON:
        """The next value, whole; ``depth`` is how deeply it is nested."""
        self.peek()
        value, self.pos = _decode(self.text, self.pos, depth, path)
        return value

    def items(
        self, path: str, depth: int, limit: int = MAX_ITEMS, what: str = "items"
    ) -> Iterator[tuple[str, JSON]]:
        """The items of the array that comes next (nested ``depth`` levels
        down), one at a time, each with its path: no more than ``limit``."""
        self._expect("[")
        if self.peek() == "]":
            self.pos += 1
            return
        index = 0
        while True:
            if index == limit:
                raise SerializationError(path, f"more than {limit} {what}")
            item_path = f"{path}[{index}]"
            yield item_path, self.value(depth + 1, item_path)
            index += 1
            if self._separator("]"):
                return

    def members(self, depth: int, path: str = "") -> Iterator[str]:
        """The keys of the object that comes next, one at a time: read each
        key's value (with :meth:`value` or :meth:`items`) before the next."""
        self._expect("{")
        if self.peek() == "}":
            self.pos += 1
            return
        while True:
            if self.peek() != '"':
                raise self._syntax("Expecting property name enclosed in double quotes")
            key, self.pos = _decode(self.text, self.pos, depth + 1, path)
            self._expect(":")
            yield key
            if self._separator("}"):
                return

    def whole(self) -> JSON:
        """The document from here to the end, read whole: at most
        :data:`MAX_ITEM_CHARS` characters (only an array, or a record whose
        ``"type"`` comes first, are read a piece at a time, and may be
        longer)."""
        if len(self.text) > MAX_ITEM_CHARS:
            raise SerializationError(
                "",
                f"{len(self.text)} characters: only an array, or a GameRecord whose"
                f' "type" comes first, may be longer than {MAX_ITEM_CHARS}',
            )
        data = self.value(0, "")
        self.end()
        return data

    def end(self) -> None:
        """Refuse anything but white space after the document."""
        if self.peek():
            raise self._syntax("Extra data")

    def _expect(self, char: str) -> None:
        if self.peek() != char:
            raise self._syntax(f"Expecting {char!r}" + (" delimiter" if char in ",:" else ""))
        self.pos += 1

    def _separator(self, close: str) -> bool:
        """Past a comma (False) or the closing bracket (True)."""
        if self.peek() == close:
            self.pos += 1
            return True
        self._expect(",")
        return False

    def _syntax(self, message: str) -> SerializationError:
        return SerializationError("", f"not JSON: {message} at character {self.pos}")


def _decode(text: str, pos: int, depth: int, path: str) -> tuple[JSON, int]:
    """The JSON value that starts at ``pos`` and the position after it,
    decoded from a window of the text that grows from a few hundred
    characters to :data:`MAX_ITEM_CHARS`: a value costs memory in
    proportion to its own length, never to the text after it."""
    size = 512
    failed: tuple[str, int] | None = None
    while True:
        window = text[pos : pos + size]
        cut = pos + size < len(text)
        try:
            value, end = _DECODER.raw_decode(window)
        except json.JSONDecodeError as error:
            # The same error in a wider window is the text's own; another
            # one was the window's end, cutting the value short.
            if cut and size < MAX_ITEM_CHARS and failed != (error.msg, error.pos):
                failed = (error.msg, error.pos)
                size = min(size * 8, MAX_ITEM_CHARS)
                continue
            if cut and failed != (error.msg, error.pos):
                raise SerializationError(
                    path, f"a value longer than {MAX_ITEM_CHARS} characters (at character {pos})"
                ) from None
            raise SerializationError(
                "", f"not JSON: {error.msg} at character {pos + error.pos}"
            ) from None
        except RecursionError:
            raise SerializationError(path, f"nested deeper than {MAX_DEPTH} levels") from None
        except ValueError as error:  # a number Python will not convert
            raise SerializationError("", f"not readable JSON: {short(str(error))}") from None
        if cut and end == len(window) and size < MAX_ITEM_CHARS:
            size = min(size * 8, MAX_ITEM_CHARS)  # a number may go on past the window
            continue
        _check_depth(value, depth, path)
        return value, pos + end


def _check_depth(data: JSON, depth: int = 0, path: str = "") -> None:
    """Refuse arrays and objects nested deeper than :data:`MAX_DEPTH`
    (walked without recursion, naming the path of the first too deep);
    ``data`` itself is ``depth`` levels down, at ``path``."""
    stack: list[tuple[JSON, int, str]] = [(data, depth, path)]
    while stack:
        value, depth, path = stack.pop()
        if depth > MAX_DEPTH:
            raise SerializationError(path, f"nested deeper than {MAX_DEPTH} levels")
        if isinstance(value, dict):
            stack.extend(
                (item, depth + 1, _join(path, key))
                for key, item in value.items()
                if isinstance(item, dict | list)
            )
        elif isinstance(value, list):
            stack.extend(
                (item, depth + 1, _join(path, index))
                for index, item in enumerate(value)
                if isinstance(item, dict | list)
            )


def from_data(data: JSON, expected: type | None = None, path: str = "") -> Any:
    """Rebuild a tagged object from plain data; ``expected`` restricts the
    acceptable class (a base class such as ``Command`` or ``Event`` works).
    An array gives a tuple of such objects."""
    if isinstance(data, list):
        return tuple(_tagged(item, expected, _join(path, i)) for i, item in enumerate(data))
    return _tagged(data, expected, path)


def _tagged(data: JSON, expected: type | None, path: str) -> Any:
    if expected is not None and not isinstance(expected, type):
        raise SerializationError(path, f"the expected type must be a class, not {short(expected)}")
    if isinstance(data, _Unreadable):
        raise SerializationError(path, data.reason)
    if not isinstance(data, dict):
        raise SerializationError(path, f"expected an object with a 'type', not {short(data)}")
    tag = data.get("type")
    cls = TYPES.get(tag) if isinstance(tag, str) else None
    if cls is None:
        raise SerializationError(_join(path, "type"), f"unknown type {short(tag)}")
    if expected is not None and not issubclass(cls, expected):
        raise SerializationError(
            _join(path, "type"), f"expected a {expected.__name__}, not {short(tag)}"
        )
    return _object(cls, data, path)


def _join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        import loveletter.events as events_module

        namespace = {
            **vars(events_module),
            "Position": Position,
            "Command": Command,
            "TableSettings": TableSettings,
        }
        _HINTS[cls] = typing.get_type_hints(cls, localns=namespace)
    return _HINTS[cls]


def _object(cls: type, data: dict[str, JSON], path: str) -> Any:
    hints = _hints(cls)
    kwargs: dict[str, Any] = {}
    fields = {f.name: f for f in attrs.fields(cls) if f.init}
    for key in data:
        if key != "type" and key not in fields:
            raise SerializationError(_join(path, key), f"unknown field for {cls.__name__}")
    for name, field in fields.items():
        if name not in data:
            if field.default is attrs.NOTHING:
                raise SerializationError(_join(path, name), "missing field")
            continue
        read = _seed if name == "seed" else _value
        kwargs[name] = read(hints[name], data[name], _join(path, name))
    try:
        value = cls(**kwargs)
    except (TypeError, ValueError) as error:
        raise SerializationError(path, short(str(error))) from None
    check = _CHECKS.get(cls)
    if check is not None:
        try:
            check(value)
        except LoveLetterError as error:
            # the checks name fields as a state reads them (``tokens[1]``):
            # put the table's under ``table``, where the JSON has them
            field = getattr(error, "field", "")
            if cls is GameState and field.split("[")[0].split(".")[0] in _TABLE_FIELDS:
                field = f"table.{field}"
            detail = getattr(error, "detail", str(error))
            raise SerializationError(_join(path, field) if field else path, detail) from None
    return value


_TABLE_FIELDS = frozenset(a.name for a in attrs.fields(Table))
#: what a value read back must also be, beyond its fields' types: a state
#: that play reaches, a position that can occur, a table of a real game
_CHECKS: dict[type, Callable[[Any], object]] = {
    GameState: check_state,
    Position: from_position,
    Table: check_table,
}
_SEED_TEXT = re.compile(r"0|[1-9][0-9]{0,77}")


def _seed(hint: Any, data: JSON, path: str) -> int | None:
    """A seed: decimal digits (no sign, no leading zero) or, from older
    files, a JSON integer; either way from 0 to 2**256 - 1. ``null`` where
    the field may be redacted."""
    if data is None and type(None) in typing.get_args(hint):
        return None
    if isinstance(data, str):
        if not _SEED_TEXT.fullmatch(data):
            raise SerializationError(
                path, f"a seed is written as up to 78 decimal digits, not {short(data)}"
            )
        value: object = int(data)
    else:
        value = data
    if not is_seed(value):
        raise SerializationError(
            path, f"a seed is an integer from 0 to 2**256 - 1, not {short(value)}"
        )
    assert isinstance(value, int)
    return value


def _value(hint: Any, data: JSON, path: str) -> Any:
    if isinstance(data, _Unreadable):
        raise SerializationError(path, data.reason)
    origin = typing.get_origin(hint)
    if origin is Union or origin is types.UnionType:
        options = typing.get_args(hint)
        if data is None and type(None) in options:
            return None
        last: SerializationError | None = None
        for option in options:
            if option is type(None):
                continue
            try:
                return _value(option, data, path)
            except SerializationError as error:
                last = error
        raise last or SerializationError(path, "no value allowed")
    if origin is tuple:
        args = typing.get_args(hint)
        if not isinstance(data, list):
            raise SerializationError(path, "expected an array")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_value(args[0], item, _join(path, i)) for i, item in enumerate(data))
        if len(args) != len(data):
            raise SerializationError(path, f"expected {len(args)} items")
        pairs = enumerate(zip(args, data, strict=True))
        return tuple(_value(a, item, _join(path, i)) for i, (a, item) in pairs)
    if origin is frozenset:
        if not isinstance(data, list):
            raise SerializationError(path, "expected an array")
        (arg,) = typing.get_args(hint)
        items = [_value(arg, item, _join(path, i)) for i, item in enumerate(data)]
        seats = frozenset(items)
        if len(seats) != len(items):
            raise SerializationError(path, "lists a value twice")
        return seats
    return _SCALARS.get(hint, _nested)(hint, data, path)


def _card(hint: Any, data: JSON, path: str) -> Card:
    # Exactly the names dumps writes: JSON is a contract between programs
    # (the conformance protocol among them), so "guard" is not "Guard".
    card = _CARDS_BY_TITLE.get(data) if isinstance(data, str) else None
    if card is None:
        names = ", ".join(_CARDS_BY_TITLE)
        raise SerializationError(path, f"expected a card name ({names}), not {short(data)}")
    return card


_CARDS_BY_TITLE = {card.title: card for card in Card}


def _int(hint: Any, data: JSON, path: str) -> int:
    if not isinstance(data, int) or isinstance(data, bool):
        raise SerializationError(path, f"expected an integer, not {short(data)}")
    return data


def _bool(hint: Any, data: JSON, path: str) -> bool:
    if not isinstance(data, bool):
        raise SerializationError(path, f"expected true or false, not {short(data)}")
    return data


def _str(hint: Any, data: JSON, path: str) -> str:
    if not isinstance(data, str):
        raise SerializationError(path, f"expected a string, not {short(data)}")
    return data


def _ruleset(hint: Any, data: JSON, path: str) -> Ruleset:
    try:
        return get_ruleset(_str(hint, data, path))
    except ValueError:
        known = ", ".join(sorted(RULESETS))
        raise SerializationError(path, f"unknown ruleset {short(data)} (known: {known})") from None


def _nested(hint: Any, data: JSON, path: str) -> Any:
    if isinstance(hint, type) and issubclass(hint, Enum):
        try:
            return hint(data)
        except ValueError:
            allowed = ", ".join(repr(m.value) for m in hint)
            raise SerializationError(
                path, f"expected one of {allowed}, not {short(data)}"
            ) from None
    if isinstance(hint, type) and attrs.has(hint):
        if not isinstance(data, dict):
            raise SerializationError(path, f"expected an object for {hint.__name__}")
        if hint in TYPES.values() or hint in (Command,):
            return from_data(data, hint, path)
        return _object(hint, data, path)
    if hint is Command:
        return from_data(data, Command, path)
    raise SerializationError(path, f"cannot read a {short(hint)}")


_SCALARS: dict[Any, Callable[[Any, JSON, str], Any]] = {
    Card: _card,
    int: _int,
    bool: _bool,
    str: _str,
    Ruleset: _ruleset,
}


#: what a path that is not a regular file names, for the message
_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)


def file_bytes(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of
    them. Only a regular file is read: a named pipe would wait for a
    writer and a device never end. A file over ``limit`` bytes is refused
    unread."""
    name = os.fspath(path)
    try:
        _regular(name, os.stat(path), limit)
        # O_NONBLOCK: should the path become a pipe after the check, opening
        # it does not wait for a writer; fstat then sees what was opened
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with open(fd, "rb") as file:
            info = os.fstat(fd)
            _regular(name, info, limit)
            # read(n) sets aside n bytes at once: ask for what the file holds
            data = file.read(info.st_size + 1)
            if len(data) > info.st_size:  # it grew since: read on to the bound
                data += file.read(limit + 1 - len(data))
    except OSError as error:
        raise SerializationError("", f"cannot read {name}: {error.strerror}") from None
    if len(data) > limit:
        raise SerializationError("", f"{name} is larger than {limit} bytes")
    return data


def _regular(name: str, info: os.stat_result, limit: int) -> None:
    """Refuse a path that is not a regular file, or one too large."""
    if not stat.S_ISREG(info.st_mode):
        kind = next((kind for test, kind in _KINDS if test(info.st_mode)), "not a file")
        raise SerializationError("", f"cannot read {name}: not a regular file but {kind}")
    if info.st_size > limit:
        raise SerializationError("", f"{name} is larger than {limit} bytes")
