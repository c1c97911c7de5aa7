"""Shared helpers for the conformance tests."""

from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

from loveletter.conformance import SUITE_ROOT, Case, load_suite

CASES = SUITE_ROOT / "cases"
SCHEMAS = SUITE_ROOT / "schema"
HERE = Path(__file__).parent
#: our engine behind protocol v1
ADAPTER = f"{sys.executable} -m loveletter.conformance.adapter"


@cache
def suite() -> tuple[Case, ...]:
    return tuple(load_suite(CASES))


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
