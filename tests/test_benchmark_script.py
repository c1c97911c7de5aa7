"""The benchmark script still runs and prints every figure (it is measured
by hand, never timed here: the budgets below are tiny on purpose)."""

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


@pytest.mark.parametrize(
    ("ruleset", "players"), [("2019-classic", 4), ("2019", 6), ("premium", 8), ("online", 8)]
)
def test_the_floor_plays_the_same_workload(ruleset: str, players: int) -> None:
    rounds, turns, elapsed = _script().run_floor(ruleset, players, 30, seed=3)
    assert rounds == 30 and turns >= 30 * 2 and elapsed > 0


def test_a_budget_in_seconds_plays_whole_rounds() -> None:
    script = _script()
    for engine in ("reference", "floor"):
        rounds, turns, _ = script.measure(engine, "premium", 5, 0, seed=3, seconds=0.01)
        assert rounds >= 1 and turns >= 2 * rounds


def test_make_bench_prints_every_row(capsys: pytest.CaptureFixture[str]) -> None:
    """``make bench``, with a tiny budget: every edition and player count
    with push, step and the floor, the targets, the fast simulator's lines
    (or why there are none), the per-call costs, memory and replay."""
    script = _script()
    script.main(["--seconds", "0.01", "--repeat", "1"])
    out = capsys.readouterr().out
    number = r"[\d,]+"
    rows = re.findall(
        rf"^(\S+) +(\d) +({number}|-) +({number}|-) +{number} +{number} +([\d.]+|-)"
        rf" +{number} +{number} +([\d.]+|-)$",
        out,
        re.M,
    )
    assert [(r, int(n)) for r, n, *_ in rows] == list(script.WORKLOADS), out
    for _, _, base, _, push, step in rows:  # the floor plays every edition
        assert "-" not in (base, push, step), out
    assert re.search(r"^targets \(the two workloads again, about 0.03 s per run", out, re.M)
    assert re.search(r"^2019-classic 4, turns/s over the floor's: push [\d.]+ \(target", out, re.M)
    assert re.search(r"^premium 8 per turn over 2019-classic 4's: push [\d.]+ \(target", out, re.M)
    fast = re.search(r"^fast simulator \(loveletter\.fast.*", out, re.M)
    assert fast is not None, out
    if ": not " not in fast.group(0):  # installed: its lines follow
        assert re.search(r"^  premium, 8 players +[\d,]+ rounds/s", out, re.M), out
    for call in (
        "legal_commands",
        "decide",
        "push",
        "step",
        "view",
        "events_for",
        "dumps",
        "loads",
        "evolve",
    ):
        assert re.search(rf"^  {call}\(.*?\) +[\d.]+ +[\d.]+$", out, re.M), (call, out)
    assert len(re.findall(r"^  \S+ \d +[\d,]+ bytes per state \(\d+ states\)$", out, re.M)) == 2
    assert re.search(r"^replay of a long record .*: [\d.]+ microseconds per event$", out, re.M)


def test_one_workload_through_one_engine(capsys: pytest.CaptureFixture[str]) -> None:
    script = _script()
    script.main(["--ruleset", "premium", "--players", "6", "--engine", "floor", "--rounds", "5"])
    out = capsys.readouterr().out
    assert "engine        floor" in out
    assert re.search(r"^rounds/s +[\d,]+ \(median of 3\)$", out, re.M), out
    assert re.search(r"^turns/s +[\d,]+$", out, re.M), out


def test_the_fast_engine_missing_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hook for ``loveletter.fast``: not installed, it says so and stops."""
    monkeypatch.setitem(sys.modules, "loveletter.fast", None)  # import fails
    with pytest.raises(SystemExit) as stopped:
        _script().main(["--ruleset", "premium", "--players", "8", "--engine", "fast"])
    assert stopped.value.code == 1
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and out[0].startswith("fast engine: not installed"), out


def test_the_floor_plays_online_rows(capsys: pytest.CaptureFixture[str]) -> None:
    _script().main(["--ruleset", "online", "--players", "4", "--engine", "floor", "--rounds", "5"])
    out = capsys.readouterr().out
    assert "engine        floor" in out and "workload      online, 4 players" in out, out
