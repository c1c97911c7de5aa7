"""Running the suite: turn each case into a script, have an implementation
execute it (in process, or through protocol v1), compare, and report."""

from __future__ import annotations

import contextlib
import json
import signal
import threading
import traceback
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Protocol

import attrs
import yaml

from loveletter import __version__
from loveletter.conformance.cases import Case, read_bounded
from loveletter.conformance.checks import EVERYTHING, Options, StartNotReached, judge, plan
from loveletter.conformance.execute import ScriptError, execute
from loveletter.conformance.protocol import PROTOCOL_VERSION, Process, ProtocolError
from loveletter.conformance.starts import ReplayStart
from loveletter.resources import suite_root
from loveletter.rulesets import RULESETS

JSON = Any

#: the suite: the checkout's conformance/, or the installed package's copy
SUITE_ROOT = suite_root()


def suite_version(root: Path = SUITE_ROOT) -> str:
    data = yaml.safe_load((root / "suite.yaml").read_text(encoding="utf-8"))
    return str(data["version"])


# --------------------------------------------------------------------------
# case -> script, reply -> failures (with every capability; see checks.py)


def script_for(case: Case) -> dict[str, JSON]:
    """What an implementation offering everything is sent: the case without
    its expectations (a fresh copy: changing it does not change the case)."""
    script = plan(case, Options(), {}).script
    assert script is not None  # nothing is missing when everything is offered
    return script


def compare(case: Case, reply: dict[str, JSON]) -> list[str]:
    """Readable failure lines for the reply of an implementation offering
    everything; empty when it agrees with the case."""
    return list(judge(plan(case, Options(), {}), reply, Options()).failures)


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
    #: what it offers (see vocabulary.CAPABILITIES)
    capabilities: frozenset[str]
    #: for the report: name, version, language (None when not known) and
    #: command (None in process)
    info: dict[str, JSON]

    def run(self, script: dict[str, JSON]) -> Reply: ...

    def close(self) -> None: ...


class CaseTimeout(BaseException):
    """A case that ran past the time limit in process. A BaseException, so
    that no ``except Exception`` on the way can swallow it."""


@contextlib.contextmanager
def _time_limit(seconds: float | None) -> Iterator[None]:
    """Raise :class:`CaseTimeout` in this thread after ``seconds`` (POSIX
    main thread only: elsewhere the limit is not enforced)."""
    usable = (
        seconds is not None
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    if not usable or seconds is None:
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise CaseTimeout

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class InProcess:
    """This package's engine, called directly, each case within ``timeout``
    seconds (as ``--timeout`` bounds a reply through the protocol)."""

    name = "loveletter (in process)"
    rulesets = frozenset(RULESETS)
    info: dict[str, JSON] = {  # noqa: RUF012 (read only)
        "name": "loveletter",
        "version": __version__,
        "language": "python",
        "command": None,
    }

    def __init__(
        self,
        executor: Callable[[dict[str, JSON]], dict[str, JSON]] = execute,
        timeout: float | None = 60.0,
        capabilities: frozenset[str] = EVERYTHING,
    ) -> None:
        self.executor = executor
        self.timeout = timeout
        self.capabilities = capabilities

    def run(self, script: dict[str, JSON]) -> Reply:
        try:
            with _time_limit(self.timeout):
                return Reply("result", self.executor(script))
        except CaseTimeout:
            return Reply("errored", {"message": f"no result within {self.timeout:g} s"})
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
        trace: Callable[[str, str, bytes | None], None] | None = None,
    ) -> None:
        self.command = command
        self.timeout = timeout
        self.log = log
        self.trace = trace
        self._process: Process | None = Process(command, timeout, log, trace=trace)
        self.name = str(self._process.info.get("name", command))
        self.rulesets = self._process.rulesets
        self.capabilities = self._process.capabilities
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
    #: one of :data:`STATUSES`: "passed", "failed", "errored", "skipped",
    #: "not-applicable" (no check a wrong outcome could fail could run),
    #: "start-not-reached" (the implementation did not follow the replay
    #: start to the case's start: an earlier bug, not this case's),
    #: "excluded" (not selected: ``--run``, ``--skip``, ``--players``); with
    #: an xfail list, "xfailed" (listed, and failed or errored) or "xpassed"
    #: (listed, and passed)
    status: str
    lines: tuple[str, ...] = ()
    #: whether the case is in the xfail list
    listed: bool = False
    #: the checks that could not run, each with what it needs
    not_applicable: tuple[str, ...] = ()
    #: how many checks ran
    checks_run: int = 0
    #: refusals of another kind than expected (``--rejections any``)
    kind_mismatches: tuple[str, ...] = ()
    #: where the replay start was left (status "start-not-reached")
    start_not_reached: StartNotReached | None = None
    #: outcomes the implementation's adapter decided (``"by": "adapter"``)
    by_adapter: tuple[str, ...] = ()
    #: why the case is not applicable, skipped, excluded or listed as xfail
    reason: str | None = None


#: every status a case can end with, in the report's summary order (the
#: x-statuses only with an xfail list)
STATUSES = (
    "passed",
    "failed",
    "errored",
    "skipped",
    "not-applicable",
    "start-not-reached",
    "excluded",
    "xfailed",
    "xpassed",
)

#: the report's format (2: every case listed, each with its reason;
#: failures rolled up by rule; start-not-reached; adapter-decided outcomes)
REPORT_FORMAT = 2


@attrs.frozen
class Report:
    implementation: str
    outcomes: tuple[CaseOutcome, ...]
    #: name, version, language and command (see :attr:`Implementation.info`)
    info: dict[str, JSON] = attrs.field(factory=dict)
    #: the names in the xfail list, each with its reason ("" when the line
    #: gives none; None: no list was given)
    xfail: Mapping[str, str] | None = None
    #: what the implementation offers, and how strictly it was judged
    options: Options = attrs.field(factory=Options)
    #: how the cases were selected: rulesets, players, run and skip globs
    selection: Mapping[str, JSON] = attrs.field(factory=dict)

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def ok(self) -> bool:
        """No case failed, errored, passed while listed as a known failure,
        or (unlisted) left its replay start unreached."""
        if any(self.count(s) for s in ("failed", "errored", "xpassed")):
            return False
        return not any(o.status == "start-not-reached" and not o.listed for o in self.outcomes)

    @property
    def tested(self) -> bool:
        """Whether some case was tested: passed, or failed unexpectedly. A
        case the xfail list expected to fail tested nothing (a run where
        every case errored, all listed, is not a pass)."""
        return any(o.status in ("passed", "failed", "errored", "xpassed") for o in self.outcomes)

    @property
    def checks_run(self) -> int:
        return sum(o.checks_run for o in self.outcomes)

    @property
    def checks_not_applicable(self) -> int:
        return sum(len(o.not_applicable) for o in self.outcomes)

    @property
    def kind_mismatches(self) -> tuple[str, ...]:
        return tuple(line for o in self.outcomes for line in o.kind_mismatches)

    @property
    def by_adapter(self) -> tuple[str, ...]:
        return tuple(f"{o.case.name}: {line}" for o in self.outcomes for line in o.by_adapter)

    def not_applicable_by_reason(self) -> dict[str, int]:
        """How many checks were not applicable, by what they needed."""
        reasons: Counter[str] = Counter()
        for outcome in self.outcomes:
            for line in outcome.not_applicable:
                reasons[line.rsplit(": ", 1)[-1]] += 1
        return dict(sorted(reasons.items(), key=lambda item: (-item[1], item[0])))

    def failures_by_rule(self) -> list[tuple[str, list[str]]]:
        """The cases that failed or errored (not those the xfail list
        expected), each under one rule it cites (the rule cited by the most cases
        takes them, then the next, so that one bug reads as one line)."""
        return _by_rule(
            (o.case.name, o.case.rules) for o in self.outcomes if o.status in ("failed", "errored")
        )

    def start_not_reached_by_rule(self) -> list[tuple[str, list[str]]]:
        """The cases whose replay start was not reached, each under one rule
        the command where it was left touches, grouped as failures are."""
        return _by_rule(
            (o.case.name, o.start_not_reached.rules or ("(no rule named)",))
            for o in self.outcomes
            if o.start_not_reached is not None
        )

    def summary(self) -> str:
        """``N passed, M failed, K skipped`` (errored cases count as failed),
        then ``, X xfailed, Y xpassed`` when an xfail list was given, then
        the cases whose start was not reached, the cases
        and checks not applicable, the outcomes an adapter decided and the
        rejection kinds that differ, when there are any."""
        failed = self.count("failed") + self.count("errored")
        line = f"{self.count('passed')} passed, {failed} failed, {self.count('skipped')} skipped"
        if self.xfail is not None:
            line += f", {self.count('xfailed')} xfailed, {self.count('xpassed')} xpassed"
        errored = self.count("errored")
        if errored:
            line += f" ({errored} of the failures errored)"
        if self.count("start-not-reached"):
            line += f"; {self.count('start-not-reached')} start not reached"
        na = self.checks_not_applicable
        if na or self.count("not-applicable"):
            line += (
                f"; {self.count('not-applicable')} cases not applicable; "
                f"checks: {self.checks_run} run, {na} not applicable"
            )
        if self.by_adapter:
            line += f"; {len(self.by_adapter)} outcomes decided by the adapter"
        if self.options.rejections == "any":
            line += f"; rejection kinds: {len(self.kind_mismatches)} differ"
        return line

    def to_data(self, version: str) -> dict[str, JSON]:
        summary: dict[str, JSON] = {"cases": len(self.outcomes)}
        summary.update(
            {s: self.count(s) for s in STATUSES if self.xfail is not None or s[0] != "x"}
        )
        summary["by_adapter"] = len(self.by_adapter)
        summary["checks_run"] = self.checks_run
        summary["checks_not_applicable"] = self.checks_not_applicable
        summary["not_applicable_by_reason"] = self.not_applicable_by_reason()
        summary["rejection_kind_mismatches"] = len(self.kind_mismatches)
        return {
            "report_format": REPORT_FORMAT,
            "suite_version": version,
            "protocol": PROTOCOL_VERSION,
            "implementation": {
                "name": self.info.get("name", self.implementation),
                "version": self.info.get("version"),
                "language": self.info.get("language"),
                "command": self.info.get("command"),
                "capabilities": sorted(self.options.capabilities),
            },
            "rejections": self.options.rejections,
            "starts": self.options.starts,
            "selection": dict(self.selection),
            "xfail": None if self.xfail is None else dict(sorted(self.xfail.items())),
            "summary": summary,
            "failures_by_rule": [
                {"rule": rule, "cases": names} for rule, names in self.failures_by_rule()
            ],
            "start_not_reached_by_rule": [
                {"rule": rule, "cases": names} for rule, names in self.start_not_reached_by_rule()
            ],
            "cases": [_case_data(o) for o in self.outcomes],
        }


def _by_rule(items: Iterable[tuple[str, Iterable[str]]]) -> list[tuple[str, list[str]]]:
    """Cases grouped under the rules they cite, each case once: the rule
    cited by the most cases takes them, then the next among those left, and
    so on (ties go to the rule its cases cite first: a case lists its main
    rule first), so that one bug reads as one line rather than as one line
    per rule its cases also cite."""
    left = {name: tuple(rules) for name, rules in items}
    groups: list[tuple[str, list[str]]] = []
    while left:
        counts: Counter[str] = Counter(rule for rules in left.values() for rule in set(rules))
        if not counts:
            break
        first = {
            rule: min(rules.index(rule) for rules in left.values() if rule in rules)
            for rule in counts
        }
        rule = min(counts, key=lambda r: (-counts[r], first[r], r))
        names = sorted(name for name, rules in left.items() if rule in rules)
        groups.append((rule, names))
        for name in names:
            del left[name]
    return groups


def _case_data(o: CaseOutcome) -> dict[str, JSON]:
    case = o.case
    return {
        "name": case.name,
        "id": case.id,
        "ruleset": case.ruleset,
        "topic": case.name.split("/")[1],
        "players": case.players,
        "title": case.title,
        "path": _suite_path(case.path),
        "rules": list(case.rules),
        "rulings": list(case.data.get("rulings", ())),
        "status": o.status,
        "reason": o.reason,
        "xfail": o.listed,
        "details": list(o.lines),
        "checks_run": o.checks_run,
        "not_applicable": list(o.not_applicable),
        "failing_rules": list(case.rules) if o.status in ("failed", "errored", "xfailed") else [],
        "start_not_reached": None if o.start_not_reached is None else o.start_not_reached.to_data(),
        "by_adapter": list(o.by_adapter),
        "rejection_kind_mismatches": list(o.kind_mismatches),
    }


def _suite_path(path: str) -> str:
    """A case file's path from the suite's root (``cases/...``) when it is
    in the suite, else as given."""
    parts = Path(path).parts
    if "cases" in parts:
        at = len(parts) - 1 - parts[::-1].index("cases")
        return "/".join(parts[at:])
    return path


def run_case(
    case: Case,
    implementation: Implementation,
    options: Options | None = None,
    replays: Mapping[str, ReplayStart] | None = None,
) -> CaseOutcome:
    """Run one case with what ``implementation`` offers (``options``: by
    default its declared capabilities, strict rejection kinds)."""
    if options is None:
        options = Options(capabilities=implementation.capabilities)
    if case.ruleset not in implementation.rulesets:
        why = f"the implementation does not support ruleset {case.ruleset}"
        return CaseOutcome(case, "skipped", (why,), reason=why)
    the_plan = plan(case, options, replays or {})
    if the_plan.script is None:
        return CaseOutcome(
            case,
            "not-applicable",
            not_applicable=the_plan.not_applicable,
            reason=the_plan.not_applicable[0] if the_plan.not_applicable else None,
        )
    reply = implementation.run(the_plan.script)
    if reply.status == "skipped":
        why = str(reply.data.get("reason", ""))
        return CaseOutcome(case, "skipped", (why,), reason=why[:500])
    if reply.status == "errored":
        lines = [str(reply.data.get("message", ""))]
        context = reply.data.get("context")
        if isinstance(context, dict):
            lines += [f"  {k}: {v}" for k, v in context.items()]
        return CaseOutcome(case, "errored", tuple(lines))
    try:
        verdict = judge(the_plan, reply.data, options)
    except Exception as error:  # a reply the checks let through; never crash the run
        return CaseOutcome(case, "errored", (f"cannot compare the reply: {error!r}"[:500],))
    judged = CaseOutcome(
        case,
        "passed",
        not_applicable=verdict.not_applicable,
        checks_run=verdict.checks_run,
        kind_mismatches=verdict.kind_mismatches,
        by_adapter=verdict.by_adapter,
    )
    missed = verdict.start_not_reached
    if missed is not None:
        told = [missed.describe(), *(f"  {line}" for line in missed.lines[:20])]
        if missed.rules:
            told.append(f"the command touches: {', '.join(missed.rules)}")
        return attrs.evolve(
            judged,
            status="start-not-reached",
            lines=tuple(told),
            start_not_reached=missed,
            reason=told[0],
        )
    if verdict.failures:
        return attrs.evolve(judged, status="failed", lines=verdict.failures)
    if verdict.deciding == 0:
        why = (
            "no check a wrong outcome could fail could run (only that commands the rules allow"
            " were accepted)"
            if verdict.checks_run
            else "no check could run"
        )
        return attrs.evolve(judged, status="not-applicable", reason=why)
    return judged


def expect_failure(outcome: CaseOutcome, reason: str = "") -> CaseOutcome:
    """``outcome`` of a case listed as a known failure (``reason``: the
    list's comment for it): a failure or error becomes "xfailed", a pass
    "xpassed" (a failure of the run); a start not reached stays so, listed."""
    why = reason or None
    if outcome.status in ("failed", "errored"):
        note = f"{outcome.status}, as the xfail list expects"
        return attrs.evolve(
            outcome, status="xfailed", lines=(note, *outcome.lines), listed=True, reason=why
        )
    if outcome.status == "passed":
        note = "passed, but the xfail list expects a failure: remove it from the list"
        return attrs.evolve(outcome, status="xpassed", lines=(note,), listed=True, reason=why)
    return attrs.evolve(outcome, listed=True, reason=outcome.reason or why)


def run_suite(
    cases: Iterable[Case],
    implementation: Implementation,
    progress: Callable[[CaseOutcome], None] | None = None,
    xfail: Iterable[str] | Mapping[str, str] | None = None,
    *,
    options: Options | None = None,
    replays: Mapping[str, ReplayStart] | None = None,
    excluded: Iterable[tuple[Case, str]] = (),
    selection: Mapping[str, JSON] | None = None,
) -> Report:
    """Run ``cases``; those named (``ruleset/topic/id``) in ``xfail`` are
    expected to fail (a mapping gives each its reason). ``options`` default
    to the implementation's declared capabilities; ``replays`` are the
    replay starts (by case name) used for positions when the implementation
    cannot load them. ``excluded`` cases (not selected, each with why) are
    listed in the report without being run."""
    if options is None:
        options = Options(capabilities=implementation.capabilities)
    listed: dict[str, str] | None = None
    if isinstance(xfail, Mapping):
        listed = dict(xfail)
    elif xfail is not None:
        listed = dict.fromkeys(xfail, "")
    outcomes = []
    for case in cases:
        outcome = run_case(case, implementation, options, replays)
        if listed is not None and case.name in listed:
            outcome = expect_failure(outcome, listed[case.name])
        if progress is not None:
            progress(outcome)
        outcomes.append(outcome)
    for case, why in excluded:
        outcomes.append(CaseOutcome(case, "excluded", (why,), reason=why))
    outcomes.sort(key=lambda o: o.case.name)
    return Report(
        implementation.name,
        tuple(outcomes),
        dict(implementation.info),
        listed,
        options,
        dict(selection or {}),
    )


def read_xfail(path: Path) -> list[tuple[int, str]]:
    """The entries of an xfail file, with their line numbers: one case name
    a line; ``#`` starts a comment; blank lines are ignored."""
    return [(number, entry) for number, entry, _ in read_xfail_reasons(path)]


def read_xfail_reasons(path: Path) -> list[tuple[int, str, str]]:
    """The entries of an xfail file with their line numbers and reasons (a
    comment on the entry's own line, else the comment lines just above it)."""
    entries = []
    text = read_bounded(path).decode("utf-8")
    above: list[str] = []
    for number, line in enumerate(text.splitlines(), 1):
        entry, _, comment = line.partition("#")
        entry = entry.strip()
        if not entry:
            above = [*above, comment.strip()] if comment.strip() else []
            continue
        reason = comment.strip() or " ".join(above)
        entries.append((number, entry, reason[:500]))
        above = []
    return entries


def skip_reason(outcome: CaseOutcome) -> str:
    """Why a case was skipped, on one short line."""
    reason = " ".join(" ".join(outcome.lines).split()) or "(no reason given)"
    return reason if len(reason) <= 200 else reason[:197] + "..."


def format_outcome(outcome: CaseOutcome) -> list[str]:
    head = f"{outcome.status.upper():7} {outcome.case.name}"
    na = len(outcome.not_applicable)
    if outcome.status == "passed":
        return [head + (f" ({na} checks not applicable)" if na else "")]
    if outcome.status == "not-applicable":
        if outcome.checks_run:
            reason = outcome.reason or ""
        elif na == 1:
            reason = outcome.not_applicable[0]
        else:
            reason = f"{na} checks, e.g. {outcome.not_applicable[0]}" if na else str(outcome.reason)
        return [f"N/A     {outcome.case.name}: {reason}"]
    if outcome.status == "skipped":
        return [f"SKIPPED {outcome.case.name}: {skip_reason(outcome)}"]
    if outcome.status == "excluded":
        return [f"EXCLUDED {outcome.case.name}: {outcome.reason}"]
    if outcome.status == "start-not-reached":
        return [f"NOT REACHED {outcome.case.name}", *(f"        {x}" for x in outcome.lines)]
    if outcome.status == "xfailed":
        return [f"XFAIL   {outcome.case.name} ({outcome.lines[0].split(',')[0]})"]
    if outcome.status == "xpassed":
        head = f"XPASS   {outcome.case.name}"
    lines = [
        head,
        f"        {outcome.case.title}",
        f"        file: {shown_path(outcome.case.path)}",
        f"        rules: {', '.join(outcome.case.rules)}",
    ]
    lines += [f"        {line}" for line in outcome.lines]
    return lines


def shown_path(path: str) -> str:
    """``path`` from the working directory when it is below it, else as given."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except ValueError:
        return path


def write_report(report: Report, path: Path, version: str) -> None:
    path.write_text(json.dumps(report.to_data(version), indent=2) + "\n", encoding="utf-8")
