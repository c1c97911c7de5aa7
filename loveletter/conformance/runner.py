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
from loveletter.conformance.checks import EVERYTHING, Options, judge, plan
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
        trace: Callable[[str, str], None] | None = None,
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
    #: "passed", "failed", "skipped", "errored" or "not-applicable" (no check
    #: of the case could run: the implementation lacks what it needs); with
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


@attrs.frozen
class Report:
    implementation: str
    outcomes: tuple[CaseOutcome, ...]
    #: name, version, language and command (see :attr:`Implementation.info`)
    info: dict[str, JSON] = attrs.field(factory=dict)
    #: the names in the xfail list (None: no list was given)
    xfail: frozenset[str] | None = None
    #: what the implementation offers, and how strictly it was judged
    options: Options = attrs.field(factory=Options)

    def count(self, status: str) -> int:
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def ok(self) -> bool:
        """No case failed, errored, or passed while listed as a known failure."""
        return all(self.count(s) == 0 for s in ("failed", "errored", "xpassed"))

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

    def not_applicable_by_reason(self) -> dict[str, int]:
        """How many checks were not applicable, by what they needed."""
        reasons: Counter[str] = Counter()
        for outcome in self.outcomes:
            for line in outcome.not_applicable:
                reasons[line.rsplit(": ", 1)[-1]] += 1
        return dict(sorted(reasons.items(), key=lambda item: (-item[1], item[0])))

    def summary(self) -> str:
        """``N passed, M failed, K skipped`` (errored cases count as failed),
        then ``, X xfailed, Y xpassed`` when an xfail list was given, then
        the cases and checks not applicable and the rejection kinds that
        differ, when there are any."""
        failed = self.count("failed") + self.count("errored")
        line = f"{self.count('passed')} passed, {failed} failed, {self.count('skipped')} skipped"
        if self.xfail is not None:
            line += f", {self.count('xfailed')} xfailed, {self.count('xpassed')} xpassed"
        errored = self.count("errored")
        if errored:
            line += f" ({errored} of the failures errored)"
        na = self.checks_not_applicable
        if na:
            line += (
                f"; {self.count('not-applicable')} cases not applicable; "
                f"checks: {self.checks_run} run, {na} not applicable"
            )
        if self.options.rejections == "any":
            line += f"; rejection kinds: {len(self.kind_mismatches)} differ"
        return line

    def to_data(self, version: str) -> dict[str, JSON]:
        summary: dict[str, JSON] = {
            s: self.count(s) for s in STATUSES if self.xfail is not None or s[0] != "x"
        }
        summary["checks_run"] = self.checks_run
        summary["checks_not_applicable"] = self.checks_not_applicable
        summary["not_applicable_by_reason"] = self.not_applicable_by_reason()
        summary["rejection_kind_mismatches"] = len(self.kind_mismatches)
        return {
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
            "xfail": None if self.xfail is None else sorted(self.xfail),
            "summary": summary,
            "cases": [
                {
                    "name": o.case.name,
                    "id": o.case.id,
                    "rules": list(o.case.rules),
                    "status": o.status,
                    "xfail": o.listed,
                    "details": list(o.lines),
                    "checks_run": o.checks_run,
                    "not_applicable": list(o.not_applicable),
                    "rejection_kind_mismatches": list(o.kind_mismatches),
                }
                for o in self.outcomes
            ],
        }


#: every status a case can end with, in the report's summary order (the
#: x-statuses only with an xfail list)
STATUSES = ("passed", "failed", "skipped", "errored", "not-applicable", "xfailed", "xpassed")


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
        return CaseOutcome(
            case, "skipped", (f"the implementation does not support ruleset {case.ruleset}",)
        )
    the_plan = plan(case, options, replays or {})
    if the_plan.script is None:
        return CaseOutcome(case, "not-applicable", not_applicable=the_plan.not_applicable)
    reply = implementation.run(the_plan.script)
    if reply.status == "skipped":
        return CaseOutcome(case, "skipped", (str(reply.data.get("reason", "")),))
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
    if verdict.failures:
        status = "failed"
    elif verdict.checks_run == 0:
        status = "not-applicable"
    else:
        status = "passed"
    return CaseOutcome(
        case,
        status,
        verdict.failures,
        not_applicable=verdict.not_applicable,
        checks_run=verdict.checks_run,
        kind_mismatches=verdict.kind_mismatches,
    )


def expect_failure(outcome: CaseOutcome) -> CaseOutcome:
    """``outcome`` of a case listed as a known failure: a failure or error
    becomes "xfailed", a pass "xpassed" (a failure of the run)."""
    if outcome.status in ("failed", "errored"):
        note = f"{outcome.status}, as the xfail list expects"
        return attrs.evolve(outcome, status="xfailed", lines=(note, *outcome.lines), listed=True)
    if outcome.status == "passed":
        note = "passed, but the xfail list expects a failure: remove it from the list"
        return attrs.evolve(outcome, status="xpassed", lines=(note,), listed=True)
    return attrs.evolve(outcome, listed=True)


def run_suite(
    cases: Iterable[Case],
    implementation: Implementation,
    progress: Callable[[CaseOutcome], None] | None = None,
    xfail: Iterable[str] | None = None,
    *,
    options: Options | None = None,
    replays: Mapping[str, ReplayStart] | None = None,
) -> Report:
    """Run ``cases``; those named (``ruleset/topic/id``) in ``xfail`` are
    expected to fail. ``options`` default to the implementation's declared
    capabilities; ``replays`` are the replay starts (by case name) used for
    positions when the implementation cannot load them."""
    if options is None:
        options = Options(capabilities=implementation.capabilities)
    listed = None if xfail is None else frozenset(xfail)
    outcomes = []
    for case in cases:
        outcome = run_case(case, implementation, options, replays)
        if listed is not None and case.name in listed:
            outcome = expect_failure(outcome)
        if progress is not None:
            progress(outcome)
        outcomes.append(outcome)
    return Report(implementation.name, tuple(outcomes), dict(implementation.info), listed, options)


def read_xfail(path: Path) -> list[tuple[int, str]]:
    """The entries of an xfail file, with their line numbers: one case name
    a line; ``#`` starts a comment; blank lines are ignored."""
    entries = []
    text = read_bounded(path).decode("utf-8")
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
    na = len(outcome.not_applicable)
    if outcome.status == "passed":
        return [head + (f" ({na} checks not applicable)" if na else "")]
    if outcome.status == "not-applicable":
        reason = (
            outcome.not_applicable[0]
            if na == 1
            else f"{na} checks, e.g. {outcome.not_applicable[0]}"
        )
        return [f"N/A     {outcome.case.name}: {reason}"]
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
