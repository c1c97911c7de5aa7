from __future__ import annotations

from loveletter.commands import PlayCard
from loveletter.effects._common import player_protected
from loveletter.events import Event
from loveletter.rules import implements
from loveletter.state import GameState


@implements("handmaid.protection-until-next-turn")
def handmaid(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """Protect the player until their next turn starts (ruling 7)."""
    return (player_protected(command.player),)
