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
    Links,
    Paragraph,
    Table,
    line,
    text_line,
    to_myst,
    to_text,
)
from loveletter.reference.pages import (
    Page,
    SiteHomes,
    edition_page,
    linked_text,
    rule_entry,
    site_pages,
    topic_page,
)
from loveletter.reference.sources import HASHED_NAME, readable


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


def test_rulebook_numbers_read_as_the_rulebooks_readers_know() -> None:
    text = readable('000 "Setup" says so. In 001 it differs (003 "Quick Reference").')
    assert text == (
        'The 2019 rulebook "Setup" says so. In the Premium rulebook it differs '
        '(the 2019 rulebook "Quick Reference").'
    )
    # a number that repeats the book just named goes, brackets and all
    assert readable("as the online rules (004) say, and 004's card table") == (
        "as the online rules say, and the online rules page's card table"
    )
    assert readable('The Spanish rulebook (002, "0. Espía")') == 'The Spanish rulebook ("0. Espía")'
    # a file name in running text is named too, and thousands are no book
    assert readable("see 000_0fc648c025107d8d.txt") == "see the 2019 rulebook"
    assert readable("from 5,000 to 60,000 ms") == "from 5,000 to 60,000 ms"


def test_a_citation_names_the_edition_s_rulebook_and_section_never_its_file() -> None:
    cat = catalog()
    rule = cat.spec.rules["prince.discard-and-draw"]
    source = next(b for b in rule_entry(cat, rule) if isinstance(b, Field) and b.label == "Source")
    text = text_line(source.text)
    assert text.startswith("Love Letter, Z-Man Games 2019, “Card Effects › (5) Prince”")
    assert "Love Letter Premium Edition, AEG 2016, “" in text
    assert not HASHED_NAME.search(text) and ".txt" not in text
    # the two transcriptions of the 2019 rulebook are one book to a reader
    both = next(
        r for r in cat.spec.rules.values() if {"000", "003"} <= {s.file[:3] for s in r.sources}
    )
    source = next(b for b in rule_entry(cat, both) if isinstance(b, Field) and b.label == "Source")
    assert text_line(source.text).count("Love Letter, Z-Man Games 2019,") == 1


def test_no_generated_page_shows_a_rulebook_s_file_name() -> None:
    """Checked on the documents (the built site is checked too, by
    tests/test_docs_site.py): every page, in both renderings."""
    cat = catalog()
    for page in site_pages(cat):
        for text in (to_myst(page.blocks), to_text(page.blocks)):
            found = HASHED_NAME.search(text)
            assert found is None, (page.path, found.group(0))


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


def test_a_rule_s_cases_fold_into_one_line_that_opens_their_list() -> None:
    cat = catalog()
    page = topic_page(cat, "prince")
    folds = [b for b in page.blocks if isinstance(b, Details)]
    rules = [r for r in cat.rules_of("prince") if r.id in cat.cases_by_rule]
    # one fold per rule, and nothing else of the page is folded
    counts = [len(cat.cases_by_rule[r.id]) for r in rules]
    assert [text_line(f.summary) for f in folds] == [
        f"{n} case pins this rule" if n == 1 else f"{n} cases pin this rule" for n in counts
    ]
    assert all(f.css_class == "case-list" for f in folds)
    # the page reads as its rules: every statement is outside the folds
    statements = [text_line(b.text) for b in page.blocks if isinstance(b, Paragraph)]
    for rule in cat.rules_of("prince"):
        assert text_line(linked_text(cat, rule.statement)) in statements


def test_on_the_site_a_rule_page_s_stories_are_html_in_markdown_case_lists() -> None:
    """The site writes the stories under the rules as raw HTML (see
    tests/test_story_html.py); the one-line lists that open them stay
    Markdown, and so does everything else of the page."""
    cat = catalog()
    page = topic_page(cat, "prince")
    myst = to_myst(page.blocks, Links(page.path, SiteHomes(cat)))
    lists = [b for b in page.blocks if isinstance(b, Details)]
    stories = [s for fold in lists for s in fold.body if isinstance(s, Details)]
    assert myst.count('<details class="case-list">\n<summary>\n\n') == len(lists)
    assert myst.count('<details class="case-story">\n<summary>\n<p>') == len(stories) > 10
    assert "*Setup*" not in myst and "{ref}`" in myst
    outside = [b for b in page.blocks if not isinstance(b, Details)]
    assert to_myst(outside, Links(page.path, SiteHomes(cat))) == to_myst(outside)


def test_a_case_pinning_several_rules_of_a_page_is_told_once_there() -> None:
    cat = catalog()
    page = topic_page(cat, "round")
    stories = [
        text_line(inner.summary)
        for fold in page.blocks
        if isinstance(fold, Details)
        for inner in fold.body
        if isinstance(inner, Details)
    ]
    assert len(stories) == len(set(stories))
    told = {c.name for r in cat.rules_of("round") for c in cat.cases_by_rule.get(r.id, ())}
    assert len(stories) == len(told)


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
    # in the edition's own words: Premium's are Tokens of Affection
    assert "Tokens of Affection to win" in headings(premium)
    assert "Favor tokens to win" in headings(edition_page(cat, "2019"))
    assert "Table settings" not in headings(premium)
    assert not any("to win" in h for h in headings(online)) and "Table settings" in headings(online)
    # each edition's column of the comparison
    for page, edition in ((premium, "premium"), (online, "online")):
        glance = next(b for b in page.blocks if isinstance(b, Table) and b.header[0] == "Question")
        assert len(glance.rows) == len(cat.spec.comparison), edition
