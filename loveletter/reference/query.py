"""Answering a rules question from the terminal: ``loveletter rules``.

A query is a card or topic (``prince``, ``Dowager Queen``, ``Príncipe``),
a rule ID (``prince.empty-deck-draws-set-aside``), a case
(``2019/prince/<id>`` or a case ID), or words to look for in the rules
(``empty deck``). ``--ruling N`` and ``--edition E`` answer with a ruling's
page and an edition's page. The text is the site's text: the same pages,
rendered for a terminal.
"""

from __future__ import annotations

import difflib
import unicodedata

import attrs

from loveletter.reference.catalog import Catalog
from loveletter.reference.document import (
    Block,
    Code,
    Heading,
    Items,
    Paragraph,
    line,
    to_text,
)
from loveletter.reference.pages import (
    case_entry,
    edition_page,
    rule_entry,
    rules_index,
    ruling_page,
    topic_page,
)
from loveletter.rulesets import RULESETS


class QueryError(LookupError):
    """The query names nothing in the spec: the message suggests names."""


@attrs.frozen
class Answer:
    blocks: tuple[Block, ...]

    def text(self, width: int = 78) -> str:
        return to_text(self.blocks, width)


def _fold(text: str) -> str:
    """Compare names without case, accents, spaces, hyphens or underscores:
    "Dowager Queen", "dowager-queen", "DowagerQueen" and "PRÍNCIPE" fold to
    the names they mean."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return "".join(c for c in plain if c.isalnum())


def resolve_edition(name: str) -> str:
    """An edition's ID from its ID, an alias or a name folded as above."""
    for ruleset in RULESETS.values():
        names = (ruleset.name, *ruleset.aliases)
        if any(_fold(name) == _fold(n) for n in names):
            return ruleset.name
    known = ", ".join(sorted(RULESETS))
    raise QueryError(f"no edition {name!r}; the editions are {known}")


def _topic_names(cat: Catalog) -> dict[str, str]:
    """Folded name -> topic: topic slugs, titles, card names, JSON names,
    Spanish names."""
    names: dict[str, str] = {}
    for topic, title in cat.spec.topics.items():
        names[_fold(topic)] = topic
        names[_fold(title.split(" (")[0])] = topic
    for card, info in cat.spec.cards.items():
        card_topic = cat.card_topic(card)
        if card_topic is None:
            continue
        names[_fold(card)] = card_topic
        names[_fold(info.name)] = card_topic
        if info.spanish:
            names[_fold(info.spanish)] = card_topic
    return names


def answer(
    cat: Catalog,
    query: str | None = None,
    *,
    ruling: int | None = None,
    edition: str | None = None,
    stories: bool | None = None,
) -> Answer:
    """The page that answers a query (see the module's docstring).

    ``stories`` tells each pinning case as a story; by default a single
    rule, a ruling or a case is told in full and a topic lists case titles.
    """
    edition_id = resolve_edition(edition) if edition is not None else None
    if ruling is not None:
        if query is not None:
            raise QueryError("ask for a ruling or a query, not both")
        if ruling not in cat.spec.rulings:
            raise QueryError(
                f"no ruling {ruling}; the rulings are numbered 1 to {max(cat.spec.rulings)}"
            )
        return Answer(ruling_page(cat, ruling, stories=bool(stories)).blocks)
    if query is None or not query.strip():
        if edition_id is not None:
            return Answer(edition_page(cat, edition_id).blocks)
        return Answer(rules_index(cat).blocks)
    query = query.strip()
    if query in cat.spec.rules:
        rule = cat.spec.rules[query]
        if edition_id is not None and edition_id not in rule.editions:
            raise QueryError(f"{query} does not apply to the {edition_id} edition")
        selected = None if edition_id is None else [edition_id]
        told = True if stories is None else stories
        return Answer(tuple(rule_entry(cat, rule, level=1, stories=told, editions=selected)))
    topic = _topic_names(cat).get(_fold(query))
    if topic is not None:
        page = topic_page(cat, topic, stories=bool(stories), edition=edition_id)
        if edition_id is not None and not cat.rules_of(topic, edition_id):
            raise QueryError(f"the {edition_id} edition has no rules about {query}")
        return Answer(page.blocks)
    for case in cat.cases:
        if query in (case.name, case.id) and (edition_id is None or case.ruleset == edition_id):
            return Answer(tuple(case_entry(cat, case, level=1)))
    found = search(cat, query, edition_id)
    if found:
        return Answer(found)
    raise QueryError(_suggestion(cat, query))


def search(cat: Catalog, query: str, edition: str | None = None) -> tuple[Block, ...]:
    """The rules whose ID or statement holds every word of the query."""
    words = [w.casefold() for w in query.split() if w]
    hits = [
        rule
        for rule in cat.spec.rules.values()
        if not rule.withdrawn
        and (edition is None or edition in rule.editions)
        and all(w in f"{rule.id} {rule.statement}".casefold() for w in words)
    ]
    if not hits:
        return ()
    items = tuple(line(Code(rule.id), " — ", _first_sentence(rule.statement)) for rule in hits)
    plural = "s" if len(hits) != 1 else ""
    return (
        Heading(1, line(f"Rules mentioning “{query}”")),
        Paragraph(line(f"{len(hits)} rule{plural}; ask for one by its ID to read it in full.")),
        Items(items),
    )


def _first_sentence(text: str) -> str:
    end = text.find(". ")
    return text if end < 0 else text[: end + 1]


def _suggestion(cat: Catalog, query: str) -> str:
    names = sorted({*cat.spec.rules, *cat.spec.topics})
    close = difflib.get_close_matches(query, names, n=4, cutoff=0.6)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    return (
        f"nothing in the rules matches {query!r}{hint} "
        "(try a card, a topic such as setup or round, a rule ID, or words from a rule)"
    )
