"""Suite 1.4's verdicts (issue 24): nothing checked is not a pass, a replay
start is held to the case's start and a departure from it is its own
status, failures roll up by rule, refusals are atomic, ``try`` rebuilds
legal commands, adapter-decided refusals are counted apart."""

from __future__ import annotations

import copy
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from loveletter.cli import main
from loveletter.conformance import SUITE_ROOT, InProcess, run_case, run_suite
from loveletter.conformance.cases import parse_players, select
from loveletter.conformance.checks import EVERYTHING, Options, plan
from loveletter.conformance.execute import execute
from loveletter.conformance.protocol import ProtocolError, check_reply
from loveletter.conformance.starts import load_replays

from ._support import impl, suite

JSON = Any
REPLAYS = SUITE_ROOT / "replays"


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str], str]:
    status = main(["conformance", "run", *args])
    captured = capsys.readouterr()
    return status, captured.out.splitlines(), captured.err


# --------------------------------------------------------------------------
# nothing checked is not a pass


def test_an_adapter_that_does_nothing_passes_no_case(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """It accepts every command and answers nothing: every case it meets
    is failed (a refusal it did not make) or not applicable, none passed."""
    report = tmp_path / "report.json"
    status, out, _ = _run(
        capsys, "-q", "--impl", impl("do_nothing_adapter.py"), "--report", str(report)
    )
    data = json.loads(report.read_text(encoding="utf-8"))
    assert status == 1
    assert out[-1].startswith("0 passed, ")
    assert data["summary"]["passed"] == 0
    assert data["summary"]["failed"] > 0 and data["summary"]["not-applicable"] > 0
    reasons = Counter(c["reason"] for c in data["cases"] if c["status"] == "not-applicable")
    only_accepted = [r for r in reasons if r and "a wrong outcome could fail" in r]
    assert only_accepted, "the cases it used to pass are now not applicable, and say why"


def _with_and_without(capability: str) -> list[tuple[str, int, int, int]]:
    """Each case run in process with everything, and without ``capability``:
    (name, checks run with it, checks run without, checks the second run
    lists as needing it)."""
    rows = []
    less = EVERYTHING - {capability}
    for case in suite():
        full = run_case(case, InProcess(), Options(EVERYTHING))
        part = run_case(case, InProcess(capabilities=less), Options(less))
        needing = sum(
            1 for line in part.not_applicable if line.endswith(f"capability {capability}")
        )
        rows.append((case.name, full.checks_run, part.checks_run, needing))
    return rows


@pytest.mark.parametrize("capability", ["events", "redacted-events", "views"])
def test_a_check_means_the_same_with_and_without_a_capability(capability: str) -> None:
    """A check is one expectation against one answer: taking a capability
    away turns exactly the checks that need it into not-applicable ones, and
    leaves the others (acceptance included) counted as before."""
    rows = _with_and_without(capability)
    wrong = [row for row in rows if row[1] != row[2] + row[3]]
    assert not wrong, wrong[:5]
    assert sum(row[3] for row in rows) > 0


# --------------------------------------------------------------------------
# one bug, one line; start not reached


def _has_princess_play(commands: tuple[JSON, ...]) -> bool:
    return any(c.get("type") == "PlayCard" and c.get("card") == "Princess" for c in commands)


def test_an_early_bug_reads_as_one_line_and_its_cascades_as_start_not_reached(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A played Princess knocks no one out, in an engine without positions:
    the cases about it fail, rolled up under the Princess's rule on one
    line, and exactly the cases whose replay start plays a Princess are
    "start not reached", named at that play, rolled up on one line too."""
    report = tmp_path / "report.json"
    command = impl("broken_adapter.py", "princess-play-harmless", "positions")
    status, out, _ = _run(
        capsys, "-q", "--ruleset", "2019", "--impl", command, "--report", str(report)
    )
    assert status == 1
    data = json.loads(report.read_text(encoding="utf-8"))
    princess = "princess.eliminated-when-played-or-discarded"
    failed = [line.split(":")[0] for line in out if line.startswith("FAILED BY RULE ")]
    assert failed[0] == f"FAILED BY RULE {princess}"
    unreached = [line.split(":")[0] for line in out if line.startswith("START NOT REACHED")]
    assert unreached == [f"START NOT REACHED BY RULE {princess}"]
    # every case that failed is about the Princess or plays one itself (a
    # case citing other rules is rolled up under those); a perft walks every
    # line of play, the Princess's among them, through push: an engine whose
    # push and step both follow its broken rules fails it too
    by_name = {case.name: case for case in suite()}
    for entry in data["cases"]:
        if entry["status"] == "failed":
            case = by_name[entry["name"]]
            steps = tuple(step.get("command", {}) for step in case.data["steps"])
            walks = any("perft" in step.get("checks", {}) for step in case.data["steps"])
            assert princess in case.rules or _has_princess_play(steps) or walks, entry["name"]
    replays = load_replays(REPLAYS)
    declared = Options(EVERYTHING - {"positions"})
    expected = {
        case.name
        for case in suite()
        if case.ruleset == "2019"
        and case.name in replays
        and plan(case, declared, replays).script is not None
        and _has_princess_play(replays[case.name].commands)
    }
    missed = {c["name"]: c for c in data["cases"] if c["status"] == "start-not-reached"}
    assert set(missed) == expected and expected
    for case in missed.values():
        assert case["start_not_reached"]["command"]["card"] == "Princess"
        assert princess in case["start_not_reached"]["rules"]
    assert data["start_not_reached_by_rule"] == [{"rule": princess, "cases": sorted(expected)}]
    assert f"{len(expected)} start not reached" in out[-1]


def _replayed(case_name: str) -> tuple[Any, Any]:
    case = next(c for c in suite() if c.name == case_name)
    return case, load_replays(REPLAYS)[case_name]


def _a_replayed_case() -> str:
    replays = load_replays(REPLAYS)
    return next(
        c.name
        for c in suite()
        if c.ruleset == "2019" and c.name in replays and len(replays[c.name].commands) > 3
    )


def test_a_state_that_departs_from_the_case_start_is_start_not_reached() -> None:
    """With ``state`` offered, the state after the replay start is compared
    with the case's start (piles as multisets)."""
    case, replay = _replayed(_a_replayed_case())
    caps = frozenset({"events", "state"})
    at = plan(case, Options(caps), {case.name: replay}).start_observed
    assert at is not None

    def swapped_hands(script: dict[str, JSON]) -> dict[str, JSON]:
        reply = execute(script)
        state = reply["steps"][at]["observation"]["state"]
        state["hands"] = state["hands"][1:] + state["hands"][:1]
        return reply

    good = run_case(case, InProcess(capabilities=caps), Options(caps), {case.name: replay})
    assert good.status == "passed", good.lines
    bad = run_case(
        case, InProcess(swapped_hands, capabilities=caps), Options(caps), {case.name: replay}
    )
    assert bad.status == "start-not-reached"
    assert bad.start_not_reached is not None
    assert bad.start_not_reached.how == "the state reached differs from the case's start"
    assert any(line.startswith("  hands: expected") for line in bad.lines)


def test_with_state_only_the_first_departing_command_is_named() -> None:
    """No events to compare: the state is observed after every replay
    command, and the first whose state differs from the rules' is named."""
    case, replay = _replayed(_a_replayed_case())
    caps = frozenset({"state"})
    the_plan = plan(case, Options(caps), {case.name: replay})
    after_second = the_plan.prelude_observed[1]
    assert after_second is not None

    def lose_a_card(script: dict[str, JSON]) -> dict[str, JSON]:
        reply = execute(script)
        reply["steps"][after_second]["observation"]["state"]["deck"].pop()
        return reply

    outcome = run_case(
        case, InProcess(lose_a_card, capabilities=caps), Options(caps), {case.name: replay}
    )
    assert outcome.start_not_reached is not None
    assert outcome.start_not_reached.index == 1
    assert outcome.start_not_reached.how == "the state after it differs from the rules'"


def test_a_replay_file_swapped_for_another_case_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The runner holds each replay start it will play to its case: the
    header (case, ruleset, players) and, through the rules, the start it
    reaches. Another case's commands under this case's name are refused
    before anything runs (exit 3)."""
    replays = load_replays(REPLAYS)
    names = [
        c.name
        for c in suite()
        if c.name in replays and c.ruleset == "2019" and c.players == 3 and not c.start_rejected
    ]
    first, second = names[0], names[1]
    root = tmp_path / "suite"
    shutil.copytree(SUITE_ROOT / "cases", root / "cases")
    shutil.copytree(REPLAYS, root / "replays")
    target = root / "replays" / f"{first}.yaml"
    other = (REPLAYS / f"{second}.yaml").read_text(encoding="utf-8")
    target.write_text(
        other.replace(f"case: {second.rsplit('/', 1)[1]}", f"case: {first.rsplit('/', 1)[1]}"),
        encoding="utf-8",
    )
    command = impl("minimal_adapter.py")
    args = ["--cases", str(root / "cases"), "--impl", command, "--run", first]
    status, _, err = _run(capsys, *args)
    assert status == 3
    assert "bad replay start" in err and "do not reach the case's start" in err
    target.write_text(
        (REPLAYS / f"{first}.yaml").read_text(encoding="utf-8").replace("players: 3", "players: 4"),
        encoding="utf-8",
    )
    status, _, err = _run(capsys, *args)
    assert status == 3
    assert "players" in err


def test_the_script_names_its_prelude_and_an_engine_may_stop_at_a_refusal() -> None:
    case, replay = _replayed(_a_replayed_case())
    caps = frozenset({"events"})
    the_plan = plan(case, Options(caps), {case.name: replay})
    script = the_plan.script
    assert script is not None
    assert script["prelude"] == len(replay.commands)
    broken = copy.deepcopy(script)
    broken["steps"][1]["command"]["player"] = (broken["steps"][1]["command"]["player"] + 1) % 3
    reply = {"type": "result", "seq": 1, **execute(broken)}
    assert len(reply["steps"]) == 2 and "rejected" in reply["steps"][-1]
    check_reply(reply, 1, broken)  # fewer results, ending at a prelude refusal: fine
    late = copy.deepcopy(reply)
    late["steps"] = [{"events": []}]
    with pytest.raises(ProtocolError, match="steps"):
        check_reply(late, 1, broken)
    outcome = run_case(
        case,
        InProcess(lambda s: execute(_misplay(s)), capabilities=caps),
        Options(caps),
        {case.name: replay},
    )
    assert outcome.status == "start-not-reached"
    assert outcome.start_not_reached is not None and outcome.start_not_reached.index == 1
    assert outcome.start_not_reached.how.startswith("refused as ")


def _misplay(script: dict[str, JSON]) -> dict[str, JSON]:
    script = copy.deepcopy(script)
    command = script["steps"][1]["command"]
    command["player"] = (command["player"] + 1) % script["players"]
    return script


# --------------------------------------------------------------------------
# refusals are atomic; adapter-decided outcomes


def _refusal_cases() -> list[Any]:
    return [
        c
        for c in suite()
        if c.ruleset == "2019" and any("rejected" in step for step in c.data["steps"])
    ][:20]


def test_a_refused_command_that_changes_the_state_fails_its_own_check() -> None:
    """With ``state`` offered, the state is observed on both sides of every
    expected refusal: an engine that discards a card before refusing the
    play fails "state changed by a refused command"."""

    def leaky(script: dict[str, JSON]) -> dict[str, JSON]:
        reply = execute(script)
        steps = reply["steps"]
        for index, result in enumerate(steps):
            if "rejected" in result and index + 1 < len(steps):
                state = steps[index + 1].get("observation", {}).get("state")
                if state is not None:
                    state["turn_number"] += 1
        return reply

    cases = _refusal_cases()
    assert cases
    for case in cases:
        good = run_case(case, InProcess())
        assert good.status == "passed", good.lines
        bad = run_case(case, InProcess(leaky))
        assert bad.status == "failed", case.name
        assert any("state changed by a refused command: turn_number" in x for x in bad.lines)


def test_without_state_atomicity_is_not_applicable() -> None:
    caps = EVERYTHING - {"state"}
    case = _refusal_cases()[0]
    outcome = run_case(case, InProcess(capabilities=caps), Options(caps))
    assert any(
        line.endswith("the state unchanged: needs capability state")
        for line in outcome.not_applicable
    )


def test_refusals_the_adapter_decided_are_counted_apart() -> None:
    def by_adapter(script: dict[str, JSON]) -> dict[str, JSON]:
        reply = execute(script)
        for result in reply["steps"]:
            if "rejected" in result:
                result["by"] = "adapter"
        return reply

    cases = _refusal_cases()[:5]
    report = run_suite(cases, InProcess(by_adapter))
    assert report.count("passed") == len(cases)
    assert len(report.by_adapter) >= len(cases)
    assert "outcomes decided by the adapter" in report.summary()
    assert report.to_data("x")["summary"]["by_adapter"] == len(report.by_adapter)
    bad = {"type": "result", "seq": 1, "start_events": [], "steps": [], "by": "someone"}
    with pytest.raises(ProtocolError, match="by"):
        check_reply(bad, 1, {"steps": []})


# --------------------------------------------------------------------------
# try: legal commands from an engine that validates but does not list


NO_LISTS = EVERYTHING - {"legal-commands", "perft", "try"}


def _legal_cases() -> list[Any]:
    return [
        c
        for c in suite()
        if any(
            k.startswith("legal_command") or k == "perft"
            for step in c.data["steps"]
            for k in step.get("checks", {})
        )
    ]


def test_try_rebuilds_the_legal_commands_of_every_case() -> None:
    caps = NO_LISTS | {"try"}
    cases = _legal_cases()
    assert len(cases) > 30
    report = run_suite(cases, InProcess(capabilities=caps), options=Options(caps))
    assert report.ok, [o.lines for o in report.outcomes if o.status == "failed"][:3]
    without = run_suite(cases, InProcess(capabilities=NO_LISTS), options=Options(NO_LISTS))
    assert report.checks_run > without.checks_run


def test_an_engine_that_says_yes_to_everything_it_is_asked_fails() -> None:
    def yes(script: dict[str, JSON]) -> dict[str, JSON]:
        reply = execute(script)
        for step, result in zip(script["steps"], reply["steps"], strict=True):
            if "try" in step.get("observe", {}):
                result["observation"]["tried"] = [True] * len(step["observe"]["try"])
        return reply

    caps = NO_LISTS | {"try"}
    report = run_suite(_legal_cases(), InProcess(yes, capabilities=caps), options=Options(caps))
    assert report.count("failed") > 10


# --------------------------------------------------------------------------
# selection, xfail reasons, trace


def test_players_selects_cases_and_lists_the_rest_as_excluded(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert parse_players("2-4") == {2, 3, 4}
    assert parse_players("3,5-6") == {3, 5, 6}
    for bad in ("4-2", "x", "0"):
        with pytest.raises(ValueError):
            parse_players(bad)
    report = tmp_path / "r.json"
    status, out, _ = _run(
        capsys, "-q", "--ruleset", "premium", "--players", "2-4", "--report", str(report)
    )
    assert status == 0
    premium = select(suite(), rulesets=["premium"])
    small = [c for c in premium if 2 <= c.players <= 4]
    assert out[-1].startswith(f"{len(small)} passed, 0 failed")
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["summary"]["cases"] == len(premium) == len(data["cases"])
    assert data["summary"]["excluded"] == len(premium) - len(small)
    assert data["selection"]["players"] == "2-4"
    status, _, err = _run(capsys, "--players", "many")
    assert status == 2 and "--players" in err


def test_xfail_reasons_reach_the_report(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    name = "2019/baron/baron-tie-knocks-out-nobody"
    xfail = tmp_path / "xfail.txt"
    xfail.write_text(f"# the comparison is ours to fix\n{name}\n", encoding="utf-8")
    report = tmp_path / "r.json"
    command = impl("broken_adapter.py", "baron-tie-eliminates")
    args = ["--impl", command, "--run", name, "--xfail", str(xfail), "--report", str(report)]
    _run(capsys, *args)
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["xfail"] == {name: "the comparison is ours to fix"}
    (case,) = [c for c in data["cases"] if c["name"] == name]
    assert (case["status"], case["reason"]) == ("xfailed", "the comparison is ours to fix")


def test_a_reply_line_that_is_not_utf8_is_traced_as_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    trace = tmp_path / "trace.jsonl"
    command = impl("hostile_impls.py", "binary")
    _run(capsys, "--impl", command, "--run", "*baron-tie-knocks-out-nobody", "--trace", str(trace))
    records = [json.loads(line) for line in trace.read_text(encoding="utf-8").splitlines()]
    raw = [r for r in records if "base64" in r]
    assert raw and raw[0]["to"] == "runner"
    import base64

    assert base64.b64decode(raw[0]["base64"]) == b"\xff\xfe\x00\x81garbage\x00\xc3\x28"


def _limit_file_size() -> None:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))


@pytest.mark.skipif(not hasattr(resource, "RLIMIT_FSIZE"), reason="POSIX file size limits")
def test_a_trace_that_cannot_be_written_is_the_runners_error_not_the_implementations(
    tmp_path: Path,
) -> None:
    """A full disk (here, a file size limit) under ``--trace``: the run stops
    with exit 3 and one line naming the trace; no case is blamed."""
    trace = tmp_path / "trace.jsonl"
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from loveletter.cli import main; sys.exit(main(sys.argv[1:]))",
            "conformance",
            "run",
            "-q",
            "--ruleset",
            "2019",
            "--impl",
            impl("do_nothing_adapter.py"),
            "--trace",
            str(trace),
        ],
        capture_output=True,
        text=True,
        env=env,
        preexec_fn=_limit_file_size,
        timeout=300,
        check=False,
    )
    assert done.returncode == 3, done.stdout[-2000:] + done.stderr[-2000:]
    assert done.stderr.startswith("loveletter conformance: --trace: cannot write")
    assert "Traceback" not in done.stderr
    assert "ERRORED" not in done.stdout and "FAILED" not in done.stdout
