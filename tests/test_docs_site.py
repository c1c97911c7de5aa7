"""The documentation site, built as ``make docs`` builds it (warnings are
errors, references nitpicky), then walked page by page: every rule ID,
ruling number and case ID has its anchor, no internal link is broken, and
every edition's card table lists every card of that ruleset.

The build takes under a minute; it runs once for the whole module.
"""

from __future__ import annotations

import io
import os
import re
import xml.etree.ElementTree as ET
from contextlib import redirect_stderr, redirect_stdout
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import attrs
import pytest

from loveletter.narrative import card_name
from loveletter.reference.catalog import catalog, deck_ranges, edition_short
from loveletter.reference.sources import HASHED_NAME
from loveletter.rulesets import RULESETS
from loveletter.spec import load_spec

DOCS = Path(__file__).resolve().parent.parent / "docs"
SPEC = load_spec()


@attrs.define
class Page:
    ids: set[str] = attrs.Factory(set)
    links: list[str] = attrs.Factory(list)
    #: every picture's source
    images: list[str] = attrs.Factory(list)
    #: every table: rows of cell texts
    tables: list[list[list[str]]] = attrs.Factory(list)
    text: list[str] = attrs.Factory(list)


class SkimmedPage:
    """A page's ids, links and pictures (:func:`_skim`), its tables and text
    read in full the first time a test asks for them."""

    def __init__(self, path: Path) -> None:
        skimmed = _skim(path)
        self.path = path
        self.ids, self.links, self.images = skimmed.ids, skimmed.links, skimmed.images
        self._read: Page | None = None

    def _full(self) -> Page:
        if self._read is None:
            self._read = _read(self.path)
        return self._read

    @property
    def tables(self) -> list[list[list[str]]]:
        return self._full().tables

    @property
    def text(self) -> list[str]:
        return self._full().text


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = Page()
        self._cell: list[str] | None = None
        self._skip = 0

    def handle_starttag(self, tag: str, attrs_: list[tuple[str, str | None]]) -> None:
        values = dict(attrs_)
        if values.get("id"):
            self.page.ids.add(str(values["id"]))
        if tag == "a" and values.get("href"):
            self.page.links.append(str(values["href"]))
        if tag == "img" and values.get("src"):
            self.page.images.append(str(values["src"]))
        if tag in ("script", "style"):
            self._skip += 1
        if tag == "table":
            self.page.tables.append([])
        elif tag == "tr" and self.page.tables:
            self.page.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1
        if tag in ("td", "th") and self._cell is not None and self.page.tables:
            self.page.tables[-1][-1].append(" ".join("".join(self._cell).split()))
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        self.page.text.append(data)
        if self._cell is not None:
            self._cell.append(data)


def _read(path: Path) -> Page:
    reader = _Reader()
    reader.feed(path.read_text(encoding="utf-8"))
    return reader.page


#: a start tag and its attributes, as the site's HTML writes them (Sphinx,
#: the theme and the stories' HTML quote every value with double quotes)
_START_TAG = re.compile(r"<([a-zA-Z][a-zA-Z0-9]*)((?:\s[^>]*)?)/?>")
_ATTRIBUTE = re.compile(r'([^\s="\'/]+)="([^"]*)"')
_COMMENT = re.compile(r"<!--.*?-->", re.S)


def _skim(path: Path) -> Page:
    """The page's ids, links and pictures, found by pattern: ten times
    quicker than :func:`_read` over the site's 45 MB, and the same on every
    page (``test_skimming_finds_what_reading_finds`` checks); tables and
    text are read in full where a test needs them (:func:`_page`)."""
    page = Page()
    html = _COMMENT.sub("", path.read_text(encoding="utf-8"))
    for tag in _START_TAG.finditer(html):
        values = {k: unescape(v) for k, v in _ATTRIBUTE.findall(tag.group(2))}
        if values.get("id"):
            page.ids.add(values["id"])
        name = tag.group(1).lower()
        if name == "a" and values.get("href"):
            page.links.append(values["href"])
        elif name == "img" and values.get("src"):
            page.images.append(values["src"])
    return page


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from sphinx.cmd.build import build_main

    out = tmp_path_factory.mktemp("site")
    if os.environ.get("LOVELETTER_DOCS_BUILD"):
        # working on the docs: walk a build you made with the same flags
        # (sphinx-build -W -n -b html docs DIR; LOVELETTER_DOCS_BUILD=DIR)
        return Path(os.environ["LOVELETTER_DOCS_BUILD"])
    log = io.StringIO()
    # Under make test's workers the other cores are busy with other tests:
    # a parallel build would only add its own overhead (about 20% more CPU)
    jobs = "1" if os.environ.get("PYTEST_XDIST_WORKER") else "auto"
    argv = [
        "-j",
        jobs,
        "-W",
        "-n",
        "--keep-going",
        "-q",
        "-b",
        "html",
        "-d",
        str(out / ".doctrees"),
    ]
    with redirect_stdout(log), redirect_stderr(log):
        status = build_main([*argv, str(DOCS), str(out / "html")])
    assert status == 0, f"the docs build failed or warned:\n{log.getvalue()}"
    return out / "html"


@pytest.fixture(scope="module")
def pages(site: Path) -> dict[str, SkimmedPage]:
    return {path.relative_to(site).as_posix(): SkimmedPage(path) for path in site.rglob("*.html")}


def test_skimming_finds_what_reading_finds(site: Path, pages: dict[str, SkimmedPage]) -> None:
    """The link and anchor checks rest on the skimmed pages: reading in full
    finds the same ids, links and pictures on the first and the largest
    page of every folder (each folder's pages come from one writer: a rules
    topic, a case folder, a module's API or source, the theme's indexes).
    Every page is compared when ``LOVELETTER_DOCS_BUILD`` names a build."""
    assert len(pages) > 300
    folders: dict[str, list[str]] = {}
    for name in sorted(pages):
        folders.setdefault(name.rpartition("/")[0], []).append(name)
    compared = {
        chosen
        for names in folders.values()
        for chosen in (names[0], max(names, key=lambda n: pages[n].path.stat().st_size))
    }
    if os.environ.get("LOVELETTER_DOCS_BUILD"):
        compared = set(pages)
    for name in sorted(compared):
        page, read = pages[name], _read(pages[name].path)
        assert (page.ids, page.links, page.images) == (read.ids, read.links, read.images), name
    assert {name.rpartition("/")[0] for name in compared} == set(folders)


def _page(pages: dict[str, SkimmedPage], name: str) -> SkimmedPage:
    assert name in pages, f"no page {name}"
    return pages[name]


def test_every_rule_id_is_an_anchor_on_its_topic_page(pages: dict[str, SkimmedPage]) -> None:
    for rule in SPEC.rules.values():
        page = _page(pages, f"rules/{rule.topic}.html")
        assert rule.id in page.ids, rule.id


def test_every_ruling_number_is_an_anchor_on_its_page(pages: dict[str, SkimmedPage]) -> None:
    for number in SPEC.rulings:
        assert f"ruling-{number}" in _page(pages, f"rulings/{number}.html").ids, number
    index = _page(pages, "rulings/index.html")
    for number in SPEC.rulings:
        assert any(link.startswith(f"{number}.html#ruling-{number}") for link in index.links)


def test_every_case_id_is_an_anchor_on_its_folder_page(pages: dict[str, SkimmedPage]) -> None:
    cases = catalog().cases
    assert len(cases) > 400
    for case in cases:
        ruleset, folder, _ = case.name.split("/")
        assert case.name in _page(pages, f"cases/{ruleset}/{folder}.html").ids, case.name


def _targets(page_name: str, href: str) -> tuple[str, str] | None:
    """The page and fragment an internal link points at, or None."""
    parts = urlsplit(href)
    if parts.scheme or parts.netloc or href.startswith(("mailto:", "javascript:")):
        return None
    base = page_name.rsplit("/", 1)[0] + "/" if "/" in page_name else ""
    path = unquote(parts.path)
    if not path:
        target = page_name
    else:
        segments: list[str] = []
        for segment in (base + path).split("/"):
            if segment == "..":
                if segments:
                    segments.pop()
            elif segment not in ("", "."):
                segments.append(segment)
        target = "/".join(segments)
        if path.endswith("/"):
            target += "/index.html"
    return target, unquote(parts.fragment)


def test_no_internal_link_is_broken(site: Path, pages: dict[str, SkimmedPage]) -> None:
    broken: list[str] = []
    checked = 0
    for name, page in pages.items():
        for href in page.links:
            found = _targets(name, href)
            if found is None:
                continue
            target, fragment = found
            checked += 1
            if not (site / target).exists():
                broken.append(f"{name}: {href} (no {target})")
            elif fragment and target.endswith(".html") and fragment not in _page(pages, target).ids:
                broken.append(f"{name}: {href} (no #{fragment} in {target})")
    assert checked > 5000
    assert not broken, "\n".join(broken[:40])


def test_every_edition_card_table_lists_every_card(pages: dict[str, SkimmedPage]) -> None:
    for edition, ruleset in RULESETS.items():
        page = _page(pages, f"editions/{edition}.html")
        assert page.tables, edition
        table = page.tables[0]
        header, rows = table[0], table[1:]
        assert header[:2] == ["Value", "Card"], header
        listed = [row[1] for row in rows]
        expected = sorted(card_name(card) for card in ruleset.kinds)
        assert sorted(listed) == expected, edition
        for row in rows:
            assert row[-1] and row[-1] != "—", row  # an effect in our words
        for row in rows:
            card = next(c for c in ruleset.kinds if card_name(c) == row[1])
            assert row[0] == str(ruleset.value(card))


def test_the_editions_page_starts_with_the_cards_of_every_deck(
    site: Path, pages: dict[str, SkimmedPage]
) -> None:
    page = _page(pages, "editions/index.html")
    cards = page.tables[0]
    assert cards[0][0] == "Card"
    # one column per deck: an edition, or an edition at some player counts
    decks = [(e, a, b, d) for e, r in RULESETS.items() for a, b, d in deck_ranges(r)]
    assert len(cards[0]) == 1 + len(decks)
    by_name = {row[0]: row[1:] for row in cards[1:]}
    for column, (edition, _, _, composition) in enumerate(decks):
        ruleset = RULESETS[edition]
        for card, copies in composition:
            cell = by_name[card_name(card)][column]
            assert cell == (f"{ruleset.value(card)} ×{copies}" if copies else "—"), cell
        assert by_name["Cards"][column] == str(sum(n for _, n in composition))
    # then the decks drawn side by side, before anything else of the page
    text = (site / "editions" / "index.html").read_text(encoding="utf-8")
    first_table = text.index("<table")
    picture = text.index("decks.svg")
    assert first_table < picture < text.index("<table", first_table + 1)
    assert any(src.endswith("_images/decks.svg") for src in page.images)
    assert (site / "_images" / "decks.svg").is_file()


def test_every_card_page_shows_the_card_s_face(site: Path, pages: dict[str, SkimmedPage]) -> None:
    cat = catalog()
    for card in SPEC.cards:
        topic = cat.card_topic(card)
        assert topic is not None, card
        page = _page(pages, f"rules/{topic}.html")
        faces = [src for src in page.images if src.endswith(f"_images/{topic}.svg")]
        assert len(faces) == 1, (topic, page.images)
        svg = ET.parse(site / "rules" / faces[0]).getroot()
        title = svg.find("{http://www.w3.org/2000/svg}title")
        assert title is not None and title.text == f"The {SPEC.cards[card].name} card"


def test_a_rule_page_folds_each_rule_s_cases_into_one_line(site: Path) -> None:
    """The rules first: a rule's cases are one line that opens their list,
    and the page is no longer a wall of case titles."""
    cat = catalog()
    html = (site / "rules" / "prince.html").read_text(encoding="utf-8")
    for rule in cat.rules_of("prince"):
        count = len(cat.cases_by_rule[rule.id])
        after = html[html.index(f'id="{rule.id}"') :]
        fold = after.index('<details class="case-list">')
        assert re.search(rf"<summary>\s*<p>{count} cases pin this rule</p>", after[fold:])
        # the rule's statement comes before its fold
        assert after.index("<p>") < fold
    # every case of the page is told once, inside a rule's fold
    assert html.count('<details class="case-story">') == len(
        {c.name for r in cat.rules_of("prince") for c in cat.cases_by_rule[r.id]}
    )


def _absolute_links(page_name: str, html: str) -> str:
    """``html`` with each link written from the site's root: the same link
    reads the same from any page."""

    def absolute(match: re.Match[str]) -> str:
        found = _targets(page_name, match.group(1))
        assert found is not None, match.group(1)
        return f'href="{found[0]}#{found[1]}"'

    return re.sub(r'href="([^"]*)"', absolute, html)


def _words(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_a_story_folded_away_from_its_home_tells_what_its_home_tells(site: Path) -> None:
    """The folds under the rules, the rulings and the edge cases are written
    as HTML, the story at its home as Markdown: a fold holds the words and
    the links of its home's story, and its summary is the case's title."""
    by_id = {f"case-{c.name.replace('/', '-')}": c for c in catalog().cases}
    homes: dict[str, str] = {}
    compared = 0
    folded = [*site.glob("rules/*.html"), *site.glob("rulings/*.html"), site / "edge-cases.html"]
    for page in folded:
        name = page.relative_to(site).as_posix()
        html = page.read_text(encoding="utf-8")
        for fold in re.findall(r'<details class="case-story">.*?</details>', html, re.S):
            summary, body = fold.split("</summary>\n")
            story, last = body.removesuffix("</details>").rsplit("<p>", 1)
            assert last.startswith("The case file and its checks: <a "), last
            href = re.search(r'href="([^"]*)"', last)
            assert href is not None
            found = _targets(name, href.group(1))
            assert found is not None
            home_page, fragment = found
            if home_page not in homes:
                homes[home_page] = (site / home_page).read_text(encoding="utf-8")
            home = homes[home_page]
            section = home[home.index(f'<section id="{fragment}">') :]
            told = section[section.index("<p><em>Setup</em></p>") :]
            told = told[: told.index('<details class="case-story">')]
            assert _words(story) == _words(told), (name, fragment)
            assert _absolute_links(name, story) == _absolute_links(home_page, told), fragment
            title = re.search(r"<h2>(.*?)<a class=\"headerlink\"", section)
            assert title is not None
            ruleset = edition_short(by_id[fragment].ruleset)
            assert _words(summary) == f"{ruleset} {_words(title.group(1))}", fragment
            compared += 1
    assert compared > 2000


def test_no_page_names_a_rulebook_by_its_file(site: Path) -> None:
    """Readers are told the edition's rulebook and the section, never the
    file the project keeps it in: not in a page, its source or the search."""
    shown = [
        path
        for path in site.rglob("*")
        if path.is_file()
        and path.suffix in (".html", ".txt", ".js", ".svg")
        and HASHED_NAME.search(path.read_text(encoding="utf-8", errors="replace"))
    ]
    assert not shown, shown[:10]


def test_the_front_page_says_how_to_install_play_and_what_the_editions_are(
    pages: dict[str, SkimmedPage],
) -> None:
    page = _page(pages, "index.html")
    text = " ".join("".join(page.text).split())
    assert "pip install loveletter-rules" in text
    assert "import" in text and "loveletter play" in text
    assert "loveletter play --help" in text
    for option in ("--ruleset", "--players", "--seat", "--seed", "--save", "--rounds", "--decks"):
        assert option in text, option
    for edition, ruleset in RULESETS.items():
        assert any(link.startswith(f"editions/{edition}.html") for link in page.links), edition
        assert f"{ruleset.min_players} to {ruleset.max_players} players" in text, edition


def test_the_comparison_has_a_column_per_edition_and_links_to_rules(
    pages: dict[str, SkimmedPage],
) -> None:
    page = _page(pages, "editions/index.html")
    comparison = next(table for table in page.tables if table[0][0] == "")
    assert comparison[0][1:] == [edition_short(e) for e in SPEC.editions]
    titles = {row[0] for row in comparison[1:]}
    for aspect in SPEC.comparison:
        assert aspect.title in titles
    rule_links = [link for link in page.links if link.startswith("../rules/")]
    assert len(rule_links) > 30


def test_the_site_and_the_terminal_tell_the_same_rules(pages: dict[str, SkimmedPage]) -> None:
    from loveletter.reference.document import Paragraph, text_line
    from loveletter.reference.pages import topic_page

    def plain(text: str) -> str:
        # Sphinx sets straight quotes as typographic ones
        return " ".join(text.replace("\u2019", "'").replace("\u2018", "'").split())

    for topic in ("prince", "bishop", "round"):
        html = plain("".join(_page(pages, f"rules/{topic}.html").text))
        for block in topic_page(catalog(), topic, stories=False).blocks:
            if isinstance(block, Paragraph):
                assert plain(text_line(block.text)) in html


def test_every_cited_function_is_in_the_api_reference(pages: dict[str, SkimmedPage]) -> None:
    ids = set().union(*(p.ids for n, p in pages.items() if n.startswith("api/")))
    for functions in catalog().code_by_rule.values():
        for name in functions:
            assert name in ids, name


def test_each_case_home_shows_its_yaml(site: Path) -> None:
    case = catalog().cases_by_rule["prince.empty-deck-draws-set-aside"][0]
    ruleset, folder, _ = case.name.split("/")
    html = (site / "cases" / ruleset / f"{folder}.html").read_text(encoding="utf-8")
    home = html[html.index(f'id="{case.name}"') :]
    text = re.sub(r"<[^>]+>", "", home)  # the YAML is highlighted: tags between words
    assert f"conformance/cases/{case.name}.yaml" in text
    assert f"id: {case.id}" in text


def _navigation(site: Path, name: str) -> set[str]:
    """The pages the sidebar's navigation of page ``name`` links, as paths
    from the site's root."""
    text = (site / name).read_text(encoding="utf-8")
    found = re.search(r'<div class="sidebar-tree">(.*?)</div>', text, re.S)
    assert found is not None, f"{name} has no navigation"
    base = Path(name).parent
    links = re.findall(r'href="([^"#]*)', found.group(1))
    return {os.path.normpath(base / unquote(link)) for link in links if link}


def test_the_navigation_lists_every_page_and_no_section(site: Path) -> None:
    """The sidebar (built with docs/_ext/titles_navigation.py's cut tables of
    contents) links every page of the site, from the front page and from
    pages deep in the tree, and no page's sections: titles only."""
    skipped = {"genindex.html", "search.html", "py-modindex.html"}
    every = {
        path.relative_to(site).as_posix()
        for path in site.rglob("*.html")
        if not path.relative_to(site).as_posix().startswith("_modules/")
        and path.name not in skipped
    }
    every.discard("index.html")  # the sidebar's brand links it, not the tree
    for name in ("index.html", "rules/prince.html", "cases/premium/round.html"):
        listed = _navigation(site, name)
        # the page itself is linked as "#" (its own top)
        assert listed == every - {"index.html", name}, (name, sorted(every ^ listed)[:10])
    # a case page has hundreds of sections: none is in the navigation
    text = (site / "rules/prince.html").read_text(encoding="utf-8")
    tree = re.search(r'<div class="sidebar-tree">(.*?)</div>', text, re.S)
    assert tree is not None
    sections = re.findall(r'<a class="reference internal" href="[^"]*#[^"]+"', tree.group(1))
    assert not sections, sections[:3]


def test_every_page_s_navigation_marks_the_page_and_the_branch_it_is_on(site: Path) -> None:
    """docs/_ext/titles_navigation.py resolves the navigation once per
    folder and marks each page's own link and branch in it, as Sphinx
    marks them: on every page, its link in the tree is "#" and current,
    and the items and lists around it, and nothing else, are current."""
    listed = _navigation(site, "index.html")
    checked = 0
    for path in site.rglob("*.html"):
        name = path.relative_to(site).as_posix()
        text = path.read_text(encoding="utf-8")
        found = re.search(r'<div class="sidebar-tree">(.*?)</div>', text, re.S)
        assert found is not None, name
        tree = found.group(1)
        here = [m.start() for m in re.finditer(r'<a class="current reference internal"', tree)]
        current = {m.start() for m in re.finditer(r'<(ul|li) class="[^"]*\bcurrent\b[^"]*"', tree)}
        if name not in listed:
            assert not here and not current, name
            continue
        assert len(here) == 1, name
        assert tree[here[0] :].startswith('<a class="current reference internal" href="#">')
        around: list[int] = []
        for tag in re.finditer(r"<(/?)(ul|li)\b", tree[: here[0]]):
            if tag.group(1):
                around.pop()
            else:
                around.append(tag.start())
        assert current == set(around), name
        checked += 1
    assert checked == len(listed) > 200
