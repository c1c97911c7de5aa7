"""Comparing what an implementation reported with what a case expects.

Rules (``conformance/README.md``, "Comparison"): mappings are compared on the
keys the case lists, recursively, and a listed ``null`` matches an absent
key; lists are compared in order and in length; legal commands are compared
as sets. Error *kinds* are compared, never messages.
"""

from __future__ import annotations

import difflib
import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

from loveletter.conformance.vocabulary import COMMAND_FIELDS

JSON = Any


def matches(expected: JSON, actual: JSON) -> bool:
    """Whether ``actual`` agrees with ``expected`` on everything it lists."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return False
        return all(matches(value, actual.get(key)) for key, value in expected.items())
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return False
        return all(matches(e, a) for e, a in zip(expected, actual, strict=True))
    # bool is an int in Python; JSON keeps them apart, and so do we
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual
    return bool(expected == actual)


def project(expected: JSON, actual: JSON) -> JSON:
    """``actual`` cut down to the keys ``expected`` lists, for a readable diff."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        if expected.get("type", actual.get("type")) != actual.get("type"):
            return actual
        return {key: project(expected[key], actual.get(key)) for key in expected}
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        return [project(e, a) for e, a in zip(expected, actual, strict=True)]
    return actual


def render(value: JSON) -> str:
    """One line: ``CardPlayed {player: 0, card: Baron}`` for tagged mappings."""
    if isinstance(value, dict):
        body = ", ".join(f"{k}: {render(v)}" for k, v in value.items() if k != "type")
        tag = value.get("type")
        return f"{tag} {{{body}}}" if isinstance(tag, str) else f"{{{body}}}"
    if isinstance(value, list):
        return "[" + ", ".join(render(v) for v in value) + "]"
    if isinstance(value, str):
        return value if value and value.replace("-", "").isalnum() else json.dumps(value)
    return json.dumps(value)


def sequence_diff(expected: Sequence[JSON], actual: JSON) -> list[str]:
    """Expected against actual items, one per line: agreeing items are
    indented, the others shown as ``- expected`` / ``+ actual``. Items are
    aligned by their ``type`` first, so one extra or missing event shows as
    one line, not as a shift of everything after it."""
    if not isinstance(actual, list):
        return [f"- {render(list(expected))}", f"+ {render(actual)}"]

    def tag(item: JSON) -> str:
        return str(item.get("type")) if isinstance(item, dict) else render(item)

    lines: list[str] = []
    matcher = difflib.SequenceMatcher(
        a=[tag(e) for e in expected], b=[tag(a) for a in actual], autojunk=False
    )
    for op, e1, e2, a1, a2 in matcher.get_opcodes():
        if op == "equal":
            for e, a in zip(expected[e1:e2], actual[a1:a2], strict=True):
                if matches(e, a):
                    lines.append(f"  {render(e)}")
                else:
                    lines += [f"- {render(e)}", f"+ {render(project(e, a))}"]
            continue
        lines += [f"- {render(e)}" for e in expected[e1:e2]]
        lines += [f"+ {render(a)}" for a in actual[a1:a2]]
    return lines


def canonical_command(command: JSON) -> str:
    """A command as canonical text: the fields of its type, a null one left
    out (absent and null mean the same)."""
    if not isinstance(command, dict):
        return json.dumps(command, sort_keys=True)
    fields = COMMAND_FIELDS.get(command.get("type", ""), ())
    full = {"type": command.get("type"), **{f: None for f in fields}, **command}
    given = {key: value for key, value in full.items() if value is not None or key not in fields}
    return json.dumps(given, sort_keys=True, separators=(",", ":"))


def command_set_diff(expected: Sequence[JSON], actual: JSON, exact: bool) -> list[str]:
    """Missing and unexpected commands (``exact``: the sets must be equal;
    otherwise ``expected`` must be included). Empty when they agree."""
    if not isinstance(actual, list):
        return [f"+ {render(actual)} (not a list of commands)"]
    have = Counter(canonical_command(c) for c in actual)
    want = Counter(canonical_command(c) for c in expected)
    lines = [f"- {render(json.loads(c))} (missing)" for c in sorted(want) if c not in have]
    lines += [f"+ {render(json.loads(c))} (listed twice)" for c, n in have.items() if n > 1]
    if exact:
        lines += [f"+ {render(json.loads(c))} (not legal)" for c in sorted(have) if c not in want]
    return lines


def excluded_present(excluded: Sequence[JSON], actual: JSON) -> list[str]:
    if not isinstance(actual, list):
        return [f"+ {render(actual)} (not a list of commands)"]
    have = {canonical_command(c) for c in actual}
    return [
        f"+ {render(json.loads(canonical_command(c)))} (must not be legal)"
        for c in excluded
        if canonical_command(c) in have
    ]
