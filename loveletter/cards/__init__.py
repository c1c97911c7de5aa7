"""Card kinds, and (in this package's modules) each card's rules.

A :class:`Card` names a character, not a physical card: a deck holds several
copies of some kinds. A card's *value* belongs to the ruleset, not to the
kind (the Princess is worth 9 in the 2019 edition and 8 in Premium), so it is
looked up with :meth:`loveletter.rulesets.Ruleset.value`.

Each kind has one module here (``loveletter.cards.guard``, ...) holding all
of its rules: its effect when played and whatever it does at other moments
of a round (see :class:`loveletter.cards.base.CardRules`).
"""

from __future__ import annotations

from enum import IntEnum


class Card(IntEnum):
    """A character kind. The integer is an identity code, never a value.

    Codes give the canonical order used wherever the engine lists cards
    (legal commands, sorted decks): the ten kinds of the 2019 edition first,
    then the nine the Premium Edition adds. The order is only an order: a
    card's value is :meth:`loveletter.rulesets.Ruleset.value`.
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
    # Premium Edition, 5 to 8 players
    BISHOP = 10
    DOWAGER_QUEEN = 11
    CONSTABLE = 12
    COUNT = 13
    SYCOPHANT = 14
    BARONESS = 15
    CARDINAL = 16
    JESTER = 17
    ASSASSIN = 18

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


def typed_value(value: object) -> tuple[type, object]:
    """A guess as compared: a card never equals the number of its code
    (``Card.PRINCE == 5`` as integers, but naming the Prince is not naming
    5), so fields holding either compare on the type too."""
    return (type(value), value)
