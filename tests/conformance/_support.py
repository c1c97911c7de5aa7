"""Shared helpers for the conformance tests."""

from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

from loveletter.conformance import SUITE_ROOT, Case
from loveletter.reference.catalog import catalog

CASES = SUITE_ROOT / "cases"
SCHEMAS = SUITE_ROOT / "schema"
HERE = Path(__file__).parent
#: our engine behind protocol v1
ADAPTER = f"{sys.executable} -m loveletter.conformance.adapter"


@cache
def suite() -> tuple[Case, ...]:
    """Every case of the suite, sorted by name as ``load_suite`` sorts them.

    Read once per process, by the catalog (libyaml, then ``parse_case``'s
    checks of every field): the strict reader takes seconds more each time,
    and ``test_case_format`` shows that both readers read every file alike
    and runs ``load_suite``'s own checks on the suite."""
    return tuple(sorted(catalog().cases, key=lambda case: case.name))


def impl(script: str, *args: str) -> str:
    """The command that runs one of this directory's test implementations."""
    return " ".join([sys.executable, str(HERE / script), *args])


@cache
def validator(relative: str) -> Any:
    schema = json.loads((SCHEMAS / relative).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def schema_errors(relative: str, data: Any) -> list[str]:
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
        for e in validator(relative).iter_errors(data)
    ]
