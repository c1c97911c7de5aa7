"""Whole games between agents, and statistics over many random ones.

Everything here goes through the public API (``start_game``, ``step``,
``view``), so a simulation exercises the engine exactly as a client would
and doubles as a long-running smoke test of it.

Statistics are read from the event log, not from states: events say *why*
things happened (how a round ended, why a player went out), which is what a
report wants to count.

An online match never ends by itself (ruling 44), so an online simulation
plays matches of a given number of ``rounds`` (with 1 to 3 ``decks``) and
reports their scoreboards: how often each seat finished at each rank, the
win counters, partial wins by reason, round ends and eliminations.

A simulation can use every core (``workers``) or a Ray cluster (``ray``,
through :mod:`loveletter.distributed`). Each game is a pure function of the
simulation's seed and its index, so runs of consecutive games go to the
workers and their counts are added up in index order: the report is the
same whatever does the work.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import multiprocessing
import os
import signal
import threading
from collections import Counter
from collections.abc import Callable, Generator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from hashlib import blake2b
from types import ModuleType
from typing import Any, TypeVar

import attrs

from loveletter.bots import Agent, RandomBot, make_bot, parse_bot
from loveletter.commands import Command, StartRound
from loveletter.errors import LoveLetterError, SetupError
from loveletter.events import (
    EliminationReason,
    Event,
    GameEnded,
    GameTied,
    PlayerEliminated,
    RoundEnded,
    RoundEndReason,
    RoundStarted,
    TokenAwarded,
    TokenReason,
    TurnStarted,
)
from loveletter.records import GameRecord
from loveletter.rulesets import Ruleset, Scoring, get_ruleset
from loveletter.state import GameState, TableSettings
from loveletter.views import events_for, view

#: called with each batch of new events and the state they lead to
Observer = Callable[[tuple[Event, ...], GameState], None]
#: called as ``progress(done, total)`` after each simulated game
Progress = Callable[[int, int], None]

_START_ROUND = StartRound()
_ROUND_WIN = TokenReason.ROUND_WIN
#: the reasons for a token other than winning a round
_BONUS_REASONS = tuple(reason for reason in TokenReason if reason is not _ROUND_WIN)


def derive_seed(seed: int, *parts: object) -> int:
    """A non-negative 63-bit seed from ``seed`` and a purpose.

    Hashing rather than ``seed + index`` keeps runs with nearby seeds from
    sharing games (seed 1's second game would be seed 2's first), and keeps
    each bot's stream independent of the deck shuffle.
    """
    text = "/".join(map(str, ("loveletter-sim", seed, *parts))).encode()
    return int.from_bytes(blake2b(text, digest_size=8).digest(), "big") >> 1


def random_bots(players: int, seed: int) -> list[RandomBot]:
    """One :class:`RandomBot` per seat, each with its own derived seed."""
    return [RandomBot(derive_seed(seed, "bot", seat)) for seat in range(players)]


def seated_bots(bots: Sequence[str], seed: int) -> list[Agent]:
    """One bot per seat, named by ``bots`` (:func:`~loveletter.bots.make_bot`),
    each with the seed :func:`random_bots` gives that seat: with every name
    ``"random"``, the same bots."""
    return [make_bot(name, derive_seed(seed, "bot", seat)) for seat, name in enumerate(bots)]


def play_game(
    ruleset: str | Ruleset,
    players: int,
    agents: Sequence[Agent],
    *,
    seed: int | None = None,
    first_player: int | None = None,
    observer: Observer | None = None,
    rounds: int | None = None,
    settings: TableSettings | None = None,
) -> GameRecord:
    """Play a game between ``agents`` (one per seat) to its end and return
    its :class:`~loveletter.GameRecord`; ``record.outcome()`` says who won.
    With ``rounds``, stop once that many rounds have ended, if the game has
    not ended before: an online match never ends by itself (ruling 44), so
    it needs ``rounds``; ``settings`` are its table's (decks, time control).

    Whoever must act next (``state.to_act``) is asked: usually the current
    player, but a Bishop's target answers the redraw offer although it is
    not their turn. Each agent is shown only its own :func:`~loveletter.view`
    (its hand, the piles, what it was shown, its legal commands), and an
    agent with an ``observe`` method is handed every batch of events as its
    seat saw them (:func:`~loveletter.events_for`). Rounds are dealt with a
    plain ``StartRound()``, so the seed decides every shuffle; without
    ``seed`` the game takes a fresh secret one. ``observer`` sees each batch
    of unredacted events and the state they lead to, which is how a front
    end narrates a game. A command an agent returns that the rules refuse
    raises :class:`~loveletter.IllegalCommand`.
    """
    if len(agents) != players:
        raise SetupError("agents", f"{players} players need {players} agents, not {len(agents)}")
    if rounds is not None and (type(rounds) is not int or rounds < 1):
        raise SetupError("rounds", f"a number of rounds from 1, not {rounds!r}")
    record = GameRecord.new(
        ruleset, players, seed=seed, first_player=first_player, settings=settings
    )
    if rounds is None and record.ruleset.scoring is Scoring.RANKS:
        raise SetupError(
            "rounds", f"{record.ruleset.name} matches never end: say how many rounds to play"
        )
    watchers = [
        (seat, observe)
        for seat, agent in enumerate(agents)
        if callable(observe := getattr(agent, "observe", None))
    ]
    _show(record.events, record.state, observer, watchers)
    state = record.state
    while not state.is_over:
        if rounds is not None and state.round_over and state.round_number >= rounds:
            break
        actor = state.to_act
        # Between rounds nobody acts: dealing is a chance step.
        command: Command = (
            _START_ROUND if actor is None else agents[actor].choose(view(state, actor))
        )
        before = len(record.events)
        record = record.push(command)
        state = record.state
        _show(record.events[before:], state, observer, watchers)
    return record


def _show(
    events: tuple[Event, ...],
    state: GameState,
    observer: Observer | None,
    watchers: list[tuple[int, Callable[[tuple[Event, ...]], object]]],
) -> None:
    if observer is not None:
        observer(events, state)
    for seat, observe in watchers:
        observe(events_for(seat, events))


@attrs.frozen
class SimulationReport:
    """What many games of random play looked like, counted per seat where it
    makes sense (seat 0 always starts round 1, so seats are not symmetric)."""

    ruleset: str
    players: int
    seed: int
    games: int
    #: rounds played to their end (a game won mid-round leaves one unfinished)
    rounds: int
    turns: int
    #: games won, by seat; a shared win counts for each winner
    game_wins: tuple[int, ...]
    #: games that ended with more than one winner
    shared_games: int
    #: rounds won, by seat; a tied round counts for each winner
    round_wins: tuple[int, ...]
    #: extra tokens for being the only Spy left, by seat
    spy_tokens: tuple[int, ...]
    #: how many rounds ended each way (every reason present, maybe 0)
    round_ends: dict[RoundEndReason, int]
    #: how many players went out each way (every reason present, maybe 0)
    eliminations: dict[EliminationReason, int]
    #: tokens gained other than by winning a round (Spy, Bishop, Constable,
    #: Jester), by reason then seat; every such reason present, maybe all 0
    bonus_tokens: dict[TokenReason, tuple[int, ...]] = attrs.field(factory=dict)
    #: games in which players tied for the game and played a tie-break round
    tied_games: int = 0
    #: games won mid-round, by a token that is not a round's (Premium)
    mid_round_wins: int = 0
    #: online: copies of the deck in play
    decks: int = 1
    #: online: the rounds each match was played for (``None`` elsewhere:
    #: a game ends by itself)
    match_rounds: int | None = None
    #: online: for each seat, the rounds it finished at each rank:
    #: ``ranks[seat][rank - 1]`` (empty elsewhere)
    ranks: tuple[tuple[int, ...], ...] = ()
    #: online: each seat's win counters added up over every match (round
    #: wins and partial wins; empty elsewhere)
    win_counters: tuple[int, ...] = ()
    #: each seat's bot by name, when not all random (empty: random bots)
    bots: tuple[str, ...] = ()

    @property
    def ranked(self) -> bool:
        """Whether the rounds were ranked (online)."""
        return self.match_rounds is not None

    @property
    def mean_turns_per_round(self) -> float:
        return self.turns / self.rounds if self.rounds else 0.0

    @property
    def mean_rounds_per_game(self) -> float:
        return self.rounds / self.games if self.games else 0.0

    def to_data(self) -> dict[str, Any]:
        """Plain JSON-ready data; enum keys become their string values so
        that other tools can read the report without this package. An
        online report adds ``decks``, ``match_rounds``, ``ranks`` and
        ``win_counters``; one between named bots, ``bots``."""
        data = self._common_data()
        if self.bots:
            data["bots"] = list(self.bots)
        if self.ranked:
            data["decks"] = self.decks
            data["match_rounds"] = self.match_rounds
            data["ranks"] = [list(counts) for counts in self.ranks]
            data["win_counters"] = list(self.win_counters)
        return data

    def _common_data(self) -> dict[str, Any]:
        return {
            "ruleset": self.ruleset,
            "players": self.players,
            "seed": self.seed,
            "games": self.games,
            "rounds": self.rounds,
            "turns": self.turns,
            "mean_rounds_per_game": self.mean_rounds_per_game,
            "mean_turns_per_round": self.mean_turns_per_round,
            "game_wins": list(self.game_wins),
            "shared_games": self.shared_games,
            "round_wins": list(self.round_wins),
            "spy_tokens": list(self.spy_tokens),
            "round_ends": {reason.value: n for reason, n in self.round_ends.items()},
            "eliminations": {reason.value: n for reason, n in self.eliminations.items()},
            "bonus_tokens": {reason.value: list(n) for reason, n in self.bonus_tokens.items()},
            "tied_games": self.tied_games,
            "mid_round_wins": self.mid_round_wins,
        }


class _Tally:
    """Running counts, fed one game's log at a time so memory stays flat
    however many games are simulated."""

    def __init__(self, players: int) -> None:
        self.games = 0
        self.rounds = 0
        self.turns = 0
        self.shared_games = 0
        self.game_wins = [0] * players
        self.round_wins = [0] * players
        self.bonus_tokens = {reason: [0] * players for reason in _BONUS_REASONS}
        self.round_ends: Counter[RoundEndReason] = Counter()
        self.eliminations: Counter[EliminationReason] = Counter()
        self.tied_games = 0
        self.mid_round_wins = 0
        self.ranks = [[0] * players for _ in range(players)]
        self.win_counters = [0] * players

    def add(self, events: Sequence[Event]) -> None:
        self.games += 1
        tied = False
        round_open = False
        tokens = [0] * len(self.win_counters)
        for event in events:
            kind = type(event)
            if kind is TurnStarted:
                self.turns += 1
            elif kind is PlayerEliminated:
                assert isinstance(event, PlayerEliminated)
                self.eliminations[event.reason] += 1
            elif kind is RoundStarted:
                round_open = True
            elif kind is RoundEnded:
                assert isinstance(event, RoundEnded)
                round_open = False
                self.rounds += 1
                self.round_ends[event.reason] += 1
                for seat in event.winners:
                    self.round_wins[seat] += 1
                if event.ranks is not None:
                    for seat, rank in enumerate(event.ranks):
                        if rank is not None:
                            self.ranks[seat][rank - 1] += 1
            elif kind is TokenAwarded:
                assert isinstance(event, TokenAwarded)
                tokens[event.player] = event.total
                if event.reason is not _ROUND_WIN:
                    self.bonus_tokens[event.reason][event.player] += 1
            elif kind is GameTied:
                tied = True
            elif kind is GameEnded:
                assert isinstance(event, GameEnded)
                for seat in event.winners:
                    self.game_wins[seat] += 1
                if len(event.winners) > 1:
                    self.shared_games += 1
                if round_open:
                    self.mid_round_wins += 1
        if tied:
            self.tied_games += 1
        for seat, total in enumerate(tokens):
            self.win_counters[seat] += total

    def merge(self, other: _Tally) -> None:
        """Add the counts of ``other``, another run of games of the same
        simulation (from a worker)."""
        self.games += other.games
        self.rounds += other.rounds
        self.turns += other.turns
        self.shared_games += other.shared_games
        self.tied_games += other.tied_games
        self.mid_round_wins += other.mid_round_wins
        self.round_ends.update(other.round_ends)
        self.eliminations.update(other.eliminations)
        _add_into(self.game_wins, other.game_wins)
        _add_into(self.round_wins, other.round_wins)
        _add_into(self.win_counters, other.win_counters)
        for reason, counts in self.bonus_tokens.items():
            _add_into(counts, other.bonus_tokens[reason])
        for counts, more in zip(self.ranks, other.ranks, strict=True):
            _add_into(counts, more)


def _add_into(counts: list[int], more: Sequence[int]) -> None:
    for seat, n in enumerate(more):
        counts[seat] += n


class SimulationFailed(LoveLetterError, RuntimeError):
    """A simulation that could not run to its end.

    When a game raised, ``index`` and ``game_seed`` name it, so that it can
    be played again on its own (``play_game(ruleset, players,
    random_bots(players, game_seed), seed=game_seed)``, with the run's
    ``rounds`` and decks online). Both are ``None`` when what failed is the
    machinery: a worker process that died, a Ray cluster that cannot be
    reached or that lost a task. The original error is the ``__cause__``;
    from another process it arrives as its traceback's text.
    """

    def __init__(
        self, message: str, index: int | None = None, game_seed: int | None = None
    ) -> None:
        super().__init__(message)
        self.detail = message
        #: the failing game's index in the simulation
        self.index = index
        #: the failing game's seed: ``derive_seed(seed, "game", index)``
        self.game_seed = game_seed

    @classmethod
    def in_game(cls, index: int, game_seed: int, error: Exception) -> SimulationFailed:
        """The failure of game ``index``, dealt from ``game_seed``."""
        message = f"game {index} (game seed {game_seed}) failed: {type(error).__name__}: {error}"
        return cls(message, index, game_seed)

    def __reduce__(self) -> tuple[type[SimulationFailed], tuple[str, int | None, int | None]]:
        # Pickled to come back from a worker process: the default would
        # call the class with the message alone and lose the game.
        return (type(self), (self.detail, self.index, self.game_seed))


def simulate(
    ruleset: str,
    players: int,
    games: int,
    seed: int,
    progress: Progress | None = None,
    keep: Callable[[int, GameRecord], object] | None = None,
    *,
    rounds: int | None = None,
    decks: int = 1,
    workers: int = 1,
    ray: str | None = None,
    engine: str = "reference",
    bots: Sequence[str] | None = None,
) -> SimulationReport:
    """Play ``games`` whole games between :class:`RandomBot` players, or
    between the ``bots`` named, one per seat or one name for every seat
    (``"random"``, ``"counter"``, ``"search"``:
    :func:`~loveletter.bots.make_bot`; the fast engine plays random bots
    only).

    Game ``i`` is dealt from ``derive_seed(seed, "game", i)`` and its bots
    are seeded from that, so the report is a pure function of the
    arguments, and any single game can be replayed on its own.
    ``keep(index, record)`` is handed each game's record (to save it), in
    index order; otherwise records are dropped so memory stays flat.
    ``progress(done, total)`` is called as games end.

    Online, each game is a match of ``rounds`` rounds (required: a match
    never ends by itself) played with ``decks`` copies of the deck (1 to
    3); game ``i`` is then ``play_game(..., rounds=rounds,
    settings=TableSettings(decks=decks))``. Other editions end by themselves
    and play one deck: ``rounds`` and ``decks`` are refused there.

    ``workers`` processes play the games at once, each a run of
    consecutive games at a time (how many cores this machine gives:
    :func:`~loveletter.simulation.available_cores`). The report, and what
    ``keep`` sees, do not depend on ``workers``. Each process gets at least
    ``MIN_GAMES_PER_PROCESS`` games (starting one costs about as much as
    playing them), so a short run starts fewer processes, or none and
    plays here. The processes start fresh ("spawn"), so a script that
    calls ``simulate`` with ``workers`` must do so under ``if __name__ ==
    "__main__":``, as any ``multiprocessing`` program must.

    ``ray`` plays the games as tasks on a Ray cluster instead, with the
    same report (the ``ray`` extra: ``pip install
    'loveletter-rules[ray]'``). It is the address given to ``ray.init``:
    ``"local"`` starts an instance on this machine for the run, ``"auto"``
    joins the one ``ray start`` started on this machine, and
    ``"ray://host:10001"`` a remote cluster (Ray Client, which needs
    ``ray[client]``), whose machines must have this package installed. A
    process already connected (``ray.is_initialized()``) runs on that
    connection, and keeps it open. ``workers`` is for one machine and
    stays 1 with ``ray``.

    ``engine="fast"`` plays the same games in the compiled simulator
    (:mod:`loveletter.fast.simulate`; the ``fast`` extra: ``pip install
    'loveletter-rules[fast]'``), bots' choices and all, and counts the same
    statistics: the report is equal to the reference engine's for the same
    arguments, many times faster. It plays the editions and player counts
    of :data:`loveletter.fast.SUPPORTED`, with ``workers`` and ``ray`` as
    the reference does, and keeps no records: it refuses ``keep``.

    A game that raises, a worker that dies or a cluster that fails stops
    the run with one :class:`~loveletter.simulation.SimulationFailed`,
    naming the game when it was one.
    """
    rules = get_ruleset(ruleset)  # fail on a bad name before any work
    if not rules.supports(players):
        raise ValueError(
            f"{rules.name} is for {rules.min_players}-{rules.max_players} players, not {players}"
        )
    if games < 0:
        raise ValueError(f"games must not be negative, not {games}")
    if seed < 0:
        raise ValueError(f"seed must be a non-negative integer, not {seed}")
    if type(workers) is not int or workers < 1:
        raise ValueError(f"workers must be a whole number from 1, not {workers!r}")
    if ray is not None and workers != 1:
        raise ValueError(
            "workers are processes on this machine: with ray, the cluster runs the games"
        )
    settings = _match_settings(rules, rounds, decks)
    fast = _check_engine(engine, rules.name, players, keep)
    named = _check_bots(bots, players, fast)
    run = _Games(
        rules.name, players, seed, 0, games, rounds, settings, keep is not None, engine, named
    )
    tally = _Tally(players)
    least = MIN_FAST_GAMES_PER_PROCESS if fast else MIN_GAMES_PER_PROCESS
    most = _MAX_FAST_BATCH if fast else _MAX_BATCH
    processes = min(workers, games // least)
    if ray is not None:
        from loveletter import distributed  # Ray is an optional extra

        with distributed.connection(ray) as cpus:
            batches = run.split(cpus, most)
            _gather(distributed.in_tasks(batches, cpus), batches, tally, keep, progress)
    elif processes > 1:
        batches = run.split(processes, most)
        _gather(_in_processes(batches, processes), batches, tally, keep, progress)
    elif fast:
        for batch in run.split(1, most):
            tally.merge(_play_games(batch).tally)
            if progress is not None:
                progress(tally.games, games)
    else:
        for index in range(games):
            record = run.play(index)
            tally.add(record.events)
            if keep is not None:
                keep(index, record)
            if progress is not None:
                progress(index + 1, games)
    ranked = settings is not None
    return SimulationReport(
        ruleset=rules.name,
        players=players,
        seed=seed,
        games=tally.games,
        rounds=tally.rounds,
        turns=tally.turns,
        game_wins=tuple(tally.game_wins),
        shared_games=tally.shared_games,
        round_wins=tuple(tally.round_wins),
        spy_tokens=tuple(tally.bonus_tokens[TokenReason.SPY]),
        round_ends={reason: tally.round_ends[reason] for reason in RoundEndReason},
        eliminations={reason: tally.eliminations[reason] for reason in EliminationReason},
        bonus_tokens={reason: tuple(n) for reason, n in tally.bonus_tokens.items()},
        tied_games=tally.tied_games,
        mid_round_wins=tally.mid_round_wins,
        decks=decks,
        match_rounds=rounds if ranked else None,
        ranks=tuple(map(tuple, tally.ranks)) if ranked else (),
        win_counters=tuple(tally.win_counters) if ranked else (),
        bots=named or (),
    )


#: the fewest games worth a process of their own: starting one (a fresh
#: interpreter importing this package) costs about as much as 50 games
MIN_GAMES_PER_PROCESS = 50
#: the same for the fast engine, whose worker also loads numba and the
#: compiled code: about a second of CPU, some 50,000 of its games (classic)
MIN_FAST_GAMES_PER_PROCESS = 50_000
#: runs handed to each worker over a simulation: several, so that a worker
#: given slow games does not hold up the end while the others wait
_BATCHES_PER_WORKER = 8
#: the most games in one run: progress is reported, and an interrupted
#: simulation stops, a run at a time
_MAX_BATCH = 100
#: the same for the fast engine, which plays some 50 times as many games a second
_MAX_FAST_BATCH = 5000
#: runs sent ahead to each worker, so none waits for work; a bound, so that
#: runs finished ahead of a slow one (held back to keep index order) stay few
_IN_FLIGHT_PER_WORKER = 3


def available_cores() -> int:
    """The cores this process may run on: the default number of workers of
    ``loveletter simulate``."""
    # os.process_cpu_count is Python 3.13's; sched_getaffinity is not on
    # every system; both heed a process pinned to some cores, cpu_count not.
    counted: Callable[[], int | None] | None = getattr(os, "process_cpu_count", None)
    if counted is not None:
        return counted() or 1
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


@attrs.frozen
class _Games:
    """Games ``start`` to ``stop`` (excluded) of a simulation: what a worker
    is handed, and all it needs to play them."""

    ruleset: str
    players: int
    seed: int
    start: int
    stop: int
    rounds: int | None
    settings: TableSettings | None
    #: whether to send the records back (for ``keep``)
    records: bool
    #: ``"reference"`` or ``"fast"`` (the compiled simulator)
    engine: str = "reference"
    #: each seat's bot by name (:func:`~loveletter.bots.make_bot`); ``None``:
    #: random bots
    bots: tuple[str, ...] | None = None

    def play(self, index: int) -> GameRecord:
        """Game ``index`` of the simulation; its failure as
        :class:`SimulationFailed`."""
        game_seed = derive_seed(self.seed, "game", index)
        try:
            return play_game(
                self.ruleset,
                self.players,
                random_bots(self.players, game_seed)
                if self.bots is None
                else seated_bots(self.bots, game_seed),
                seed=game_seed,
                rounds=self.rounds,
                settings=self.settings,
            )
        except Exception as error:
            raise SimulationFailed.in_game(index, game_seed, error) from error

    def split(self, workers: int, most: int = _MAX_BATCH) -> list[_Games]:
        """These games in consecutive runs for ``workers`` workers, at most
        ``most`` games each."""
        games = self.stop - self.start
        size = max(1, min(most, math.ceil(games / (workers * _BATCHES_PER_WORKER))))
        return [
            attrs.evolve(self, start=start, stop=min(start + size, self.stop))
            for start in range(self.start, self.stop, size)
        ]


@attrs.frozen
class _Played:
    """What a worker sends back: the counts of its games, and their records
    if asked for."""

    tally: _Tally
    records: tuple[GameRecord, ...]


def _play_games(games: _Games) -> _Played:
    """Play a run of games (in a worker)."""
    if games.engine == "fast":
        return _Played(_fast_tally(games), ())
    tally = _Tally(games.players)
    records = []
    for index in range(games.start, games.stop):
        record = games.play(index)
        tally.add(record.events)
        if games.records:
            records.append(record)
    return _Played(tally, tuple(records))


#: the engines ``simulate`` plays with
ENGINES = ("reference", "fast")


def _check_engine(
    engine: str, ruleset: str, players: int, keep: Callable[[int, GameRecord], object] | None
) -> bool:
    """Whether the run is the fast engine's (numba installed, the table one
    it simulates, no records wanted); a clear error if it cannot be."""
    if engine not in ENGINES:
        raise ValueError(f"engine is 'reference' or 'fast', not {engine!r}")
    if engine == "reference":
        return False
    if keep is not None:
        raise ValueError(
            "the fast engine keeps no records: it plays games as arrays, with no events;"
            " keep records with engine='reference'"
        )
    fast = _fast_engine()
    supported = fast.SUPPORTED.get(ruleset, range(0))
    if players not in supported:
        raise ValueError(f"the fast engine does not simulate {ruleset} with {players} players")
    return True


def _check_bots(bots: Sequence[str] | None, players: int, fast: bool) -> tuple[str, ...] | None:
    """Each seat's bot by name, checked; ``None`` when every seat is a
    random bot (as without ``bots``)."""
    if bots is None:
        return None
    named = (bots,) * players if isinstance(bots, str) else tuple(bots)
    if len(named) != players:
        raise ValueError(f"bots: one per seat ({players}), not {len(named)}")
    for name in named:
        parse_bot(name)
    if all(name == "random" for name in named):
        return None
    if fast:
        raise ValueError("the fast engine plays random bots only: other bots need the reference")
    return named


def _fast_engine() -> ModuleType:
    """:mod:`loveletter.fast`, or a clear error naming the extra."""
    try:
        import loveletter.fast  # numba is an optional extra
    except ImportError as error:
        raise SimulationFailed(
            f"the fast engine needs the fast extra ({error}): pip install 'loveletter-rules[fast]'"
        ) from error
    return loveletter.fast


def _fast_tally(games: _Games) -> _Tally:
    """Play a run of games in the compiled simulator, counted as the
    reference's games are (:func:`loveletter.fast.simulate.simulate_games`)."""
    from loveletter.fast.simulate import FastGameFailed, simulate_games

    decks = 1 if games.settings is None else games.settings.decks
    try:
        counted = simulate_games(
            games.ruleset,
            games.players,
            games.seed,
            games.start,
            games.stop,
            rounds=games.rounds,
            decks=decks,
        )
    except FastGameFailed as error:
        game_seed = derive_seed(games.seed, "game", error.index)
        raise SimulationFailed.in_game(error.index, game_seed, error) from error
    tally = _Tally(games.players)
    tally.games = counted.games
    tally.rounds = counted.rounds
    tally.turns = counted.turns
    tally.shared_games = counted.shared_games
    tally.tied_games = counted.tied_games
    tally.mid_round_wins = counted.mid_round_wins
    tally.game_wins = list(counted.game_wins)
    tally.round_wins = list(counted.round_wins)
    tally.win_counters = list(counted.win_counters)
    tally.round_ends.update(counted.round_ends)
    tally.eliminations.update(counted.eliminations)
    tally.ranks = [list(counts) for counts in counted.ranks]
    for reason, counts in counted.bonus_tokens.items():
        tally.bonus_tokens[reason] = list(counts)
    return tally


#: runs played elsewhere, each as ``(its place in the list, what it gave)``
#: as it ends, in any order
_Results = Generator[tuple[int, _Played], None, None]
#: what a worker is handed, and what it gives back (``_run_in_processes``)
_Batch = TypeVar("_Batch")
_Outcome = TypeVar("_Outcome")


def _gather(
    results: _Results,
    batches: Sequence[_Games],
    tally: _Tally,
    keep: Callable[[int, GameRecord], object] | None,
    progress: Progress | None,
) -> None:
    """Add up the runs in index order, handing ``keep`` their records as
    they fall due, whatever order the runs end in."""
    total = sum(batch.stop - batch.start for batch in batches)
    ended: dict[int, _Played] = {}
    due = 0
    done = 0
    # closing: a failing keep or progress stops the workers at once
    with contextlib.closing(results):
        for number, played in results:
            ended[number] = played
            done += played.tally.games
            while due in ended:
                played = ended.pop(due)
                tally.merge(played.tally)
                if keep is not None:
                    for index, record in enumerate(played.records, batches[due].start):
                        keep(index, record)
                due += 1
            if progress is not None:
                progress(done, total)


def _in_processes(batches: Sequence[_Games], processes: int) -> _Results:
    """Play the runs on ``processes`` worker processes."""
    return _run_in_processes(_play_games, batches, processes)


def _run_in_processes(
    play: Callable[[_Batch], _Outcome], batches: Sequence[_Batch], processes: int
) -> Generator[tuple[int, _Outcome], None, None]:
    """``play`` each batch on ``processes`` worker processes; each result as
    it ends, numbered by its batch's place in ``batches`` (a tournament's
    games go the same way: :mod:`loveletter.tournament`). ``play`` and the
    batches are pickled to the workers, so ``play`` is a module's function."""
    # spawn starts the same way on every system; fork is unsafe once
    # threads run, and neither fork nor forkserver exists on Windows.
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(processes, mp_context=context)
    pending: dict[Future[_Outcome], int] = {}
    queued = iter(enumerate(batches))
    window = processes * _IN_FLIGHT_PER_WORKER
    starting = _interrupts_ignored()  # the pool starts its processes on the first submits
    try:
        with starting:
            for number, batch in itertools.islice(queued, window):
                pending[pool.submit(play, batch)] = number
        while True:
            for number, batch in itertools.islice(queued, window - len(pending)):
                pending[pool.submit(play, batch)] = number
            if not pending:
                return
            ended, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in ended:
                yield pending.pop(future), future.result()
    except BrokenProcessPool as error:
        raise SimulationFailed(f"a worker process stopped without a word: {error}") from error
    finally:
        # On an error or Ctrl-C, runs not started are dropped and the
        # running ones (a fraction of a second each) finish.
        pool.shutdown(wait=True, cancel_futures=True)


@contextlib.contextmanager
def _interrupts_ignored() -> Generator[None, None, None]:
    """Ctrl-C ignored while the worker processes start, so that they ignore
    it for good (a process inherits an ignored signal): Ctrl-C is the
    parent's to handle, by stopping the pool, and a worker interrupted
    would print its own traceback."""
    previous = signal.getsignal(signal.SIGINT)
    # Only the main thread may set handlers (it is the one that gets the
    # signal); a handler set outside Python (None) could not be put back.
    if previous is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _match_settings(rules: Ruleset, rounds: int | None, decks: int) -> TableSettings | None:
    """The table of an online match (checking ``rounds`` and ``decks``), or
    ``None`` for an edition whose games end by themselves."""
    if type(decks) is not int or not 1 <= decks <= rules.max_decks:
        if rules.max_decks == 1:
            raise ValueError(f"{rules.name} plays one deck, not {decks!r}: decks are online only")
        raise ValueError(f"{rules.name} plays 1 to {rules.max_decks} decks, not {decks!r}")
    if rules.scoring is not Scoring.RANKS:
        if rounds is not None:
            raise ValueError(
                f"{rules.name} games end when a player has the tokens to win:"
                " rounds are for online matches only"
            )
        return None
    if rounds is None:
        raise ValueError(f"{rules.name} matches never end: say how many rounds each plays")
    if type(rounds) is not int or rounds < 1:
        raise ValueError(f"rounds must be a whole number from 1, not {rounds!r}")
    return TableSettings(decks=decks)
