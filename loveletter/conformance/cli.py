"""``loveletter conformance run``: the suite's command line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from loveletter.conformance.cases import CaseError, load_suite, select
from loveletter.conformance.protocol import ProtocolError
from loveletter.conformance.runner import (
    SUITE_ROOT,
    CaseOutcome,
    External,
    Implementation,
    InProcess,
    Report,
    format_outcome,
    run_suite,
    suite_version,
    write_report,
)
from loveletter.rulesets import RULESETS

#: exit status when the suite itself cannot be run (bad case, dead implementation)
SUITE_ERROR = 3


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
        "--impl",
        metavar="COMMAND",
        help="an implementation speaking protocol v1 on stdin/stdout (default: this engine, "
        "in process)",
    )
    run.add_argument("--report", metavar="FILE.json", type=Path, help="also write a JSON report")
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
        "--quiet", "-q", action="store_true", help="print only failures and the summary"
    )
    run.set_defaults(handler=cmd_run)


def cmd_run(args: argparse.Namespace) -> int:
    unknown = [r for r in args.ruleset if r not in RULESETS]
    if unknown:
        print(f"loveletter conformance: unknown ruleset {unknown[0]!r}", file=sys.stderr)
        return 2
    try:
        cases = select(load_suite(args.cases), rulesets=args.ruleset, run=args.run, skip=args.skip)
    except CaseError as error:
        print(f"loveletter conformance: bad case: {error}", file=sys.stderr)
        return SUITE_ERROR
    implementation: Implementation
    try:
        implementation = External(args.impl, timeout=args.timeout) if args.impl else InProcess()
    except (ProtocolError, OSError) as error:
        print(f"loveletter conformance: cannot start {args.impl!r}: {error}", file=sys.stderr)
        return SUITE_ERROR

    def show(outcome: CaseOutcome) -> None:
        if outcome.status != "passed" or not args.quiet:
            for line in format_outcome(outcome):
                print(line)

    try:
        report = run_suite(cases, implementation, show)
    finally:
        implementation.close()
    print(report.summary())
    if args.report is not None:
        write_report(report, args.report, _version(args.cases))
    return 0 if report.ok else 1


def _version(cases: Path) -> str:
    try:
        return suite_version(cases.parent)
    except (OSError, KeyError, TypeError):
        return "unknown"


def run_in_process(cases: Path = SUITE_ROOT / "cases") -> Report:
    """The whole suite against this engine (used by ``loveletter demo``)."""
    return run_suite(load_suite(cases), InProcess())
