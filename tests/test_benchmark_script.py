"""The benchmark script still runs (it is measured by hand, never timed here)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "random_rounds.py"


@pytest.mark.parametrize("events", [False, True])
def test_benchmark_workload_plays_whole_rounds(events: bool) -> None:
    spec = importlib.util.spec_from_file_location("random_rounds", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("random_rounds", module)
    spec.loader.exec_module(module)
    rounds, turns, elapsed = module.run("2019-classic", 4, 30, seed=3, events=events)
    assert rounds == 30
    assert turns >= 30 * 2  # every round has at least two turns
    assert elapsed > 0
