"""Applying events: ``evolve(state, event) -> state``.

Each event type has one applier. Appliers write to a private scratch copy of
the state's fields (a :class:`_Draft`) that lives only inside this module's
functions; :func:`apply_events` thaws a state once, applies a batch of events
and freezes the result once, which is what makes the immutable engine fast.
No state is ever changed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import attrs

from loveletter.cards import Card
from loveletter.events import (
    CardDealt,
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardRemovedFaceUp,
    CardSetAside,
    CardsReturned,
    ChancellorDrew,
    Event,
    GameEnded,
    GameStarted,
    HandsCompared,
    HandSeen,
    HandsTraded,
    PlayerEliminated,
    PlayerProtected,
    PositionEstablished,
    RoundEnded,
    RoundStarted,
    TokenAwarded,
    TurnStarted,
)
from loveletter.rules import implements
from loveletter.rulesets import get_ruleset
from loveletter.state import _FIELDS, Decision, GameState, RoundResult, Sighting, Table, build_state


class EventMismatch(ValueError):
    """An event that cannot follow this state (a forged or reordered log)."""


class _Draft:
    """Mutable scratch fields of one state under construction."""

    __slots__ = _FIELDS

    # The slots hold the same fields as GameState; declared for the type checker.
    table: Table
    decision: Decision
    current: int
    turn_number: int
    deck: tuple[Card, ...]
    hands: tuple[tuple[Card, ...], ...]
    discards: tuple[tuple[Card, ...], ...]
    out: frozenset[int]
    protected: frozenset[int]
    sightings: tuple[Sighting, ...]


def thaw(s: GameState) -> _Draft:
    d = _Draft()
    d.table = s.table
    d.decision = s.decision
    d.current = s.current
    d.turn_number = s.turn_number
    d.deck = s.deck
    d.hands = s.hands
    d.discards = s.discards
    d.out = s.out
    d.protected = s.protected
    d.sightings = s.sightings
    return d


def freeze(d: _Draft) -> GameState:
    return build_state(
        d.table,
        d.decision,
        d.current,
        d.turn_number,
        d.deck,
        d.hands,
        d.discards,
        d.out,
        d.protected,
        d.sightings,
    )


def _replaced(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return items[:index] + (value,) + items[index + 1 :]


def _without(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    if hand and hand[0] == card:
        return hand[1:]
    try:
        index = hand.index(card)
    except ValueError:
        raise EventMismatch(f"{card} is not in hand {list(map(str, hand))}") from None
    return hand[:index] + hand[index + 1 :]


def _pop_top(d: _Draft, card: Card | None) -> None:
    if not d.deck or d.deck[0] != card:
        raise EventMismatch(f"the top of the deck is not {card}")
    d.deck = d.deck[1:]


@implements("round.new-round-setup")
def _round_started(d: _Draft, e: RoundStarted) -> None:
    if e.deck is None:
        raise EventMismatch("a redacted RoundStarted cannot be replayed")
    n = d.table.players
    d.table = attrs.evolve(
        d.table, round_number=e.round_number, set_aside=None, face_up=(), round_result=None
    )
    d.turn_number = 0
    d.decision = Decision.DRAW
    d.current = e.first_player
    d.deck = e.deck
    d.hands = ((),) * n
    d.discards = ((),) * n
    d.out = frozenset()
    d.protected = frozenset()
    d.sightings = ()


def _card_set_aside(d: _Draft, e: CardSetAside) -> None:
    _pop_top(d, e.card)
    d.table = attrs.evolve(d.table, set_aside=e.card)


def _card_removed_face_up(d: _Draft, e: CardRemovedFaceUp) -> None:
    _pop_top(d, e.card)
    d.table = attrs.evolve(d.table, face_up=(*d.table.face_up, e.card))


def _card_dealt(d: _Draft, e: CardDealt) -> None:
    _pop_top(d, e.card)
    d.hands = _replaced(d.hands, e.player, (*d.hands[e.player], e.card))


def _turn_started(d: _Draft, e: TurnStarted) -> None:
    d.current = e.player
    d.decision = Decision.DRAW
    d.turn_number += 1
    if e.player in d.protected:
        d.protected = d.protected - {e.player}


def _card_drawn(d: _Draft, e: CardDrawn) -> None:
    card = e.card
    if e.from_set_aside:
        if d.table.set_aside != card or card is None:
            raise EventMismatch(f"the set-aside card is not {card}")
        d.table = attrs.evolve(d.table, set_aside=None)
    else:
        _pop_top(d, card)
    player = e.player
    d.hands = _replaced(d.hands, player, (*d.hands[player], card))
    if d.decision is Decision.DRAW and player == d.current:
        d.decision = Decision.PLAY  # the turn's own draw


def _card_played(d: _Draft, e: CardPlayed) -> None:
    player = e.player
    d.hands = _replaced(d.hands, player, _without(d.hands[player], e.card))
    d.discards = _replaced(d.discards, player, (*d.discards[player], e.card))


def _card_discarded(d: _Draft, e: CardDiscarded) -> None:
    player = e.player
    d.hands = _replaced(d.hands, player, _without(d.hands[player], e.card))
    d.discards = _replaced(d.discards, player, (*d.discards[player], e.card))


@implements("out.discard-hand", "out.untargetable")
def _player_eliminated(d: _Draft, e: PlayerEliminated) -> None:
    player = e.player
    if sorted(d.hands[player]) != sorted(e.discarded):
        raise EventMismatch(f"player {player} does not hold {list(map(str, e.discarded))}")
    d.hands = _replaced(d.hands, player, ())
    d.discards = _replaced(d.discards, player, d.discards[player] + e.discarded)
    d.out = d.out | {player}
    if player in d.protected:
        d.protected = d.protected - {player}


def _player_protected(d: _Draft, e: PlayerProtected) -> None:
    d.protected = d.protected | {e.player}


def _hand_seen(d: _Draft, e: HandSeen) -> None:
    if e.card is None:
        raise EventMismatch("a redacted HandSeen cannot be replayed")
    d.sightings = (*d.sightings, Sighting(e.viewer, e.owner, e.card, d.turn_number, Card.PRIEST))


def _hands_compared(d: _Draft, e: HandsCompared) -> None:
    if e.player_card is None or e.opponent_card is None:
        raise EventMismatch("a redacted HandsCompared cannot be replayed")
    turn = d.turn_number
    d.sightings = (
        *d.sightings,
        Sighting(e.player, e.opponent, e.opponent_card, turn, Card.BARON),
        Sighting(e.opponent, e.player, e.player_card, turn, Card.BARON),
    )


def _hands_traded(d: _Draft, e: HandsTraded) -> None:
    hands = list(d.hands)
    mine, theirs = hands[e.player], hands[e.opponent]
    hands[e.player], hands[e.opponent] = theirs, mine
    d.hands = tuple(hands)
    turn = d.turn_number
    d.sightings = (
        *d.sightings,
        *(Sighting(e.player, e.opponent, card, turn, Card.KING) for card in mine),
        *(Sighting(e.opponent, e.player, card, turn, Card.KING) for card in theirs),
    )


def _chancellor_drew(d: _Draft, e: ChancellorDrew) -> None:
    cards = e.cards
    if cards is None or d.deck[: len(cards)] != cards:
        raise EventMismatch("the Chancellor's cards are not the top of the deck")
    d.deck = d.deck[len(cards) :]
    d.hands = _replaced(d.hands, e.player, d.hands[e.player] + cards)
    d.decision = Decision.CHANCELLOR


def _cards_returned(d: _Draft, e: CardsReturned) -> None:
    cards = e.cards
    if cards is None:
        raise EventMismatch("a redacted CardsReturned cannot be replayed")
    hand = d.hands[e.player]
    for card in cards:
        hand = _without(hand, card)
    d.hands = _replaced(d.hands, e.player, hand)
    d.deck = d.deck + cards
    d.decision = Decision.PLAY


def _round_ended(d: _Draft, e: RoundEnded) -> None:
    d.table = attrs.evolve(d.table, round_result=RoundResult(e.reason, e.winners, e.revealed))
    d.decision = Decision.NEXT_ROUND
    d.protected = frozenset()


def _token_awarded(d: _Draft, e: TokenAwarded) -> None:
    tokens = d.table.tokens
    if tokens[e.player] + 1 != e.total:
        raise EventMismatch(f"player {e.player} would have {tokens[e.player] + 1}, not {e.total}")
    d.table = attrs.evolve(d.table, tokens=_replaced(tokens, e.player, e.total))


def _game_ended(d: _Draft, e: GameEnded) -> None:
    d.decision = Decision.GAME_OVER
    d.table = attrs.evolve(d.table, winners=e.winners)


def _game_started(d: _Draft, e: GameStarted) -> None:
    raise EventMismatch("GameStarted can only begin a log (use replay)")


def _position_established(d: _Draft, e: PositionEstablished) -> None:
    raise EventMismatch("PositionEstablished can only begin a log (use replay)")


_APPLIERS: dict[type[Event], Callable[[_Draft, Any], None]] = {
    RoundStarted: _round_started,
    CardSetAside: _card_set_aside,
    CardRemovedFaceUp: _card_removed_face_up,
    CardDealt: _card_dealt,
    TurnStarted: _turn_started,
    CardDrawn: _card_drawn,
    CardPlayed: _card_played,
    CardDiscarded: _card_discarded,
    PlayerEliminated: _player_eliminated,
    PlayerProtected: _player_protected,
    HandSeen: _hand_seen,
    HandsCompared: _hands_compared,
    HandsTraded: _hands_traded,
    ChancellorDrew: _chancellor_drew,
    CardsReturned: _cards_returned,
    RoundEnded: _round_ended,
    TokenAwarded: _token_awarded,
    GameEnded: _game_ended,
    GameStarted: _game_started,
    PositionEstablished: _position_established,
}


def apply_to_draft(d: _Draft, events: Iterable[Event]) -> None:
    appliers = _APPLIERS
    for event in events:
        appliers[type(event)](d, event)


def evolve(state: GameState, event: Event) -> GameState:
    """The state after ``event``. Raises :class:`EventMismatch` for an event
    that cannot follow ``state``."""
    d = thaw(state)
    _APPLIERS[type(event)](d, event)
    return freeze(d)


def apply_events(state: GameState, events: Iterable[Event]) -> GameState:
    """``evolve`` folded over ``events``, building one new state."""
    d = thaw(state)
    apply_to_draft(d, events)
    return freeze(d)


def initial_state(event: GameStarted) -> GameState:
    """The state a :class:`GameStarted` event creates: seats and tokens, no
    round yet."""
    if event.seed is None:
        raise EventMismatch("a redacted GameStarted cannot be replayed")
    ruleset = get_ruleset(event.ruleset)
    n = event.players
    return GameState(
        table=Table(
            ruleset=ruleset,
            players=n,
            seed=event.seed,
            tokens=(0,) * n,
            round_number=0,
            set_aside=None,
            face_up=(),
            round_result=None,
            winners=(),
        ),
        decision=Decision.NEXT_ROUND,
        current=event.first_player,
        turn_number=0,
        deck=(),
        hands=((),) * n,
        discards=((),) * n,
        out=frozenset(),
        protected=frozenset(),
        sightings=(),
    )
