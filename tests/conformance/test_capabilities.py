"""Capabilities, not-applicable checks, --rejections any, pile order, outcome
checks (format 1.2) and the in-process time limit."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from loveletter.cli import main
from loveletter.conformance import CaseError, InProcess, run_case
from loveletter.conformance.cases import parse_case
from loveletter.conformance.checks import PILE_ORDER_RULE, Options
from loveletter.conformance.runner import script_for

from ._support import impl, suite

COMMANDS = "2019/commands/*"

#: 2019-classic, 2 players: Princess set aside, Handmaid, Handmaid, Countess
#: face up; seat 0 gets a Guard, seat 1 a Priest; seat 0 draws a Guard
GUARD_DECK = [
    "Princess", "Handmaid", "Handmaid", "Countess", "Guard", "Priest", "Guard",
    "Baron", "Guard", "Guard", "Guard", "Priest", "Baron", "Prince", "Prince", "King",
]  # fmt: skip
#: the same, but seat 0 holds a Priest and seat 1 a Guard
PRIEST_DECK = [
    "Princess", "Handmaid", "Handmaid", "Countess", "Priest", "Guard", "Guard",
    "Guard", "Guard", "Guard", "Priest", "Baron", "Baron", "Prince", "Prince", "King",
]  # fmt: skip


def _case(steps: list[dict[str, Any]], deck: list[str], fmt: float = 1.2) -> Any:
    data = {
        "format": fmt,
        "id": "scenario",
        "title": "A scenario told with outcome checks",
        "rules": ["guard.guess-correct"],
        "ruleset": "2019-classic",
        "players": 2,
        "start": {"deal": {"deck": deck}},
        "steps": steps,
    }
    return parse_case(data, "<string>")


GUARD_WINS: list[dict[str, Any]] = [
    {"checks": {"hand": {"player": 0, "cards": ["Guard", "Guard"]}, "round_over": False}},
    {
        "command": {
            "type": "PlayCard",
            "player": 0,
            "card": "Guard",
            "target": 1,
            "guess": "Priest",
        },
        "accepted": True,
    },
    {
        "checks": {
            "round_over": True,
            "round_winners": [0],
            "tokens": [1, 0],
            "out": [1],
            "hand": {"player": 0, "cards": ["Guard"]},
            "deck_size": 9,
            "top_card": "Baron",
        }
    },
]
PRIEST_LOOKS: list[dict[str, Any]] = [
    {"command": {"type": "PlayCard", "player": 0, "card": "Priest", "target": 1}, "accepted": True},
    {
        "checks": {
            "shown": {"player": 0, "sightings": [{"owner": 1, "card": "Guard", "via": "Priest"}]},
            "round_over": False,
        }
    },
]


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["conformance", "run", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


# outcome checks


def test_a_scenario_told_with_outcome_checks_passes() -> None:
    for steps, deck in ((GUARD_WINS, GUARD_DECK), (PRIEST_LOOKS, PRIEST_DECK)):
        outcome = run_case(_case(steps, deck), InProcess())
        assert outcome.status == "passed", outcome.lines
        assert outcome.checks_run == sum(len(s["checks"]) if "checks" in s else 1 for s in steps)


@pytest.mark.parametrize(
    ("key", "wrong"),
    [
        ("round_over", False),
        ("round_winners", [1]),
        ("tokens", [0, 1]),
        ("out", []),
        ("hand", {"player": 0, "cards": ["Priest"]}),
        ("deck_size", 8),
        ("top_card", "Guard"),
    ],
)
def test_each_outcome_check_can_fail(key: str, wrong: Any) -> None:
    steps = json.loads(json.dumps(GUARD_WINS))
    steps[2]["checks"][key] = wrong
    outcome = run_case(_case(steps, GUARD_DECK), InProcess())
    assert outcome.status == "failed"
    assert any(key in line for line in outcome.lines), outcome.lines


def test_what_a_player_was_shown_can_fail() -> None:
    steps = json.loads(json.dumps(PRIEST_LOOKS))
    steps[1]["checks"]["shown"]["sightings"][0]["card"] = "Priest"
    outcome = run_case(_case(steps, PRIEST_DECK), InProcess())
    assert outcome.status == "failed"
    assert "shown to player 0" in outcome.lines[0]


def test_a_hand_is_compared_in_any_order() -> None:
    steps = [{"checks": {"hand": {"player": 0, "cards": ["Guard", "Priest"]}}}]
    deck = [*PRIEST_DECK[:5], "Guard", *PRIEST_DECK[6:]]
    assert run_case(_case(steps, PRIEST_DECK), InProcess()).status == "passed"
    assert run_case(_case(steps, deck), InProcess()).status == "passed"
    steps[0]["checks"]["hand"]["cards"] = ["Priest", "Priest"]
    assert run_case(_case(steps, deck), InProcess()).status == "failed"


def test_an_accepted_step_fails_when_the_command_is_refused() -> None:
    steps = [{"command": {"type": "PlayCard", "player": 1, "card": "Priest"}, "accepted": True}]
    outcome = run_case(_case(steps, GUARD_DECK), InProcess())
    assert outcome.status == "failed"
    assert "expected acceptance, but rejected as not-your-turn" in outcome.lines[0]


def test_format_1_2_additions_need_format_1_2() -> None:
    with pytest.raises(CaseError, match=r"steps\[0\]\.accepted: an accepted step needs format"):
        _case(GUARD_WINS[1:2], GUARD_DECK, fmt=1.1)
    with pytest.raises(CaseError, match=r"checks\.shown: outcome checks need format"):
        _case([PRIEST_LOOKS[1]], PRIEST_DECK, fmt=1)


def test_accepted_must_be_true_and_exclusive() -> None:
    play = {"type": "PlayCard", "player": 0, "card": "Priest", "target": 1}
    with pytest.raises(CaseError, match="write accepted: true"):
        _case([{"command": play, "accepted": False}], PRIEST_DECK)
    with pytest.raises(CaseError, match="exactly one of events, accepted or rejected"):
        _case([{"command": play, "accepted": True, "events": []}], PRIEST_DECK)


# capabilities and not-applicable checks


def test_checks_an_implementation_cannot_answer_are_not_applicable() -> None:
    only_events = frozenset({"events"})
    outcome = run_case(
        _case(GUARD_WINS, GUARD_DECK),
        InProcess(capabilities=only_events),
        Options(capabilities=only_events),
    )
    # the command was judged (accepted), but an implementation accepting
    # every command passes that: with every state check not applicable,
    # nothing a wrong outcome could fail ran, so the case is not a pass
    assert outcome.status == "not-applicable"
    assert outcome.reason is not None and "a wrong outcome could fail" in outcome.reason
    assert outcome.checks_run == 1
    assert len(outcome.not_applicable) == 2 + 7
    assert all(line.endswith("needs capability state") for line in outcome.not_applicable)
    views_only = _case(PRIEST_LOOKS[1:], PRIEST_DECK)
    outcome = run_case(views_only, InProcess(capabilities=only_events), Options(only_events))
    assert outcome.status == "not-applicable"
    assert outcome.checks_run == 0


def test_a_position_without_a_replay_start_is_not_applicable() -> None:
    case = next(c for c in suite() if "position" in c.data["start"] and not c.start_rejected)
    no_positions = frozenset({"events", "state"})
    outcome = run_case(case, InProcess(capabilities=no_positions), Options(no_positions), {})
    assert outcome.status == "not-applicable"
    assert outcome.not_applicable == (
        "the whole case: no replay start for this case; needs capability positions",
    )


@pytest.mark.parametrize(
    ("kind", "field"),
    [
        ("unknown-capability", "capabilities[1]"),
        ("capabilities-not-a-list", "capabilities"),
        ("unknown-ruleset", "rulesets[1]"),
    ],
)
def test_a_handshake_with_bad_capabilities_is_refused(
    capsys: pytest.CaptureFixture[str], kind: str, field: str
) -> None:
    status, _, err = _run(capsys, "--impl", impl("fake_impls.py", kind), "--run", COMMANDS)
    assert status == 3
    assert f"handshake reply: {field}" in err


def test_without_rejection_kinds_any_refusal_counts_and_kinds_are_not_applicable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "report.json"
    minimal = impl("minimal_adapter.py")
    status, out, _ = _run(
        capsys, "--impl", minimal, "--ruleset", "2019-classic", "--report", str(report)
    )
    assert status == 0
    data = json.loads(report.read_text(encoding="utf-8"))
    refusals = sum(
        1
        for case in suite()
        if case.ruleset == "2019-classic"
        and "deal" in case.data["start"]  # positions need replay starts
        for step in case.data["steps"]
        if "rejected" in step
    )
    assert refusals > 0
    by_reason = data["summary"]["not_applicable_by_reason"]
    assert by_reason["needs capability rejection-kinds"] >= refusals
    assert "NOT APPLICABLE" in out


@pytest.mark.parametrize(("kind", "shown"), [("long-refusal", "'xxx"), ("numeric-refusal", "7")])
def test_a_refusal_without_kinds_is_still_a_short_string(
    capsys: pytest.CaptureFixture[str], kind: str, shown: str
) -> None:
    status, out, _ = _run(
        capsys, "--impl", impl("fake_impls.py", kind), "--ruleset", "2019-classic", "-q"
    )
    assert status == 1
    assert ".rejected: expected a refusal of 1 to 200 characters, not " + shown in out


# --rejections any


def test_a_wrong_kind_fails_unless_rejections_any_lists_it_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wrong = impl("fake_impls.py", "wrong-kind")
    status, out, _ = _run(capsys, "--impl", wrong, "--run", COMMANDS, "-q")
    assert status == 1
    assert "expected rejection" in out
    report = tmp_path / "report.json"
    status, out, _ = _run(
        capsys, "--impl", wrong, "--run", COMMANDS, "--rejections", "any", "--report", str(report)
    )
    assert status == 0
    expected = sum(
        1
        for case in suite()
        if case.name.startswith("2019/commands/")
        for step in case.data["steps"]
        if "rejected" in step
    )
    mismatches = [line for line in out.splitlines() if line.startswith("REJECTION KIND ")]
    assert len(mismatches) == expected
    assert out.splitlines()[-1].endswith(f"; rejection kinds: {expected} differ")
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["rejections"] == "any"
    assert data["summary"]["rejection_kind_mismatches"] == expected
    assert data["summary"]["failed"] == 0


# pile order


def test_an_engine_ordering_piles_the_other_way_fails_only_cases_about_pile_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = tmp_path / "report.json"
    reversed_piles = impl("fake_impls.py", "reversed-piles")
    status, _, _ = _run(
        capsys, "--impl", reversed_piles, "--ruleset", "2019", "-q", "--report", str(report)
    )
    assert status == 1
    data = json.loads(report.read_text(encoding="utf-8"))
    failed = {c["name"] for c in data["cases"] if c["status"] == "failed"}
    about_order = {c.name for c in suite() if PILE_ORDER_RULE in c.rules}
    assert failed
    assert failed <= about_order


# the in-process time limit


def test_a_case_past_the_time_limit_in_process_errors() -> None:
    def slow(script: dict[str, Any]) -> dict[str, Any]:
        time.sleep(5)
        return {}

    case = _case(GUARD_WINS, GUARD_DECK)
    started = time.monotonic()
    reply = InProcess(executor=slow, timeout=0.2).run(script_for(case))
    assert time.monotonic() - started < 2
    assert reply.status == "errored"
    assert reply.data["message"] == "no result within 0.2 s"
