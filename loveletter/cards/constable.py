"""The Constable (Premium, value 6): a token for its owner when they are
knocked out with it already in their discard pile."""

from __future__ import annotations

from typing import TYPE_CHECKING

from loveletter.cards.base import CardRules
from loveletter.events import Event, TokenReason
from loveletter.kinds import Card
from loveletter.rules import implements

if TYPE_CHECKING:
    from loveletter.commands import PlayCard
    from loveletter.state import GameState


@implements(
    "constable.knocked-out-token",
    "constable.no-effect",
    "game.immediate-win",
    "constable.partial-win-online",
)
def _token() -> TokenReason:
    # The engine looks at the pile as it was before the knock-out's own
    # discard, so a Constable still in hand scores nothing (ruling 29); the
    # token is an award step of its own unless the knock-out ends the round
    # (ruling 30).
    return TokenReason.CONSTABLE


@implements("constable.no-effect")
def played(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """No effect now: the Constable acts from the pile, on a knock-out."""
    return ()


RULES = CardRules(Card.CONSTABLE, played, knocked_out_token=_token())
