"""``loveletter conformance run``: the suite's command line."""

from __future__ import annotations

import argparse
import base64
import contextlib
import fnmatch
import json
import math
import os
import sys
from pathlib import Path
from typing import Any, TextIO

from loveletter.conformance import html_report
from loveletter.conformance.cases import (
    Case,
    CaseError,
    load_suite,
    parse_players,
    select,
    why_excluded,
)
from loveletter.conformance.checks import Options
from loveletter.conformance.fuzz import fuzz as fuzz_games
from loveletter.conformance.protocol import ProtocolError, TraceFailed
from loveletter.conformance.reach import verify_replay
from loveletter.conformance.runner import (
    SUITE_ROOT,
    CaseOutcome,
    External,
    Implementation,
    InProcess,
    Report,
    format_outcome,
    read_xfail_reasons,
    run_suite,
    shown_path,
    skip_reason,
    suite_version,
    write_report,
)
from loveletter.conformance.starts import ReplayStart, load_replays
from loveletter.conformance.vocabulary import CAPABILITIES
from loveletter.rulesets import RULESETS

#: exit status when the suite itself cannot be run (bad case, bad option
#: value, an implementation that does not start, a report that cannot be written)
SUITE_ERROR = 3
#: exit status when nothing was tested: no case selected, no case of a
#: ruleset the implementation declares, or every case skipped, not
#: applicable or an expected failure (xfailed)
NOTHING_TESTED = 4
#: the longest --timeout, in seconds (a day)
MAX_TIMEOUT = 24 * 60 * 60


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "conformance", help="run the conformance suite against this or another implementation"
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    run = actions.add_parser("run", help="run the cases and report")
    run.add_argument(
        "--ruleset",
        action="append",
        default=[],
        metavar="R",
        help=f"only this ruleset's cases (repeatable; one of {', '.join(sorted(RULESETS))})",
    )
    run.add_argument(
        "--run",
        action="append",
        default=[],
        metavar="GLOB",
        help="only cases whose ruleset/topic/id or id matches (repeatable)",
    )
    run.add_argument(
        "--skip",
        action="append",
        default=[],
        metavar="GLOB",
        help="leave out cases whose ruleset/topic/id or id matches (repeatable)",
    )
    run.add_argument(
        "--players",
        metavar="N",
        help="only cases with these player counts: 2-4, 3, 2,5-6 (an engine of the 16-card "
        "game runs the Premium cases it can with --ruleset premium --players 2-4)",
    )
    run.add_argument(
        "--impl",
        metavar="COMMAND",
        help="an implementation speaking protocol v1 on stdin/stdout (default: this engine, "
        "in process)",
    )
    run.add_argument("--report", metavar="FILE.json", type=Path, help="also write a JSON report")
    run.add_argument(
        "--trace",
        metavar="FILE",
        type=Path,
        help="write every protocol line sent and received to FILE, as JSON lines "
        '{"to": "impl" or "runner", "line": ...} (with --impl)',
    )
    run.add_argument(
        "--xfail",
        metavar="FILE",
        type=Path,
        help="cases known to fail (one ruleset/topic/id a line, # comments): they do not fail "
        "the run, but one that passes does",
    )
    run.add_argument(
        "--cases",
        metavar="DIR",
        type=Path,
        default=SUITE_ROOT / "cases",
        help="the directory of cases (default: the suite in this checkout)",
    )
    run.add_argument(
        "--timeout",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="longest wait for one reply from --impl (default: %(default)s)",
    )
    run.add_argument(
        "--rejections",
        choices=("kinds", "any"),
        default="kinds",
        help="kinds (default): a refusal must name the expected rejection kind; any: judge only "
        "accepted versus refused, and list the kinds that differ apart",
    )
    run.add_argument(
        "--starts",
        choices=("auto", "replay"),
        default="auto",
        help="auto (default): load positions when the implementation offers them, else play "
        "the case's replay start; replay: always play the replay starts",
    )
    run.add_argument(
        "--quiet", "-q", action="store_true", help="print only failures and the summary"
    )
    run.set_defaults(handler=cmd_run)
    _add_report_parser(actions)
    _add_fuzz_parser(actions)


def _fail(message: str, status: int = SUITE_ERROR) -> int:
    print(f"loveletter conformance: {message}", file=sys.stderr)
    return status


def _option_error(args: argparse.Namespace) -> str | None:
    """What is wrong with the options' values, checked before anything runs."""
    timeout = args.timeout
    if not math.isfinite(timeout) or not 0 < timeout <= MAX_TIMEOUT:
        return (
            f"--timeout: expected a number of seconds above 0 and at most {MAX_TIMEOUT}, "
            f"not {timeout!r}"
        )
    if args.impl is not None and not args.impl.strip():
        return "--impl: expected a command, not an empty string"
    for option, path in (("--report", args.report), ("--trace", args.trace)):
        if path is not None:
            problem = _unwritable(path, option)
            if problem is not None:
                return problem
    if (
        args.report is not None
        and args.trace is not None
        and args.report.resolve() == args.trace.resolve()
    ):
        return f"--report and --trace name the same file, {args.report}"
    return None


def _unwritable(path: Path, option: str = "--report") -> str | None:
    """Why ``option``'s file cannot be written to ``path`` (None: it can)."""
    if path.is_dir():
        return f"{option}: {path} is a directory"
    if path.exists():
        if not path.is_file():
            return f"{option}: {path} is not a regular file"
        if not os.access(path, os.W_OK):
            return f"{option}: {path} is not writable"
        return None
    parent = path.parent
    if not parent.is_dir():
        return f"{option}: the directory {parent} does not exist"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"{option}: the directory {parent} is not writable"
    return None


def _xfail(path: Path, names: set[str]) -> tuple[dict[str, str], str | None]:
    """The case names listed in the xfail file with their reasons, or what
    is wrong with it."""
    try:
        entries = read_xfail_reasons(path)
    except CaseError as error:
        return {}, f"--xfail: cannot read {path}: {error.detail}"
    except UnicodeDecodeError as error:
        return {}, f"--xfail: cannot read {path}: {error}"
    for number, entry, _ in entries:
        if entry not in names:
            return {}, (
                f"--xfail: {path}, line {number}: {entry[:200]!r} names no case in the suite "
                "(expected ruleset/topic/id)"
            )
    return {entry: reason for _, entry, reason in entries}, None


def cmd_run(args: argparse.Namespace) -> int:
    unknown = [r for r in args.ruleset if r not in RULESETS]
    if unknown:
        print(f"loveletter conformance: unknown ruleset {unknown[0]!r}", file=sys.stderr)
        return 2
    problem = _option_error(args)
    if problem is not None:
        return _fail(problem)
    try:
        every = load_suite(args.cases)
    except CaseError as error:
        return _fail(f"bad case: {error}")
    players = None
    if args.players is not None:
        try:
            players = parse_players(args.players)
        except ValueError as error:
            print(f"loveletter conformance: --players: {error}", file=sys.stderr)
            return 2
    xfail: dict[str, str] | None = None
    if args.xfail is not None:
        xfail, problem = _xfail(args.xfail, {case.name for case in every})
        if problem is not None:
            return _fail(problem)
    cases = select(every, rulesets=args.ruleset, run=args.run, skip=args.skip, players=players)
    excluded = []
    for case in select(every, rulesets=args.ruleset):
        why = why_excluded(case, run=args.run, skip=args.skip, players=players)
        if why is not None:
            excluded.append((case, why))
    args.excluded = excluded
    args.selection = {
        "rulesets": sorted(args.ruleset or {case.ruleset for case in every}),
        "players": args.players,
        "run": args.run or None,
        "skip": args.skip or None,
    }
    for pattern in args.run:
        if not any(
            fnmatch.fnmatchcase(c.name, pattern) or fnmatch.fnmatchcase(c.id, pattern)
            for c in every
        ):
            print(f"loveletter conformance: --run {pattern!r} matches no case", file=sys.stderr)
    if not cases:
        return _fail(
            "no case selected (see --ruleset, --run, --skip): nothing to test", NOTHING_TESTED
        )
    try:
        trace = None if args.trace is None else args.trace.open("w", encoding="utf-8")
    except OSError as error:
        return _fail(f"--trace: cannot write {args.trace}: {error.strerror or error}")
    try:
        return _run(args, cases, xfail, trace)
    except TraceFailed as error:
        return _fail(f"--trace: {error}")
    finally:
        if trace is not None:
            with contextlib.suppress(OSError):
                trace.close()


def _run(
    args: argparse.Namespace,
    cases: list[Case],
    xfail: dict[str, str] | None,
    trace: TextIO | None,
) -> int:
    def traced(direction: str, line: str, raw: bytes | None) -> None:
        assert trace is not None
        entry: dict[str, str] = {"to": direction, "line": line}
        if raw is not None:  # not UTF-8: the bytes as written, too
            entry["base64"] = base64.b64encode(raw).decode("ascii")
        try:
            trace.write(json.dumps(entry) + "\n")
            trace.flush()
        except (OSError, ValueError) as error:
            raise TraceFailed(f"cannot write {args.trace}: {error}") from None

    implementation: Implementation
    try:
        implementation = (
            External(args.impl, timeout=args.timeout, trace=traced if trace else None)
            if args.impl
            else InProcess(timeout=args.timeout)
        )
    except (ProtocolError, OSError) as error:
        return _fail(f"cannot start {args.impl!r}: {error}")
    needed = sorted({case.ruleset for case in cases})
    if not set(needed) & implementation.rulesets:
        implementation.close()
        declared = ", ".join(sorted(implementation.rulesets)) or "none"
        return _fail(
            f"{implementation.name} declares no ruleset the selected cases need "
            f"(they need {', '.join(needed)}; it declares {declared}): nothing to test",
            NOTHING_TESTED,
        )

    def show(outcome: CaseOutcome) -> None:
        if not args.quiet or outcome.status in ("failed", "errored", "xpassed"):
            for line in format_outcome(outcome):
                print(line)

    options = Options(
        capabilities=implementation.capabilities, rejections=args.rejections, starts=args.starts
    )
    replays: dict[str, ReplayStart] = {}
    if args.starts == "replay" or "positions" not in options.capabilities:
        try:
            replays = load_replays(args.cases.parent / "replays")
        except CaseError as error:
            implementation.close()
            return _fail(f"bad replay start: {error}")
        problem = _replay_problem(cases, replays, options)
        if problem is not None:
            implementation.close()
            return _fail(f"bad replay start: {problem}")
    try:
        report = run_suite(
            cases,
            implementation,
            show,
            xfail,
            options=options,
            replays=replays,
            excluded=args.excluded,
            selection=args.selection,
        )
    finally:
        implementation.close()
    if args.quiet:
        for line in _skipped_briefly(report):
            print(line)
    for line in _apart(report):
        print(line)
    print(report.summary())
    if args.report is not None:
        try:
            write_report(report, args.report, _version(args.cases))
        except OSError as error:
            return _fail(f"--report: cannot write {args.report}: {error.strerror or error}")
    if not report.ok:
        return 1
    if not report.tested:
        return _fail(
            "no case passed: every selected case was skipped, not applicable or listed as"
            " expected to fail, so nothing was tested",
            NOTHING_TESTED,
        )
    return 0


def _replay_problem(
    cases: list[Case], replays: dict[str, ReplayStart], options: Options
) -> str | None:
    """What is wrong with a replay start the run will play (None: nothing):
    each is held to its case (name, ruleset, players, settings) and proven
    to reach the case's start through the rules, so that a file swapped or
    edited cannot pass an implementation on another case's start."""
    for case in cases:
        replay = replays.get(case.name)
        if replay is None or case.start_rejected:
            continue
        if options.starts != "replay" and "positions" in options.capabilities:
            continue
        problem = verify_replay(case, replay.to_data(), replay.path)
        if problem is not None:
            return problem
    return None


def _apart(report: Report) -> list[str]:
    """What the summary line only counts: the capabilities the checks that
    could not run needed, the outcomes the adapter decided, the rejection
    kinds that differ, and the failures and starts not reached rolled up by
    rule (one line per rule: one bug usually shows as many cases)."""
    lines = []
    for rule, names in report.failures_by_rule():
        lines.append(f"FAILED BY RULE {rule}: {_cases(names)}")
    for rule, names in report.start_not_reached_by_rule():
        lines.append(f"START NOT REACHED BY RULE {rule}: {_cases(names)}")
    for line in report.by_adapter:
        lines.append(f"BY ADAPTER {line}")
    missing = sorted(set(CAPABILITIES) - report.options.capabilities)
    if missing:
        lines.append(f"the implementation does not offer: {', '.join(missing)}")
    for reason, count in report.not_applicable_by_reason().items():
        lines.append(f"NOT APPLICABLE: {count} checks ({reason})")
    for line in report.kind_mismatches:
        lines.append(f"REJECTION KIND {line}")
    return lines


def _cases(names: list[str]) -> str:
    shown = ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")
    return f"{len(names)} case{'s' if len(names) != 1 else ''} ({shown})"


def _skipped_briefly(report: Report) -> list[str]:
    """The skipped cases, one line per reason (for --quiet)."""
    by_reason: dict[str, list[str]] = {}
    for outcome in report.outcomes:
        if outcome.status == "skipped":
            by_reason.setdefault(skip_reason(outcome), []).append(outcome.case.name)
    lines = []
    for reason, names in by_reason.items():
        if len(names) == 1:
            lines.append(f"SKIPPED {names[0]}: {reason}")
        else:
            lines.append(f"SKIPPED {len(names)} cases ({names[0]}, ...): {reason}")
    return lines


def _version(cases: Path) -> str:
    try:
        return suite_version(cases.parent)
    except (OSError, KeyError, TypeError):
        return "unknown"


def run_in_process(cases: Path = SUITE_ROOT / "cases") -> Report:
    """The whole suite against this engine (used by ``loveletter demo``)."""
    return run_suite(load_suite(cases), InProcess())


# --------------------------------------------------------------------------
# loveletter conformance report


def _add_report_parser(actions: Any) -> None:
    report = actions.add_parser(
        "report", help="write a run's JSON report (run --report) as a static HTML page"
    )
    report.add_argument("report", metavar="REPORT.json", type=Path, help="the report of a run")
    report.add_argument(
        "-o",
        "--output",
        metavar="OUT.html",
        type=Path,
        help="where to write the page (default: the report's name with .html)",
    )
    report.add_argument(
        "--docs-url",
        metavar="URL",
        type=_docs_url,
        help="the documentation site's root: each rule also links to its page there",
    )
    report.add_argument(
        "--cases",
        metavar="DIR",
        type=Path,
        default=SUITE_ROOT / "cases",
        help="the directory of cases the run read (default: the suite in this checkout)",
    )
    report.set_defaults(handler=cmd_report)


def _docs_url(url: str) -> str:
    try:
        return html_report.docs_base(url)
    except html_report.DocsUrlError as error:
        raise argparse.ArgumentTypeError(str(error).removeprefix("--docs-url: ")) from None


def cmd_report(args: argparse.Namespace) -> int:
    """Write the page; 0 when written, :data:`SUITE_ERROR` when the report
    cannot be read or the page cannot be written."""
    output: Path = args.output or args.report.with_suffix(".html")
    option = "--output" if args.output is not None else "the page"
    if output.resolve() == args.report.resolve():
        return _fail(f"{option}: {output} is the report itself")
    problem = _unwritable(output, option)
    if problem is not None:
        return _fail(problem)
    try:
        data = html_report.load_report(args.report)
    except html_report.ReportError as error:
        return _fail(f"bad report: {error}")
    page = html_report.render_html(data, args.cases.parent, docs_url=args.docs_url)
    try:
        output.write_text(page, encoding="utf-8")
    except OSError as error:
        return _fail(f"{option}: cannot write {output}: {error.strerror or error}")
    print(f"wrote {output}")
    return 0


# --------------------------------------------------------------------------
# loveletter conformance fuzz


def _add_fuzz_parser(actions: Any) -> None:
    fuzz = actions.add_parser(
        "fuzz",
        help="play random games against an implementation with this engine as the oracle;"
        " shrink the first disagreement into a case file",
    )
    fuzz.add_argument(
        "--impl",
        metavar="COMMAND",
        help="an implementation speaking protocol v1 (default: this engine, in process)",
    )
    fuzz.add_argument(
        "--ruleset", default="2019", choices=sorted(RULESETS), help="default: %(default)s"
    )
    fuzz.add_argument(
        "--players",
        type=int,
        metavar="N",
        help="seats in every game (default: drawn per game within the edition's range)",
    )
    budget = fuzz.add_mutually_exclusive_group()
    budget.add_argument("--games", type=int, metavar="G", help="games to play (default: 100)")
    budget.add_argument("--seconds", type=float, metavar="S", help="play for this long")
    fuzz.add_argument(
        "--seed", default="0", metavar="S", help="the seed of every game (default: %(default)s)"
    )
    fuzz.add_argument(
        "--out",
        type=Path,
        default=Path("fuzz-out"),
        metavar="DIR",
        help="where the shrunk case is written, as DIR/cases/<ruleset>/fuzz/<id>.yaml "
        "(default: %(default)s)",
    )
    fuzz.add_argument(
        "--rejections",
        choices=("kinds", "any"),
        default="kinds",
        help="as for run: any judges refusals on refused versus accepted only",
    )
    fuzz.add_argument(
        "--timeout",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="longest wait for one reply (default: %(default)s)",
    )
    fuzz.add_argument("--report", metavar="FILE.json", type=Path, help="also write a JSON report")
    fuzz.add_argument("--quiet", "-q", action="store_true", help="no progress line")
    fuzz.set_defaults(handler=cmd_fuzz)


def cmd_fuzz(args: argparse.Namespace) -> int:
    """0: no disagreement; 1: one found, shrunk and written; 3: the fuzz
    could not run; 4: the implementation plays no such ruleset."""
    if args.games is not None and args.games < 1:
        return _fail("--games: expected at least 1")
    if args.seconds is not None and not 0 < args.seconds <= MAX_TIMEOUT:
        return _fail(f"--seconds: expected above 0 and at most {MAX_TIMEOUT}")
    if not math.isfinite(args.timeout) or not 0 < args.timeout <= MAX_TIMEOUT:
        return _fail(f"--timeout: expected above 0 and at most {MAX_TIMEOUT}")
    rules = RULESETS[args.ruleset]
    if args.players is not None and not rules.min_players <= args.players <= rules.max_players:
        return _fail(
            f"--players: {args.ruleset} seats {rules.min_players} to {rules.max_players}", 2
        )
    if args.report is not None:
        problem = _unwritable(args.report)
        if problem is not None:
            return _fail(problem)
    implementation: Implementation
    try:
        implementation = (
            External(args.impl, timeout=args.timeout)
            if args.impl
            else InProcess(timeout=args.timeout)
        )
    except (ProtocolError, OSError) as error:
        return _fail(f"cannot start {args.impl!r}: {error}")
    if args.ruleset not in implementation.rulesets:
        implementation.close()
        return _fail(f"{implementation.name} does not declare {args.ruleset}", NOTHING_TESTED)
    games = args.games if args.games is not None or args.seconds is not None else 100
    live = not args.quiet and sys.stderr.isatty()

    def progress(number: int, outcome: CaseOutcome) -> None:
        if live:
            total = f"/{games}" if games else ""
            print(f"\rfuzz: game {number + 1}{total} {outcome.status:8}", end="", file=sys.stderr)

    options = Options(capabilities=implementation.capabilities, rejections=args.rejections)
    try:
        result = fuzz_games(
            implementation,
            args.ruleset,
            players=args.players,
            games=games,
            seconds=args.seconds,
            seed=args.seed,
            options=options,
            out=args.out,
            progress=progress,
        )
    finally:
        implementation.close()
        if live:
            print(file=sys.stderr)
    found = result.disagreement
    print(
        f"fuzz {args.ruleset}: {result.games} games, {result.commands} commands,"
        f" {result.refusals_tried} refusals tried, {1 if found else 0} disagreements"
    )
    if found is not None:
        first = found.outcome
        print(f"DISAGREEMENT in game {found.game + 1} (seed {found.seed})")
        for line in first.lines[:12]:
            print(f"        {line}")
        print(f"DISAGREEMENT BY RULE {', '.join(found.rules)}")
        print(f"shrunk to {found.length} steps in {found.runs} runs: {shown_path(found.case.path)}")
        print(
            "run it: loveletter conformance run --cases"
            f" {Path(found.case.path).parents[2]} --run '{found.case.name}'"
            + (f" --impl {args.impl!r}" if args.impl else "")
        )
    if args.report is not None:
        outcomes = [*result.outcomes]
        if found is not None:
            outcomes.append(found.outcome)
        report = Report(
            implementation.name,
            tuple(outcomes),
            dict(implementation.info),
            None,
            options,
            {"rulesets": [args.ruleset], "players": args.players, "seed": args.seed},
        )
        try:
            write_report(report, args.report, _version(SUITE_ROOT / "cases"))
        except OSError as error:
            return _fail(f"--report: cannot write {args.report}: {error.strerror or error}")
    return 1 if found is not None else 0
