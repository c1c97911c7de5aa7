"""Card kinds.

A :class:`Card` names a character, not a physical card: a deck holds several
copies of some kinds. A card's *value* belongs to the ruleset, not to the
kind (the Princess is worth 9 in the 2019 edition and 8 in Premium), so it is
looked up with :meth:`loveletter.rulesets.Ruleset.value`.
"""

from __future__ import annotations

from enum import IntEnum


class Card(IntEnum):
    """A character kind. The integer is an identity code, never a value.

    Codes give the canonical order used wherever the engine lists cards
    (legal commands, sorted decks): it follows the 2019 card values, so
    ``sorted(cards)`` reads from Spy up to Princess.
    """

    SPY = 0
    GUARD = 1
    PRIEST = 2
    BARON = 3
    HANDMAID = 4
    PRINCE = 5
    CHANCELLOR = 6
    KING = 7
    COUNTESS = 8
    PRINCESS = 9

    @property
    def title(self) -> str:
        """The English card name, as written in conformance cases and JSON."""
        return _TITLES[self]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse a card name: ``"Guard"``, ``"guard"`` or ``"GUARD"``.

        >>> Card.parse("princess")
        <Card.PRINCESS: 9>
        """
        try:
            return _BY_NAME[text.replace(" ", "").replace("_", "").lower()]
        except (KeyError, AttributeError):
            raise ValueError(f"unknown card name {text!r}") from None

    def __str__(self) -> str:
        return _TITLES[self]


_TITLES = {card: card.name.replace("_", " ").title().replace(" ", "") for card in Card}
_BY_NAME = {title.lower(): card for card, title in _TITLES.items()}
