"""The pictures of the rules pages (loveletter/reference/pictures.py): each
card's face names the card with its value and copies in every edition that
has it and says what it does in the spec's words; the decks picture counts
exactly the spec's decks; every picture is an accessible SVG whose text
fits it and reads on its light background."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from loveletter.cards import Card
from loveletter.narrative import card_name
from loveletter.reference.catalog import catalog, deck_ranges, edition_short
from loveletter.reference.pictures import (
    DECKS,
    card_face,
    card_face_path,
    copies_text,
    deck_picture,
    site_pictures,
)
from loveletter.reference.typesetting import Font, text_width

NS = "{http://www.w3.org/2000/svg}"
CARDS = list(catalog().spec.cards)


def _parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg.encode("utf-8"))
    assert root.tag == f"{NS}svg"
    return root


def _texts(element: ET.Element, css_class: str | None = None) -> list[str]:
    return [
        t.text or ""
        for t in element.iter(f"{NS}text")
        if css_class is None or t.get("class") == css_class
    ]


def _luminance(colour: str) -> float:
    red, green, blue = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


@pytest.mark.parametrize("card", CARDS)
def test_a_card_face_names_the_card_and_its_value_and_copies_in_each_edition(card: str) -> None:
    cat = catalog()
    kind = Card.parse(card)
    root = _parse(card_face(cat, card))
    name = card_name(kind)
    assert _texts(root, "name") == [name]
    title = root.find(f"{NS}title")
    assert title is not None and title.text == f"The {name} card"
    editions = [e for e in cat.spec.editions if kind in cat.ruleset(e).kinds]
    rows = [g for g in root.iter(f"{NS}g") if g.get("class") == "edition"]
    assert [g.get("data-edition") for g in rows] == editions
    for row, edition in zip(rows, editions, strict=True):
        ruleset = cat.ruleset(edition)
        texts = _texts(row)
        assert texts[0] == edition_short(edition)
        assert texts[1] == str(ruleset.value(kind)) == row.get("data-value")
        assert " ".join(texts[2:]) == copies_text(ruleset, kind)
    # the corner shows every value the card has, in the order of the editions
    corner = _texts(root, "value")[0].split("/")
    assert corner == list(dict.fromkeys(str(cat.ruleset(e).value(kind)) for e in editions))
    info = cat.spec.cards[card]
    if info.spanish:
        assert _texts(root, "spanish") == [info.spanish]


@pytest.mark.parametrize("card", CARDS)
def test_a_card_face_says_what_the_card_does_in_the_spec_s_words(card: str) -> None:
    cat = catalog()
    root = _parse(card_face(cat, card))
    printed = " ".join(_texts(root, "effect"))
    effects = cat.spec.cards[card].effects
    assert printed == " ".join(" ".join(e.summary.split()) for e in effects)
    labels = _texts(root, "effect-label")
    if len(effects) > 1:  # each effect says which editions it is of
        assert labels == [" · ".join(edition_short(e) for e in x.editions) for x in effects]
    else:
        assert labels == []


def test_copies_are_told_per_player_count_only_where_they_differ() -> None:
    cat = catalog()
    premium, online = cat.ruleset("premium"), cat.ruleset("online")
    assert copies_text(cat.ruleset("2019"), Card.parse("Guard")) == "×6"
    assert copies_text(premium, Card.parse("Guard")) == "×5 (2–4 players), ×8 (5–8 players)"
    assert copies_text(premium, Card.parse("Bishop")) == "×1 (5–8 players)"
    assert copies_text(online, Card.parse("Prince")) == "×2 per deck"


def _deck_counts(root: ET.Element) -> dict[tuple[str, str, str], int]:
    counts: dict[tuple[str, str, str], int] = {}
    for group in root.iter(f"{NS}g"):
        if group.get("class") != "copies":
            continue
        key = (
            group.get("data-edition", ""),
            group.get("data-players", ""),
            group.get("data-card", ""),
        )
        drawn = len(group.findall(f"{NS}rect"))
        assert str(drawn) == group.get("data-copies"), key  # one small card per copy
        counts[key] = drawn
    return counts


def test_the_decks_picture_counts_every_deck_of_the_spec() -> None:
    cat = catalog()
    root = _parse(deck_picture(cat))
    counts = _deck_counts(root)
    expected: dict[tuple[str, str, str], int] = {}
    sizes: list[str] = []
    for edition in cat.spec.editions:
        for least, most, composition in deck_ranges(cat.ruleset(edition)):
            for kind, n in composition:
                if n:
                    expected[(edition, f"{least}-{most}", str(kind))] = n
            sizes.append(str(sum(n for _, n in composition)))
    assert counts == expected
    assert _texts(root, "total") == sizes
    # every edition heads its columns, in the order of the editions
    heads = _texts(root, "deck")
    assert list(dict.fromkeys(heads)) == [edition_short(e) for e in cat.spec.editions]
    assert _texts(root, "card") == [card_name(Card.parse(c)) for c in CARDS]


def test_the_decks_picture_fails_its_test_when_a_count_is_wrong() -> None:
    """The counting above sees a missing copy (it is not vacuous)."""
    svg = deck_picture(catalog())
    guard = svg.index('data-card="Guard"')
    start = svg.index("<rect", guard)
    end = svg.index("/>", start) + 2
    with pytest.raises(AssertionError):
        _deck_counts(_parse(svg[:start] + svg[end:]))


def _pictures() -> list[tuple[str, str]]:
    return [(p.path, p.svg) for p in site_pictures(catalog())]


@pytest.mark.parametrize(("path", "svg"), _pictures(), ids=[p for p, _ in _pictures()])
def test_every_picture_is_accessible_sized_and_legible(path: str, svg: str) -> None:
    root = _parse(svg)
    assert root.get("role") == "img" and root.get("aria-label")
    title, desc = root.find(f"{NS}title"), root.find(f"{NS}desc")
    assert title is not None and title.text and desc is not None and desc.text
    view_box = [float(v) for v in root.get("viewBox", "").split()]
    width, height = view_box[2], view_box[3]
    assert (float(root.get("width", "0")), float(root.get("height", "0"))) == (width, height)
    assert len(svg) < 60_000  # small: it is a page's picture, not a page
    for text in root.iter(f"{NS}text"):
        # dark text on the picture's light paper, whatever the page's theme
        assert _luminance(text.get("fill", "#ffffff")) < 0.45, text.text
        font = Font(float(text.get("font-size", "0")), 0, bold=text.get("font-weight") == "bold")
        x = float(text.get("x", "0"))
        drawn = text_width(text.text or "", font)
        left = x - drawn / 2 if text.get("text-anchor") == "middle" else x
        assert left >= 0 and left + drawn <= width, (path, text.text)
        assert 0 < float(text.get("y", "0")) <= height, (path, text.text)


def test_every_card_topic_has_a_face_and_the_decks_have_their_picture() -> None:
    cat = catalog()
    paths = {p for p, _ in _pictures()}
    for card in CARDS:
        topic = cat.card_topic(card)
        assert topic is not None
        assert card_face_path(topic) in paths
    assert DECKS in paths
    assert len(paths) == len(CARDS) + 1


def test_the_site_writes_the_pictures_and_drops_stale_ones(tmp_path: Path) -> None:
    import importlib.util
    import sys

    extension = Path(__file__).resolve().parent.parent / "docs" / "_ext" / "loveletter_pages.py"
    spec = importlib.util.spec_from_file_location("docs_ext_loveletter_pages", extension)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    stale = tmp_path / "rules" / "cards" / "withdrawn-card.svg"
    stale.parent.mkdir(parents=True)
    stale.write_text("<svg/>", encoding="utf-8")
    written = module.write_pages(tmp_path)
    assert tmp_path / card_face_path("prince") in written
    assert (tmp_path / DECKS).read_text(encoding="utf-8") == deck_picture(catalog())
    assert not stale.exists()
