"""Card kinds: :class:`Card`, the characters of every edition.

A :class:`Card` names a character, not a physical card: a deck holds several
copies of some kinds. A card's *value* belongs to the ruleset, not to the
kind (the Princess is worth 9 in the 2019 edition and 8 in Premium), so it is
looked up with :meth:`loveletter.rulesets.Ruleset.value`.

The kinds have a module of their own, below everything that names a card:
the events, the commands and the state name cards, and each card's rules
(:mod:`loveletter.cards`) build on those, so the kinds cannot live with the
rules without the two importing each other.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NoReturn


class Card(IntEnum):
    """A character kind. Its integer, :attr:`code`, is an identity code,
    never a value: a card's worth is the edition's,
    :meth:`loveletter.rulesets.Ruleset.value` (or
    :meth:`loveletter.views.PlayerView.value` for a bot), and reading
    ``card.value`` raises an ``AttributeError`` that says so.

    Codes give the canonical order used wherever the engine lists cards
    (legal commands, sorted decks): the ten kinds of the 2019 edition first,
    then the nine the Premium Edition adds. The order is only an order.
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
    def code(self) -> int:
        """The card's identity code: its place in the canonical order, the
        same in every edition and never its worth.

        >>> Card.PRINCESS.code, Card.BISHOP.code
        (9, 10)
        """
        return self._value_

    # The enum's own ``value`` is the identity code, which reads like the
    # number printed on the card and is wrong for a Premium Princess (8) or
    # any added card: hidden so that the worth is asked of the edition.
    # Enum internals (repr, pickle, ``Card(9)``) use ``_value_``, not this.
    @property
    def value(self) -> NoReturn:
        """Not available: a card's worth depends on the edition.

        Ask the edition: ``ruleset.value(card)`` or ``view.value(card)``;
        the identity code is :attr:`code`.

        >>> Card.PRINCESS.value  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        AttributeError: Card.PRINCESS.value: a card's worth depends on the edition: ...
        """
        raise AttributeError(
            f"Card.{self.name}.value: a card's worth depends on the edition: use"
            " ruleset.value(card) or view.value(card) (card.code is the identity code)",
            name="value",
            obj=self,
        )

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
