"""Traceability: which code implements which spec rule.

:func:`implements` records rule IDs on a function and returns the function
unchanged, so it costs nothing when the function runs. A test checks every
recorded ID against ``spec/``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

F = TypeVar("F", bound=Callable[..., object])

#: rule ID -> qualified names of the functions that cite it
CITATIONS: dict[str, list[str]] = {}


def implements(*rule_ids: str) -> Callable[[F], F]:
    """Mark a function as implementing the given spec rules."""

    def mark(func: F) -> F:
        name = f"{func.__module__}.{func.__qualname__}"
        for rule_id in rule_ids:
            CITATIONS.setdefault(rule_id, []).append(name)
        return func

    return mark
