"""The benchmark script still runs (it is measured by hand, never timed here)."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "random_rounds.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("random_rounds", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("random_rounds", module)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("ruleset", ["2019-classic", "online"])
@pytest.mark.parametrize("events", [False, True])
def test_benchmark_workload_plays_whole_rounds(ruleset: str, events: bool) -> None:
    rounds, turns, elapsed = _script().run(ruleset, 4, 30, seed=3, events=events)
    assert rounds == 30
    assert turns >= 30 * 2  # every round has at least two turns
    assert elapsed > 0


def test_the_default_run_measures_online_beside_premium(capsys: pytest.CaptureFixture[str]) -> None:
    """``make bench``: the online edition at 4 players, in the same run as
    Premium at 4 (a few rounds each, so only the lines are checked)."""
    _script().main(["--rounds", "20", "--repeat", "1"])
    out = capsys.readouterr().out
    rows = re.findall(r"^  (\S+), (\d) players +[\d,]+ rounds/s +[\d,]+ turns/s", out, re.M)
    assert ("premium", "4") in rows and ("online", "4") in rows, out
