"""The Chancellor (2019 edition, value 6): draw two, keep one, return two."""

from __future__ import annotations

from typing import TYPE_CHECKING

from loveletter.cards.base import CardRules
from loveletter.commands import KeepCard
from loveletter.decisions import Decision
from loveletter.errors import IllegalCommand, RejectionKind
from loveletter.events import CardsReturned, ChancellorDrew, Event
from loveletter.kinds import Card
from loveletter.rules import implements

if TYPE_CHECKING:
    from loveletter.commands import Command, PlayCard
    from loveletter.state import GameState


@implements(
    "chancellor.draw-two-keep-one",
    "chancellor.one-card-in-deck",
    "chancellor.empty-deck-no-effect",
)
def chancellor(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """Draw up to two cards; the keep-and-return choice is then pending."""
    drawn = state.deck[:2]
    if not drawn:
        return ()
    return (ChancellorDrew(command.player, len(drawn), drawn),)


@implements(
    "chancellor.draw-two-keep-one",
    "chancellor.return-bottom-any-order",
    "countess.not-during-chancellor",
)
def keep(state: GameState, command: Command) -> tuple[Event, ...]:
    """Keep one card of the hand and put the others under the deck in the
    order listed (ruling 4). The Countess lock does not apply (ruling 15)."""
    if type(command) is not KeepCard:
        raise IllegalCommand(
            RejectionKind.WRONG_DECISION, "the Chancellor's player must keep one card"
        )
    player = command.player
    hand = state.hands[player]
    bottom = command.bottom
    # The engine has refused cards of the wrong type or of another edition
    # before the decision and the turn (ruling 54).
    if sorted((command.keep, *bottom)) != sorted(hand):
        raise IllegalCommand(
            RejectionKind.INVALID_CHOICE,
            f"keep one card and return the other {len(hand) - 1} of {', '.join(map(str, hand))}",
        )
    return (CardsReturned(player, len(bottom), bottom),)


RULES = CardRules(Card.CHANCELLOR, chancellor, answer=keep, pending=Decision.CHANCELLOR, returns=2)
