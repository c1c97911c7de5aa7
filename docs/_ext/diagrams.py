"""Placeholder: filled in by its own change."""

from __future__ import annotations

from typing import Any


def setup(app: Any) -> dict[str, Any]:
    return {"parallel_read_safe": True, "parallel_write_safe": True}
