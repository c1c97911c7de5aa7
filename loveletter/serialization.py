"""JSON for commands, events, positions, states and views.

Every object is a JSON object whose ``"type"`` is its class name and whose
other keys are its fields. Cards are written by name (``"Guard"``, exactly), enums by
value (``"guard-guess"``), tuples and seat sets as arrays, the ruleset by
name. Reading checks every field against its declared type and raises
:class:`~loveletter.errors.SerializationError` with the path of the first
wrong one (``events[3].card``). ``loads(dumps(x)) == x`` for every value.
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Callable
from enum import Enum
from typing import Any, Union, cast

import attrs

from loveletter.cards import Card
from loveletter.commands import (
    Command,
    Decline,
    DrawCard,
    KeepCard,
    LookAtHand,
    PlayCard,
    Redraw,
    StartRound,
)
from loveletter.errors import SerializationError
from loveletter.events import EVENT_TYPES
from loveletter.positions import Position
from loveletter.rulesets import Ruleset, get_ruleset
from loveletter.state import GameState, RoundResult, Sighting, Table
from loveletter.views import PlayerView

COMMAND_TYPES: dict[str, type[Command]] = {
    cls.__name__: cls
    for cls in (PlayCard, KeepCard, DrawCard, StartRound, LookAtHand, Redraw, Decline)
}
#: every type that can be read back, by its ``"type"`` tag
TYPES: dict[str, type] = {
    **COMMAND_TYPES,
    **EVENT_TYPES,
    **{cls.__name__: cls for cls in (Position, GameState, Table, PlayerView)},
}
_NESTED: dict[type, type] = {Sighting: Sighting, RoundResult: RoundResult}

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
                data[field.name] = to_data(getattr(value, field.name))
        return data
    raise TypeError(f"cannot serialize {value!r}")


def dumps(value: object, **options: Any) -> str:
    """``value`` as JSON text (``json.dumps`` options pass through)."""
    return json.dumps(to_data(value), **options)


def loads(text: str | bytes, expected: type | None = None) -> Any:
    """Read JSON text written by :func:`dumps`."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise SerializationError("", f"not JSON: {error}") from None
    return from_data(data, expected)


def from_data(data: JSON, expected: type | None = None, path: str = "") -> Any:
    """Rebuild a tagged object from plain data; ``expected`` restricts the
    acceptable class (a base class such as ``Command`` or ``Event`` works)."""
    if not isinstance(data, dict):
        raise SerializationError(path, "expected an object with a 'type'")
    tag = data.get("type")
    cls = TYPES.get(tag) if isinstance(tag, str) else None
    if cls is None:
        raise SerializationError(_join(path, "type"), f"unknown type {tag!r}")
    if expected is not None and not issubclass(cls, expected):
        raise SerializationError(
            _join(path, "type"), f"expected a {expected.__name__}, not {tag!r}"
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

        namespace = {**vars(events_module), "Position": Position, "Command": Command}
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
        kwargs[name] = _value(hints[name], data[name], _join(path, name))
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as error:
        raise SerializationError(path, str(error)) from None


def _value(hint: Any, data: JSON, path: str) -> Any:
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
        return frozenset(_value(arg, item, _join(path, i)) for i, item in enumerate(data))
    return _SCALARS.get(hint, _nested)(hint, data, path)


def _card(hint: Any, data: JSON, path: str) -> Card:
    # Exactly the names dumps writes: JSON is a contract between programs
    # (the conformance protocol among them), so "guard" is not "Guard".
    card = _CARDS_BY_TITLE.get(data) if isinstance(data, str) else None
    if card is None:
        names = ", ".join(_CARDS_BY_TITLE)
        raise SerializationError(path, f"expected a card name ({names}), not {data!r}")
    return card


_CARDS_BY_TITLE = {card.title: card for card in Card}


def _int(hint: Any, data: JSON, path: str) -> int:
    if not isinstance(data, int) or isinstance(data, bool):
        raise SerializationError(path, f"expected an integer, not {data!r}")
    return data


def _bool(hint: Any, data: JSON, path: str) -> bool:
    if not isinstance(data, bool):
        raise SerializationError(path, f"expected true or false, not {data!r}")
    return data


def _str(hint: Any, data: JSON, path: str) -> str:
    if not isinstance(data, str):
        raise SerializationError(path, f"expected a string, not {data!r}")
    return data


def _ruleset(hint: Any, data: JSON, path: str) -> Ruleset:
    try:
        return get_ruleset(_str(hint, data, path))
    except ValueError as error:
        raise SerializationError(path, str(error)) from None


def _nested(hint: Any, data: JSON, path: str) -> Any:
    if isinstance(hint, type) and issubclass(hint, Enum):
        try:
            return hint(data)
        except ValueError:
            allowed = ", ".join(repr(m.value) for m in hint)
            raise SerializationError(path, f"expected one of {allowed}, not {data!r}") from None
    if isinstance(hint, type) and attrs.has(hint):
        if not isinstance(data, dict):
            raise SerializationError(path, f"expected an object for {hint.__name__}")
        if hint in TYPES.values() or hint in (Command,):
            return from_data(data, hint, path)
        return _object(hint, data, path)
    if hint is Command:
        return from_data(data, Command, path)
    raise SerializationError(path, f"cannot read a {hint!r}")


_SCALARS: dict[Any, Callable[[Any, JSON, str], Any]] = {
    Card: _card,
    int: _int,
    bool: _bool,
    str: _str,
    Ruleset: _ruleset,
}
