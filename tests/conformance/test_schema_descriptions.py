"""Every field of the suite's JSON Schemas says what it holds.

The reference pages are generated from the schemas' own descriptions
(``docs/_ext/schema_pages.py``), so a field without one would be a row
saying nothing to an implementer. A field is an entry of ``properties``,
except where it only constrains a field its object already defines (a
``oneOf`` branch saying ``steps`` is empty, an event type's ``type``
constant) and inside ``if`` and ``not``, which are conditions. Each schema,
each of its ``$defs`` and each event or command type (a ``then`` keyed on
``type``) is described too.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from ._support import SCHEMAS

JSON = Any

SCHEMA_FILES = sorted(SCHEMAS.rglob("*.json"))


def _described(node: JSON) -> bool:
    text = node.get("description") if isinstance(node, dict) else None
    return isinstance(text, str) and bool(text.strip())


def undescribed(schema: JSON) -> list[str]:
    """The path of every field, definition and type variant of ``schema``
    without a description."""
    missing: list[str] = [] if _described(schema) else ["(the schema itself)"]
    _walk(schema, "", frozenset(), missing)
    for name, body in schema.get("$defs", {}).items():
        where = f"$defs/{name}"
        if not _described(body):
            missing.append(where)
        _walk(body, where, frozenset(), missing)
    return missing


def _walk(node: JSON, path: str, defined: frozenset[str], missing: list[str]) -> None:
    """``defined``: the fields the enclosing object already defines (a
    branch restating one of them only constrains it)."""
    if not isinstance(node, dict):
        return
    properties = node.get("properties", {})
    for name, sub in properties.items():
        where = f"{path}.{name}" if path else name
        if name not in defined and not _described(sub):
            missing.append(where)
        _walk(sub, where, frozenset(), missing)
    here = defined | frozenset(properties)
    for key in ("allOf", "anyOf", "oneOf"):
        for branch in node.get(key, ()):
            kind = _type_variant(branch)
            if kind is None:
                _walk(branch, path, here, missing)
                continue
            where = f"{path}.{kind}"
            if not _described(branch["then"]):
                missing.append(where)
            _walk(branch["then"], where, here, missing)
    for key in ("then", "else"):
        _walk(node.get(key), path, here, missing)
    _walk(node.get("items"), f"{path}[]", frozenset(), missing)
    for index, item in enumerate(node.get("prefixItems", ())):
        _walk(item, f"{path}[{index}]", frozenset(), missing)
    _walk(node.get("additionalProperties"), f"{path}.*", frozenset(), missing)


def _type_variant(branch: JSON) -> str | None:
    """The type an ``if type == X then ...`` branch describes, else None."""
    if not isinstance(branch, dict) or "then" not in branch:
        return None
    const = branch.get("if", {}).get("properties", {}).get("type", {}).get("const")
    return const if isinstance(const, str) else None


def _load(path: Path) -> JSON:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", SCHEMA_FILES, ids=lambda p: p.relative_to(SCHEMAS).as_posix())
def test_every_field_of_the_schema_is_described(path: Path) -> None:
    assert undescribed(_load(path)) == []


def test_the_schemas_are_all_walked() -> None:
    names = {p.relative_to(SCHEMAS).as_posix() for p in SCHEMA_FILES}
    assert {"case-v1.json", "replay-v1.json", "protocol-v1/result.json"} <= names


@pytest.mark.parametrize(
    ("where", "reported"),
    [
        (("properties", "ruleset"), "ruleset"),
        (("$defs", "view", "properties", "deck_bottom"), "$defs/view.deck_bottom"),
        (
            ("properties", "steps", "items", "oneOf", 1, "properties", "checks"),
            "steps[].checks",
        ),
        (
            ("properties", "start", "properties", "position", "properties", "sightings"),
            "start.position.sightings",
        ),
        (("$defs", "event", "allOf", 0, "then"), "$defs/event.CardDealt"),
        (
            ("$defs", "event", "allOf", 0, "then", "properties", "card"),
            "$defs/event.CardDealt.card",
        ),
        (
            ("$defs", "command", "allOf", 5, "then", "properties", "guess"),
            "$defs/command.PlayCard.guess",
        ),
        (("$defs", "seat"), "$defs/seat"),
        ((), "(the schema itself)"),
    ],
)
def test_a_field_losing_its_description_is_named(
    where: tuple[str | int, ...], reported: str
) -> None:
    schema = copy.deepcopy(_load(SCHEMAS / "case-v1.json"))
    node = schema
    for key in where:
        node = node[key]
    del node["description"]
    assert undescribed(schema) == [reported]


def test_a_restated_field_and_a_condition_need_no_description() -> None:
    schema = _load(SCHEMAS / "case-v1.json")
    # the case's "start_rejected means no steps" and an event type's own
    # ``type`` restate fields described where they are defined
    assert "description" not in schema["then"]["properties"]["steps"]
    variant = schema["$defs"]["event"]["allOf"][0]
    assert "description" not in variant["then"]["properties"]["type"]
    assert "description" not in variant["if"]["properties"]["type"]
    assert undescribed(schema) == []
