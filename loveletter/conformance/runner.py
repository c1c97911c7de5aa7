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

    def run(self, script: dict[str, JSON]) -> Reply: ...

    def close(self) -> None: ...


class InProcess:
    """This package's engine, called directly."""

    name = "loveletter (in process)"
    rulesets = frozenset(RULESETS)

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
    ) -> None:
        self.command = command
        self.timeout = timeout
        self.log = log
        self._process: Process | None = Process(command, timeout, log)
        self.name = str(self._process.info.get("name", command))
        self.rulesets = self._process.rulesets

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
        self._process = Process(self.command, self.timeout, self.log)

    def _drop(self, graceful: bool = True) -> None:
        if self._process is not None:
            self._process.close(graceful)
            self._process = None

    def close(self) -> None:
        self._drop()


# --------------------------------------------------------------------------
# running and reporting


@attrs.frozen
class CaseOutcome:
    case: Case
    status: str  # "passed", "failed", "skipped" or "errored"
    lines: tuple[str, ...] = ()


@attrs.frozen
class Report:
    implementation: str
    outcomes: tuple[CaseOutcome, ...]

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def ok(self) -> bool:
        return self.count("failed") == 0 and self.count("errored") == 0

    @property
    def tested(self) -> bool:
        """Whether any case was run and not skipped."""
        return any(o.status != "skipped" for o in self.outcomes)

    def summary(self) -> str:
        """``N passed, M failed, K skipped`` (errored cases count as failed)."""
        failed = self.count("failed") + self.count("errored")
        line = f"{self.count('passed')} passed, {failed} failed, {self.count('skipped')} skipped"
        errored = self.count("errored")
        return line + (f" ({errored} of the failures errored)" if errored else "")

    def to_data(self, version: str) -> dict[str, JSON]:
        return {
            "suite_version": version,
            "protocol": PROTOCOL_VERSION,
            "implementation": self.implementation,
            "summary": {s: self.count(s) for s in ("passed", "failed", "skipped", "errored")},
            "cases": [
                {
                    "name": o.case.name,
                    "id": o.case.id,
                    "rules": list(o.case.rules),
                    "status": o.status,
                    "details": list(o.lines),
                }
                for o in self.outcomes
            ],
        }


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


def run_suite(
    cases: Iterable[Case],
    implementation: Implementation,
    progress: Callable[[CaseOutcome], None] | None = None,
) -> Report:
    outcomes = []
    for case in cases:
        outcome = run_case(case, implementation)
        if progress is not None:
            progress(outcome)
        outcomes.append(outcome)
    return Report(implementation.name, tuple(outcomes))


def format_outcome(outcome: CaseOutcome) -> list[str]:
    head = f"{outcome.status.upper():7} {outcome.case.name}"
    if outcome.status == "passed":
        return [head]
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
