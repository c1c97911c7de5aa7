from __future__ import annotations

from loveletter.commands import PlayCard
from loveletter.effects._common import GUARD_GUESS, player_eliminated
from loveletter.events import Event
from loveletter.rules import implements
from loveletter.state import GameState


@implements("guard.correct-guess-eliminates", "handmaid.all-protected-no-effect")
def guard(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """A correct guess knocks the target out; a wrong one does nothing."""
    target = command.target
    if target is None:
        return ()
    hand = state.hands[target]
    if command.guess in hand:
        return (player_eliminated(target, GUARD_GUESS, hand),)
    return ()
