from __future__ import annotations

from loveletter.commands import PlayCard
from loveletter.effects._common import PRINCESS_DISCARDED, player_eliminated, remaining
from loveletter.events import Event
from loveletter.rules import implements
from loveletter.state import GameState


@implements("princess.eliminated-when-played-or-discarded")
def princess(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """Playing the Princess knocks her player out, discarding the other card."""
    player = command.player
    rest = remaining(state.hands[player], command.card)
    return (player_eliminated(player, PRINCESS_DISCARDED, rest),)
