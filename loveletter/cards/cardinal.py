"""The Cardinal (Premium, value 2): two players trade hands; its player
may then look at one of the two."""

from __future__ import annotations

from typing import TYPE_CHECKING

from loveletter.cards._common import remaining
from loveletter.cards.base import CardRules, Choice, Shows
from loveletter.commands import Decline, LookAtHand
from loveletter.decisions import Decision
from loveletter.errors import IllegalCommand, RejectionKind
from loveletter.events import Event, HandSeen, HandsTraded, LookOffered, OptionDeclined
from loveletter.kinds import Card
from loveletter.rules import implements

if TYPE_CHECKING:
    from loveletter.commands import Command, PlayCard
    from loveletter.state import GameState


@implements(
    "cardinal.swap-two-players",
    "cardinal.optional-look",
    "targeting.choose-impossible-no-effect",
)
def cardinal(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """The two chosen players trade hands (a trade, not a discard: a moved
    Princess is safe); each learns what the other now holds (ruling 35).
    Then the look is offered."""
    first, second = command.target, command.second_target
    if first is None or second is None:
        return ()
    return (
        HandsTraded(first, second, Card.CARDINAL),
        LookOffered(command.player, (first, second)),
    )


@implements("cardinal.optional-look")
def look(state: GameState, command: Command) -> tuple[Event, ...]:
    """The Cardinal's player looks at one of the two hands, or declines."""
    if type(command) is Decline:
        return (OptionDeclined(command.player),)
    if type(command) is not LookAtHand:
        raise IllegalCommand(
            RejectionKind.WRONG_DECISION, "the Cardinal's player must answer LookAtHand or Decline"
        )
    owner = command.owner
    if type(owner) is not int:
        raise IllegalCommand(
            RejectionKind.MALFORMED_COMMAND, f"owner must be a seat, not {owner!r}"
        )
    if owner not in state.pending:
        raise IllegalCommand(
            RejectionKind.INVALID_CHOICE,
            f"look at the hand of player {state.pending[0]} or {state.pending[1]}",
        )
    return (HandSeen(command.player, owner, state.hands[owner][0], Card.CARDINAL),)


@implements(
    "cardinal.swap-and-look-first-online",
    "targeting.choose-impossible-no-effect",
)
def cardinal_online(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """Online (ruling 48): the two players, chosen in order, trade hands,
    then the Cardinal's player looks at the first one's new hand, which is
    no choice: a player who named themselves first sees their own new card
    (and learns nothing they did not know)."""
    first, second = command.target, command.second_target
    if first is None or second is None:
        return ()
    given = state.hands[second]
    if second == command.player:  # the Cardinal has left that hand by now
        given = remaining(given, command.card)
    return (
        HandsTraded(first, second, Card.CARDINAL),
        HandSeen(command.player, first, given[0], Card.CARDINAL),
    )


RULES = CardRules(
    Card.CARDINAL,
    cardinal,
    Choice.PAIR,
    answer=look,
    pending=Decision.LOOK,
    shows=Shows.CHOSEN_PAIR,
)
#: the online edition's Cardinal: an ordered pair, the look at the first
ONLINE_RULES = CardRules(
    Card.CARDINAL, cardinal_online, Choice.ORDERED_PAIR, shows=Shows.CHOSEN_PAIR
)
