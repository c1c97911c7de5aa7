"""The parallel run's grouping stays complete: a test file with a fixture
shared by the whole module (or session) runs whole on one pytest-xdist
worker, or that fixture would be built once per worker."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from conftest import GROUPED_FILES, SHARED_GROUPS, SLOW_FIRST

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
    listed = GROUPED_FILES | set(SLOW_FIRST) | set().union(*SHARED_GROUPS.values())
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


#: what a test file that runs the compiled simulator contains
SIMULATOR_USE = re.compile(
    r"FastBatch|loveletter\.fast\.simulate|engine=\"fast\"|--engine\", \"fast|fast\.adapter"
)

#: files the pattern finds that never run compiled code
NOT_COMPILING = {
    "tests/test_conftest_groups.py",  # the pattern itself
    "tests/test_bots_heuristic.py",  # the fast engine refusing bots, before any compiling
}


def test_every_test_file_of_the_compiled_simulator_is_in_its_group() -> None:
    """A test file that runs the compiled simulator outside the group would
    compile it again on another worker."""
    compiling = {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "tests").rglob("test_*.py")
        if SIMULATOR_USE.search(path.read_text(encoding="utf-8"))
    }
    assert compiling, "the pattern finds the simulator's tests"
    missing = compiling - SHARED_GROUPS["numba-kernel"] - NOT_COMPILING
    assert not missing, f"not in the numba-kernel group: {sorted(missing)}"
