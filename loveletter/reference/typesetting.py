"""Text set in SVG pictures drawn with no font library: how wide a line is,
and where to break a paragraph so that it fits.

Widths come from the advance widths of DejaVu Sans (the widest of the usual
sans-serif fonts) tabulated below, so room made for it also holds the text
in Helvetica or Arial. The site's diagrams (``docs/_ext/diagrams.py``) and
the card pictures (:mod:`loveletter.reference.pictures`) share them.
"""

from __future__ import annotations

from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

# Advance widths, in thousandths of an em, of the printable ASCII characters
# (32 to 126) in DejaVu Sans and DejaVu Sans Bold. Characters outside ASCII
# count as a full em, which is never too narrow.
_REGULAR = (
    "318 401 460 838 636 950 780 275 390 390 500 838 318 361 318 337 636 636 636 636 636 636 "
    "636 636 636 636 337 337 838 838 838 531 1000 684 686 698 770 632 575 775 752 295 295 656 "
    "557 863 748 787 603 787 695 635 611 732 684 989 685 611 685 390 337 390 838 500 500 613 "
    "635 550 635 615 352 635 634 278 278 579 278 974 634 612 635 635 411 521 392 634 592 818 "
    "592 592 525 636 337 636 838"
)
_BOLD = (
    "348 456 521 838 696 1002 872 306 457 457 523 838 380 415 380 365 696 696 696 696 696 696 "
    "696 696 696 696 400 400 838 838 838 580 1000 774 762 734 830 683 683 821 837 372 372 775 "
    "637 995 837 850 733 850 770 720 682 812 774 1103 771 724 725 457 365 457 838 500 500 675 "
    "716 593 716 678 435 716 712 343 343 665 343 1042 712 687 716 716 493 595 478 712 652 924 "
    "645 652 582 712 365 712 838"
)
_WIDTHS = {
    "regular": tuple(int(w) for w in _REGULAR.split()),
    "bold": tuple(int(w) for w in _BOLD.split()),
}
_MONO_ADVANCE = 0.602  # DejaVu Sans Mono; Courier, Menlo and Consolas are no wider

SANS = "'Helvetica Neue', Helvetica, Arial, 'Liberation Sans', 'DejaVu Sans', sans-serif"
MONO = "'DejaVu Sans Mono', Menlo, Consolas, 'Liberation Mono', monospace"


@dataclass(frozen=True)
class Font:
    """A style of text in a picture."""

    size: float
    #: the height of one line of this style
    line: float
    mono: bool = False
    bold: bool = False
    colour: str = "#1f2328"
    italic: bool = False


def text_width(text: str, font: Font) -> float:
    """The width of ``text`` in ``font``, in pixels, never less than it draws.

    >>> text_width("Prince", Font(10, 14)) < text_width("Prince", Font(10, 14, bold=True))
    True
    """
    if font.mono:
        return len(text) * _MONO_ADVANCE * font.size
    table = _WIDTHS["bold" if font.bold else "regular"]
    units = sum(table[ord(c) - 32] if 32 <= ord(c) <= 126 else 1000 for c in text)
    return units * font.size / 1000


def wrap(text: str, font: Font, width: float, separator: str = " ") -> list[str]:
    """``text`` cut into lines no wider than ``width`` where it can be: a
    single word wider than that keeps a line of its own (whoever draws it
    makes room or reports it)."""
    lines: list[str] = []
    current = ""
    for word in text.split(separator):
        candidate = f"{current}{separator}{word}" if current else word
        if current and text_width(candidate, font) > width:
            lines.append(current)
            current = word
        else:
            current = candidate
    if current:
        lines.append(current)
    return lines


def number(value: float) -> str:
    """A coordinate as SVG wants it: at most one decimal, no trailing zeros."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def svg_text(
    x: float, y: float, text: str, font: Font, anchor: str = "start", css_class: str = ""
) -> str:
    """One line of text in ``font``, its baseline at ``y``."""
    family = MONO if font.mono else SANS
    weight = ' font-weight="bold"' if font.bold else ""
    style = ' font-style="italic"' if font.italic else ""
    classes = f' class="{css_class}"' if css_class else ""
    return (
        f'<text x="{number(x)}" y="{number(y)}"{classes} font-family={quoteattr(family)}'
        f' font-size="{number(font.size)}"{weight}{style} fill="{font.colour}"'
        f' text-anchor="{anchor}">{escape(text)}</text>'
    )
