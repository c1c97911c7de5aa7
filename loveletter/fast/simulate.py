"""Whole games between random bots, compiled: the engine of ``simulate(..., engine="fast")``.

:func:`simulate_games` plays a run of a simulation's games
(:func:`loveletter.simulation.simulate`), :func:`play_random_games` games
from seeds given. Both play the games that
:func:`loveletter.simulation.play_game` plays between
:class:`~loveletter.RandomBot` seats, command for command: each game is
dealt from its seed exactly as the reference deals
(:meth:`FastBatch.reset <loveletter.fast.FastBatch.reset>` with
``seeds``), and each seat chooses as ``random.Random(seed).choice`` does
among the legal commands, whose ids, ascending, are the commands in the
reference's order (:mod:`loveletter.fast.tables`), with CPython's
generator compiled (:mod:`loveletter.fast.mersenne`). A seat's generator
moves only when that seat must act (a Bishop's target answers the redraw
offer on another's turn), as a bot is only asked then.

It counts what :class:`~loveletter.simulation.SimulationReport` reports,
as the reference's simulation counts it from events: the same numbers
for the same seeds. The counts are read from the state around each
command (what the compiled rules leave there is what the reference's
events say, the differential proves it): a seat newly out was knocked
out by the card just played; when a round ends, its winners' tokens are
round wins, and the sole Spy's and the Jester's are counted as the
rules give them (spy.sole-spy-token, jester.mark-expected-winner); any
other token gained is a Constable's if its seat was just knocked out
(constable.knocked-out-token), else the Bishop's
(bishop.correct-number-token).

>>> games = play_random_games("2019-classic", 4, [11, 12], [[1, 2, 3, 4], [5, 6, 7, 8]])
>>> games.games, sum(games.game_wins) >= 2, games.rounds >= 2 * 4
(2, True, True)
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import attrs
import numpy as np
import numpy.typing as npt

from loveletter.events import EliminationReason, RoundEndReason, TokenReason
from loveletter.fast import kernel as k
from loveletter.fast import mersenne
from loveletter.fast.tables import (
    ACT_REDRAW,
    BARON,
    DOWAGER_QUEEN,
    GUARD,
    SPY,
    action_table,
    edition,
)

__all__ = ["FastGameFailed", "RandomGames", "play_random_games", "simulate_games"]

#: the reasons counted, in the order of the compiled counts
ROUND_END_REASONS = (RoundEndReason.ONE_PLAYER_LEFT, RoundEndReason.DECK_EMPTY)
ELIMINATION_REASONS = (
    EliminationReason.GUARD_GUESS,
    EliminationReason.BARON_COMPARISON,
    EliminationReason.PRINCESS_DISCARDED,
    EliminationReason.ASSASSIN,
    EliminationReason.DOWAGER_COMPARISON,
)
BONUS_REASONS = (TokenReason.SPY, TokenReason.BISHOP, TokenReason.CONSTABLE, TokenReason.JESTER)
_GUARD_GUESS, _BARON, _PRINCESS, _ASSASSIN, _DOWAGER = range(5)
_SPY, _BISHOP, _CONSTABLE, _JESTER = range(4)

# The compiled counts: one int64 array, a seat's entries MAX_PLAYERS apart.
_SEATS = k.MAX_PLAYERS
C_GAMES = 0
C_ROUNDS = 1
C_TURNS = 2
C_SHARED = 3  # games with more than one winner
C_TIED = 4  # games that called a tie-break round
C_MID_ROUND = 5  # games won in the middle of a round
C_ROUND_ENDS = 6  # by ROUND_END_REASONS
C_ELIMINATIONS = C_ROUND_ENDS + len(ROUND_END_REASONS)  # by ELIMINATION_REASONS
C_GAME_WINS = 16  # by seat
C_ROUND_WINS = C_GAME_WINS + _SEATS
C_WIN_COUNTERS = C_ROUND_WINS + _SEATS  # the tokens each seat ended its games with
C_BONUS = C_WIN_COUNTERS + _SEATS  # by BONUS_REASONS, then seat
C_RANKS = C_BONUS + len(BONUS_REASONS) * _SEATS  # by seat, then rank - 1
COUNTS = C_RANKS + _SEATS * _SEATS

#: the most a seed may be: the compiled code holds it in 64 bits, as
#: :func:`loveletter.simulation.derive_seed` makes them
MAX_SEED = 2**63 - 1
_PREFIX = np.frombuffer(b"loveletter/", dtype=np.uint8).astype(np.int64)
#: a failure of the accounting itself: a token no rule explains
_ERR_COUNTS = 100


class FastGameFailed(RuntimeError):
    """A game the compiled simulator could not play to its end (its rules
    met something they cannot do, or its counts did not add up): a bug of
    the simulator, which the reference engine can replay from the seeds."""

    def __init__(self, index: int, code: int) -> None:
        what = "its tokens did not add up" if code == _ERR_COUNTS else f"error code {code}"
        super().__init__(f"the compiled simulator failed game {index}: {what}")
        #: the game's place in the list of seeds (:func:`play_random_games`),
        #: or its number in the simulation (:func:`simulate_games`)
        self.index = index
        #: the kernel's error code (``F_ERROR``)
        self.code = code


@attrs.frozen
class RandomGames:
    """What :func:`simulate_games` or :func:`play_random_games` counted: the counts of
    :class:`~loveletter.simulation.SimulationReport`, by seat where it
    counts by seat."""

    games: int
    #: rounds that ended (a game won mid-round leaves one unfinished)
    rounds: int
    turns: int
    #: games won, by seat (a shared win counts for each winner)
    game_wins: tuple[int, ...]
    shared_games: int
    #: rounds won, by seat (online: ranked first)
    round_wins: tuple[int, ...]
    round_ends: dict[RoundEndReason, int]
    eliminations: dict[EliminationReason, int]
    #: tokens other than a round's, by reason then seat
    bonus_tokens: dict[TokenReason, tuple[int, ...]]
    #: games that called a tie-break round (ruling 31)
    tied_games: int
    #: games won mid-round, by a token that is not a round's (Premium)
    mid_round_wins: int
    #: for each seat, the rounds it finished at each rank (online; zeros elsewhere)
    ranks: tuple[tuple[int, ...], ...]
    #: each seat's tokens (online: win counters) at its games' ends, added up
    win_counters: tuple[int, ...]


def play_random_games(
    ruleset: str,
    players: int,
    seeds: Sequence[int],
    bot_seeds: Sequence[Sequence[int]],
    *,
    rounds: int | None = None,
    decks: int = 1,
) -> RandomGames:
    """Play a game from each of ``seeds`` between random bots seeded with
    the matching row of ``bot_seeds`` (one per seat), and count them.

    Game ``i`` is ``play_game(ruleset, players, [RandomBot(s) for s in
    bot_seeds[i]], seed=seeds[i], rounds=rounds,
    settings=TableSettings(decks=decks))`` (no settings but online), played
    to its end or, with ``rounds`` (online, where a match never ends),
    until that many rounds have ended. Seeds are from 0 to
    :data:`MAX_SEED`. A game the simulator fails raises
    :class:`FastGameFailed` naming its index in ``seeds``.
    """
    if len(bot_seeds) != len(seeds):
        raise ValueError("one row of bot seeds per game")
    game_seeds = _seed_array(seeds, (len(seeds),))
    seat_seeds = _seed_array(bot_seeds, (len(seeds), players))
    t = _Table(ruleset, players, rounds, decks)
    failed = _play_listed(*t.arrays(), game_seeds, seat_seeds)
    t.check(failed)
    return _counted(t.counts, players)


def simulate_games(
    ruleset: str,
    players: int,
    seed: int,
    start: int,
    stop: int,
    *,
    rounds: int | None = None,
    decks: int = 1,
) -> RandomGames:
    """Play and count games ``start`` to ``stop`` (excluded) of
    ``loveletter.simulation.simulate(ruleset, players, games, seed,
    rounds=rounds, decks=decks)``: :func:`play_random_games` with the
    seeds :func:`~loveletter.simulation.derive_seed` gives them (game ``i``
    dealt from ``derive_seed(seed, "game", i)``, its seat ``s`` choosing
    with ``derive_seed(game_seed, "bot", s)``), derived in compiled code
    (BLAKE2b-64, as ``derive_seed`` hashes; in Python for a seed of more
    digits than the compiled message holds). A game the simulator fails
    raises :class:`FastGameFailed` naming its number in the simulation.

    >>> from loveletter.simulation import simulate
    >>> counted = simulate_games("2019", 3, 7, 0, 5)
    >>> counted.rounds == simulate("2019", 3, 5, 7).rounds
    True
    """
    if seed < 0:
        raise ValueError(f"a simulation's seed is not negative: {seed}")
    if not 0 <= start <= stop <= MAX_SEED:
        raise ValueError(f"games {start} to {stop}: not a run of game numbers")
    prefix = f"loveletter-sim/{seed}/game/".encode()
    if len(prefix) + 20 > _MESSAGE:
        seeds = [_derive_seed(prefix + str(i).encode()) for i in range(start, stop)]
        bots = [
            [_derive_seed(f"loveletter-sim/{s}/bot/{p}".encode()) for p in range(players)]
            for s in seeds
        ]
        try:
            return play_random_games(ruleset, players, seeds, bots, rounds=rounds, decks=decks)
        except FastGameFailed as error:
            raise FastGameFailed(start + error.index, error.code) from None
    message = np.frombuffer(prefix, dtype=np.uint8).astype(np.int64)
    t = _Table(ruleset, players, rounds, decks)
    failed = _play_derived(*t.arrays(), message, start, stop)
    t.check(failed)
    return _counted(t.counts, players)


#: the most bytes a message to hash may have in the compiled scratch space
_MESSAGE = k.W_HASH - k.W_MESSAGE


def _derive_seed(message: bytes) -> int:
    """``derive_seed``'s number for ``message``, in Python."""
    return int.from_bytes(hashlib.blake2b(message, digest_size=8).digest(), "big") >> 1


class _Table:
    """The arrays the compiled games of one table are played in."""

    def __init__(self, ruleset: str, players: int, rounds: int | None, decks: int) -> None:
        ed = edition(ruleset)
        if not ed.supports(players):
            raise ValueError(f"{ed.name} is for {ed.min_players}-{ed.max_players} players")
        if not 1 <= decks <= ed.max_decks:
            raise ValueError(f"{ed.name} plays with 1 to {ed.max_decks} deck(s)")
        if rounds is not None and rounds < 1:
            raise ValueError(f"rounds must be at least 1, not {rounds}")
        self.state = np.zeros((1, k.WIDTH), dtype=np.int32)
        self.rules = k.rules_array(ed, players, decks, action_table(ed.name, players))
        self.rounds = 0 if rounds is None else rounds
        self.counts = np.zeros(COUNTS, dtype=np.int64)
        self.players = players
        self.rng = np.zeros(1, dtype=np.uint64)  # unused: every deal is seeded
        self.scratch = np.zeros(k.SCRATCH, dtype=np.int64)
        self.bots = np.zeros((mersenne.ROWS, players), dtype=np.int64)
        self.seen = np.zeros(3 * _SEATS, dtype=np.int64)

    def arrays(self) -> tuple[Any, int, Any, Any, Any, Any, int, Any, Any]:
        """The compiled games' first arguments, in order: the state (its
        game 0), the rules, the generator, scratch space, the bots, the
        rounds of a match, the counts and what was seen."""
        return (
            self.state,
            0,
            self.rules,
            self.rng,
            self.scratch,
            self.bots,
            self.rounds,
            self.counts,
            self.seen,
        )

    def check(self, failed: int) -> None:
        """Raise :class:`FastGameFailed` for the game that failed, if one did."""
        if failed >= 0:
            raise FastGameFailed(int(failed), int(self.state[0, k.F_ERROR]))


def _seed_array(seeds: Any, shape: tuple[int, ...]) -> npt.NDArray[np.int64]:
    values = np.asarray(seeds, dtype=object).reshape(-1)
    if values.size != int(np.prod(shape)):
        raise ValueError(f"one seed per game and seat: {shape}")
    for value in values:
        if type(value) is not int or not 0 <= value <= MAX_SEED:
            raise ValueError(f"a seed is an integer from 0 to 2**63 - 1, not {value!r}")
    return np.array(values.tolist(), dtype=np.int64).reshape(shape)


def _counted(counts: npt.NDArray[np.int64], players: int) -> RandomGames:
    def seats(start: int) -> tuple[int, ...]:
        return tuple(int(n) for n in counts[start : start + players])

    return RandomGames(
        games=int(counts[C_GAMES]),
        rounds=int(counts[C_ROUNDS]),
        turns=int(counts[C_TURNS]),
        game_wins=seats(C_GAME_WINS),
        shared_games=int(counts[C_SHARED]),
        round_wins=seats(C_ROUND_WINS),
        round_ends={
            reason: int(counts[C_ROUND_ENDS + i]) for i, reason in enumerate(ROUND_END_REASONS)
        },
        eliminations={
            reason: int(counts[C_ELIMINATIONS + i]) for i, reason in enumerate(ELIMINATION_REASONS)
        },
        bonus_tokens={
            reason: seats(C_BONUS + i * _SEATS) for i, reason in enumerate(BONUS_REASONS)
        },
        tied_games=int(counts[C_TIED]),
        mid_round_wins=int(counts[C_MID_ROUND]),
        ranks=tuple(
            tuple(int(n) for n in counts[C_RANKS + p * _SEATS : C_RANKS + p * _SEATS + players])
            for p in range(players)
        ),
        win_counters=seats(C_WIN_COUNTERS),
    )


# --------------------------------------------------------------------------
# compiled

F = TypeVar("F", bound=Callable[..., Any])


def _cached_with_its_sources(function: F) -> F:
    """Key the on-disk cache of a compiled ``function`` on the kernel's and
    the generator's sources as well as its own module's.

    numba compiles the functions a function calls into it, and caches the
    whole under the stamp of the function's own file alone: after a change
    to the kernel, this module's cached code would go on playing the old
    rules (a ``git pull`` changing ``kernel.py`` only would be enough).
    The stamp is numba's own (``Dispatcher._cache``, numba pinned in the
    extra); a numba that moved it fails here, at import, not silently."""
    dispatcher: Any = function  # numba's Dispatcher, untyped
    cache_file = dispatcher._cache._cache_file
    sources = hashlib.sha256()
    for module in (k, mersenne):
        sources.update(Path(module.__file__ or "").read_bytes())
    cache_file._source_stamp = (cache_file._source_stamp, sources.hexdigest())
    return function


@k._inlined
def _seed_game(st: Any, R: Any, rng: Any, wk: Any, r: int, seed: int) -> None:
    """Start the game in row ``r`` as ``new_game(..., seed=seed)`` deals it: the seed's
    text ``loveletter/<seed>/`` for the compiled chance, then the deal."""
    length = _PREFIX.shape[0]
    for i in range(length):
        st[r, k.O_SEED + i] = _PREFIX[i]
    digits = 1
    while digits < 19 and 10**digits <= seed:
        digits += 1
    for i in range(digits):
        st[r, k.O_SEED + length + digits - 1 - i] = 48 + (seed // 10**i) % 10
    length += digits
    st[r, k.O_SEED + length] = 47  # "/"
    st[r, k.F_CHANCE] = length + 1
    st[r, k.F_FIRST_PLAYER] = -1
    k.new_game(st, R, r)
    k.deal_random(st, R, rng, r, wk)


@k._inlined
def _count_round_end(st: Any, R: Any, r: int, counts: Any, expected: Any) -> None:
    """A round just ended: its reason, winners, ranks, and the tokens the
    round's end gave (into ``expected``, by seat, besides the counts)."""
    n = R[k.P_PLAYERS]
    counts[C_ROUNDS] += 1
    counts[C_ROUND_ENDS + st[r, k.F_REASON] - 1] += 1
    winners = st[r, k.F_ROUND_WINNERS]
    for p in range(n):
        if winners >> p & 1:
            counts[C_ROUND_WINS + p] += 1
            expected[p] += 1
    if R[k.P_RANKED]:
        for p in range(n):
            rank = st[r, k.O_RANKS + p]
            if rank > 0:
                counts[C_RANKS + p * _SEATS + rank - 1] += 1
    if R[k.P_SPY]:  # spy.sole-spy-token: the one player left in with a Spy played
        live = ((1 << n) - 1) & ~st[r, k.F_OUT]
        spy = -1
        spies = 0
        for p in range(n):
            if live >> p & 1 and k._in_pile(st, r, p, SPY) > 0:
                spy = p
                spies += 1
        if spies == 1:
            counts[C_BONUS + _SPY * _SEATS + spy] += 1
            expected[spy] += 1
    if R[k.P_JESTER]:  # jester.mark-expected-winner: a token per right mark
        for index in range(st[r, k.F_MARKS]):
            if winners >> st[r, k.O_MARKS + 2 * index + 1] & 1:
                player = st[r, k.O_MARKS + 2 * index]
                counts[C_BONUS + _JESTER * _SEATS + player] += 1
                expected[player] += 1


@_cached_with_its_sources
@k._compiled
def _play_listed(
    st: Any,
    r: int,
    R: Any,
    rng: Any,
    wk: Any,
    bots: Any,
    rounds: int,
    counts: Any,
    seen: Any,
    seeds: Any,
    bot_seeds: Any,
) -> int:
    """Play and count the games of ``seeds``, each seat choosing with its
    seed in ``bot_seeds`` (see :func:`_play_game`); the index of a game
    that failed, or -1."""
    for g in range(seeds.shape[0]):
        if not _play_game(st, r, R, rng, wk, bots, rounds, counts, seen, seeds[g], bot_seeds[g]):
            return g
    return -1


_SIM = np.frombuffer(b"loveletter-sim/", dtype=np.uint8).astype(np.int64)
_BOT = np.frombuffer(b"/bot/", dtype=np.uint8).astype(np.int64)


@_cached_with_its_sources
@k._compiled
def _play_derived(
    st: Any,
    r: int,
    R: Any,
    rng: Any,
    wk: Any,
    bots: Any,
    rounds: int,
    counts: Any,
    seen: Any,
    prefix: Any,
    start: int,
    stop: int,
) -> int:
    """Play and count games ``start`` to ``stop`` of a simulation whose
    game seeds hash ``prefix`` (``loveletter-sim/<seed>/game/``) and the
    game's number, as ``derive_seed`` does, and its bots' seeds the game
    seed; the number of a game that failed, or -1."""
    n = R[k.P_PLAYERS]
    bot_seeds = seen[2 * _SEATS : 2 * _SEATS + n]
    for g in range(start, stop):
        for i in range(prefix.shape[0]):
            wk[k.W_MESSAGE + i] = prefix[i]
        game_seed = _derived(wk, _write_number(wk, prefix.shape[0], g))
        for p in range(n):
            for i in range(_SIM.shape[0]):
                wk[k.W_MESSAGE + i] = _SIM[i]
            at = _write_number(wk, _SIM.shape[0], game_seed)
            for i in range(_BOT.shape[0]):
                wk[k.W_MESSAGE + at + i] = _BOT[i]
            bot_seeds[p] = _derived(wk, _write_number(wk, at + _BOT.shape[0], p))
        if not _play_game(st, r, R, rng, wk, bots, rounds, counts, seen, game_seed, bot_seeds):
            return g
    return -1


@k._inlined
def _write_number(wk: Any, at: int, value: int) -> int:
    """``value`` (from 0) in decimal into the message from ``at``; its new length."""
    digits = 1
    while digits < 19 and 10**digits <= value:
        digits += 1
    for i in range(digits):
        wk[k.W_MESSAGE + at + digits - 1 - i] = 48 + (value // 10**i) % 10
    return at + digits


@k._compiled
def _derived(wk: Any, length: int) -> int:
    """``derive_seed``'s number for the message of ``length`` bytes at
    ``W_MESSAGE``: its BLAKE2b digest of 8 bytes, read big-endian, halved."""
    for i in range(8):
        wk[k.W_HASH + i] = np.int64(k._IV[i])
    # no key, an 8-byte digest: the parameter block's first word
    wk[k.W_HASH] = np.int64(np.uint64(wk[k.W_HASH]) ^ np.uint64(0x01010008))
    blocks = max(1, (length + 127) // 128)
    for block in range(blocks):
        for w in range(16):
            word = np.uint64(0)
            for b in range(8):
                at = block * 128 + w * 8 + b
                if at < length:
                    word |= np.uint64(wk[k.W_MESSAGE + at]) << np.uint64(8 * b)
            wk[k.W_BLOCK + w] = np.int64(word)
        k._compress(wk, min((block + 1) * 128, length), block == blocks - 1)
    first = np.uint64(wk[k.W_HASH])  # the digest's first 8 bytes, least significant first
    value = np.uint64(0)
    for b in range(8):
        value = (value << np.uint64(8)) | ((first >> np.uint64(8 * b)) & np.uint64(255))
    return int(np.int64(value >> np.uint64(1)))


@_cached_with_its_sources
@k._compiled
def _play_game(
    st: Any,
    r: int,
    R: Any,
    rng: Any,
    wk: Any,
    bots: Any,
    rounds: int,
    counts: Any,
    seen: Any,
    seed: int,
    bot_seeds: Any,
) -> bool:
    """Play and count the game of ``seed`` in row ``r`` of ``st`` (a
    variable, not the constant 0: numba would compile the kernel's functions
    again for a constant, apart from those every other caller uses), seat
    ``p`` choosing with generator ``p`` of ``bots``, seeded from
    ``bot_seeds[p]``; ``rounds`` (not 0) stops it once that many rounds
    have ended. Whether it was played (if not, its error is in
    ``F_ERROR``). ``seen`` is scratch: the tokens before a command, and
    those a round's end explains."""
    n = R[k.P_PLAYERS]
    _seed_game(st, R, rng, wk, r, seed)
    mersenne.seed_columns(bots, bot_seeds)
    while True:
        decision = st[r, k.F_DECISION]
        if decision == k.GAME_OVER:
            break
        if decision == k.NEXT_ROUND:
            if rounds and st[r, k.F_ROUND] >= rounds:
                break
            k.deal_random(st, R, rng, r, wk)
            continue
        seat = k.to_act(st, r)
        action = wk[mersenne.below(bots, seat, k.legal_ids(st, R, r, wk))]
        player = st[r, k.F_CURRENT]
        out_before = st[r, k.F_OUT]
        for p in range(n):
            seen[p] = st[r, k.O_TOKENS + p]
            seen[_SEATS + p] = 0
        k.apply(st, R, rng, r, action, wk)
        if st[r, k.F_ERROR]:
            return False
        knocked = st[r, k.F_OUT] & ~out_before
        if knocked:
            at = k.V_DECODED + 5 * action
            card = R[at + 1]
            if R[at] == ACT_REDRAW:
                why = _PRINCESS  # the Bishop's target discarded the Princess
            elif card == GUARD:
                why = _ASSASSIN if knocked == 1 << player else _GUARD_GUESS
            elif card == BARON:
                why = _BARON
            elif card == DOWAGER_QUEEN:
                why = _DOWAGER
            else:
                why = _PRINCESS  # played, or discarded to a Prince
            counts[C_ELIMINATIONS + why] += 1
        decision = st[r, k.F_DECISION]
        if decision >= k.NEXT_ROUND and st[r, k.F_REASON]:
            _count_round_end(st, R, r, counts, seen[_SEATS:])
        elif decision == k.GAME_OVER:
            counts[C_MID_ROUND] += 1
        for p in range(n):
            gained = st[r, k.O_TOKENS + p] - seen[p] - seen[_SEATS + p]
            if gained < 0:
                st[r, k.F_ERROR] = _ERR_COUNTS
                return False
            if gained:
                why = _CONSTABLE if knocked >> p & 1 else _BISHOP
                counts[C_BONUS + why * _SEATS + p] += gained
    counts[C_GAMES] += 1
    counts[C_TURNS] += st[r, k.F_TURNS_TOTAL]
    winners = st[r, k.F_GAME_WINNERS]
    if k._bits(winners) > 1:
        counts[C_SHARED] += 1
    if st[r, k.F_CONTENDERS]:
        counts[C_TIED] += 1
    for p in range(n):
        if winners >> p & 1:
            counts[C_GAME_WINS + p] += 1
        counts[C_WIN_COUNTERS + p] += st[r, k.O_TOKENS + p]
    return True
