"""What the card effects share: reading hands, and the events they emit."""

from __future__ import annotations

from loveletter.cards import Card
from loveletter.events import (
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    ChancellorDrew,
    EliminationReason,
    HandsCompared,
    HandSeen,
    HandsTraded,
    PlayerEliminated,
    PlayerProtected,
)
from loveletter.interning import interned

card_played = interned(CardPlayed)
card_discarded = interned(CardDiscarded)
card_drawn = interned(CardDrawn)
player_eliminated = interned(PlayerEliminated)
player_protected = interned(PlayerProtected)
hand_seen = interned(HandSeen)
hands_compared = interned(HandsCompared)
hands_traded = interned(HandsTraded)
chancellor_drew = interned(ChancellorDrew)

GUARD_GUESS = EliminationReason.GUARD_GUESS
BARON_COMPARISON = EliminationReason.BARON_COMPARISON
PRINCESS_DISCARDED = EliminationReason.PRINCESS_DISCARDED


def remaining(hand: tuple[Card, ...], played: Card) -> tuple[Card, ...]:
    """The hand once ``played`` has left it (one copy only)."""
    if hand[0] == played:
        return hand[1:]
    index = hand.index(played)
    return hand[:index] + hand[index + 1 :]
