"""The differential test: the compiled simulator against the reference engine.

Random games are played through both at once, from the same deals: half
the games deal in the simulator from the seed, as the reference does
(:meth:`~loveletter.fast.FastBatch.reset` with ``seeds``, the draws of
:mod:`loveletter.chance`), the other half take the reference's deals
stacked (:meth:`~loveletter.fast.FastBatch.start_game`,
:meth:`~loveletter.fast.FastBatch.start_round`). Before every command the
legal commands of the reference, written as action ids, must equal the
simulator's legal actions, in the same order; a random one of them is
sent to both; after it the whole state must be equal: the decision, whose
turn, the deck in order, the set-aside and face-up cards, every hand and
discard pile, who is out or protected, the tokens (online: the win
counters), a Sycophant's requirement, a pending look or redraw, the Jester
marks, the order players went out (online), tied players, and how the
last round ended (its winners; online, every rank) and the game's winners.

Half the games choose uniformly among the legal commands (as
:class:`loveletter.RandomBot` does), half pick a playable card first and
then one of its commands, so that rare cards are played often enough.
Online matches never end: each game stops after ``max_rounds`` rounds.

From the command line, the long run whose figures go into the notes::

    python -m loveletter.fast.differential --ruleset premium --games 100000

>>> report = run("2019-classic", 3, games=4, seed=5)
>>> report.games, report.mismatches
(4, ())
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

import loveletter as ll
from loveletter import Command, GameState, RoundStarted, StartRound, TableSettings
from loveletter.fast.batch import DECISIONS, ROUND_REASONS, FastBatch
from loveletter.fast.tables import edition

__all__ = [
    "Mismatch",
    "Report",
    "main",
    "reference_digest",
    "reference_snapshot",
    "run",
    "run_edition",
]


@attrs.frozen
class Mismatch:
    """The first disagreement in one game."""

    ruleset: str
    players: int
    decks: int
    #: the game's seed (the reference's deal) and policy
    seed: int
    card_first: bool
    #: commands sent before it
    commands: int
    #: what differs: a state field, or ``"legal"``
    field: str
    reference: str
    fast: str


@attrs.frozen
class Report:
    """What a differential run played and found."""

    ruleset: str
    games: int
    rounds: int
    commands: int
    seconds: float
    mismatches: tuple[Mismatch, ...]

    def __add__(self, other: Report) -> Report:
        return Report(
            self.ruleset,
            self.games + other.games,
            self.rounds + other.rounds,
            self.commands + other.commands,
            self.seconds + other.seconds,
            self.mismatches + other.mismatches,
        )

    def summary(self) -> str:
        """One line of figures."""
        verdict = "no mismatch" if not self.mismatches else f"{len(self.mismatches)} MISMATCHES"
        return (
            f"{self.ruleset}: {self.games} games, {self.rounds} rounds,"
            f" {self.commands} commands compared in {self.seconds:.1f} s: {verdict}"
        )


def reference_snapshot(state: GameState) -> dict[str, Any]:
    """The reference state in the shape of :meth:`FastBatch.snapshot`
    (less the fields only the simulator has)."""
    result = state.round_result
    ranked = state.ruleset.name == "online"
    return {
        "decision": state.decision.value,
        "current": state.current,
        "round": state.round_number,
        "turn": state.turn_number,
        "deck": state.deck,
        "hands": state.hands,
        "discards": state.discards,
        "out": tuple(sorted(state.out)),
        "protected": tuple(sorted(state.protected)),
        "tokens": state.tokens,
        "set_aside": state.set_aside,
        "face_up": state.face_up,
        "required": state.required,
        "pending": state.pending,
        "marks": state.marks,
        "exits": state.exits,
        "contenders": tuple(sorted(state.contenders)),
        "winners": tuple(sorted(state.winners)),
        "round_reason": None if result is None else result.reason.value,
        "round_winners": () if result is None else tuple(sorted(result.winners)),
        "ranks": (
            tuple(r or 0 for r in result.ranks)
            if ranked and result is not None and result.ranks is not None
            else None
        ),
    }


_DECISION_CODES = {name: code for code, name in enumerate(DECISIONS)}
_REASON_CODES = {name: code for code, name in enumerate(ROUND_REASONS)}


def _mask(seats: Iterable[int]) -> int:
    mask = 0
    for seat in seats:
        mask |= 1 << seat
    return mask


def reference_digest(state: GameState) -> list[int]:
    """The reference state as the flat list of numbers
    :meth:`FastBatch.digest` gives (cards compare equal to their codes)."""
    table = state.table
    digest: list[int] = [
        _DECISION_CODES[state.decision.value],
        state.current,
        table.round_number,
        state.turn_number,
        _mask(state.out),
        _mask(state.protected),
        len(state.deck),
        *state.deck,
    ]
    tokens = table.tokens
    for hand, pile, count in zip(state.hands, state.discards, tokens, strict=True):
        digest += (len(hand), *hand, len(pile), *pile, count)
    digest += table.face_up
    pending = state.pending
    result = table.round_result
    digest += (
        -1 if table.set_aside is None else table.set_aside,
        -1 if state.required is None else state.required,
        pending[0] if pending else -1,
        pending[1] if len(pending) > 1 else -1,
        _mask(table.contenders),
        _mask(table.winners),
        _REASON_CODES[None if result is None else result.reason.value],
        0 if result is None else _mask(result.winners),
        0,
        len(state.marks),
    )
    for pair in state.marks:
        digest += pair
    digest.append(len(state.exits))
    digest += state.exits
    ranks = None if result is None else result.ranks
    digest += (0 if r is None else r for r in ranks) if ranks else (0,) * table.players
    return digest


def _differences(reference: dict[str, Any], fast: dict[str, Any]) -> tuple[str, str, str] | None:
    for key, expected in reference.items():
        if expected is None and key == "ranks":
            continue
        got = fast[key]
        if key in ("hands", "discards", "deck", "face_up", "set_aside"):
            equal = _codes(expected) == _codes(got)
        else:
            equal = expected == got
        if not equal:
            return key, repr(expected), repr(got)
    if fast["error"]:
        return "error", "0", str(fast["error"])
    return None


def _codes(value: Any) -> Any:
    """Cards as plain integers, nested as given."""
    if isinstance(value, tuple):
        return tuple(_codes(v) for v in value)
    return None if value is None else int(value)


def _deal_of(events: Sequence[ll.Event]) -> tuple[tuple[ll.Card, ...], int, tuple[int, ...] | None]:
    """The deck, first player and turn order of the deal among ``events``."""
    for event in events:
        if isinstance(event, RoundStarted):
            assert event.deck is not None, "the reference's own events are never redacted"
            return event.deck, event.first_player, event.order
    raise AssertionError("no RoundStarted among the deal's events")


@attrs.define
class _Game:
    """One game of a run, on the reference's side."""

    seed: int
    card_first: bool
    #: the simulator deals from the seed itself (else the reference's deals are stacked)
    seeded: bool
    chooser: random.Random
    state: GameState
    commands: int = 0
    rounds: int = 1


@attrs.define
class _Run:
    """A differential run's table, its findings and its counts."""

    ruleset: str
    players: int
    decks: int
    max_rounds: int
    stop_after: int
    mismatches: list[Mismatch] = attrs.Factory(list)
    games: int = 0
    rounds: int = 0
    commands: int = 0

    def play(self, seed: int, size: int) -> None:
        """Play games ``seed`` to ``seed + size - 1`` side by side."""
        settings = TableSettings(decks=self.decks) if edition(self.ruleset).ranked else None
        fast = FastBatch(self.ruleset, self.players, size, seed=seed, decks=self.decks)
        active: dict[int, _Game] = {}
        for g in range(size):
            state = ll.new_game(self.ruleset, self.players, seed=seed + g, settings=settings)
            seeded = g // 2 % 2 == 0
            if seeded:
                fast.reset([g], seeds=[seed + g])
            else:
                events = ll.start_game(self.ruleset, self.players, seed=seed + g, settings=settings)
                fast.start_game(g, *_deal_of(events))
            active[g] = _Game(seed + g, g % 2 == 1, seeded, random.Random(seed + g), state)
        self.games += size
        for g, game in list(active.items()):
            self._compare(fast, active, g, game)
        while active:
            actions = [-1] * size
            for g, game in list(active.items()):
                action = self._next(fast, active, g, game)
                if action is not None:
                    actions[g] = action
            fast.step(actions)
            for g, game in list(active.items()):
                self._compare(fast, active, g, game)
                if len(self.mismatches) >= self.stop_after:
                    active.clear()  # enough found: stop here
                    break

    def _next(self, fast: FastBatch, active: dict[int, _Game], g: int, game: _Game) -> int | None:
        """Check game ``g``'s legal commands, send one to the reference and
        deal it to the simulator or return its id (``None``: nothing to step)."""
        table = fast.table
        state = game.state
        legal = ll.legal_commands(state)
        try:
            expected = [table.action_id(c) for c in legal]
        except KeyError as error:
            self._fail(active, g, "legal", f"no id for {error}", "")
            return None
        got = fast.legal_actions(g).tolist()
        if expected != got:
            shown = repr([table.command(a, state.to_act or 0) for a in got])
            self._fail(active, g, "legal", repr(legal), shown)
            return None
        if not legal:
            self._retire(active, g)  # the game is over, and equal
            return None
        command = _choose(game, state, legal)
        if type(command) is StartRound and game.rounds >= self.max_rounds:
            self._retire(active, g)
            return None
        game.commands += 1
        self.commands += 1
        if type(command) is StartRound:
            game.state, events = ll.step(state, command)
            game.rounds += 1
            if game.seeded:
                return table.start_id
            fast.start_round(g, *_deal_of(events))
            return None
        game.state = ll.push(state, command)
        return table.action_id(command)

    def _compare(self, fast: FastBatch, active: dict[int, _Game], g: int, game: _Game) -> None:
        if reference_digest(game.state) != fast.digest(g):
            found = _differences(reference_snapshot(game.state), fast.snapshot(g))
            self._fail(active, g, *(found or ("digest", "", "")))

    def _fail(self, active: dict[int, _Game], g: int, field: str, expected: str, got: str) -> None:
        game = active[g]
        self.mismatches.append(
            Mismatch(
                self.ruleset,
                self.players,
                self.decks,
                game.seed,
                game.card_first,
                game.commands,
                field,
                expected,
                got,
            )
        )
        self._retire(active, g)

    def _retire(self, active: dict[int, _Game], g: int) -> None:
        self.rounds += active.pop(g).rounds


def run(
    ruleset: str,
    players: int,
    games: int,
    seed: int = 0,
    *,
    decks: int = 1,
    batch: int = 256,
    max_rounds: int | None = None,
    stop_after: int = 5,
) -> Report:
    """Play ``games`` random games of ``ruleset`` with ``players`` through
    both engines and compare them (see the module). Game ``i``'s deal comes
    from seed ``seed + i``; ``max_rounds`` caps a game (default: 8 rounds
    online, whose matches never end; elsewhere 500, which no game reaches);
    the run stops early once ``stop_after`` games have disagreed."""
    started = time.perf_counter()
    ed = edition(ruleset)
    if max_rounds is None:
        max_rounds = 8 if ed.ranked else 500
    state = _Run(ed.name, players, decks, max_rounds, stop_after)
    while state.games < games and len(state.mismatches) < stop_after:
        state.play(seed + state.games, min(batch, games - state.games))
    return Report(
        ed.name,
        state.games,
        state.rounds,
        state.commands,
        time.perf_counter() - started,
        tuple(state.mismatches),
    )


def _choose(game: _Game, state: GameState, legal: tuple[Command, ...]) -> Command:
    """A random legal command: uniformly, or a playable card first."""
    if game.card_first:
        cards = ll.playable_cards(state)
        if cards:
            card = cards[game.chooser.randrange(len(cards))]
            options = ll.legal_commands(state, card)
            return options[game.chooser.randrange(len(options))]
    return legal[game.chooser.randrange(len(legal))]


def run_edition(
    ruleset: str, games: int, seed: int = 0, *, max_rounds: int | None = None, batch: int = 256
) -> Report:
    """:func:`run` over every player count of ``ruleset`` (online: and every
    number of decks), ``games`` in all, shared out evenly."""
    ed = edition(ruleset)
    tables = [
        (players, decks)
        for players in range(ed.min_players, ed.max_players + 1)
        for decks in range(1, ed.max_decks + 1)
    ]
    total: Report | None = None
    for index, (players, decks) in enumerate(tables):
        share = games // len(tables) + (index < games % len(tables))
        if share == 0:
            continue
        report = run(
            ed.name,
            players,
            share,
            seed + index * 10_000_000,
            decks=decks,
            max_rounds=max_rounds,
            batch=batch,
        )
        total = report if total is None else total + report
    assert total is not None
    return total


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m loveletter.fast.differential``: print the figures of a run."""
    parser = argparse.ArgumentParser(prog="python -m loveletter.fast.differential")
    parser.add_argument("--ruleset", default="2019-classic")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, help="one player count (default: every one)")
    parser.add_argument("--decks", type=int, default=1, help="online, with --players")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-rounds", type=int, help="rounds per game (default: online 8)")
    args = parser.parse_args(argv)
    if args.players is None:
        report = run_edition(args.ruleset, args.games, args.seed, max_rounds=args.max_rounds)
    else:
        report = run(
            args.ruleset,
            args.players,
            args.games,
            args.seed,
            decks=args.decks,
            max_rounds=args.max_rounds,
        )
    print(report.summary())
    for mismatch in report.mismatches:
        print(f"  {mismatch}")
    return 1 if report.mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
