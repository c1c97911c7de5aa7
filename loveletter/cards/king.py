"""The King (value 7 in 2019, 6 in Premium): trade hands."""

from __future__ import annotations

from typing import TYPE_CHECKING

from loveletter.cards.base import CardRules, Choice, Shows
from loveletter.events import Event, HandsTraded
from loveletter.kinds import Card
from loveletter.rules import implements

if TYPE_CHECKING:
    from loveletter.commands import PlayCard
    from loveletter.state import GameState


@implements("king.trade-hands", "handmaid.all-protected-no-effect")
def king(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """The player and the target swap the cards in their hands."""
    target = command.target
    if target is None:
        return ()
    return (HandsTraded(command.player, target, Card.KING),)


RULES = CardRules(Card.KING, king, Choice.OTHER, shows=Shows.BOTH_WAYS)
