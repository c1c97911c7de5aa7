"""``loveletter replay`` and ``loveletter show``: saved games and states
from the terminal.

``replay FILE`` narrates a saved :class:`~loveletter.GameRecord` (from
``play --save``, ``simulate --save`` or :func:`~loveletter.save_record`),
as a spectator who sees everything or, with ``--as SEAT``, as that player
saw it. ``show FILE`` prints a whole state for a bug report: a record's
state (after ``--at N`` commands if asked), a saved ``GameState`` or a
``Position``. Both check what they read against the rules first, so a file
that no game produces is refused with the index of its first wrong event.

An online match has no end and no winner (ruling 44): for its records both
end with the scoreboard (:mod:`loveletter.scoreboard`), the ranks of every
round that ended and the win counters, partial wins included.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from loveletter.errors import LoveLetterError, SerializationError
from loveletter.positions import Position, from_position
from loveletter.records import GameRecord
from loveletter.rulesets import Scoring
from loveletter.scoreboard import Scoreboard
from loveletter.serialization import read_json_file
from loveletter.state import GameState

#: exit status when the file cannot be read or is not a possible game
BAD_FILE = 3


def add_parsers(commands: Any) -> None:
    """Add ``replay`` and ``show`` to the ``loveletter`` subcommands."""
    replay_parser = commands.add_parser(
        "replay", help="tell a saved game (from play --save or simulate --save)"
    )
    replay_parser.add_argument("file", help="a game record (JSON)")
    replay_parser.add_argument(
        "--as",
        dest="seat",
        type=int,
        default=None,
        metavar="SEAT",
        help="tell only what this seat (from 0) saw; default: everything",
    )
    replay_parser.add_argument(
        "--notation",
        action="store_true",
        help="follow each move with its line in the command notation",
    )
    replay_parser.set_defaults(handler=_cmd_replay)

    show_parser = commands.add_parser(
        "show", help="print a whole state (for bug reports) from a record, state or position"
    )
    show_parser.add_argument("file", help="a game record, GameState or Position (JSON)")
    show_parser.add_argument(
        "--at",
        type=int,
        default=None,
        metavar="N",
        help="for a record: the state after its first N commands (default: the last)",
    )
    show_parser.add_argument(
        "--moves",
        action="store_true",
        help="for a record: also list its commands in the notation, numbered",
    )
    show_parser.set_defaults(handler=_cmd_show)


def _fail(command: str, path: str, error: LoveLetterError) -> int:
    print(f"loveletter {command}: {path}: {error}", file=sys.stderr)
    return BAD_FILE


def _cmd_replay(args: argparse.Namespace) -> int:
    from loveletter.narrative import narrate

    try:
        record = read_json_file(args.file)
    except LoveLetterError as error:
        return _fail("replay", args.file, error)
    if not isinstance(record, GameRecord):
        print(f"loveletter replay: {args.file}: not a game record", file=sys.stderr)
        return BAD_FILE
    if args.seat is not None and not 0 <= args.seat < record.players:
        print(
            f"loveletter replay: --as must be a seat from 0 to {record.players - 1},"
            f" not {args.seat}",
            file=sys.stderr,
        )
        return 2
    for line in narrate(record.events, viewer=args.seat, notation=args.notation):
        print(line)
    outcome = record.outcome()
    print()
    if record.ruleset.scoring is Scoring.RANKS:
        # round ends, counters and leaving are public: every viewer sees them
        for line in record.scoreboard().lines():
            print(line)
    elif outcome is None:
        print(f"The record stops before the game's end (round {record.state.round_number}).")
    else:
        tokens = ", ".join(f"Player {seat} {n}" for seat, n in enumerate(outcome.tokens))
        winners = ", ".join(f"Player {seat}" for seat in outcome.winners)
        print(f"Final favor tokens: {tokens}. Won by {winners} after {outcome.rounds} rounds.")
    return 0


def _cmd_show(args: argparse.Namespace) -> int:
    from loveletter.display import describe_state
    from loveletter.notation import format_command

    try:
        value = read_json_file(args.file)
        moves: tuple[Any, ...] = ()
        board: Scoreboard | None = None
        if isinstance(value, GameRecord):
            moves = value.commands()
            record = value if args.at is None else _record_at(value, args.at)
            state = record.state
            if record.ruleset.scoring is Scoring.RANKS:
                board = record.scoreboard()
        elif isinstance(value, Position | GameState):
            if args.at is not None or args.moves:
                from loveletter.cli import UsageError

                # A state or position has no commands to count or list:
                # ignoring the option would pass off this state as the one asked for.
                flag = "--at" if args.at is not None else "--moves"
                raise UsageError(
                    f"{flag} is for a game record; {args.file} holds a {type(value).__name__}"
                )
            state = from_position(value) if isinstance(value, Position) else value
        else:
            raise SerializationError("type", "expected a GameRecord, GameState or Position")
    except LoveLetterError as error:
        return _fail("show", args.file, error)
    if args.moves:
        for number, command in enumerate(moves, 1):
            print(f"{number:4}. {format_command(command)}")
        print()
    print(describe_state(state))
    if board is not None:
        print()
        for line in board.lines():
            print(line)
    return 0


def _record_at(record: GameRecord, count: int) -> GameRecord:
    commands = record.commands()
    if not 0 <= count <= len(commands):
        raise SerializationError("--at", f"the record has {len(commands)} commands, not {count}")
    partial = GameRecord(record.events[:1])
    for command in commands[:count]:
        partial = partial.push(command)
    return partial
