"""The rules pages, as documents: built from the catalog (spec, cases,
citations) and rendered by :mod:`loveletter.reference.document` for the
site (MyST) and for the terminal (``loveletter rules``).

Every page is a function of the catalog; nothing here is written by hand
about a particular rule, so the pages cannot drift from ``spec/``.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from loveletter.cards import Card
from loveletter.conformance.cases import Case
from loveletter.narrative import card_name
from loveletter.reference.catalog import Catalog, deck_names, deck_ranges, edition_short
from loveletter.reference.document import (
    Anchor,
    Block,
    Code,
    CodeBlock,
    Details,
    Emphasis,
    Field,
    Heading,
    Image,
    Inline,
    Items,
    Line,
    Link,
    Paragraph,
    Table,
    TargetKind,
    Toctree,
    joined,
    line,
)
from loveletter.reference.pictures import DECKS, card_face_path, deck_kinds, decks
from loveletter.reference.sources import readable, rulebook, section_path
from loveletter.reference.stories import CaseStory, tell
from loveletter.rulesets import Ruleset
from loveletter.spec import Rule, Ruling
from loveletter.state import TableSettings


@attrs.frozen
class Page:
    #: the document's path on the site, without suffix: ``rules/prince``
    path: str
    title: str
    blocks: tuple[Block, ...]


# ------------------------------------------------------------------ links


def rule_link(rule_id: str) -> Link:
    return Link(rule_id, "rule", rule_id)


def ruling_link(ruling: Ruling, *, titled: bool = True) -> Link:
    text = f"Ruling {ruling.number}" + (f": {ruling.title}" if titled else "")
    return Link(text, "ruling", str(ruling.number))


def edition_link(edition: str) -> Link:
    return Link(edition_short(edition), "edition", edition)


def case_link(case: Case) -> Link:
    return Link(case.title, "case", case.name)


def code_link(qualname: str) -> Link:
    return Link(qualname, "code", qualname)


_RULE_ID = re.compile(r"`?\b([a-z]+(?:-[a-z]+)*\.[a-z0-9]+(?:-[a-z0-9]+)*)\b`?")
_RULINGS = re.compile(r"\b([Rr]ulings?) (\d+(?:(?:, | and | or |-|–)\d+)*)")
_NUMBER = re.compile(r"\d+")


def linked_text(cat: Catalog, text: str) -> Line:
    """Running text with the rule IDs and ruling numbers it names made
    into links, and the rulebooks' numbers into their names."""
    text = readable(text)
    parts: list[Inline] = []
    position = 0
    spans: list[tuple[int, int, list[Inline]]] = []
    for match in _RULE_ID.finditer(text):
        if match.group(1) in cat.spec.rules:
            spans.append((match.start(), match.end(), [rule_link(match.group(1))]))
    for match in _RULINGS.finditer(text):
        inner: list[Inline] = [f"{match.group(1)} "]
        cursor = match.start(2)
        for number in _NUMBER.finditer(match.group(0), match.start(2) - match.start()):
            start = match.start() + number.start()
            if start > cursor:
                inner.append(text[cursor:start])
            ruling = cat.spec.rulings.get(int(number.group(0)))
            inner.append(
                Link(number.group(0), "ruling", number.group(0))
                if ruling is not None
                else number.group(0)
            )
            cursor = match.start() + number.end()
        spans.append((match.start(), match.end(), inner))
    for start, end, inline in sorted(spans, key=lambda span: span[0]):
        if start < position:
            continue
        parts.append(text[position:start])
        parts.extend(inline)
        position = end
    parts.append(text[position:])
    return tuple(p for p in parts if p != "")


# ------------------------------------------------------------------ cases


@functools.cache
def _story(case: Case) -> CaseStory:
    return tell(case)


def story_blocks(cat: Catalog, case: Case) -> list[Block]:
    """A case told as a story: the setup, then each step as it happens."""
    story = _story(case)
    blocks: list[Block] = [Paragraph(line(Emphasis("Setup")))]
    blocks.append(Items(tuple(line(text) for text in story.setup)))
    raw_steps = case.data.get("steps", [])
    for number, step in enumerate(story.steps, start=1):
        head = step.move if step.move is not None else "The case checks the position."
        blocks.append(Paragraph(line(Emphasis(f"Step {number}."), " ", head)))
        # a step's note is the case author's word to the reader
        raw = raw_steps[number - 1] if number <= len(raw_steps) else {}
        note = raw.get("note") if isinstance(raw, dict) else None
        if isinstance(note, str) and note.strip():
            blocks.append(Paragraph(linked_text(cat, " ".join(note.split()))))
        details: list[Line] = [line(text) for text in step.happens]
        for seat, lines in step.learns:
            details += [line(Emphasis(f"Only Player {seat} learns:"), " ", text) for text in lines]
        details += [line(Emphasis("Checked:"), " ", text) for text in step.checks]
        if details:
            blocks.append(Items(tuple(details)))
    return blocks


def _case_facts(cat: Catalog, case: Case) -> list[Block]:
    facts: list[Block] = [
        Field(
            "Case",
            line(Code(case.name), " — ", edition_link(case.ruleset), f", {case.players} players"),
        ),
        Field("Rules", joined(line(rule_link(r)) for r in case.rules)),
    ]
    if case.rulings:
        facts.append(
            Field(
                "Rulings",
                joined(line(ruling_link(cat.spec.rulings[n], titled=False)) for n in case.rulings),
            )
        )
    return facts


def case_summary(case: Case) -> Line:
    return line(Code(edition_short(case.ruleset)), " ", case_link(case))


def case_fold(cat: Catalog, case: Case) -> Details:
    """A case folded under a rule or a ruling: its story, and a link to its
    home where the case file is."""
    body: list[Block] = [*story_blocks(cat, case)]
    body.append(
        Paragraph(line("The case file and its checks: ", Link(case.name, "case", case.name), "."))
    )
    # The summary is plain text: a link there would leave the page instead
    # of opening the fold.
    return Details(line(Code(edition_short(case.ruleset)), " ", case.title), tuple(body))


def case_entry(cat: Catalog, case: Case, level: int = 2) -> list[Block]:
    """A case at its home: facts, description, story, and its YAML."""
    blocks: list[Block] = [Heading(level, line(case.title), Anchor("case", case.name))]
    blocks += _case_facts(cat, case)
    description = case.data.get("description")
    if isinstance(description, str) and description.strip():
        blocks.append(Paragraph(linked_text(cat, " ".join(description.split()))))
    blocks += story_blocks(cat, case)
    source = (cat.cases_root / case.name.split("/")[0] / case.name.split("/")[1]).joinpath(
        f"{case.id}.yaml"
    )
    text = source.read_text(encoding="utf-8") if source.exists() else ""
    blocks.append(
        Details(
            line("The case file: ", Code(f"conformance/cases/{case.name}.yaml")),
            (CodeBlock("yaml", text),),
        )
    )
    return blocks


def _case_folders(cat: Catalog) -> dict[str, dict[str, list[Case]]]:
    folders: dict[str, dict[str, list[Case]]] = {}
    for case in cat.cases:
        ruleset, folder, _ = case.name.split("/")
        folders.setdefault(ruleset, {}).setdefault(folder, []).append(case)
    return folders


def case_pages(cat: Catalog) -> list[Page]:
    pages: list[Page] = []
    folders = _case_folders(cat)
    index: list[Block] = [
        Heading(1, line("Conformance cases")),
        Paragraph(
            line(
                f"The {len(cat.cases)} cases of the conformance suite, each told as a story "
                "with its case file. Implementers run them against their engines (",
                Link("For implementers", "page", "implementers/index"),
                "); readers follow them to see a rule at work.",
            )
        ),
    ]
    entries: list[str] = []
    for ruleset in cat.spec.editions:
        if ruleset not in folders:
            continue
        index.append(Heading(2, line(edition_short(ruleset))))
        items: list[Line] = []
        for folder, cases in sorted(folders[ruleset].items()):
            path = f"cases/{ruleset}/{folder}"
            entries.append(f"{ruleset}/{folder}")
            items.append(line(Link(folder, "page", path), f" — {len(cases)} cases"))
            blocks: list[Block] = [
                Heading(1, line(f"{edition_short(ruleset)} cases: {folder}")),
                Paragraph(
                    line(
                        f"{len(cases)} cases of the ",
                        edition_link(ruleset),
                        " edition, from ",
                        Code(f"conformance/cases/{ruleset}/{folder}/"),
                        ".",
                    )
                ),
            ]
            for case in cases:
                blocks += case_entry(cat, case)
            pages.append(Page(path, f"{edition_short(ruleset)} cases: {folder}", tuple(blocks)))
        index.append(Items(tuple(items)))
    index.append(Toctree(tuple(entries)))
    pages.append(Page("cases/index", "Conformance cases", tuple(index)))
    return pages


# ------------------------------------------------------------------ rules


def _sources(sources: Iterable[tuple[str, str]]) -> Line:
    """Citations grouped by rulebook, named as a reader would look them up:
    the book once, then its sections ("Love Letter, Z-Man Games 2019,
    “Setup”, “Card Effects › (5) Prince”")."""
    books: dict[str, list[str]] = {}
    for file, section in sources:
        sections = books.setdefault(rulebook(file).name, [])
        if section not in sections:
            sections.append(section)
    parts: list[Line] = []
    for book, sections in books.items():
        quoted = ", ".join(f"“{section_path(s)}”" for s in sections)
        parts.append(line(book, ", ", quoted))
    return joined(parts, "; ")


def _source_line(file: str, section: str) -> Line:
    return line(rulebook(file).name, ", “", section_path(section), "”")


def _pinned(count: int) -> str:
    """ "1 case pins this rule", "32 cases pin this rule"."""
    return f"{count} case pins this rule" if count == 1 else f"{count} cases pin this rule"


def rule_entry(
    cat: Catalog,
    rule: Rule,
    *,
    level: int = 2,
    stories: bool = True,
    editions: Sequence[str] | None = None,
    told: set[str] | None = None,
) -> list[Block]:
    """One rule: its ID (the permanent anchor), statement, editions,
    rulings, source and implementing code, then the cases that pin it,
    folded into one line ("32 cases pin this rule") that opens their list.

    ``told`` collects the cases already told on the page: a case that pins
    several rules of one page is told under the first and linked after.
    """
    blocks: list[Block] = [Heading(level, line(Code(rule.id)), Anchor("rule", rule.id))]
    if rule.withdrawn:
        blocks.append(Paragraph(line(Emphasis("Withdrawn."))))
    blocks.append(Paragraph(linked_text(cat, rule.statement)))
    blocks.append(Field("Editions", joined(line(edition_link(e)) for e in rule.editions)))
    rulings = cat.rulings_by_rule.get(rule.id, ())
    if rulings:
        blocks.append(Field("Rulings", joined((line(ruling_link(r)) for r in rulings), "; ")))
    blocks.append(Field("Source", _sources((s.file, s.section) for s in rule.sources)))
    code = cat.code_by_rule.get(rule.id, ())
    if code:
        blocks.append(Field("Implemented by", joined(line(code_link(q)) for q in code)))
    cases = [
        c for c in cat.cases_by_rule.get(rule.id, ()) if editions is None or c.ruleset in editions
    ]
    if not cases:
        return blocks
    if not stories:
        blocks.append(Paragraph(line(_pinned(len(cases)))))
        blocks.append(Items(tuple(case_summary(c) for c in cases)))
        return blocks
    folds: list[Block] = []
    again: list[Line] = []
    for case in cases:
        if told is not None and case.name in told:
            again.append(case_summary(case))
            continue
        folds.append(case_fold(cat, case))
        if told is not None:
            told.add(case.name)
    if again:
        folds.append(Paragraph(line("Also pinned by these cases, told under a rule above:")))
        folds.append(Items(tuple(again)))
    blocks.append(Details(line(_pinned(len(cases))), tuple(folds), css_class="case-list"))
    return blocks


def _topic_title(cat: Catalog, topic: str) -> str:
    card = cat.topic_card(topic)
    if card is not None:
        return cat.spec.cards[card].name
    return cat.spec.topics[topic]


def _per_edition(values: Sequence[tuple[str, str]]) -> str:
    """ "5" when every edition agrees, "9 (2019), 8 (Premium)" otherwise."""
    if len({value for _, value in values}) == 1:
        return values[0][1]
    return ", ".join(f"{value} ({edition_short(edition)})" for edition, value in values)


def _card_rows(cat: Catalog, card: str, editions: Iterable[str]) -> list[tuple[Line, ...]]:
    """One row per group of editions where the card does the same thing."""
    info = cat.spec.cards[card]
    kind = Card.parse(card)
    wanted = list(editions)
    rows: list[tuple[Line, ...]] = []
    for effect in info.effects:
        group = [e for e in effect.editions if e in wanted]
        if not group:
            continue
        rulesets = [(e, cat.ruleset(e)) for e in group]
        rows.append(
            (
                joined(line(edition_link(e)) for e in group),
                line(_per_edition([(e, str(r.value(kind))) for e, r in rulesets])),
                line(_per_edition([(e, _copies(r, kind)) for e, r in rulesets])),
                linked_text(cat, effect.summary),
            )
        )
    return rows


def topic_page(
    cat: Catalog, topic: str, *, stories: bool = True, edition: str | None = None
) -> Page:
    """A rules topic (a card, or setup, turns, ...): every rule with its
    rulings, code and cases; ``edition`` keeps only that edition's."""
    title = _topic_title(cat, topic)
    blocks: list[Block] = [Heading(1, line(title), Anchor("topic", topic))]
    card = cat.topic_card(topic)
    editions = [edition] if edition is not None else list(cat.spec.editions)
    if card is not None:
        info = cat.spec.cards[card]
        rows = _card_rows(cat, card, editions)
        if rows:
            blocks.append(Table(("Edition", "Value", "Copies", "Effect"), tuple(rows)))
        if info.spanish:
            blocks.append(Field("Spanish name", line(Emphasis(info.spanish))))
        if edition is None:
            # after the table, so that on a wide screen the rules flow beside it
            blocks.append(
                Image(
                    "/" + card_face_path(topic),
                    f"The {title} card: its value and copies in each edition and what it does,"
                    " as the table above gives them",
                    "card-face",
                )
            )
    rules = cat.rules_of(topic, edition)
    blocks.append(
        Paragraph(
            line(
                f"{len(rules)} rule" + ("s" if len(rules) != 1 else ""),
                " in ",
                edition_link(edition) if edition is not None else "every edition that has them",
                ". Each rule's ID is its permanent name: cite it, link to it.",
            )
        )
    )
    told: set[str] = set()
    for rule in rules:
        blocks += rule_entry(
            cat, rule, stories=stories, editions=None if edition is None else [edition], told=told
        )
    withdrawn = [r for r in cat.spec.rules.values() if r.topic == topic and r.withdrawn]
    if withdrawn and edition is None:
        blocks.append(Heading(2, line("Withdrawn rules")))
        for rule in withdrawn:
            blocks += rule_entry(cat, rule, level=3, stories=False)
    return Page(f"rules/{topic}", title, tuple(blocks))


def rules_index(cat: Catalog) -> Page:
    blocks: list[Block] = [
        Heading(1, line("Rules reference")),
        Paragraph(
            line(
                f"The {sum(1 for r in cat.spec.rules.values() if not r.withdrawn)} rules of "
                "the spec, one page per topic and per card. Each rule has a permanent ID, "
                "a statement in our words, the editions it applies to, the rulebook section "
                "it comes from, the rulings that refine it, the code that implements it and "
                "the conformance cases that pin it, each told as a short story."
            )
        ),
    ]
    rows: list[tuple[Line, ...]] = []
    for topic in cat.topics:
        rules = cat.rules_of(topic)
        editions = sorted(
            {e for r in rules for e in r.editions}, key=lambda e: cat.spec.editions.index(e)
        )
        rows.append(
            (
                line(Link(_topic_title(cat, topic), "topic", topic)),
                line(str(len(rules))),
                joined(line(edition_link(e)) for e in editions),
            )
        )
    blocks.append(Table(("Topic", "Rules", "Editions"), tuple(rows)))
    blocks.append(Toctree(cat.topics))
    return Page("rules/index", "Rules reference", tuple(blocks))


# ------------------------------------------------------------------ rulings


def ruling_page(cat: Catalog, number: int, *, stories: bool = True) -> Page:
    ruling = cat.spec.rulings[number]
    title = f"Ruling {number}: {ruling.title}"
    blocks: list[Block] = [
        Heading(1, line(title), Anchor("ruling", str(number))),
        Field("Editions", joined(line(edition_link(e)) for e in ruling.editions)),
        Field("Refines", joined(line(rule_link(r)) for r in ruling.rules)),
        Heading(2, line("Question")),
        Paragraph(linked_text(cat, ruling.question)),
        Heading(2, line("What the rulebooks say")),
    ]
    if ruling.sources:
        blocks.append(
            Items(
                tuple(
                    (*_source_line(c.file, c.section), ": ", *linked_text(cat, c.says))
                    for c in ruling.sources
                )
            )
        )
    else:
        cited = {(s.file, s.section) for r in ruling.rules for s in cat.spec.rules[r].sources}
        blocks.append(Paragraph(line("The rules it refines cite:")))
        blocks.append(Items(tuple(_source_line(f, s) for f, s in sorted(cited))))
    blocks += [
        Heading(2, line("Decision")),
        Paragraph(linked_text(cat, ruling.decision)),
        Heading(2, line("Reasoning")),
        Paragraph(linked_text(cat, ruling.reasoning)),
    ]
    cases = cat.cases_by_ruling.get(number, ())
    blocks.append(Heading(2, line("Cases")))
    if not cases:
        blocks.append(Paragraph(line("No case cites this ruling.")))
    elif stories:
        blocks += [case_fold(cat, case) for case in cases]
    else:
        blocks.append(Items(tuple(case_summary(c) for c in cases)))
    return Page(f"rulings/{number}", title, tuple(blocks))


def rulings_index(cat: Catalog) -> Page:
    rows = tuple(
        (
            line(Link(str(r.number), "ruling", str(r.number))),
            line(r.title),
            joined(line(edition_link(e)) for e in r.editions),
        )
        for r in sorted(cat.spec.rulings.values(), key=lambda r: r.number)
    )
    blocks: list[Block] = [
        Heading(1, line("Rulings")),
        Paragraph(
            line(
                "Where the rulebooks are silent, ambiguous or contradict each other, a numbered "
                "ruling records what this implementation decided and why. Numbers are stable. "
                "Each ruling names its question, what the rulebooks say or leave unsaid, the "
                "decision, the reasoning and the cases that pin it."
            )
        ),
        Table(("Ruling", "Title", "Editions"), rows),
        Toctree(tuple(str(r.number) for r in sorted(cat.spec.rulings.values(), key=_number))),
    ]
    return Page("rulings/index", "Rulings", tuple(blocks))


def _number(ruling: Ruling) -> int:
    return ruling.number


# ------------------------------------------------------------------ editions


def _copies(ruleset: Ruleset, card: Card) -> str:
    counts = [(a, b, dict(deck).get(card, 0)) for a, b, deck in deck_ranges(ruleset)]
    if len({n for _, _, n in counts}) == 1:
        return str(counts[0][2])
    return "; ".join(f"{n} ({a}–{b} players)" for a, b, n in counts)


def _deck_summary(ruleset: Ruleset) -> str:
    names = deck_names(ruleset)
    per = " per deck" if ruleset.max_decks > 1 else ""
    parts = []
    for index, (least, most, composition) in enumerate(deck_ranges(ruleset)):
        size = sum(n for _, n in composition)
        named = f"the {names[index]} deck, " if names is not None else ""
        parts.append(f"{named}{size} cards{per} for {least}–{most} players")
    text = "; ".join(parts)
    if ruleset.max_decks > 1:
        text += f"; a table plays 1 to {ruleset.max_decks} copies of its deck"
    return text


def _cards_in(cat: Catalog, edition: str) -> list[str]:
    ruleset = cat.ruleset(edition)
    used = {str(card) for card in ruleset.kinds}
    ordered = [card for card in cat.spec.cards if card in used]
    missing = sorted(used - set(ordered))
    return ordered + missing


def card_table(cat: Catalog, edition: str) -> Table:
    ruleset = cat.ruleset(edition)
    rows: list[tuple[Line, ...]] = []
    cards = sorted(
        _cards_in(cat, edition), key=lambda c: (ruleset.value(Card.parse(c)), Card.parse(c))
    )
    for card in cards:
        info = cat.spec.cards.get(card)
        effect = info.effect_in(edition) if info is not None else None
        topic = cat.card_topic(card)
        name: Line = line(
            Link(card_name(Card.parse(card)), "topic", topic)
            if topic is not None
            else card_name(Card.parse(card))
        )
        copies = [
            line(str(dict(composition).get(Card.parse(card), 0)))
            for _, _, composition in deck_ranges(ruleset)
        ]
        rows.append(
            (
                line(str(ruleset.value(Card.parse(card)))),
                name,
                line(Emphasis(info.spanish)) if info is not None and info.spanish else line("—"),
                *copies,
                linked_text(cat, effect.summary) if effect is not None else line("—"),
            )
        )
    return Table(("Value", "Card", "Spanish", *_copies_headers(ruleset), "Effect"), tuple(rows))


def _copies_headers(ruleset: Ruleset) -> tuple[str, ...]:
    """ "Copies", or one column per deck: "Copies, 2–4 players", ...; with
    several copies of the deck, the counts are per copy: "Copies per deck,
    3–4 players (standard)"."""
    ranges = deck_ranges(ruleset)
    noun = "Copies per deck" if ruleset.max_decks > 1 else "Copies"
    if len(ranges) == 1:
        return (noun,)
    names = deck_names(ruleset)
    return tuple(
        f"{noun}, {least}–{most} players" + (f" ({names[index]})" if names is not None else "")
        for index, (least, most, _) in enumerate(ranges)
    )


def edition_page(cat: Catalog, edition: str) -> Page:
    info = cat.spec.edition_info[edition]
    ruleset = cat.ruleset(edition)
    blocks: list[Block] = [
        Heading(1, line(info.title), Anchor("edition", edition)),
        Field("ID", line(Code(edition), *([" (aliases: ", *_aliases(ruleset), ")"]))),
        Field("Players", line(f"{ruleset.min_players}–{ruleset.max_players}")),
        Field("Deck", line(_deck_summary(ruleset))),
    ]
    if info.base is not None:
        blocks.append(Field("Based on", line(edition_link(info.base))))
    blocks.append(Paragraph(linked_text(cat, info.delta)))
    blocks.append(Field("Rulebooks", _sources((s.file, s.section) for s in info.sources)))
    blocks.append(Heading(2, line("Cards")))
    blocks.append(card_table(cat, edition))
    if ruleset.max_decks > 1:
        blocks.append(
            Paragraph(
                line(
                    f"The copies are those of one deck: a table plays 1 to {ruleset.max_decks} "
                    "decks shuffled together, every count multiplied by their number."
                )
            )
        )
    if ruleset.tokens_to_win_table:
        tokens = ruleset.token_names[1]
        blocks.append(Heading(2, line(f"{tokens[0].upper()}{tokens[1:]} to win")))
        blocks.append(
            Table(
                ("Players", "Tokens"),
                tuple(
                    (line(str(players)), line(str(tokens)))
                    for players, tokens in ruleset.tokens_to_win_table
                ),
            )
        )
    if ruleset.online_table:
        blocks += _settings_blocks(cat)
    glance = [
        (line(aspect.title), _cell(cat, cell.text, cell.rules, cell.rulings))
        for aspect in cat.spec.comparison
        if (cell := aspect.cells.get(edition)) is not None
    ]
    if glance:
        blocks.append(Heading(2, line("At a glance")))
        blocks.append(
            Paragraph(
                line(
                    "This edition's column of the ",
                    Link("comparison of the editions", "label", "edition-comparison"),
                    ".",
                )
            )
        )
        blocks.append(Table(("Question", edition_short(edition)), tuple(glance)))
    if edition == "premium":
        blocks.append(Heading(2, line("Showdown order")))
        blocks.append(
            Image(
                "/diagrams/premium-showdown.svg",
                "The order in which a Premium round's showdown is decided",
            )
        )
    blocks.append(Heading(2, line("Rules")))
    items: list[Line] = []
    for topic in cat.topics:
        rules = cat.rules_of(topic, edition)
        if rules:
            items.append(
                line(
                    Link(_topic_title(cat, topic), "topic", topic),
                    ": ",
                    *joined(line(rule_link(r.id)) for r in rules),
                )
            )
    blocks.append(Items(tuple(items)))
    blocks.append(Heading(2, line("Rulings")))
    blocks.append(
        Items(
            tuple(
                line(ruling_link(r))
                for r in sorted(cat.spec.rulings.values(), key=_number)
                if edition in r.editions
            )
        )
    )
    return Page(f"editions/{edition}", info.title, tuple(blocks))


def _settings_blocks(cat: Catalog) -> list[Block]:
    """An online table's settings with their defaults, and the rules that
    give their ranges (those the settings' check implements)."""
    rows = tuple(
        (line(Code(field.name)), line(Code(json.dumps(field.default))))
        for field in attrs.fields(TableSettings)
    )
    checked = sorted(
        rule
        for rule, code in cat.code_by_rule.items()
        if any(q.endswith(".check_table_settings") for q in code) and rule in cat.spec.rules
    )
    blocks: list[Block] = [Heading(2, line("Table settings")), Table(("Setting", "Default"), rows)]
    if checked:
        blocks.append(
            Paragraph(
                line("Ranges and meaning: ", *joined(line(rule_link(r)) for r in checked), ".")
            )
        )
    return blocks


def _aliases(ruleset: Ruleset) -> list[Inline]:
    return list(joined(line(Code(a)) for a in ruleset.aliases)) or ["none"]


def _cell(cat: Catalog, text: str, rules: Sequence[str], rulings: Sequence[int]) -> Line:
    refs = [line(rule_link(r)) for r in rules]
    refs += [line(ruling_link(cat.spec.rulings[n], titled=False)) for n in rulings]
    if not refs:
        return linked_text(cat, text)
    return (*linked_text(cat, text), " (", *joined(refs), ")")


def comparison(cat: Catalog) -> Table:
    """All editions side by side: the rows of ``spec/comparison.yaml``, each
    cell citing the rules and rulings that establish it."""
    editions = cat.spec.editions
    rows: list[tuple[Line, ...]] = []
    for aspect in cat.spec.comparison:
        cells = []
        for edition in editions:
            cell = aspect.cells.get(edition)
            cells.append(
                line("—") if cell is None else _cell(cat, cell.text, cell.rules, cell.rulings)
            )
        rows.append((line(aspect.title), *cells))
    return Table(("", *(edition_short(e) for e in editions)), tuple(rows))


def deck_comparison(cat: Catalog) -> Table:
    """Every card's value and copies in each deck of each edition: one
    column per deck, as the decks picture draws them."""
    columns = decks(cat)
    split = {d.edition for d in columns if sum(c.edition == d.edition for c in columns) > 1}
    headers = tuple(
        edition_short(d.edition) + (f", {d.least}–{d.most} players" if d.edition in split else "")
        for d in columns
    )
    rows: list[tuple[Line, ...]] = []
    for card in deck_kinds(cat, columns):
        cells: list[Line] = []
        for deck in columns:
            copies = deck.copies(card)
            value = cat.ruleset(deck.edition).value(card)
            cells.append(line(f"{value} ×{copies}") if copies else line("—"))
        topic = cat.card_topic(str(card))
        name = card_name(card)
        rows.append((line(Link(name, "topic", topic) if topic else name), *cells))
    totals = tuple(line(Emphasis(str(d.size))) for d in columns)
    rows.append((line(Emphasis("Cards")), *totals))
    return Table(("Card", *headers), tuple(rows))


def _deck_note(cat: Catalog) -> str:
    note = "Each cell gives the card's value, then its copies (“5 ×2”: value 5, two copies)"
    for edition in cat.spec.editions:
        most = cat.ruleset(edition).max_decks
        if most > 1:
            note += (
                f"; the {edition_short(edition)} edition counts one deck, and a table may"
                f" shuffle up to {most} of them together, every count multiplied"
            )
    return note + "."


def editions_index(cat: Catalog) -> Page:
    """The editions: first the cards each one plays (a table, then the decks
    drawn side by side), then what each edition is, then the comparison."""
    blocks: list[Block] = [
        Heading(1, line("Editions")),
        Paragraph(
            line(
                "Which cards each edition plays, with their values and copies; then what "
                "each edition is, and how their rules differ."
            )
        ),
        Heading(2, line("Cards in each edition"), Anchor("label", "edition-cards")),
        Paragraph(line(_deck_note(cat))),
        deck_comparison(cat),
        Image(
            "/" + DECKS,
            "The decks of every edition side by side: one column per deck, one small card per"
            " copy, as the table above counts them",
            "wide-picture",
        ),
        Heading(2, line("The editions")),
        Paragraph(
            line(
                "Each edition is a ruleset of this implementation; a later edition is "
                "described as a difference from its base."
            )
        ),
        Items(
            tuple(
                line(edition_link(e), " — ", cat.spec.edition_info[e].title)
                for e in cat.spec.editions
            )
        ),
        Heading(2, line("Side by side"), Anchor("label", "edition-comparison")),
        comparison(cat),
        Toctree(cat.spec.editions),
    ]
    return Page("editions/index", "Editions", tuple(blocks))


# ------------------------------------------------------------------ edge cases


def edge_cases_page(cat: Catalog, entries: Sequence[Mapping[str, Any]]) -> Page:
    """The hard cases, explained and then shown through their cases."""
    blocks: list[Block] = [
        Heading(1, line("Edge cases")),
        Paragraph(
            line(
                "The situations where implementations most often go wrong, each explained "
                "and then shown through the conformance cases that pin it."
            )
        ),
    ]
    for entry in entries:
        blocks.append(Heading(2, line(str(entry["title"])), Anchor("edge-case", str(entry["id"]))))
        for paragraph in str(entry["explanation"]).split("\n\n"):
            if paragraph.strip():
                blocks.append(Paragraph(linked_text(cat, " ".join(paragraph.split()))))
        refs = [line(rule_link(r)) for r in entry.get("rules", ())]
        refs += [line(ruling_link(cat.spec.rulings[int(n)])) for n in entry.get("rulings", ())]
        if refs:
            blocks.append(Field("Rules and rulings", joined(refs, "; ")))
        if entry.get("diagram"):
            blocks.append(Image(f"/diagrams/{entry['diagram']}", str(entry["title"])))
        for name in entry.get("cases", ()):
            blocks.append(case_fold(cat, cat.case(str(name))))
    return Page("edge-cases", "Edge cases", tuple(blocks))


# ------------------------------------------------------------------ the site


class SiteHomes:
    """The page of the site each thing a link names is at, as
    :func:`site_pages` places it: a rule on its topic's page, a ruling and
    an edition on their own, a case on its folder's page, a topic on its
    page. The edge cases (on their page only when it has them), labels,
    functions and documents are not placed: a story linking one of them
    stays Markdown, for Sphinx to resolve."""

    def __init__(self, cat: Catalog) -> None:
        self._cat = cat
        self._cases = {case.name: "cases/" + case.name.rsplit("/", 1)[0] for case in cat.cases}

    def home(self, kind: TargetKind, target: str) -> str:
        if kind == "rule":
            return f"rules/{self._cat.spec.rules[target].topic}"
        if kind == "ruling" and target in {str(n) for n in self._cat.spec.rulings}:
            return f"rulings/{target}"
        if kind == "case":
            return self._cases[target]
        if kind == "edition" and target in self._cat.spec.editions:
            return f"editions/{target}"
        if kind == "topic" and target in self._cat.topics:
            return f"rules/{target}"
        raise LookupError(f"no page for the {kind} {target!r}")


def site_pages(cat: Catalog, edge_cases: Sequence[Mapping[str, Any]] = ()) -> list[Page]:
    """Every generated page of the site."""
    pages = [rules_index(cat)]
    pages += [topic_page(cat, topic) for topic in cat.topics]
    pages.append(rulings_index(cat))
    pages += [ruling_page(cat, n) for n in sorted(cat.spec.rulings)]
    pages.append(editions_index(cat))
    pages += [edition_page(cat, e) for e in cat.spec.editions]
    pages += case_pages(cat)
    if edge_cases:
        pages.append(edge_cases_page(cat, edge_cases))
    return pages
