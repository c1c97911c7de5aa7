"""Replaying: a state rebuilt from a complete event log, checked against
the rules (:func:`replay`), and the commands the log implies
(:func:`replay_commands`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from loveletter.commands import (
    Command,
    Decline,
    DrawCard,
    KeepCard,
    Leave,
    LookAtHand,
    PlayCard,
    Redraw,
    StartRound,
    TimeOut,
)
from loveletter.dealing import checked_setup
from loveletter.deciding import resolve
from loveletter.errors import EventMismatch, IllegalCommand, LoveLetterError, SetupError, short_repr
from loveletter.events import (
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardsReturned,
    Event,
    GameStarted,
    HandSeen,
    OptionDeclined,
    PlayerLeft,
    PositionEstablished,
    RoundStarted,
    TurnTimedOut,
)
from loveletter.evolution import initial_state
from loveletter.positions import Position, from_position
from loveletter.state import Decision, GameState
from loveletter.validation import short

#: how a command is judged: its events and the state after them, or
#: :class:`~loveletter.errors.IllegalCommand` (:func:`loveletter.deciding.resolve`)
Resolver = Callable[[GameState, Command], tuple[tuple[Event, ...], GameState]]


def replay(events: Iterable[Event], resolver: Resolver = resolve) -> GameState:
    """Rebuild a state from a complete (unredacted) event log, checking that
    the rules produce it, each command judged by ``resolver`` (the
    reference's rules unless given: :func:`loveletter.replay` passes one
    that takes the engine's fast path, held equal to them). The log's
    checks and refusals are described there.
    """
    return replay_commands(events, resolver)[0]


def replay_commands(
    events: Iterable[Event], resolver: Resolver = resolve
) -> tuple[GameState, tuple[Command, ...]]:
    """:func:`replay`, also giving the commands the log implies, in order
    (a round's deal as ``StartRound`` with its deck and first player)."""
    if isinstance(events, str | bytes) or not isinstance(events, Iterable):
        raise EventMismatch("an event log is a sequence of events")
    log = tuple(events)
    commands: list[Command] = []
    if not log:
        raise EventMismatch("an event log starts with GameStarted or PositionEstablished", 0)
    state = _opening_state(log[0])
    index = 1
    while index < len(log):
        command = _implied_command(state, log, index)
        try:
            produced, after = resolver(state, command)
        except IllegalCommand as error:
            raise EventMismatch(
                f"{type(log[index]).__name__} implies a command the rules refuse ({error})", index
            ) from None
        for offset, expected in enumerate(produced):
            at = index + offset
            if at >= len(log):
                raise EventMismatch(
                    f"the log ends inside a command's events: {type(expected).__name__}"
                    " and what follows are missing",
                    at,
                )
            if log[at] != expected:
                raise EventMismatch(
                    f"{short_repr(log[at])} is not what the rules make happen here:"
                    f" {short_repr(expected)}",
                    at,
                )
        state = after
        commands.append(command)
        index += len(produced)
    return state, tuple(commands)


def _opening_state(first: object) -> GameState:
    """The state the first event of a log creates, checked."""
    if isinstance(first, GameStarted):
        if first.seed is None:
            raise EventMismatch("a redacted GameStarted (no seed) cannot be replayed", 0)
        try:
            checked_setup(
                first.ruleset, first.players, first.seed, first.first_player, first.settings
            )
        except SetupError as error:
            raise EventMismatch(f"GameStarted.{error.field}: {error.detail}", 0) from None
        return initial_state(first)
    if isinstance(first, PositionEstablished):
        if not isinstance(first.position, Position):
            raise EventMismatch("a redacted PositionEstablished cannot be replayed", 0)
        try:
            return from_position(first.position)
        except LoveLetterError as error:
            raise EventMismatch(f"PositionEstablished.position: {error}", 0) from None
    raise EventMismatch(
        f"an event log starts with GameStarted or PositionEstablished, not {short_repr(first)}", 0
    )


def _implied_command(state: GameState, log: tuple[Event, ...], index: int) -> Command:
    """The command whose events begin at ``log[index]``."""
    event = log[index]
    kind = type(event)
    decision = state.decision
    if kind is CardPlayed:
        assert isinstance(event, CardPlayed)
        return PlayCard(event.player, event.card, event.target, event.guess, event.second_target)
    if kind is RoundStarted and decision is Decision.NEXT_ROUND:
        assert isinstance(event, RoundStarted)
        if event.deck is None:
            raise EventMismatch("a redacted RoundStarted (no deck) cannot be replayed", index)
        return StartRound(event.deck, event.first_player, event.order)
    if kind is CardsReturned and decision is Decision.CHANCELLOR:
        assert isinstance(event, CardsReturned)
        if not isinstance(event.cards, tuple):
            raise EventMismatch("a redacted CardsReturned cannot be replayed", index)
        kept = list(state.hands[state.current])
        for card in event.cards:
            if card not in kept:
                raise EventMismatch(f"player {state.current} does not hold {short(card)}", index)
            kept.remove(card)
        if len(kept) != 1:
            raise EventMismatch("a Chancellor keeps exactly one card", index)
        return KeepCard(event.player, kept[0], event.cards)
    if kind is HandSeen and decision is Decision.LOOK:
        assert isinstance(event, HandSeen)
        return LookAtHand(event.viewer, event.owner)
    if kind is OptionDeclined:
        assert isinstance(event, OptionDeclined)
        return Decline(event.player)
    if kind is CardDiscarded and decision is Decision.REDRAW:
        assert isinstance(event, CardDiscarded)
        return Redraw(event.player)
    if kind is CardDrawn and decision is Decision.DRAW:
        assert isinstance(event, CardDrawn)
        return DrawCard(event.player)
    if kind is PlayerLeft:
        assert isinstance(event, PlayerLeft)
        return Leave(event.player)
    if kind is TurnTimedOut:
        assert isinstance(event, TurnTimedOut)
        return TimeOut(event.player)
    raise EventMismatch(
        f"no command begins with {short_repr(event)} while the game waits for {decision.value!r}",
        index,
    )
