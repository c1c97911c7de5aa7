from __future__ import annotations

from loveletter.commands import PlayCard
from loveletter.effects._common import hand_seen
from loveletter.events import Event
from loveletter.rules import implements
from loveletter.state import GameState


@implements("priest.look-secretly", "handmaid.all-protected-no-effect")
def priest(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """The player sees the target's card; the event is redacted for others."""
    target = command.target
    if target is None:
        return ()
    return (hand_seen(command.player, target, state.hands[target][0]),)
