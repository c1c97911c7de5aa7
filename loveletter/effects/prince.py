from __future__ import annotations

from loveletter.cards import Card
from loveletter.commands import PlayCard
from loveletter.effects._common import (
    PRINCESS_DISCARDED,
    card_discarded,
    card_drawn,
    player_eliminated,
    remaining,
)
from loveletter.events import Event
from loveletter.rules import implements
from loveletter.state import GameState


@implements(
    "prince.any-player",
    "prince.discard-and-draw",
    "prince.empty-deck-draws-set-aside",
    "prince.princess-discard-eliminates",
    "princess.eliminated-when-played-or-discarded",
    "handmaid.all-protected-prince-self",
)
def prince(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """The target discards their hand unresolved and draws a new card."""
    target = command.target
    if target is None:  # unreachable through decide: the Prince can always choose its player
        return ()
    hand = state.hands[target]
    if target == command.player:  # ruling 16: the card left after playing the Prince
        hand = remaining(hand, command.card)
    events: list[Event] = [card_discarded(target, card) for card in hand]
    if Card.PRINCESS in hand:
        events.append(player_eliminated(target, PRINCESS_DISCARDED, ()))
    elif state.deck:
        events.append(card_drawn(target, state.deck[0], False))
    elif state.set_aside is not None:
        # Ruling 9: only this draw can take the set-aside card, and the round
        # ends after the turn, so it is always there when needed.
        events.append(card_drawn(target, state.set_aside, True))
    return tuple(events)
