"""The documented vocabulary and schemas match what the engine emits."""

from __future__ import annotations

import json

import pytest

from loveletter.conformance.schemas import all_schemas, render
from loveletter.conformance.vocabulary import (
    COMMAND_FIELDS,
    DECISIONS,
    EVENT_FIELDS,
    REJECTION_KINDS,
    STATE_FIELDS,
    VIEW_FIELDS,
)
from loveletter.events import EliminationReason, RoundEndReason, TokenReason

from ._support import CASES, SCHEMAS

README = (CASES.parent / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "name",
    sorted(
        {*EVENT_FIELDS, *COMMAND_FIELDS, *REJECTION_KINDS, *DECISIONS, *STATE_FIELDS}
        | {*VIEW_FIELDS}
        | {v.value for enum in (EliminationReason, RoundEndReason, TokenReason) for v in enum}
    ),
)
def test_readme_documents(name: str) -> None:
    assert f"`{name}`" in README


@pytest.mark.parametrize("event", sorted(EVENT_FIELDS))
def test_readme_lists_every_event_field(event: str) -> None:
    row = next(line for line in README.splitlines() if line.startswith(f"| `{event}` |"))
    for field in EVENT_FIELDS[event]:
        assert f"`{field}`" in row, (event, field)


@pytest.mark.parametrize("relative", sorted(all_schemas()))
def test_committed_schema_is_current(relative: str) -> None:
    """Regenerate with ``python -m loveletter.conformance.schemas --write``."""
    committed = (SCHEMAS / relative).read_text(encoding="utf-8")
    assert committed == render(all_schemas()[relative])
    json.loads(committed)
