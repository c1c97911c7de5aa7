"""What the card modules share: reading hands, and the events they emit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from loveletter.events import (
    CardDiscarded,
    CardDrawn,
    EliminationReason,
    Event,
    HandsCompared,
    PlayerEliminated,
)
from loveletter.kinds import Card
from loveletter.rules import implements

if TYPE_CHECKING:
    from loveletter.cards.base import Showdown
    from loveletter.state import GameState


def remaining(hand: tuple[Card, ...], played: Card) -> tuple[Card, ...]:
    """The hand once ``played`` has left it (one copy only)."""
    index = hand.index(played)
    return hand[:index] + hand[index + 1 :]


@implements("out.destroyed-cards-online")
def discard_unresolved(state: GameState, player: int, cards: tuple[Card, ...]) -> list[Event]:
    """``player`` discards ``cards`` face up without their effects; a card
    that acts when discarded (the Princess) then does so."""
    rules = state.table.ruleset.rules
    events: list[Event] = []
    for card in cards:
        events.append(CardDiscarded(player, card))
        reaction = rules[card].when_discarded
        if reaction is not None:
            events.extend(reaction(player))
    return events


@implements(
    "prince.empty-deck-draws-set-aside",
    "assassin.discard-and-redraw",
    "out.destroyed-cards-online",
)
def draw_replacement(state: GameState, player: int) -> Event:
    """``player`` draws a card to replace a discarded one: the top of the
    deck, or the set-aside card when the deck is empty (rulings 9 and 38:
    a turn makes at most one such draw, and the round ends after it, so the
    set-aside card is always there)."""
    if state.deck:
        return CardDrawn(player, state.deck[0], False)
    assert state.set_aside is not None, "ruling 38: one empty-deck draw per turn"
    return CardDrawn(player, state.set_aside, True)


def discard_and_draw(state: GameState, player: int, cards: tuple[Card, ...]) -> tuple[Event, ...]:
    """Discard ``cards`` without effect, then draw a replacement unless the
    discard knocked ``player`` out (the Princess)."""
    events = discard_unresolved(state, player, cards)
    if any(type(e) is PlayerEliminated for e in events):
        return tuple(events)
    return (*events, draw_replacement(state, player))


def compare(
    state: GameState, player: int, played: Card, target: int, via: Card, lower_loses: bool
) -> tuple[Event, ...]:
    """A secret comparison of the player's remaining card with the target's
    (Baron: the lower is knocked out; Dowager Queen: the higher). Printed
    values: no showdown bonus applies here."""
    mine = remaining(state.hands[player], played)[0]
    theirs = state.hands[target][0]
    compared = HandsCompared(player, target, mine, theirs, via)
    values = state.table.ruleset.values
    if values[mine] == values[theirs]:
        return (compared,)
    player_loses = (values[mine] < values[theirs]) is lower_loses
    if lower_loses:
        reason = EliminationReason.BARON_COMPARISON
    else:
        reason = EliminationReason.DOWAGER_COMPARISON
    if player_loses:
        return (compared, PlayerEliminated(player, reason, (mine,)))
    return (compared, PlayerEliminated(target, reason, (theirs,)))


@implements("round.hand-bonus-online")
def lifted_by_two_counts(showdown: Showdown, holder: int) -> int:
    """Online (ruling 45), for a 7 (the Countess, the Dowager Queen): +4
    with two Counts or more in the holder's pile while another player still
    in the round holds the Princess and another a Bishop whose pile adds up
    to less than the holder's, so that a 7 lifted by both Counts beats the
    Princess exactly where Premium's pairwise showdown lets it."""
    if showdown.discards[holder].count(Card.COUNT) < 2:
        return 0
    others = [(seat, card) for seat, card in showdown.hands if seat != holder]
    if not any(card is Card.PRINCESS for _, card in others):
        return 0
    mine = showdown.total(holder)
    bishops = (seat for seat, card in others if card is Card.BISHOP)
    return 4 if any(showdown.total(seat) < mine for seat in bishops) else 0
