"""The Baron (value 3): compare hands; the lower card is knocked out."""

from __future__ import annotations

from typing import TYPE_CHECKING

from loveletter.cards._common import compare
from loveletter.cards.base import CardRules, Choice, Shows
from loveletter.events import Event
from loveletter.kinds import Card
from loveletter.rules import implements

if TYPE_CHECKING:
    from loveletter.commands import PlayCard
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
    return compare(state, command.player, command.card, target, Card.BARON, lower_loses=True)


RULES = CardRules(Card.BARON, baron, Choice.OTHER, shows=Shows.BOTH_WAYS, knocks_out=True)
