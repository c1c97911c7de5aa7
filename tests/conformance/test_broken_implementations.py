"""The suite can fail: deliberately broken implementations, driven through
the protocol, fail the cases covering the rule they break."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from loveletter.conformance import Case, External, run_suite

from ._support import impl, suite


def _cites(rule: str) -> Callable[[Case], bool]:
    return lambda case: rule in case.rules


def _rejects(kind: str) -> Callable[[Case], bool]:
    return lambda case: any(step.get("rejected") == kind for step in case.data["steps"])


@pytest.mark.parametrize(
    ("bug", "covers"),
    [
        # every case about a Baron tie must catch a tie that knocks out
        ("baron-tie-eliminates", _cites("baron.tie-no-effect")),
        # every case that expects a protected target to be refused
        ("protected-targetable", _rejects("target-protected")),
    ],
)
def test_broken_implementation_fails_the_covering_cases(
    bug: str, covers: Callable[[Case], bool]
) -> None:
    covering = [case for case in suite() if covers(case)]
    assert len(covering) >= 2, "too few cases cover this rule to prove anything"
    implementation = External(impl("broken_adapter.py", bug))
    try:
        report = run_suite(covering, implementation)
    finally:
        implementation.close()
    passed = [o.case.name for o in report.outcomes if o.status != "failed"]
    assert not passed, f"these cases did not catch {bug}: {passed}"
    assert not report.ok


def test_broken_baron_still_passes_unrelated_cases() -> None:
    """The failures are the bug's, not noise: Guard cases still pass."""
    guard = [case for case in suite() if case.name.startswith("2019/guard/")]
    implementation = External(impl("broken_adapter.py", "baron-tie-eliminates"))
    try:
        report = run_suite(guard, implementation)
    finally:
        implementation.close()
    assert guard and report.ok


@pytest.mark.parametrize(
    ("bug", "rule"),
    [
        ("countess-not-forced", "countess.forced-by-king-or-prince"),
        ("guard-may-name-guard", "guard.name-non-guard"),
        ("prince-does-nothing-on-empty-deck", "prince.empty-deck-draws-set-aside"),
        ("chancellor-returns-reversed", "chancellor.return-bottom-any-order"),
        ("tie-won-by-first-seat", "round.tie-all-win"),
        ("spy-token-shared", "spy.sole-spy-token"),
        ("assassin-ignored", "assassin.guard-player-knocked-out"),
        ("count-not-added", "count.showdown-bonus"),
        ("sycophant-does-not-bind", "sycophant.next-card-must-choose"),
        ("constable-scores-from-hand", "constable.knocked-out-token"),
    ],
)
def test_each_plausible_bug_is_caught_by_the_cases_of_its_rule(bug: str, rule: str) -> None:
    """Mutation testing in miniature: each bug another implementation could
    plausibly have fails some case that cites the rule it breaks."""
    citing = [case for case in suite() if rule in case.rules]
    implementation = External(impl("broken_adapter.py", bug))
    try:
        report = run_suite(citing, implementation)
    finally:
        implementation.close()
    caught = [o.case.name for o in report.outcomes if o.status == "failed"]
    assert caught, f"no case citing {rule} catches {bug}"
