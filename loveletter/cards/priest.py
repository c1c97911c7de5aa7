"""The Priest (value 2): look at another player's hand."""

from __future__ import annotations

from typing import TYPE_CHECKING

from loveletter.cards.base import CardRules, Choice, Shows
from loveletter.events import Event, HandSeen
from loveletter.kinds import Card
from loveletter.rules import implements

if TYPE_CHECKING:
    from loveletter.commands import PlayCard
    from loveletter.state import GameState


@implements("priest.look-secretly", "handmaid.all-protected-no-effect")
def priest(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """The player sees the target's card; the event is redacted for others."""
    target = command.target
    if target is None:
        return ()
    return (HandSeen(command.player, target, state.hands[target][0], Card.PRIEST),)


RULES = CardRules(Card.PRIEST, priest, Choice.OTHER, shows=Shows.TO_ITS_PLAYER)
