"""Bots against each other: :func:`tournament` and ``loveletter tournament``.

A tournament seats its entrants (bots named as :func:`~loveletter.bots.make_bot`
knows them: ``random``, ``counter``, ``search``, ``search:samples=8``...) at
tables of ``players`` in every seating, in turn, so that no bot always sits
first (seat 0 starts the first round, which is worth something):

* with at least as many entrants as seats, every ordered choice of
  ``players`` different entrants (two bots at two seats: both orders);
* with fewer, each entrant takes ``players / len(entrants)`` seats (which
  must be whole), in every distinct arrangement.

The seatings are played in *cycles*, each cycle playing every seating once,
so ``games`` must be a whole number of cycles; then every entrant sits in
every seat equally often, and meets every other equally often. The games of
a cycle are dealt from the same seed (duplicate deals: each seating meets
the same first shuffle), which takes some luck out of the comparison.

Game ``i`` is a pure function of the tournament's seed and ``i``: its deal
is ``derive_seed(seed, "deal", i // seatings)`` and the bot at seat ``s``
is seeded with ``derive_seed(seed, "bot", i, s)``. So the report is the
same on one core, on ``workers`` processes or on a Ray cluster (``ray``),
as for :func:`~loveletter.simulation.simulate`.

A game's winners are its winners (a shared win counts for each); online,
where a match of ``rounds`` rounds has no winner, the seats with the
highest win counter at its end. The report gives, per entrant and per seat,
the games, the wins and the win rate with its 95% Wilson score interval
(:func:`wilson_interval`); a head-to-head table (for each two entrants, the
games where one won and the other did not); and ratings on the Elo scale
from a Bradley-Terry fit of those pairwise results (:func:`bradley_terry`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from statistics import NormalDist
from typing import Any

import attrs

from loveletter.bots import make_bot, parse_bot
from loveletter.rulesets import Scoring, get_ruleset
from loveletter.simulation import (
    Progress,
    SimulationFailed,
    _match_settings,
    _run_in_processes,
    derive_seed,
    play_game,
)
from loveletter.state import TableSettings

#: the confidence of every interval in a report
CONFIDENCE = 0.95
#: the Elo scale's centre: the geometric mean strength of the entrants
RATING_CENTRE = 1500.0
#: a Bradley-Terry fit's prior: each pair that met is also given this many
#: virtual games, split evenly, so that a bot that never lost still has a
#: finite rating
PRIOR_GAMES = 1.0
#: the most seatings a tournament may cycle through (8 bots at 8 seats
#: would need 40,320 games per cycle)
MAX_SEATINGS = 5040
#: the most games in one run handed to a worker
_MAX_BATCH = 50
#: runs handed to each worker over a tournament
_BATCHES_PER_WORKER = 8


def wilson_interval(
    successes: float, trials: int, confidence: float = CONFIDENCE
) -> tuple[float, float]:
    """The Wilson score interval of a success rate: ``(low, high)``.

    Better behaved than the normal approximation near 0 and 1 and for few
    trials; with no trials it is the whole of ``(0, 1)``.

    >>> low, high = wilson_interval(60, 100)
    >>> f"{low:.4f} to {high:.4f}"
    '0.5020 to 0.6906'
    """
    if trials < 0 or not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes in {trials} trials is not a rate")
    if not 0 < confidence < 1:
        raise ValueError(f"a confidence between 0 and 1, not {confidence}")
    if trials == 0:
        return 0.0, 1.0
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    rate = successes / trials
    z2 = z * z
    centre = (rate + z2 / (2 * trials)) / (1 + z2 / trials)
    half = (
        z * math.sqrt(rate * (1 - rate) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    )
    # exactly 0 and 1 at the ends, where rounding would leave a trace
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


def bradley_terry(
    wins: Sequence[Sequence[float]], prior: float = PRIOR_GAMES, centre: float = RATING_CENTRE
) -> tuple[float, ...]:
    """Ratings on the Elo scale from pairwise results.

    ``wins[i][j]`` is how often ``i`` beat ``j`` (a draw: half to each).
    The Bradley-Terry model gives each player a strength ``p`` such that
    ``i`` beats ``j`` with chance ``p_i / (p_i + p_j)``; it is fitted by
    maximum likelihood (Hunter's MM iteration), with ``prior`` virtual
    games split evenly between every two players that met, and reported as
    ``centre + 400 log10(p_i / g)``, ``g`` the strengths' geometric mean.
    So 400 points apart is odds of 10 to 1, as in Elo; unlike Elo, the
    order of the games does not matter.

    >>> [round(r) for r in bradley_terry([[0, 75], [25, 0]], prior=0)]
    [1595, 1405]
    """
    n = len(wins)
    if any(len(row) != n for row in wins):
        raise ValueError("wins must be a square table")
    games = [[0.0] * n for _ in range(n)]
    won = [[0.0] * n for _ in range(n)]
    for i, j in itertools.permutations(range(n), 2):
        met = wins[i][j] + wins[j][i]
        if wins[i][j] < 0 or wins[j][i] < 0:
            raise ValueError("wins must not be negative")
        extra = prior if met > 0 else 0.0
        games[i][j] = met + extra
        won[i][j] = wins[i][j] + extra / 2
    strength = [1.0] * n
    for _ in range(10_000):
        updated = []
        for i in range(n):
            total = sum(won[i])
            spread = sum(games[i][j] / (strength[i] + strength[j]) for j in range(n) if j != i)
            updated.append(total / spread if spread > 0 and total > 0 else strength[i])
        mean = math.exp(sum(math.log(max(s, 1e-300)) for s in updated) / n)
        updated = [max(s, 1e-300) / mean for s in updated]
        change = max(abs(a - b) for a, b in zip(updated, strength, strict=True))
        strength = updated
        if change < 1e-12:
            break
    return tuple(centre + 400 * math.log10(s) for s in strength)


def seatings(entrants: int, players: int) -> tuple[tuple[int, ...], ...]:
    """Every seating of a tournament: for each seat, the entrant's number.

    >>> seatings(2, 2)
    ((0, 1), (1, 0))
    >>> len(seatings(3, 2)), len(seatings(2, 4))
    (6, 6)
    """
    if entrants < 2 or players < 2:
        raise ValueError("a tournament needs at least two entrants and two seats")
    if entrants >= players:
        count = math.perm(entrants, players)
        if count > MAX_SEATINGS:
            raise ValueError(f"{count} seatings is too many (at most {MAX_SEATINGS})")
        return tuple(itertools.permutations(range(entrants), players))
    if players % entrants:
        raise ValueError(
            f"{entrants} entrants cannot share {players} seats evenly: give as many entrants"
            f" as seats or more, or a number that divides {players}"
        )
    copies = players // entrants
    count = math.factorial(players) // math.factorial(copies) ** entrants
    if count > MAX_SEATINGS:
        raise ValueError(f"{count} seatings is too many (at most {MAX_SEATINGS})")
    seats = [entrant for entrant in range(entrants) for _ in range(copies)]
    return tuple(sorted(set(itertools.permutations(seats))))


@attrs.frozen
class Standing:
    """How one entrant (or one seat) did: games, wins, the win rate and its
    95% interval."""

    #: the bot, as named to the tournament, or ``"seat N"``
    name: str
    games: int
    #: games won, a shared win included
    wins: int
    win_rate: float
    low: float
    high: float
    #: the Elo-scale rating (entrants only; 0 for a seat)
    rating: float = 0.0
    #: per seat: games played there (entrants only)
    seat_games: tuple[int, ...] = ()
    #: per seat: games won there (entrants only)
    seat_wins: tuple[int, ...] = ()

    def to_data(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        data: dict[str, Any] = {
            "name": self.name,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "interval": [self.low, self.high],
        }
        if self.seat_games:
            data["rating"] = self.rating
            data["seat_games"] = list(self.seat_games)
            data["seat_wins"] = list(self.seat_wins)
        return data


@attrs.frozen
class HeadToHead:
    """Two entrants over the games where both sat: how often each won while
    the other did not, and how often neither or both did."""

    first: str
    second: str
    games: int
    first_ahead: int
    second_ahead: int
    #: both won (a shared win) or neither did
    level: int

    @property
    def first_score(self) -> float:
        """The first's share of the games, a level game counting half."""
        return (self.first_ahead + self.level / 2) / self.games if self.games else 0.5

    def to_data(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return {
            "first": self.first,
            "second": self.second,
            "games": self.games,
            "first_ahead": self.first_ahead,
            "second_ahead": self.second_ahead,
            "level": self.level,
            "first_score": self.first_score,
        }


@attrs.frozen
class TournamentReport:
    """What a :func:`tournament` found."""

    ruleset: str
    players: int
    #: the bots, as named, in the order given
    entrants: tuple[str, ...]
    seed: int
    games: int
    #: how many seatings each cycle plays (``games`` is a multiple)
    seatings: int
    #: rounds played to their end over all games
    rounds: int
    #: games with more than one winner
    shared_games: int
    #: per entrant, in the order given
    standings: tuple[Standing, ...]
    #: per seat, whoever sat there
    seats: tuple[Standing, ...]
    #: every two entrants, in the order given
    head_to_head: tuple[HeadToHead, ...]
    #: online: the rounds of each match (``None`` elsewhere)
    match_rounds: int | None = None
    #: online: copies of the deck
    decks: int = 1

    @property
    def chance_rate(self) -> float:
        """The win rate of a seat by chance alone: one in ``players``."""
        return 1 / self.players

    def to_data(self) -> dict[str, Any]:
        """Plain JSON-ready data."""
        return {
            "ruleset": self.ruleset,
            "players": self.players,
            "entrants": list(self.entrants),
            "seed": self.seed,
            "games": self.games,
            "seatings": self.seatings,
            "rounds": self.rounds,
            "shared_games": self.shared_games,
            "match_rounds": self.match_rounds,
            "decks": self.decks,
            "confidence": CONFIDENCE,
            "rating": "Bradley-Terry fit of the head-to-head results, Elo scale, mean 1500",
            "standings": [standing.to_data() for standing in self.standings],
            "seats": [seat.to_data() for seat in self.seats],
            "head_to_head": [pair.to_data() for pair in self.head_to_head],
        }


@attrs.frozen
class _GameResult:
    """One game as the report counts it."""

    seating: int
    winners: tuple[int, ...]
    rounds: int


@attrs.frozen
class _Matches:
    """Games ``start`` to ``stop`` (excluded) of a tournament: what a worker
    is handed, and all it needs to play them."""

    ruleset: str
    players: int
    entrants: tuple[str, ...]
    lineups: tuple[tuple[int, ...], ...]
    seed: int
    start: int
    stop: int
    rounds: int | None
    settings: TableSettings | None

    def play(self, index: int) -> _GameResult:
        """Game ``index``; its failure as :class:`SimulationFailed`."""
        cycle, seating = divmod(index, len(self.lineups))
        deal = derive_seed(self.seed, "deal", cycle)
        lineup = self.lineups[seating]
        try:
            agents = [
                make_bot(self.entrants[entrant], derive_seed(self.seed, "bot", index, seat))
                for seat, entrant in enumerate(lineup)
            ]
            record = play_game(
                self.ruleset,
                self.players,
                agents,
                seed=deal,
                rounds=self.rounds,
                settings=self.settings,
            )
        except Exception as error:
            raise SimulationFailed.in_game(index, deal, error) from error
        outcome = record.outcome()
        assert outcome is not None  # played to its end, or to its rounds
        winners = outcome.winners
        if not winners:  # online: the highest win counters
            best = max(outcome.tokens)
            winners = tuple(seat for seat, count in enumerate(outcome.tokens) if count == best)
        return _GameResult(seating, winners, outcome.rounds)

    def split(self, workers: int) -> list[_Matches]:
        """These games in consecutive runs for ``workers`` workers."""
        games = self.stop - self.start
        size = max(1, min(_MAX_BATCH, math.ceil(games / (workers * _BATCHES_PER_WORKER))))
        return [
            attrs.evolve(self, start=start, stop=min(start + size, self.stop))
            for start in range(self.start, self.stop, size)
        ]


def _play_matches(matches: _Matches) -> tuple[_GameResult, ...]:
    """Play a run of games (in a worker)."""
    return tuple(matches.play(index) for index in range(matches.start, matches.stop))


def tournament(
    entrants: Sequence[str],
    ruleset: str = "2019",
    players: int = 2,
    games: int | None = None,
    seed: int = 0,
    *,
    rounds: int | None = None,
    decks: int = 1,
    workers: int = 1,
    ray: str | None = None,
    progress: Progress | None = None,
) -> TournamentReport:
    """Play ``entrants`` against each other and report (see
    :mod:`loveletter.tournament`).

    ``games`` must be a whole number of cycles of the seatings
    (:func:`seatings`); by default, 100 cycles. Online, each game is a
    match of ``rounds`` rounds with ``decks`` copies of the deck, as in
    :func:`~loveletter.simulation.simulate`. ``workers`` processes, or a
    Ray cluster at the address ``ray``, play the games with the same
    report; a script that uses ``workers`` must call this under ``if
    __name__ == "__main__":``. ``progress(done, total)`` is called as
    games end. A game that raises stops the tournament with
    :class:`~loveletter.simulation.SimulationFailed`.

    >>> report = tournament(["counter", "random"], "2019", 2, games=20, seed=1)
    >>> [(s.name, s.wins) for s in report.standings]
    [('counter', 19), ('random', 1)]
    """
    names = tuple(entrants)
    for name in names:
        parse_bot(name)  # a bad name fails before any work
    if len(set(names)) != len(names):
        raise ValueError(f"each entrant once: {', '.join(names)}")
    rules = get_ruleset(ruleset)
    if not rules.supports(players):
        raise ValueError(
            f"{rules.name} is for {rules.min_players}-{rules.max_players} players, not {players}"
        )
    lineups = seatings(len(names), players)
    if games is None:
        games = 100 * len(lineups)
    if type(games) is not int or games < 1 or games % len(lineups):
        raise ValueError(
            f"games must be a whole number of cycles of the {len(lineups)} seatings"
            f" (a positive multiple of {len(lineups)}), not {games!r}"
        )
    if type(seed) is not int or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, not {seed!r}")
    if type(workers) is not int or workers < 1:
        raise ValueError(f"workers must be a whole number from 1, not {workers!r}")
    if ray is not None and workers != 1:
        raise ValueError(
            "workers are processes on this machine: with ray, the cluster runs the games"
        )
    settings = _match_settings(rules, rounds, decks)
    run = _Matches(rules.name, players, names, lineups, seed, 0, games, rounds, settings)
    results: list[_GameResult] = []
    if ray is not None:
        from loveletter import distributed  # Ray is an optional extra

        with distributed.connection(ray) as cpus:
            batches = run.split(cpus)
            results = _in_order(
                distributed.run_tasks(_play_matches, batches, cpus), games, progress
            )
    elif min(workers, games) > 1:
        processes = min(workers, games)
        batches = run.split(processes)
        results = _in_order(_run_in_processes(_play_matches, batches, processes), games, progress)
    else:
        for index in range(games):
            results.append(run.play(index))
            if progress is not None:
                progress(index + 1, games)
    return _report(run, results, rounds if settings is not None else None, decks)


def _in_order(
    ended: Iterable[tuple[int, tuple[_GameResult, ...]]], total: int, progress: Progress | None
) -> list[_GameResult]:
    """The runs' results, put back in game order whatever order they ended in."""
    runs: dict[int, tuple[_GameResult, ...]] = {}
    done = 0
    for number, results in ended:
        runs[number] = results
        done += len(results)
        if progress is not None:
            progress(done, total)
    return [result for number in sorted(runs) for result in runs[number]]


def _report(
    run: _Matches, results: Sequence[_GameResult], match_rounds: int | None, decks: int
) -> TournamentReport:
    """Count the games up."""
    names, players = run.entrants, run.players
    count = len(names)
    seat_games = [[0] * players for _ in range(count)]
    seat_wins = [[0] * players for _ in range(count)]
    by_seat = [0] * players
    ahead = [[0] * count for _ in range(count)]
    level = [[0] * count for _ in range(count)]
    met = [[0] * count for _ in range(count)]
    shared = rounds = 0
    for result in results:
        lineup = run.lineups[result.seating]
        rounds += result.rounds
        shared += len(result.winners) > 1
        won = [False] * count
        present = [False] * count
        for seat, entrant in enumerate(lineup):
            seat_games[entrant][seat] += 1
            present[entrant] = True
            if seat in result.winners:
                seat_wins[entrant][seat] += 1
                by_seat[seat] += 1
                won[entrant] = True
        for a, b in itertools.permutations(range(count), 2):
            if present[a] and present[b]:
                met[a][b] += 1
                if won[a] and not won[b]:
                    ahead[a][b] += 1
                elif won[a] == won[b]:
                    level[a][b] += 1
    pairwise = [
        [ahead[a][b] + level[a][b] / 2 if a != b else 0.0 for b in range(count)]
        for a in range(count)
    ]
    ratings = bradley_terry(pairwise)
    standings = []
    for entrant, name in enumerate(names):
        games = sum(seat_games[entrant])
        wins = sum(seat_wins[entrant])
        standings.append(
            _standing(name, wins, games, ratings[entrant], seat_games[entrant], seat_wins[entrant])
        )
    total = len(results)
    seats = tuple(_standing(f"seat {seat}", by_seat[seat], total) for seat in range(players))
    pairs = tuple(
        HeadToHead(names[a], names[b], met[a][b], ahead[a][b], ahead[b][a], level[a][b])
        for a, b in itertools.combinations(range(count), 2)
    )
    return TournamentReport(
        ruleset=run.ruleset,
        players=players,
        entrants=names,
        seed=run.seed,
        games=total,
        seatings=len(run.lineups),
        rounds=rounds,
        shared_games=shared,
        standings=tuple(standings),
        seats=seats,
        head_to_head=pairs,
        match_rounds=match_rounds,
        decks=decks,
    )


def _standing(
    name: str,
    wins: int,
    games: int,
    rating: float = 0.0,
    seat_games: Sequence[int] = (),
    seat_wins: Sequence[int] = (),
) -> Standing:
    low, high = wilson_interval(wins, games)
    return Standing(
        name,
        games,
        wins,
        wins / games if games else 0.0,
        low,
        high,
        rating,
        tuple(seat_games),
        tuple(seat_wins),
    )


def format_tournament(report: TournamentReport) -> list[str]:
    """The report as lines of text (``loveletter tournament`` prints them)."""
    rules = get_ruleset(report.ruleset)
    what = f"{report.players} players"
    if rules.scoring is Scoring.RANKS:
        what += f", matches of {report.match_rounds} rounds, {report.decks} deck(s)"
    lines = [
        f"{rules.title}: {what}, seed {report.seed}",
        f"{report.games} games ({report.games // report.seatings} cycles of"
        f" {report.seatings} seatings), {report.rounds} rounds,"
        f" {report.shared_games} shared wins; a seat wins {report.chance_rate:.1%} by chance",
        "",
        "bot                 games   wins   win rate   95% interval     rating",
    ]
    for s in sorted(report.standings, key=lambda s: -s.rating):
        lines.append(
            f"{s.name:<18} {s.games:>6} {s.wins:>6}   {s.win_rate:>7.1%}   "
            f"{s.low:>6.1%}-{s.high:<6.1%}   {s.rating:>7.0f}"
        )
    lines += ["", "seat                games   wins   win rate   95% interval"]
    for s in report.seats:
        lines.append(
            f"{s.name:<18} {s.games:>6} {s.wins:>6}   {s.win_rate:>7.1%}   "
            f"{s.low:>6.1%}-{s.high:<6.1%}"
        )
    lines += ["", "head to head: games, each one's wins the other lost, level, first's share"]
    for pair in report.head_to_head:
        lines.append(
            f"{pair.first} v {pair.second}: {pair.games} games, {pair.first_ahead} to"
            f" {pair.second_ahead}, {pair.level} level ({pair.first_score:.1%})"
        )
    lines += ["", "rating: a Bradley-Terry fit of the head-to-head results, Elo scale, mean 1500"]
    return [line.rstrip() for line in lines]
