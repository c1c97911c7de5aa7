"""The runner's tools for implementers: --trace, --xfail, the report's
implementation and suite version, and skip reasons on the console."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from loveletter import __version__
from loveletter.cli import main
from loveletter.conformance.cli import NOTHING_TESTED
from loveletter.conformance.runner import suite_version
from loveletter.conformance.vocabulary import CAPABILITIES

from ._support import ADAPTER, impl, suite
from .fake_impls import TRIGGER

BARON = "2019/baron/*"


def _trigger() -> str:
    """The 2019 case the fake implementations misbehave on."""
    (name,) = [c.name for c in suite() if c.id == TRIGGER and c.ruleset == "2019"]
    return name


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["conformance", "run", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _xfail_file(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "xfail.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# --trace


def test_trace_records_every_line_both_ways(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = tmp_path / "trace.jsonl"
    status, out, _ = _run(capsys, "--impl", ADAPTER, "--run", BARON, "--trace", str(trace), "-q")
    assert status == 0
    records = [json.loads(line) for line in trace.read_text(encoding="utf-8").splitlines()]
    assert all(set(r) == {"to", "line"} and r["to"] in ("impl", "runner") for r in records)
    messages = [(r["to"], json.loads(r["line"])["type"]) for r in records]
    runs = int(out.split()[0])
    assert messages[:2] == [("impl", "start"), ("runner", "started")]
    assert messages[-1] == ("impl", "stop")
    assert messages.count(("impl", "run")) == runs
    assert len(messages) == 3 + 2 * runs


def test_trace_keeps_a_line_that_is_not_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    trace = tmp_path / "trace.jsonl"
    command = impl("fake_impls.py", "not-json")
    status, _, _ = _run(capsys, "--impl", command, "--run", BARON, "--trace", str(trace))
    assert status == 1
    records = [json.loads(line) for line in trace.read_text(encoding="utf-8").splitlines()]
    assert {"to": "runner", "line": "this is not json"} in records


@pytest.mark.parametrize("where", ["dir", "missing-dir"])
def test_a_bad_trace_path_is_refused_before_running(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    path = tmp_path if where == "dir" else tmp_path / "nowhere" / "trace.jsonl"
    status, out, err = _run(capsys, "--impl", ADAPTER, "--trace", str(path))
    assert status == 3
    assert "--trace" in err
    assert out == ""


def test_trace_and_report_must_differ(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(tmp_path / "same.json")
    status, _, err = _run(capsys, "--trace", path, "--report", path)
    assert status == 3
    assert "same file" in err


# --xfail


def test_a_listed_failure_is_xfailed_and_does_not_fail_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    xfail = _xfail_file(tmp_path, "# known to crash", "", f"{_trigger()}  # the Baron tie")
    command = impl("fake_impls.py", "crash")
    status, out, _ = _run(capsys, "--impl", command, "--run", BARON, "--xfail", str(xfail))
    assert status == 0
    assert f"XFAIL   {_trigger()} (errored)" in out
    summary = out.splitlines()[-1]
    assert summary.endswith(" failed, 0 skipped, 1 xfailed, 0 xpassed")
    assert " 0 failed" in summary


def test_a_run_whose_only_cases_are_expected_failures_tested_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An implementation failing every case it runs, each listed in the
    xfail file, passed nothing: the run is not a pass."""
    xfail = _xfail_file(tmp_path, _trigger())
    command = impl("fake_impls.py", "crash")
    status, out, err = _run(capsys, "--impl", command, "--run", _trigger(), "--xfail", str(xfail))
    assert status == NOTHING_TESTED
    assert out.splitlines()[-1].startswith("0 passed, 0 failed, 0 skipped, 1 xfailed")
    assert "no case passed" in err


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_an_xfail_list_that_is_not_a_regular_file_is_refused_unread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    """Bounded as case files are: a named pipe would hang the run, /dev/zero
    fill its memory."""
    path = tmp_path / "xfail.txt"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path = Path("/dev/zero")
    status, out, err = _run(capsys, "--run", BARON, "--xfail", str(path))
    assert (status, out) == (3, "")
    assert "not a regular file" in err


def test_a_listed_pass_is_xpassed_and_fails_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    xfail = _xfail_file(tmp_path, _trigger())
    report = tmp_path / "report.json"
    status, out, _ = _run(
        capsys, "--run", BARON, "--xfail", str(xfail), "--report", str(report), "-q"
    )
    assert status == 1
    assert f"XPASS   {_trigger()}" in out
    assert out.splitlines()[-1].endswith(", 0 failed, 0 skipped, 0 xfailed, 1 xpassed")
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["summary"]["xpassed"] == 1
    assert data["xfail"] == {_trigger(): ""}
    (case,) = [c for c in data["cases"] if c["name"] == _trigger()]
    assert case["status"] == "xpassed" and case["xfail"] is True


def test_an_unlisted_failure_still_fails_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    xfail = _xfail_file(tmp_path, "# nothing listed")
    command = impl("fake_impls.py", "crash")
    status, out, _ = _run(capsys, "--impl", command, "--run", BARON, "--xfail", str(xfail))
    assert status == 1
    assert out.splitlines()[-1].endswith(
        " 1 failed, 0 skipped, 0 xfailed, 0 xpassed (1 of the failures errored)"
    )


def test_without_xfail_the_summary_is_unchanged(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "--run", BARON, "-q")
    assert status == 0
    assert out.splitlines()[-1].endswith(" passed, 0 failed, 0 skipped")


@pytest.mark.parametrize("entry", ["2019/baron/no-such-case", "baron-tie-knocks-out-nobody"])
def test_an_xfail_entry_naming_no_case_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], entry: str
) -> None:
    xfail = _xfail_file(tmp_path, "# first line", entry)
    status, out, err = _run(capsys, "--xfail", str(xfail))
    assert status == 3
    assert "line 2" in err and "names no case" in err
    assert out == ""


def test_an_unreadable_xfail_file_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = _run(capsys, "--xfail", str(tmp_path / "missing.txt"))
    assert status == 3
    assert "--xfail" in err


# the report


def test_report_records_the_handshake_and_suite_version(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "report.json"
    status, _, _ = _run(capsys, "--impl", ADAPTER, "--run", BARON, "--report", str(report), "-q")
    assert status == 0
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["implementation"] == {
        "name": "loveletter",
        "version": __version__,
        "language": "python",
        "command": ADAPTER,
        "capabilities": sorted(CAPABILITIES),
    }
    assert data["suite_version"] == suite_version()
    assert data["xfail"] is None
    assert set(data["summary"]) == {
        "passed",
        "failed",
        "skipped",
        "errored",
        "not-applicable",
        "start-not-reached",
        "excluded",
        "cases",
        "by_adapter",
        "checks_run",
        "checks_not_applicable",
        "not_applicable_by_reason",
        "rejection_kind_mismatches",
    }
    assert data["report_format"] == 2
    # every case of the suite is listed: the one run, the rest excluded
    assert data["summary"]["cases"] == len(data["cases"]) == len(suite())
    assert data["summary"]["passed"] + data["summary"]["excluded"] == len(suite())


def test_report_in_process_names_our_engine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "report.json"
    status, _, _ = _run(capsys, "--run", BARON, "--report", str(report), "-q")
    assert status == 0
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["implementation"]["name"] == "loveletter"
    assert data["implementation"]["version"] == __version__
    assert data["implementation"]["command"] is None


# skip reasons


def test_a_skipped_case_shows_its_reason(capsys: pytest.CaptureFixture[str]) -> None:
    command = impl("fake_impls.py", "skip")
    status, out, _ = _run(capsys, "--impl", command, "--run", BARON)
    assert status == 0
    assert f"SKIPPED {_trigger()}: no Barons here" in out.splitlines()


def test_quiet_shows_skips_briefly(capsys: pytest.CaptureFixture[str]) -> None:
    command = impl("fake_impls.py", "skip")
    status, out, _ = _run(capsys, "--impl", command, "--run", BARON, "-q")
    assert status == 0
    lines = out.splitlines()
    assert lines == [f"SKIPPED {_trigger()}: no Barons here", lines[-1]]
    assert lines[-1].endswith(" 0 failed, 1 skipped")


def test_quiet_groups_skips_by_reason(capsys: pytest.CaptureFixture[str]) -> None:
    command = impl("fake_impls.py", "classic-only")
    status, out, _ = _run(
        capsys,
        "--impl",
        command,
        "--run",
        "*/baron/*",
        "--skip",
        "online/*",  # one reason only: 2019 is the one ruleset left unsupported
        "-q",
    )
    assert status == 0
    skipped = [line for line in out.splitlines() if line.startswith("SKIPPED")]
    assert len(skipped) == 1
    assert "cases (2019/baron/" in skipped[0]
    assert skipped[0].endswith(": the implementation does not support ruleset 2019")
