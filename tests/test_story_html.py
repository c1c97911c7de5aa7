"""The case stories folded away from their homes, written as raw HTML
(:func:`loveletter.reference.document.fold_html`): the HTML Sphinx makes
of the same fold's Markdown, escaped, typeset and linked as Sphinx does,
checked on hand-made folds, against a small Sphinx build, and on every
fold of the real site.

The whole site's build (``tests/test_docs_site.py``) checks that a fold
tells the same words as the story at its home, and that its links land.
"""

from __future__ import annotations

import io
import posixpath
import re
from collections.abc import Sequence
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import ClassVar
from urllib.parse import urlsplit

import pytest
import yaml

from loveletter.reference.catalog import catalog
from loveletter.reference.document import (
    Anchor,
    Block,
    Code,
    CodeBlock,
    Details,
    Emphasis,
    Heading,
    Items,
    Link,
    Links,
    MarkdownOnly,
    Paragraph,
    TargetKind,
    Toctree,
    anchor_label,
    fold_html,
    line,
    to_myst,
    to_text,
)
from loveletter.reference.pages import Page, SiteHomes, site_pages

DOCS = Path(__file__).resolve().parent.parent / "docs"

CASE = "2019/commands/some-case-v2"


class Homes:
    """The homes of a small site: one thing of each kind a link names."""

    PAGES: ClassVar[dict[tuple[str, str], str]] = {
        ("topic", "prince"): "rules/prince",
        ("rule", "prince.any-player"): "rules/prince",
        ("ruling", "6"): "rulings/6",
        ("case", CASE): "cases/2019/commands",
        ("edition", "2019"): "editions/2019",
    }

    def home(self, kind: TargetKind, target: str) -> str:
        return self.PAGES[(kind, target)]


def _html(fold: Details, page: str = "rules/prince") -> str:
    return fold_html(fold, Links(page, Homes()))


def _fold(*body: Block, summary: str = "A case") -> Details:
    return Details(line(Code("2019"), " ", summary), body)


def test_a_fold_is_one_html_block_as_sphinx_writes_it() -> None:
    fold = _fold(
        Paragraph(line(Emphasis("Setup"))),
        Items((line("Round 1, turn 6."), line("Player 0 is to play."))),
        Paragraph(line(Emphasis("Step 1."), " Player 0 plays the Guard.")),
    )
    assert _html(fold) == "\n".join(
        [
            '<details class="case-story">',
            "<summary>",
            '<p><code class="docutils literal notranslate"><span class="pre">2019</span></code>'
            " A case</p>",
            "</summary>",
            "<p><em>Setup</em></p>",
            '<ul class="simple">',
            "<li><p>Round 1, turn 6.</p></li>",
            "<li><p>Player 0 is to play.</p></li>",
            "</ul>",
            "<p><em>Step 1.</em> Player 0 plays the Guard.</p>",
            "</details>",
        ]
    )


def test_text_is_escaped_and_set_with_typographic_quotes() -> None:
    html = _html(_fold(Paragraph(line('Player 1\'s "Baron" & <b>x</b> -- a@b...'))))
    assert "<p>Player 1\u2019s “Baron” &amp; &lt;b&gt;x&lt;/b&gt; – a&#64;b…</p>" in html
    # the summary too, and code keeps its straight quotes
    summary = _html(_fold(summary="the 'Spy' & \"Guard\""))
    assert "</code> the \u2018Spy\u2019 &amp; “Guard”</p>" in summary
    code = _html(_fold(Paragraph(line(Code('it\'s <x> & "y"')))))
    assert (
        '<span class="pre">it\'s</span> <span class="pre">&lt;x&gt;</span>'
        ' <span class="pre">&amp;</span> <span class="pre">&quot;y&quot;</span>'
    ) in code


def test_inline_code_keeps_its_spaces_as_the_html_writer_does() -> None:
    html = _html(_fold(Paragraph(line("Say ", Code("P0 plays  Guard"), " now."))))
    assert (
        '<p>Say <code class="docutils literal notranslate"><span class="pre">P0</span>'
        ' <span class="pre">plays</span>&#160; <span class="pre">Guard</span></code> now.</p>'
    ) in html


def test_emphasis_and_markdown_characters_are_words() -> None:
    html = _html(_fold(Paragraph(line(Emphasis("Checked:"), " a *b* [c](d) `e` #f | g_h {i}"))))
    assert "<p><em>Checked:</em> a *b* [c](d) `e` #f | g_h {i}</p>" in html


@pytest.mark.parametrize(
    ("page", "kind", "target", "href"),
    [
        ("rules/prince", "rule", "prince.any-player", "#prince-any-player"),
        ("rules/prince", "topic", "prince", "#topic-prince"),
        ("rules/prince", "ruling", "6", "../rulings/6.html#ruling-6"),
        (
            "rules/prince",
            "case",
            CASE,
            "../cases/2019/commands.html#case-2019-commands-some-case-v2",
        ),
        ("rules/prince", "edition", "2019", "../editions/2019.html#edition-2019"),
        ("edge-cases", "rule", "prince.any-player", "rules/prince.html#prince-any-player"),
        ("edge-cases", "ruling", "6", "rulings/6.html#ruling-6"),
        ("rulings/6", "ruling", "6", "#ruling-6"),
        ("cases/2019/commands", "case", CASE, "#case-2019-commands-some-case-v2"),
        (
            "cases/premium/round",
            "case",
            CASE,
            "../2019/commands.html#case-2019-commands-some-case-v2",
        ),
    ],
)
def test_each_kind_of_link_goes_where_sphinx_s_reference_goes(
    page: str, kind: TargetKind, target: str, href: str
) -> None:
    html = _html(_fold(Paragraph(line("See ", Link("it", kind, target), "."))), page)
    assert (
        f'<p>See <a class="reference internal" href="{href}">'
        '<span class="std std-ref">it</span></a>.</p>'
    ) in html


def test_lists_inside_a_fold_each_item_one_paragraph() -> None:
    fold = _fold(
        Items((line("a"), line(Emphasis("Only Player 1 learns:"), " b"))),
        Paragraph(line("between")),
        Items((line("c"),)),
    )
    html = _html(fold)
    assert html.count('<ul class="simple">') == 2 and html.count("</ul>") == 2
    assert "<li><p><em>Only Player 1 learns:</em> b</p></li>" in html
    assert "\n\n" not in html and not html.endswith("\n")  # no blank line ends the block early


@pytest.mark.parametrize(
    "body",
    [
        (CodeBlock("yaml", "id: x\n"),),
        (Items((line("a"),), ordered=True),),
        (Details(line("inner"), (Paragraph(line("x")),), css_class="other"),),
        (Paragraph(line("- read as a list")),),
        (Paragraph(line("1. read as a list")),),
        (Paragraph(line("(label)=")),),
        (Paragraph(line("two\nlines")),),
        (Paragraph(line("&amp; is a character reference")),),
        (Paragraph(line(Emphasis(" spaced "))),),
        (Paragraph(line(Code("a`b"))),),
        (Paragraph(line(Link("f", "code", "loveletter.engine.push"))),),
        (Paragraph(line(Link("Editions", "page", "editions/index"))),),
        (Paragraph(line(Link("cards", "label", "edition-cards"))),),
        (Paragraph(line(Link("x", "edge-case", "x"))),),
        (Paragraph(line(Link("No such rule", "rule", "prince.nothing"))),),
    ],
)
def test_what_html_would_not_write_as_sphinx_does_stays_markdown(body: tuple[Block, ...]) -> None:
    fold = _fold(*body)
    with pytest.raises((MarkdownOnly, LookupError)):
        _html(fold)
    links = Links("rules/prince", Homes())
    assert to_myst([fold], links) == to_myst([fold])


def test_only_case_stories_become_html_and_only_given_the_page() -> None:
    story = _fold(Paragraph(line("Told.")))
    cases = Details(line("1 case pins this rule"), (story,), css_class="case-list")
    links = Links("rules/prince", Homes())
    myst = to_myst([cases], links)
    # the list's fold stays Markdown, the story in it is one HTML block
    assert myst.startswith('<details class="case-list">\n<summary>\n\n1 case pins this rule\n')
    assert "\n" + _html(story) + "\n\n</details>\n" in myst
    assert "<p>Told.</p>" not in to_myst([cases])
    # the terminal tells it all, as before
    assert to_text([cases]) == "* 1 case pins this rule\n    * 2019 A case\n        Told.\n"


# ------------------------------------------------------------- against Sphinx


def _small_site() -> dict[str, tuple[Block, ...]]:
    """Pages with one home of each kind of link, and the folds to compare
    on two of them (at the root and one folder down)."""
    every_kind = Paragraph(
        line(
            "See ",
            Link("prince.any-player", "rule", "prince.any-player"),
            ", ",
            Link("Ruling 6", "ruling", "6"),
            ", ",
            Link(CASE, "case", CASE),
            ", ",
            Link("2019", "edition", "2019"),
            " and ",
            Link("the Prince", "topic", "prince"),
            ".",
        )
    )
    folds: tuple[Block, ...] = (
        Details(
            line(Code("2019"), " Player 1's \"Baron\" & the <Guard> -- 'quoted'"),
            (
                Paragraph(line(Emphasis("Setup"))),
                Items(
                    (
                        line("Player 1's Baron; 'single' and \"double\" quotes..."),
                        line("a *b* [c](d) `e` #f | g_h {i} ~j~ a@b.c 3 < 4 & 5 > 2"),
                        line('dashes -- and --- and — and a back\\slash and \\"escaped\\"'),
                    )
                ),
                Paragraph(line(Emphasis("Step 1."), " ", Code("P0 Guard  on P2"), ' said "no".')),
                every_kind,
                Items((line(Emphasis("Checked:"), " ", Code("it's"), "'s fine"),)),
            ),
        ),
        Details(line(Code("Premium"), " “Curly” already"), (every_kind,)),
    )
    return {
        "index": (
            Heading(1, line("Index")),
            Toctree(
                (
                    "rules/prince",
                    "rulings/6",
                    "cases/2019/commands",
                    "editions/2019",
                    "edge-cases",
                )
            ),
        ),
        "rules/prince": (
            Heading(1, line("Prince"), Anchor("topic", "prince")),
            Heading(2, line(Code("prince.any-player")), Anchor("rule", "prince.any-player")),
            *folds,
        ),
        "rulings/6": (Heading(1, line("Ruling 6"), Anchor("ruling", "6")),),
        "cases/2019/commands": (
            Heading(1, line("Cases")),
            Heading(2, line("Some case"), Anchor("case", CASE)),
        ),
        "editions/2019": (Heading(1, line("2019"), Anchor("edition", "2019")),),
        "edge-cases": (Heading(1, line("Edge cases")), *folds),
    }


def _folds_in(html: str) -> list[str]:
    return re.findall(r'<details class="case-story">.*?</details>', html, re.S)


def test_the_html_is_what_sphinx_writes_for_the_fold_s_markdown(tmp_path: Path) -> None:
    """A small site built by Sphinx with the site's MyST settings: each fold
    written as Markdown comes out as the HTML written directly."""
    from sphinx.cmd.build import build_main

    source = tmp_path / "src"
    conf = (DOCS / "conf.py").read_text(encoding="utf-8")
    settings = re.findall(r"^(?:myst_\w+|source_suffix|root_doc) = .*$", conf, re.M)
    assert len(settings) == 4, settings
    lines = ['extensions = ["myst_parser"]', *settings]
    source.mkdir()
    (source / "conf.py").write_text("\n".join(lines) + "\n", encoding="utf-8")
    site = _small_site()
    for page, blocks in site.items():
        path = source / f"{page}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(to_myst(blocks), encoding="utf-8")
    log = io.StringIO()
    argv = ["-j", "1", "-W", "-n", "-q", "-b", "html", "-d", str(tmp_path / "doctrees")]
    with redirect_stdout(log), redirect_stderr(log):
        status = build_main([*argv, str(source), str(tmp_path / "html")])
    assert status == 0, log.getvalue()
    for page in ("rules/prince", "edge-cases"):
        built = _folds_in((tmp_path / "html" / f"{page}.html").read_text(encoding="utf-8"))
        folds = [b for b in site[page] if isinstance(b, Details)]
        assert built == [_html(fold, page) for fold in folds], page


# ------------------------------------------------------------- the real site


def _pages() -> list[Page]:
    entries = yaml.safe_load((DOCS / "edge_cases.yaml").read_text(encoding="utf-8"))
    return site_pages(catalog(), entries["edge_cases"])


def _case_stories(pages: Sequence[Page]) -> list[tuple[str, Details]]:
    """Every case-story fold of the pages, with its page."""
    found: list[tuple[str, Details]] = []

    def walk(page: str, blocks: Sequence[Block]) -> None:
        for block in blocks:
            if isinstance(block, Details):
                if block.css_class == "case-story":
                    found.append((page, block))
                walk(page, block.body)

    for page in pages:
        walk(page.path, page.blocks)
    return found


def _declared_ids(pages: Sequence[Page]) -> set[tuple[str, str]]:
    """(page, id) of every anchor the pages declare, with the id docutils
    gives its label (where Sphinx's references land)."""
    from docutils.nodes import make_id  # type: ignore[import-untyped]

    ids: set[tuple[str, str]] = set()
    for page in pages:
        for block in page.blocks:
            if isinstance(block, Heading) and block.anchor is not None:
                label = anchor_label(block.anchor.kind, block.anchor.target)
                ids.add((page.path, str(make_id(label))))
    return ids


def test_every_story_folded_away_from_its_home_is_html_and_its_links_land() -> None:
    pages = _pages()
    homes = SiteHomes(catalog())
    declared = _declared_ids(pages)
    folds = [(page, fold) for page, fold in _case_stories(pages) if not page.startswith("cases/")]
    assert len(folds) > 1000
    links = 0
    for page, fold in folds:
        html = fold_html(fold, Links(page, homes))
        for href in re.findall(r'href="([^"]*)"', html):
            parts = urlsplit(href)
            assert not parts.scheme and not parts.netloc and parts.fragment, href
            target = page
            if parts.path:
                assert parts.path.endswith(".html"), href
                base = posixpath.dirname(page)
                target = posixpath.normpath(posixpath.join(base, parts.path))[: -len(".html")]
            assert (target, parts.fragment) in declared, (page, href)
            links += 1
    assert links >= len(folds) // 2
    # at their homes the stories stay Markdown: a case page is the same
    # written with or without its links
    for home in pages:
        if home.path.startswith("cases/"):
            assert to_myst(home.blocks, Links(home.path, homes)) == to_myst(home.blocks)
