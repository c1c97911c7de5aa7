"""A small document model with two renderings: MyST Markdown for the Sphinx
site and plain text for the terminal (``loveletter rules``).

The rules pages are built once, as blocks; the site and the terminal render
the same blocks, so what a player reads at the command line is the text of
the site. Links name what they point at (a rule, a ruling, a case, an
edition, a rules topic, a function); each renderer decides what a link
becomes: a cross-reference on the site, the bare text in the terminal.

On the site, a case's story folded away from its home (under each rule and
ruling it pins, and on the edge-cases page: some 2,400 folds) is written
as one block of raw HTML when :func:`to_myst` is given the page's
:class:`Links`. Sphinx passes raw HTML through, where it parsed, transformed
and wrote each copy of the Markdown: a third of the site's build. The HTML
is what Sphinx makes of the fold's Markdown (the same elements and classes,
typographic quotes, links relative to the page that land on the ids
Sphinx's references land on), so the built pages are the same; a fold
holding anything that HTML would not write as Sphinx does stays Markdown.
The stories' homes, the case pages, stay Markdown: a case there is a
section, with the heading and anchor its links land on.
"""

from __future__ import annotations

import posixpath
import re
import textwrap
from collections.abc import Iterable, Sequence
from typing import Literal, Protocol

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
    """The id docutils gives a label (``nodes.make_id``): lower case, other
    characters "-", no digit or "-" first nor "-" last."""
    return re.sub(r"^[-0-9]+|-+$", "", re.sub(r"[^a-z0-9]+", "-", label.lower()))


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


def to_myst(blocks: Sequence[Block], links: Links | None = None) -> str:
    """The blocks as a MyST Markdown page. With the page's ``links``, the
    case stories folded on it are raw HTML (:func:`fold_html`)."""
    out: list[str] = []
    for block in blocks:
        out.extend(_myst_block(block, links))
    return "\n".join(out).rstrip() + "\n"


def _myst_block(block: Block, links: Links | None = None) -> list[str]:
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
        if links is not None and block.css_class == "case-story":
            try:
                return [fold_html(block, links), ""]
            except (MarkdownOnly, LookupError):
                pass  # written as Markdown below, which Sphinx sets right
        summary = _myst_line(block.summary)
        inner: list[str] = []
        for child in block.body:
            inner.extend(_myst_block(child, links))
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


# --------------------------------------------------------------------- HTML


class Homes(Protocol):
    """Knows the page each rule, ruling, case, edition or topic is at."""

    def home(self, kind: TargetKind, target: str) -> str:
        """The path of the page that is the thing's home (``rules/prince``);
        LookupError for a thing, or a kind of link, it cannot place."""
        ...


@attrs.frozen
class Links:
    """Where the links of one page of the site go: ``page`` is its path
    (``rules/prince``), ``homes`` the pages of the things links name."""

    page: str
    homes: Homes

    def href(self, kind: TargetKind, target: str) -> str:
        """The URL a Sphinx reference on the page gets: the target page
        relative to this one (none on the page itself) and the id docutils
        gave the thing's label."""
        fragment = _docutils_id(anchor_label(kind, target))
        home = self.homes.home(kind, target)
        if home == self.page:
            return f"#{fragment}"
        start = posixpath.dirname(self.page) or "."
        return f"{posixpath.relpath(home, start)}.html#{fragment}"


class MarkdownOnly(ValueError):
    """A fold holds something :func:`fold_html` does not write as Sphinx
    would write its Markdown: it stays Markdown."""


#: the start of a Markdown line that would not read as the words it holds
#: (a list, a fence, a MyST comment or target, an indented code block)
_BLOCK_START = re.compile(r"[ \t]|[-+=%~:]|\d+[.)]|\(.*\)=\s*$")
#: a character reference, which Markdown reads as the character
_ENTITY = re.compile(r"&#?[A-Za-z0-9]+;")
#: what the HTML writer escapes (docutils' ``special_characters``)
_HTML_SPECIAL = str.maketrans({"&": "&amp;", "<": "&lt;", '"': "&quot;", ">": "&gt;", "@": "&#64;"})
#: how the HTML writer cuts inline code: words, runs of spaces, newlines
_WORDS_AND_SPACES = re.compile(r"[^ \n]+| +|\n")


def fold_html(fold: Details, links: Links) -> str:
    """The fold as the HTML Sphinx, MyST and the theme write for its
    Markdown, in lines and none blank: CommonMark ends an HTML block at a
    blank line, and MyST passes the block to the page untouched. Raises
    :class:`MarkdownOnly` for a block other than paragraphs and bulleted
    lists, or text Markdown would not read as it stands; LookupError for a
    link to no known home."""
    lines = [f'<details class="{fold.css_class}">', "<summary>"]
    lines += [_html_paragraph(fold.summary, links), "</summary>"]
    for child in fold.body:
        if isinstance(child, Paragraph):
            lines.append(_html_paragraph(child.text, links))
        elif isinstance(child, Items) and not child.ordered and child.items:
            # one paragraph per item: docutils calls such a list "simple"
            lines.append('<ul class="simple">')
            lines += [f"<li>{_html_paragraph(item, links)}</li>" for item in child.items]
            lines.append("</ul>")
        else:
            raise MarkdownOnly(f"a fold holding {type(child).__name__}")
    lines.append("</details>")
    return "\n".join(lines)


def _as_it_stands(text: str) -> str:
    if "\n" in text or "\r" in text or "\t" in text or _ENTITY.search(text):
        raise MarkdownOnly(f"text Markdown would change: {text!r}")
    return text


def _html_paragraph(parts: Line, links: Links) -> str:
    markdown = _myst_line(parts)
    if not markdown or _BLOCK_START.match(markdown) or markdown[-1].isspace():
        raise MarkdownOnly(f"a line Markdown would not read as it stands: {markdown!r}")
    # (kind for smart quotes, text, HTML before, HTML after), one per text
    # node Sphinx would have: the words between two inline elements are one
    pieces: list[tuple[str, str, str, str]] = []
    for part in parts:
        if isinstance(part, str):
            text = _as_it_stands(part)
            if pieces and pieces[-1][0] == "plain" and not pieces[-1][2]:
                text = pieces.pop()[1] + text
            pieces.append(("plain", text, "", ""))
        elif isinstance(part, Emphasis):
            text = _as_it_stands(part.text)
            if not text or text != text.strip():
                raise MarkdownOnly(f"emphasis Markdown would not read: {text!r}")
            pieces.append(("plain", text, "<em>", "</em>"))
        elif isinstance(part, Code):
            text = _as_it_stands(part.text)
            if not text or text != text.strip() or "`" in text:
                raise MarkdownOnly(f"code Markdown would change: {text!r}")
            pieces.append(
                ("literal", text, '<code class="docutils literal notranslate">', "</code>")
            )
        else:
            if part.kind in ("code", "page"):
                # roles of their own, with HTML of their own
                raise MarkdownOnly(f"a {part.kind} link")
            text = _as_it_stands(part.text)
            if not text or text != text.strip() or "<" in text or "\\" in text:
                raise MarkdownOnly(f"a link's text the role would change: {text!r}")
            href = links.href(part.kind, part.target).translate(_HTML_SPECIAL)
            before = f'<a class="reference internal" href="{href}"><span class="std std-ref">'
            # a role's text on the site has no backtick (_role_text)
            pieces.append(("plain", text.replace("`", "'"), before, "</span></a>"))
    words = _smart_quotes([(kind, text) for kind, text, _, _ in pieces])
    out: list[str] = []
    for (kind, _, before, after), text in zip(pieces, words, strict=True):
        encoded = text.translate(_HTML_SPECIAL)
        if kind == "literal":
            encoded = "".join(_literal_token(t) for t in _WORDS_AND_SPACES.findall(encoded))
        out.append(f"{before}{encoded}{after}")
    return "<p>" + "".join(out) + "</p>"


def _literal_token(token: str) -> str:
    # as Sphinx's HTML writer keeps inline code from wrapping inside a word
    if token.strip():
        return f'<span class="pre">{token}</span>'
    if token in (" ", "\n"):
        return token
    return "&#160;" * (len(token) - 1) + " "


def _smart_quotes(tokens: Sequence[tuple[str, str]]) -> list[str]:
    """The texts of a paragraph with typographic quotes, dashes and
    ellipses, as Sphinx sets a page's text (docutils' SmartQuotes with
    Sphinx's default ``smartquotes_action`` "qDe", for English, which
    ``docs/conf.py`` keeps); Sphinx leaves raw HTML alone, so the fold is
    set here. Code is kept as it is but is the context of what follows."""
    # docutils comes with Sphinx (the site's build), not with the package:
    # only the site asks for HTML. It ships no type information.
    from docutils.utils.smartquotes import educate_tokens  # type: ignore[import-untyped]

    return [str(text) for text in educate_tokens(tokens, attr="qDe", language="en")]


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
