"""Protocol v1: our adapter, and the runner facing implementations that
misbehave (each failure reported against the case, naming the message and
the field, and the run going on)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from typing import Any

import pytest

from loveletter.conformance import External, ProtocolError, run_suite, script_for
from loveletter.conformance.adapter import serve
from loveletter.conformance.vocabulary import CAPABILITIES

from ._support import ADAPTER, impl, schema_errors, suite


def _talk(*messages: dict[str, Any] | str) -> tuple[int, list[dict[str, Any]]]:
    lines = [m if isinstance(m, str) else json.dumps(m) for m in messages]
    out = io.StringIO()
    status = serve(io.StringIO("\n".join(lines) + "\n"), out)
    return status, [json.loads(line) for line in out.getvalue().splitlines()]


def _case(fragment: str) -> Any:
    return next(case for case in suite() if case.ruleset == "2019" and fragment in case.id)


def test_handshake_names_the_implementation_and_its_rulesets() -> None:
    status, replies = _talk({"type": "start", "protocol": 1}, {"type": "stop"})
    assert status == 0
    (started,) = replies
    assert started["type"] == "started" and started["protocol"] == 1
    assert started["implementation"]["name"] == "loveletter"
    assert set(started["rulesets"]) == {"2019", "2019-classic", "premium", "online"}
    # said outright, seeded-chance included: our time-outs are the suite's draws
    assert started["capabilities"] == list(CAPABILITIES)
    assert "seeded-chance" in started["capabilities"]
    assert schema_errors("protocol-v1/started.json", started) == []


def test_run_echoes_seq_and_reports_every_step() -> None:
    case = _case("baron-tie")
    script = script_for(case)
    status, replies = _talk(
        {"type": "start", "protocol": 1}, {"type": "run", "seq": 41, "case": script}
    )
    result = replies[1]
    assert (status, result["type"], result["seq"]) == (0, "result", 41)
    assert len(result["steps"]) == len(script["steps"])
    assert schema_errors("protocol-v1/result.json", result) == []


def test_run_without_a_script_is_errored_with_the_field() -> None:
    _, replies = _talk({"type": "run", "seq": 3, "case": {"ruleset": "2019"}})
    assert replies[0]["type"] == "errored" and replies[0]["seq"] == 3
    assert replies[0]["context"]["field"] == "case.players"


def test_unknown_ruleset_is_skipped_with_a_reason() -> None:
    script = {**script_for(_case("baron-tie")), "ruleset": "2032-deluxe"}
    _, replies = _talk({"type": "run", "seq": 1, "case": script})
    assert replies[0] == {"type": "skipped", "seq": 1, "reason": "unknown ruleset '2032-deluxe'"}


def test_impossible_start_is_reported_as_start_rejected() -> None:
    script = script_for(_case("baron-tie"))
    script["start"]["position"]["protected"] = [0]  # the current player
    _, replies = _talk({"type": "run", "seq": 1, "case": script})
    assert replies[0]["start_rejected"].startswith("start.position.protected")
    assert replies[0]["steps"] == []


def test_adapter_stops_on_an_unreadable_message() -> None:
    process = subprocess.run(
        [sys.executable, "-m", "loveletter.conformance.adapter"],
        input='{"type": "start", "protocol": 1}\nnot json\n',
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert process.returncode == 2
    assert "message 2" in process.stderr and "not a JSON line" in process.stderr
    assert json.loads(process.stdout.splitlines()[0])["type"] == "started"


def test_wrong_protocol_version_is_refused_by_the_adapter() -> None:
    process = subprocess.run(
        ADAPTER.split(),
        input='{"type": "start", "protocol": 2}\n',
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert process.returncode == 2 and "protocol" in process.stderr


def test_runner_refuses_an_implementation_speaking_another_protocol() -> None:
    with pytest.raises(ProtocolError) as raised:
        External(impl("fake_impls.py", "old-protocol"))
    assert (raised.value.message, raised.value.field) == ("handshake reply", "protocol")


TIE = "baron-tie-knocks-out-nobody"


def _run_two(kind: str, timeout: float = 60.0) -> dict[str, tuple[str, tuple[str, ...]]]:
    """Run the tie case (which the fake breaks on) and one ordinary case."""
    cases = [_case(TIE), next(c for c in suite() if c.name.startswith("2019/guard/"))]
    implementation = External(impl("fake_impls.py", kind), timeout=timeout)
    try:
        report = run_suite(cases, implementation)
    finally:
        implementation.close()
    return {o.case.id: (o.status, o.lines) for o in report.outcomes}


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("crash", "the implementation exited; its stderr ended with:\nfake implementation"),
        ("not-json", "not a JSON line"),
        ("wrong-seq", "seq: expected 1"),
        ("bad-step", "steps[0].events: expected a list"),
    ],
)
def test_misbehaving_implementation_errors_that_case_and_the_run_goes_on(
    kind: str, message: str
) -> None:
    outcomes = _run_two(kind)
    status, lines = outcomes[TIE]
    assert status == "errored"
    assert message in "\n".join(lines)
    others = [status for case_id, (status, _) in outcomes.items() if case_id != TIE]
    assert others == ["passed"]


def test_a_hanging_implementation_times_out() -> None:
    outcomes = _run_two("hang", timeout=2)
    assert outcomes[TIE][0] == "errored"
    assert "no reply within 2 s" in outcomes[TIE][1][0]


def test_skipped_by_the_implementation() -> None:
    assert _run_two("skip")[TIE] == ("skipped", ("no Barons here",))


def test_cases_of_unsupported_rulesets_are_skipped_without_being_sent() -> None:
    cases = [c for c in suite() if c.ruleset == "2019"][:3]
    implementation = External(impl("fake_impls.py", "classic-only"))
    try:
        report = run_suite(cases, implementation)
    finally:
        implementation.close()
    assert report.count("skipped") == 3
    assert report.summary() == "0 passed, 0 failed, 3 skipped"
    assert report.ok
