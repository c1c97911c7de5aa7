"""The game state: one immutable value holding everything about a game."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any

import attrs

from loveletter.cards import Card
from loveletter.events import RoundEndReason
from loveletter.rulesets import Ruleset


class Decision(StrEnum):
    """What the game is waiting for."""

    DRAW = "draw"  #: the current player must take the turn's draw (positions only)
    PLAY = "play"  #: the current player must play one of their two cards
    CHANCELLOR = "chancellor"  #: the current player keeps one card, returns the rest
    LOOK = "look"  #: the current player may look at one of the hands a Cardinal swapped
    REDRAW = "redraw"  #: a Bishop's target (not the current player) may discard and redraw
    NEXT_ROUND = "next-round"  #: the round is over; the next one must be dealt
    GAME_OVER = "game-over"  #: nothing more can happen


# Enum members are looked up once: reading ``Decision.X`` costs a metaclass
# lookup every time, and these properties sit in simulation loops.
_PLAYER_DECISIONS = frozenset(
    {Decision.DRAW, Decision.PLAY, Decision.CHANCELLOR, Decision.LOOK, Decision.REDRAW}
)
_GAME_OVER = Decision.GAME_OVER
_REDRAW = Decision.REDRAW


@attrs.frozen
class Sighting:
    """``viewer`` learned that ``owner`` held ``card`` on turn ``turn`` of
    this round, through the card ``via``: their Priest, Baroness or
    Cardinal's look, either side of a Baron or Dowager Queen comparison, or
    a King or Cardinal trade (each side knows what the other got)."""

    viewer: int
    owner: int
    card: Card
    turn: int
    via: Card


@attrs.frozen
class RoundResult:
    reason: RoundEndReason
    winners: tuple[int, ...]
    revealed: tuple[tuple[int, Card], ...]


@attrs.frozen
class Table:
    """The part of a game that changes at most a few times a round: the
    rules, the seats, the tokens and the round's fixed cards.

    :class:`GameState` keeps these in one value so that a turn, which builds
    one new state, does not copy them.
    """

    ruleset: Ruleset
    players: int
    #: drives every shuffle and tie-break; never shown to players
    seed: int
    tokens: tuple[int, ...]
    round_number: int
    #: the face-down card set aside this round (``None`` once drawn)
    set_aside: Card | None
    #: two-player games: the cards removed face up this round
    face_up: tuple[Card, ...]
    #: how the last round ended (``None`` while a round is being played)
    round_result: RoundResult | None
    #: the game's winners, once it is over
    winners: tuple[int, ...]
    #: the players tied for the game while a tie-break round decides between
    #: them (ruling 31); empty otherwise
    contenders: tuple[int, ...] = ()


@attrs.frozen
class GameState:
    """A whole game at one moment.

    Seats are numbered from 0; turn order is increasing seat number
    (ruling 2). The deck is listed top first. Everything is a tuple, a
    frozenset or another frozen value, so a state can be shared, hashed and
    compared freely. The fields of :class:`Table` are readable here too
    (``state.tokens``, ``state.ruleset``, ...).
    """

    table: Table
    decision: Decision
    #: whose turn it is (between rounds: the seat whose turn ended the round)
    current: int
    #: turns started in this round (the first turn is 1)
    turn_number: int
    deck: tuple[Card, ...]
    hands: tuple[tuple[Card, ...], ...]
    #: each player's played and discarded cards, oldest first
    discards: tuple[tuple[Card, ...], ...]
    out: frozenset[int]
    protected: frozenset[int]
    #: what Priests and Barons showed whom this round
    sightings: tuple[Sighting, ...]
    #: the seats of a pending optional step: the two hands a Cardinal
    #: swapped (``look``), or the Bishop's target who may redraw (``redraw``)
    pending: tuple[int, ...] = ()
    #: the player the next card played must choose (a Sycophant), if any
    required: int | None = None
    #: (Jester's player, marked player) pairs of this round
    marks: tuple[tuple[int, int], ...] = ()
    #: (player, count) for each Chancellor's return this round, oldest first:
    #: what lies under the deck and who knows it
    returns: tuple[tuple[int, int], ...] = ()

    @property
    def ruleset(self) -> Ruleset:
        return self.table.ruleset

    @property
    def players(self) -> int:
        return self.table.players

    @property
    def seed(self) -> int:
        return self.table.seed

    @property
    def tokens(self) -> tuple[int, ...]:
        return self.table.tokens

    @property
    def round_number(self) -> int:
        return self.table.round_number

    @property
    def set_aside(self) -> Card | None:
        return self.table.set_aside

    @property
    def face_up(self) -> tuple[Card, ...]:
        return self.table.face_up

    @property
    def round_result(self) -> RoundResult | None:
        return self.table.round_result

    @property
    def winners(self) -> tuple[int, ...]:
        return self.table.winners

    @property
    def contenders(self) -> tuple[int, ...]:
        return self.table.contenders

    @property
    def to_act(self) -> int | None:
        """The seat that must act next, or ``None`` between rounds and after
        the game (then the next step is a chance step or nothing). Usually
        the current player; a Bishop's target while they choose to redraw."""
        decision = self.decision
        if decision is _REDRAW:
            return self.pending[0]
        return self.current if decision in _PLAYER_DECISIONS else None

    @property
    def is_over(self) -> bool:
        return self.decision is _GAME_OVER

    @property
    def round_over(self) -> bool:
        return self.decision not in _PLAYER_DECISIONS

    def in_round(self, player: int) -> bool:
        return player not in self.out

    def live_players(self) -> tuple[int, ...]:
        """Seats still in the round, in seat order."""
        return tuple(p for p in range(self.table.players) if p not in self.out)

    def hand(self, player: int) -> tuple[Card, ...]:
        return self.hands[player]

    def __str__(self) -> str:
        """Every field as a few lines of text (:func:`loveletter.display.describe_state`)."""
        from loveletter.display import describe_state

        return describe_state(self)

    def card_count(self) -> int:
        """Cards in every zone; always the size of the ruleset's deck."""
        table = self.table
        return (
            len(self.deck)
            + (table.set_aside is not None)
            + len(table.face_up)
            + sum(map(len, self.hands))
            + sum(map(len, self.discards))
        )


_FIELDS = tuple(a.name for a in attrs.fields(GameState))
_SLOT = {name: GameState.__dict__[name].__set__ for name in _FIELDS}


def _compile_builder() -> Callable[..., GameState]:
    # Frozen attrs classes route every field through a guarded __setattr__;
    # the engine builds one state per command, so this builder sets the slot
    # descriptors directly (about twice as fast). Generated so that it always
    # follows the field list.
    params = ", ".join(_FIELDS)
    body = "\n".join(f"    _set_{name}(state, {name})" for name in _FIELDS)
    source = f"def build_state({params}):\n    state = _new(GameState)\n{body}\n    return state\n"
    scope: dict[str, Any] = {"_new": object.__new__, "GameState": GameState}
    scope.update({f"_set_{name}": setter for name, setter in _SLOT.items()})
    exec(source, scope)
    builder: Callable[..., GameState] = scope["build_state"]
    builder.__doc__ = "Construct a GameState from its fields, in declaration order."
    return builder


#: ``build_state(*fields)`` equals ``GameState(*fields)``, faster.
build_state = _compile_builder()
