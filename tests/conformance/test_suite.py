"""The whole suite against our engine: in process, and through protocol v1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from loveletter.cli import main
from loveletter.conformance import SUITE_ROOT, Case, External, InProcess, run_case, run_suite
from loveletter.conformance.cases import CASE_FORMAT, CASE_FORMATS
from loveletter.conformance.protocol import PROTOCOL_VERSION
from loveletter.conformance.runner import format_outcome, suite_version

from ._support import ADAPTER, impl, schema_errors, suite


@pytest.mark.parametrize("case", suite(), ids=lambda case: case.name)
def test_case_passes_in_process(case: Case) -> None:
    outcome = run_case(case, InProcess())
    assert outcome.status == "passed", "\n".join(format_outcome(outcome))


def test_whole_suite_through_the_protocol_adapter() -> None:
    """Every case through ``python -m loveletter.conformance.adapter``, and
    every message either side sends valid against its JSON Schema."""
    messages: list[tuple[str, dict[str, Any]]] = []
    implementation = External(ADAPTER, log=lambda way, message: messages.append((way, message)))
    try:
        report = run_suite(suite(), implementation)
    finally:
        implementation.close()
    bad = [format_outcome(o) for o in report.outcomes if o.status != "passed"]
    assert not bad, bad
    assert report.count("passed") == len(suite())
    kinds = {message["type"] for _, message in messages}
    assert kinds >= {"start", "started", "run", "result", "stop"}
    for way, message in messages:
        errors = schema_errors(f"protocol-v1/{message['type']}.json", message)
        assert not errors, (way, message.get("seq"), errors[:3])


def test_suite_is_well_over_a_hundred_cases() -> None:
    by_ruleset: dict[str, int] = {}
    for case in suite():
        by_ruleset[case.ruleset] = by_ruleset.get(case.ruleset, 0) + 1
    assert sum(by_ruleset.values()) > 100
    assert by_ruleset.get("2019", 0) >= 50
    assert by_ruleset.get("2019-classic", 0) >= 20


def test_suite_yaml_names_the_formats_this_package_reads_and_speaks() -> None:
    data = yaml.safe_load((SUITE_ROOT / "suite.yaml").read_text(encoding="utf-8"))
    assert data["case_format"] == CASE_FORMAT == max(CASE_FORMATS)
    assert data["protocol"] == PROTOCOL_VERSION
    major, minor, _ = (int(part) for part in suite_version().split("."))
    # a case format that only adds to the one before is a minor release:
    # 1.1.0 read format 1.1, 1.2.0 format 1.2, 1.3.0 format 1.3; a release
    # of cases alone is one too (1.4.0 still writes format 1.3)
    assert major == 1 and minor >= round(CASE_FORMAT * 10) - 10
    assert max(case.data["format"] for case in suite()) == CASE_FORMAT


def test_cli_prints_each_case_and_the_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "report.json"
    status = main(["conformance", "run", "--run", "2019/baron/*", "--report", str(report)])
    out = capsys.readouterr().out.splitlines()
    assert status == 0
    chosen = [c for c in suite() if c.name.startswith("2019/baron/")]
    assert out[-1] == f"{len(chosen)} passed, 0 failed, 0 skipped"
    assert all(line.startswith("PASSED  2019/baron/") for line in out[:-1])
    data = json.loads(report.read_text())
    assert data["summary"] == {
        "cases": len(suite()),
        "passed": len(chosen),
        "failed": 0,
        "skipped": 0,
        "errored": 0,
        "not-applicable": 0,
        "start-not-reached": 0,
        "excluded": len(suite()) - len(chosen),
        "by_adapter": 0,
        "checks_run": data["summary"]["checks_run"],
        "checks_not_applicable": 0,
        "not_applicable_by_reason": {},
        "rejection_kind_mismatches": 0,
    }
    assert data["summary"]["checks_run"] >= len(chosen)
    run = {c["name"] for c in data["cases"] if c["status"] != "excluded"}
    assert run == {c.name for c in chosen}
    assert data["suite_version"].count(".") == 2


def test_cli_filters_by_ruleset_run_and_skip(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["conformance", "run", "-q", "--ruleset", "2019-classic", "--skip", "*/perft/*"])
    summary = capsys.readouterr().out.splitlines()[-1]
    expected = [c for c in suite() if c.ruleset == "2019-classic" and "/perft/" not in c.name]
    assert status == 0
    assert summary == f"{len(expected)} passed, 0 failed, 0 skipped"


def test_cli_fails_with_a_diff_against_a_broken_implementation(
    capsys: pytest.CaptureFixture[str],
) -> None:
    broken = impl("broken_adapter.py", "baron-tie-eliminates")
    status = main(["conformance", "run", "--run", "2019/baron/*", "--impl", broken])
    out = capsys.readouterr().out
    assert status == 1
    assert "FAILED  2019/baron/baron-tie-knocks-out-nobody" in out
    assert "rules: baron.tie-no-effect" in out
    # the diff: expected events kept, the extra knock-out shown as actual
    assert "+ PlayerEliminated {player: 0, reason: baron-comparison" in out
    assert " failed, 0 skipped" in out.splitlines()[-1]


def test_cli_rejects_an_unknown_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "run", "--ruleset", "1901"]) == 2
    assert "unknown ruleset '1901'" in capsys.readouterr().err


def test_cli_names_the_bad_case_and_exits_3(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "2019" / "guard" / "broken.yaml"
    bad.parent.mkdir(parents=True)
    bad.write_text("format: 1\nid: broken\ntitle: t\nrules: []\n")
    assert main(["conformance", "run", "--cases", str(tmp_path)]) == 3
    err = capsys.readouterr().err
    assert f"{bad}: case broken: rules: name at least one spec rule" in err


def test_cli_reports_an_implementation_that_cannot_start(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["conformance", "run", "--impl", "/nonexistent/adapter"]) == 3
    assert "cannot start '/nonexistent/adapter'" in capsys.readouterr().err
