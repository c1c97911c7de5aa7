"""The Bishop (Premium, value 9): name a number and a player; a hit
scores a token, and the target may change their card."""

from __future__ import annotations

from typing import TYPE_CHECKING

from loveletter.cards._common import discard_and_draw
from loveletter.cards.base import CardRules, Choice, Naming
from loveletter.commands import Decline, Redraw
from loveletter.decisions import Decision
from loveletter.errors import IllegalCommand, RejectionKind
from loveletter.events import Event, OptionDeclined, RedrawOffered, TokenAwarded, TokenReason
from loveletter.kinds import Card
from loveletter.rules import implements

if TYPE_CHECKING:
    from loveletter.commands import Command, PlayCard
    from loveletter.state import GameState


@implements(
    "bishop.name-number-and-player",
    "bishop.correct-number-token",
    "bishop.partial-win-online",
    "bishop.target-may-redraw",
    "game.immediate-win",
    "targeting.choose-impossible-no-effect",
)
def bishop(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """A correct number gives the player a token at once (the engine checks
    it for an immediate win, ruling 30); the target is then offered to
    discard and redraw (ruling 27). The Bishop does not trigger the
    Assassin: only a Guard does."""
    target = command.target
    if target is None:
        return ()
    values = state.table.ruleset.values
    if not any(values[card] == command.guess for card in state.hands[target]):
        return ()
    player = command.player
    total = state.table.tokens[player] + 1
    return (TokenAwarded(player, TokenReason.BISHOP, total), RedrawOffered(target))


@implements("bishop.target-may-redraw", "prince.empty-deck-draws-set-aside")
def redraw(state: GameState, command: Command) -> tuple[Event, ...]:
    """The target's answer: discard without effect (the Princess knocks
    them out) and draw, from the set-aside card if the deck is empty; or
    keep their card."""
    if type(command) is Decline:
        return (OptionDeclined(command.player),)
    if type(command) is not Redraw:
        raise IllegalCommand(
            RejectionKind.WRONG_DECISION, "the Bishop's target must answer Redraw or Decline"
        )
    player = command.player
    return discard_and_draw(state, player, state.hands[player])


#: the Princess beats the Bishop at the showdown, whatever the Counts
#: (bishop.princess-beats-bishop, ruling 28); his 9 counts everywhere else
RULES = CardRules(
    Card.BISHOP,
    bishop,
    Choice.OTHER,
    Naming.ANYTHING,
    answer=redraw,
    pending=Decision.REDRAW,
    replaces=True,
    scores_when_played=True,
    loses_showdown_to=frozenset({Card.PRINCESS}),
)
