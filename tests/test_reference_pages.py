"""The generated rules pages as documents: links, anchors, escaping, and
every rule, ruling and case placed on exactly one home page."""

from __future__ import annotations

from loveletter.reference.catalog import catalog
from loveletter.reference.document import (
    Anchor,
    Code,
    Details,
    Field,
    Heading,
    Link,
    Paragraph,
    Table,
    line,
    text_line,
    to_myst,
    to_text,
)
from loveletter.reference.pages import Page, edition_page, linked_text, site_pages, topic_page
from loveletter.reference.sources import readable


def test_ruling_numbers_and_rule_ids_in_running_text_become_links() -> None:
    parts = linked_text(
        catalog(), "See rulings 8 and 9, ruling 99, and `prince.empty-deck-draws-set-aside`."
    )
    links = [p for p in parts if isinstance(p, Link)]
    assert [(link.kind, link.target) for link in links] == [
        ("ruling", "8"),
        ("ruling", "9"),
        ("rule", "prince.empty-deck-draws-set-aside"),
    ]
    assert "99" in "".join(p for p in parts if isinstance(p, str))  # no ruling 99: plain text


def test_rulebook_numbers_read_as_rulebooks_with_the_number_as_key() -> None:
    text = readable('000 "Setup" says so. In 001 it differs (003 "Quick Reference").')
    assert text == (
        'The 2019 rulebook [000] "Setup" says so. In the Premium rulebook [001] it differs '
        '(second 2019 transcription [003] "Quick Reference").'
    )
    assert readable("000_0fc648c025107d8d.txt") == "000_0fc648c025107d8d.txt"


def test_a_rule_heading_carries_its_exact_id_and_a_label() -> None:
    myst = to_myst(
        [Heading(2, line(Code("prince.any-player")), Anchor("rule", "prince.any-player"))]
    )
    assert '<div id="prince.any-player"></div>' in myst
    assert "(prince.any-player)=\n## `prince.any-player`" in myst
    ruling = to_myst([Heading(1, line("Ruling 9"), Anchor("ruling", "9"))])
    assert "<div" not in ruling and "(ruling-9)=" in ruling  # docutils keeps this id as it is


def test_markdown_in_spec_text_is_escaped_on_the_site_and_kept_in_the_terminal() -> None:
    blocks = [Paragraph(line("a *b* [c](d) <e> `f` #g | h_i"))]
    assert to_myst(blocks).strip() == r"a \*b\* \[c\](d) \<e\> \`f\` \#g \| h\_i"
    assert to_text(blocks).strip() == "a *b* [c](d) <e> `f` #g | h_i"


def test_folds_open_on_the_site_and_are_told_in_full_in_the_terminal() -> None:
    fold = Details(line("Title"), (Paragraph(line("Body")),))
    assert '<details class="case-story">' in to_myst([fold])
    assert to_text([fold]) == "* Title\n    Body\n"


def test_every_rule_ruling_and_case_has_exactly_one_home() -> None:
    cat = catalog()
    homes: dict[tuple[str, str], list[str]] = {}
    for page in site_pages(cat):
        for block in page.blocks:
            if isinstance(block, Heading) and block.anchor is not None:
                key = (block.anchor.kind, block.anchor.target)
                homes.setdefault(key, []).append(page.path)
    doubled = {key: paths for key, paths in homes.items() if len(paths) > 1}
    assert not doubled
    assert {t for k, t in homes if k == "rule"} == set(cat.spec.rules)
    assert {int(t) for k, t in homes if k == "ruling"} == set(cat.spec.rulings)
    assert {t for k, t in homes if k == "case"} == {c.name for c in cat.cases}
    assert {t for k, t in homes if k == "edition"} == set(cat.spec.editions)


def test_a_case_pinning_several_rules_of_a_page_is_told_once_there() -> None:
    cat = catalog()
    page = topic_page(cat, "round")
    summaries = [text_line(b.summary) for b in page.blocks if isinstance(b, Details)]
    assert len(summaries) == len(set(summaries))
    told = {c.name for r in cat.rules_of("round") for c in cat.cases_by_rule.get(r.id, ())}
    assert len(summaries) == len(told)


def test_an_edition_page_gives_each_deck_the_player_counts_that_use_it() -> None:
    cat = catalog()

    def headings(page: Page) -> list[str]:
        return [text_line(b.text) for b in page.blocks if isinstance(b, Heading)]

    def card_headers(page: Page) -> tuple[str, ...]:
        return next(b.header for b in page.blocks if isinstance(b, Table))

    premium, online = edition_page(cat, "premium"), edition_page(cat, "online")
    assert card_headers(premium)[3:5] == ("Copies, 2–4 players", "Copies, 5–8 players")
    # online keeps Premium's two decks but seats no two players, and its
    # counts are per copy of the deck
    assert card_headers(online)[3:5] == (
        "Copies per deck, 3–4 players (standard)",
        "Copies per deck, 5–8 players (Extended)",
    )
    deck = next(b for b in online.blocks if isinstance(b, Field) and b.label == "Deck")
    assert "2–4" not in text_line(deck.text) and "1 to 3 copies" in text_line(deck.text)
    # tokens to win where the edition has them; the table's settings online
    assert "Favor tokens to win" in headings(premium) and "Table settings" not in headings(premium)
    assert "Favor tokens to win" not in headings(online) and "Table settings" in headings(online)
    # each edition's column of the comparison
    for page, edition in ((premium, "premium"), (online, "online")):
        glance = next(b for b in page.blocks if isinstance(b, Table) and b.header[0] == "Question")
        assert len(glance.rows) == len(cat.spec.comparison), edition
