"""The Prince (value 5): a player discards their hand and draws anew."""

from __future__ import annotations

from typing import TYPE_CHECKING

from loveletter.cards._common import discard_and_draw, remaining
from loveletter.cards.base import CardRules, Choice
from loveletter.events import Event
from loveletter.kinds import Card
from loveletter.rules import implements

if TYPE_CHECKING:
    from loveletter.commands import PlayCard
    from loveletter.state import GameState


@implements(
    "prince.any-player",
    "prince.discard-and-draw",
    "prince.empty-deck-draws-set-aside",
    "prince.princess-discard-eliminates",
    "handmaid.all-protected-prince-self",
)
def prince(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """The target discards their hand unresolved and draws a new card; a
    discarded Princess knocks them out instead (her own rules)."""
    target = command.target
    if target is None:  # unreachable through decide: the Prince can always choose its player
        return ()
    hand = state.hands[target]
    if target == command.player:  # ruling 16: the card left after playing the Prince
        hand = remaining(hand, command.card)
    return discard_and_draw(state, target, hand)


RULES = CardRules(Card.PRINCE, prince, Choice.ANY, replaces=True)
