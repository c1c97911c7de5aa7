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

A round's deal is *shuffled* when it is exactly what ``StartRound()``
deals: the deck (and online the turn order) drawn from the seed, and the
first player the rules give (the last round's winner, or the seed's draw
among tied winners). Any other deal was *stacked* by the caller (a
``deck``, ``order`` or ``first_player`` given to ``StartRound`` or to
:func:`~loveletter.start_game`); :attr:`GameRecord.stacked_rounds` lists
those rounds. The first round's first player belongs to the game's setup
(``GameStarted``, ruling 1), not to its deal: choosing it stacks nothing.
Whether a deal is shuffled depends only on the deal and the seed, so a
record pushed live, one built from its bare events and one read from a
file agree, and list the same :meth:`~GameRecord.commands`.

The JSON form is an object ``{"type": "GameRecord", "format": 2, "ruleset",
"players", "seed", "stacked_rounds", "events"}``; ``ruleset``, ``players``
and ``seed`` repeat the first event's for readers, and must agree with it.
The seed is written as a string of decimal digits, as everywhere in this
package's JSON. ``stacked_rounds`` lists the stacked rounds in order:
reading recomputes every other deal from the seed and refuses one that
differs (the seed was changed, or a stacked deal left undeclared), and
refuses a listed round whose deal is the seed's own. Format 1 (before
``stacked_rounds``) is still read, each of its deals then required to be
the seed's, since format 1 cannot declare a stacked one.

A record is read one event at a time (:func:`loveletter.loads`), each
converted as soon as it is read: a wrong event fails at once, a record of
more than :data:`MAX_RECORD_EVENTS` events when it gets there, and
:func:`load_record` refuses a file over :data:`MAX_RECORD_BYTES` unread.
(Only a record whose ``"type"`` comes first, as this package writes it, is
read so; one whose keys were reordered is read whole, hence only up to
:data:`loveletter.codec.MAX_ITEM_CHARS` characters.) The JSON of the events
is :mod:`loveletter.codec`'s; :mod:`loveletter.serialization` reads and
writes records beside every other value.
"""

from __future__ import annotations

import json
import os
import re
import types
import typing
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Union

import attrs

from loveletter.cards import Card
from loveletter.chance import fresh_seed
from loveletter.codec import JSONReader, file_bytes, from_data, json_text, to_data
from loveletter.commands import Command, StartRound
from loveletter.engine import decide, push, replay, replay_commands, start_game, step
from loveletter.errors import EventMismatch, SerializationError
from loveletter.events import (
    EVENT_TYPES,
    Event,
    GameStarted,
    PositionEstablished,
    RoundStarted,
)
from loveletter.positions import Position
from loveletter.rulesets import Ruleset, Scoring
from loveletter.scoreboard import Scoreboard
from loveletter.state import GameState, TableSettings
from loveletter.validation import short

#: the version of the JSON form written by :func:`record_to_data` (2 added
#: ``stacked_rounds``; format 1 is still read)
RECORD_FORMAT = 2
#: a record file larger than this is refused unread. A long game takes
#: ~100 kB and an online round of eight players and three decks ~16 kB, so
#: this holds some 4,000 such rounds; reading one costs about twice its
#: size in memory (its bytes, then its text) besides the events kept.
MAX_RECORD_BYTES = 64 * 1024 * 1024
#: the most events a record may have: more than a record within
#: :data:`MAX_RECORD_BYTES` holds (a written event averages ~80 bytes)
MAX_RECORD_EVENTS = 2**20

#: the deal the seed makes: a shuffled deal, as :meth:`GameRecord.commands` lists it
_SHUFFLED = StartRound()
_KEYS = ("type", "format", "ruleset", "players", "seed", "stacked_rounds", "events")


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
    (which replays and checks ``events``, each field of exactly its declared
    type: ``1.0`` or ``True`` for a seat is refused with the event's index);
    extend it with :meth:`push`. Two records are equal when their events are.

    Bare events do not say how a deal was made: a deal equal to the one the
    seed makes is taken as shuffled, any other as stacked, exactly as
    :meth:`push` and :meth:`new` class them (see the module docstring). A
    ``PositionEstablished`` whose position has no seed gets a fresh secret
    one, kept in the record's first event so that it replays exactly.
    """

    events: tuple[Event, ...]
    state: GameState = attrs.field(eq=False, repr=False)
    #: the rounds whose deal was stacked rather than shuffled from the seed,
    #: in order (known from the events and the seed, hence not compared)
    stacked_rounds: tuple[int, ...] = attrs.field(eq=False, repr=False)
    _commands: tuple[Command, ...] = attrs.field(eq=False, repr=False)

    def __init__(self, events: Iterable[Event]) -> None:
        if isinstance(events, str | bytes) or not isinstance(events, Iterable):
            raise EventMismatch("an event log is a sequence of events")
        self.__attrs_init__(*_replayed(tuple(events), typed=False))

    @classmethod
    def _read(cls, events: tuple[Event, ...]) -> GameRecord:
        """The record of events read from JSON, whose fields are already of
        their exact types."""
        record = object.__new__(cls)
        record.__attrs_init__(*_replayed(events, typed=True))
        return record

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
        """A record starting from a described position (checked); one
        without a seed takes a fresh secret one, which the record keeps."""
        return cls((PositionEstablished(position),))

    def push(self, command: Command) -> GameRecord:
        """The record after ``command`` (an :class:`~loveletter.IllegalCommand`
        leaves nothing changed: records are immutable)."""
        after, events = step(self.state, command)
        stacked = self.stacked_rounds
        if type(command) is StartRound and command != _SHUFFLED:
            # listed as a loaded record lists it: the seed's own deal as
            # StartRound(), any other with what it dealt
            started = events[0]
            assert isinstance(started, RoundStarted)
            if decide(self.state, _SHUFFLED)[0] == started:
                command = _SHUFFLED
            else:
                command = StartRound(started.deck, started.first_player, started.order)
                stacked = (*stacked, started.round_number)
        record = object.__new__(GameRecord)
        record.__attrs_init__(self.events + events, after, stacked, (*self._commands, command))
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
        """The commands of the game in order, as its events imply them: a
        shuffled deal is ``StartRound()``, a stacked one ``StartRound`` with
        its deck, first player and order. Pushed from the record's first
        event, they give its events again."""
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


def _replayed(
    log: tuple[Event, ...], typed: bool
) -> tuple[tuple[Event, ...], GameState, tuple[int, ...], tuple[Command, ...]]:
    """A record's fields from its events: replayed, with the rounds whose
    deal was stacked and the commands (``typed``: the fields of the events
    are known to be of their exact types, as when read from JSON)."""
    first = log[0] if log else None
    if (
        type(first) is PositionEstablished
        and type(first.position) is Position
        and first.position.seed is None
    ):
        # as from_position would, but once: the record replays exactly
        position = attrs.evolve(first.position, seed=fresh_seed())
        log = (PositionEstablished(position), *log[1:])
    if not typed:
        _check_types(log)
    state, implied = replay_commands(log)
    stacked, commands = _deals(log, implied)
    return log, state, stacked, commands


def _deals(
    log: tuple[Event, ...], implied: tuple[Command, ...]
) -> tuple[tuple[int, ...], tuple[Command, ...]]:
    """The rounds of a replayed log whose deal is not the one its seed
    makes, and its commands with every other deal as ``StartRound()``."""
    deals = {index for index, command in enumerate(implied) if type(command) is StartRound}
    if not deals:
        return (), implied
    last = max(deals)
    started = (event for event in log if type(event) is RoundStarted)
    commands = list(implied)
    stacked: list[int] = []
    # the state before each deal: replayed again (push is the fast path),
    # up to the last deal only
    state = replay(log[:1])
    for index, command in enumerate(implied[: last + 1]):
        if index in deals:
            dealt = next(started)
            assert isinstance(dealt, RoundStarted)
            if decide(state, _SHUFFLED)[0] == dealt:
                commands[index] = _SHUFFLED
            else:
                stacked.append(dealt.round_number)
        if index < last:
            state = push(state, command)
    return tuple(stacked), tuple(commands)


# --------------------------------------------------------------------------
# the exact types of events built in Python


_Fits = Callable[[object], bool]


def _fits(hint: Any) -> _Fits:
    """A test that a value is exactly of the type ``hint`` says: ``1.0`` and
    ``True`` equal 1 and an ``int`` equals a card, so only the type tells."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is Union or origin is types.UnionType:
        options = tuple(_fits(arg) for arg in args)
        return lambda value: any(fits(value) for fits in options)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            each = _fits(args[0])
            return lambda value: type(value) is tuple and all(each(item) for item in value)
        parts = tuple(_fits(arg) for arg in args)
        return lambda value: (
            type(value) is tuple
            and len(value) == len(parts)
            and all(fits(item) for fits, item in zip(parts, value, strict=True))
        )
    return lambda value: type(value) is hint


def _named(hint: Any) -> str:
    """``hint`` as a message names it (``tuple[Card, ...] | None``)."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is Union or origin is types.UnionType:
        return " | ".join(_named(arg) for arg in args)
    if origin is tuple:
        return "tuple[" + ", ".join("..." if a is Ellipsis else _named(a) for a in args) + "]"
    return "None" if hint is type(None) else getattr(hint, "__name__", str(hint))


def _event_fields() -> dict[type, tuple[tuple[str, _Fits, str], ...]]:
    names = {"Position": Position, "TableSettings": TableSettings}
    fields = {}
    for cls in EVENT_TYPES.values():
        hints = typing.get_type_hints(cls, localns=names)
        fields[cls] = tuple(
            (field.name, _fits(hints[field.name]), _named(hints[field.name]))
            for field in attrs.fields(cls)
        )
    return fields


_EVENT_FIELDS: dict[type, tuple[tuple[str, _Fits, str], ...]] = {}


def _check_types(log: tuple[Event, ...]) -> None:
    """Refuse an event with a field not exactly of its type, by its index.

    Replay compares events with ``==``, under which ``CardDealt(1.0, ...)``
    equals ``CardDealt(1, ...)``: such an event would pass and then fail to
    save (or save and fail to load). A position's own fields are checked by
    :func:`loveletter.from_position` when it is replayed."""
    if not _EVENT_FIELDS:
        _EVENT_FIELDS.update(_event_fields())
    for index, event in enumerate(log):
        for name, fits, wanted in _EVENT_FIELDS.get(type(event), ()):
            value = getattr(event, name)
            if fits(value):
                continue
            misfit = EventMismatch(
                f"{type(event).__name__}.{name} must be {wanted}, not {short(value)}", index
            )
            if index:
                # an impossible event before this one is the first to name
                try:
                    replay_commands(log[:index])
                except EventMismatch as earlier:
                    if earlier.index is not None and earlier.index < index:
                        raise earlier from None
            raise misfit


# --------------------------------------------------------------------------
# JSON


def record_to_data(record: GameRecord) -> dict[str, Any]:
    """``record`` as plain JSON data (its format is in the module docstring)."""
    return {
        "type": "GameRecord",
        "format": RECORD_FORMAT,
        "ruleset": record.ruleset.name,
        "players": record.players,
        "seed": str(record.seed),
        "stacked_rounds": list(record.stacked_rounds),
        "events": to_data(record.events),
    }


def record_from_data(data: Any, path: str = "") -> GameRecord:
    """The record ``data`` describes, replayed and checked: malformed data
    raises :class:`SerializationError` with the path of the field, an
    impossible game :class:`~loveletter.errors.EventMismatch` with the index
    of the event (a deal the seed did not make, and that ``stacked_rounds``
    does not list, among them)."""

    def at(key: str) -> str:
        return f"{path}.{key}" if path else key

    if not isinstance(data, dict) or data.get("type") != "GameRecord":
        raise SerializationError(at("type"), "expected a GameRecord object")
    for key in data:
        if key not in _KEYS:
            raise SerializationError(at(key), "unknown field for GameRecord")
    version = _format(data.get("format"), at("format"))
    raw = data.get("events")
    if not isinstance(raw, list) or not raw:
        raise SerializationError(at("events"), "expected a non-empty array of events")
    if len(raw) > MAX_RECORD_EVENTS:
        raise SerializationError(at("events"), f"more than {MAX_RECORD_EVENTS} events")
    events = tuple(from_data(item, Event, f"{at('events')}[{i}]") for i, item in enumerate(raw))
    return _loaded(data, version, events, at)


def read_record(reader: JSONReader) -> GameRecord:
    """The record whose JSON ``reader`` is at, read one event at a time
    (:func:`loveletter.loads` reads a record so): each event is converted
    as soon as it is read, so that a wrong one fails at once and the events
    are never held as plain data."""
    data: dict[str, Any] = {}
    events: tuple[Event, ...] = ()
    for key in reader.members(0):
        if key not in _KEYS:
            raise SerializationError(key, "unknown field for GameRecord")
        if key in data:
            raise SerializationError(key, "given twice")
        if key == "events":
            if reader.peek() != "[":
                raise SerializationError(key, "expected a non-empty array of events")
            items = reader.items(key, 1, MAX_RECORD_EVENTS, "events")
            events = tuple(from_data(item, Event, item_path) for item_path, item in items)
            data[key] = ()
        else:
            data[key] = reader.value(1, key)
            if key == "format":  # before any event: a format unknown here is read no further
                _format(data[key], key)
    reader.end()
    if not events:
        raise SerializationError("events", "expected a non-empty array of events")
    return _loaded(data, _format(data.get("format"), "format"), events, lambda key: key)


def _format(version: object, path: str) -> int:
    if type(version) is not int or version not in (1, RECORD_FORMAT):
        raise SerializationError(path, f"this library reads formats 1 and {RECORD_FORMAT}")
    return version


def _loaded(
    data: dict[str, Any], version: int, events: tuple[Event, ...], at: Callable[[str], str]
) -> GameRecord:
    """The record of ``events`` read with the rest of its JSON ``data``:
    replayed, its header checked against its first event and its stacked
    rounds against its seed."""
    declared = _declared(data, version, at("stacked_rounds"))
    record = GameRecord._read(events)  # EventMismatch names the index of a wrong event
    expected = {"ruleset": record.ruleset.name, "players": record.players, "seed": str(record.seed)}
    for key, value in expected.items():
        if key in data and data[key] != value and not (key == "seed" and data[key] == record.seed):
            raise SerializationError(at(key), f"the first event says {value!r}")
    starts = {
        event.round_number: index
        for index, event in enumerate(record.events)
        if type(event) is RoundStarted
    }
    for item, round_number in enumerate(declared):
        if round_number not in starts:
            raise SerializationError(
                f"{at('stacked_rounds')}[{item}]", f"no round {round_number} is dealt in the record"
            )
    stacked = set(record.stacked_rounds)
    for round_number, index in starts.items():
        if round_number in stacked and round_number not in declared:
            why = (
                "format 1 cannot declare a stacked deal"
                if version == 1
                else "stacked_rounds does not list it"
            )
            raise EventMismatch(
                f"round {round_number} is not dealt as the seed deals it and {why}:"
                " the seed was changed, or the deal stacked without saying so",
                index,
            )
        if round_number in declared and round_number not in stacked:
            raise SerializationError(
                f"{at('stacked_rounds')}[{declared.index(round_number)}]",
                f"round {round_number} is dealt exactly as the seed deals it: not stacked",
            )
    return record


def _declared(data: dict[str, Any], version: int, path: str) -> tuple[int, ...]:
    """The stacked rounds a record's JSON lists (none in format 1)."""
    if version == 1:
        if "stacked_rounds" in data:
            raise SerializationError(path, "format 1 has no stacked_rounds (format 2 does)")
        return ()
    if "stacked_rounds" not in data:
        raise SerializationError(path, "missing field")
    raw = data["stacked_rounds"]
    if not isinstance(raw, list):
        raise SerializationError(path, f"expected an array of round numbers, not {short(raw)}")
    for item, value in enumerate(raw):
        if type(value) is not int or value < 1 or (item and value <= raw[item - 1]):
            raise SerializationError(
                f"{path}[{item}]", f"round numbers from 1, in increasing order, not {short(value)}"
            )
    return tuple(raw)


def save_record(record: GameRecord, path: str | os.PathLike[str]) -> None:
    """Write ``record`` to ``path`` as JSON (one event per line, for diffs)."""
    data = record_to_data(record)
    events = data.pop("events")
    head = json.dumps(data)[:-1]  # the object without its closing brace
    lines = ",\n".join(json.dumps(event) for event in events)
    text = f'{head}, "events": [\n{lines}\n]}}\n'
    with open(path, "w", encoding="utf-8") as file:
        file.write(text)


def load_record(path: str | os.PathLike[str]) -> GameRecord:
    """Read and check a record written by :func:`save_record` (or any JSON
    of the same form). Only a regular file is read, and one over
    :data:`MAX_RECORD_BYTES` is refused unread."""
    text = json_text(file_bytes(path, MAX_RECORD_BYTES))
    reader = JSONReader(text)
    if reader.peek() == "{" and starts_a_record(text, reader.pos):
        return read_record(reader)
    data = reader.whole()
    if isinstance(data, dict) and data.get("type") == "GameRecord":
        return record_from_data(data)
    raise SerializationError("type", f"{os.fspath(path)} holds no GameRecord")


_RECORD_START = re.compile(r'\{[ \t\n\r]*"type"[ \t\n\r]*:[ \t\n\r]*"GameRecord"')


def starts_a_record(text: str, pos: int = 0) -> bool:
    """Whether the JSON object at ``pos`` is a record whose ``"type"`` comes
    first, as :func:`record_to_data` writes it: one read an event at a time
    (:func:`read_record`)."""
    return _RECORD_START.match(text, pos) is not None
