"""The Count (Premium, value 5): each one in its owner's pile adds 1 to
their hand at an empty-deck showdown."""

from __future__ import annotations

from loveletter.cards import Card
from loveletter.cards.base import CardRules
from loveletter.rules import implements


@implements("count.showdown-bonus", "count.no-effect")
def _bonus() -> int:
    # Per copy, so two Counts add 2; never in a Baron or Dowager Queen
    # comparison, never in a discard-pile total (rulings 28 and 40).
    return 1


RULES = CardRules(Card.COUNT, showdown_bonus=_bonus())
