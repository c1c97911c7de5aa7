"""The Baroness (Premium, value 3): look at one or two other hands."""

from __future__ import annotations

from typing import TYPE_CHECKING

from loveletter.cards.base import CardRules, Choice, Shows
from loveletter.events import Event, HandSeen
from loveletter.kinds import Card
from loveletter.rules import implements

if TYPE_CHECKING:
    from loveletter.commands import PlayCard
    from loveletter.state import GameState


@implements("baroness.look-one-or-two", "targeting.choose-impossible-no-effect")
def baroness(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """The player sees each chosen hand; only they see the cards (ruling 36)."""
    player = command.player
    chosen = [seat for seat in (command.target, command.second_target) if seat is not None]
    return tuple(HandSeen(player, seat, state.hands[seat][0], Card.BARONESS) for seat in chosen)


@implements("baroness.two-looks-online", "targeting.choose-impossible-no-effect")
def baroness_online(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """Online (ruling 48): two looks, at the first chosen hand and then at
    the second, which may be the same player's; only its player sees them."""
    return baroness(state, command)


RULES = CardRules(Card.BARONESS, baroness, Choice.ONE_OR_TWO_OTHERS, shows=Shows.TO_ITS_PLAYER)
#: the online edition's Baroness: two other players, the same one allowed
ONLINE_RULES = CardRules(
    Card.BARONESS, baroness_online, Choice.TWO_OTHERS, shows=Shows.TO_ITS_PLAYER
)
