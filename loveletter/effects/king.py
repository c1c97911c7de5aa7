from __future__ import annotations

from loveletter.commands import PlayCard
from loveletter.effects._common import hands_traded
from loveletter.events import Event
from loveletter.rules import implements
from loveletter.state import GameState


@implements("king.trade-hands", "handmaid.all-protected-no-effect")
def king(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """The player and the target swap the cards in their hands."""
    target = command.target
    if target is None:
        return ()
    return (hands_traded(command.player, target),)
