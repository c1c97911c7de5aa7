"""The Guard (value 1): name a card (2019) or a number (Premium)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from loveletter.cards.base import CardRules, Choice, Naming
from loveletter.events import EliminationReason, Event, PlayerEliminated
from loveletter.kinds import Card
from loveletter.rules import implements

if TYPE_CHECKING:
    from loveletter.commands import PlayCard
    from loveletter.state import GameState


@implements(
    "guard.correct-guess-eliminates",
    "guard.name-number",
    "handmaid.all-protected-no-effect",
    "targeting.choose-impossible-no-effect",
)
def guard(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """A correct guess knocks the target out; a wrong one does nothing. A
    number hits every card of that number (ruling 23)."""
    target = command.target
    if target is None:
        return ()
    hand = state.hands[target]
    ruleset = state.table.ruleset
    guess = command.guess
    if ruleset.names_numbers:
        hit = any(ruleset.values[card] == guess for card in hand)
    else:
        hit = guess in hand
    if hit:
        return (PlayerEliminated(target, EliminationReason.GUARD_GUESS, hand),)
    return ()


#: guard.name-non-guard, guard.name-number: another player; anything the
#: deck holds but the Guard itself (rulings 5 and 23)
RULES = CardRules(Card.GUARD, guard, Choice.OTHER, Naming.ALL_BUT_OWN, knocks_out=True)
