"""The scoreboard of a game: how every round ended, and the counters now.

An online match (ruleset ``online``) has no end and no winner (ruling 44):
each round ranks the players, rank 1 and the partial wins (a Bishop's
correct guess, a Constable in the pile of a player going out, a Jester's
marked player ranked first; ruling 46) each add one to a player's win
counter, and the match goes on until the host stops dealing or fewer than
two players are present. What such a match has to show is its scoreboard:
the ranks of every round and the win counters. Other editions have one too:
the winners of every round and the favor tokens.

A :class:`Scoreboard` is built from a game's events alone
(:meth:`Scoreboard.from_events`, :meth:`loveletter.GameRecord.scoreboard`),
so a stream redacted for one player gives the same scoreboard as the whole
log: round ends, tokens and leaving are public. It is a frozen value, and
``loads(dumps(board)) == board``.

>>> import loveletter as ll
>>> from loveletter.simulation import random_bots
>>> record = ll.play_game("online", 5, random_bots(5, 6), seed=6, rounds=2)
>>> board = record.scoreboard()
>>> [score.ranks for score in board.rounds]
[(1, 3, 5, 4, 2), (3, 4, 1, 2, 5)]
>>> board.tokens, board.round_wins, board.partial_wins()
((1, 0, 2, 0, 0), (1, 0, 1, 0, 0), (0, 0, 1, 0, 0))
>>> [(award.player, award.reason.value) for award in board.awards]
[(2, 'constable'), (0, 'round-win'), (2, 'round-win')]
>>> ll.loads(ll.dumps(board)) == board
True
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from loveletter.errors import ArgumentError
from loveletter.events import (
    Event,
    GameEnded,
    GameStarted,
    PlayerLeft,
    PositionEstablished,
    RoundEnded,
    RoundEndReason,
    RoundStarted,
    TokenAwarded,
    TokenReason,
)

__all__ = ["Award", "RoundScore", "Scoreboard"]

_ROUND_WIN = TokenReason.ROUND_WIN


@attrs.frozen
class RoundScore:
    """How round ``number`` ended: why, who won it and, online, every
    seat's rank (``None`` for a seat not dealt in: it had left)."""

    number: int
    reason: RoundEndReason
    #: online: the rank-1 players
    winners: tuple[int, ...]
    #: online: one rank per seat (1 is first; shared ranks numbered 1, 1, 3);
    #: ``None`` in editions that do not rank
    ranks: tuple[int | None, ...] | None = None


@attrs.frozen
class Award:
    """One token gained (online: one more on the win counter) during round
    ``round_number``: for winning it, or a bonus (online: a partial win)."""

    round_number: int
    player: int
    reason: TokenReason


@attrs.frozen
class Scoreboard:
    """Every ended round of a game, every token gained, and the counters now.

    ``tokens`` are the favor tokens, or online the win counters, at the end
    of the events: they include the bonuses of a round still being played
    (a Bishop's correct guess counts at once), which :attr:`rounds` lists
    only once that round ends. ``over`` says the game has ended (online:
    the match closed, fewer than two players being present); ``winners``
    are the game's winners (never any online).
    """

    ruleset: str
    players: int
    #: the rounds that ended, in order
    rounds: tuple[RoundScore, ...] = ()
    #: every token gained, in order
    awards: tuple[Award, ...] = ()
    #: each seat's tokens (online: win counter) now
    tokens: tuple[int, ...] = ()
    #: the seats that left the match, in the order they left (online)
    left: tuple[int, ...] = ()
    over: bool = False
    winners: tuple[int, ...] = ()

    @classmethod
    def from_events(cls, events: Iterable[Event]) -> Scoreboard:
        """The scoreboard of a game's events, from its first (``GameStarted``
        or ``PositionEstablished``). The events are trusted: check a log
        first with :func:`loveletter.replay` or a :class:`~loveletter.GameRecord`.
        """
        log = iter(events)
        first = next(log, None)
        if isinstance(first, GameStarted):
            ruleset, players = first.ruleset, first.players
            tokens = [0] * players
            left: list[int] = []
            round_number = 0
        elif isinstance(first, PositionEstablished) and first.position is not None:
            position = first.position
            ruleset, players = position.ruleset, position.players
            tokens = list(position.tokens or (0,) * players)
            left = sorted(position.left)
            round_number = position.round_number
        else:
            raise ArgumentError(
                "events",
                "a scoreboard starts from GameStarted or an unredacted PositionEstablished,"
                f" not {type(first).__name__}",
            )
        rounds: list[RoundScore] = []
        awards: list[Award] = []
        over = False
        winners: tuple[int, ...] = ()
        for event in log:
            kind = type(event)
            if kind is RoundStarted:
                assert isinstance(event, RoundStarted)
                round_number = event.round_number
            elif kind is RoundEnded:
                assert isinstance(event, RoundEnded)
                rounds.append(RoundScore(round_number, event.reason, event.winners, event.ranks))
            elif kind is TokenAwarded:
                assert isinstance(event, TokenAwarded)
                awards.append(Award(round_number, event.player, event.reason))
                tokens[event.player] = event.total
            elif kind is PlayerLeft:
                assert isinstance(event, PlayerLeft)
                left.append(event.player)
            elif kind is GameEnded:
                assert isinstance(event, GameEnded)
                over = True
                winners = event.winners
        return cls(
            ruleset,
            players,
            rounds=tuple(rounds),
            awards=tuple(awards),
            tokens=tuple(tokens),
            left=tuple(left),
            over=over,
            winners=winners,
        )

    @property
    def ranked(self) -> bool:
        """Whether the edition ranks every round (online)."""
        from loveletter.rulesets import Scoring, get_ruleset

        return get_ruleset(self.ruleset).scoring is Scoring.RANKS

    @property
    def ranks(self) -> tuple[tuple[int | None, ...], ...]:
        """Every ended round's ranks, in order (online; empty elsewhere)."""
        return tuple(score.ranks for score in self.rounds if score.ranks is not None)

    @property
    def round_wins(self) -> tuple[int, ...]:
        """Rounds won by each seat (online: ranked first); a shared first
        place counts for each."""
        wins = [0] * self.players
        for score in self.rounds:
            for seat in score.winners:
                wins[seat] += 1
        return tuple(wins)

    def partial_wins(self, reason: TokenReason | None = None) -> tuple[int, ...]:
        """Tokens each seat gained other than by winning a round (online:
        partial wins), of ``reason`` only if given."""
        counts = [0] * self.players
        for award in self.awards:
            if award.reason is not _ROUND_WIN and reason in (None, award.reason):
                counts[award.player] += 1
        return tuple(counts)

    def rank_counts(self) -> tuple[tuple[int, ...], ...]:
        """For each seat, how many ended rounds it finished at each rank:
        ``rank_counts()[seat][rank - 1]`` (online; all zero elsewhere)."""
        counts = [[0] * self.players for _ in range(self.players)]
        for ranks in self.ranks:
            for seat, rank in enumerate(ranks):
                if rank is not None:
                    counts[seat][rank - 1] += 1
        return tuple(map(tuple, counts))

    def lines(self) -> list[str]:
        """The scoreboard as text, as ``loveletter show`` and ``loveletter
        replay`` print it: one row per ended round, then the counters."""
        ended = len(self.rounds)
        plural = "round" if ended == 1 else "rounds"
        seats = range(self.players)
        lines = [f"Scoreboard: {ended} {plural} ended."]
        if self.rounds:
            if self.ranked:
                header = ["round", *(f"P{seat}" for seat in seats), "ended by"]
                rows = [header]
                for score in self.rounds:
                    ranks = score.ranks or (None,) * self.players
                    rows.append(
                        [
                            str(score.number),
                            *("-" if rank is None else str(rank) for rank in ranks),
                            _reason(score.reason),
                        ]
                    )
                right = range(len(header) - 1)
                lines.append("Ranks by round (1 is first, - not dealt in):")
            else:
                rows = [["round", "won by", "ended by"]]
                for score in self.rounds:
                    won_by = ", ".join(_name(seat) for seat in score.winners)
                    rows.append([str(score.number), won_by, _reason(score.reason)])
                right = range(1)
            lines += ["  " + line for line in _table(rows, right)]
        counters = "Win counters" if self.ranked else "Favor tokens"
        tokens = ", ".join(f"{_name(seat)} {self.tokens[seat]}" for seat in seats)
        lines.append(f"{counters}: {tokens}.")
        reasons = [reason for reason in TokenReason if reason is not _ROUND_WIN]
        by_reason = {reason: self.partial_wins(reason) for reason in reasons}
        bonus = []
        for seat, total in enumerate(self.partial_wins()):
            if total:
                kinds = ", ".join(
                    f"{reason.value} {by_reason[reason][seat]}"
                    for reason in reasons
                    if by_reason[reason][seat]
                )
                bonus.append(f"{_name(seat)} {total} ({kinds})")
        if bonus:
            label = "Partial wins" if self.ranked else "Bonus tokens"
            lines.append(f"{label}: {', '.join(bonus)}.")
        if self.left:
            lines.append(f"Left the match: {', '.join(_name(seat) for seat in self.left)}.")
        if self.over and self.ranked:
            lines.append("The match is closed: fewer than two players are present.")
        elif self.over:
            lines.append(f"Won by {', '.join(_name(seat) for seat in self.winners)}.")
        elif self.ranked:
            lines.append("The match is still open: it has no end of its own.")
        return lines


def _name(seat: int) -> str:
    return f"Player {seat}"


def _reason(reason: RoundEndReason) -> str:
    return reason.value.replace("-", " ")


def _table(rows: list[list[str]], right: Iterable[int]) -> list[str]:
    """Rows as aligned columns, those in ``right`` right-aligned (numbers)."""
    right = set(right)
    widths = [max(len(row[col]) for row in rows) for col in range(len(rows[0]))]
    return [
        "  ".join(
            cell.rjust(width) if col in right else cell.ljust(width)
            for col, (cell, width) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    ]
