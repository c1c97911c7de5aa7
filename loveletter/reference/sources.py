"""The rulebooks as a reader names them.

The spec cites a rulebook by its file name in the project's shared folder
(``000_0fc648c025107d8d.txt``): a stable key, but not a name anyone knows.
Pages show which edition's rulebook and which section, with the file name
as a secondary key.
"""

from __future__ import annotations

import re

import attrs


@attrs.frozen
class Rulebook:
    key: str
    #: how a reader names it: "the 2019 rulebook (Z-Man Games, English)"
    name: str
    #: the shortest unambiguous name, used inside sentences
    short: str


_BOOKS = (
    Rulebook(
        "000_0fc648c025107d8d.txt",
        "Love Letter rulebook, Z-Man Games 2019, English",
        "2019 rulebook",
    ),
    Rulebook(
        "001_eea286074518aee2.txt",
        "Love Letter Premium Edition rulebook, AEG 2016, English",
        "Premium rulebook",
    ),
    Rulebook(
        "002_8b7d3a001be5e9ef.txt",
        "Love Letter rulebook, Z-Man Games 2019, Spanish translation",
        "Spanish 2019 rulebook",
    ),
    Rulebook(
        "003_8167dc184d0ea61a.txt",
        "Love Letter rulebook, Z-Man Games 2019, English (second transcription, "
        "with the Quick Reference page)",
        "second 2019 transcription",
    ),
    Rulebook(
        "004_2907a01eb608b1d2.txt",
        "Rules of the online perpetual variant",
        "online rules",
    ),
)

RULEBOOKS = {book.key: book for book in _BOOKS}
_BY_NUMBER = {book.key[:3]: book for book in _BOOKS}


def rulebook(file: str) -> Rulebook:
    """The rulebook a spec citation names; an unknown file keeps its name."""
    return RULEBOOKS.get(file, Rulebook(file, file, file))


def section_path(section: str) -> str:
    """A heading path as a reader follows it: "Card Effects › (5) Prince"."""
    return " › ".join(part.strip() for part in section.split(" / "))


#: how rulings and statements cite a book in running text: 000 "Setup"
_CITED = re.compile(r"(\bthe |\()?\b(00[0-4])\b(?!_)")


def readable(text: str) -> str:
    """Running text with the books' numbers (000, 001, ...) turned into the
    books' short names, the number kept in brackets as the key:
    ``000 "Setup"`` reads ``the 2019 rulebook [000] "Setup"``."""

    def name(match: re.Match[str]) -> str:
        before, number = match.group(1) or "", match.group(2)
        short = _BY_NUMBER[number].short
        if before == "(":
            return f"({short} [{number}]"
        opening = match.start() == 0 or text[: match.start()].rstrip().endswith(".")
        return f"{'The' if opening and not before else 'the'} {short} [{number}]"

    return _CITED.sub(name, text)
