"""Hostile inputs: case files, command-line values and implementation
replies built to hang the runner, exhaust its memory, crash it or make it
pass having tested nothing. Each is a clear error naming the file, case and
field (or the protocol message and field), and the run goes on where it can."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from loveletter.cli import main
from loveletter.conformance import CaseError, External, load_case, run_suite
from loveletter.conformance.cases import MAX_DEPTH, MAX_FILE_BYTES
from loveletter.conformance.protocol import ProtocolError, decode

from ._support import CASES, impl, suite

TIE = "baron-tie-knocks-out-nobody"
TIE_FILE = CASES / "2019" / "baron" / f"{TIE}.yaml"
SUITE_ERROR, NOTHING_TESTED = 3, 4


# --------------------------------------------------------------------------
# case files


def _case_dir(tmp_path: Path, text: str | bytes, case_id: str = TIE) -> Path:
    """A directory of cases holding one file, ``2019/baron/<case_id>.yaml``."""
    path = tmp_path / "cases" / "2019" / "baron" / f"{case_id}.yaml"
    path.parent.mkdir(parents=True)
    if isinstance(text, str):
        text = text.encode("utf-8")
    path.write_bytes(text)
    return path


def _refused(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """Load the file directly and through the CLI; both refuse it, naming it."""
    with pytest.raises(CaseError) as raised:
        load_case(path)
    status = main(["conformance", "run", "--cases", str(path.parents[2])])
    captured = capsys.readouterr()
    assert status == SUITE_ERROR
    assert str(path) in captured.err and "Traceback" not in captured.err
    assert captured.out == ""  # refused at load time: nothing ran
    assert str(raised.value) in captured.err
    return str(raised.value)


def _tie_text() -> str:
    return TIE_FILE.read_text(encoding="utf-8")


BILLION_LAUGHS = """\
format: 1
id: baron-tie-knocks-out-nobody
a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]
h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]
i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]
"""


def test_no_case_uses_anchors_or_aliases() -> None:
    """Refusing them altogether costs the suite nothing."""
    assert suite()  # every case loaded with the refusing loader


def test_alias_bomb_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    message = _refused(_case_dir(tmp_path, BILLION_LAUGHS), capsys)
    assert f"case {TIE}: a: line 3: anchors and aliases" in message


def test_an_alias_alone_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = _tie_text().replace("players: 3", "players: &n 3\nplayers_again: *n")
    message = _refused(_case_dir(tmp_path, text), capsys)
    assert f"case {TIE}: players: line 6: anchors and aliases" in message


def test_file_over_the_size_limit_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _tie_text() + "description: " + "x" * MAX_FILE_BYTES + "\n"
    message = _refused(_case_dir(tmp_path, text), capsys)
    assert f"larger than the limit of {MAX_FILE_BYTES} bytes" in message


def test_nesting_deeper_than_the_limit_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = "[" * (MAX_DEPTH + 10) + "]" * (MAX_DEPTH + 10)
    text = _tie_text().replace("  - checks:", f"    note: {deep}\n  - checks:")
    message = _refused(_case_dir(tmp_path, text), capsys)
    assert f"case {TIE}: steps[0].note[0][0]" in message
    assert f"nested deeper than {MAX_DEPTH} levels" in message


def test_very_deep_nesting_is_refused_without_recursing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    message = _refused(_case_dir(tmp_path, f"format: 1\nid: {TIE}\nnote: {deep}\n"), capsys)
    assert "note[0]" in message and "nested deeper" in message


def test_non_utf8_bytes_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = _tie_text().encode("utf-8").replace(b"A Baron", b"A \xff\xfe Baron")
    message = _refused(_case_dir(tmp_path, text), capsys)
    assert f"case {TIE}: line 3: not UTF-8" in message


def test_a_key_given_twice_is_refused(tmp_path: Path) -> None:
    text = TIE_FILE.read_text(encoding="utf-8")
    text = text.replace("\nsteps:", "\nplayers: 4\nsteps:", 1)
    path = tmp_path / f"{TIE}.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CaseError, match=r"players: line \d+: the key 'players' is given twice"):
        load_case(path)


@pytest.mark.parametrize("digits", [5000, 1000, 20])
def test_integer_with_many_digits_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], digits: int
) -> None:
    text = _tie_text().replace("players: 3", f"players: {'9' * digits}")
    message = _refused(_case_dir(tmp_path, text), capsys)
    assert f"case {TIE}: players: " in message
    assert len(message) < 1000  # the number is not echoed


def test_huge_integer_deep_inside_names_its_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _tie_text().replace("perft: [18, 332]", f"perft: [18, {'3' * 5000}]")
    message = _refused(_case_dir(tmp_path, text), capsys)
    assert f"case {TIE}: steps[1].checks.perft[1]: an integer written with 5000" in message


@pytest.mark.parametrize("value", [".nan", ".inf", "2019-01-01", "!!binary aGVsbG8=", "!!set {a}"])
def test_values_that_are_not_plain_json_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    text = _tie_text().replace("  - checks:", f"    note: {value}\n  - checks:")
    message = _refused(_case_dir(tmp_path, text), capsys)
    assert f"case {TIE}: steps[0].note: expected " in message


def test_perft_deeper_than_the_limit_is_refused_at_load_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _tie_text().replace("perft: [18, 332]", "perft: [18, 332, 1, 1, 1, 1, 1]")
    message = _refused(_case_dir(tmp_path, text), capsys)
    assert f"case {TIE}: steps[1].checks.perft: perft to depth 7" in message


def test_a_fifo_named_like_a_case_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cases" / "2019" / "baron" / f"{TIE}.yaml"
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    assert "not a regular file" in _refused(path, capsys)


# --------------------------------------------------------------------------
# command-line values


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["conformance", "run", "--run", f"2019/baron/{TIE}", *args])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return status, captured.out, captured.err


@pytest.mark.parametrize("value", ["nan", "-1", "0", "inf", "-inf", "1e300"])
def test_bad_timeouts_are_refused(capsys: pytest.CaptureFixture[str], value: str) -> None:
    status, out, err = _cli(capsys, f"--timeout={value}")
    assert (status, out) == (SUITE_ERROR, "")
    assert "--timeout: expected a number of seconds above 0" in err


@pytest.mark.parametrize("value", ["", "   ", "'unbalanced"])
def test_an_empty_or_unsplittable_impl_is_refused(
    capsys: pytest.CaptureFixture[str], value: str
) -> None:
    status, out, err = _cli(capsys, "--impl", value)
    assert (status, out) == (SUITE_ERROR, "")
    assert "--impl" in err or "cannot start" in err


def test_a_report_in_a_missing_directory_is_refused_before_running(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "missing" / "report.json"
    status, out, err = _cli(capsys, "--report", str(report))
    assert (status, out) == (SUITE_ERROR, "")
    assert f"--report: the directory {report.parent} does not exist" in err


def test_a_report_that_is_a_directory_is_refused_before_running(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = _cli(capsys, "--report", str(tmp_path))
    assert (status, out) == (SUITE_ERROR, "")
    assert f"--report: {tmp_path} is a directory" in err


def test_a_report_under_a_file_is_refused_before_running(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "file").write_text("")
    status, out, err = _cli(capsys, "--report", str(tmp_path / "file" / "report.json"))
    assert (status, out) == (SUITE_ERROR, "")
    assert "does not exist" in err


# --------------------------------------------------------------------------
# runs that test nothing


def test_a_run_glob_matching_no_case_tests_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["conformance", "run", "--run", "2019/no-such-topic/*"])
    captured = capsys.readouterr()
    assert (status, captured.out) == (NOTHING_TESTED, "")
    assert "--run '2019/no-such-topic/*' matches no case" in captured.err
    assert "nothing to test" in captured.err


def test_an_implementation_without_the_needed_rulesets_tests_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    classic_only = impl("fake_impls.py", "classic-only")
    status = main(["conformance", "run", "--ruleset", "2019", "--impl", classic_only])
    captured = capsys.readouterr()
    assert (status, captured.out) == (NOTHING_TESTED, "")
    assert "declares no ruleset the selected cases need (they need 2019;" in captured.err


def test_every_case_skipped_tests_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "report.json"
    skipping = impl("fake_impls.py", "skip")
    status, out, err = _cli(capsys, "--impl", skipping, "--report", str(report))
    assert status == NOTHING_TESTED
    assert out.splitlines()[-1] == "0 passed, 0 failed, 1 skipped"
    assert "no case passed: every selected case was skipped, not applicable" in err
    assert report.exists()  # the report is still written


# --------------------------------------------------------------------------
# implementation replies


def _run_two(kind: str, *args: str, timeout: float = 60.0) -> dict[str, tuple[str, str]]:
    """Run the tie case (which the hostile implementation breaks on), then an
    ordinary case: the first errors, the second passes on a restarted
    implementation."""
    cases = [
        next(c for c in suite() if c.ruleset == "2019" and c.id == TIE),
        next(c for c in suite() if c.name.startswith("2019/guard/")),
    ]
    implementation = External(impl("hostile_impls.py", kind, *args), timeout=timeout)
    try:
        report = run_suite(cases, implementation)
    finally:
        implementation.close()
    return {o.case.id: (o.status, "\n".join(o.lines)) for o in report.outcomes}


def _errored_then_passed(outcomes: dict[str, tuple[str, str]]) -> str:
    status, message = outcomes[TIE]
    assert status == "errored", message
    others = [status for case_id, (status, _) in outcomes.items() if case_id != TIE]
    assert others == ["passed"]
    assert len(message) < 5000
    return message


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("long-line", "a reply line longer than the limit of 16777216 bytes"),
        ("endless-line", "a reply line longer than the limit of 16777216 bytes"),
        ("binary", "a reply line that is not UTF-8"),
        ("seen-by-int", "result seq 1: steps[0].seen_by: expected a list, not 5"),
        ("player-list", "result seq 1: steps[0].seen_by[0].player: expected a seat number"),
        ("rejected-list", "result seq 1: steps[0].rejected: unknown rejection kind"),
        ("state-list", "result seq 1: steps[1].observation.state: expected an object"),
        ("huge-seq", "reply to run seq 1: not a JSON line (an integer of 5000 digits"),
        ("deep", "reply to run seq 1: not a JSON line"),
        ("nan", "reply to run seq 1: not a JSON line (NaN is not JSON"),
    ],
)
def test_hostile_reply_errors_that_case_and_the_run_goes_on(kind: str, expected: str) -> None:
    assert expected in _errored_then_passed(_run_two(kind))


def test_a_300_mb_error_message_is_cut_to_its_tail() -> None:
    message = _errored_then_passed(_run_two("huge-stderr"))
    assert "the implementation exited; its stderr ended with:" in message
    assert message.rstrip().endswith("the last words")


def test_endless_blank_lines_time_out() -> None:
    message = _errored_then_passed(_run_two("endless-blank", timeout=2))
    assert "reply to run seq 1: no reply within 2 s" in message


def _gone(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")  # a zombie is dead


def test_a_timed_out_implementation_is_killed_with_its_process_group(tmp_path: Path) -> None:
    pidfile = tmp_path / "child.pid"
    message = _errored_then_passed(_run_two("hang", str(pidfile), timeout=2))
    assert "no reply within 2 s" in message
    child = int(pidfile.read_text())  # the restarted implementation's helper
    deadline = time.monotonic() + 10
    while not _gone(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _gone(child), "the implementation's helper process outlived it"


def test_the_cli_reports_a_hostile_implementation_without_a_traceback(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = _cli(capsys, "--impl", impl("hostile_impls.py", "binary"))
    assert status == 1
    assert f"ERRORED 2019/baron/{TIE}" in out and "not UTF-8" in out


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ('{"type": "result", "seq": ' + "1" * 5000 + "}", "an integer of 5000 digits"),
        ("[" * 100_000, "not a JSON line"),
        ('{"type": "result", "x": Infinity}', "Infinity is not JSON"),
        ('{"type": ' + "[" * 150 + "]" * 150 + "}", "type: missing or not a string"),
        ('{"type": "x", "a": ' + "[" * 150 + "]" * 150 + "}", "nested deeper than 100"),
    ],
)
def test_decode_bounds_what_it_accepts(line: str, expected: str) -> None:
    with pytest.raises(ProtocolError) as raised:
        decode(line, "reply")
    assert expected in str(raised.value)
    assert len(str(raised.value)) < 1000
