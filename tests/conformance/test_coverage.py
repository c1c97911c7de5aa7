"""Traceability between the spec and the conformance suite.

Every live rule of an edition has a case of that edition citing it; every
numbered ruling is pinned by a case; every rule or ruling a case cites
exists and applies to the case's ruleset; and (as in
``tests/test_traceability.py``) the code cites only rules the spec defines.
"""

from __future__ import annotations

from functools import cache

import pytest

import loveletter  # noqa: F401  (fills CITATIONS)
from loveletter.conformance import Case
from loveletter.rules import CITATIONS
from loveletter.spec import Spec, load_spec

from ._support import suite

#: the editions whose rules the suite covers
COVERED_EDITIONS = ("2019", "2019-classic", "premium", "online")


@cache
def spec() -> Spec:
    return load_spec()


def _edition_rules() -> list[tuple[str, str]]:
    return [(e, rule.id) for e in COVERED_EDITIONS for rule in spec().rules_for(e)]


@pytest.mark.parametrize(("edition", "rule_id"), _edition_rules())
def test_every_rule_has_a_case(edition: str, rule_id: str) -> None:
    citing = [c.name for c in suite() if c.ruleset == edition and rule_id in c.rules]
    assert citing, f"no {edition} case cites {rule_id}"


@pytest.mark.parametrize("number", sorted(n for n in load_spec().rulings))
def test_every_ruling_is_pinned_by_a_case(number: int) -> None:
    ruling = spec().rulings[number]
    pinning = [c.name for c in suite() if number in c.rulings]
    assert pinning, f"no case pins ruling {number} ({ruling.title})"
    assert any(c.ruleset in ruling.editions for c in suite() if number in c.rulings)


@pytest.mark.parametrize("case", suite(), ids=lambda case: case.name)
def test_case_cites_real_rules_of_its_ruleset(case: Case) -> None:
    rules = spec().rules
    for rule_id in case.rules:
        assert rule_id in rules, f"{case.name} cites unknown rule {rule_id}"
        rule = rules[rule_id]
        assert not rule.withdrawn, f"{case.name} cites withdrawn rule {rule_id}"
        assert case.ruleset in rule.editions, f"{rule_id} does not apply to {case.ruleset}"
    for number in case.rulings:
        assert number in spec().rulings, f"{case.name} cites unknown ruling {number}"
        assert case.ruleset in spec().rulings[number].editions


def test_code_cites_only_rules_of_the_spec() -> None:
    unknown = sorted(set(CITATIONS) - set(spec().rules))
    assert not unknown
