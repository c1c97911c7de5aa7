"""Running the suite: turn each case into a script, have an implementation
execute it (in process, or through protocol v1), compare, and report."""

from __future__ import annotations

import copy
import json
import traceback
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Protocol

import attrs
import yaml

from loveletter import __version__
from loveletter.conformance.cases import Case
from loveletter.conformance.compare import (
    command_set_diff,
    excluded_present,
    matches,
    project,
    render,
    sequence_diff,
)
from loveletter.conformance.execute import ScriptError, execute
from loveletter.conformance.protocol import PROTOCOL_VERSION, Process, ProtocolError
from loveletter.conformance.vocabulary import STATE_FIELDS
from loveletter.rulesets import RULESETS

JSON = Any

#: where the suite lives in a source checkout
SUITE_ROOT = Path(__file__).resolve().parents[2] / "conformance"


def suite_version(root: Path = SUITE_ROOT) -> str:
    data = yaml.safe_load((root / "suite.yaml").read_text(encoding="utf-8"))
    return str(data["version"])


# --------------------------------------------------------------------------
# case -> script


def script_for(case: Case) -> dict[str, JSON]:
    """What the implementation is sent: the case without its expectations
    (a fresh copy: changing it does not change the case)."""
    data = copy.deepcopy(case.data)
    start = data["start"]
    if "deal" in start:
        deal = {k: v for k, v in start["deal"].items() if k != "events"}
        start = {"deal": deal}
    steps: list[JSON] = []
    for step in data["steps"]:
        if "checks" in step:
            steps.append({"observe": _observe_request(step["checks"])})
        else:
            item: dict[str, JSON] = {"command": step["command"]}
            if step.get("seen_by"):
                item["seen_by"] = [seen["player"] for seen in step["seen_by"]]
            steps.append(item)
    return {
        "id": case.id,
        "ruleset": case.ruleset,
        "players": case.players,
        "start": start,
        "steps": steps,
    }


def _observe_request(checks: dict[str, JSON]) -> dict[str, JSON]:
    request: dict[str, JSON] = {}
    if any(key in STATE_FIELDS for key in checks):
        request["state"] = True
    if any(key.startswith("legal_command") for key in checks):
        request["legal_commands"] = True
    if "views" in checks:
        request["views"] = sorted({v["player"] for v in checks["views"]})
    if "perft" in checks:
        request["perft"] = len(checks["perft"])
    return request


# --------------------------------------------------------------------------
# comparing


def compare(case: Case, reply: dict[str, JSON]) -> list[str]:
    """Readable failure lines; empty when the reply agrees with the case."""
    failures: list[str] = []
    rejected = reply.get("start_rejected")
    if case.start_rejected:
        if rejected is None:
            return ["start: expected the implementation to refuse this start; it accepted it"]
        return []
    if rejected is not None:
        return [f"start: refused by the implementation: {rejected}"]
    start = case.data["start"]
    expected_start = start.get("deal", {}).get("events")
    if expected_start is not None and not matches(expected_start, reply["start_events"]):
        failures.append("start: the deal's events differ")
        failures += ["  " + line for line in sequence_diff(expected_start, reply["start_events"])]
    for index, (step, result) in enumerate(zip(case.data["steps"], reply["steps"], strict=True)):
        label = f"step {index + 1}"
        if "checks" in step:
            failures += _compare_checks(label, step["checks"], result["observation"])
            continue
        label += f" {render(step['command'])}"
        if "rejected" in step:
            if result.get("rejected") != step["rejected"]:
                got = (
                    f"rejected as {result['rejected']}"
                    if "rejected" in result
                    else "accepted, with events:"
                )
                failures.append(f"{label}: expected rejection {step['rejected']}, {got}")
                failures += [f"  + {render(e)}" for e in result.get("events", [])]
            continue
        if "rejected" in result:
            failures.append(f"{label}: expected events, but rejected as {result['rejected']}")
            continue
        if not matches(step["events"], result["events"]):
            failures.append(f"{label}: events differ (- expected, + actual)")
            failures += ["  " + line for line in sequence_diff(step["events"], result["events"])]
        seen = {s.get("player"): s.get("events") for s in result.get("seen_by", [])}
        for expected_seen in step.get("seen_by", []):
            player = expected_seen["player"]
            actual = seen.get(player)
            if not matches(expected_seen["events"], actual):
                failures.append(f"{label}: events as player {player} sees them differ")
                failures += ["  " + line for line in sequence_diff(expected_seen["events"], actual)]
    return failures


def _compare_checks(label: str, checks: dict[str, JSON], observation: JSON) -> list[str]:
    failures: list[str] = []
    state = observation.get("state") or {}
    for key in STATE_FIELDS:
        if key in checks and not matches(checks[key], state.get(key)):
            shown = project(checks[key], state.get(key))
            failures.append(
                f"{label}: {key}: expected {render(checks[key])}, actual {render(shown)}"
            )
    legal = observation.get("legal_commands")
    for key, exact in (("legal_commands", True), ("legal_commands_include", False)):
        if key in checks:
            lines = command_set_diff(checks[key], legal, exact)
            if lines:
                failures.append(f"{label}: {key} differ (- missing, + extra)")
                failures += ["  " + line for line in lines]
    if "legal_commands_exclude" in checks:
        lines = excluded_present(checks["legal_commands_exclude"], legal)
        if lines:
            failures.append(f"{label}: legal_commands_exclude: commands listed as legal")
            failures += ["  " + line for line in lines]
    if "legal_command_count" in checks:
        count = len(legal) if isinstance(legal, list) else legal
        if count != checks["legal_command_count"]:
            failures.append(
                f"{label}: legal_command_count: expected {checks['legal_command_count']}, "
                f"actual {count}"
            )
    if "views" in checks:
        views = observation.get("views")
        by_player = {
            v.get("player"): v
            for v in (views if isinstance(views, list) else [])
            if isinstance(v, dict)
        }
        for expected in checks["views"]:
            actual = by_player.get(expected["player"])
            for key, value in expected.items():
                got = actual.get(key) if isinstance(actual, dict) else None
                if key == "legal_commands" and isinstance(value, list):
                    lines = command_set_diff(value, got, exact=True)
                    if lines:
                        failures.append(f"{label}: view of player {expected['player']}: {key}")
                        failures += ["  " + line for line in lines]
                elif not matches(value, got):
                    failures.append(
                        f"{label}: view of player {expected['player']}: {key}: expected "
                        f"{render(value)}, actual {render(project(value, got))}"
                    )
    if "perft" in checks and not matches(checks["perft"], observation.get("perft")):
        failures.append(
            f"{label}: perft: expected {render(checks['perft'])}, "
            f"actual {render(observation.get('perft'))}"
        )
    return failures


# --------------------------------------------------------------------------
# implementations


@attrs.frozen
class Reply:
    """What an implementation answered for one case."""

    status: str  # "result", "skipped" or "errored"
    data: dict[str, JSON]


class Implementation(Protocol):
    name: str
    rulesets: frozenset[str]
    #: for the report: name, version, language (None when not known) and
    #: command (None in process)
    info: dict[str, JSON]

    def run(self, script: dict[str, JSON]) -> Reply: ...

    def close(self) -> None: ...


class InProcess:
    """This package's engine, called directly."""

    name = "loveletter (in process)"
    rulesets = frozenset(RULESETS)
    info: dict[str, JSON] = {  # noqa: RUF012 (read only)
        "name": "loveletter",
        "version": __version__,
        "language": "python",
        "command": None,
    }

    def __init__(self, executor: Callable[[dict[str, JSON]], dict[str, JSON]] = execute) -> None:
        self.executor = executor

    def run(self, script: dict[str, JSON]) -> Reply:
        try:
            return Reply("result", self.executor(script))
        except ScriptError as error:
            return Reply("errored", {"message": str(error), "context": {"field": error.field}})
        except Exception as error:  # report, never crash the run
            context = {"traceback": traceback.format_exc(limit=-3)}
            return Reply("errored", {"message": repr(error), "context": context})

    def close(self) -> None:
        pass


class External:
    """Any implementation started as ``command`` and driven through protocol
    v1. A crashed or confused implementation is restarted for the next case."""

    def __init__(
        self,
        command: str,
        timeout: float = 60.0,
        log: Callable[[str, dict[str, JSON]], None] | None = None,
        trace: Callable[[str, str], None] | None = None,
    ) -> None:
        self.command = command
        self.timeout = timeout
        self.log = log
        self.trace = trace
        self._process: Process | None = Process(command, timeout, log, trace=trace)
        self.name = str(self._process.info.get("name", command))
        self.rulesets = self._process.rulesets
        self.info: dict[str, JSON] = {
            key: _text(self._process.info.get(key)) for key in ("name", "version", "language")
        }
        self.info["command"] = command

    def run(self, script: dict[str, JSON]) -> Reply:
        try:
            if self._process is None or not self._process.alive:
                self._restart()
            assert self._process is not None
            reply = self._process.run(script)
        except ProtocolError as error:
            self._drop(graceful=False)
            return Reply("errored", {"message": f"protocol error: {error}", "context": {}})
        except OSError as error:  # it could not be restarted
            self._drop(graceful=False)
            return Reply("errored", {"message": f"cannot restart {self.command!r}: {error}"})
        return Reply(reply["type"], reply)

    def _restart(self) -> None:
        self._drop()
        self._process = Process(self.command, self.timeout, self.log, trace=self.trace)

    def _drop(self, graceful: bool = True) -> None:
        if self._process is not None:
            self._process.close(graceful)
            self._process = None

    def close(self) -> None:
        self._drop()


def _text(value: JSON, limit: int = 200) -> str | None:
    """A handshake string for the report (None unless it is a string)."""
    return value[:limit] if isinstance(value, str) else None


# --------------------------------------------------------------------------
# running and reporting


@attrs.frozen
class CaseOutcome:
    case: Case
    #: "passed", "failed", "skipped" or "errored"; with an xfail list,
    #: "xfailed" (listed, and failed or errored) or "xpassed" (listed, and passed)
    status: str
    lines: tuple[str, ...] = ()
    #: whether the case is in the xfail list
    listed: bool = False


@attrs.frozen
class Report:
    implementation: str
    outcomes: tuple[CaseOutcome, ...]
    #: name, version, language and command (see :attr:`Implementation.info`)
    info: dict[str, JSON] = attrs.field(factory=dict)
    #: the names in the xfail list (None: no list was given)
    xfail: frozenset[str] | None = None

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def ok(self) -> bool:
        """No case failed, errored, or passed while listed as a known failure."""
        return all(self.count(s) == 0 for s in ("failed", "errored", "xpassed"))

    @property
    def tested(self) -> bool:
        """Whether any case was run and not skipped."""
        return any(o.status != "skipped" for o in self.outcomes)

    def summary(self) -> str:
        """``N passed, M failed, K skipped`` (errored cases count as failed),
        then ``, X xfailed, Y xpassed`` when an xfail list was given."""
        failed = self.count("failed") + self.count("errored")
        line = f"{self.count('passed')} passed, {failed} failed, {self.count('skipped')} skipped"
        if self.xfail is not None:
            line += f", {self.count('xfailed')} xfailed, {self.count('xpassed')} xpassed"
        errored = self.count("errored")
        return line + (f" ({errored} of the failures errored)" if errored else "")

    def to_data(self, version: str) -> dict[str, JSON]:
        return {
            "suite_version": version,
            "protocol": PROTOCOL_VERSION,
            "implementation": {
                "name": self.info.get("name", self.implementation),
                "version": self.info.get("version"),
                "language": self.info.get("language"),
                "command": self.info.get("command"),
            },
            "xfail": None if self.xfail is None else sorted(self.xfail),
            "summary": {
                s: self.count(s) for s in STATUSES if self.xfail is not None or s[0] != "x"
            },
            "cases": [
                {
                    "name": o.case.name,
                    "id": o.case.id,
                    "rules": list(o.case.rules),
                    "status": o.status,
                    "xfail": o.listed,
                    "details": list(o.lines),
                }
                for o in self.outcomes
            ],
        }


#: every status a case can end with, in the report's summary order (the
#: x-statuses only with an xfail list)
STATUSES = ("passed", "failed", "skipped", "errored", "xfailed", "xpassed")


def run_case(case: Case, implementation: Implementation) -> CaseOutcome:
    if case.ruleset not in implementation.rulesets:
        return CaseOutcome(
            case, "skipped", (f"the implementation does not support ruleset {case.ruleset}",)
        )
    reply = implementation.run(script_for(case))
    if reply.status == "skipped":
        return CaseOutcome(case, "skipped", (str(reply.data.get("reason", "")),))
    if reply.status == "errored":
        lines = [str(reply.data.get("message", ""))]
        context = reply.data.get("context")
        if isinstance(context, dict):
            lines += [f"  {k}: {v}" for k, v in context.items()]
        return CaseOutcome(case, "errored", tuple(lines))
    try:
        failures = compare(case, reply.data)
    except Exception as error:  # a reply the checks let through; never crash the run
        return CaseOutcome(case, "errored", (f"cannot compare the reply: {error!r}"[:500],))
    return CaseOutcome(case, "failed" if failures else "passed", tuple(failures))


def expect_failure(outcome: CaseOutcome) -> CaseOutcome:
    """``outcome`` of a case listed as a known failure: a failure or error
    becomes "xfailed", a pass "xpassed" (a failure of the run)."""
    if outcome.status in ("failed", "errored"):
        note = f"{outcome.status}, as the xfail list expects"
        return CaseOutcome(outcome.case, "xfailed", (note, *outcome.lines), listed=True)
    if outcome.status == "passed":
        note = "passed, but the xfail list expects a failure: remove it from the list"
        return CaseOutcome(outcome.case, "xpassed", (note,), listed=True)
    return attrs.evolve(outcome, listed=True)


def run_suite(
    cases: Iterable[Case],
    implementation: Implementation,
    progress: Callable[[CaseOutcome], None] | None = None,
    xfail: Iterable[str] | None = None,
) -> Report:
    """Run ``cases``; those named (``ruleset/topic/id``) in ``xfail`` are
    expected to fail."""
    listed = None if xfail is None else frozenset(xfail)
    outcomes = []
    for case in cases:
        outcome = run_case(case, implementation)
        if listed is not None and case.name in listed:
            outcome = expect_failure(outcome)
        if progress is not None:
            progress(outcome)
        outcomes.append(outcome)
    return Report(implementation.name, tuple(outcomes), dict(implementation.info), listed)


def read_xfail(path: Path) -> list[tuple[int, str]]:
    """The entries of an xfail file, with their line numbers: one case name
    a line; ``#`` starts a comment; blank lines are ignored."""
    entries = []
    text = path.read_text(encoding="utf-8")
    for number, line in enumerate(text.splitlines(), 1):
        entry = line.split("#", 1)[0].strip()
        if entry:
            entries.append((number, entry))
    return entries


def skip_reason(outcome: CaseOutcome) -> str:
    """Why a case was skipped, on one short line."""
    reason = " ".join(" ".join(outcome.lines).split()) or "(no reason given)"
    return reason if len(reason) <= 200 else reason[:197] + "..."


def format_outcome(outcome: CaseOutcome) -> list[str]:
    head = f"{outcome.status.upper():7} {outcome.case.name}"
    if outcome.status == "passed":
        return [head]
    if outcome.status == "skipped":
        return [f"SKIPPED {outcome.case.name}: {skip_reason(outcome)}"]
    if outcome.status == "xfailed":
        return [f"XFAIL   {outcome.case.name} ({outcome.lines[0].split(',')[0]})"]
    if outcome.status == "xpassed":
        head = f"XPASS   {outcome.case.name}"
    lines = [
        head,
        f"        {outcome.case.title}",
        f"        file: {_shown(outcome.case.path)}",
        f"        rules: {', '.join(outcome.case.rules)}",
    ]
    lines += [f"        {line}" for line in outcome.lines]
    return lines


def _shown(path: str) -> str:
    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except ValueError:
        return path


def write_report(report: Report, path: Path, version: str) -> None:
    path.write_text(json.dumps(report.to_data(version), indent=2) + "\n", encoding="utf-8")
