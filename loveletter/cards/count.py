"""The Count (Premium, value 5): each one in its owner's pile adds 1 to
their hand at an empty-deck showdown."""

from __future__ import annotations

from typing import TYPE_CHECKING

from loveletter.cards.base import CardRules
from loveletter.events import Event
from loveletter.kinds import Card
from loveletter.rules import implements

if TYPE_CHECKING:
    from loveletter.commands import PlayCard
    from loveletter.state import GameState


@implements("count.showdown-bonus", "count.no-effect")
def _bonus() -> int:
    # Per copy, so two Counts add 2; never in a Baron or Dowager Queen
    # comparison, never in a discard-pile total (rulings 28 and 40).
    return 1


@implements("count.no-effect")
def played(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """No effect now: the Count acts from the pile, at the showdown."""
    return ()


RULES = CardRules(Card.COUNT, played, showdown_bonus=_bonus())
