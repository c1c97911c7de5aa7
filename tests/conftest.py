"""Hypothesis profiles and make test's scheduling.

Profiles, chosen with ``HYPOTHESIS_PROFILE`` or by ``LOVELETTER_BUDGET``'s
tier (``tests/budget.py``):

* ``default``: derandomized, so every run tries the same examples and CI is
  reproducible; no deadline (the machine is slow and shared) and no example
  database. The property tests scale their own budgets from its
  ``max_examples`` and the tier's share (``strategies.scaled_examples``).
* ``thorough``: ten times the examples, randomized (each run explores new
  games) and saving failures in ``.hypothesis/`` so they are retried first:
  ``LOVELETTER_BUDGET=thorough .venv/bin/pytest -m budgeted``.

The health check ``too_slow`` is suppressed: whole games are slow to
generate by design.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis.database import DirectoryBasedExampleDatabase

import budget

_REPO = Path(__file__).resolve().parent.parent

settings.register_profile(
    "default",
    max_examples=100,
    deadline=None,
    derandomize=True,
    database=None,
    print_blob=False,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    max_examples=1000,
    deadline=None,
    derandomize=False,
    database=DirectoryBasedExampleDatabase(_REPO / ".hypothesis" / "examples"),
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or budget.PROFILE)


# --------------------------------------------------------------------------
# make test runs pytest on every core (pytest-xdist, ``--dist loadgroup``).

#: test files whose module-scoped fixtures are costly (a docs build, a wheel
#: built and installed, a replayed suite): each file runs
#: whole on one worker, so the fixture is built once
GROUPED_FILES = frozenset(
    {
        "tests/test_docs_site.py",
        "tests/test_wheel.py",
        "tests/test_docs_tutorial.py",
        "tests/test_docs_diagrams.py",
        "tests/test_cli_streams.py",
        "tests/properties/test_stateful.py",
        # checks that the grouping takes effect
        "tests/test_conftest_groups.py",
        # one local Ray instance, and two tests that must run before it starts
        "tests/test_ray.py",
    }
)

#: groups of files sharing something costly to build, each run whole on one
#: worker: the compiled simulator's functions (numba, about 35 CPU seconds
#: to compile on a fresh clone) are compiled by one worker and cached on
#: disk for the rest, instead of compiled by every worker at once
SHARED_GROUPS: dict[str, frozenset[str]] = {
    "numba-kernel": frozenset(
        {
            "tests/fast/test_adapter.py",
            "tests/fast/test_batch.py",
            "tests/fast/test_differential.py",
            "tests/fast/test_round_end.py",
            "tests/fast/test_scripts.py",
            "tests/fast/test_tables.py",
            "tests/test_fast_simulate.py",
            "tests/test_benchmark_script.py",
        }
    ),
}

#: the longest tests and groups, started first so that no worker is left with
#: a long one at the end (longest processing time first)
SLOW_FIRST = (
    "tests/test_docs_site.py",
    "tests/symbolic/test_crosshair.py",
    # ruff, mypy and the suite from the command line
    "tests/test_static_checks.py",
    # the numba-kernel group: its first tests compile the simulator
    "tests/fast/test_batch.py",
    "tests/properties/test_random_games.py",
    "tests/conformance/test_case_format.py",
    "tests/test_docs_tutorial.py",
    "tests/test_wheel.py",
    "tests/properties/test_evolve_events.py",
    "tests/conformance/test_differential.py",
)


def _searches(path: str) -> bool:
    """Whether the test's work follows the budget tier (``tests/budget.py``):
    the property tests (Hypothesis examples, random games, the state
    machines); CrossHair and the differential mark themselves."""
    return path.startswith("tests/properties/")


# before pytest-xdist's own hook, which reads the group markers
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    rank = {path: index for index, path in enumerate(SLOW_FIRST)}
    for item in items:
        path = item.nodeid.split("::")[0]
        if _searches(path):
            item.add_marker(pytest.mark.budgeted)
        if path in GROUPED_FILES:
            item.add_marker(pytest.mark.xdist_group(path))
        for group, paths in SHARED_GROUPS.items():
            if path in paths:
                item.add_marker(pytest.mark.xdist_group(group))
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))
