"""The game state: one immutable value holding everything about a game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from loveletter.decisions import Decision as Decision  # re-exported: its home for most readers
from loveletter.events import RoundEndReason
from loveletter.kinds import Card
from loveletter.rulesets import Ruleset, Setup

# Enum members are looked up once: reading ``Decision.X`` costs a metaclass
# lookup every time, and these properties sit in simulation loops.
_PLAYER_DECISIONS = frozenset(
    {Decision.DRAW, Decision.PLAY, Decision.CHANCELLOR, Decision.LOOK, Decision.REDRAW}
)
#: the decisions of a round in progress, when some player must act
PLAYER_DECISIONS = _PLAYER_DECISIONS
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
    #: online: every seat's rank in the round (``None``: not dealt in)
    ranks: tuple[int | None, ...] | None = None


@attrs.frozen
class TableSettings:
    """The settings of an online table (rulings 41, 51 and 52), recorded in
    ``GameStarted``. Only ``decks`` and ``random_moves`` change what the
    engine does; the times are for a host's clock (:mod:`loveletter.clock`),
    since the engine keeps none."""

    #: copies of the deck shuffled together, 1 to 3
    decks: int = 1
    #: how long a player has to act, 5,000 to 60,000 ms
    turn_time_ms: int = 20_000
    #: whether a host's ``TimeOut`` makes a random move (otherwise the game waits)
    random_moves: bool = True
    #: the pause between rounds, 0 to 30,000 ms, cut short when all are ready
    intermission_ms: int = 30_000


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
    #: online: the table's settings (decks, time control); ``None`` elsewhere
    settings: TableSettings | None = None
    #: the round's turn order where the edition draws one (online, ruling
    #: 43), first player first; empty: seat order from the first player
    order: tuple[int, ...] = ()
    #: online: the seats that have left the match (ruling 50)
    left: frozenset[int] = frozenset()

    @property
    def decks(self) -> int:
        """Copies of the deck in play (online may use 2 or 3)."""
        settings = self.settings
        return 1 if settings is None else settings.decks

    def setup(self) -> Setup:
        """The edition's facts for this table's players and decks."""
        return self.ruleset.setup(self.players, self.decks)


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
    #: where rounds are ranked (online): the players who went out of this
    #: round, in the order they went out (empty elsewhere)
    exits: tuple[int, ...] = ()

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

    def present(self) -> tuple[int, ...]:
        """Seats that have not left the match (online; everyone elsewhere)."""
        left = self.table.left
        return tuple(p for p in range(self.table.players) if p not in left)

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


def next_player(table: Table, out: frozenset[int], player: int) -> int:
    """The player in the round whose turn follows ``player``'s: the next
    seat clockwise (ruling 2), or the next in the round's drawn order where
    the edition draws one (ruling 43). ``player`` may be out already; at
    least one other player is in the round."""
    order = table.order
    if not order:
        n = table.players
        nxt = player + 1
        while True:
            if nxt == n:
                nxt = 0
            if nxt not in out:
                return nxt
            nxt += 1
    index = order.index(player)
    size = len(order)
    for step in range(1, size + 1):
        seat = order[(index + step) % size]
        if seat not in out:
            return seat
    raise AssertionError("no player is left in the round")


def previous_player(table: Table, out: frozenset[int], player: int) -> int:
    """The player in the round whose turn came just before ``player``'s."""
    order = table.order or tuple(range(table.players))
    index = order.index(player)
    size = len(order)
    for step in range(1, size + 1):
        seat = order[(index - step) % size]
        if seat not in out:
            return seat
    raise AssertionError("no player is left in the round")
