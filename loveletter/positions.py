"""Positions: any moment of a round, described and checked.

A :class:`Position` is to this engine what FEN is to chess: rules tests and
conformance cases start from one instead of replaying a long prelude. It
lists every zone; :func:`from_position` checks that the description can
occur (every card of the ruleset exactly once, hand sizes, who may be
protected, ...) and raises :class:`~loveletter.errors.PositionError` naming
the field that is wrong.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import attrs

from loveletter.cards import Card
from loveletter.errors import PositionError
from loveletter.rules import implements
from loveletter.rulesets import GameTie, get_ruleset
from loveletter.state import Decision, GameState, Sighting, Table


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
    seed: int = 0
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


@implements("setup.set-aside-face-down", "setup.two-player-face-up")
def from_position(position: Position) -> GameState:
    """The state a position describes, after checking it can occur."""
    p = position
    try:
        ruleset = get_ruleset(p.ruleset)
    except ValueError as error:
        raise PositionError("ruleset", str(error)) from None
    n = p.players
    if not isinstance(n, int) or not ruleset.supports(n):
        raise PositionError(
            "players", f"{ruleset.name} is for {ruleset.min_players}-{ruleset.max_players} players"
        )
    for name in ("hands", "discards"):
        if len(getattr(p, name)) != n:
            raise PositionError(name, f"must list {n} seats, not {len(getattr(p, name))}")
    tokens = p.tokens if p.tokens is not None else (0,) * n
    if len(tokens) != n:
        raise PositionError("tokens", f"must list {n} seats, not {len(tokens)}")
    needed = ruleset.tokens_to_win(n)
    for seat, count in enumerate(tokens):
        if seat in p.contenders:  # tied for the game: at the threshold or past it
            if not isinstance(count, int) or count < needed:
                raise PositionError(f"tokens[{seat}]", f"a tied player has {needed} or more")
        elif not isinstance(count, int) or not 0 <= count < needed:
            raise PositionError(
                f"tokens[{seat}]", f"must be 0 to {needed - 1} while the game goes on, not {count}"
            )
    for name in ("round_number", "turn_number", "seed"):
        value = getattr(p, name)
        if not isinstance(value, int) or value < (0 if name == "seed" else 1):
            raise PositionError(name, f"invalid value {value!r}")
    _check_cards(p, ruleset.deck_for(n))
    if p.set_aside is None:
        raise PositionError(
            "set_aside", "a round in progress still has its set-aside card (ruling 9)"
        )
    if len(p.face_up) != ruleset.face_up_count(n):
        raise PositionError(
            "face_up", f"a {n}-player round has {ruleset.face_up_count(n)} face-up cards"
        )
    for name in ("out", "protected"):
        seats = getattr(p, name)
        if len(set(seats)) != len(seats) or any(not 0 <= s < n for s in seats):
            raise PositionError(name, f"must list distinct seats from 0 to {n - 1}")
    out = frozenset(p.out)
    if not 0 <= p.current < n:
        raise PositionError("current", f"must be a seat from 0 to {n - 1}")
    if p.current in out:
        raise PositionError("current", f"player {p.current} is out of the round")
    if n - len(out) < 2:
        raise PositionError("out", "a round in progress has at least two players in it")
    for seat in range(n):
        expected = 0 if seat in out else (2 if seat == p.current and p.drawn else 1)
        if len(p.hands[seat]) != expected:
            raise PositionError(
                f"hands[{seat}]", f"must hold {expected} card(s), not {len(p.hands[seat])}"
            )
    for seat in p.protected:
        if seat in out:
            raise PositionError("protected", f"player {seat} is out of the round")
        if seat == p.current:
            raise PositionError(
                "protected", "protection ends when its player's turn starts (ruling 7)"
            )
    if not p.drawn and not p.deck:
        raise PositionError("deck", "the round has ended: no card is left for the turn's draw")
    kinds = ruleset.setup(n).kinds
    for index, seen in enumerate(p.sightings):
        if (
            not isinstance(seen, Sighting)
            or not 0 <= seen.viewer < n
            or not 0 <= seen.owner < n
            or seen.viewer == seen.owner
            or not 1 <= seen.turn <= p.turn_number
            or seen.via not in _SHOWING
            or seen.via not in kinds
        ):
            raise PositionError(f"sightings[{index}]", f"not a possible sighting: {seen!r}")
    _check_round_notes(p, kinds, out)
    return GameState(
        table=Table(
            ruleset=ruleset,
            players=n,
            seed=p.seed,
            tokens=tuple(tokens),
            round_number=p.round_number,
            set_aside=p.set_aside,
            face_up=tuple(p.face_up),
            round_result=None,
            winners=(),
            contenders=tuple(sorted(p.contenders)),
        ),
        decision=Decision.PLAY if p.drawn else Decision.DRAW,
        current=p.current,
        turn_number=p.turn_number,
        deck=tuple(p.deck),
        hands=tuple(map(tuple, p.hands)),
        discards=tuple(map(tuple, p.discards)),
        out=out,
        protected=frozenset(p.protected),
        sightings=tuple(p.sightings),
        required=p.required,
        marks=tuple(map(tuple, p.marks)),  # type: ignore[arg-type]  # pairs checked above
        returns=tuple(map(tuple, p.returns)),  # type: ignore[arg-type]  # pairs checked above
    )


#: the cards that show a player another's hand
_SHOWING = frozenset(
    {Card.PRIEST, Card.BARON, Card.KING, Card.DOWAGER_QUEEN, Card.BARONESS, Card.CARDINAL}
)


def _check_returns(p: Position, kinds: tuple[Card, ...]) -> None:
    n = p.players
    for index, item in enumerate(p.returns):
        if (
            Card.CHANCELLOR not in kinds
            or len(item) != 2
            or not all(type(x) is int for x in item)
            or not 0 <= item[0] < n
            or item[1] not in (1, 2)
        ):
            raise PositionError(f"returns[{index}]", f"not a possible Chancellor return: {item!r}")
    for seat in range(n):
        made = sum(1 for owner, _ in p.returns if owner == seat)
        if made > p.discards[seat].count(Card.CHANCELLOR):
            raise PositionError("returns", f"player {seat} returned cards without a Chancellor")


def _check_round_notes(p: Position, kinds: tuple[Card, ...], out: frozenset[int]) -> None:
    """The Sycophant's requirement, the Jester's marks, the Chancellors'
    returns and the tie-break's contenders must fit the cards and the
    seats."""
    _check_returns(p, kinds)
    n = p.players
    required = p.required
    if required is not None:
        if Card.SYCOPHANT not in kinds or type(required) is not int or not 0 <= required < n:
            raise PositionError("required", f"not a seat a Sycophant can require: {required!r}")
        if required in out or required in p.protected:
            raise PositionError("required", f"player {required} cannot have been chosen")
        # The requirement lasts until the next card is played, so the last
        # card played is the Sycophant: on top of the pile of the player
        # before the current one (it knocks no one out).
        before = next(s for s in range(p.current - 1, p.current - n, -1) if s % n not in out) % n
        if not p.discards[before] or p.discards[before][-1] is not Card.SYCOPHANT:
            raise PositionError(
                "required", f"player {before}, who played last, did not play a Sycophant"
            )
    for index, mark in enumerate(p.marks):
        if (
            Card.JESTER not in kinds
            or len(mark) != 2
            or not all(type(seat) is int and 0 <= seat < n for seat in mark)
            or mark[0] == mark[1]
            or Card.JESTER not in p.discards[mark[0]]
        ):
            raise PositionError(f"marks[{index}]", f"not a possible Jester mark: {mark!r}")
    if len(p.marks) > sum(pile.count(Card.JESTER) for pile in p.discards):
        raise PositionError("marks", "more marks than Jesters played")
    contenders = p.contenders
    if contenders:
        if get_ruleset(p.ruleset).game_tie is not GameTie.TIE_BREAK_ROUND:
            raise PositionError("contenders", f"{p.ruleset} has no tie-break rounds (ruling 12)")
        if (
            len(set(contenders)) != len(contenders)
            or len(contenders) < 2
            or any(type(s) is not int or not 0 <= s < n for s in contenders)
        ):
            raise PositionError("contenders", "must list two or more distinct seats")
        for seat in range(n):
            if seat not in contenders and (seat not in out or p.discards[seat]):
                raise PositionError(
                    "contenders", f"player {seat} sits out the tie-break round: out, empty pile"
                )


def _check_cards(p: Position, deck: tuple[Card, ...]) -> None:
    zones: list[tuple[str, Sequence[object]]] = [
        ("deck", p.deck),
        ("set_aside", () if p.set_aside is None else (p.set_aside,)),
        ("face_up", p.face_up),
    ]
    zones += [(f"hands[{i}]", hand) for i, hand in enumerate(p.hands)]
    zones += [(f"discards[{i}]", pile) for i, pile in enumerate(p.discards)]
    for name, cards in zones:
        for card in cards:
            if not isinstance(card, Card):
                raise PositionError(name, f"{card!r} is not a card")
    held: Counter[object] = Counter(card for _, cards in zones for card in cards)
    expected: Counter[object] = Counter(deck)
    if held != expected:
        extra = held - expected
        missing = expected - held
        parts = []
        if extra:
            parts.append("too many " + ", ".join(f"{c} x{k}" for c, k in sorted(extra.items())))
        if missing:
            parts.append("missing " + ", ".join(f"{c} x{k}" for c, k in sorted(missing.items())))
        raise PositionError(
            "cards", f"every card of the ruleset must be placed once: {'; '.join(parts)}"
        )


def to_position(state: GameState) -> Position:
    """Describe a state whose current player is about to draw or to play."""
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
    )
