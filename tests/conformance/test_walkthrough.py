"""The walkthrough: an engine that is not built like ours adopts the suite.

``minimal_adapter.py`` offers only a new game from a stacked deal, play,
legal commands and the state; it refuses with one generic error. Run
against the whole suite it must pass every check it can answer, fail none,
and the report must say exactly which checks were not applicable and why:
counted here again, independently, from the case files themselves.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from loveletter.cli import main
from loveletter.conformance import SUITE_ROOT, Case
from loveletter.conformance.starts import load_replays
from loveletter.conformance.vocabulary import CAPABILITIES

from ._support import impl, suite
from .minimal_adapter import CAPABILITIES as OFFERED

NEEDS = "needs capability "


def expected_not_applicable(case: Case, replayed: set[str]) -> Counter[str]:
    """The checks of ``case`` the minimal engine cannot answer, by reason."""
    start = case.data["start"]
    deal = start.get("deal", {})
    if "position" in start or "tokens" in deal or "round_number" in deal:
        if case.start_rejected:
            return Counter({"a start the rules refuse, needs capability positions": 1})
        if case.name not in replayed:
            return Counter({"no replay start for this case; needs capability positions": 1})
    missing: Counter[str] = Counter()
    steps = case.data["steps"]
    if start.get("position", {}).get("drawn") is False:
        # the replay start ends after the position's draw
        draws = [
            i
            for i, s in enumerate(steps)
            if s.get("command", {}).get("type") == "DrawCard" and "rejected" not in s
        ]
        if not draws:
            reason = "about the moment before a draw, which play never rests at; "
            return Counter({reason + "needs capability positions": 1})
        missing["before the draw the replay start ends with"] += draws[0] + 1
        steps = steps[draws[0] + 1 :]
    for step in steps:
        if "rejected" in step:
            missing[NEEDS + "rejection-kinds"] += 1
        missing[NEEDS + "redacted-events"] += len(step.get("seen_by", ()))
        checks = step.get("checks", {})
        # a view is one check per key it lists and one that it holds only
        # the fields a view has; `shown` is one check
        views = checks.get("views", ())
        missing[NEEDS + "views"] += sum(len(v) for v in views) + ("shown" in checks)
        missing[NEEDS + "perft"] += "perft" in checks
    return +missing


def test_the_minimal_engine_passes_every_check_it_can_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert set(OFFERED) < set(CAPABILITIES)
    report = tmp_path / "report.json"
    status = main(["conformance", "run", "-q", "--impl", impl("minimal_adapter.py"), "--report", str(report)])  # fmt: skip # noqa: E501
    out = capsys.readouterr().out
    assert status == 0, out[-3000:]
    data = json.loads(report.read_text(encoding="utf-8"))
    summary = data["summary"]
    cases = suite()
    assert summary["failed"] == summary["errored"] == summary["skipped"] == 0
    assert summary["passed"] + summary["not-applicable"] == len(cases)
    assert data["implementation"]["capabilities"] == sorted(OFFERED)

    replays = load_replays(SUITE_ROOT / "replays")
    expected: Counter[str] = Counter()
    for case in cases:
        expected += expected_not_applicable(case, set(replays))
    assert summary["not_applicable_by_reason"] == dict(expected)
    assert summary["checks_not_applicable"] == sum(expected.values())
    # what the console says matches the report
    missing = sorted(set(CAPABILITIES) - set(OFFERED))
    assert f"the implementation does not offer: {', '.join(missing)}" in out
    for reason, count in expected.items():
        assert f"NOT APPLICABLE: {count} checks ({reason})" in out
    # a case passes only when a check a wrong outcome could fail ran; one
    # whose only checks run were acceptances is not applicable, and says so
    for entry in data["cases"]:
        assert entry["status"] in ("passed", "not-applicable"), entry["name"]
        if entry["status"] == "not-applicable" and entry["checks_run"]:
            assert "a wrong outcome could fail" in entry["reason"], entry["name"]
