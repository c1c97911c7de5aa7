"""Sphinx extension: the site's diagrams, drawn as SVG with no external tool.

Each diagram is a small Python description below (boxes of text, arrows
between box sides, dashed groups); on ``builder-inited`` :func:`generate`
lays them out and writes ``docs/diagrams/<name>``, touching a file only when
its content changed so that Sphinx does not rebuild pages for nothing.

Nothing here measures text with a font library: widths come from the
advance widths of DejaVu Sans (the widest of the usual sans-serif fonts)
tabulated in :mod:`loveletter.reference.typesetting`, so a box sized for it
also holds the text in Helvetica or Arial. Every diagram is a white card
with dark text, which reads the same in Furo's light and dark themes (an SVG
shown with ``<img>`` cannot follow the page's colours).

The showdown diagram must agree with ``spec/`` and ``loveletter/engine.py``
(``_end_round``, ``_showdown``, ``_award_step``); its boxes cite the rule IDs
and rulings they draw, and ``tests/test_docs_diagrams.py`` checks that those
exist.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Literal
from xml.sax.saxutils import escape, quoteattr

from loveletter.reference.typesetting import MONO, SANS, Font, text_width, wrap

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.typing import ExtensionMetadata

Style = Literal["title", "code", "body", "note"]
Side = Literal["top", "bottom", "left", "right"]
Align = Literal["middle", "start"]

# --------------------------------------------------------------------------
# text metrics

# The metrics live in the package, shared with the card pictures of the
# rules pages: a box sized here holds the text in every usual sans-serif.
FONTS: dict[str, Font] = {
    "title": Font(15, 21, bold=True),
    "code": Font(13, 19, mono=True),
    "body": Font(13, 18),
    "note": Font(12, 16, colour="#424a53"),
    "cite": Font(11, 15, mono=True, colour="#57606a"),
    "label": Font(12, 16, colour="#424a53"),
}


# --------------------------------------------------------------------------
# descriptions


@dataclass(frozen=True)
class Text:
    """One paragraph of a box; ``body`` and ``note`` paragraphs wrap to the
    box's width, ``title`` and ``code`` ones never do."""

    text: str
    style: Style = "body"


def title(text: str) -> Text:
    return Text(text, "title")


def code(text: str) -> Text:
    return Text(text, "code")


def body(text: str) -> Text:
    return Text(text, "body")


def note(text: str) -> Text:
    return Text(text, "note")


@dataclass(frozen=True)
class Box:
    """A rounded box. ``y`` is a number, or ``(keys, gap)``: ``gap`` below
    the lowest bottom of the boxes ``keys``. Boxes sharing a ``row`` get the
    height of the tallest, so a row lines up. ``rules`` and ``rulings`` are
    printed small at the bottom: what the box draws, in the spec's words."""

    key: str
    x: float
    y: float | tuple[tuple[str, ...], float]
    width: float
    lines: tuple[Text, ...]
    kind: str = "step"
    align: Align = "middle"
    row: str | None = None
    rules: tuple[str, ...] = ()
    rulings: tuple[int, ...] = ()


@dataclass(frozen=True)
class Arrow:
    """An arrow from a side of one box to a side of another, drawn with
    right angles. ``source_at``/``target_at`` say where along the side (0 to
    1); left out, an end lines up with the other one when it can, so that
    the arrow is straight. A route between two facing sides bends once, at
    ``bend`` (an x for left/right sides, a y for top/bottom ones; halfway
    when not given). ``label_at`` picks the segment the label sits by (by
    index; the longest when not given), ``label_left`` puts it on the left
    of a vertical segment and ``label_shift`` moves it."""

    source: str
    target: str
    source_side: Side = "bottom"
    target_side: Side = "top"
    label: str = ""
    dashed: bool = False
    source_at: float | None = None
    target_at: float | None = None
    bend: float | None = None
    label_at: int | None = None
    label_left: bool = False
    label_shift: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True)
class Group:
    """A dashed frame around some boxes, with a label above its top edge
    (``label_x``: where the label starts, as a fraction of the frame's
    width)."""

    keys: tuple[str, ...]
    label: tuple[Text, ...]
    pad: float = 16
    label_x: float = 0.0


@dataclass(frozen=True)
class Diagram:
    name: str
    title: str
    description: str
    boxes: tuple[Box, ...]
    arrows: tuple[Arrow, ...] = ()
    groups: tuple[Group, ...] = ()


# --------------------------------------------------------------------------
# layout

PAD_X = 12
PAD_Y = 10
GAP_BEFORE_CITE = 4
MARGIN = 20

# kind -> (fill, stroke)
PALETTE: dict[str, tuple[str, str]] = {
    "step": ("#f6f8fa", "#57606a"),
    "input": ("#f6f8fa", "#57606a"),
    "function": ("#ddf4ff", "#0969da"),
    "data": ("#dafbe1", "#1a7f37"),
    "chance": ("#fff8c5", "#9a6700"),
    "error": ("#ffebe9", "#cf222e"),
    "question": ("#fff8c5", "#9a6700"),
    "award": ("#fbefff", "#8250df"),
    "win": ("#dafbe1", "#1a7f37"),
}


@dataclass(frozen=True)
class Line:
    text: str
    font: Font
    style: str


@dataclass(frozen=True)
class Placed:
    box: Box
    x: float
    y: float
    width: float
    height: float
    lines: tuple[Line, ...]

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def bottom(self) -> float:
        return self.y + self.height

    def anchor(self, side: Side, at: float) -> tuple[float, float]:
        if side == "top":
            return (self.x + self.width * at, self.y)
        if side == "bottom":
            return (self.x + self.width * at, self.bottom)
        if side == "left":
            return (self.x, self.y + self.height * at)
        return (self.right, self.y + self.height * at)


def cite_text(rules: Sequence[str], rulings: Sequence[int]) -> list[str]:
    """The citation tokens of a box: each rule ID, then ``ruling N`` or
    ``rulings N, M`` (one token, so it is never split across lines)."""
    tokens = list(rules)
    if rulings:
        numbers = ", ".join(str(n) for n in rulings)
        tokens.append(f"ruling{'s' if len(rulings) > 1 else ''} {numbers}")
    return tokens


def _lines(box: Box, inner: float) -> list[Line]:
    lines: list[Line] = []
    for paragraph in box.lines:
        font = FONTS[paragraph.style]
        if paragraph.style in ("body", "note"):
            pieces = wrap(paragraph.text, font, inner)
        else:
            pieces = [paragraph.text]
        lines.extend(Line(piece, font, paragraph.style) for piece in pieces)
    tokens = cite_text(box.rules, box.rulings)
    if tokens:
        cite = FONTS["cite"]
        joined = " · ".join(tokens)
        lines.extend(Line(piece, cite, "cite") for piece in wrap(joined, cite, inner, " · "))
    return lines


def _content_height(lines: Sequence[Line]) -> float:
    height = sum(line.font.line for line in lines)
    if any(line.style == "cite" for line in lines) and any(line.style != "cite" for line in lines):
        height += GAP_BEFORE_CITE
    return height


def _place(diagram: Diagram) -> dict[str, Placed]:
    """Every box with its position, size and wrapped lines. A line too wide
    for its box (a title, code, or one long word) is an error, not a
    silent overflow."""
    natural: dict[str, tuple[list[Line], float]] = {}
    for box in diagram.boxes:
        inner = box.width - 2 * PAD_X
        lines = _lines(box, inner)
        for line in lines:
            if text_width(line.text, line.font) > inner + 0.01:
                raise ValueError(
                    f"{diagram.name}: {line.text!r} is wider than box {box.key!r}"
                    f" ({text_width(line.text, line.font):.0f} > {inner:.0f})"
                )
        natural[box.key] = (lines, _content_height(lines) + 2 * PAD_Y)
    rows: dict[str, float] = {}
    for box in diagram.boxes:
        if box.row is not None:
            rows[box.row] = max(rows.get(box.row, 0.0), natural[box.key][1])
    placed: dict[str, Placed] = {}
    for box in diagram.boxes:
        lines, height = natural[box.key]
        if box.row is not None:
            height = rows[box.row]
        if isinstance(box.y, tuple):
            above, gap = box.y
            y = max(placed[key].bottom for key in above) + gap
        else:
            y = box.y
        placed[box.key] = Placed(box, box.x, y, box.width, height, tuple(lines))
    _check_overlaps(diagram.name, placed)
    return placed


def _check_overlaps(name: str, placed: dict[str, Placed]) -> None:
    """Boxes never touch: a layout mistake fails the build instead of
    drawing one box over another."""
    items = list(placed.values())
    for i, a in enumerate(items):
        for b in items[i + 1 :]:
            apart = a.right + 8 <= b.x or b.right + 8 <= a.x
            apart = apart or a.bottom + 8 <= b.y or b.bottom + 8 <= a.y
            if not apart:
                raise ValueError(f"{name}: boxes {a.box.key!r} and {b.box.key!r} overlap")


_VERTICAL = ("top", "bottom")


def _span(p: Placed, side: Side) -> tuple[float, float]:
    """Where a side runs: its x range for top and bottom, else its y range."""
    return (p.x, p.right) if side in _VERTICAL else (p.y, p.bottom)


def _ends(arrow: Arrow, source: Placed, target: Placed) -> tuple[float, float]:
    """``source_at`` and ``target_at``, filling in a missing one so that the
    two ends face each other (a straight arrow) whenever the sides overlap."""
    s_at, t_at = arrow.source_at, arrow.target_at
    if (arrow.source_side in _VERTICAL) != (arrow.target_side in _VERTICAL):
        return (0.5 if s_at is None else s_at, 0.5 if t_at is None else t_at)
    s_lo, s_hi = _span(source, arrow.source_side)
    t_lo, t_hi = _span(target, arrow.target_side)
    if s_at is None and t_at is None:
        # line up on the middle of the shorter side, if the other side reaches it
        if t_hi - t_lo <= s_hi - s_lo:
            t_at = 0.5
        else:
            s_at = 0.5
    if s_at is None:
        assert t_at is not None
        at = t_lo + (t_hi - t_lo) * t_at
        s_at = (at - s_lo) / (s_hi - s_lo) if s_lo <= at <= s_hi else 0.5
    if t_at is None:
        at = s_lo + (s_hi - s_lo) * s_at
        t_at = (at - t_lo) / (t_hi - t_lo) if t_lo <= at <= t_hi else 0.5
    return s_at, t_at


def _route(arrow: Arrow, placed: dict[str, Placed]) -> list[tuple[float, float]]:
    source = placed[arrow.source]
    target = placed[arrow.target]
    source_at, target_at = _ends(arrow, source, target)
    sx, sy = source.anchor(arrow.source_side, source_at)
    tx, ty = target.anchor(arrow.target_side, target_at)
    from_v = arrow.source_side in _VERTICAL
    to_v = arrow.target_side in _VERTICAL
    if from_v and to_v:
        if math.isclose(sx, tx):
            return [(sx, sy), (tx, ty)]
        y = arrow.bend if arrow.bend is not None else (sy + ty) / 2
        return [(sx, sy), (sx, y), (tx, y), (tx, ty)]
    if not from_v and not to_v:
        if math.isclose(sy, ty):
            return [(sx, sy), (tx, ty)]
        x = arrow.bend if arrow.bend is not None else (sx + tx) / 2
        return [(sx, sy), (x, sy), (x, ty), (tx, ty)]
    if from_v:
        return [(sx, sy), (sx, ty), (tx, ty)]
    return [(sx, sy), (tx, sy), (tx, ty)]


# --------------------------------------------------------------------------
# drawing


def _fmt(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _text(x: float, y: float, line: Line, anchor: Align) -> str:
    font = line.font
    family = MONO if font.mono else SANS
    weight = ' font-weight="bold"' if font.bold else ""
    return (
        f'<text x="{_fmt(x)}" y="{_fmt(y)}" class="{line.style}" font-family={quoteattr(family)}'
        f' font-size="{_fmt(font.size)}"{weight} fill="{font.colour}"'
        f' text-anchor="{anchor}">{escape(line.text)}</text>'
    )


def _draw_box(p: Placed) -> list[str]:
    fill, stroke = PALETTE[p.box.kind]
    out = [
        f'<g id="{p.box.key}">',
        f'<rect x="{_fmt(p.x)}" y="{_fmt(p.y)}" width="{_fmt(p.width)}"'
        f' height="{_fmt(p.height)}" rx="8" fill="{fill}" stroke="{stroke}"'
        ' stroke-width="1.5"/>',
    ]
    # Lines sit centred in the box as a block; the baseline of a line is
    # about 3/4 of its height down, which centres the letters in it.
    y = p.y + (p.height - _content_height(p.lines)) / 2
    seen_cite = False
    for line in p.lines:
        if line.style == "cite" and not seen_cite and len(p.lines) > 1:
            y += GAP_BEFORE_CITE
            seen_cite = True
        baseline = y + line.font.line * 0.5 + line.font.size * 0.36
        if p.box.align == "start" and line.style != "title":
            out.append(_text(p.x + PAD_X, baseline, line, "start"))
        else:
            out.append(_text(p.x + p.width / 2, baseline, line, "middle"))
        y += line.font.line
    out.append("</g>")
    return out


def _draw_arrow(arrow: Arrow, points: list[tuple[float, float]], marker: str) -> list[str]:
    path = " ".join(
        f"{'M' if i == 0 else 'L'}{_fmt(x)},{_fmt(y)}" for i, (x, y) in enumerate(points)
    )
    dash = ' stroke-dasharray="6 4"' if arrow.dashed else ""
    out = [
        f'<path d="{path}" fill="none" stroke="#57606a" stroke-width="1.6"{dash}'
        f' marker-end="url(#{marker})"/>'
    ]
    if arrow.label:
        segments = list(pairwise(points))
        index = arrow.label_at
        if index is None:
            index = max(range(len(segments)), key=lambda i: _length(*segments[i]))
        (x1, y1), (x2, y2) = segments[index]
        font = FONTS["label"]
        dx, dy = arrow.label_shift
        anchor: str
        if math.isclose(x1, x2):  # beside a vertical segment
            x, y = x1 + dx, (y1 + y2) / 2 + font.size * 0.36 + dy
            x, anchor = (x - 7, "end") if arrow.label_left else (x + 7, "start")
        else:  # above a horizontal one
            x, y, anchor = (x1 + x2) / 2 + dx, y1 - 6 + dy, "middle"
        out.append(
            f'<text x="{_fmt(x)}" y="{_fmt(y)}" class="label" font-family={quoteattr(SANS)}'
            f' font-size="{_fmt(font.size)}" fill="{font.colour}" text-anchor="{anchor}"'
            ' stroke="#ffffff" stroke-width="4" stroke-linejoin="round"'
            f' paint-order="stroke">{escape(arrow.label)}</text>'
        )
    return out


def _length(a: tuple[float, float], b: tuple[float, float]) -> float:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def _group_frame(group: Group, placed: dict[str, Placed]) -> tuple[float, float, float, float]:
    members = [placed[key] for key in group.keys]
    left = min(p.x for p in members) - group.pad
    top = min(p.y for p in members) - group.pad
    right = max(p.right for p in members) + group.pad
    bottom = max(p.bottom for p in members) + group.pad
    return left, top, right, bottom


def _draw_group(group: Group, placed: dict[str, Placed]) -> list[str]:
    left, top, right, bottom = _group_frame(group, placed)
    out = [
        f'<rect x="{_fmt(left)}" y="{_fmt(top)}" width="{_fmt(right - left)}"'
        f' height="{_fmt(bottom - top)}" rx="12" fill="none" stroke="#8c959f"'
        ' stroke-width="1.3" stroke-dasharray="7 5"/>'
    ]
    x = left + (right - left) * group.label_x + 4
    y = top - 6
    for paragraph in reversed(group.label):
        line = Line(paragraph.text, FONTS[paragraph.style], paragraph.style)
        out.append(_text(x, y, line, "start"))
        y -= line.font.line
    return out


def _bounds(
    placed: dict[str, Placed], routes: Iterable[list[tuple[float, float]]], diagram: Diagram
) -> tuple[float, float]:
    right = max(p.right for p in placed.values())
    bottom = max(p.bottom for p in placed.values())
    for points in routes:
        right = max(right, *(x for x, _ in points))
        bottom = max(bottom, *(y for _, y in points))
    for group in diagram.groups:
        _, _, group_right, group_bottom = _group_frame(group, placed)
        right = max(right, group_right)
        bottom = max(bottom, group_bottom)
    return right + MARGIN, bottom + MARGIN


def render(diagram: Diagram) -> str:
    """The SVG document of ``diagram``."""
    placed = _place(diagram)
    routes = [_route(arrow, placed) for arrow in diagram.arrows]
    width, height = _bounds(placed, routes, diagram)
    marker = f"{diagram.name.removesuffix('.svg')}-arrow"
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_fmt(width)} {_fmt(height)}"'
        f' width="{_fmt(width)}" height="{_fmt(height)}" role="img"'
        f" aria-label={quoteattr(diagram.title)}>",
        f"<title>{escape(diagram.title)}</title>",
        f"<desc>{escape(diagram.description)}</desc>",
        "<defs>",
        f'<marker id="{marker}" viewBox="0 0 10 10" refX="9.5" refY="5" markerWidth="7"'
        ' markerHeight="7" orient="auto-start-reverse">'
        '<path d="M0,0.5 L10,5 L0,9.5 z" fill="#57606a"/></marker>',
        "</defs>",
        # A white card: the diagram reads the same on a light or a dark page.
        f'<rect x="0.5" y="0.5" width="{_fmt(width - 1)}" height="{_fmt(height - 1)}" rx="12"'
        ' fill="#ffffff" stroke="#d0d7de"/>',
    ]
    for group in diagram.groups:
        out.extend(_draw_group(group, placed))
    for arrow, points in zip(diagram.arrows, routes, strict=True):
        out.extend(_draw_arrow(arrow, points, marker))
    for p in placed.values():
        out.extend(_draw_box(p))
    out.append("</svg>")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------
# the diagrams

# engine-flow: three columns; decide, Events and evolve in the middle one,
# inside the frame that push covers.
_L, _C, _R = 20.0, 300.0, 610.0  # column lefts
_LW, _CW, _RW = 240.0, 270.0, 250.0  # column widths

ENGINE_FLOW = Diagram(
    name="engine-flow.svg",
    title="How the engine turns a command into a new state and a player's view",
    description=(
        "A command goes to decide(state, command), which checks it against the rules and"
        " returns events, or raises IllegalCommand and leaves the state as it was. evolve"
        " applies the events one by one to give the new GameState; push does both in one"
        " call. view(state, seat) gives the PlayerView of one seat, and events_for(seat,"
        " events) the events as that seat may see them. Chance enters only through the"
        " deal: a seeded shuffle or a stacked deck."
    ),
    boxes=(
        Box(
            "command",
            _C,
            20,
            _CW,
            (title("Command"), code("PlayCard, KeepCard, …"), body("one move of one player")),
            kind="input",
        ),
        Box(
            "decide",
            _C,
            (("command",), 76),
            _CW,
            (
                code("decide(state, command)"),
                body("checks the move against the rules, asks the card for its effect"),
                note("then adds what follows: the next turn, or the round's end and tokens"),
            ),
            kind="function",
            row="r1",
        ),
        Box(
            "illegal",
            _L,
            (("command",), 76),
            _LW,
            (
                code("IllegalCommand"),
                body("raised, with its RejectionKind"),
                note("nothing changed: states are immutable"),
            ),
            kind="error",
            row="r1",
        ),
        Box(
            "chance",
            _R,
            (("command",), 76),
            _RW,
            (
                title("Chance"),
                body("a seed (a BLAKE2b shuffle) or a stacked deck"),
                note("used only when a round is dealt"),
            ),
            kind="chance",
            row="r1",
        ),
        Box(
            "events",
            _C,
            (("decide",), 46),
            _CW,
            (
                title("Events"),
                code("CardPlayed"),
                code("CardDiscarded"),
                code("CardDrawn, …"),
                note("what happened, in order"),
            ),
            kind="data",
            row="r2",
        ),
        Box(
            "events_for",
            _R,
            (("decide",), 46),
            _RW,
            (
                code("events_for(seat, events)"),
                body("the same events with what that seat may not see hidden"),
            ),
            kind="function",
            row="r2",
        ),
        Box(
            "evolve",
            _C,
            (("events",), 46),
            _CW,
            (code("evolve(state, event)"), body("applied to each event in turn (a fold)")),
            kind="function",
        ),
        Box(
            "state",
            _C,
            (("evolve",), 56),
            _CW,
            (title("GameState"), body("the new state, a frozen value; the old one is unchanged")),
            kind="data",
            row="r3",
        ),
        Box(
            "view",
            _R,
            (("evolve",), 56),
            _RW,
            (code("view(state, seat)"),),
            kind="function",
            row="r3",
        ),
        Box(
            "player_view",
            _R,
            (("view",), 40),
            _RW,
            (
                title("PlayerView"),
                body("what one seat may know: its hand, the piles, the tokens, what it was shown"),
                code("legal_commands"),
            ),
            kind="data",
        ),
    ),
    arrows=(
        Arrow("command", "decide"),
        Arrow("decide", "events", label="events"),
        Arrow("decide", "illegal", "left", "right", label="illegal", source_at=0.3),
        Arrow("chance", "decide", "left", "right", label="deal", target_at=0.3),
        Arrow("events", "evolve"),
        Arrow("events", "events_for", "right", "left"),
        Arrow("evolve", "state"),
        Arrow("state", "view", "right", "left"),
        Arrow("view", "player_view"),
        Arrow(
            "state",
            "decide",
            "left",
            "left",
            label="the next move",
            dashed=True,
            target_at=0.75,
            bend=_C - 24,
            label_at=1,
            label_left=True,
        ),
    ),
    groups=(
        Group(
            ("decide", "events", "evolve"),
            (code("push(state, command)"), note("decide, then evolve, in one call")),
            pad=14,
            label_x=0.52,
        ),
    ),
)

# premium-showdown: one column of steps, widened where outcomes branch.
_W = 860.0
_HALF = (_W - 30) / 2
_THIRD = (_W - 2 * 25) / 3

PREMIUM_SHOWDOWN = Diagram(
    name="premium-showdown.svg",
    title="Premium Edition: who wins a round that ends with the deck empty",
    description=(
        "The players still in show their hands. Each has a hand number (printed number plus"
        " one per Count in their discard pile) and a discard total. A beats B if A holds the"
        " Princess and B the Bishop; otherwise on the higher hand number, then the higher"
        " discard total. The players nobody beats win the round, all of them if several; if"
        " everyone is beaten the Princess's holder wins. Then the round's award step: a token"
        " to each winner, then to each Jester player whose mark won. If exactly one player has"
        " reached the tokens needed, they win the game; if several, they play a tie-break"
        " round alone."
    ),
    boxes=(
        Box(
            "end",
            20,
            20,
            _W,
            (
                title("The deck is empty at the end of a turn"),
                body("Two or more players are still in: each shows the card in their hand."),
            ),
            kind="step",
            rules=("round.end-deck-empty",),
        ),
        Box(
            "number",
            20,
            (("end",), 40),
            _HALF,
            (
                title("Hand number"),
                body(
                    "the printed number of the hand card, +1 for each Count in the player's"
                    " own discard pile"
                ),
            ),
            row="measures",
            rules=("count.showdown-bonus",),
            rulings=(28,),
        ),
        Box(
            "total",
            20 + _HALF + 30,
            (("end",), 40),
            _HALF,
            (
                title("Discard total"),
                body(
                    "the sum of the printed numbers in the player's own pile; a Count adds"
                    " its 5 here, never its bonus"
                ),
            ),
            row="measures",
            rules=("round.tie-discard-sum",),
            rulings=(40,),
        ),
        Box(
            "compare",
            20,
            (("number", "total"), 40),
            _W,
            (
                title("Compare every pair of players: A beats B when"),
                body(
                    "1. A holds the Princess and B the Bishop, whatever their Counts (the"
                    " Bishop never beats the Princess); otherwise"
                ),
                body("2. A's hand number is higher than B's; or"),
                body("3. the hand numbers are equal and A's discard total is higher."),
            ),
            kind="question",
            align="start",
            rules=("bishop.princess-beats-bishop", "round.tie-discard-sum"),
            rulings=(28,),
        ),
        Box(
            "one",
            20,
            (("compare",), 56),
            _THIRD,
            (
                title("One player nobody beats"),
                body("wins the round"),
            ),
            kind="win",
            row="winners",
            rules=("round.tie-discard-sum",),
        ),
        Box(
            "several",
            20 + _THIRD + 25,
            (("compare",), 56),
            _THIRD,
            (
                title("Several nobody beats"),
                body("(same hand number, same total): all of them win the round"),
            ),
            kind="win",
            row="winners",
            rules=("round.tie-discard-sum",),
        ),
        Box(
            "cycle",
            20 + 2 * (_THIRD + 25),
            (("compare",), 56),
            _THIRD,
            (
                title("Everyone is beaten"),
                body(
                    "a cycle, only with the Princess and the Bishop both shown: the"
                    " Princess's holder wins alone"
                ),
            ),
            kind="win",
            row="winners",
            rulings=(28,),
        ),
        Box(
            "award",
            20,
            (("one", "several", "cycle"), 56),
            _W,
            (
                title("The round's award step, counted as one"),
                body("1. each winner of the round gains a token (round.winner-token);"),
                body(
                    "2. then each player whose Jester marked a winner gains one, even if"
                    " out of the round (jester.mark-expected-winner)."
                ),
                note(
                    "Tokens won earlier in the round were steps of their own, each checked"
                    " at once: a Bishop's correct number (bishop.correct-number-token), a"
                    " Constable when its owner was knocked out (constable.knocked-out-token)."
                ),
            ),
            kind="award",
            align="start",
            rules=("game.immediate-win",),
            rulings=(30,),
        ),
        Box(
            "check",
            20,
            (("award",), 40),
            _W,
            (
                title("Who now holds the tokens needed? (7, 5 or 4 by the number of players)"),
                note(
                    "In a tie-break round: which of the tied players gained a token in this step?"
                ),
            ),
            kind="question",
            rules=("game.tokens-to-win-premium", "game.tie-break-round"),
        ),
        Box(
            "nobody",
            20,
            (("check",), 56),
            _THIRD,
            (
                title("Nobody"),
                body(
                    "a new round; a winner of this one plays first (drawn at random among several)"
                ),
            ),
            kind="step",
            row="game",
            rules=("round.next-first-player", "round.next-first-player-tie-random"),
        ),
        Box(
            "winner",
            20 + _THIRD + 25,
            (("check",), 56),
            _THIRD,
            (
                title("Exactly one player"),
                body("wins the game"),
            ),
            kind="win",
            row="game",
            rules=("game.immediate-win",),
        ),
        Box(
            "tie",
            20 + 2 * (_THIRD + 25),
            (("check",), 56),
            _THIRD,
            (
                title("Two or more"),
                body("the game is tied: they alone play a tie-break round, the others sit it out"),
            ),
            kind="award",
            row="game",
            rules=("game.tie-break-round",),
            rulings=(31,),
        ),
    ),
    arrows=(
        Arrow("end", "number"),
        Arrow("end", "total"),
        Arrow("number", "compare"),
        Arrow("total", "compare"),
        # the three outcomes branch from the middle of the comparison
        Arrow("compare", "one", source_at=0.5),
        Arrow("compare", "several", source_at=0.5),
        Arrow("compare", "cycle", source_at=0.5),
        Arrow("one", "award"),
        Arrow("several", "award"),
        Arrow("cycle", "award"),
        Arrow("award", "check"),
        Arrow("check", "nobody", source_at=0.5),
        Arrow("check", "winner", source_at=0.5),
        Arrow("check", "tie", source_at=0.5),
    ),
)

DIAGRAMS: tuple[Diagram, ...] = (ENGINE_FLOW, PREMIUM_SHOWDOWN)


# --------------------------------------------------------------------------
# writing


def write_if_changed(path: Path, content: str) -> bool:
    """Write ``content`` to ``path`` unless it already holds exactly that;
    say whether it wrote. An unchanged file keeps its mtime, so Sphinx sees
    nothing new."""
    data = content.encode("utf-8")
    if path.is_file() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return True


def generate(directory: Path) -> list[Path]:
    """Write every diagram into ``directory``; return the paths written."""
    written = []
    for diagram in DIAGRAMS:
        path = directory / diagram.name
        if write_if_changed(path, render(diagram)):
            written.append(path)
    return written


def _builder_inited(app: Sphinx) -> None:
    generate(Path(app.srcdir) / "diagrams")


def setup(app: Sphinx) -> ExtensionMetadata:
    app.connect("builder-inited", _builder_inited)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
