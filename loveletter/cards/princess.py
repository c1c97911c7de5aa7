"""The Princess (value 9 in 2019, 8 in Premium): discarding her, for
any reason, knocks her player out."""

from __future__ import annotations

from typing import TYPE_CHECKING

from loveletter.cards._common import remaining
from loveletter.cards.base import CardRules, Showdown
from loveletter.events import EliminationReason, Event, PlayerEliminated
from loveletter.kinds import Card
from loveletter.rules import implements

if TYPE_CHECKING:
    from loveletter.commands import PlayCard
    from loveletter.state import GameState


@implements("princess.eliminated-when-played-or-discarded")
def princess(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """Playing the Princess knocks her player out, discarding the other card."""
    player = command.player
    rest = remaining(state.hands[player], command.card)
    return (PlayerEliminated(player, EliminationReason.PRINCESS_DISCARDED, rest),)


@implements(
    "princess.eliminated-when-played-or-discarded",
    "prince.princess-discard-eliminates",
    "princess.knock-out-effects-apply",
)
def discarded(player: int) -> tuple[Event, ...]:
    """Discarded without being played (a Prince, a Bishop's redraw): her
    player is out and the rest of that effect (the draw) does not happen;
    effects of being knocked out (a Constable) still do."""
    return (PlayerEliminated(player, EliminationReason.PRINCESS_DISCARDED, ()),)


@implements("round.hand-bonus-online")
def lifted_over_bishop(showdown: Showdown, holder: int) -> int:
    """Online (ruling 45): +4 while another player still in the round holds
    a Bishop, so that she outranks him as in Premium's showdown."""
    others = (card for seat, card in showdown.hands if seat != holder)
    return 4 if Card.BISHOP in others else 0


#: bishop.princess-beats-bishop: a showdown cycle goes to her (ruling 28)
RULES = CardRules(
    Card.PRINCESS,
    princess,
    when_discarded=discarded,
    wins_showdown_cycle=True,
    hand_bonus=lifted_over_bishop,
)
