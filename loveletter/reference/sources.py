"""The rulebooks as a reader names them.

The spec cites a rulebook by its file name in the project's shared folder
(``000_0fc648c025107d8d.txt``): a stable key for the project, but not a name
any player knows. Pages name the edition's rulebook and the section instead
("Love Letter, Z-Man Games 2019, “Card Effects › (5) Prince”"); the file
name never reaches a reader.
"""

from __future__ import annotations

import re

import attrs


@attrs.frozen
class Rulebook:
    """A rulebook the spec cites, with the names readers know it by."""

    #: the file name the spec cites it by, never shown to readers
    key: str
    #: how a citation names it: the game, its publisher and year
    name: str
    #: the shortest unambiguous name, used inside sentences
    short: str


# The two English transcriptions of the Z-Man rulebook (000, and 003 with its
# Quick Reference page) are one printed book: a reader is told the book and
# the section, which is where they would look it up.
_BOOKS = (
    Rulebook("000_0fc648c025107d8d.txt", "Love Letter, Z-Man Games 2019", "2019 rulebook"),
    Rulebook(
        "001_eea286074518aee2.txt", "Love Letter Premium Edition, AEG 2016", "Premium rulebook"
    ),
    Rulebook(
        "002_8b7d3a001be5e9ef.txt",
        "Love Letter, Z-Man Games 2019, Spanish edition",
        "Spanish 2019 rulebook",
    ),
    Rulebook("003_8167dc184d0ea61a.txt", "Love Letter, Z-Man Games 2019", "2019 rulebook"),
    Rulebook(
        "004_2907a01eb608b1d2.txt",
        "Love Letter online, perpetual variant, rules page",
        "online rules page",
    ),
)

RULEBOOKS = {book.key: book for book in _BOOKS}
_BY_NUMBER = {book.key[:3]: book for book in _BOOKS}

#: a rulebook's file name as the spec writes it: three digits, "_", a hash
HASHED_NAME = re.compile(r"\b\d{3}_[0-9a-f]{16}\.txt\b")


def rulebook(file: str) -> Rulebook:
    """The rulebook a spec citation names.

    A file the table above does not know is named "a rulebook of the
    project's sources": its file name is still not for readers.

    >>> rulebook("001_eea286074518aee2.txt").name
    'Love Letter Premium Edition, AEG 2016'
    """
    known = RULEBOOKS.get(file)
    if known is not None:
        return known
    return Rulebook(file, "a rulebook of the project's sources", "a source rulebook")


def section_path(section: str) -> str:
    """A heading path as a reader follows it: "Card Effects › (5) Prince"."""
    return " › ".join(part.strip() for part in section.split(" / "))


# not the thousands of a number ("5,000 ms")
_KEY = r"(?<![0-9][,.])(?P<number>00[0-4])(?:_[0-9a-f]{16}\.txt)?\b(?!_)"
#: a book's key right after the sentence named the book: "the online rules
#: (004)", "the Spanish rulebook (002, "0. Espía")"
_REPEATED = re.compile(r"\b(?P<named>rulebook|rules)\s*\(" + _KEY + r"(?P<after>\)|[,:;]\s*)")
#: how rulings and statements cite a book in running text: 000 "Setup",
#: (004's card table), or by its whole file name
_CITED = re.compile(r"(?P<before>\bthe |\()?\b" + _KEY + r"(?P<possessive>'s\b)?")


def readable(text: str) -> str:
    """Running text with the books' numbers (000, 001, ...) or file names
    turned into the books' short names: ``000 "Setup"`` reads
    ``the 2019 rulebook "Setup"``. A number that only repeats the book the
    sentence has just named goes: "the online rules (004)" reads "the
    online rules".

    >>> readable("In 001 SETUP it differs (004's card table).")
    "In the Premium rulebook SETUP it differs (the online rules page's card table)."
    >>> readable('The Spanish rulebook (002, "0. Espía") and the online rules (004) agree.')
    'The Spanish rulebook ("0. Espía") and the online rules agree.'
    """

    def repeated(match: re.Match[str]) -> str:
        return match.group("named") + ("" if match.group("after") == ")" else " (")

    def name(match: re.Match[str]) -> str:
        before = match.group("before") or ""
        short = _BY_NUMBER[match.group("number")].short
        named = f"the {short}"
        if match.group("possessive"):
            named += "'" if short.endswith("s") else "'s"
        if before == "(":
            return f"({named}"
        opening = match.string[: match.start()].rstrip().endswith(".") or match.start() == 0
        return named[0].upper() + named[1:] if opening and not before else named

    text = _CITED.sub(name, _REPEATED.sub(repeated, text))
    return HASHED_NAME.sub("a rulebook of the project's sources", text)
