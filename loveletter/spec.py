"""Reading ``spec/``: the rules, the rulings and the editions, as values.

The spec is YAML (see ``spec/README.md``); :func:`load_spec` parses and
checks it, raising :class:`SpecError` that names the file and the entry.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
import yaml

from loveletter.resources import spec_root

#: where the spec is: the checkout's ``spec/``, or the installed package's copy
#: (see :mod:`loveletter.resources`)
DEFAULT_SPEC_DIR = spec_root()


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class SpecError(ValueError):
    """The spec files are malformed or inconsistent."""


@attrs.frozen
class Source:
    file: str
    section: str


@attrs.frozen
class Rule:
    id: str
    topic: str
    statement: str
    editions: tuple[str, ...]
    sources: tuple[Source, ...]
    rulings: tuple[int, ...]
    withdrawn: bool = False


@attrs.frozen
class Citation:
    """A section of a rulebook a ruling rests on, and what that section says
    (or fails to say) about the ruling's question, in our words."""

    file: str
    section: str
    says: str


@attrs.frozen
class Ruling:
    number: int
    title: str
    editions: tuple[str, ...]
    rules: tuple[str, ...]
    question: str
    decision: str
    reasoning: str
    sources: tuple[Citation, ...] = ()


@attrs.frozen
class Edition:
    id: str
    title: str
    base: str | None
    #: how the edition differs from its base, in our words
    delta: str
    sources: tuple[Source, ...]


@attrs.frozen
class CardEffect:
    """A card's effect in some editions, summed up in a sentence or two."""

    editions: tuple[str, ...]
    summary: str
    rules: tuple[str, ...]


@attrs.frozen
class CardInfo:
    """A card as the editions' card tables show it (``spec/cards.yaml``)."""

    #: the name used in JSON and in the conformance cases (``DowagerQueen``)
    card: str
    #: the name as printed (``Dowager Queen``)
    name: str
    #: the name in the Spanish rulebook, for the cards it has
    spanish: str | None
    spanish_source: Source | None
    effects: tuple[CardEffect, ...]

    def effect_in(self, edition: str) -> CardEffect | None:
        return next((e for e in self.effects if edition in e.editions), None)


@attrs.frozen
class ComparisonCell:
    text: str
    rules: tuple[str, ...]
    rulings: tuple[int, ...]


@attrs.frozen
class Aspect:
    """One row of the side-by-side comparison of the editions
    (``spec/comparison.yaml``): the same question answered per edition."""

    title: str
    cells: Mapping[str, ComparisonCell]


@attrs.frozen
class Spec:
    rules: Mapping[str, Rule]
    rulings: Mapping[int, Ruling]
    editions: tuple[str, ...]
    topics: Mapping[str, str]
    #: edition ID -> its description (``editions.yaml``)
    edition_info: Mapping[str, Edition] = attrs.field(factory=dict)
    #: card JSON name -> its table entry (``cards.yaml``), in value order
    cards: Mapping[str, CardInfo] = attrs.field(factory=dict)
    #: the rows of the comparison of the editions (``comparison.yaml``)
    comparison: tuple[Aspect, ...] = ()

    def rules_for(self, edition: str) -> tuple[Rule, ...]:
        return tuple(r for r in self.rules.values() if edition in r.editions and not r.withdrawn)


def _require(data: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in data:
        raise SpecError(f"{where}: missing '{key}'")
    return data[key]


def _load(path: Path) -> Any:
    try:
        # libyaml's loader when PyYAML has it: the same safe subset, faster
        return yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
    except yaml.YAMLError as error:
        raise SpecError(f"{path.name}: not valid YAML: {error}") from None


def load_spec(directory: Path | str | None = None) -> Spec:
    """Load and cross-check the spec in ``directory`` (default: the
    checkout's ``spec/`` or, installed, the package's copy of it)."""
    root = Path(directory) if directory is not None else DEFAULT_SPEC_DIR
    editions_data = _load(root / "editions.yaml")
    editions = tuple(str(_require(e, "id", "editions.yaml")) for e in editions_data["editions"])
    edition_info = {
        edition_id: _edition(entry, f"editions.yaml: {edition_id}")
        for edition_id, entry in zip(editions, editions_data["editions"], strict=True)
    }
    rules: dict[str, Rule] = {}
    topics: dict[str, str] = {}
    for path in sorted((root / "rules").glob("*.yaml")):
        data = _load(path)
        topic = _require(data, "topic", path.name)
        topics[topic] = str(data.get("title", topic))
        for index, entry in enumerate(_require(data, "rules", path.name)):
            where = f"{path.name}: rules[{index}]"
            rule_id = str(_require(entry, "id", where))
            where = f"{path.name}: {rule_id}"
            if not rule_id.startswith(topic + "."):
                raise SpecError(f"{where}: the ID must start with the topic '{topic}.'")
            if rule_id in rules:
                raise SpecError(f"{where}: duplicate rule ID")
            rule_editions = tuple(str(e) for e in _require(entry, "editions", where))
            unknown = set(rule_editions) - set(editions)
            if unknown:
                raise SpecError(f"{where}: unknown editions {sorted(unknown)}")
            sources = tuple(
                Source(str(_require(s, "file", where)), str(_require(s, "section", where)))
                for s in _require(entry, "source", where)
            )
            if not sources:
                raise SpecError(f"{where}: a rule cites at least one source")
            rules[rule_id] = Rule(
                id=rule_id,
                topic=topic,
                statement=" ".join(str(_require(entry, "statement", where)).split()),
                editions=rule_editions,
                sources=sources,
                rulings=tuple(int(n) for n in entry.get("rulings", ())),
                withdrawn=bool(entry.get("withdrawn", False)),
            )
    rulings: dict[int, Ruling] = {}
    for index, entry in enumerate(_require(_load(root / "rulings.yaml"), "rulings", "rulings")):
        where = f"rulings.yaml: rulings[{index}]"
        number = int(_require(entry, "number", where))
        if number in rulings:
            raise SpecError(f"{where}: duplicate ruling number {number}")
        ruling = Ruling(
            number=number,
            title=str(_require(entry, "title", where)),
            editions=tuple(str(e) for e in _require(entry, "editions", where)),
            rules=tuple(str(r) for r in _require(entry, "rules", where)),
            question=" ".join(str(_require(entry, "question", where)).split()),
            decision=" ".join(str(_require(entry, "decision", where)).split()),
            reasoning=" ".join(str(_require(entry, "reasoning", where)).split()),
            sources=tuple(
                Citation(
                    str(_require(c, "file", f"{where}: sources")),
                    str(_require(c, "section", f"{where}: sources")),
                    _text(_require(c, "says", f"{where}: sources")),
                )
                for c in entry.get("sources", ())
            ),
        )
        for rule_id in ruling.rules:
            if rule_id not in rules:
                raise SpecError(f"{where}: cites unknown rule {rule_id}")
        rulings[number] = ruling
    for rule in rules.values():
        for number in rule.rulings:
            if number not in rulings:
                raise SpecError(f"rules/{rule.topic}.yaml: {rule.id}: unknown ruling {number}")
    cards = _cards(root / "cards.yaml", editions, rules)
    comparison = _comparison(root / "comparison.yaml", editions, rules, rulings)
    return Spec(
        rules=rules,
        rulings=rulings,
        editions=editions,
        topics=topics,
        edition_info=edition_info,
        cards=cards,
        comparison=comparison,
    )


def _text(value: Any) -> str:
    return " ".join(str(value).split())


def _edition(entry: Mapping[str, Any], where: str) -> Edition:
    return Edition(
        id=str(entry["id"]),
        title=str(_require(entry, "title", where)),
        base=None if entry.get("base") is None else str(entry["base"]),
        delta=_text(entry.get("delta", "")),
        sources=tuple(
            Source(str(_require(s, "file", where)), str(_require(s, "section", where)))
            for s in entry.get("source", ())
        ),
    )


def _known_rules(ids: Any, rules: Mapping[str, Rule], where: str) -> tuple[str, ...]:
    found = tuple(str(r) for r in ids)
    unknown = [r for r in found if r not in rules]
    if unknown:
        raise SpecError(f"{where}: cites unknown rules {unknown}")
    return found


def _cards(path: Path, editions: tuple[str, ...], rules: Mapping[str, Rule]) -> dict[str, CardInfo]:
    if not path.exists():
        return {}
    cards: dict[str, CardInfo] = {}
    for index, entry in enumerate(_require(_load(path), "cards", path.name)):
        where = f"{path.name}: cards[{index}]"
        card = str(_require(entry, "card", where))
        where = f"{path.name}: {card}"
        if card in cards:
            raise SpecError(f"{where}: listed twice")
        source = entry.get("spanish_source")
        effects = []
        for number, effect in enumerate(_require(entry, "effects", where)):
            at = f"{where}: effects[{number}]"
            effect_editions = tuple(str(e) for e in _require(effect, "editions", at))
            if set(effect_editions) - set(editions):
                raise SpecError(f"{at}: unknown editions {effect_editions}")
            effects.append(
                CardEffect(
                    editions=effect_editions,
                    summary=_text(_require(effect, "summary", at)),
                    rules=_known_rules(_require(effect, "rules", at), rules, at),
                )
            )
        claimed = [e for effect in effects for e in effect.editions]
        if len(claimed) != len(set(claimed)):
            raise SpecError(f"{where}: an edition has two effects")
        cards[card] = CardInfo(
            card=card,
            name=str(entry.get("name", card)),
            spanish=None if entry.get("spanish") is None else str(entry["spanish"]),
            spanish_source=None
            if source is None
            else Source(
                str(_require(source, "file", where)), str(_require(source, "section", where))
            ),
            effects=tuple(effects),
        )
    return cards


def _comparison(
    path: Path,
    editions: tuple[str, ...],
    rules: Mapping[str, Rule],
    rulings: Mapping[int, Ruling],
) -> tuple[Aspect, ...]:
    if not path.exists():
        return ()
    aspects = []
    for index, entry in enumerate(_require(_load(path), "aspects", path.name)):
        where = f"{path.name}: aspects[{index}]"
        title = str(_require(entry, "title", where))
        cells: dict[str, ComparisonCell] = {}
        for edition, cell in _require(entry, "cells", where).items():
            at = f"{path.name}: {title}: {edition}"
            if str(edition) not in editions:
                raise SpecError(f"{at}: unknown edition")
            numbers = tuple(int(n) for n in cell.get("rulings", ()))
            if set(numbers) - set(rulings):
                raise SpecError(f"{at}: unknown rulings {numbers}")
            cells[str(edition)] = ComparisonCell(
                text=_text(_require(cell, "text", at)),
                rules=_known_rules(cell.get("rules", ()), rules, at),
                rulings=numbers,
            )
        aspects.append(Aspect(title=title, cells=cells))
    return tuple(aspects)
