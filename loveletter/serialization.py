"""JSON for every value of the package: commands, events, positions, states,
views, scoreboards and game records.

Each value has the form :mod:`loveletter.codec` gives it; a
:class:`~loveletter.GameRecord` has its own, written by
:func:`loveletter.records.record_to_data`. Reading checks every field and
raises :class:`~loveletter.errors.SerializationError` with the path of the
first wrong one; the limits on what is read (:data:`MAX_DEPTH`,
:data:`MAX_DIGITS`, :data:`MAX_ITEM_CHARS`, :data:`MAX_ITEMS`) are the
codec's. ``loads(dumps(x)) == x`` for every value.

This module sits above both: the codec knows nothing of records, and
records build on the codec, never on this module.
"""

from __future__ import annotations

import json
import os
from typing import Any

from loveletter.codec import COMMAND_TYPES as COMMAND_TYPES
from loveletter.codec import JSON as JSON
from loveletter.codec import MAX_DEPTH as MAX_DEPTH
from loveletter.codec import MAX_DIGITS as MAX_DIGITS
from loveletter.codec import MAX_ITEM_CHARS as MAX_ITEM_CHARS
from loveletter.codec import MAX_ITEMS as MAX_ITEMS
from loveletter.codec import TYPES as TYPES
from loveletter.codec import JSONReader as JSONReader
from loveletter.codec import file_bytes, json_text
from loveletter.codec import from_data as value_from_data
from loveletter.codec import to_data as value_to_data
from loveletter.errors import SerializationError
from loveletter.records import (
    MAX_RECORD_BYTES,
    GameRecord,
    read_record,
    record_from_data,
    record_to_data,
    starts_a_record,
)


def to_data(value: object) -> JSON:
    """``value`` as plain JSON-compatible data."""
    if isinstance(value, GameRecord):
        return record_to_data(value)
    if isinstance(value, tuple | list):
        return [to_data(item) for item in value]
    return value_to_data(value)


def dumps(value: object, **options: Any) -> str:
    """``value`` as JSON text (``json.dumps`` options pass through)."""
    return json.dumps(to_data(value), **options)


def loads(text: str | bytes | bytearray, expected: type | None = None) -> Any:
    """Read JSON text written by :func:`dumps` (``bytes`` must be UTF-8).

    An array gives a tuple of its values, each read as ``expected``.

    An array, and a :class:`~loveletter.GameRecord` whose ``"type"`` comes
    first (as :func:`dumps` writes it), are read one item at a time, each
    converted as soon as it is read: a wrong item fails at once, and memory
    follows what is kept, never a multiple of the text. Each item, and any
    other document, is at most :data:`MAX_ITEM_CHARS` characters."""
    text = json_text(text)
    reader = JSONReader(text)
    start = reader.peek()
    if start == "[":
        values = tuple(_tagged(item, expected, path) for path, item in reader.items("", 0))
        reader.end()
        return values
    if start == "{" and starts_a_record(text, reader.pos):
        _expecting_a_record(expected, "type")
        return read_record(reader)
    return from_data(reader.whole(), expected)


def from_data(data: JSON, expected: type | None = None, path: str = "") -> Any:
    """Rebuild a tagged object from plain data; ``expected`` restricts the
    acceptable class (a base class such as ``Command`` or ``Event`` works).
    An array gives a tuple of such objects."""
    if isinstance(data, list):
        return tuple(_tagged(item, expected, f"{path}[{i}]") for i, item in enumerate(data))
    return _tagged(data, expected, path)


def _tagged(data: JSON, expected: type | None, path: str) -> Any:
    if (
        isinstance(data, dict)
        and data.get("type") == "GameRecord"
        and (expected is None or isinstance(expected, type))
    ):
        _expecting_a_record(expected, f"{path}.type" if path else "type")
        return record_from_data(data, path)
    return value_from_data(data, expected, path)


def _expecting_a_record(expected: type | None, path: str) -> None:
    if expected is not None and not issubclass(GameRecord, expected):
        raise SerializationError(path, f"expected a {expected.__name__}, not 'GameRecord'")


def read_json_file(path: str | os.PathLike[str]) -> Any:
    """The value a JSON file written by this package holds (a record, a
    state, a position, ...), read through :func:`loads` with its checks.
    Only a regular file is read: a named pipe would wait for a writer and
    a device never end. A file over
    :data:`~loveletter.records.MAX_RECORD_BYTES` is refused unread."""
    return loads(file_bytes(path, MAX_RECORD_BYTES))
