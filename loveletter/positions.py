"""Positions: any moment of a round, described and checked.

A :class:`Position` is to this engine what FEN is to chess: rules tests and
conformance cases start from one instead of replaying a long prelude. It
lists every zone; :func:`from_position` checks that the description can
occur (every card of the ruleset exactly once, hand sizes, who may be
protected, ...) and raises :class:`~loveletter.errors.PositionError` naming
the field that is wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import attrs

from loveletter.cards import Card
from loveletter.chance import fresh_seed
from loveletter.errors import ArgumentError, PositionError, ReachabilityUnknown
from loveletter.rules import implements
from loveletter.rulesets import RULESETS, get_ruleset
from loveletter.state import Decision, GameState, Sighting, Table, TableSettings
from loveletter.validation import check_fields, check_players, is_seat, short

#: the search nodes ``from_position(..., check="reachable")`` spends at most
DEFAULT_REACH_BUDGET = 400_000


def _seats(value: Sequence[int]) -> tuple[int, ...]:
    return tuple(sorted(value))


@attrs.frozen
class Position:
    """A moment of a round in progress, with the current player either about
    to draw (``drawn=False``) or holding two cards (``drawn=True``).

    Zones: ``deck`` top first; ``hands`` and ``discards`` by seat (discards
    oldest first); ``out`` and ``protected`` are seats.
    """

    ruleset: str
    players: int
    deck: tuple[Card, ...]
    set_aside: Card | None
    face_up: tuple[Card, ...]
    hands: tuple[tuple[Card, ...], ...]
    discards: tuple[tuple[Card, ...], ...]
    current: int
    drawn: bool
    out: tuple[int, ...] = attrs.field(default=(), converter=_seats)
    protected: tuple[int, ...] = attrs.field(default=(), converter=_seats)
    tokens: tuple[int, ...] | None = None
    round_number: int = 1
    turn_number: int = 1
    #: the seed of the game's later shuffles and time-outs; ``None``: a
    #: fresh secret one at each :func:`from_position`, as ``new_game`` takes
    seed: int | None = None
    #: what players have been shown this round (Priest, Baron, King, ...)
    sightings: tuple[Sighting, ...] = ()
    #: the player a Sycophant requires the next card played to choose
    required: int | None = None
    #: (Jester's player, marked player) pairs of this round
    marks: tuple[tuple[int, int], ...] = ()
    #: a tie-break round: the tied players dealt in (the others sit out)
    contenders: tuple[int, ...] = ()
    #: (player, count) for each Chancellor's return this round, oldest first:
    #: the bottom of the deck, and who knows it
    returns: tuple[tuple[int, int], ...] = ()
    #: online: the table's settings (decks, time control); ``None``: the
    #: defaults online, none elsewhere
    settings: TableSettings | None = None
    #: online: the round's turn order, first player first (empty: the
    #: players dealt in, in seat order)
    order: tuple[int, ...] = ()
    #: online: the players out of the round in the order they went out
    exits: tuple[int, ...] = ()
    #: online: the seats that have left the match
    left: tuple[int, ...] = attrs.field(default=(), converter=_seats)


@implements("setup.set-aside-face-down", "setup.two-player-face-up")
def from_position(
    position: Position,
    *,
    check: Literal["rules", "reachable"] = "rules",
    budget: int = DEFAULT_REACH_BUDGET,
) -> GameState:
    """The state a position describes, after checking it can occur.

    The position's own fields are read first (sequences of the right
    length, seats listed once, ``drawn`` a bool); then the state they
    describe goes through every check of
    :func:`loveletter.validation.check_state`, which names the field at
    fault in a :class:`~loveletter.errors.PositionError`: every card placed
    once, hand sizes, protection only for a player whose pile ends with the
    Handmaid they played, an empty pile only for a player sitting out a
    tie-break round, as many cards in hands and piles as the turns played
    can have drawn, and so on (every check is listed in
    :mod:`loveletter.validation`).

    Those checks need no search, so some impossible positions pass them.
    ``check="reachable"`` also proves that a game reaches the position: the
    replay-start search (:mod:`loveletter.conformance.reach`) looks for a
    deal and commands leading to it, spending at most ``budget`` search
    nodes; our engine then replays what it found. A position no game
    reaches raises :class:`~loveletter.errors.PositionError` (field
    ``"position"``, with the reason); a search that runs out of budget
    first raises :class:`~loveletter.errors.ReachabilityUnknown`.
    """
    if check not in ("rules", "reachable"):
        raise ArgumentError("check", f"'rules' or 'reachable', not {short(check)}")
    if type(budget) is not int or budget < 1:
        raise ArgumentError("budget", f"a positive number of search nodes, not {short(budget)}")
    p = position
    if not isinstance(p, Position):
        raise PositionError("position", f"not a Position: {short(p)}")
    if not isinstance(p.ruleset, str):
        raise PositionError("ruleset", f"a ruleset name, not {short(p.ruleset)}")
    try:
        ruleset = get_ruleset(p.ruleset)
    except ValueError:
        known = ", ".join(sorted(RULESETS))
        raise PositionError(
            "ruleset", f"unknown ruleset {short(p.ruleset)} (known: {known})"
        ) from None
    n = check_players(ruleset, p.players, PositionError)
    hands = tuple(
        _cards(hand, f"hands[{i}]") for i, hand in enumerate(_seated(p.hands, "hands", n))
    )
    discards = tuple(
        _cards(pile, f"discards[{i}]") for i, pile in enumerate(_seated(p.discards, "discards", n))
    )
    tokens = (0,) * n if p.tokens is None else _sequence(p.tokens, "tokens")
    if type(p.drawn) is not bool:
        raise PositionError("drawn", f"true or false, not {short(p.drawn)}")
    seats = {
        name: _distinct_seats(getattr(p, name), name, n) for name in ("out", "protected", "left")
    }
    settings = p.settings
    if settings is None and ruleset.online_table:
        settings = TableSettings()
    order = _sequence(p.order, "order")
    if not order and ruleset.draws_order:
        order = tuple(seat for seat in range(n) if seat not in seats["left"])
    state = GameState(
        table=Table(
            ruleset=ruleset,
            players=n,
            seed=fresh_seed() if p.seed is None else p.seed,
            tokens=tokens,
            round_number=p.round_number,
            set_aside=p.set_aside,
            face_up=_cards(p.face_up, "face_up"),
            round_result=None,
            winners=(),
            contenders=_sequence(p.contenders, "contenders"),
            settings=settings,
            order=order,
            left=seats["left"],
        ),
        decision=Decision.PLAY if p.drawn else Decision.DRAW,
        current=p.current,
        turn_number=p.turn_number,
        deck=_cards(p.deck, "deck"),
        hands=hands,
        discards=discards,
        out=seats["out"],
        protected=seats["protected"],
        sightings=_sequence(p.sightings, "sightings"),
        required=p.required,
        marks=_pairs(p.marks, "marks"),
        returns=_pairs(p.returns, "returns"),
        exits=_sequence(p.exits, "exits"),
    )
    check_fields(state, PositionError)
    if check == "reachable":
        _prove_reachable(state, budget)
    return state


def _prove_reachable(state: GameState, budget: int) -> None:
    from loveletter.conformance.reach import prove_reachable

    outcome = prove_reachable(state, budget)
    if outcome.replay is not None:
        return
    if outcome.exhausted:
        raise ReachabilityUnknown(
            f"no game reaching the position found within {budget} search nodes: {outcome.reason}",
            outcome.nodes,
        )
    raise PositionError("position", f"no game reaches this position: {outcome.reason}")


def _sequence(value: object, name: str) -> tuple[Any, ...]:
    """``value`` as a tuple; its items are checked with the state."""
    if not isinstance(value, tuple | list):
        raise PositionError(name, f"must be a sequence, not {short(value)}")
    return tuple(value)


def _cards(value: object, name: str) -> tuple[Card, ...]:
    return _sequence(value, name)


def _seated(value: object, name: str, n: int) -> tuple[object, ...]:
    seats = _sequence(value, name)
    if len(seats) != n:
        raise PositionError(name, f"must list {n} seats, not {len(seats)}")
    return seats


def _distinct_seats(value: object, name: str, n: int) -> frozenset[int]:
    seats = _sequence(value, name)
    if not all(is_seat(s, n) for s in seats) or len(set(seats)) != len(seats):
        raise PositionError(name, f"must list distinct seats from 0 to {n - 1}")
    return frozenset(seats)


def _pairs(value: object, name: str) -> tuple[tuple[int, int], ...]:
    items = _sequence(value, name)
    return tuple(tuple(item) if isinstance(item, list) else item for item in items)


def to_position(state: GameState) -> Position:
    """Describe a state whose current player is about to draw or to play."""
    if not isinstance(state, GameState):
        raise PositionError("state", f"not a GameState: {short(state)}")
    if state.decision not in (Decision.DRAW, Decision.PLAY):
        raise PositionError(
            "decision", f"only a turn about to draw or play is a position, not {state.decision}"
        )
    return Position(
        ruleset=state.ruleset.name,
        players=state.players,
        deck=state.deck,
        set_aside=state.set_aside,
        face_up=state.face_up,
        hands=state.hands,
        discards=state.discards,
        current=state.current,
        drawn=state.decision is Decision.PLAY,
        out=tuple(state.out),
        protected=tuple(state.protected),
        tokens=state.tokens,
        round_number=state.round_number,
        turn_number=state.turn_number,
        seed=state.seed,
        sightings=state.sightings,
        required=state.required,
        marks=state.marks,
        contenders=state.contenders,
        returns=state.returns,
        settings=state.table.settings,
        order=state.table.order,
        exits=state.exits,
        left=tuple(state.table.left),
    )
