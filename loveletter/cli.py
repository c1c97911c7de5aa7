"""The ``loveletter`` command: simulate, tournament, play, demo, replay,
show, rulesets, conformance.

Every subcommand is a thin layer over the public API and the
:mod:`~loveletter.simulation`, :mod:`~loveletter.narrative` and
:mod:`~loveletter.bots` modules, so what the terminal shows is what a
library user would get. Output streams are kept apart on purpose: results
go to stdout (pipeable, parseable with ``--json``), progress and errors to
stderr.

Exit statuses: 0 done; 1 a rules query that names nothing, or standard
output's reader went away (``loveletter demo | head``: no message, as for
any program in a pipe); 2 bad arguments (:data:`USAGE_ERROR`); 3 a file
that cannot be read or is no possible game, or a conformance suite that
cannot run; 4 a conformance run that tested nothing; 74 standard output
that cannot be written (closed, a full disk, ``/dev/full``) or standard
input that cannot be read, and a file ``simulate --save`` cannot write
(:data:`IO_ERROR`); 70 a simulation that failed (:data:`SIMULATION_FAILED`: a
game that raised, a worker process that died, Ray out of reach); 130
interrupted (Ctrl-C). Each error is told in one line on stderr.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO, cast

from loveletter import (
    RULESETS,
    Card,
    Ruleset,
    __version__,
    get_ruleset,
)
from loveletter import cli_records as records_cli
from loveletter import cli_rules as rules_cli
from loveletter.bots import BOT_NAMES, parse_bot
from loveletter.chance import is_seed
from loveletter.conformance import cli as conformance_cli
from loveletter.conformance.runner import SUITE_ROOT, format_outcome, suite_version
from loveletter.errors import ArgumentError
from loveletter.events import EliminationReason, RoundEnded, TokenReason
from loveletter.narrative import default_name, narrate
from loveletter.records import GameRecord, save_record
from loveletter.rulesets import GameTie, Scoring
from loveletter.simulation import (
    ENGINES,
    MIN_FAST_GAMES_PER_PROCESS,
    MIN_GAMES_PER_PROCESS,
    SimulationFailed,
    SimulationReport,
    available_cores,
    play_game,
    random_bots,
    simulate,
)
from loveletter.state import TableSettings

#: exit status for bad arguments, as argparse uses
USAGE_ERROR = 2
#: exit status when a standard stream or a file to write fails (closed,
#: full): sysexits.h's EX_IOERR, the status of an input/output error
IO_ERROR = 74
#: exit status when a simulation cannot run to its end (a game raised, a
#: worker died, Ray failed): sysexits.h's EX_SOFTWARE, an internal error
SIMULATION_FAILED = 70
#: exit status when standard output's reader has gone (``| head``), as
#: Python's own recipe for a broken pipe
READER_GONE = 1


class UsageError(Exception):
    """Arguments the parser accepted but the rules do not (an unknown
    ruleset, a player count the edition does not support): reported as one
    line on stderr, exit status 2."""


class IOFailure(Exception):
    """A standard stream that cannot be used, or a file a command cannot
    write: reported as one line on stderr, exit status :data:`IO_ERROR`."""


class _ReaderGone(Exception):
    """Standard output's reader has closed its end (``loveletter demo |
    head``): the command stops quietly."""


class _Guarded:
    """A standard stream whose failures are told apart from every other
    ``OSError``: writing or reading it raises :class:`IOFailure` (or
    :class:`_ReaderGone` for a broken pipe), so a full standard output is
    not mistaken for a file the command could not save, and the reverse.
    ``None`` (a stream closed when the program started) fails on first use.

    The exceptions are not ``OSError``: argparse swallows an ``OSError`` from
    writing ``--help``, which would lose the help without a word."""

    def __init__(self, stream: TextIO | None, name: str, verb: str) -> None:
        self._stream = stream
        self._name = name
        self._verb = verb
        #: whether a write or read has failed (what is buffered is lost)
        self.failed = False

    def _open(self) -> TextIO:
        if self._stream is None:
            raise IOFailure(f"cannot {self._verb} {self._name}: it is closed")
        return self._stream

    def _failed(self, error: OSError) -> Exception:
        self.failed = True
        if isinstance(error, BrokenPipeError):
            return _ReaderGone()
        reason = error.strerror or str(error)
        return IOFailure(f"cannot {self._verb} {self._name}: {reason}")

    def write(self, text: str) -> int:
        try:
            return self._open().write(text)
        except OSError as error:
            raise self._failed(error) from None

    def flush(self) -> None:
        if self._stream is None:
            return  # nothing was written, so nothing is lost
        try:
            self._stream.flush()
        except OSError as error:
            raise self._failed(error) from None

    def readline(self, size: int = -1) -> str:
        try:
            return self._open().readline(size)
        except OSError as error:
            raise self._failed(error) from None

    def __getattr__(self, name: str) -> object:
        return getattr(self._open(), name)


def _quiet_stdout(stream: TextIO | None) -> None:
    """Point the process's standard output at devnull once it has failed,
    so the interpreter's final flush of what is still buffered does not
    fail again with a second error (Python's recipe for a broken pipe)."""
    if stream is not sys.__stdout__ or stream is None:
        return  # a test's stream, or nothing to flush
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())
        os.close(devnull)


def _tolerant(stream: TextIO | None, errors: str) -> None:
    """The process's own text stream decodes or encodes with ``errors``:
    a character the terminal's encoding lacks (an em dash in an ASCII
    locale) or a byte that is not text in stdin becomes a replacement
    character instead of ending the command with a traceback."""
    if stream is None or stream not in (sys.__stdout__, sys.__stdin__):
        return
    if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
        with contextlib.suppress(ValueError, OSError):
            stream.reconfigure(errors=errors)


# --------------------------------------------------------------------------
# argument checks shared by the subcommands


def _ruleset_and_players(name: str, players: int) -> Ruleset:
    try:
        rules = get_ruleset(name)
    except ValueError as error:
        raise UsageError(str(error)) from None
    if not rules.supports(players):
        raise UsageError(
            f"{rules.name} is for {rules.min_players}-{rules.max_players} players, not {players}"
        )
    return rules


def _non_negative(value: int, what: str) -> int:
    if value < 0:
        raise UsageError(f"{what} must not be negative, not {value}")
    return value


def _table(rows: Sequence[Sequence[str]], right: Sequence[int] = ()) -> list[str]:
    """Rows as aligned text columns; columns listed in ``right`` are
    right-aligned (numbers)."""
    widths = [max(len(row[col]) for row in rows) for col in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [
            cell.rjust(width) if col in right else cell.ljust(width)
            for col, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    return lines


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


# --------------------------------------------------------------------------
# loveletter rulesets


def _cmd_rulesets(args: argparse.Namespace) -> int:
    rows = [["name", "title", "players", "cards", "aliases"]]
    for rules in RULESETS.values():
        # an edition may use a larger deck from some player count (Premium)
        sizes = sorted(
            {len(rules.deck_for(n)) for n in range(rules.min_players, rules.max_players + 1)}
        )
        rows.append(
            [
                rules.name,
                rules.title,
                f"{rules.min_players}-{rules.max_players}",
                "/".join(map(str, sizes)),
                ", ".join(rules.aliases),
            ]
        )
    for line in _table(rows, right=(3,)):
        print(line)
    return 0


# --------------------------------------------------------------------------
# loveletter simulate


class ProgressBar:
    """A one-line ``[#####     ] 500/1000`` bar, redrawn in place.

    Redraws are limited to a few per second: a terminal that is written to
    on every game slows a fast simulation down noticeably.
    """

    def __init__(self, stream: TextIO, width: int = 30, interval: float = 0.1) -> None:
        self.stream = stream
        self.width = width
        self.interval = interval
        self._last = float("-inf")

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - self._last < self.interval:
            return
        self._last = now
        filled = self.width * done // total if total else self.width
        bar = "#" * filled + " " * (self.width - filled)
        self.stream.write(f"\r[{bar}] {done}/{total}")
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()


#: the card that makes each bonus token or elimination possible: its row or
#: column is shown when the edition's deck holds that card (or it happened)
_TOKEN_CARDS = {
    TokenReason.SPY: Card.SPY,
    TokenReason.BISHOP: Card.BISHOP,
    TokenReason.CONSTABLE: Card.CONSTABLE,
    TokenReason.JESTER: Card.JESTER,
}
_ELIMINATION_CARDS = {
    EliminationReason.ASSASSIN: Card.ASSASSIN,
    EliminationReason.DOWAGER_COMPARISON: Card.DOWAGER_QUEEN,
}


def format_report(report: SimulationReport) -> list[str]:
    """The report as the table ``loveletter simulate`` prints."""
    if report.ranked:
        return _format_online_report(report)
    rules = get_ruleset(report.ruleset)
    deck = rules.deck_for(report.players)
    lines = [
        f"{rules.title}: {report.players} players, {_bots_text(report)}, seed {report.seed}",
        "",
    ]
    totals = [
        ["games", str(report.games), ""],
        ["rounds", str(report.rounds), f"{report.mean_rounds_per_game:.2f} per game"],
        ["turns", str(report.turns), f"{report.mean_turns_per_round:.2f} per round"],
    ]
    if rules.game_tie is GameTie.SHARED_WIN:
        totals.append(["shared wins", str(report.shared_games), "games with several winners"])
    else:
        totals.append(["tied games", str(report.tied_games), "games with a tie-break round"])
        totals.append(["mid-round wins", str(report.mid_round_wins), "games won mid-round"])
    lines += _table(totals, right=(1,))
    lines.append("")
    bonuses = [
        reason
        for reason, tokens in report.bonus_tokens.items()
        if _TOKEN_CARDS.get(reason) in deck or any(tokens)
    ]
    seats = [["seat", "game wins", "round wins", *(f"{r.value} tokens" for r in bonuses)]]
    for seat in range(report.players):
        games, rounds = report.game_wins[seat], report.round_wins[seat]
        seats.append(
            [
                default_name(seat),
                f"{games} ({_percent(games, report.games)})",
                f"{rounds} ({_percent(rounds, report.rounds)})",
                *(str(report.bonus_tokens[reason][seat]) for reason in bonuses),
            ]
        )
    lines += _table(seats, right=tuple(range(1, 3 + len(bonuses))))
    lines.append("")
    lines += _round_ends(report)
    lines.append("")
    lines += _eliminations(report, deck)
    return lines


def _round_ends(report: SimulationReport) -> list[str]:
    """How the rounds ended, by reason, as a table."""
    ends = [["rounds ended", "count", "share"]]
    for reason, count in report.round_ends.items():
        ends.append(
            [f"  {reason.value.replace('-', ' ')}", str(count), _percent(count, report.rounds)]
        )
    return _table(ends, right=(1, 2))


def _eliminations(report: SimulationReport, deck: Sequence[Card]) -> list[str]:
    """Why players went out, a row per reason that can happen here."""
    outs = [["eliminations", "count", "per round"]]
    for why, count in report.eliminations.items():
        if why in _ELIMINATION_CARDS and _ELIMINATION_CARDS[why] not in deck and not count:
            continue
        if why is EliminationReason.LEFT and not report.ranked and not count:
            continue  # only an online player can leave
        per_round = f"{count / report.rounds:.2f}" if report.rounds else "-"
        outs.append([f"  {why.value.replace('-', ' ')}", str(count), per_round])
    return _table(outs, right=(1, 2))


#: the partial wins of an online match (ruling 46), always shown: with the
#: 16-card deck of 3-4 players they are all 0, which is worth seeing
_PARTIAL_WINS = (TokenReason.BISHOP, TokenReason.CONSTABLE, TokenReason.JESTER)


def _bots_text(report: SimulationReport) -> str:
    """Who played: random bots, or each seat's bot."""
    if not report.bots:
        return "random bots"
    return "bots " + ", ".join(f"P{seat} {name}" for seat, name in enumerate(report.bots))


def _format_online_report(report: SimulationReport) -> list[str]:
    """An online simulation: matches of a set number of rounds, reported as
    their scoreboards added up (ranks, win counters, partial wins)."""
    rules = get_ruleset(report.ruleset)
    players = report.players
    decks = "1 deck" if report.decks == 1 else f"{report.decks} decks"
    lines = [
        f"{rules.title}: {players} players, {decks}, {_bots_text(report)}, seed {report.seed}",
        "",
    ]
    totals = [
        ["matches", str(report.games), f"{report.match_rounds} rounds each"],
        ["rounds", str(report.rounds), ""],
        ["turns", str(report.turns), f"{report.mean_turns_per_round:.2f} per round"],
    ]
    lines += _table(totals, right=(1,))
    lines.append("")
    lines.append("ranks: share of each seat's rounds finished at each rank (1 is first)")
    ranks = [["seat", *(f"rank {rank}" for rank in range(1, players + 1))]]
    for seat in range(players):
        counts = report.ranks[seat]
        ranked = sum(counts)
        ranks.append([default_name(seat), *(_percent(n, ranked) for n in counts)])
    lines += _table(ranks, right=tuple(range(1, players + 1)))
    lines.append("")
    lines.append("win counters: rank-1 rounds plus partial wins, over all matches")
    header = ["seat", "win counter", "per match", "rank 1", *(r.value for r in _PARTIAL_WINS)]
    seats = [header]
    for seat in range(players):
        counter = report.win_counters[seat]
        per_match = f"{counter / report.games:.2f}" if report.games else "-"
        seats.append(
            [
                default_name(seat),
                str(counter),
                per_match,
                str(report.round_wins[seat]),
                *(str(report.bonus_tokens[reason][seat]) for reason in _PARTIAL_WINS),
            ]
        )
    lines += _table(seats, right=tuple(range(1, len(header))))
    lines.append("")
    lines += _round_ends(report)
    lines.append("")
    lines += _eliminations(report, rules.deck_for(players))
    return lines


def _cmd_simulate(args: argparse.Namespace) -> int:
    rules = _ruleset_and_players(args.ruleset, args.players)
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, not {args.games}")
    rounds, decks = _match_options(rules, args.rounds, args.decks)
    seed = _non_negative(args.seed, "--seed")
    workers = _workers(args.workers, args.ray)
    bots = _bots_option(args.bots, args.players, "one per seat")
    if args.engine == "fast":
        if args.save is not None:
            raise UsageError("--save needs --engine reference: the fast engine keeps no records")
        if bots is not None and any(name != "random" for name in bots):
            raise UsageError("--bots: the fast engine plays random bots only")
    show = args.progress == "always" or (args.progress == "auto" and sys.stderr.isatty())
    progress = ProgressBar(sys.stderr) if show else None
    keep = None
    if args.save is not None:
        folder = Path(args.save)
        # As mkdir without -p: a mistyped path must not leave a tree of
        # folders behind, so only the last one is made.
        if not folder.is_dir():
            if not folder.parent.is_dir():
                raise UsageError(f"--save: there is no folder {folder.parent}")
            try:
                folder.mkdir()
            except OSError as error:
                raise UsageError(f"--save: cannot make {folder}: {error.strerror}") from None
        width = max(5, len(str(args.games)))

        def keep(index: int, record: GameRecord) -> None:
            path = folder / f"game-{index + 1:0{width}}.json"
            try:
                save_record(record, path)
            except OSError as error:
                raise IOFailure(f"--save: cannot write {path}: {error.strerror}") from None

    try:
        report = simulate(
            rules.name,
            args.players,
            args.games,
            seed,
            progress=progress,
            keep=keep,
            rounds=rounds,
            decks=decks,
            workers=workers,
            ray=args.ray,
            bots=bots,
            engine=args.engine,
        )
    except SimulationFailed as error:
        _complain(f"loveletter simulate: {error}")
        return SIMULATION_FAILED
    if args.json:
        print(json.dumps(report.to_data(), indent=2))
    else:
        for line in format_report(report):
            print(line)
    return 0


def _bots_option(text: str | None, count: int, which: str) -> tuple[str, ...] | None:
    """``--bots``: one name for every seat, or ``count`` names (``which``),
    comma-separated; each checked (a search bot's options follow a colon,
    ``search:samples=8``, and are separated by semicolons here)."""
    if text is None:
        return None
    names = _bot_names(text)
    if len(names) == 1:
        return names * count
    if len(names) != count:
        raise UsageError(f"--bots: one name, or {which} ({count}), not {len(names)}")
    return names


def _bot_names(text: str) -> tuple[str, ...]:
    """Comma-separated bot names, each checked (``;`` stands for the comma
    between a search bot's options)."""
    names = tuple(name.strip().replace(";", ",") for name in text.split(","))
    try:
        for name in names:
            parse_bot(name)
    except ArgumentError as error:
        raise UsageError(f"--bots: {error.detail}") from None
    return names


def _workers(workers: int | None, ray: str | None) -> int:
    """``--workers``, checked: every core by default; with ``--ray`` the
    cluster decides, so a number of workers is refused."""
    if ray is not None:
        if workers is not None:
            raise UsageError(
                "--workers is for this machine: with --ray, the cluster runs the games"
            )
        return 1
    if workers is None:
        return available_cores()
    if workers < 1:
        raise UsageError(f"--workers must be at least 1, not {workers}")
    return workers


def _match_options(rules: Ruleset, rounds: int | None, decks: int | None) -> tuple[int | None, int]:
    """``--rounds`` and ``--decks``, checked: an online match needs a number
    of rounds (it never ends by itself) and may use 1 to 3 decks; the other
    editions end by themselves, with one deck, and refuse both."""
    if rules.scoring is not Scoring.RANKS:
        if rounds is not None:
            raise UsageError(
                f"--rounds is for online matches: {rules.name} games end by themselves,"
                " when a player has the tokens to win"
            )
        if decks is not None:
            raise UsageError(f"--decks is for online matches: {rules.name} plays one deck")
        return None, 1
    if rounds is None:
        raise UsageError(
            f"{rules.name} matches never end by themselves: give --rounds N, rounds per match"
        )
    if rounds < 1:
        raise UsageError(f"--rounds must be at least 1, not {rounds}")
    decks = 1 if decks is None else decks
    if not 1 <= decks <= rules.max_decks:
        raise UsageError(f"--decks must be from 1 to {rules.max_decks}, not {decks}")
    return rounds, decks


# --------------------------------------------------------------------------
# loveletter demo


#: the rounds ``demo`` tells of an online match, which never ends by itself
DEMO_ROUNDS = 3


def _demo_game(args: argparse.Namespace, rules: Ruleset) -> None:
    online = rules.online_table
    rounds = getattr(args, "rounds", None)
    decks = getattr(args, "decks", None)
    record = play_game(
        rules.name,
        args.players,
        random_bots(args.players, args.seed),
        seed=args.seed,
        rounds=(rounds or DEMO_ROUNDS) if online else None,
        settings=TableSettings(decks=decks or 1) if online else None,
    )
    state = record.state
    for line in narrate(record.events):
        print(line)
    print()
    tokens = ", ".join(f"{default_name(s)} {n}" for s, n in enumerate(state.tokens))
    if online:
        # a match has no winner (ruling 44): it stops where the demo stops it
        ended = sum(isinstance(event, RoundEnded) for event in record.events)
        closed = " (the match closed)" if state.is_over else ""
        print(f"Win counters after {ended} round{'' if ended == 1 else 's'}{closed}: {tokens}.")
        return
    print(f"Final {rules.token_names[1]}: {tokens}.")
    label = "Winner" if len(state.winners) == 1 else "Winners"
    print(f"{label}: {', '.join(default_name(s) for s in state.winners)}.")


#: What ``loveletter demo`` prints, in order. Each section gets the parsed
#: arguments and the checked ruleset; a new part of the demo is one more
#: function appended here.
def _demo_conformance(args: argparse.Namespace, rules: Ruleset) -> None:
    print()
    print("Conformance suite, against this engine:")
    print(f"  (suite {suite_version()}; cases and protocol: conformance/README.md)")
    if not (SUITE_ROOT / "cases").is_dir():
        print(f"  (no conformance cases at {SUITE_ROOT / 'cases'})")
        return
    report = conformance_cli.run_in_process()
    for outcome in report.outcomes:
        if outcome.status != "passed":
            print("\n".join(format_outcome(outcome)))
    print(report.summary())


DEMO_SECTIONS: list[Callable[[argparse.Namespace, Ruleset], None]] = [
    _demo_game,
    _demo_conformance,
]


def _cmd_demo(args: argparse.Namespace) -> int:
    rules = _ruleset_and_players(args.ruleset, args.players)
    _non_negative(args.seed, "--seed")
    _online_options(rules, args.rounds, args.decks)
    for section in DEMO_SECTIONS:
        section(args, rules)
    return 0


# --------------------------------------------------------------------------
# loveletter play (the game itself, menus and screens: loveletter/interactive.py)


def _cmd_play(args: argparse.Namespace) -> int:
    from loveletter import interactive

    rules = _ruleset_and_players(args.ruleset, args.players)
    players = args.players
    if not 0 <= args.seat < players:
        raise UsageError(f"--seat must be from 0 to {players - 1}, not {args.seat}")
    # Without --seed a fresh secret 128-bit one (loveletter.chance.fresh_seed);
    # it is shown only once the game is over, since it decides every shuffle.
    seed = _non_negative(args.seed, "--seed") if args.seed is not None else None
    if seed is not None and not is_seed(seed):
        raise UsageError("--seed must be below 2**256")
    save = Path(args.save) if args.save is not None else None
    if save is not None and not save.parent.is_dir():
        raise UsageError(f"--save: there is no folder {save.parent}")
    _online_options(rules, args.rounds, args.decks)
    _tolerant(sys.stdin, "replace")
    if sys.stdin is None:  # started with ``<&-``: nobody can answer
        raise IOFailure("cannot read standard input: it is closed")
    stdin = _Guarded(sys.stdin, "standard input", "read")
    return interactive.play(
        rules,
        players,
        seat=args.seat,
        seed=seed,
        save=save,
        stdin=cast(TextIO, stdin),
        stdout=sys.stdout,
        rounds=args.rounds,
        decks=args.decks,
        bots=_bots_option(args.bots, players - 1, "one per other seat"),
    )


def _online_options(rules: Ruleset, rounds: int | None, decks: int | None) -> None:
    """``play`` and ``demo``: ``--rounds`` and ``--decks`` are for an online
    match, where both may be left out (``play`` goes on until you stop,
    ``demo`` tells a few rounds)."""
    if not rules.online_table:
        for flag, value in (("--rounds", rounds), ("--decks", decks)):
            if value is not None:
                raise UsageError(f"{flag} is for online matches, not {rules.name}")
        return
    if rounds is not None and rounds < 1:
        raise UsageError(f"--rounds must be at least 1, not {rounds}")
    if decks is not None and not 1 <= decks <= rules.max_decks:
        raise UsageError(f"--decks must be from 1 to {rules.max_decks}, not {decks}")


def _add_online_options(parser: argparse.ArgumentParser, rounds: str) -> None:
    parser.add_argument("--rounds", type=int, default=None, help=f"online only: {rounds}")
    parser.add_argument(
        "--decks",
        type=int,
        default=None,
        help="online only: copies of the deck shuffled together, 1 to 3 (default: 1)",
    )


# --------------------------------------------------------------------------
# loveletter tournament


def _cmd_tournament(args: argparse.Namespace) -> int:
    from loveletter.tournament import format_tournament, seatings, tournament

    rules = _ruleset_and_players(args.ruleset, args.players)
    entrants = _bot_names(args.bots)
    if len(entrants) < 2 or len(set(entrants)) != len(entrants):
        raise UsageError("--bots: two or more different bots, comma-separated")
    rounds, decks = _match_options(rules, args.rounds, args.decks)
    seed = _non_negative(args.seed, "--seed")
    workers = _workers(args.workers, args.ray)
    try:
        lineups = len(seatings(len(entrants), args.players))
    except ValueError as error:
        raise UsageError(f"--bots: {error}") from None
    games = args.games if args.games is not None else 100 * lineups
    if games < 1 or games % lineups:
        raise UsageError(
            f"--games must be a positive multiple of the {lineups} seatings, not {games}"
        )
    show = args.progress == "always" or (args.progress == "auto" and sys.stderr.isatty())
    try:
        report = tournament(
            entrants,
            rules.name,
            args.players,
            games,
            seed,
            rounds=rounds,
            decks=decks,
            workers=workers,
            ray=args.ray,
            progress=ProgressBar(sys.stderr) if show else None,
        )
    except SimulationFailed as error:
        _complain(f"loveletter tournament: {error}")
        return SIMULATION_FAILED
    if args.json:
        print(json.dumps(report.to_data(), indent=2))
    else:
        for line in format_tournament(report):
            print(line)
    return 0


def _add_tournament_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "tournament",
        help="play bots against each other, seats rotated, and rate them",
        description="Play bots against each other in every seating (so none always sits"
        " first) and report each bot's and each seat's win rate with a 95% Wilson interval,"
        " a head-to-head table and Elo-scale ratings from a Bradley-Terry fit. Each game is"
        " a pure function of the seed and its number: the report is the same however the"
        " games are run (--workers, --ray).",
    )
    _add_game_options(parser, players=2, seed=0)
    parser.add_argument(
        "--bots",
        metavar="NAMES",
        required=True,
        help=f"the entrants, comma-separated: {', '.join(BOT_NAMES)}; a search bot takes"
        " options after a colon, separated by semicolons (search:samples=8;playout=random)",
    )
    parser.add_argument(
        "--games",
        type=int,
        default=None,
        help="games in all, a multiple of the seatings (default: 100 per seating)",
    )
    parser.add_argument(
        "--rounds", type=int, default=None, help="online only, and needed there: rounds per match"
    )
    parser.add_argument(
        "--decks",
        type=int,
        default=None,
        help="online only: copies of the deck shuffled together, 1 to 3 (default: 1)",
    )
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")
    parser.add_argument(
        "--progress",
        choices=("auto", "always", "never"),
        default="auto",
        help="progress bar on stderr (default: %(default)s, only when stderr is a terminal)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        metavar="N",
        default=None,
        help=f"processes playing games at once (default: the cores available, here"
        f" {available_cores()})",
    )
    parser.add_argument(
        "--ray",
        metavar="ADDRESS",
        default=None,
        help="play the games as tasks on Ray (pip install 'loveletter-rules[ray]'), as"
        " simulate --ray does",
    )
    parser.set_defaults(handler=_cmd_tournament)


# --------------------------------------------------------------------------
# the parser


def _add_game_options(parser: argparse.ArgumentParser, players: int, seed: int | None) -> None:
    parser.add_argument("--ruleset", default="2019", help="edition (default: %(default)s)")
    parser.add_argument(
        "--players", type=int, default=players, help="number of players (default: %(default)s)"
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=seed,
        help="seed for every shuffle (default: %(default)s)"
        if seed is not None
        else "seed for every shuffle (default: a random one)",
    )


def _suite_version() -> str:
    """The conformance suite's version, or "unknown" when it cannot be read."""
    try:
        return suite_version()
    except (OSError, KeyError, TypeError, ValueError):
        return "unknown"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="loveletter", description="Love Letter, the card game: play, watch or simulate."
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"loveletter-rules {__version__} (conformance suite {_suite_version()})",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    simulate_parser = commands.add_parser(
        "simulate",
        help="play many games between random bots and report statistics",
        description="Play many games between random bots and report statistics. The games"
        " run on every core (--workers), or as tasks on a Ray cluster (--ray); each game is"
        " a pure function of the seed and its number, so the report is the same however"
        " they are run.",
    )
    _add_game_options(simulate_parser, players=4, seed=0)
    simulate_parser.add_argument(
        "--games",
        type=int,
        default=1000,
        help="games to play, online: matches (default: %(default)s)",
    )
    simulate_parser.add_argument(
        "--rounds",
        type=int,
        default=None,
        help="online only, and needed there: the rounds of each match (a match never ends)",
    )
    simulate_parser.add_argument(
        "--decks",
        type=int,
        default=None,
        help="online only: copies of the deck shuffled together, 1 to 3 (default: 1)",
    )
    simulate_parser.add_argument(
        "--json", action="store_true", help="print the report as one JSON object"
    )
    simulate_parser.add_argument(
        "--progress",
        choices=("auto", "always", "never"),
        default="auto",
        help="progress bar on stderr (default: %(default)s, only when stderr is a terminal)",
    )
    simulate_parser.add_argument(
        "--save",
        metavar="DIR",
        default=None,
        help="save every game's record in DIR as game-00001.json, ... (for loveletter replay);"
        " DIR is made if missing, in a folder that exists",
    )
    simulate_parser.add_argument(
        "--workers",
        type=int,
        metavar="N",
        default=None,
        help=f"processes playing games at once (default: the cores available, here"
        f" {available_cores()}); a short run uses fewer, each at least"
        f" {MIN_GAMES_PER_PROCESS} games",
    )
    simulate_parser.add_argument(
        "--ray",
        metavar="ADDRESS",
        default=None,
        help="play the games as tasks on Ray (pip install 'loveletter-rules[ray]'): 'local'"
        " starts an instance here for the run, 'auto' joins the one 'ray start' started,"
        " ray://HOST:10001 a remote cluster with this package installed",
    )
    simulate_parser.add_argument(
        "--bots",
        metavar="NAMES",
        default=None,
        help=f"the bots: one name for every seat or one per seat, comma-separated"
        f" ({', '.join(BOT_NAMES)}; default: random)",
    )
    simulate_parser.add_argument(
        "--engine",
        choices=ENGINES,
        default="reference",
        help="reference (default) or fast: the compiled simulator (pip install"
        " 'loveletter-rules[fast]'), the same report many times faster; random bots only,"
        f" no --save; with --workers, each process plays at least {MIN_FAST_GAMES_PER_PROCESS:,}"
        " games",
    )
    simulate_parser.set_defaults(handler=_cmd_simulate)
    _add_tournament_parser(commands)

    play_parser = commands.add_parser(
        "play", help="play a game against bots (random ones by default)"
    )
    _add_game_options(play_parser, players=3, seed=None)
    play_parser.add_argument(
        "--seat",
        type=int,
        default=0,
        help="your seat, numbered from 0 like every seat (default: %(default)s)",
    )
    play_parser.add_argument(
        "--save",
        metavar="FILE",
        default=None,
        help="write the game's record to FILE at its end, or when you quit (for loveletter replay)",
    )
    _add_online_options(
        play_parser, "stop the match after that many rounds (default: play until you quit)"
    )
    play_parser.add_argument(
        "--bots",
        metavar="NAMES",
        default=None,
        help=f"your opponents: one name for them all or one per other seat in seat order,"
        f" comma-separated ({', '.join(BOT_NAMES)}; default: random)",
    )
    play_parser.set_defaults(handler=_cmd_play)

    demo_parser = commands.add_parser(
        "demo",
        help="simulate one game between random bots and tell it, then run the conformance"
        " suite against this engine",
        description="Simulate one game between random bots and tell it, turn by turn; then"
        " run the whole conformance suite against this engine, in process, and print its"
        " summary.",
    )
    _add_game_options(demo_parser, players=4, seed=7)
    _add_online_options(demo_parser, f"the rounds of the match told (default: {DEMO_ROUNDS})")
    demo_parser.set_defaults(handler=_cmd_demo)

    rulesets_parser = commands.add_parser("rulesets", help="list the editions")
    rulesets_parser.set_defaults(handler=_cmd_rulesets)

    records_cli.add_parsers(commands)
    rules_cli.add_parser(commands)
    conformance_cli.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status instead of exiting, so
    tests and other programs can call it.

    Standard output is guarded for the whole run, the final flush included
    (output to a file or pipe is buffered, so a full disk may show only
    there): a stream that fails ends the command with one line on stderr
    and :data:`IO_ERROR`, a reader that went away with :data:`READER_GONE`.
    """
    # None when the program was started with stdout closed (``>&-``)
    stdout: TextIO | None = sys.stdout
    _tolerant(stdout, "replace")
    guard = _Guarded(stdout, "standard output", "write to")
    sys.stdout = cast(TextIO, guard)
    words = sys.argv[1:] if argv is None else list(argv)
    # named before parsing, for ``loveletter rules --help`` to a full disk
    command = f" {words[0]}" if words and not words[0].startswith("-") else ""
    try:
        parser = build_parser()
        try:
            args = parser.parse_args(argv)
        except SystemExit as exit_:  # argparse exits on --help and on bad syntax
            sys.stdout.flush()
            return exit_.code if isinstance(exit_.code, int) else USAGE_ERROR
        command = f" {args.command}"
        if stdout is None:
            # Every command's result goes to stdout: refuse before working
            # for nothing (a simulation, a game nobody can see).
            raise IOFailure("cannot write to standard output: it is closed")
        status = _dispatch(args)
        sys.stdout.flush()
        return status
    except IOFailure as error:
        _complain(f"loveletter{command}: {error}")
        if guard.failed:  # not a --save file: stdout itself
            _quiet_stdout(stdout)
        return IO_ERROR
    except _ReaderGone:
        _quiet_stdout(stdout)
        return READER_GONE
    finally:
        sys.stdout = stdout


def _dispatch(args: argparse.Namespace) -> int:
    """The command's exit status; a usage error as one line on stderr."""
    try:
        status: int = args.handler(args)
    except UsageError as error:
        _complain(f"loveletter {args.command}: error: {error}")
        return USAGE_ERROR
    except KeyboardInterrupt:
        _complain("")
        return 130
    return status


def _complain(line: str) -> None:
    """``line`` on stderr, if stderr can take it: print() would send it to
    stdout when stderr is closed, and a failing stderr leaves no one to
    tell."""
    if sys.stderr is not None:
        with contextlib.suppress(OSError):
            print(line, file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
