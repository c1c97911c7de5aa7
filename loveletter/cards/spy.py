"""The Spy (2019 edition, value 0)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from loveletter.cards.base import CardRules, RoundEnd, RoundEndBonus
from loveletter.events import Event, TokenReason
from loveletter.kinds import Card
from loveletter.rules import implements

if TYPE_CHECKING:
    from loveletter.commands import PlayCard
    from loveletter.state import GameState


@implements("spy.sole-spy-token", "spy.one-token-max", "spy.not-a-round-win")
def sole_spy(end: RoundEnd) -> tuple[int, ...]:
    """The player still in the round with a Spy in their pile, if they are
    the only one (one token, however many Spies they discarded; ruling 10)."""
    spies = [p for p in range(end.players) if p not in end.out and Card.SPY in end.discards[p]]
    return (spies[0],) if len(spies) == 1 else ()


@implements("spy.no-effect")
def played(state: GameState, command: PlayCard) -> tuple[Event, ...]:
    """No effect now: the Spy counts only from the pile at the round's end."""
    return ()


#: spy.no-effect: played or discarded, nothing happens at once
RULES = CardRules(
    Card.SPY, played, round_end_bonus=RoundEndBonus(TokenReason.SPY, sole_spy, once=True)
)
