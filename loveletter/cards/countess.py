"""The Countess (value 8 in 2019, 7 in Premium): no effect, but held with
the King or a Prince she must be played."""

from __future__ import annotations

from typing import TYPE_CHECKING

from loveletter.cards._common import lifted_by_two_counts
from loveletter.cards.base import CardRules
from loveletter.events import Event
from loveletter.kinds import Card
from loveletter.rules import implements

if TYPE_CHECKING:
    from loveletter.commands import PlayCard
    from loveletter.state import GameState


@implements("countess.forced-by-king-or-prince", "countess.voluntary", "game.rules-enforced")
def _forbidden() -> frozenset[Card]:
    # By name only: no other card forces her (rulings 15 and 26), and she
    # may always be played herself (ruling 17).
    return frozenset({Card.KING, Card.PRINCE})


@implements("countess.no-effect", "countess.hidden-reason")
def played(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """No effect; nothing is emitted, so no one learns whether she was forced."""
    return ()


#: countess.no-effect, countess.hidden-reason: playing her emits nothing,
#: so no one learns whether she was forced; round.hand-bonus-online: held at
#: a ranked round's end with two Counts in her pile she may be lifted by 4
RULES = CardRules(Card.COUNTESS, played, forbids=_forbidden(), hand_bonus=lifted_by_two_counts)
