"""The Baroness (Premium, value 3): look at one or two other hands."""

from __future__ import annotations

from typing import TYPE_CHECKING

from loveletter.cards import Card
from loveletter.cards._common import hand_seen
from loveletter.cards.base import CardRules, Choice
from loveletter.events import Event
from loveletter.rules import implements

if TYPE_CHECKING:
    from loveletter.commands import PlayCard
    from loveletter.state import GameState


@implements("baroness.look-one-or-two", "targeting.choose-impossible-no-effect")
def baroness(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """The player sees each chosen hand; only they see the cards (ruling 36)."""
    player = command.player
    chosen = [seat for seat in (command.target, command.second_target) if seat is not None]
    return tuple(hand_seen(player, seat, state.hands[seat][0], Card.BARONESS) for seat in chosen)


RULES = CardRules(Card.BARONESS, baroness, Choice.ONE_OR_TWO_OTHERS)
