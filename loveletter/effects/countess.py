from __future__ import annotations

from loveletter.commands import PlayCard
from loveletter.events import Event
from loveletter.rules import implements
from loveletter.state import GameState


@implements("countess.no-effect", "countess.hidden-reason")
def countess(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """No effect; whether she was forced stays hidden (nothing is emitted)."""
    return ()
