"""The Assassin (Premium, value 0): a Guard that chooses its holder knocks
out its own player instead."""

from __future__ import annotations

from typing import TYPE_CHECKING

from loveletter.cards._common import discard_and_draw, remaining
from loveletter.cards.base import CardRules
from loveletter.events import CardRevealed, EliminationReason, Event, PlayerEliminated
from loveletter.kinds import Card
from loveletter.rules import implements

if TYPE_CHECKING:
    from loveletter.commands import PlayCard
    from loveletter.state import GameState


@implements(
    "assassin.guard-player-knocked-out",
    "assassin.discard-and-redraw",
    "princess.knock-out-effects-apply",
)
def answer_guard(state: GameState, command: PlayCard, holder: int) -> tuple[Event, ...] | None:
    """Chosen by a Guard, whatever it named: the reveal is public, the
    Guard's player is out, and the holder swaps the Assassin for a new card.
    The engine stops after the knock-out if it ends the round or the game
    (rulings 33 and 39)."""
    if command.card is not Card.GUARD:
        return None
    guard_player = command.player
    left = remaining(state.hands[guard_player], command.card)
    return (
        CardRevealed(holder, Card.ASSASSIN),
        PlayerEliminated(guard_player, EliminationReason.ASSASSIN, left),
        *discard_and_draw(state, holder, (Card.ASSASSIN,)),
    )


@implements("assassin.no-effect")
def played(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """Played (or discarded) he does nothing: he acts only while held."""
    return ()


#: assassin.no-effect: played or discarded, he does nothing
RULES = CardRules(Card.ASSASSIN, played, when_holder_chosen=answer_guard, replaces=True)
