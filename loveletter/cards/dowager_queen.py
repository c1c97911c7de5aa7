"""The Dowager Queen (Premium, value 7): compare hands; the higher card is
knocked out."""

from __future__ import annotations

from typing import TYPE_CHECKING

from loveletter.cards._common import compare, lifted_by_two_counts
from loveletter.cards.base import CardRules, Choice, Shows
from loveletter.events import Event
from loveletter.kinds import Card
from loveletter.rules import implements

if TYPE_CHECKING:
    from loveletter.commands import PlayCard
    from loveletter.state import GameState


@implements(
    "dowager-queen.compare-higher-out",
    "dowager-queen.tie-no-effect",
    "dowager-queen.secret-comparison",
    "targeting.choose-impossible-no-effect",
)
def dowager_queen(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """The Baron's mirror, by printed values (ruling 37)."""
    target = command.target
    if target is None:
        return ()
    return compare(
        state, command.player, command.card, target, Card.DOWAGER_QUEEN, lower_loses=False
    )


#: round.hand-bonus-online: held at a ranked round's end with two Counts in
#: her pile she may be lifted by 4, as the Countess (ruling 45)
RULES = CardRules(
    Card.DOWAGER_QUEEN,
    dowager_queen,
    Choice.OTHER,
    hand_bonus=lifted_by_two_counts,
    shows=Shows.BOTH_WAYS,
    knocks_out=True,
)
