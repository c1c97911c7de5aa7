"""What one player may know: :func:`view` of a state, :func:`events_for` of
an event stream.

Hidden information is a security boundary (ruling 14). A player sees their
own hand, every discard pile in order, who is out or protected, the tokens,
how many cards are in the deck and in each hand, the face-up cards of a
two-player round, what their own Priest, Baron, King, Baroness, Dowager
Queen or Cardinal showed them (a Cardinal's swap shows each of the two
players what the other now holds), the cards they put under the deck with a
Chancellor, the Sycophant's requirement and the Jester's marks, the
Assassin's reveal, and the hands revealed at an empty-deck round end. They
never see the deck order, the set-aside card, the seed, or another player's
hand otherwise.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, cast

import attrs

from loveletter.cards import Card
from loveletter.commands import Command
from loveletter.engine import legal_commands
from loveletter.errors import ArgumentError
from loveletter.events import (
    CardDealt,
    CardDrawn,
    CardSetAside,
    CardsReturned,
    ChancellorDrew,
    Event,
    GameStarted,
    HandsCompared,
    HandSeen,
    PositionEstablished,
    RoundStarted,
)
from loveletter.rules import implements
from loveletter.state import Decision, GameState, RoundResult, Sighting, TableSettings


@attrs.frozen
class PlayerView:
    """One player's knowledge of a game at one moment."""

    player: int
    ruleset: str
    players: int
    round_number: int
    turn_number: int
    tokens: tuple[int, ...]
    decision: Decision
    current: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    deck_size: int
    #: whether the face-down set-aside card is still there (never which it is)
    set_aside_present: bool
    face_up: tuple[Card, ...]
    discards: tuple[tuple[Card, ...], ...]
    out: tuple[int, ...]
    protected: tuple[int, ...]
    #: what this player has been shown this round, oldest first
    sightings: tuple[Sighting, ...]
    round_result: RoundResult | None
    winners: tuple[int, ...]
    #: the commands this player may give now (empty unless they must act)
    legal_commands: tuple[Command, ...]
    #: the bottom of the deck as far as this player put it there with a
    #: Chancellor: top first, ending with the bottom card, ``None`` where a
    #: card is not theirs to know; empty when they know nothing of it
    deck_bottom: tuple[Card | None, ...] = ()
    #: the player a Sycophant requires the next card played to choose
    required: int | None = None
    #: (Jester's player, marked player) pairs of this round
    marks: tuple[tuple[int, int], ...] = ()
    #: the players tied for the game, during a tie-break round
    contenders: tuple[int, ...] = ()
    #: the seats of the optional step pending (a Cardinal's look, a Bishop's redraw)
    pending: tuple[int, ...] = ()
    #: online: the table's settings (decks, time control)
    settings: TableSettings | None = None
    #: online: the round's turn order, first player first
    order: tuple[int, ...] = ()
    #: online: the players out of the round, in the order they went out
    exits: tuple[int, ...] = ()
    #: online: the seats that have left the match
    left: tuple[int, ...] = ()


@implements(
    "turn.played-cards-face-up",
    "priest.look-secretly",
    "baron.secret-comparison",
    "countess.hidden-reason",
    "baroness.look-one-or-two",
    "cardinal.optional-look",
    "dowager-queen.secret-comparison",
)
def view(state: GameState, player: int) -> PlayerView:
    """Everything ``player`` may know about ``state``, and nothing more."""
    _check_seat(state, player)
    return PlayerView(
        player=player,
        ruleset=state.ruleset.name,
        players=state.players,
        round_number=state.round_number,
        turn_number=state.turn_number,
        tokens=state.tokens,
        decision=state.decision,
        current=state.current,
        hand=state.hands[player],
        hand_sizes=tuple(map(len, state.hands)),
        deck_size=len(state.deck),
        set_aside_present=state.set_aside is not None,
        face_up=state.face_up,
        discards=state.discards,
        out=tuple(sorted(state.out)),
        protected=tuple(sorted(state.protected)),
        sightings=tuple(s for s in state.sightings if s.viewer == player),
        round_result=state.round_result,
        winners=state.winners,
        legal_commands=legal_commands(state) if state.to_act == player else (),
        deck_bottom=_deck_bottom(state, player),
        required=state.required,
        marks=state.marks,
        contenders=state.contenders,
        pending=state.pending,
        settings=state.table.settings,
        order=state.table.order,
        exits=state.exits,
        left=tuple(sorted(state.table.left)),
    )


@implements("chancellor.return-bottom-any-order")
def _deck_bottom(state: GameState, player: int) -> tuple[Card | None, ...]:
    """The cards ``player`` returned under the deck that are still in it.

    Returned cards go under the deck and draws come from the top, so the
    bottom of the deck is every return of the round, oldest first, less
    whatever draws have eaten into them from above."""
    returns = state.returns
    if not any(owner == player for owner, _ in returns):
        return ()
    owners = [owner for owner, count in returns for _ in range(count)]
    deck = state.deck
    kept = min(len(owners), len(deck))
    if kept == 0:
        return ()
    bottom = zip(owners[len(owners) - kept :], deck[len(deck) - kept :], strict=True)
    known = [card if owner == player else None for owner, card in bottom]
    while known and known[0] is None:
        known.pop(0)
    return tuple(known)


def _hide_all(field: str) -> Callable[[Any, int], Event]:
    def redact(event: Any, player: int) -> Event:
        return cast(Event, attrs.evolve(event, **{field: None}))

    return redact


def _owner_only(owner: str, field: str) -> Callable[[Any, int], Event]:
    def redact(event: Any, player: int) -> Event:
        if getattr(event, owner) == player:
            return cast(Event, event)
        return cast(Event, attrs.evolve(event, **{field: None}))

    return redact


def _compared(event: HandsCompared, player: int) -> Event:
    if player in (event.player, event.opponent):
        return event
    return attrs.evolve(event, player_card=None, opponent_card=None)


_REDACTORS: dict[type[Event], Callable[[Any, int], Event]] = {
    GameStarted: _hide_all("seed"),
    PositionEstablished: _hide_all("position"),
    RoundStarted: _hide_all("deck"),
    CardSetAside: _hide_all("card"),
    CardDealt: _owner_only("player", "card"),
    CardDrawn: _owner_only("player", "card"),
    HandSeen: _owner_only("viewer", "card"),
    HandsCompared: _compared,
    ChancellorDrew: _owner_only("player", "cards"),
    CardsReturned: _owner_only("player", "cards"),
}


def _check_seat(state: object, player: object) -> None:
    if not isinstance(state, GameState):
        raise ArgumentError("state", f"expected a GameState, not {type(state).__name__}")
    if type(player) is not int or not 0 <= player < state.players:
        text = repr(player) if type(player) is not int or abs(player) < 10**9 else "that number"
        raise ArgumentError("player", f"a seat from 0 to {state.players - 1}, not {text[:40]}")


def redact(event: Event, player: int) -> Event:
    """``event`` as ``player`` may see it: hidden fields set to ``None``."""
    redactor = _REDACTORS.get(type(event))
    return event if redactor is None else redactor(event, player)


def events_for(player: int, events: Iterable[Event]) -> tuple[Event, ...]:
    """The event stream as ``player`` may see it."""
    if type(player) is not int or player < 0:
        raise ArgumentError("player", f"a seat from 0, not {str(player)[:40]!r}")
    return tuple(redact(event, player) for event in events)
