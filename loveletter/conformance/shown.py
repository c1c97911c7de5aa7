"""What a player is shown may carry only what the schema defines.

A case compares only the keys it lists, so an implementation whose every
view also carried the deck, the set-aside card and every hand would pass
each view check on the keys the case names. The suite closes what a player
is shown instead (``conformance/README.md``, "Comparison"): a view
(``$defs/view`` of ``schema/protocol-v1/result.json``) and a redacted event
(``$defs/event``: each event type defines its fields) carrying a field the
schema does not define fail their check.

The fields are read from the schema file itself, loaded once from the suite
(:func:`loveletter.resources.suite_root`), never from a list kept here: a
field the schema gains is allowed at once. Only what this needs of JSON
Schema is interpreted: ``properties``, ``additionalProperties``, ``items``,
``prefixItems``, local ``$ref``, ``allOf``, ``anyOf``, ``oneOf`` and
``if``/``then``/``else``; a branch or a condition is chosen by ``type``,
``const``, ``enum``, ``required`` and the properties' own values, which is
all the schemas' conditions use. Whether values have the right types is the
comparison's business, not this module's.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from loveletter.errors import LoveLetterError
from loveletter.resources import suite_root

JSON = Any

#: the schema of what an implementation reports, relative to the suite root
RESULT_SCHEMA = Path("schema") / "protocol-v1" / "result.json"

__all__ = ["RESULT_SCHEMA", "ShownSchemaError", "unknown_event_fields", "unknown_view_fields"]


class ShownSchemaError(LoveLetterError, LookupError):
    """The suite's result schema lacks a definition this module reads, or
    refers to one in a way it cannot follow: the suite is damaged, not the
    implementation judged."""


def unknown_view_fields(view: JSON) -> list[str]:
    """The paths of the fields of ``view`` (one player's view, as an
    implementation reports it) that no view may carry: ``deck``,
    ``hands``, ``sightings[0].note``. Empty for anything not an object,
    which the comparison fails on its own."""
    if not isinstance(view, dict):
        return []
    schema = _result_schema()
    return schema.remembered("view", view, lambda: schema.unknown(schema.definition("view"), view))


def unknown_event_fields(event: JSON) -> list[str]:
    """The paths of the fields of ``event`` its type does not define:
    ``card`` on a ``TurnStarted``. Empty for anything not an event of a
    known type (the comparison of the events fails on that)."""
    schema = _result_schema()
    definition = schema.definition("event")
    kind = definition.get("properties", {}).get("type", {})
    if not isinstance(event, dict) or not schema.admits(kind, event.get("type")):
        return []
    return schema.remembered("event", event, lambda: schema.unknown(definition, event))


#: answers a schema keeps (:meth:`_Closed.remembered`); emptied when full
_SEEN_MAX = 8192


def _frozen(value: JSON) -> Hashable:
    """``value`` as a hashable key equal only for values the schema walk
    cannot tell apart: types kept (``True`` is not ``1``, a tuple not a
    list), the order of keys too (the answer lists fields in that order)."""
    if isinstance(value, dict):
        return (dict, tuple((key, _frozen(item)) for key, item in value.items()))
    if isinstance(value, list | tuple):
        return (type(value), tuple(_frozen(item) for item in value))
    return (type(value), value)


class _Closed:
    """One schema file, read for the fields its closed objects define."""

    def __init__(self, schema: Mapping[str, JSON]) -> None:
        self.schema = schema
        #: answers already found, by what was judged
        self.seen: dict[Hashable, tuple[str, ...]] = {}

    def remembered(self, kind: str, value: JSON, find: Callable[[], list[str]]) -> list[str]:
        """``find()``, or its answer for an equal ``value`` judged before.
        The same views and events come back again and again (each step shows
        every seat much of what the last step showed; the fuzzer's shrinking
        replays the same games), and walking the schema costs milliseconds.
        Kept with the schema: another schema file starts afresh."""
        key = (kind, _frozen(value))
        try:
            found = self.seen.get(key)
        except TypeError:  # not JSON: something unhashable inside
            return find()
        if found is None:
            found = tuple(find())
            if len(self.seen) >= _SEEN_MAX:
                self.seen.clear()
            self.seen[key] = found
        return list(found)

    def definition(self, name: str) -> Mapping[str, JSON]:
        body = self.schema.get("$defs", {}).get(name)
        if not isinstance(body, dict):
            raise ShownSchemaError(f"{RESULT_SCHEMA.as_posix()} defines no $defs/{name}")
        return body

    def resolve(self, node: Mapping[str, JSON]) -> list[Mapping[str, JSON]]:
        """``node`` and, when it refers to a definition, that definition
        (the keywords beside a ``$ref`` apply too)."""
        ref = node.get("$ref")
        if not isinstance(ref, str):
            return [node]
        prefix = "#/$defs/"
        if not ref.startswith(prefix):
            raise ShownSchemaError(f"{RESULT_SCHEMA.as_posix()}: cannot follow $ref {ref!r}")
        rest = {key: value for key, value in node.items() if key != "$ref"}
        return [*self.resolve(self.definition(ref[len(prefix) :])), rest]

    # --- which subschemas apply -------------------------------------------------

    def admits(self, node: JSON, value: JSON) -> bool:
        """Whether ``value`` meets the parts of ``node`` that tell branches
        and conditions apart (not a full validation)."""
        if not isinstance(node, dict):
            return node is not False
        return all(self._admits_here(part, value) for part in self.resolve(node))

    def _admits_here(self, node: Mapping[str, JSON], value: JSON) -> bool:
        if "type" in node and not _has_type(value, node["type"]):
            return False
        if "const" in node and not _same(node["const"], value):
            return False
        if "enum" in node and not any(_same(option, value) for option in node["enum"]):
            return False
        if isinstance(value, dict):
            if any(key not in value for key in node.get("required", ())):
                return False
            properties = node.get("properties", {})
            if any(
                not self.admits(sub, value[key]) for key, sub in properties.items() if key in value
            ):
                return False
        if not all(self.admits(sub, value) for sub in node.get("allOf", ())):
            return False
        return all(
            any(self.admits(sub, value) for sub in node[key])
            for key in ("anyOf", "oneOf")
            if key in node
        )

    def _applied(self, node: Mapping[str, JSON], value: JSON) -> list[Mapping[str, JSON]]:
        """The subschemas of ``node`` that apply to ``value``, ``node`` first."""
        applied: list[Mapping[str, JSON]] = []
        for part in self.resolve(node):
            applied.append(part)
            for sub in part.get("allOf", ()):
                applied += self._applied(sub, value)
            if "if" in part:
                branch = part.get("then" if self.admits(part["if"], value) else "else")
                if isinstance(branch, dict):
                    applied += self._applied(branch, value)
        return applied

    # --- the fields no closed object defines ---------------------------------------

    def unknown(self, node: Mapping[str, JSON], value: JSON, path: str = "") -> list[str]:
        """The paths under ``path`` of the fields of ``value`` that a closed
        object of ``node`` does not define, in the order found."""
        found: list[str] = []
        for part in self._applied(node, value):
            found += self._unknown_here(part, value, path)
            for key in ("anyOf", "oneOf"):
                if key in part:
                    found += self._best_branch(part[key], value, path)
        return list(dict.fromkeys(found))

    def _best_branch(self, branches: list[JSON], value: JSON, path: str) -> list[str]:
        """The unknown fields under the branch that fits ``value`` best:
        among those it meets (or, if none, all), the one finding fewest."""
        fitting = [b for b in branches if isinstance(b, dict) and self.admits(b, value)]
        candidates = fitting or [b for b in branches if isinstance(b, dict)]
        results = [self.unknown(branch, value, path) for branch in candidates]
        return min(results, key=len, default=[])

    def _unknown_here(self, node: Mapping[str, JSON], value: JSON, path: str) -> list[str]:
        found: list[str] = []
        if isinstance(value, dict):
            properties = node.get("properties", {})
            extra = node.get("additionalProperties")
            for key, item in value.items():
                where = f"{path}.{key}" if path else str(key)
                if key in properties:
                    found += self.unknown(properties[key], item, where)
                elif extra is False:
                    found.append(where)
                elif isinstance(extra, dict):
                    found += self.unknown(extra, item, where)
        elif isinstance(value, list):
            prefix = node.get("prefixItems", [])
            items = node.get("items")
            for index, item in enumerate(value):
                sub = prefix[index] if index < len(prefix) else items
                if isinstance(sub, dict):
                    found += self.unknown(sub, item, f"{path}[{index}]")
        return found


@cache
def _result_schema() -> _Closed:
    path = suite_root() / RESULT_SCHEMA
    return _Closed(json.loads(path.read_text(encoding="utf-8")))


def _has_type(value: JSON, kinds: JSON) -> bool:
    names = kinds if isinstance(kinds, list) else [kinds]
    return any(_is(value, name) for name in names)


def _is(value: JSON, name: str) -> bool:
    # JSON keeps booleans apart from numbers; Python's bool is an int
    if name == "null":
        return value is None
    if name == "boolean":
        return isinstance(value, bool)
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if name == "string":
        return isinstance(value, str)
    if name == "array":
        return isinstance(value, list)
    if name == "object":
        return isinstance(value, dict)
    return False


def _same(expected: JSON, value: JSON) -> bool:
    if isinstance(expected, bool) or isinstance(value, bool):
        return expected is value
    return bool(expected == value)
