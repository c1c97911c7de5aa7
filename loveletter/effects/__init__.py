"""Card effects: one pure function per card.

Each takes the state *before* the card leaves its player's hand and the
validated :class:`~loveletter.commands.PlayCard`, and returns the events the
effect causes (the ``CardPlayed`` event itself is emitted by the engine).
"""

from __future__ import annotations

from collections.abc import Callable

from loveletter.cards import Card
from loveletter.commands import PlayCard
from loveletter.effects.baron import baron
from loveletter.effects.chancellor import chancellor
from loveletter.effects.countess import countess
from loveletter.effects.guard import guard
from loveletter.effects.handmaid import handmaid
from loveletter.effects.king import king
from loveletter.effects.priest import priest
from loveletter.effects.prince import prince
from loveletter.effects.princess import princess
from loveletter.effects.spy import spy
from loveletter.events import Event
from loveletter.state import GameState

Effect = Callable[[GameState, PlayCard], tuple[Event, ...]]

_BY_CARD: dict[Card, Effect] = {
    Card.SPY: spy,
    Card.GUARD: guard,
    Card.PRIEST: priest,
    Card.BARON: baron,
    Card.HANDMAID: handmaid,
    Card.PRINCE: prince,
    Card.CHANCELLOR: chancellor,
    Card.KING: king,
    Card.COUNTESS: countess,
    Card.PRINCESS: princess,
}

#: effect functions indexed by card code
EFFECTS: tuple[Effect, ...] = tuple(_BY_CARD[card] for card in Card)

__all__ = [
    "EFFECTS",
    "Effect",
    "baron",
    "chancellor",
    "countess",
    "guard",
    "handmaid",
    "king",
    "priest",
    "prince",
    "princess",
    "spy",
]
