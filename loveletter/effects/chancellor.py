from __future__ import annotations

from loveletter.commands import PlayCard
from loveletter.effects._common import chancellor_drew
from loveletter.events import Event
from loveletter.rules import implements
from loveletter.state import GameState


@implements(
    "chancellor.draw-two-keep-one",
    "chancellor.one-card-in-deck",
    "chancellor.empty-deck-no-effect",
)
def chancellor(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """Draw up to two cards; the keep-and-return choice is then pending."""
    drawn = state.deck[:2]
    if not drawn:
        return ()
    return (chancellor_drew(command.player, len(drawn), drawn),)
