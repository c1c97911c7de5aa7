"""The host's clock of an online table: who must act, by when, and what the
host sends when the time is up.

The engine keeps no time. A host that runs an online match keeps it, and
this module tells it what the time means, as a pure function of the state,
the table's settings and a time in milliseconds: it reads no clock and never
sleeps, so a test drives it with a fake clock and a host with its own.

Ruling 51 (time-outs): a player who must act (the current player, or a
Bishop's target deciding whether to discard and redraw, who gets a wait of
their own) has ``turn_time_ms`` from the moment that wait began. Time left
over is lost: every wait starts afresh, and there is no clock for the whole
game. When the time is up and the table makes random moves, the host sends
``TimeOut(player)``; the engine answers with ``TurnTimedOut`` and the events
of a legal move it draws from the game's seed, so the record replays
exactly. When the table makes no random moves, the host sends nothing: the
game waits for the player (a ``TimeOut`` would be refused,
``random-moves-off``).

Ruling 52 (table settings and time control as data): the settings are part
of the game (``GameStarted.settings``, :class:`~loveletter.TableSettings`):
the number of decks (1 to 3), the turn time (5,000 to 60,000 ms, 20,000 by
default), random moves (on by default) and the intermission between rounds
(0 to 30,000 ms, 30,000 by default). Only the decks and random moves change
what the engine does; the times and the players' readiness are the host's
business, and this module's. The intermission ends when its time is up or
as soon as every player still present says they are ready, whichever comes
first; then the host deals the next round with ``StartRound()``.

A host's loop, with ``now()`` its own clock::

    since = now()  # the game was dealt
    while not state.is_over:
        due = deadline(state, since, ready=ready_players)
        # a player's command, or None once due.due_ms has passed; with
        # random moves off (due.command is None) there is no limit
        limit = due.due_ms if due.command is not None else None
        command = next_command_from_a_player(until=limit) or due.command
        before, state = state, push(state, command)
        if starts_wait(before, state):
            since = now()

The time a wait began is the time of the accepted command that began it.
A player who leaves while someone else is to act begins no wait
(:func:`starts_wait` says so): the one to act keeps their deadline.

>>> import loveletter as ll
>>> state = ll.new_game("online", 4, seed=1)
>>> deadline(state, since_ms=1_000)
Deadline(player=2, due_ms=21000, command=TimeOut(player=2))
>>> off = ll.TableSettings(random_moves=False)
>>> deadline(ll.new_game("online", 4, seed=1, settings=off), since_ms=1_000)
Deadline(player=2, due_ms=21000, command=None)
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from loveletter.commands import Command, StartRound, TimeOut
from loveletter.errors import ArgumentError
from loveletter.state import Decision, GameState, TableSettings

__all__ = ["Deadline", "deadline", "starts_wait"]


@attrs.frozen
class Deadline:
    """What the game waits for, and what the host sends if it waits too long.

    ``player`` must act (``None`` between rounds, when the host deals, and
    once the match has closed). ``due_ms`` is when the wait ends, on the
    host's clock (``None``: never, nothing more can happen). ``command`` is
    what the host sends then: ``TimeOut(player)``, ``StartRound()``, or
    ``None`` to go on waiting for the player (random moves off) or because
    the match has closed.
    """

    player: int | None
    due_ms: int | None
    command: Command | None


def deadline(
    state: GameState,
    since_ms: int,
    settings: TableSettings | None = None,
    ready: Iterable[int] = (),
) -> Deadline:
    """Who must act in ``state``, by when, and what to send then.

    ``since_ms`` is when the current wait began: the time of the accepted
    command that led to this decision (see :func:`starts_wait`), or of the
    deal. ``settings`` default to the table's own. ``ready`` are the seats
    that have said they are ready for the next round: once every player
    still present has, the intermission ends at once.

    Another edition has no settings of its own; given some, it gets the
    deadlines, but never a ``TimeOut``, which only an online table accepts.
    """
    table_settings = settings if settings is not None else state.table.settings
    if table_settings is None:
        raise ArgumentError(
            "settings", f"{state.ruleset.name} has no table settings: give the clock some"
        )
    if state.decision is Decision.GAME_OVER:
        return Deadline(None, None, None)
    player = state.to_act
    if player is None:
        # between rounds: the host deals when the intermission ends
        waiting = set(state.present()) - set(ready)
        pause = table_settings.intermission_ms if waiting else 0
        return Deadline(None, since_ms + pause, StartRound())
    due = since_ms + table_settings.turn_time_ms
    random_moves = table_settings.random_moves and state.ruleset.online_table
    return Deadline(player, due, TimeOut(player) if random_moves else None)


def starts_wait(before: GameState, after: GameState) -> bool:
    """Whether the command that turned ``before`` into ``after`` began a new
    wait, so that its time is the next ``since_ms``: a new turn, a Bishop's
    target to answer, a round's end (the intermission), a deal. A player who
    leaves while another is to act begins none: the turn keeps its time."""
    return _wait(before) != _wait(after)


def _wait(state: GameState) -> tuple[int, int, Decision, int | None]:
    return (state.round_number, state.turn_number, state.decision, state.to_act)
