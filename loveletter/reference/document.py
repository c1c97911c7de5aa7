"""A small document model with two renderings: MyST Markdown for the Sphinx
site and plain text for the terminal (``loveletter rules``).

The rules pages are built once, as blocks; the site and the terminal render
the same blocks, so what a player reads at the command line is the text of
the site. Links name what they point at (a rule, a ruling, a case, an
edition, a rules topic, a function); each renderer decides what a link
becomes: a cross-reference on the site, the bare text in the terminal.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable, Sequence
from typing import Literal

import attrs

TargetKind = Literal[
    "rule", "ruling", "case", "edition", "topic", "code", "page", "edge-case", "label"
]


@attrs.frozen
class Link:
    text: str
    kind: TargetKind
    #: the rule ID, ruling number, case name, edition ID, topic, qualified
    #: function name, or document path (``editions/index``)
    target: str


@attrs.frozen
class Code:
    """Inline code: a rule ID, a command in notation, a file name."""

    text: str


@attrs.frozen
class Emphasis:
    text: str


Inline = str | Link | Code | Emphasis
Line = tuple[Inline, ...]


@attrs.frozen
class Anchor:
    """What a heading is the home of: the site gives it a cross-reference
    label and an HTML id that is the thing's own name (a rule's slug ID, a
    case's ``ruleset/topic/id``), so links to it stay permanent."""

    kind: TargetKind
    target: str


@attrs.frozen
class Heading:
    level: int
    text: Line
    anchor: Anchor | None = None


@attrs.frozen
class Paragraph:
    text: Line


@attrs.frozen
class Field:
    """A labelled line: "Editions: 2019, Premium"."""

    label: str
    text: Line


@attrs.frozen
class Items:
    items: tuple[Line, ...]
    ordered: bool = False


@attrs.frozen
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[Line, ...], ...]


@attrs.frozen
class Details:
    """A fold: shut on the site, told in full in the terminal."""

    summary: Line
    body: tuple[Block, ...]
    #: the site's style for it: a case's story, or a list of cases
    css_class: str = "case-story"


@attrs.frozen
class CodeBlock:
    language: str
    text: str


@attrs.frozen
class Image:
    """A picture on the site (nothing in the terminal); ``path`` is from
    the documentation's source root: ``/rules/cards/prince.svg``."""

    path: str
    alt: str
    #: the site's style for it (a card's face, a wide picture)
    css_class: str | None = None


@attrs.frozen
class Toctree:
    """The site's navigation to child pages; nothing in the terminal."""

    entries: tuple[str, ...]
    hidden: bool = True


Block = Heading | Paragraph | Field | Items | Table | Details | CodeBlock | Image | Toctree


def line(*parts: Inline) -> Line:
    return tuple(parts)


def joined(parts: Iterable[Line], separator: str = ", ") -> Line:
    """Lines run together with a separator: a list of links in one line."""
    out: list[Inline] = []
    for index, part in enumerate(parts):
        if index:
            out.append(separator)
        out.extend(part)
    return tuple(out)


# --------------------------------------------------------------------- MyST

#: the Python domain role for a cited function: methods are ``Class._name``
_CODE_ROLE = re.compile(r"\.[A-Z][A-Za-z0-9_]*\.[a-z_]")


def anchor_label(kind: TargetKind, target: str) -> str:
    """The Sphinx label (cross-reference target) of a thing a link names."""
    if kind == "rule":
        return target
    if kind == "ruling":
        return f"ruling-{target}"
    if kind == "case":
        return "case-" + target.replace("/", "--")
    if kind == "edition":
        return f"edition-{target}"
    if kind == "topic":
        return f"topic-{target}"
    if kind == "edge-case":
        return f"edge-case-{target}"
    if kind == "label":
        return target
    raise ValueError(f"no label for a {kind} link")


def html_anchor(kind: TargetKind, target: str) -> str:
    """The HTML id a page carries for a thing: a rule's slug ID as it is, a
    case's ``ruleset/topic/id``, ``ruling-9``, ``edition-premium``."""
    if kind in ("rule", "case"):
        return target
    return anchor_label(kind, target)


def _docutils_id(label: str) -> str:
    """The id docutils gives a label: lower case, other characters "-"."""
    return re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")


def _role_text(text: str) -> str:
    # Inside a role neither a backtick nor "<" may appear unescaped.
    return text.replace("`", "'").replace("<", "\\<")


def _myst_inline(part: Inline) -> str:
    if isinstance(part, str):
        return _escape(part)
    if isinstance(part, Code):
        return f"``{part.text}``" if "`" in part.text else f"`{part.text}`"
    if isinstance(part, Emphasis):
        return f"*{_escape(part.text)}*"
    if part.kind == "code":
        role = "py:meth" if _CODE_ROLE.search(part.target) else "py:func"
        return f"{{{role}}}`{part.target}`"
    if part.kind == "page":
        return f"{{doc}}`{_role_text(part.text)} </{part.target}>`"
    return f"{{ref}}`{_role_text(part.text)} <{anchor_label(part.kind, part.target)}>`"


_SPECIAL = re.compile(r"([\\*_\[\]<>|{}`#])")


def _escape(text: str) -> str:
    """Plain words as Markdown: no character may start markup."""
    return _SPECIAL.sub(r"\\\1", text)


def _myst_line(parts: Line) -> str:
    return "".join(_myst_inline(p) for p in parts)


def to_myst(blocks: Sequence[Block]) -> str:
    """The blocks as a MyST Markdown page."""
    out: list[str] = []
    for block in blocks:
        out.extend(_myst_block(block))
    return "\n".join(out).rstrip() + "\n"


def _myst_block(block: Block) -> list[str]:
    if isinstance(block, Heading):
        lines = []
        if block.anchor is not None:
            kind, target = block.anchor.kind, block.anchor.target
            label = anchor_label(kind, target)
            if html_anchor(kind, target) != _docutils_id(label):
                # docutils rewrites ids ("." and "/" become "-"): the exact
                # name gets an element of its own
                lines.append(f'<div id="{html_anchor(kind, target)}"></div>')
                lines.append("")
            lines.append(f"({label})=")
        text = _myst_line(block.text)
        lines.append(f"{'#' * block.level} {text}")
        return [*lines, ""]
    if isinstance(block, Paragraph):
        return [_myst_line(block.text), ""]
    if isinstance(block, Field):
        return [f"**{_escape(block.label)}:** {_myst_line(block.text)}", ""]
    if isinstance(block, Items):
        marker = "1." if block.ordered else "-"
        return [*(f"{marker} {_myst_line(item)}" for item in block.items), ""]
    if isinstance(block, Table):
        rows = [
            "| " + " | ".join(_escape(h) for h in block.header) + " |",
            "|" + "---|" * len(block.header),
        ]
        for row in block.rows:
            cells = (_myst_line(cell).replace("\n", " ") for cell in row)
            rows.append("| " + " | ".join(cells) + " |")
        return [*rows, ""]
    if isinstance(block, Details):
        summary = _myst_line(block.summary)
        inner: list[str] = []
        for child in block.body:
            inner.extend(_myst_block(child))
        # The summary is Markdown between raw <summary> lines: MyST parses
        # the text between raw HTML blocks as Markdown, links included.
        return [
            f'<details class="{block.css_class}">',
            "<summary>",
            "",
            summary,
            "",
            "</summary>",
            "",
            *inner,
            "</details>",
            "",
        ]
    if isinstance(block, CodeBlock):
        fence = "````" if "```" in block.text else "```"
        return [f"{fence}{block.language}", block.text.rstrip("\n"), fence, ""]
    if isinstance(block, Image):
        style = f"{{.{block.css_class}}}" if block.css_class else ""
        return [f"![{_escape(block.alt)}]({block.path}){style}", ""]
    # titles only: every rule and case is a section, and a navigation tree
    # holding thousands of them makes every page slow to build
    options = [":titlesonly:", ":hidden:" if block.hidden else ":maxdepth: 1"]
    return ["```{toctree}", *options, "", *block.entries, "```", ""]


# --------------------------------------------------------------------- text


def _text_inline(part: Inline) -> str:
    if isinstance(part, str):
        return part
    if isinstance(part, Code | Emphasis):
        return part.text
    return part.text


def text_line(parts: Line) -> str:
    """A line as the terminal shows it: links become their text."""
    return "".join(_text_inline(p) for p in parts)


def to_text(blocks: Sequence[Block], width: int = 78) -> str:
    """The blocks as plain text wrapped to ``width`` columns."""
    out: list[str] = []
    for block in blocks:
        out.extend(_text_block(block, width, ""))
    while out and not out[-1]:
        out.pop()
    return "\n".join(out) + "\n"


def _wrap(text: str, width: int, first: str, rest: str) -> list[str]:
    return textwrap.wrap(
        text,
        width=max(width, 20),
        initial_indent=first,
        subsequent_indent=rest,
        break_on_hyphens=False,
        break_long_words=False,
    ) or [first.rstrip()]


def _text_block(block: Block, width: int, indent: str) -> list[str]:
    if isinstance(block, Heading):
        text = text_line(block.text)
        if block.level <= 2:
            rule = "=" if block.level == 1 else "-"
            return [f"{indent}{text}", f"{indent}{rule * min(len(text), width)}", ""]
        return [f"{indent}{text}", ""]
    if isinstance(block, Paragraph):
        return [*_wrap(text_line(block.text), width, indent, indent), ""]
    if isinstance(block, Field):
        first = f"{indent}{block.label}: "
        return [*_wrap(text_line(block.text), width, first, indent + "  "), ""]
    if isinstance(block, Items):
        lines: list[str] = []
        for number, item in enumerate(block.items, start=1):
            marker = f"{number}. " if block.ordered else "- "
            lines += _wrap(text_line(item), width, indent + marker, indent + " " * len(marker))
        return [*lines, ""]
    if isinstance(block, Table):
        lines = []
        for row in block.rows:
            cells = [text_line(cell) for cell in row]
            pairs = [f"{h}: {c}" for h, c in zip(block.header, cells, strict=True) if c]
            lines += _wrap("; ".join(pairs), width, indent + "- ", indent + "  ")
        return [*lines, ""]
    if isinstance(block, Details):
        lines = [*_wrap(text_line(block.summary), width, indent + "* ", indent + "  ")]
        for child in block.body:
            lines += _text_block(child, width, indent + "    ")
        if lines[-1]:
            lines.append("")
        return lines
    if isinstance(block, CodeBlock):
        return [*(indent + "    " + text for text in block.text.rstrip("\n").split("\n")), ""]
    return []  # an image or a toctree: nothing to read in a terminal
