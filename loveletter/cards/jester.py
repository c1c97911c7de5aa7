"""The Jester (Premium, value 0): bet on the round's winner."""

from __future__ import annotations

from typing import TYPE_CHECKING

from loveletter.cards.base import CardRules, Choice, RoundEnd, RoundEndBonus
from loveletter.events import Event, PlayerMarked, TokenReason
from loveletter.kinds import Card
from loveletter.rules import implements

if TYPE_CHECKING:
    from loveletter.commands import PlayCard
    from loveletter.state import GameState


@implements("jester.mark-expected-winner", "targeting.choose-impossible-no-effect")
def jester(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """Mark the chosen player; only a played Jester marks (ruling 32)."""
    target = command.target
    if target is None:
        return ()
    return (PlayerMarked(command.player, target),)


@implements("jester.mark-expected-winner", "jester.partial-win-online")
def right_guesses(end: RoundEnd) -> tuple[int, ...]:
    """The Jesters' players whose marked player won the round, shared wins
    included, whether or not they are still in the round themselves."""
    return tuple(player for player, marked in end.marks if marked in end.winners)


RULES = CardRules(
    Card.JESTER,
    jester,
    Choice.OTHER,
    round_end_bonus=RoundEndBonus(TokenReason.JESTER, right_guesses),
    marks=True,
)
