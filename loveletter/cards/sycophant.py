"""The Sycophant (Premium, value 4): the next card played must choose the
player it chose."""

from __future__ import annotations

from typing import TYPE_CHECKING

from loveletter.cards.base import CardRules, Choice
from loveletter.events import ChoiceRestricted, Event
from loveletter.kinds import Card
from loveletter.rules import implements

if TYPE_CHECKING:
    from loveletter.commands import PlayCard
    from loveletter.state import GameState


@implements("sycophant.next-card-must-choose", "targeting.choose-impossible-no-effect")
def sycophant(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """Record the requirement; the engine's targeting checks enforce it on
    the next card played and drop it then (ruling 34)."""
    target = command.target
    if target is None:  # unreachable through decide: it can always choose its player
        return ()
    return (ChoiceRestricted(command.player, target),)


RULES = CardRules(Card.SYCOPHANT, sycophant, Choice.ANY, restricts_next=True)
