"""Traceability between the spec, the code and the tests.

Every rule ID the code cites (``@implements``) and every rule ID a test
cites (``@pytest.mark.rule(...)``) is defined in ``spec/``; every rule of the
spec is implemented by some code and checked by some test; rulings and rules
refer to each other consistently, and every ruling a rule cites applies to
an edition of that rule; every source a rule cites exists in the
rulebooks (when ``../shared/rulebooks`` is there to check against).

Test markers are collected by reading the test files with :mod:`ast`, so
the check needs neither to import nor to run them.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path

import attrs
import pytest
import yaml

import loveletter  # noqa: F401  (imported for its side effect: it fills CITATIONS)
from loveletter.rules import CITATIONS
from loveletter.spec import Rule, Ruling, Spec, load_spec

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
RULEBOOKS = REPO.parent / "shared" / "rulebooks"


@cache
def spec() -> Spec:
    return load_spec()


def live_rules() -> dict[str, Rule]:
    return {rule_id: rule for rule_id, rule in spec().rules.items() if not rule.withdrawn}


def _is_rule_marker(node: ast.expr) -> bool:
    """``pytest.mark.rule``, ``mark.rule`` (``from pytest import mark``)."""
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "rule"
        and (
            (isinstance(node.value, ast.Attribute) and node.value.attr == "mark")
            or (isinstance(node.value, ast.Name) and node.value.id == "mark")
        )
    )


def _module_constants(tree: ast.Module) -> dict[str, tuple[str, ...]]:
    """Module-level ``NAME = "rule.id"`` and ``NAME = ("a.b", "c.d")``."""
    constants: dict[str, tuple[str, ...]] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        else:
            continue
        if not isinstance(target, ast.Name):
            continue
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            constants[target.id] = (value.value,)
        elif isinstance(value, ast.Tuple | ast.List):
            strings = [
                e.value
                for e in value.elts
                if isinstance(e, ast.Constant) and isinstance(e.value, str)
            ]
            if len(strings) == len(value.elts):
                constants[target.id] = tuple(strings)
    return constants


def marker_citations(source: str, filename: str) -> Iterator[tuple[str, int]]:
    """``(rule ID, line)`` for every rule ID given to ``mark.rule(...)``: a
    string literal, or a module-level constant naming one (``RULE``) or a
    tuple of them (``*RULES``)."""
    tree = ast.parse(source, filename=filename)
    constants = _module_constants(tree)
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and _is_rule_marker(node.func)):
            continue
        for argument in node.args:
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                yield argument.value, argument.lineno
                continue
            name = argument.value if isinstance(argument, ast.Starred) else argument
            if isinstance(name, ast.Name) and name.id in constants:
                names = constants[name.id]
                if isinstance(argument, ast.Starred) or len(names) == 1:
                    for rule_id in names:
                        yield rule_id, argument.lineno
                    continue
            raise AssertionError(
                f"{filename}:{node.lineno}: mark.rule takes rule IDs as string literals "
                "or module-level constants"
            )


def _test_sources() -> list[Path]:
    return sorted(p for p in TESTS.rglob("*.py") if "__pycache__" not in p.parts)


@cache
def cited_by_tests() -> dict[str, list[str]]:
    """rule ID -> ``file:line`` of every test marker citing it."""
    citations: dict[str, list[str]] = {}
    for path in _test_sources():
        where = path.relative_to(REPO)
        for rule_id, line in marker_citations(path.read_text(encoding="utf-8"), str(where)):
            citations.setdefault(rule_id, []).append(f"{where}:{line}")
    return citations


def test_the_marker_scanner_finds_rule_ids_in_every_spelling() -> None:
    source = (
        "import pytest\n"
        "from pytest import mark\n"
        "RULE = 'e.five'\n"
        "RULES = ('f.six', 'g.seven')\n"
        "pytestmark = pytest.mark.rule('a.one')\n"
        "@pytest.mark.rule('b.two', 'c.three')\n"
        "def test_x(): pass\n"
        "@mark.rule('d.four', RULE)\n"
        "def test_y(): pass\n"
        "@pytest.mark.rule(*RULES)\n"
        "def test_w(): pass\n"
        "@pytest.mark.parametrize('rule', [1])\n"
        "def test_z(rule): pass\n"
    )
    found = [rule_id for rule_id, _ in marker_citations(source, "example.py")]
    assert sorted(found) == [
        "a.one",
        "b.two",
        "c.three",
        "d.four",
        "e.five",
        "f.six",
        "g.seven",
    ]


def test_the_marker_scanner_refuses_rule_ids_it_cannot_read() -> None:
    with pytest.raises(AssertionError, match="string literals"):
        list(marker_citations("import pytest\npytest.mark.rule(name())\n", "example.py"))
    with pytest.raises(AssertionError, match="string literals"):
        list(marker_citations("import pytest\npytest.mark.rule(UNKNOWN)\n", "example.py"))


def test_every_rule_cited_by_the_code_is_defined_in_the_spec() -> None:
    assert CITATIONS, "importing loveletter registers its @implements citations"
    unknown = {
        rule_id: functions
        for rule_id, functions in CITATIONS.items()
        if rule_id not in spec().rules
    }
    assert not unknown, f"code cites rules missing from spec/: {unknown}"


def test_the_code_cites_no_withdrawn_rule() -> None:
    withdrawn = sorted(r for r in CITATIONS if r in spec().rules and spec().rules[r].withdrawn)
    assert not withdrawn, f"code still cites withdrawn rules: {withdrawn}"


def test_every_spec_rule_is_implemented_by_some_cited_code() -> None:
    missing = sorted(set(live_rules()) - set(CITATIONS))
    assert not missing, f"no @implements cites these rules: {missing}"


def test_every_rule_cited_by_a_test_marker_is_defined_in_the_spec() -> None:
    unknown = {r: where for r, where in cited_by_tests().items() if r not in spec().rules}
    assert not unknown, f"test markers cite rules missing from spec/: {unknown}"


def test_every_spec_rule_is_checked_by_at_least_one_test() -> None:
    """Fails until the rules tests (tests/rules/) cover every rule."""
    missing = sorted(set(live_rules()) - set(cited_by_tests()))
    assert not missing, f"no test carries @pytest.mark.rule for: {missing}"


def test_rulings_and_rules_refer_to_each_other_consistently() -> None:
    rules, rulings = spec().rules, spec().rulings
    for number, ruling in rulings.items():
        assert ruling.number == number
        assert ruling.rules, f"ruling {number} refines no rule"
        for rule_id in ruling.rules:
            assert rule_id in rules, f"ruling {number} cites unknown rule {rule_id}"
        assert set(ruling.editions) <= set(spec().editions), f"ruling {number}: unknown edition"
    for rule_id, rule in rules.items():
        for number in rule.rulings:
            assert number in rulings, f"{rule_id} cites unknown ruling {number}"
            # a rule that says a ruling refines it is listed by that ruling
            assert rule_id in rulings[number].rules, f"{rule_id} cites ruling {number}, not back"


def ruling_edition_problems(rules: Mapping[str, Rule], rulings: Mapping[int, Ruling]) -> list[str]:
    """Every rule-ruling link whose two ends share no edition.

    A ruling decides something for its editions only, so a rule that cites
    it for editions the ruling does not cover rests, there, on nothing (and
    a ruling listing a rule of other editions refines nothing of it).
    """
    problems: list[str] = []
    for rule_id, rule in rules.items():
        for number in rule.rulings:
            ruling = rulings.get(number)
            if ruling is not None and not set(ruling.editions) & set(rule.editions):
                problems.append(
                    f"{rule_id} ({', '.join(rule.editions)}) cites ruling {number}, "
                    f"which applies only to {', '.join(ruling.editions)}"
                )
    for number, ruling in rulings.items():
        for rule_id in ruling.rules:
            listed = rules.get(rule_id)
            if listed is not None and not set(ruling.editions) & set(listed.editions):
                problems.append(
                    f"ruling {number} ({', '.join(ruling.editions)}) refines {rule_id}, "
                    f"which applies only to {', '.join(listed.editions)}"
                )
    return problems


def test_every_ruling_a_rule_cites_applies_to_an_edition_of_that_rule() -> None:
    problems = ruling_edition_problems(spec().rules, spec().rulings)
    assert not problems, "\n".join(problems)


def test_the_edition_check_finds_a_ruling_of_other_editions() -> None:
    rules, rulings = dict(spec().rules), dict(spec().rulings)
    assert ruling_edition_problems(rules, rulings) == []
    # the Premium ruling on the set-aside card, moved to another edition:
    # the Prince rule would cite it for editions it no longer covers
    rulings[38] = attrs.evolve(rulings[38], editions=("online",))
    found = ruling_edition_problems(rules, rulings)
    assert any(
        "prince.empty-deck-draws-set-aside" in line and "ruling 38" in line for line in found
    )
    assert any(line.startswith("ruling 38 (online) refines") for line in found), found
    # a ruling that lists a rule (without the rule citing it back) is checked too
    rulings = dict(spec().rulings)
    rulings[56] = attrs.evolve(rulings[56], rules=(*rulings[56].rules, "spy.sole-spy-token"))
    assert ruling_edition_problems(rules, rulings) == [
        "ruling 56 (premium) refines spy.sole-spy-token, which applies only to 2019"
    ]


def test_every_rule_has_an_id_of_its_topic_editions_and_a_source() -> None:
    for rule_id, rule in spec().rules.items():
        assert rule.id == rule_id
        assert rule_id.startswith(rule.topic + "."), rule_id
        assert rule.statement.strip(), f"{rule_id} has no statement"
        assert rule.editions and set(rule.editions) <= set(spec().editions), rule_id
        assert rule.sources, f"{rule_id} cites no source"


def cited_sources() -> Iterator[tuple[str, str, str]]:
    """``(who cites it, rulebook file, section)`` for every rule and edition."""
    for rule_id, rule in spec().rules.items():
        for source in rule.sources:
            yield rule_id, source.file, source.section
    editions = yaml.safe_load((REPO / "spec" / "editions.yaml").read_text(encoding="utf-8"))
    for edition in editions["editions"]:
        for source in edition.get("source", ()):
            yield f"edition {edition['id']}", str(source["file"]), str(source["section"])


@pytest.mark.skipif(not RULEBOOKS.is_dir(), reason=f"no rulebooks at {RULEBOOKS}")
def test_every_source_the_spec_cites_is_a_rulebook_with_that_section() -> None:
    texts: dict[str, str] = {}
    problems: list[str] = []
    for who, file, section in cited_sources():
        path = RULEBOOKS / file
        if not path.is_file():
            problems.append(f"{who}: no rulebook {file}")
            continue
        if file not in texts:
            texts[file] = path.read_text(encoding="utf-8", errors="replace").lower()
        # the section is a heading path ("Card Effects / (5) Prince"): each
        # heading appears in the rulebook's text
        for heading in section.split(" / "):
            if heading.strip().lower() not in texts[file]:
                problems.append(f"{who}: {file} has no heading {heading!r}")
    assert not problems, "\n".join(problems)
