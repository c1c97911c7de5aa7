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
class Ruling:
    number: int
    title: str
    editions: tuple[str, ...]
    rules: tuple[str, ...]
    question: str
    decision: str
    reasoning: str


@attrs.frozen
class Spec:
    rules: Mapping[str, Rule]
    rulings: Mapping[int, Ruling]
    editions: tuple[str, ...]
    topics: Mapping[str, str]

    def rules_for(self, edition: str) -> tuple[Rule, ...]:
        return tuple(r for r in self.rules.values() if edition in r.editions and not r.withdrawn)


def _require(data: Mapping[str, Any], key: str, where: str) -> Any:
    if key not in data:
        raise SpecError(f"{where}: missing '{key}'")
    return data[key]


def _load(path: Path) -> Any:
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as error:
        raise SpecError(f"{path.name}: not valid YAML: {error}") from None


def load_spec(directory: Path | str | None = None) -> Spec:
    """Load and cross-check the spec in ``directory`` (default: the
    checkout's ``spec/`` or, installed, the package's copy of it)."""
    root = Path(directory) if directory is not None else DEFAULT_SPEC_DIR
    editions_data = _load(root / "editions.yaml")
    editions = tuple(str(_require(e, "id", "editions.yaml")) for e in editions_data["editions"])
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
        )
        for rule_id in ruling.rules:
            if rule_id not in rules:
                raise SpecError(f"{where}: cites unknown rule {rule_id}")
        rulings[number] = ruling
    for rule in rules.values():
        for number in rule.rulings:
            if number not in rulings:
                raise SpecError(f"rules/{rule.topic}.yaml: {rule.id}: unknown ruling {number}")
    return Spec(rules=rules, rulings=rulings, editions=editions, topics=topics)
