"""Game records: a game's whole event log, to keep, save, load and replay.

A :class:`GameRecord` is the events of one game from its first event
(``GameStarted``, which holds the ruleset, the players and the seed, or
``PositionEstablished``) to now, with the state they lead to. It is the
unit a program keeps: push commands onto it, save it, load it later and get
the same state back, or hand each player the events they saw.

>>> import loveletter as ll
>>> record = ll.GameRecord.new("2019", 3, seed=7)
>>> record = record.push(ll.legal_commands(record.state)[0])
>>> ll.loads(ll.dumps(record)) == record
True
>>> record.seed, record.players, record.ruleset.name
(7, 3, '2019')

Loading a record replays it through the rules (:func:`loveletter.replay`):
a log that no game produces is refused with the index of its first
impossible event. The seed decides every deck of the game, so a record of
a game still going on is a secret from its players; give each player
``record.events_for(seat)`` instead.

The JSON form is an object ``{"type": "GameRecord", "format": 1, "ruleset",
"players", "seed", "events"}``; ``ruleset``, ``players`` and ``seed`` repeat
the first event's for readers, and must agree with it. The seed is written
as a string of decimal digits, as everywhere in this package's JSON.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from loveletter.cards import Card
from loveletter.commands import Command, StartRound
from loveletter.engine import replay_commands, start_game, step
from loveletter.errors import SerializationError
from loveletter.events import Event, GameStarted, PositionEstablished, RoundStarted
from loveletter.positions import Position
from loveletter.rulesets import Ruleset, Scoring
from loveletter.scoreboard import Scoreboard
from loveletter.state import GameState, TableSettings

#: the version of the JSON form written by :func:`record_to_data`
RECORD_FORMAT = 1
#: a record file larger than this is refused unread (a long game is ~100 kB)
MAX_RECORD_BYTES = 64 * 1024 * 1024


@attrs.frozen(repr=False)
class Outcome:
    """How a finished game ended: who won, the tokens, the rounds played.

    Online (ruling 44) a match has no end and no winner, so its outcome is
    the scoreboard so far: ``winners`` is empty, ``tokens`` are the win
    counters, ``rounds`` the rounds that ended, ``ranks`` each ended
    round's ranks (one per seat, ``None`` for a seat not dealt in), and
    ``final`` says whether the match has closed (fewer than two players
    present) or could go on.
    """

    winners: tuple[int, ...]
    tokens: tuple[int, ...]
    rounds: int
    #: online: every ended round's ranks, in order (empty elsewhere)
    ranks: tuple[tuple[int | None, ...], ...] = ()
    #: False while an online match is still open: more rounds may be dealt
    final: bool = True

    def __repr__(self) -> str:
        # the fields other editions never set are left out, so that their
        # outcome reads as it always has
        text = f"Outcome(winners={self.winners!r}, tokens={self.tokens!r}, rounds={self.rounds!r}"
        if self.ranks:
            text += f", ranks={self.ranks!r}"
        if not self.final:
            text += ", final=False"
        return text + ")"


@attrs.frozen(init=False)
class GameRecord:
    """The events of one game, checked against the rules, with their state.

    Build one with :meth:`new`, :meth:`from_position` or ``GameRecord(events)``
    (which replays and checks ``events``); extend it with :meth:`push`. Two
    records are equal when their events are.
    """

    events: tuple[Event, ...]
    state: GameState = attrs.field(eq=False, repr=False)
    _commands: tuple[Command, ...] = attrs.field(eq=False, repr=False)

    def __init__(self, events: Iterable[Event]) -> None:
        log = (
            events
            if isinstance(events, str | bytes) or not isinstance(events, Iterable)
            else tuple(events)
        )
        state, commands = replay_commands(log)
        self.__attrs_init__(log, state, commands)

    @classmethod
    def new(
        cls,
        ruleset: str | Ruleset,
        players: int,
        *,
        seed: int | None = None,
        first_player: int | None = None,
        deck: Sequence[Card] | None = None,
        order: Sequence[int] | None = None,
        settings: TableSettings | None = None,
    ) -> GameRecord:
        """A new game's record, as :func:`loveletter.new_game` deals it
        (without ``seed``, a fresh secret 128-bit one)."""
        return cls(
            start_game(
                ruleset,
                players,
                seed=seed,
                first_player=first_player,
                deck=deck,
                order=order,
                settings=settings,
            )
        )

    @classmethod
    def from_position(cls, position: Position) -> GameRecord:
        """A record starting from a described position (checked)."""
        return cls((PositionEstablished(position),))

    def push(self, command: Command) -> GameRecord:
        """The record after ``command`` (an :class:`~loveletter.IllegalCommand`
        leaves nothing changed: records are immutable)."""
        after, events = step(self.state, command)
        if type(command) is StartRound and events and type(events[0]) is RoundStarted:
            # as a loaded record lists it: the deal its events imply, so that
            # equal records (equal events) list equal commands
            dealt = events[0]
            assert isinstance(dealt, RoundStarted)
            command = StartRound(dealt.deck, dealt.first_player, dealt.order)
        record = object.__new__(GameRecord)
        record.__attrs_init__(self.events + events, after, (*self._commands, command))
        return record

    @property
    def ruleset(self) -> Ruleset:
        return self.state.ruleset

    @property
    def players(self) -> int:
        return self.state.players

    @property
    def seed(self) -> int:
        """The seed of every shuffle: secret from the players until the end."""
        return self.state.seed

    @property
    def first_player(self) -> int:
        """The seat that started the first round (or the position's current)."""
        first = self.events[0]
        if isinstance(first, GameStarted):
            return first.first_player
        assert isinstance(first, PositionEstablished) and first.position is not None
        return first.position.current

    @property
    def is_over(self) -> bool:
        return self.state.is_over

    def commands(self) -> tuple[Command, ...]:
        """The commands of the game in order, as its events imply them (a
        round's deal is a ``StartRound`` with its deck and first player)."""
        return self._commands

    def outcome(self) -> Outcome | None:
        """The winners, tokens and rounds once the game is over, else None.

        An online match never ends by itself (ruling 44): its outcome is the
        scoreboard so far as soon as a round has ended (or the match has
        closed), with ``final`` false while it is open, and None before.
        """
        state = self.state
        if state.ruleset.scoring is Scoring.RANKS:
            board = self.scoreboard()
            if not board.rounds and not state.is_over:
                return None
            return Outcome(
                state.winners, state.tokens, len(board.rounds), board.ranks, state.is_over
            )
        if not state.is_over:
            return None
        return Outcome(state.winners, state.tokens, state.round_number)

    def scoreboard(self) -> Scoreboard:
        """Every ended round (online: its ranks; elsewhere: its winners), every
        token gained and the counters now (:mod:`loveletter.scoreboard`)."""
        return Scoreboard.from_events(self.events)

    def events_for(self, player: int) -> tuple[Event, ...]:
        """The game as ``player`` saw it: every event redacted for them."""
        from loveletter.views import events_for

        return events_for(player, self.events)


def record_to_data(record: GameRecord) -> dict[str, Any]:
    """``record`` as plain JSON data (its format is in the module docstring)."""
    from loveletter.serialization import to_data

    return {
        "type": "GameRecord",
        "format": RECORD_FORMAT,
        "ruleset": record.ruleset.name,
        "players": record.players,
        "seed": str(record.seed),
        "events": to_data(record.events),
    }


def record_from_data(data: Any, path: str = "") -> GameRecord:
    """The record ``data`` describes, replayed and checked: malformed data
    raises :class:`SerializationError` with the path of the field, an
    impossible game :class:`~loveletter.errors.EventMismatch` with the index
    of the event."""
    from loveletter.serialization import from_data

    def at(key: str) -> str:
        return f"{path}.{key}" if path else key

    if not isinstance(data, dict) or data.get("type") != "GameRecord":
        raise SerializationError(at("type"), "expected a GameRecord object")
    for key in data:
        if key not in ("type", "format", "ruleset", "players", "seed", "events"):
            raise SerializationError(at(key), "unknown field for GameRecord")
    version = data.get("format")
    if version != RECORD_FORMAT or type(version) is not int:
        raise SerializationError(at("format"), f"this library reads format {RECORD_FORMAT}")
    raw = data.get("events")
    if not isinstance(raw, list) or not raw:
        raise SerializationError(at("events"), "expected a non-empty array of events")
    events = tuple(from_data(item, Event, f"{at('events')}[{i}]") for i, item in enumerate(raw))
    record = GameRecord(events)  # EventMismatch names the index of a wrong event
    expected = {"ruleset": record.ruleset.name, "players": record.players, "seed": str(record.seed)}
    for key, value in expected.items():
        if key in data and data[key] != value and not (key == "seed" and data[key] == record.seed):
            raise SerializationError(at(key), f"the first event says {value!r}")
    return record


def save_record(record: GameRecord, path: str | os.PathLike[str]) -> None:
    """Write ``record`` to ``path`` as JSON (one event per line, for diffs)."""
    data = record_to_data(record)
    events = data.pop("events")
    head = json.dumps(data)[:-1]  # the object without its closing brace
    lines = ",\n".join(json.dumps(event) for event in events)
    text = f'{head}, "events": [\n{lines}\n]}}\n'
    with open(path, "w", encoding="utf-8") as file:
        file.write(text)


def read_json_file(path: str | os.PathLike[str]) -> Any:
    """The value a JSON file written by this package holds (a record, a
    state, a position, ...), read through :func:`loveletter.loads` with its
    checks; a file over :data:`MAX_RECORD_BYTES` is refused unread."""
    from loveletter.serialization import loads

    name = os.fspath(path)
    try:
        with open(path, "rb") as file:
            text = file.read(MAX_RECORD_BYTES + 1)
    except OSError as error:
        raise SerializationError("", f"cannot read {name}: {error.strerror}") from None
    if len(text) > MAX_RECORD_BYTES:
        raise SerializationError("", f"{name} is larger than {MAX_RECORD_BYTES} bytes")
    return loads(text)


def load_record(path: str | os.PathLike[str]) -> GameRecord:
    """Read and check a record written by :func:`save_record` (or any JSON
    of the same form)."""
    record = read_json_file(path)
    if not isinstance(record, GameRecord):
        raise SerializationError("type", f"{os.fspath(path)} holds no GameRecord")
    return record
