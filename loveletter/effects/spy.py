from __future__ import annotations

from loveletter.commands import PlayCard
from loveletter.events import Event
from loveletter.rules import implements
from loveletter.state import GameState


@implements("spy.no-effect")
def spy(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """No effect now; the discard pile counts at round end (spy.sole-spy-token)."""
    return ()
