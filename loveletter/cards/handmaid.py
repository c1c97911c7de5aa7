"""The Handmaid (value 4): protection until one's next turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from loveletter.cards.base import CardRules
from loveletter.events import Event, PlayerProtected
from loveletter.kinds import Card
from loveletter.rules import implements

if TYPE_CHECKING:
    from loveletter.commands import PlayCard
    from loveletter.state import GameState


@implements("handmaid.protection-until-next-turn")
def handmaid(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """Protect the player until their next turn starts (ruling 7). While
    protected they cannot be chosen by any card (ruling 24): the engine's
    targeting checks read the protected set."""
    return (PlayerProtected(command.player),)


RULES = CardRules(Card.HANDMAID, handmaid, protects=True)
