"""docs/edge_cases.yaml, the data of the docs' "Edge cases" page: its shape,
and that every rule, ruling, conformance case and diagram it names exists
and fits the entry that names it."""

from __future__ import annotations

import importlib.util
import re
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from loveletter.spec import Spec, load_spec

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "docs" / "edge_cases.yaml"
CASES = ROOT / "conformance" / "cases"
DIAGRAMS = ROOT / "docs" / "_ext" / "diagrams.py"

REQUIRED = {"id", "title", "explanation", "rules", "rulings", "cases"}
OPTIONAL = {"diagram"}
SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
CASE_NAME = re.compile(r"(2019|2019-classic|premium|online)/[a-z0-9-]+/[a-z0-9-]+")
CODE_SPAN = re.compile(r"`([^`]*)`")
RULING = re.compile(r"\b[Rr]ulings? (\d+)")


def _entries() -> list[dict[str, Any]]:
    data = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    assert isinstance(data, dict) and set(data) == {"edge_cases"}
    entries: list[dict[str, Any]] = data["edge_cases"]
    assert isinstance(entries, list)
    return entries


ENTRIES = _entries()
IDS = [str(entry.get("id")) for entry in ENTRIES]


@cache
def _spec() -> Spec:
    return load_spec()


@cache
def _case(name: str) -> dict[str, Any]:
    case = yaml.safe_load((CASES / f"{name}.yaml").read_text(encoding="utf-8"))
    assert isinstance(case, dict)
    return case


def _diagram_names() -> set[str]:
    spec = importlib.util.spec_from_file_location("docs_ext_diagrams_names", DIAGRAMS)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses need it while building classes
    spec.loader.exec_module(module)
    return {diagram.name for diagram in module.DIAGRAMS}


def test_the_file_lists_the_edge_cases_once_each() -> None:
    assert len(ENTRIES) >= 16
    assert len(set(IDS)) == len(IDS), "ids are unique"
    for topic in (
        "all-others-protected",
        "prince-on-an-empty-deck",
        "chancellor-short-deck",
        "spy-bonus",
        "assassin-against-a-guard",
        "count-bonus-and-discard-totals",
        "princess-bishop-cycle",
        "sycophant-requirement",
        "ties-for-the-game",
        "countess-forced-discard",
        "two-player-face-up-cards",
        "baron-and-dowager-queen-comparisons",
        "constable-token",
        "jester-mark",
        "cardinal-swap-and-look",
        "bishop-token-and-redraw",
        # the online edition's arguments
        "online-hand-bonus-against-premium",
        "online-pile-last-card",
        "online-required-and-protected",
        "online-leaving",
        "online-time-out-move",
    ):
        assert topic in IDS, topic


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_an_entry_has_exactly_the_keys_the_page_reads(entry: dict[str, Any]) -> None:
    assert REQUIRED <= set(entry) <= REQUIRED | OPTIONAL, sorted(set(entry) ^ REQUIRED)
    assert isinstance(entry["id"], str) and SLUG.fullmatch(entry["id"])
    assert isinstance(entry["title"], str) and entry["title"].strip()
    assert "\n" not in entry["title"]
    assert isinstance(entry["explanation"], str)
    assert isinstance(entry["rules"], list) and entry["rules"]
    assert all(isinstance(rule, str) for rule in entry["rules"])
    assert isinstance(entry["rulings"], list)
    assert all(type(number) is int for number in entry["rulings"])
    assert isinstance(entry["cases"], list)
    assert all(isinstance(case, str) for case in entry["cases"])
    for key in ("rules", "rulings", "cases"):
        assert len(set(entry[key])) == len(entry[key]), f"{key} repeat"


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_the_explanation_is_one_to_three_paragraphs(entry: dict[str, Any]) -> None:
    text = entry["explanation"]
    assert text == text.strip()
    paragraphs = re.split(r"\n[ \t]*\n", text)
    assert 1 <= len(paragraphs) <= 3
    for paragraph in paragraphs:
        assert paragraph.strip() and "\n\n" not in paragraph
        assert len(paragraph.split()) <= 130, "short paragraphs"


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_every_rule_and_ruling_exists_and_the_prose_cites_what_the_lists_hold(
    entry: dict[str, Any],
) -> None:
    spec = _spec()
    for rule in entry["rules"]:
        assert rule in spec.rules, rule
        assert not spec.rules[rule].withdrawn, rule
    for number in entry["rulings"]:
        assert number in spec.rulings, number
    text = entry["explanation"]
    spans = CODE_SPAN.findall(text)
    # a code span in the prose is a rule ID, always one of the entry's
    assert set(spans) <= set(entry["rules"]), sorted(set(spans) - set(entry["rules"]))
    assert set(entry["rules"]) <= set(spans), "every listed rule is explained"
    mentioned = {int(n) for n in RULING.findall(text)}
    assert mentioned == set(entry["rulings"])
    assert text.count("`") % 2 == 0


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_each_case_exists_and_cites_a_rule_or_ruling_of_its_entry(entry: dict[str, Any]) -> None:
    spec = _spec()
    assert 2 <= len(entry["cases"]) <= 6
    for name in entry["cases"]:
        assert CASE_NAME.fullmatch(name), name
        assert (CASES / f"{name}.yaml").is_file(), name
        case = _case(name)
        assert case["id"] == name.rsplit("/", 1)[1]
        assert case["ruleset"] == name.split("/", 1)[0]
        cited_rules = set(case.get("rules") or ())
        cited_rulings = set(case.get("rulings") or ())
        assert cited_rules & set(entry["rules"]) or cited_rulings & set(entry["rulings"]), (
            f"{name} cites none of {entry['id']}'s rules or rulings"
        )
        # the entry speaks of the case's edition too
        edition = case["ruleset"]
        editions = {e for r in entry["rules"] for e in spec.rules[r].editions}
        editions |= {e for n in entry["rulings"] for e in spec.rulings[n].editions}
        assert edition in editions, (name, entry["id"])


WITH_DIAGRAM = [entry for entry in ENTRIES if "diagram" in entry]


@pytest.mark.parametrize("entry", WITH_DIAGRAM, ids=[str(e["id"]) for e in WITH_DIAGRAM])
def test_a_diagram_is_one_the_docs_draw(entry: dict[str, Any]) -> None:
    assert entry["diagram"] in _diagram_names()


def test_some_entries_show_the_showdown_diagram() -> None:
    showing = {entry["id"] for entry in ENTRIES if entry.get("diagram") == "premium-showdown.svg"}
    assert {"count-bonus-and-discard-totals", "princess-bishop-cycle"} <= showing
