"""How many replay starts depend on each rule.

An implementation without ``positions`` reaches a case's start by playing
its replay start (``conformance/replays``): earlier rounds, then the case's
own round up to its position. A bug in a rule that a start's commands touch
makes the start unreachable, so a rule touched by most starts of a ruleset
turns one bug into a cascade of "start not reached". This report replays
every start through our engine and counts, per ruleset, the starts whose
commands touch each rule (:func:`loveletter.conformance.touches.rules_touched`:
the rules cited by the engine code that decided the command, less the
background every command of its type touches), and how the earlier rounds
of the starts ended (:func:`loveletter.conformance.prior_rounds.round_ending`).

``python -m loveletter.conformance.dependencies`` (or ``python -m
loveletter.conformance.reach --dependencies``) prints it.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

import attrs

from loveletter.commands import StartRound
from loveletter.conformance.cases import Case, CaseError, load_suite
from loveletter.conformance.prior_rounds import round_end_rules, round_ending
from loveletter.conformance.reach import (
    DEFAULT_CASES,
    DEFAULT_REPLAYS,
    Replay,
    ReplayError,
    load_replay_file,
    needs_replay,
    replay_path,
)
from loveletter.conformance.touches import rules_touched
from loveletter.engine import step
from loveletter.errors import LoveLetterError

__all__ = [
    "StartDependencies",
    "main",
    "report",
    "suite_dependencies",
]

#: the rulesets in the order the report gives them
_RULESETS = ("2019", "2019-classic", "premium", "online")


@attrs.frozen
class StartDependencies:
    """What one replay start depends on."""

    #: the case's name (``ruleset/topic/id``)
    case: str
    ruleset: str
    #: the rules the case itself checks (its ``rules``)
    own: frozenset[str]
    #: the rules any of the start's commands touch
    touched: frozenset[str]
    #: the rules the commands of the earlier rounds touch (the prelude: up
    #: to and including the last ``StartRound``); empty for a round-1 start
    prelude: frozenset[str]
    #: how each earlier round ended (:func:`round_ending`), in order
    endings: tuple[str, ...]

    @property
    def own_in_prelude(self) -> frozenset[str]:
        """The case's own rules that its earlier rounds touch, less those
        every round's end touches (:func:`round_end_rules`: no earlier
        round avoids them)."""
        return (self.own & self.prelude) - round_end_rules(self.ruleset)


def start_dependencies(
    replay: Replay, own: Iterable[str] = (), case: str = ""
) -> StartDependencies:
    """Replay ``replay`` through our engine and note what its commands touch.

    Raises :class:`~loveletter.errors.LoveLetterError` (or ``ValueError``)
    when the replay does not play: ``reach --check`` names those."""
    state = replay.opening()
    # the prelude ends with the StartRound that deals the case's round
    last_deal = max(
        (i for i, c in enumerate(replay.commands) if isinstance(c, StartRound)), default=-1
    )
    touched: set[str] = set()
    prelude: set[str] = set()
    endings: list[str] = []
    for index, command in enumerate(replay.commands):
        rules = rules_touched(state, command)
        touched.update(rules)
        if index <= last_deal:
            prelude.update(rules)
        state, events = step(state, command)
        ending = round_ending(command, events)
        if ending is not None and index < last_deal:
            endings.append(ending)
    return StartDependencies(
        case or replay.case,
        replay.ruleset,
        frozenset(own),
        frozenset(touched),
        frozenset(prelude),
        tuple(endings),
    )


def suite_dependencies(
    cases: Sequence[Case], replays: Path = DEFAULT_REPLAYS
) -> tuple[list[StartDependencies], list[str]]:
    """The dependencies of the replay start of every case of ``cases`` that
    has one under ``replays``, and the problems met (a missing or unplayable
    file), each naming its case."""
    found: list[StartDependencies] = []
    problems: list[str] = []
    for case in cases:
        if not needs_replay(case):
            continue
        path = replay_path(replays, case)
        if not path.is_file():
            problems.append(f"{case.name}: no replay file ({path})")
            continue
        try:
            replay = load_replay_file(path)
            found.append(start_dependencies(replay, case.rules, case.name))
        except (ReplayError, LoveLetterError, ValueError) as error:
            problems.append(f"{case.name}: {error}")
    return found, problems


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:3.0f}%" if whole else "  - "


def report(starts: Sequence[StartDependencies], top: int | None = None) -> str:
    """Per ruleset: each rule with the number of starts touching it (most
    first; ``top`` rules at most), of which in earlier rounds, ``*``
    marking the rules every round's end touches; then how the earlier
    rounds ended, as shares of the rounds and of the starts that have
    earlier rounds; then the starts whose earlier rounds touch a rule their
    case checks (besides those of every round's end)."""
    lines: list[str] = []
    rulesets = [r for r in _RULESETS if any(s.ruleset == r for s in starts)]
    rulesets += sorted({s.ruleset for s in starts} - set(rulesets))
    for ruleset in rulesets:
        mine = [s for s in starts if s.ruleset == ruleset]
        later = [s for s in mine if s.endings]
        lines.append(
            f"{ruleset}: {len(mine)} replay starts, {len(later)} with earlier rounds"
            f" ({sum(len(s.endings) for s in later)} rounds)"
        )
        anywhere = Counter(rule for s in mine for rule in s.touched)
        early = Counter(rule for s in mine for rule in s.prelude)
        ranked = sorted(anywhere.items(), key=lambda item: (-item[1], item[0]))
        if top is not None:
            ranked = ranked[:top]
        ends = round_end_rules(ruleset)
        width = max((len(rule) for rule, _ in ranked), default=0) + 2
        lines.append(f"  {'rule':<{width}}  starts  share  in earlier rounds")
        for rule, count in ranked:
            name = f"{rule} *" if rule in ends else rule
            lines.append(
                f"  {name:<{width}}  {count:6}  {_share(count, len(mine))}  {early[rule]:6}"
            )
        if later:
            mean = sum(len(s.prelude - ends) for s in later) / len(later)
            lines.append(
                f"  earlier rounds touch {mean:.1f} rules a start on average"
                " (besides the rules * of every round's end)"
            )
        rounds = Counter(ending for s in later for ending in s.endings)
        having = Counter(ending for s in later for ending in set(s.endings))
        total = sum(rounds.values())
        if total:
            width = max(len(ending) for ending in rounds)
            lines.append(
                f"  {'earlier rounds ended by':<{width}}  rounds  share  starts  share of starts"
            )
            for ending, count in sorted(rounds.items(), key=lambda item: (-item[1], item[0])):
                lines.append(
                    f"  {ending:<{width}}  {count:6}  {_share(count, total)}"
                    f"  {having[ending]:6}  {_share(having[ending], len(later))}"
                )
        clashing = [s for s in mine if s.own_in_prelude]
        lines.append(
            "  starts whose earlier rounds touch their case's own rules"
            f" (besides the rules * of every round's end): {len(clashing)}"
        )
        for s in clashing:
            lines.append(f"    {s.case}: {', '.join(sorted(s.own_in_prelude))}")
        lines.append("")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m loveletter.conformance.dependencies",
        description="How many replay starts touch each rule, and how their earlier rounds end.",
    )
    parser.add_argument("--cases", type=Path, default=DEFAULT_CASES, help="the case tree")
    parser.add_argument("--out", type=Path, default=DEFAULT_REPLAYS, help="the replay tree")
    parser.add_argument("--top", type=int, default=None, help="the most-touched rules only")
    parser.add_argument("--ruleset", action="append", help="only these rulesets (repeatable)")
    args = parser.parse_args(argv)
    try:
        cases = load_suite(args.cases)
    except CaseError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.ruleset:
        cases = [c for c in cases if c.ruleset in args.ruleset]
    starts, problems = suite_dependencies(cases, args.out)
    print(report(starts, args.top), end="")
    for problem in problems:
        print(f"problem: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
