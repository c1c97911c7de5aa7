"""Everything the rules pages are made of, read once and cross-indexed: the
spec (rules, rulings, editions, card tables, comparison), the conformance
cases that pin each rule and ruling, and the code that implements each rule
(the ``@implements`` citations)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path

import attrs
import yaml

import loveletter  # noqa: F401  (importing the engine registers every @implements citation)
from loveletter.conformance.cases import Case, load_suite, parse_case
from loveletter.resources import spec_root, suite_root
from loveletter.rules import CITATIONS
from loveletter.rulesets import RULESETS, Composition, Ruleset
from loveletter.spec import Rule, Ruling, Spec, load_spec

#: the rules topics that are not a card, in the order a reader meets them
GENERAL_TOPICS = ("setup", "turn", "targeting", "out", "round", "game")

#: editions as column headings and in running text
EDITION_SHORT = {
    "2019": "2019",
    "2019-classic": "2019 Classic",
    "premium": "Premium",
    "online": "Online",
}

#: what an edition's rules call its decks, smallest first, where they name them
DECK_NAMES = {"online": ("standard", "Extended")}


def edition_short(edition: str) -> str:
    """An edition as a column heading names it: ``2019 Classic``."""
    return EDITION_SHORT.get(edition, edition)


def deck_ranges(ruleset: Ruleset) -> list[tuple[int, int, Composition]]:
    """Each deck with the player counts that use it: (fewest, most, deck).

    A ruleset may keep its base edition's deck table while seating fewer
    counts (online seats no two players): the ranges start at its own
    minimum, and a deck no count uses is left out."""
    ranges = []
    for least, composition in ruleset.decks:
        most = next((m - 1 for m, _ in ruleset.decks if m > least), ruleset.max_players)
        least = max(least, ruleset.min_players)
        if least <= most:
            ranges.append((least, most, composition))
    return ranges


def deck_names(ruleset: Ruleset) -> tuple[str, ...] | None:
    """What the edition's rules call each of its decks, if they name them."""
    names = DECK_NAMES.get(ruleset.name)
    return names if names is not None and len(names) == len(deck_ranges(ruleset)) else None


@attrs.frozen
class Catalog:
    spec: Spec
    cases: tuple[Case, ...]
    cases_by_rule: Mapping[str, tuple[Case, ...]]
    cases_by_ruling: Mapping[int, tuple[Case, ...]]
    rulings_by_rule: Mapping[str, tuple[Ruling, ...]]
    #: rule ID -> qualified names of the functions implementing it
    code_by_rule: Mapping[str, tuple[str, ...]]
    #: the rules topics in reading order: the general ones, then the cards
    topics: tuple[str, ...]
    #: the directory the cases were read from (case files are shown from it)
    cases_root: Path

    def rules_of(self, topic: str, edition: str | None = None) -> tuple[Rule, ...]:
        return tuple(
            rule
            for rule in self.spec.rules.values()
            if rule.topic == topic
            and not rule.withdrawn
            and (edition is None or edition in rule.editions)
        )

    def ruleset(self, edition: str) -> Ruleset:
        return RULESETS[edition]

    def case(self, name: str) -> Case:
        for case in self.cases:
            if case.name == name:
                return case
        raise KeyError(name)

    def card_topic(self, card: str) -> str | None:
        """The rules topic of a card (``DowagerQueen`` -> ``dowager-queen``)."""
        info = self.spec.cards.get(card)
        name = info.name if info is not None else card
        topic = name.lower().replace(" ", "-")
        return topic if topic in self.spec.topics else None

    def topic_card(self, topic: str) -> str | None:
        """The card a rules topic is about, if it is a card's topic."""
        for card in self.spec.cards:
            if self.card_topic(card) == topic:
                return card
        return None


def _topic_order(spec: Spec) -> tuple[str, ...]:
    general = [t for t in GENERAL_TOPICS if t in spec.topics]
    cards: list[str] = []
    for info in spec.cards.values():
        topic = info.name.lower().replace(" ", "-")
        if topic in spec.topics and topic not in cards:
            cards.append(topic)
    rest = sorted(t for t in spec.topics if t not in general and t not in cards)
    return (*general, *cards, *rest)


def build_catalog(spec_dir: Path | None = None, suite_dir: Path | None = None) -> Catalog:
    spec = load_spec(spec_dir)
    cases_root = (suite_dir or suite_root()) / "cases"
    order = {edition: index for index, edition in enumerate(spec.editions)}
    cases = tuple(
        sorted(_read_cases(cases_root), key=lambda c: (order.get(c.ruleset, len(order)), c.name))
    )
    by_rule: dict[str, list[Case]] = {}
    by_ruling: dict[int, list[Case]] = {}
    for case in cases:
        for rule_id in case.rules:
            by_rule.setdefault(rule_id, []).append(case)
        for number in case.rulings:
            by_ruling.setdefault(number, []).append(case)
    rulings_by_rule: dict[str, list[Ruling]] = {}
    for ruling in spec.rulings.values():
        for rule_id in ruling.rules:
            rulings_by_rule.setdefault(rule_id, []).append(ruling)
    for rule in spec.rules.values():
        # a rule may name a ruling that does not list it back
        for number in rule.rulings:
            known = rulings_by_rule.setdefault(rule.id, [])
            if spec.rulings[number] not in known:
                known.append(spec.rulings[number])
    return Catalog(
        spec=spec,
        cases=cases,
        cases_by_rule={k: tuple(v) for k, v in by_rule.items()},
        cases_by_ruling={k: tuple(v) for k, v in by_ruling.items()},
        rulings_by_rule={
            k: tuple(sorted(v, key=lambda r: r.number)) for k, v in rulings_by_rule.items()
        },
        code_by_rule={k: tuple(sorted(set(v))) for k, v in CITATIONS.items()},
        topics=_topic_order(spec),
        cases_root=cases_root,
    )


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _read_cases(root: Path) -> list[Case]:
    """The suite's cases, read with libyaml when PyYAML has it.

    The strict reader (:func:`~loveletter.conformance.cases.load_suite`) is
    several times slower; the suite's own tests run it on every file, so
    here each file only goes through :func:`parse_case`, which still checks
    every field.
    """
    if not root.is_dir():
        return load_suite(root)  # its error names the missing directory
    return [
        parse_case(yaml.load(path.read_bytes(), Loader=_LOADER), str(path))
        for path in sorted(root.rglob("*.yaml"))
    ]


@functools.cache
def catalog() -> Catalog:
    """The catalog of the spec and suite this package carries."""
    return build_catalog(spec_root(), suite_root())
