from __future__ import annotations

from loveletter.commands import PlayCard
from loveletter.effects._common import (
    BARON_COMPARISON,
    hands_compared,
    player_eliminated,
    remaining,
)
from loveletter.events import Event
from loveletter.rules import implements
from loveletter.state import GameState


@implements(
    "baron.compare-lower-out",
    "baron.tie-no-effect",
    "baron.secret-comparison",
    "handmaid.all-protected-no-effect",
)
def baron(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """Compare the player's remaining card with the target's; the lower is out."""
    target = command.target
    if target is None:
        return ()
    player = command.player
    mine = remaining(state.hands[player], command.card)[0]
    theirs = state.hands[target][0]
    compared = hands_compared(player, target, mine, theirs)
    values = state.ruleset.values
    if values[mine] > values[theirs]:
        return (compared, player_eliminated(target, BARON_COMPARISON, (theirs,)))
    if values[mine] < values[theirs]:
        return (compared, player_eliminated(player, BARON_COMPARISON, (mine,)))
    return (compared,)
