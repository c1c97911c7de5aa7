"""The engine's public verbs: ``decide``, ``push``, ``step``, ``replay``,
``legal_commands`` and the start of a game.

The rules are defined by the reference path, one job to a module:
starting a game and dealing its rounds (:mod:`loveletter.dealing`),
deciding a command's events (:mod:`loveletter.deciding`, with whom a card
may choose in :mod:`loveletter.targeting` and what the events set off in
:mod:`loveletter.consequences`), applying events
(:mod:`loveletter.evolution`), the commands the rules allow
(:mod:`loveletter.legal`) and replaying a log
(:mod:`loveletter.replaying`). ``push(state, command)`` is ``evolve``
folded over ``decide(state, command)``; ``step`` gives both.

The verbs here are the only way in to the fast path
(:mod:`loveletter.fastpath`), which gives the same states and commands
with less work for the cases it covers; the property tests and the
conformance suite hold the two paths equal.
"""

from __future__ import annotations

from collections.abc import Iterable

from loveletter import fastpath
from loveletter.commands import Command
from loveletter.dealing import check_settings as check_settings
from loveletter.dealing import deal_events as deal_events
from loveletter.dealing import new_game as new_game
from loveletter.dealing import start_game as start_game
from loveletter.deciding import decide as decide
from loveletter.deciding import resolve
from loveletter.errors import IllegalCommand
from loveletter.events import Event
from loveletter.kinds import Card
from loveletter.notation import move_text
from loveletter.replaying import replay_commands as replay_commands_with
from loveletter.state import GameState


def push(state: GameState, command: Command) -> GameState:
    """The state after ``command``: ``evolve`` folded over ``decide``.

    Most turns take the fast path (:mod:`loveletter.fastpath`), which
    builds the same state without materializing the events; the two are
    kept equal by the property tests.

    A move written in the notation is read first with
    :func:`~loveletter.notation.parse_command`; text given here is refused
    (``malformed-command``) with a message that says so.
    """
    try:
        after = fastpath.push(state, command)
        if after is None:
            after = resolve(state, command)[1]
    except IllegalCommand as error:
        raise error.naming(move_text(command)) from None
    return after


def step(state: GameState, command: Command) -> tuple[GameState, tuple[Event, ...]]:
    """Both the next state and the events that lead to it: the events
    :func:`decide` gives, and the state ``push`` gives."""
    try:
        fast = fastpath.step(state, command)
        if fast is not None:
            return fast
        events, after = resolve(state, command)
    except IllegalCommand as error:
        raise error.naming(move_text(command)) from None
    return after, events


def legal_commands(state: GameState, card: Card | None = None) -> tuple[Command, ...]:
    """Every command the rules allow now, in a fixed order.

    Order: by card (``Card`` order), then target seat (``None`` first), then
    second target (``None`` first), then the named card or number; for a
    Chancellor, by kept card then returned order; for a Cardinal's look, by
    seat then ``Decline``; for a Bishop's target, ``Redraw`` then
    ``Decline``; between rounds the single ``StartRound()`` (a stacked deck
    or a chosen tied first player is accepted too). With ``card``, only the
    commands that play that card. (:func:`loveletter.legal.legal_commands`
    defines them; equal positions share one listing here.)
    """
    return fastpath.legal_commands(state, card)


def playable_cards(state: GameState) -> tuple[Card, ...]:
    """The distinct cards the player to act may play, in card order (empty
    unless a card must be played)."""
    return fastpath.playable_cards(state)


def _resolved(state: GameState, command: Command) -> tuple[tuple[Event, ...], GameState]:
    """:func:`loveletter.deciding.resolve`, through the fast path where it
    covers the command."""
    fast = fastpath.step(state, command)
    if fast is not None:
        return fast[1], fast[0]
    return resolve(state, command)


def replay(events: Iterable[Event]) -> GameState:
    """Rebuild a state from a complete (unredacted) event log, checking that
    the rules produce it.

    The log begins with ``GameStarted`` or ``PositionEstablished`` (whose
    position must be possible). Every later event belongs to the events of
    one command: the command is read from the first of them (a
    ``CardPlayed`` names its card, target and guess, a ``RoundStarted`` its
    deck, ...), :func:`decide` judges it against the state so far, and the
    log must hold exactly the events it gives, in order. So a forged log (a
    card dealt to seat -1, a round dealt 21 Princesses, a game of 10**9
    players, an effect that did not happen) raises
    :class:`~loveletter.errors.EventMismatch` whose ``index`` is the first
    event that no game could have, and a log cut in the middle of a
    command's events is refused too. The cost is one ``decide`` per
    command, each through the fast path where it covers it: less than
    playing the game again (:func:`loveletter.replaying.replay` judges
    every command by the reference's rules alone).
    """
    return replay_commands_with(events, _resolved)[0]


def replay_commands(events: Iterable[Event]) -> tuple[GameState, tuple[Command, ...]]:
    """:func:`replay`, also giving the commands the log implies, in order
    (a round's deal as ``StartRound`` with its deck and first player)."""
    return replay_commands_with(events, _resolved)
