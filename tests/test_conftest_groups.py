"""The parallel run's grouping stays complete: a test file with a fixture
shared by the whole module (or session) runs whole on one pytest-xdist
worker, or that fixture would be built once per worker."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from conftest import GROUPED_FILES, SLOW_FIRST

ROOT = Path(__file__).resolve().parent.parent
SHARED_FIXTURE = re.compile(r"@pytest\.fixture\([^)]*scope=\"(module|session|package)\"")


def test_every_file_with_a_shared_fixture_is_grouped() -> None:
    shared = {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "tests").rglob("test_*.py")
        if SHARED_FIXTURE.search(path.read_text(encoding="utf-8"))
    }
    assert shared, "the pattern finds the module fixtures"
    assert shared <= GROUPED_FILES, f"not grouped: {sorted(shared - GROUPED_FILES)}"


def test_the_listed_files_exist() -> None:
    listed = GROUPED_FILES | set(SLOW_FIRST)
    missing = sorted(p for p in listed if not (ROOT / p).exists())
    assert not missing, missing


def test_the_grouping_takes_effect_under_xdist(request: pytest.FixtureRequest) -> None:
    """Under ``--dist loadgroup`` pytest-xdist marks a grouped test's id with
    its group (this file is grouped); run otherwise, no id is marked."""
    grouped = bool(os.environ.get("PYTEST_XDIST_WORKER")) and bool(
        request.config.getvalue("loadgroup")
    )
    marked = request.node.nodeid.endswith("@tests/test_conftest_groups.py")
    assert marked == grouped, request.node.nodeid
