"""The pictures of the rules pages, drawn as SVG from the spec: a face for
each card (its name, its value and copies in each edition, what it does)
and the decks of every edition side by side.

Like the pages, every picture is a function of the catalog: nothing is
drawn by hand for a particular card, so a picture cannot drift from
``spec/cards.yaml`` and ``spec/editions.yaml``. The site writes them when it
is built (``docs/_ext/loveletter_pages.py``); each is a light card with dark
text, which reads the same in the site's light and dark themes (a picture
shown with ``<img>`` cannot follow the page's colours).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from xml.sax.saxutils import escape, quoteattr

import attrs

from loveletter.cards import Card
from loveletter.narrative import card_name
from loveletter.reference.catalog import Catalog, deck_names, deck_ranges, edition_short
from loveletter.reference.typesetting import Font, number, svg_text, text_width, wrap
from loveletter.rulesets import Composition, Ruleset

#: where the pictures go on the site, as paths of the documentation's source
CARD_FACES = "rules/cards"
DECKS = "editions/decks.svg"

_INK = "#1f2328"
_MUTED = "#4a4f57"  # still dark enough to read on the cards' cream
_PAPER = "#fdf8ee"
_EDGE = "#9c6b4e"
_RULE = "#dcc7a8"
_SHADE = "#f4ead8"
#: a card kind of the first edition's deck, and one that later editions add
_BASE_FILL, _BASE_STROKE = "#b8475a", "#6e2531"
_ADDED_FILL, _ADDED_STROKE = "#3f8791", "#24535a"


@attrs.frozen
class Picture:
    """An SVG document and its path in the documentation's source."""

    path: str
    svg: str


def card_face_path(topic: str) -> str:
    """Where a card's face goes: ``rules/cards/prince.svg``."""
    return f"{CARD_FACES}/{topic}.svg"


def _document(
    width: float, height: float, title: str, description: str, body: Sequence[str]
) -> str:
    size = f"{number(width)} {number(height)}"
    head = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size}"'
        f' width="{number(width)}" height="{number(height)}" role="img"'
        f" aria-label={quoteattr(title)}>",
        f"<title>{escape(title)}</title>",
        f"<desc>{escape(description)}</desc>",
    ]
    return "\n".join([*head, *body, "</svg>"]) + "\n"


def _rect(x: float, y: float, width: float, height: float, **attributes: str | float) -> str:
    extra = "".join(
        f' {key.replace("_", "-")}="{number(value) if isinstance(value, float | int) else value}"'
        for key, value in attributes.items()
    )
    return (
        f'<rect x="{number(x)}" y="{number(y)}" width="{number(width)}"'
        f' height="{number(height)}"{extra}/>'
    )


def _line(x1: float, y: float, x2: float) -> str:
    return (
        f'<line x1="{number(x1)}" y1="{number(y)}" x2="{number(x2)}" y2="{number(y)}"'
        f' stroke="{_RULE}" stroke-width="1"/>'
    )


# ------------------------------------------------------------------ the cards


_NAME = Font(22, 28, bold=True)
_SPANISH = Font(13, 18, colour=_MUTED, italic=True)
_VALUE = Font(24, 28, bold=True)
_VALUES = Font(15, 18, bold=True)
_HEAD = Font(11, 16, bold=True, colour=_MUTED)
_CELL = Font(12.5, 17)
_LABEL = Font(11.5, 16, bold=True, colour="#5c2a33")
_EFFECT = Font(12.5, 17)

_FACE_WIDTH = 320.0
_PAD = 18.0
_BADGE = 26.0  # the radius of the value's disc


def copies_text(ruleset: Ruleset, card: Card) -> str:
    """A card's copies in an edition, as short as they can be told:
    ``×2``; ``×1 (5–8 players)``; ``×5 (3–4 players), ×8 (5–8 players) per
    deck`` where the count depends on the deck."""
    counts = [(a, b, dict(deck).get(card, 0)) for a, b, deck in deck_ranges(ruleset)]
    per = " per deck" if ruleset.max_decks > 1 else ""
    if len({n for _, _, n in counts}) == 1:
        return f"×{counts[0][2]}{per}"
    parts = [f"×{n} ({a}–{b} players)" for a, b, n in counts if n]
    return ", ".join(parts) + per


def _editions_of(cat: Catalog, card: Card) -> list[str]:
    return [e for e in cat.spec.editions if card in cat.ruleset(e).kinds]


def _values_text(cat: Catalog, card: Card, editions: Sequence[str]) -> str:
    """The value on the card's corner: ``5``, or ``9/8`` where editions
    number it differently (in the order of the editions)."""
    values: list[str] = []
    for edition in editions:
        value = str(cat.ruleset(edition).value(card))
        if value not in values:
            values.append(value)
    return "/".join(values)


def card_face(cat: Catalog, card: str) -> str:
    """The SVG face of ``card`` (its JSON name: ``DowagerQueen``)."""
    kind = Card.parse(card)
    info = cat.spec.cards[card]
    editions = _editions_of(cat, kind)
    name = card_name(kind)
    body: list[str] = []

    # the corner: the value, and the name beside it
    values = _values_text(cat, kind, editions)
    value_font = _VALUE if len(values) <= 2 else _VALUES
    centre = _PAD + _BADGE
    body.append(
        f'<circle cx="{number(centre)}" cy="{number(centre)}" r="{number(_BADGE)}"'
        f' fill="#f3e0bf" stroke="{_EDGE}" stroke-width="2"/>'
    )
    body.append(
        svg_text(centre, centre + value_font.size * 0.36, values, value_font, "middle", "value")
    )
    left = centre + _BADGE + 14
    room = _FACE_WIDTH - _PAD - left
    name_font = _NAME
    while text_width(name, name_font) > room:
        name_font = dataclasses.replace(name_font, size=name_font.size - 1)
    if info.spanish:
        body.append(svg_text(left, centre - 2, name, name_font, css_class="name"))
        body.append(svg_text(left, centre + 18, info.spanish, _SPANISH, css_class="spanish"))
    else:
        body.append(
            svg_text(left, centre + name_font.size * 0.36, name, name_font, css_class="name")
        )
    y = _PAD + 2 * _BADGE + 14
    body.append(_line(_PAD, y, _FACE_WIDTH - _PAD))

    # value and copies, edition by edition
    column_value = _PAD + max(text_width(edition_short(e), _CELL) for e in editions) + 14
    column_copies = column_value + text_width("Value", _HEAD) + 14
    y += 20
    for x, head in ((_PAD, "Edition"), (column_value, "Value"), (column_copies, "Copies")):
        body.append(svg_text(x, y, head, _HEAD, css_class="head"))
    y += 6
    rows: list[str] = []
    for index, edition in enumerate(editions):
        ruleset = cat.ruleset(edition)
        lines = wrap(copies_text(ruleset, kind), _CELL, _FACE_WIDTH - _PAD - column_copies)
        height = len(lines) * _CELL.line + 4
        if index % 2 == 0:
            body.append(_rect(_PAD - 6, y, _FACE_WIDTH - 2 * _PAD + 12, height, fill=_SHADE))
        baseline = y + 2 + _CELL.line * 0.5 + _CELL.size * 0.36
        rows.append(
            f'<g class="edition" data-edition="{edition}" data-value="{ruleset.value(kind)}">'
        )
        rows.append(svg_text(_PAD, baseline, edition_short(edition), _CELL))
        rows.append(svg_text(column_value, baseline, str(ruleset.value(kind)), _CELL))
        for offset, text in enumerate(lines):
            rows.append(svg_text(column_copies, baseline + offset * _CELL.line, text, _CELL))
        rows.append("</g>")
        y += height
    body += rows
    y += 10
    body.append(_line(_PAD, y, _FACE_WIDTH - _PAD))
    y += 8

    # what it does, in our words; labelled by edition where editions differ
    effects = [(effect, [e for e in effect.editions if e in editions]) for effect in info.effects]
    effects = [(effect, group) for effect, group in effects if group]
    for effect, group in effects:
        if len(effects) > 1:
            y += _LABEL.line
            label = " · ".join(edition_short(e) for e in group)
            body.append(svg_text(_PAD, y - 4, label, _LABEL, css_class="effect-label"))
        for text in wrap(" ".join(effect.summary.split()), _EFFECT, _FACE_WIDTH - 2 * _PAD):
            y += _EFFECT.line
            body.append(svg_text(_PAD, y - 4, text, _EFFECT, css_class="effect"))
        y += 6
    height = y + _PAD - 6

    frame = [
        _rect(1, 1, _FACE_WIDTH - 2, height - 2, rx=16, fill=_PAPER, stroke=_EDGE, stroke_width=2),
        _rect(7, 7, _FACE_WIDTH - 14, height - 14, rx=11, fill="none", stroke=_RULE),
    ]
    return _document(
        _FACE_WIDTH,
        height,
        f"The {name} card",
        _face_description(cat, kind, editions),
        frame + body,
    )


def _face_description(cat: Catalog, card: Card, editions: Sequence[str]) -> str:
    info = cat.spec.cards[str(card)]
    spanish = f" (in Spanish, {info.spanish})" if info.spanish else ""
    rows = "; ".join(
        f"{edition_short(e)}: value {cat.ruleset(e).value(card)},"
        f" {copies_text(cat.ruleset(e), card)}"
        for e in editions
    )
    effects = " ".join(
        f"{', '.join(edition_short(e) for e in effect.editions if e in editions)}:"
        f" {' '.join(effect.summary.split())}"
        for effect in info.effects
        if any(e in editions for e in effect.editions)
    )
    return f"{card_name(card)}{spanish}. {rows}. {effects}"


# ------------------------------------------------------------------ the decks


@attrs.frozen
class Deck:
    """One column of the decks picture: an edition's deck for a range of
    player counts."""

    edition: str
    least: int
    most: int
    composition: Composition
    #: what the edition's rules call it (online's "Extended"), if anything
    name: str | None

    @property
    def size(self) -> int:
        return sum(n for _, n in self.composition)

    def copies(self, card: Card) -> int:
        return dict(self.composition).get(card, 0)


def decks(cat: Catalog) -> list[Deck]:
    """Every edition's decks, in the order of the editions."""
    out: list[Deck] = []
    for edition in cat.spec.editions:
        ruleset = cat.ruleset(edition)
        names = deck_names(ruleset)
        for index, (least, most, composition) in enumerate(deck_ranges(ruleset)):
            out.append(Deck(edition, least, most, composition, names[index] if names else None))
    return out


_COLUMN_HEAD = Font(12.5, 17, bold=True)
_COLUMN_NOTE = Font(11, 15, colour=_MUTED)
_ROW_NAME = Font(12.5, 17)
_ROW_VALUE = Font(11, 15, colour=_MUTED)
_TOTAL = Font(12.5, 17, bold=True)
_ROW = 22.0
_CARD_W, _CARD_H, _CARD_GAP = 6.0, 14.0, 2.0


def deck_kinds(cat: Catalog, columns: Iterable[Deck]) -> list[Card]:
    """The kinds some deck holds, in the card table's order (spec/cards.yaml)."""
    held = {card for deck in columns for card, n in deck.composition if n}
    ordered = [Card.parse(c) for c in cat.spec.cards if Card.parse(c) in held]
    return ordered + sorted(held - set(ordered))


def _column_head(cat: Catalog, deck: Deck) -> list[str]:
    """A column's heading: the edition, the player counts, the deck's own
    name where the rules give one, the cards."""
    per = " per deck" if cat.ruleset(deck.edition).max_decks > 1 else " cards"
    named = [f"{deck.name} deck"] if deck.name else []
    return [
        edition_short(deck.edition),
        f"{deck.least}–{deck.most} players",
        *named,
        f"{deck.size}{per}",
    ]


def deck_picture(cat: Catalog) -> str:
    """Every edition's decks side by side: one column per deck, one row per
    card kind, each copy a small card (its value beside them)."""
    columns = decks(cat)
    kinds = deck_kinds(cat, columns)
    base = set(cat.ruleset(cat.spec.editions[0]).kinds)
    most_copies = max(deck.copies(card) for deck in columns for card in kinds)
    stack = most_copies * (_CARD_W + _CARD_GAP)
    name_width = max(text_width(card_name(card), _ROW_NAME) for card in kinds) + 18
    value_width = max(text_width(str(d), _ROW_VALUE) for d in range(10)) + 5
    widths = [
        max(
            text_width(head, _COLUMN_HEAD),
            *(text_width(note, _COLUMN_NOTE) for note in notes),
            value_width + stack,
        )
        + 12
        for head, *notes in (_column_head(cat, deck) for deck in columns)
    ]
    lefts = [_PAD + name_width + sum(widths[:i]) for i in range(len(columns))]
    width = lefts[-1] + widths[-1] + _PAD
    body: list[str] = []

    y = _PAD + _COLUMN_HEAD.size
    for deck, left in zip(columns, lefts, strict=True):
        head, *notes = _column_head(cat, deck)
        body.append(svg_text(left, y, head, _COLUMN_HEAD, css_class="deck"))
        for offset, note in enumerate(notes, start=1):
            body.append(svg_text(left, y + offset * _COLUMN_NOTE.line, note, _COLUMN_NOTE))
    y += max(len(_column_head(cat, deck)) - 1 for deck in columns) * _COLUMN_NOTE.line + 12

    for row, card in enumerate(kinds):
        if row % 2 == 0:
            body.append(_rect(_PAD - 6, y, width - 2 * _PAD + 12, _ROW, fill=_SHADE))
        baseline = y + _ROW / 2 + _ROW_NAME.size * 0.36
        body.append(svg_text(_PAD, baseline, card_name(card), _ROW_NAME, css_class="card"))
        fill, stroke = (_BASE_FILL, _BASE_STROKE) if card in base else (_ADDED_FILL, _ADDED_STROKE)
        for deck, left in zip(columns, lefts, strict=True):
            copies = deck.copies(card)
            if not copies:
                continue
            value = cat.ruleset(deck.edition).value(card)
            label = (
                f"{card_name(card)} in {edition_short(deck.edition)}, {deck.least}–{deck.most}"
                f" players: {copies} {'copy' if copies == 1 else 'copies'}, value {value}"
            )
            body.append(
                f'<g class="copies" data-card="{card}" data-edition="{deck.edition}"'
                f' data-players="{deck.least}-{deck.most}" data-copies="{copies}">'
            )
            body.append(f"<title>{escape(label)}</title>")
            body.append(svg_text(left, baseline, str(value), _ROW_VALUE, css_class="value"))
            x = left + value_width
            for index in range(copies):
                body.append(
                    _rect(
                        x + index * (_CARD_W + _CARD_GAP),
                        y + (_ROW - _CARD_H) / 2,
                        _CARD_W,
                        _CARD_H,
                        rx=1.5,
                        fill=fill,
                        stroke=stroke,
                    )
                )
            body.append("</g>")
        y += _ROW
    body.append(_line(_PAD, y + 4, width - _PAD))

    y += 4 + _TOTAL.line
    body.append(svg_text(_PAD, y, "Cards", _TOTAL))
    for deck, left in zip(columns, lefts, strict=True):
        body.append(svg_text(left, y, str(deck.size), _TOTAL, css_class="total"))
    y += 16

    # the key: which colour is which kind of card
    key = [
        (_BASE_FILL, _BASE_STROKE, f"a kind of the {edition_short(cat.spec.editions[0])} deck"),
        (_ADDED_FILL, _ADDED_STROKE, "a kind added later"),
    ]
    x = _PAD
    for fill, stroke, text in key:
        body.append(_rect(x, y, _CARD_W, _CARD_H, rx=1.5, fill=fill, stroke=stroke))
        body.append(svg_text(x + _CARD_W + 6, y + 11, text, _COLUMN_NOTE))
        x += _CARD_W + 6 + text_width(text, _COLUMN_NOTE) + 22
    body.append(svg_text(x, y + 11, "beside each stack: the card's value there", _COLUMN_NOTE))
    y += _CARD_H + _PAD

    frame = [_rect(0.5, 0.5, width - 1, y - 1, rx=12, fill="#ffffff", stroke="#d0d7de")]
    title = "The decks of every edition side by side"
    description = " ".join(
        f"{edition_short(d.edition)}, {d.least}–{d.most} players"
        + (f" ({d.name})" if d.name else "")
        + f": {d.size} cards, "
        + ", ".join(f"{d.copies(card)} {card_name(card)}" for card in kinds if d.copies(card))
        + "."
        for d in columns
    )
    return _document(width, y, title, description, frame + body)


# ------------------------------------------------------------------ the site


def site_pictures(cat: Catalog) -> list[Picture]:
    """Every picture the rules pages show."""
    pictures: list[Picture] = []
    for card in cat.spec.cards:
        topic = cat.card_topic(card)
        if topic is not None:
            pictures.append(Picture(card_face_path(topic), card_face(cat, card)))
    pictures.append(Picture(DECKS, deck_picture(cat)))
    return pictures
