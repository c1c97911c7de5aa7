"""Applying events: ``evolve(state, event) -> state``.

Each event type has one applier. Appliers write to a private scratch copy of
the state's fields (a :class:`_Draft`) that lives only inside this module's
functions: :func:`apply_events` copies a state's fields once, applies a
batch of events and builds the resulting state once. No state is ever
changed.

The public verbs (:func:`evolve`, :func:`apply_events`) take events from
anywhere, so each event is checked before it is applied: first its fields'
types against its type's shape (seats are ``int`` proper and exist, cards
are :class:`Card` members of the deck in use, reasons are members of their
enum), then, by its type's checker, the facts of the state it needs in
order to make sense (the decision it can follow, the player who acts,
players still in the round or open to a card's choice, the card just
played). An event that cannot follow raises :class:`EventMismatch` naming
the field at fault (``"HandsTraded.opponent"``, or ``"CardPlayed"`` for the
event as a whole) before any state is built. The checks name no card: a
fact about one card belongs to its module. The engine applies the events
it has just produced through :func:`apply_unchecked`, without the checks:
the rules made them. Checks that the work
needs anyway (the drawn card is the top of the deck, the discarded card is
in the hand) stay in the appliers, on both paths.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import pairwise
from typing import Any

from loveletter.cards.base import CardRules
from loveletter.errors import ArgumentError, EventMismatch
from loveletter.events import (
    CardDealt,
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardRemovedFaceUp,
    CardRevealed,
    CardSetAside,
    CardsReturned,
    ChancellorDrew,
    ChoiceRestricted,
    EliminationReason,
    Event,
    GameEnded,
    GameStarted,
    GameTied,
    HandsCompared,
    HandSeen,
    HandsTraded,
    LookOffered,
    OptionDeclined,
    PlayerEliminated,
    PlayerLeft,
    PlayerMarked,
    PlayerProtected,
    PositionEstablished,
    RedrawOffered,
    RoundEnded,
    RoundEndReason,
    RoundStarted,
    TokenAwarded,
    TokenReason,
    TurnStarted,
    TurnTimedOut,
)
from loveletter.kinds import Card
from loveletter.ranking import round_ranks
from loveletter.rules import implements
from loveletter.rulesets import GameTie, Ruleset, Scoring, get_ruleset
from loveletter.state import (
    _FIELDS,
    PLAYER_DECISIONS,
    Decision,
    GameState,
    RoundResult,
    Sighting,
    Table,
    TableSettings,
    build_state,
    next_player,
)
from loveletter.validation import short

_EMPTY: frozenset[int] = frozenset()


class _TableDraft:
    """Scratch fields of a :class:`Table` being changed (rare: a few times a
    round), loaded on first use within a batch."""

    __slots__ = (
        "contenders",
        "face_up",
        "left",
        "order",
        "players",
        "round_number",
        "round_result",
        "ruleset",
        "seed",
        "set_aside",
        "settings",
        "tokens",
        "winners",
    )

    ruleset: Ruleset
    players: int
    seed: int
    tokens: tuple[int, ...]
    round_number: int
    set_aside: Card | None
    face_up: tuple[Card, ...]
    round_result: RoundResult | None
    winners: tuple[int, ...]
    contenders: tuple[int, ...]
    settings: TableSettings | None
    order: tuple[int, ...]
    left: frozenset[int]

    def __init__(self, t: Table) -> None:
        self.ruleset = t.ruleset
        self.players = t.players
        self.seed = t.seed
        self.tokens = t.tokens
        self.round_number = t.round_number
        self.set_aside = t.set_aside
        self.face_up = t.face_up
        self.round_result = t.round_result
        self.winners = t.winners
        self.contenders = t.contenders
        self.settings = t.settings
        self.order = t.order
        self.left = t.left

    def freeze(self) -> Table:
        return Table(
            self.ruleset,
            self.players,
            self.seed,
            self.tokens,
            self.round_number,
            self.set_aside,
            self.face_up,
            self.round_result,
            self.winners,
            self.contenders,
            self.settings,
            self.order,
            self.left,
        )


class _Draft:
    """Mutable scratch fields of one state under construction."""

    __slots__ = (*_FIELDS, "edits")

    # The slots hold the same fields as GameState; declared for the type checker.
    table: Table
    decision: Decision
    current: int
    turn_number: int
    deck: tuple[Card, ...]
    hands: tuple[tuple[Card, ...], ...]
    discards: tuple[tuple[Card, ...], ...]
    out: frozenset[int]
    protected: frozenset[int]
    sightings: tuple[Sighting, ...]
    pending: tuple[int, ...]
    required: int | None
    marks: tuple[tuple[int, int], ...]
    returns: tuple[tuple[int, int], ...]
    exits: tuple[int, ...]
    #: pending changes to ``table`` (None while there are none)
    edits: _TableDraft | None


def _thaw(s: GameState) -> _Draft:
    d = _Draft()
    d.table = s.table
    d.decision = s.decision
    d.current = s.current
    d.turn_number = s.turn_number
    d.deck = s.deck
    d.hands = s.hands
    d.discards = s.discards
    d.out = s.out
    d.protected = s.protected
    d.sightings = s.sightings
    d.pending = s.pending
    d.required = s.required
    d.marks = s.marks
    d.returns = s.returns
    d.exits = s.exits
    d.edits = None
    return d


def _freeze(d: _Draft) -> GameState:
    edits = d.edits
    return build_state(
        d.table if edits is None else edits.freeze(),
        d.decision,
        d.current,
        d.turn_number,
        d.deck,
        d.hands,
        d.discards,
        d.out,
        d.protected,
        d.sightings,
        d.pending,
        d.required,
        d.marks,
        d.returns,
        d.exits,
    )


def table_of(d: _Draft) -> _TableDraft:
    """The table's fields, editable (and current) for the rest of the batch."""
    edits = d.edits
    if edits is None:
        edits = d.edits = _TableDraft(d.table)
    return edits


def _mismatch_hand(player: int, card: Card | None, field: str) -> EventMismatch:
    return EventMismatch(f"player {player} does not hold {card}", field=field)


def _take(hand: tuple[Card, ...], card: Card, player: int, field: str) -> tuple[Card, ...]:
    """``hand`` without one ``card`` (``field`` names it in a mismatch)."""
    if hand and hand[0] == card:
        return hand[1:]
    try:
        index = hand.index(card)
    except ValueError:
        raise _mismatch_hand(player, card, field) from None
    return hand[:index] + hand[index + 1 :]


def _pop_top(d: _Draft, card: Card | None, field: str) -> None:
    deck = d.deck
    if not deck or deck[0] != card:
        raise EventMismatch(f"the top of the deck is not {card}", field=field)
    d.deck = deck[1:]


@implements("round.new-round-setup")
def _round_started(d: _Draft, e: RoundStarted) -> None:
    if e.deck is None:
        raise EventMismatch("a redacted RoundStarted cannot be replayed", field="RoundStarted.deck")
    t = table_of(d)
    n = t.players
    t.round_number = e.round_number
    t.set_aside = None
    t.face_up = ()
    t.round_result = None
    d.turn_number = 0
    d.decision = Decision.DRAW
    d.current = e.first_player
    d.deck = e.deck
    d.hands = ((),) * n
    d.discards = ((),) * n
    # A tie-break round deals in only the tied players, an online round only
    # the players present; the others sit it out, as if out of the round
    # from its start (rulings 31 and 50).
    dealt = e.order if e.order is not None else e.seats
    d.out = _EMPTY if dealt is None else frozenset(range(n)) - frozenset(dealt)
    t.order = () if e.order is None else e.order
    d.protected = _EMPTY
    d.sightings = ()
    d.pending = ()
    d.required = None
    d.marks = ()
    d.returns = ()
    d.exits = ()


def _card_set_aside(d: _Draft, e: CardSetAside) -> None:
    t = table_of(d)
    if t.set_aside is not None:
        # a second one would silently replace the first: a card lost
        raise EventMismatch(f"{t.set_aside} is already set aside", field="CardSetAside")
    _pop_top(d, e.card, "CardSetAside.card")
    t.set_aside = e.card


def _card_removed_face_up(d: _Draft, e: CardRemovedFaceUp) -> None:
    _pop_top(d, e.card, "CardRemovedFaceUp.card")
    t = table_of(d)
    t.face_up = (*t.face_up, e.card)


def _card_dealt(d: _Draft, e: CardDealt) -> None:
    deck = d.deck
    if not deck or deck[0] != e.card:
        raise EventMismatch(f"the top of the deck is not {e.card}", field="CardDealt.card")
    d.deck = deck[1:]
    p = e.player
    hands = d.hands
    d.hands = hands[:p] + ((*hands[p], e.card),) + hands[p + 1 :]


def _turn_started(d: _Draft, e: TurnStarted) -> None:
    p = e.player
    d.current = p
    d.decision = Decision.DRAW
    d.turn_number += 1
    if p in d.protected:
        d.protected = d.protected - {p}


def _card_drawn(d: _Draft, e: CardDrawn) -> None:
    card = e.card
    if e.from_set_aside:
        t = table_of(d)
        if t.set_aside != card or card is None:
            raise EventMismatch(f"the set-aside card is not {card}", field="CardDrawn.card")
        t.set_aside = None
    else:
        deck = d.deck
        if not deck or deck[0] != card:
            raise EventMismatch(f"the top of the deck is not {card}", field="CardDrawn.card")
        d.deck = deck[1:]
    p = e.player
    hands = d.hands
    d.hands = hands[:p] + ((*hands[p], card),) + hands[p + 1 :]
    if d.decision is Decision.DRAW and p == d.current:
        d.decision = Decision.PLAY  # the turn's own draw


def _card_played(d: _Draft, e: CardPlayed) -> None:
    # A Sycophant's requirement binds the next card played, then lapses
    # (ruling 34); a Sycophant played next sets it again after this.
    d.required = None
    p = e.player
    card = e.card
    hands = d.hands
    d.hands = hands[:p] + (_take(hands[p], card, p, "CardPlayed.card"),) + hands[p + 1 :]
    discards = d.discards
    d.discards = discards[:p] + ((*discards[p], card),) + discards[p + 1 :]


def _card_discarded(d: _Draft, e: CardDiscarded) -> None:
    p = e.player
    if d.decision is Decision.REDRAW and d.pending == (p,):
        _settle_pending(d)  # the Bishop's target chose to redraw
    card = e.card
    hands = d.hands
    d.hands = hands[:p] + (_take(hands[p], card, p, "CardDiscarded.card"),) + hands[p + 1 :]
    discards = d.discards
    d.discards = discards[:p] + ((*discards[p], card),) + discards[p + 1 :]


@implements("out.discard-hand", "out.untargetable")
def _player_eliminated(d: _Draft, e: PlayerEliminated) -> None:
    p = e.player
    hands = d.hands
    if hands[p] != e.discarded and sorted(hands[p]) != sorted(e.discarded):
        raise EventMismatch(
            f"player {p} does not hold {list(map(str, e.discarded))}",
            field="PlayerEliminated.discarded",
        )
    d.hands = hands[:p] + ((),) + hands[p + 1 :]
    discards = d.discards
    d.discards = discards[:p] + (discards[p] + e.discarded,) + discards[p + 1 :]
    d.out = d.out | {p}
    if p in d.protected:
        d.protected = d.protected - {p}
    if d.table.ruleset.scoring is Scoring.RANKS:  # ranked by the order they went out
        d.exits = (*d.exits, p)


@implements("online.leave-any-time")
def _player_left(d: _Draft, e: PlayerLeft) -> None:
    """A player leaves the match (ruling 50). If they had to act, their
    turn, or their answer to a Bishop, is over: the turn can end. A
    requirement naming them, or binding the turn they leave, lapses."""
    p = e.player
    t = table_of(d)
    if p in t.left or not 0 <= p < t.players:
        raise EventMismatch(f"player {p} is not at the table", field="PlayerLeft.player")
    t.left = t.left | {p}
    decision = d.decision
    if decision not in PLAYER_DECISIONS:
        return
    if d.required == p or d.current == p:
        d.required = None
    acting = d.pending[0] if decision is Decision.REDRAW else d.current
    if p == acting or p == d.current:
        d.pending = ()
        d.decision = Decision.PLAY  # nothing more is asked of this turn


def _turn_timed_out(d: _Draft, e: TurnTimedOut) -> None:
    # Nothing changes yet (the random move's own events follow), but even
    # unchecked a time-out fits only the player who must act
    # (tests/symbolic/contracts_online.py holds the appliers to it).
    decision = d.decision
    acting = d.pending[0] if decision is Decision.REDRAW else d.current
    if decision not in PLAYER_DECISIONS or e.player != acting:
        raise EventMismatch(
            f"player {e.player} has no decision to time out", field="TurnTimedOut.player"
        )


def _player_protected(d: _Draft, e: PlayerProtected) -> None:
    d.protected = d.protected | {e.player}


def _hand_seen(d: _Draft, e: HandSeen) -> None:
    if e.card is None:
        raise EventMismatch("a redacted HandSeen cannot be replayed", field="HandSeen.card")
    if d.decision is Decision.LOOK:
        if e.owner not in d.pending:
            raise EventMismatch(
                f"player {e.owner}'s hand was not offered for a look", field="HandSeen.owner"
            )
        _settle_pending(d)
    if e.viewer != e.owner:  # a Cardinal's look at one's own new hand shows nothing new
        d.sightings = (*d.sightings, Sighting(e.viewer, e.owner, e.card, d.turn_number, e.via))


def _hands_compared(d: _Draft, e: HandsCompared) -> None:
    if e.player_card is None or e.opponent_card is None:
        hidden = "player_card" if e.player_card is None else "opponent_card"
        raise EventMismatch(
            "a redacted HandsCompared cannot be replayed", field=f"HandsCompared.{hidden}"
        )
    turn = d.turn_number
    d.sightings = (
        *d.sightings,
        Sighting(e.player, e.opponent, e.opponent_card, turn, e.via),
        Sighting(e.opponent, e.player, e.player_card, turn, e.via),
    )


def _hands_traded(d: _Draft, e: HandsTraded) -> None:
    hands = list(d.hands)
    mine, theirs = hands[e.player], hands[e.opponent]
    hands[e.player], hands[e.opponent] = theirs, mine
    d.hands = tuple(hands)
    turn = d.turn_number
    d.sightings = (
        *d.sightings,
        *(Sighting(e.player, e.opponent, card, turn, e.via) for card in mine),
        *(Sighting(e.opponent, e.player, card, turn, e.via) for card in theirs),
    )


def _chancellor_drew(d: _Draft, e: ChancellorDrew) -> None:
    cards = e.cards
    if cards is None or d.deck[: len(cards)] != cards:
        raise EventMismatch(
            "the Chancellor's cards are not the top of the deck", field="ChancellorDrew.cards"
        )
    d.deck = d.deck[len(cards) :]
    p = e.player
    hands = d.hands
    d.hands = hands[:p] + (hands[p] + cards,) + hands[p + 1 :]
    d.decision = Decision.CHANCELLOR


def _cards_returned(d: _Draft, e: CardsReturned) -> None:
    cards = e.cards
    if cards is None:
        raise EventMismatch(
            "a redacted CardsReturned cannot be replayed", field="CardsReturned.cards"
        )
    p = e.player
    hand = d.hands[p]
    for card in cards:
        hand = _take(hand, card, p, "CardsReturned.cards")
    d.hands = d.hands[:p] + (hand,) + d.hands[p + 1 :]
    d.deck = d.deck + cards
    d.returns = (*d.returns, (p, len(cards)))
    d.decision = Decision.PLAY


def _settle_pending(d: _Draft) -> None:
    """The optional step offered is answered: the turn can end."""
    d.decision = Decision.PLAY
    d.pending = ()


def _choice_restricted(d: _Draft, e: ChoiceRestricted) -> None:
    d.required = e.required


def _player_marked(d: _Draft, e: PlayerMarked) -> None:
    d.marks = (*d.marks, (e.player, e.marked))


def _card_revealed(d: _Draft, e: CardRevealed) -> None:
    if e.card not in d.hands[e.player]:
        raise _mismatch_hand(e.player, e.card, "CardRevealed.card")


def _look_offered(d: _Draft, e: LookOffered) -> None:
    d.decision = Decision.LOOK
    d.pending = e.owners


def _redraw_offered(d: _Draft, e: RedrawOffered) -> None:
    d.decision = Decision.REDRAW
    d.pending = (e.player,)


def _option_declined(d: _Draft, e: OptionDeclined) -> None:
    if d.decision not in (Decision.LOOK, Decision.REDRAW):
        raise EventMismatch("no optional step was offered", field="OptionDeclined")
    _settle_pending(d)


def _round_ended(d: _Draft, e: RoundEnded) -> None:
    table_of(d).round_result = RoundResult(e.reason, e.winners, e.revealed, e.ranks)
    d.decision = Decision.NEXT_ROUND
    d.protected = _EMPTY
    d.required = None
    d.pending = ()


def _token_awarded(d: _Draft, e: TokenAwarded) -> None:
    t = table_of(d)
    tokens = t.tokens
    p = e.player
    if tokens[p] + 1 != e.total:
        raise EventMismatch(
            f"player {p} would have {tokens[p] + 1} tokens, not {e.total}",
            field="TokenAwarded.total",
        )
    t.tokens = tokens[:p] + (e.total,) + tokens[p + 1 :]


def _game_ended(d: _Draft, e: GameEnded) -> None:
    d.decision = Decision.GAME_OVER
    d.pending = ()
    table_of(d).winners = e.winners


def _game_tied(d: _Draft, e: GameTied) -> None:
    table_of(d).contenders = e.tied


def _game_started(d: _Draft, e: GameStarted) -> None:
    raise EventMismatch("GameStarted can only begin a log (use replay)", field="GameStarted")


def _position_established(d: _Draft, e: PositionEstablished) -> None:
    raise EventMismatch(
        "PositionEstablished can only begin a log (use replay)", field="PositionEstablished"
    )


_APPLIERS: dict[type[Event], Callable[[_Draft, Any], None]] = {
    RoundStarted: _round_started,
    CardSetAside: _card_set_aside,
    CardRemovedFaceUp: _card_removed_face_up,
    CardDealt: _card_dealt,
    TurnStarted: _turn_started,
    CardDrawn: _card_drawn,
    CardPlayed: _card_played,
    CardDiscarded: _card_discarded,
    PlayerEliminated: _player_eliminated,
    PlayerProtected: _player_protected,
    HandSeen: _hand_seen,
    HandsCompared: _hands_compared,
    HandsTraded: _hands_traded,
    ChancellorDrew: _chancellor_drew,
    CardsReturned: _cards_returned,
    ChoiceRestricted: _choice_restricted,
    PlayerMarked: _player_marked,
    CardRevealed: _card_revealed,
    LookOffered: _look_offered,
    RedrawOffered: _redraw_offered,
    OptionDeclined: _option_declined,
    RoundEnded: _round_ended,
    TokenAwarded: _token_awarded,
    GameEnded: _game_ended,
    GameTied: _game_tied,
    GameStarted: _game_started,
    PositionEstablished: _position_established,
    PlayerLeft: _player_left,
    TurnTimedOut: _turn_timed_out,
}


# --------------------------------------------------------------------------
# what a foreign event must fit before it is applied


def _mismatch(event: Event, field: str | None, message: str) -> EventMismatch:
    """``message`` about ``event``'s ``field`` (``None``: the event as a whole)."""
    name = type(event).__name__
    return EventMismatch(message, field=name if field is None else f"{name}.{field}")


def _table(d: _Draft) -> Table | _TableDraft:
    """The table as the batch has left it so far."""
    return d.table if d.edits is None else d.edits


def _decks(t: Table | _TableDraft) -> int:
    settings = t.settings
    return 1 if settings is None else settings.decks


#: what a field must hold: ``test(value, players, kinds)``, and its
#: description (``{last}``: the last seat)
_Shape = tuple[str, Callable[[object, int, tuple[Card, ...]], bool]]


def _is_seat(value: object, n: int, kinds: tuple[Card, ...]) -> bool:
    return type(value) is int and 0 <= value < n


def _is_card(value: object, n: int, kinds: tuple[Card, ...]) -> bool:
    return type(value) is Card and value in kinds


def _is_seats(value: object, n: int, kinds: tuple[Card, ...]) -> bool:
    return type(value) is tuple and all(type(s) is int and 0 <= s < n for s in value)


def _is_cards(value: object, n: int, kinds: tuple[Card, ...]) -> bool:
    return type(value) is tuple and all(type(c) is Card and c in kinds for c in value)


def _optional(shape: _Shape) -> _Shape:
    """``shape``, or ``None`` (a choice not made, or a card hidden by redaction)."""
    what, test = shape
    return f"{what} or None", lambda v, n, kinds: v is None or test(v, n, kinds)


def _exactly(kind: type, what: str) -> _Shape:
    """A value of ``kind`` itself (``True`` is no number, ``"left"`` no reason)."""
    return what, lambda v, n, kinds: type(v) is kind


def _is_pair(value: object, n: int, kinds: tuple[Card, ...]) -> bool:
    return (
        type(value) is tuple
        and len(value) == 2
        and _is_seat(value[0], n, kinds)
        and _is_card(value[1], n, kinds)
    )


_SEAT: _Shape = ("a seat from 0 to {last}", _is_seat)
_CARD: _Shape = ("a card of this game", _is_card)
_SEATS: _Shape = ("a tuple of seats from 0 to {last}", _is_seats)
_CARDS: _Shape = ("a tuple of cards of this game", _is_cards)
_INT = _exactly(int, "an integer")
_NAME: _Shape = (
    "a card or a number, or None",
    lambda v, n, kinds: v is None or type(v) is Card or type(v) is int,
)
_REVEALED: _Shape = (
    "a tuple of (seat, card) pairs",
    lambda v, n, kinds: type(v) is tuple and all(_is_pair(pair, n, kinds) for pair in v),
)
_RANKS: _Shape = (
    "a tuple of ranks (numbers or None), or None",
    lambda v, n, kinds: (
        v is None or (type(v) is tuple and all(r is None or type(r) is int for r in v))
    ),
)

#: every field of every event, checked before anything else: a field of
#: the wrong type is named whatever else is wrong with the event
_SHAPES: dict[type[Event], tuple[tuple[str, _Shape], ...]] = {
    RoundStarted: (
        ("round_number", _INT),
        ("first_player", _SEAT),
        ("deck", _optional(_CARDS)),
        ("seats", _optional(_SEATS)),
        ("order", _optional(_SEATS)),
    ),
    CardSetAside: (("card", _optional(_CARD)),),
    CardRemovedFaceUp: (("card", _CARD),),
    CardDealt: (("player", _SEAT), ("card", _optional(_CARD))),
    TurnStarted: (("player", _SEAT),),
    CardDrawn: (
        ("player", _SEAT),
        ("card", _optional(_CARD)),
        ("from_set_aside", _exactly(bool, "true or false")),
    ),
    CardPlayed: (
        ("player", _SEAT),
        ("card", _CARD),
        ("target", _optional(_SEAT)),
        ("guess", _NAME),
        ("second_target", _optional(_SEAT)),
    ),
    CardDiscarded: (("player", _SEAT), ("card", _CARD)),
    PlayerEliminated: (
        ("player", _SEAT),
        ("reason", _exactly(EliminationReason, "a reason to be knocked out")),
        ("discarded", _CARDS),
    ),
    PlayerProtected: (("player", _SEAT),),
    HandSeen: (("viewer", _SEAT), ("owner", _SEAT), ("card", _optional(_CARD)), ("via", _CARD)),
    HandsCompared: (
        ("player", _SEAT),
        ("opponent", _SEAT),
        ("player_card", _optional(_CARD)),
        ("opponent_card", _optional(_CARD)),
        ("via", _CARD),
    ),
    HandsTraded: (("player", _SEAT), ("opponent", _SEAT), ("via", _CARD)),
    ChancellorDrew: (("player", _SEAT), ("count", _INT), ("cards", _optional(_CARDS))),
    CardsReturned: (("player", _SEAT), ("count", _INT), ("cards", _optional(_CARDS))),
    ChoiceRestricted: (("player", _SEAT), ("required", _SEAT)),
    PlayerMarked: (("player", _SEAT), ("marked", _SEAT)),
    CardRevealed: (("player", _SEAT), ("card", _CARD)),
    LookOffered: (("player", _SEAT), ("owners", _SEATS)),
    RedrawOffered: (("player", _SEAT),),
    OptionDeclined: (("player", _SEAT),),
    RoundEnded: (
        ("reason", _exactly(RoundEndReason, "a reason for a round to end")),
        ("winners", _SEATS),
        ("revealed", _REVEALED),
        ("ranks", _RANKS),
    ),
    TokenAwarded: (
        ("player", _SEAT),
        ("reason", _exactly(TokenReason, "a reason to gain a token")),
        ("total", _INT),
    ),
    GameEnded: (("winners", _SEATS),),
    GameTied: (("tied", _SEATS),),
    GameStarted: (),  # refused whatever its fields: it only begins a log
    PositionEstablished: (),
    PlayerLeft: (("player", _SEAT),),
    TurnTimedOut: (("player", _SEAT),),
}


def _check_shape(d: _Draft, e: Event, shape: tuple[tuple[str, _Shape], ...]) -> None:
    t = _table(d)
    n = t.players
    kinds = t.ruleset.setup(n, _decks(t)).kinds
    for field, (what, test) in shape:
        value = getattr(e, field)
        if not test(value, n, kinds):
            raise _mismatch(e, field, f"must be {what.format(last=n - 1)}, not {short(value)}")


# Past the shapes, every field is of its type: the checks below are of the
# state the event would follow.


def _in_round(d: _Draft, e: Event, field: str) -> int:
    seat: int = getattr(e, field)
    if seat in d.out:
        raise _mismatch(e, field, f"player {seat} is out of the round")
    return seat


def _choosable(d: _Draft, e: Event, field: str) -> int:
    """A seat a card can choose: in the round and not protected (ruling 24)."""
    seat = _in_round(d, e, field)
    if seat in d.protected:
        raise _mismatch(e, field, f"player {seat} is protected: no card can choose them")
    return seat


def _acting(d: _Draft, e: Event, field: str = "player") -> int:
    """The seat of the player whose turn it is, still in the round."""
    seat = _in_round(d, e, field)
    if seat != d.current:
        raise _mismatch(e, field, f"it is player {d.current}'s turn, not player {seat}'s")
    return seat


def _shown(e: Event, field: str) -> Any:
    """``e.<field>``, a card or cards that a redacted copy hides (``None``)."""
    value = getattr(e, field)
    if value is None:
        raise _mismatch(e, field, f"a redacted {type(e).__name__} cannot be replayed")
    return value


def _ascending(e: Event, field: str) -> tuple[int, ...]:
    """``e.<field>``, seats once known to be distinct and in ascending order."""
    seats: tuple[int, ...] = getattr(e, field)
    if any(a >= b for a, b in pairwise(seats)):
        raise _mismatch(e, field, f"must list distinct seats in ascending order: {list(seats)}")
    return seats


def _resolving(d: _Draft, e: Event) -> None:
    """The event belongs to the effect of the card just played: the turn's
    card has left its player's hand and no choice is pending."""
    decision = d.decision
    if decision is not Decision.PLAY:
        raise _mismatch(
            e, None, f"no card's effect is under way while the game waits for {decision.value!r}"
        )
    if len(d.hands[d.current]) > 1:
        raise _mismatch(e, None, f"player {d.current} has not played this turn's card yet")


def _via(d: _Draft, e: HandSeen | HandsCompared | HandsTraded) -> None:
    """A hand is shown through the card just played, on top of the pile of
    the player whose turn it is, and one that shows hands (its module's
    ``shows``)."""
    pile = d.discards[d.current]
    top = pile[-1] if pile else None
    if type(e.via) is not Card or e.via is not top:
        raise _mismatch(e, "via", f"the card just played is {top}, not {short(e.via)}")
    if not d.table.ruleset.rules[top].shows:
        raise _mismatch(e, "via", f"playing {top} shows no one's hand")


def _played_card(d: _Draft, e: Event, does: Callable[[CardRules], object], what: str) -> CardRules:
    """The rules of the card just played (on top of the current player's
    pile), which must say that it ``does`` what the event records: the
    facts come from the card's own module."""
    pile = d.discards[d.current]
    rules = d.table.ruleset.rules[pile[-1]] if pile else None
    if rules is None or not does(rules):
        top = pile[-1] if pile else None
        raise _mismatch(e, None, f"the card just played ({top}) does not {what}")
    return rules


def _leaves_a_choice(d: _Draft, e: Event, decision: Decision) -> None:
    """Only a card whose rules answer the choice it leaves pending leaves it."""
    _played_card(
        d,
        e,
        lambda rules: rules.answer is not None and rules.pending is decision,
        f"leave a {decision.value} choice pending",
    )


def _dealing(d: _Draft, e: Event) -> Table | _TableDraft:
    """The round has just started and its first turn has not: the deal."""
    if d.decision is not Decision.DRAW or d.turn_number != 0:
        raise _mismatch(e, None, "cards are set aside, put face up and dealt as a round starts")
    return _table(d)


def _check_round_started(d: _Draft, e: RoundStarted) -> None:
    t = _table(d)
    if d.decision is not Decision.NEXT_ROUND:
        raise _mismatch(
            e,
            None,
            f"a round is dealt between rounds, not while the game waits for {d.decision.value!r}",
        )
    if e.round_number != t.round_number + 1:
        raise _mismatch(
            e, "round_number", f"the next round is round {t.round_number + 1}, not {e.round_number}"
        )
    ruleset, n = t.ruleset, t.players
    deck: tuple[Card, ...] = _shown(e, "deck")
    copies = _decks(t)
    expected = ruleset.deck_for(n, copies)
    if tuple(sorted(deck)) != expected:
        of = f" ({copies} copies of the deck)" if copies > 1 else ""
        raise _mismatch(
            e, "deck", f"must be the {len(expected)} cards of {ruleset.name} for {n} players{of}"
        )
    seats = e.seats
    contenders = t.contenders
    if seats != (contenders or None):
        raise _mismatch(
            e,
            "seats",
            f"a tie-break round deals the tied players {list(contenders)} (ruling 31)"
            if contenders
            else "every player is dealt in outside a tie-break round",
        )
    order = e.order
    dealt: Sequence[int]
    if not ruleset.draws_order:
        if order is not None:
            raise _mismatch(e, "order", f"{ruleset.name} plays in seat order")
        dealt = range(n) if seats is None else seats
    else:
        present = [p for p in range(n) if p not in t.left]
        if order is None or sorted(order) != present:
            raise _mismatch(e, "order", f"must list the players present once each: {present}")
        dealt = order
    if len(dealt) < 2:
        raise _mismatch(e, None, "a round is dealt to two players or more")
    first = e.first_player
    if first not in dealt or (order is not None and order[0] != first):
        raise _mismatch(e, "first_player", f"player {first} is not the first of those dealt in")


def _check_card_set_aside(d: _Draft, e: CardSetAside) -> None:
    t = _dealing(d, e)
    if not t.ruleset.sets_aside:
        raise _mismatch(e, None, f"{t.ruleset.name} sets no card aside")
    if t.face_up or any(d.hands):
        raise _mismatch(e, None, "the card is set aside before any other leaves the deck")
    _shown(e, "card")


def _check_card_removed_face_up(d: _Draft, e: CardRemovedFaceUp) -> None:
    t = _dealing(d, e)
    count = t.ruleset.face_up_count(t.players)
    if len(t.face_up) >= count:
        raise _mismatch(e, None, f"a {t.players}-player round puts {count} cards face up")
    if any(d.hands) or (t.ruleset.sets_aside and t.set_aside is None):
        raise _mismatch(e, None, "cards go face up after the set-aside card, before the deal")
    _shown(e, "card")


def _check_card_dealt(d: _Draft, e: CardDealt) -> None:
    t = _dealing(d, e)
    if (t.ruleset.sets_aside and t.set_aside is None) or len(t.face_up) != t.ruleset.face_up_count(
        t.players
    ):
        raise _mismatch(e, None, "the deal follows the set-aside and face-up cards")
    player = _in_round(d, e, "player")
    if d.hands[player]:
        raise _mismatch(e, "player", f"player {player} has been dealt their card already")
    _shown(e, "card")


def _check_turn_started(d: _Draft, e: TurnStarted) -> None:
    player = _in_round(d, e, "player")
    t = _table(d)
    n = t.players
    if n - len(d.out) < 2:
        raise _mismatch(e, None, "a turn starts only with two players or more in the round")
    if len(d.deck) <= t.ruleset.round_end_pile:
        raise _mismatch(e, None, "the round ends instead: no card is left for the turn's draw")
    if d.decision is Decision.DRAW and d.turn_number == 0:
        if player != d.current:
            raise _mismatch(
                e, "player", f"player {d.current} starts the round, not player {player}"
            )
        if any(len(d.hands[p]) != 1 for p in range(n) if p not in d.out):
            raise _mismatch(e, None, "the first turn starts once every player is dealt a card")
        return
    if d.decision is not Decision.PLAY or len(d.hands[d.current]) > 1:
        raise _mismatch(e, None, "a turn starts once the card of the one before is played")
    table = d.table if d.edits is None else d.edits.freeze()
    following = next_player(table, d.out, d.current)
    if player != following:
        raise _mismatch(e, "player", f"player {following}'s turn follows, not player {player}'s")


def _check_card_drawn(d: _Draft, e: CardDrawn) -> None:
    player = _in_round(d, e, "player")
    _shown(e, "card")
    decision = d.decision
    if decision is Decision.DRAW:  # the turn's own draw
        if d.turn_number == 0:
            raise _mismatch(e, None, "the first turn's draw follows its start")
        if player != d.current or len(d.hands[player]) != 1:
            raise _mismatch(
                e, "player", f"player {d.current} takes the turn's draw, holding one card"
            )
        if e.from_set_aside:
            raise _mismatch(e, "from_set_aside", "the turn's draw takes the top of the deck")
        return
    if decision is not Decision.PLAY:
        raise _mismatch(e, None, f"no card is drawn while the game waits for {decision.value!r}")
    _resolving(d, e)  # a replacement for a hand discarded by the card just played
    if d.hands[player]:
        raise _mismatch(
            e, "player", f"player {player} draws a replacement once their hand is discarded"
        )
    if e.from_set_aside and d.deck:
        raise _mismatch(e, "from_set_aside", "the set-aside card is drawn only from an empty deck")


def _check_card_played(d: _Draft, e: CardPlayed) -> None:
    if d.decision is not Decision.PLAY:
        raise _mismatch(e, None, f"no card is played while the game waits for {d.decision.value!r}")
    player = _acting(d, e)
    if len(d.hands[player]) != 2:
        raise _mismatch(e, None, f"player {player} has played this turn's card already")
    _shown(e, "card")
    target, second, guess = e.target, e.second_target, e.guess
    if target is not None:
        _choosable(d, e, "target")
    if second is not None:
        _choosable(d, e, "second_target")
        if target is None:
            raise _mismatch(e, "second_target", "a second player is chosen after a first")
    if guess is not None:
        wanted = int if d.table.ruleset.names_numbers else Card
        if type(guess) is not wanted or target is None:
            raise _mismatch(
                e, "guess", f"a name is a {wanted.__name__} given with a target, not {short(guess)}"
            )


def _check_card_discarded(d: _Draft, e: CardDiscarded) -> None:
    player = _in_round(d, e, "player")
    _shown(e, "card")
    if d.decision is Decision.REDRAW:
        if d.pending[:1] != (player,):
            offered = d.pending[0] if d.pending else None
            raise _mismatch(e, "player", f"player {offered} may redraw, not player {player}")
    else:
        _resolving(d, e)


def _check_player_eliminated(d: _Draft, e: PlayerEliminated) -> None:
    player = _in_round(d, e, "player")
    t = _table(d)
    if t.players - len(d.out) < 2:
        raise _mismatch(e, "player", f"player {player} is the last player in the round")
    if (e.reason is EliminationReason.LEFT) != (player in t.left):
        raise _mismatch(
            e,
            "reason",
            f"player {player} has left the match: out for that reason"
            if player in t.left
            else f"player {player} has not left the match",
        )
    if e.reason is EliminationReason.LEFT:
        if d.decision not in PLAYER_DECISIONS:
            raise _mismatch(e, None, "no one is knocked out between rounds")
    else:
        _resolving(d, e)


def _check_player_left(d: _Draft, e: PlayerLeft) -> None:
    t = _table(d)
    if not t.ruleset.online_table:
        raise _mismatch(e, None, f"no one leaves a game of {t.ruleset.name}: it is online only")
    if d.decision is Decision.GAME_OVER:
        raise _mismatch(e, None, "the match is over")
    player = e.player
    if player in t.left:
        raise _mismatch(e, "player", f"player {player} has already left")


def _check_turn_timed_out(d: _Draft, e: TurnTimedOut) -> None:
    t = _table(d)
    if not t.ruleset.online_table:
        raise _mismatch(e, None, f"{t.ruleset.name} has no time-outs: they are online only")
    if t.settings is not None and not t.settings.random_moves:
        raise _mismatch(e, None, "this table makes no random moves: it waits")
    player = e.player
    decision = d.decision
    acting = d.pending[:1] if decision is Decision.REDRAW else (d.current,)
    if decision not in PLAYER_DECISIONS or acting != (player,):
        raise _mismatch(e, "player", f"player {player} has no decision to time out")


def _check_player_protected(d: _Draft, e: PlayerProtected) -> None:
    _resolving(d, e)
    _acting(d, e)
    _played_card(d, e, lambda rules: rules.protects, "protect its player")


def _check_hand_seen(d: _Draft, e: HandSeen) -> None:
    viewer = _acting(d, e, "viewer")
    owner = _in_round(d, e, "owner")
    if d.decision is Decision.LOOK:
        if owner not in d.pending:
            raise _mismatch(e, "owner", f"player {owner}'s hand was not offered for a look")
    else:
        _resolving(d, e)
        if owner != viewer and owner in d.protected:
            raise _mismatch(e, "owner", f"player {owner} is protected: no card can choose them")
    card = _shown(e, "card")
    if card not in d.hands[owner]:
        raise _mismatch(e, "card", f"player {owner} does not hold {card}")
    _via(d, e)


def _check_hands_compared(d: _Draft, e: HandsCompared) -> None:
    _resolving(d, e)
    player = _acting(d, e)
    opponent = _choosable(d, e, "opponent")
    if opponent == player:
        raise _mismatch(e, "opponent", "a comparison is with another player")
    for field, seat in (("player_card", player), ("opponent_card", opponent)):
        card = _shown(e, field)
        if card not in d.hands[seat]:
            raise _mismatch(e, field, f"player {seat} does not hold {card}")
    _via(d, e)


def _check_hands_traded(d: _Draft, e: HandsTraded) -> None:
    _resolving(d, e)
    player = _choosable(d, e, "player")
    opponent = _choosable(d, e, "opponent")
    if opponent == player:
        raise _mismatch(e, "opponent", "a trade is between two players")
    for field, seat in (("player", player), ("opponent", opponent)):
        if len(d.hands[seat]) != 1:
            raise _mismatch(e, field, f"player {seat} holds {len(d.hands[seat])} cards, not one")
    _via(d, e)


def _check_chancellor_drew(d: _Draft, e: ChancellorDrew) -> None:
    _resolving(d, e)
    player = _acting(d, e)
    if len(d.hands[player]) != 1:
        raise _mismatch(e, "player", f"player {player} draws holding one card, not none")
    cards = _shown(e, "cards")
    if not cards:
        raise _mismatch(e, "cards", "draws one card or more")
    if e.count != len(cards):
        raise _mismatch(e, "count", f"{len(cards)} cards are drawn, not {e.count}")
    rules = _played_card(d, e, lambda rules: rules.returns, "draw cards to return")
    if len(cards) > rules.returns:
        raise _mismatch(e, "cards", f"a {rules.card} draws {rules.returns} cards at most")
    _leaves_a_choice(d, e, Decision.CHANCELLOR)


def _check_cards_returned(d: _Draft, e: CardsReturned) -> None:
    if d.decision is not Decision.CHANCELLOR:
        raise _mismatch(
            e, None, f"no cards are returned while the game waits for {d.decision.value!r}"
        )
    player = _acting(d, e)
    cards = _shown(e, "cards")
    if e.count != len(cards):
        raise _mismatch(e, "count", f"{len(cards)} cards are returned, not {e.count}")
    if len(d.hands[player]) - len(cards) != 1:
        raise _mismatch(e, "cards", f"player {player} keeps one card and returns the others")


def _check_choice_restricted(d: _Draft, e: ChoiceRestricted) -> None:
    _resolving(d, e)
    _acting(d, e)
    _choosable(d, e, "required")
    _played_card(d, e, lambda rules: rules.restricts_next, "bind the next card's choice")


def _check_player_marked(d: _Draft, e: PlayerMarked) -> None:
    _resolving(d, e)
    player = _acting(d, e)
    if _choosable(d, e, "marked") == player:
        raise _mismatch(e, "marked", "a player marks another player")
    _played_card(d, e, lambda rules: rules.marks, "mark a player")


def _check_card_revealed(d: _Draft, e: CardRevealed) -> None:
    _resolving(d, e)
    _in_round(d, e, "player")
    _shown(e, "card")


def _check_look_offered(d: _Draft, e: LookOffered) -> None:
    _resolving(d, e)
    _acting(d, e)
    owners = _ascending(e, "owners")
    if not owners or any(p in d.out or p in d.protected for p in owners):
        raise _mismatch(e, "owners", "a look is offered at hands of players who could be chosen")
    _leaves_a_choice(d, e, Decision.LOOK)


def _check_redraw_offered(d: _Draft, e: RedrawOffered) -> None:
    _resolving(d, e)
    player = _choosable(d, e, "player")
    if player == d.current:
        raise _mismatch(e, "player", "a redraw is offered to another player than the card's")
    _leaves_a_choice(d, e, Decision.REDRAW)


def _check_option_declined(d: _Draft, e: OptionDeclined) -> None:
    player = e.player
    decision = d.decision
    if decision is Decision.LOOK:
        offered: int | None = d.current
    elif decision is Decision.REDRAW:
        offered = d.pending[0] if d.pending else None
    else:
        raise _mismatch(e, None, "no optional step was offered")
    if offered != player:
        raise _mismatch(e, "player", f"the step was offered to player {offered}, not {player}")


def _check_round_ended(d: _Draft, e: RoundEnded) -> None:
    decision = d.decision
    if decision not in PLAYER_DECISIONS:
        raise _mismatch(e, None, f"no round is being played: the game waits for {decision.value!r}")
    reason = e.reason
    t = _table(d)
    ruleset, n, out, hands = t.ruleset, t.players, d.out, d.hands
    live = tuple(p for p in range(n) if p not in out)
    winners = _ascending(e, "winners")
    if not winners or any(p in out for p in winners):
        raise _mismatch(e, "winners", "the round's winners are players left in it")
    revealed = e.revealed
    if reason is RoundEndReason.ONE_PLAYER_LEFT:
        if len(live) != 1:
            raise _mismatch(e, "reason", f"{len(live)} players are left in the round, not one")
        # the winners are players left in the round, and one is left: the
        # check above already made them the last player left
        if revealed:
            raise _mismatch(e, "revealed", "the last player left shows no card (ruling 14)")
    else:
        if len(live) < 2:
            raise _mismatch(e, "reason", "a round ended by the pile has two players or more left")
        # every player left, the one whose turn it is among them, holds one card
        if decision is not Decision.PLAY or any(len(hands[p]) != 1 for p in live):
            raise _mismatch(e, None, "the pile ends a round at the end of a turn")
        if len(d.deck) > ruleset.round_end_pile:
            raise _mismatch(e, "reason", f"{len(d.deck)} cards are left to draw")
        if revealed != tuple((p, hands[p][0]) for p in live):
            raise _mismatch(e, "revealed", "the pile's end shows every hand left, in seat order")
    if ruleset.scoring is not Scoring.RANKS:
        if e.ranks is not None:
            raise _mismatch(e, "ranks", f"{ruleset.name} does not rank the players")
        return
    ranks = round_ranks(ruleset, n, revealed, live, d.exits, d.discards)
    if e.ranks != ranks:
        raise _mismatch(e, "ranks", f"the round ranks the players {list(ranks)}")
    if winners != tuple(p for p in live if ranks[p] == 1):
        raise _mismatch(e, "winners", "the round's winners are its rank-1 players")


def _check_token_awarded(d: _Draft, e: TokenAwarded) -> None:
    decision = d.decision
    if decision is not Decision.NEXT_ROUND:
        _resolving(d, e)  # a card's token, in the middle of its effect
    player = e.player
    t = _table(d)
    if player in t.left:
        raise _mismatch(e, "player", f"player {player} has left the match: they gain nothing")
    if e.reason is TokenReason.ROUND_WIN and (
        decision is not Decision.NEXT_ROUND
        or t.round_result is None
        or player not in t.round_result.winners
    ):
        raise _mismatch(e, "reason", f"player {player} has not just won a round")


def _check_game_ended(d: _Draft, e: GameEnded) -> None:
    decision = d.decision
    if decision is not Decision.NEXT_ROUND:
        _resolving(d, e)  # a card's token can win the game at once (ruling 30)
    winners = _ascending(e, "winners")
    t = _table(d)
    ruleset, n = t.ruleset, t.players
    needed = ruleset.setup(n).tokens_to_win
    if needed is None:  # ruling 44: a match closes, with no winner, once deserted
        if winners:
            raise _mismatch(e, "winners", f"a match of {ruleset.name} has no winner")
        if decision is not Decision.NEXT_ROUND or n - len(t.left) >= 2:
            raise _mismatch(e, None, "a match closes between rounds once fewer than two are left")
        return
    tokens = t.tokens
    if not winners or any(tokens[p] < needed for p in winners):
        raise _mismatch(e, "winners", f"a game is won with {needed} tokens or more")
    contenders = t.contenders
    if contenders:
        if len(winners) != 1 or winners[0] not in contenders:
            raise _mismatch(e, "winners", "a tie-break round is won by one of the tied players")
    else:
        reached = tuple(p for p, count in enumerate(tokens) if count >= needed)
        if winners != reached:
            raise _mismatch(
                e, "winners", f"the players with {needed} tokens or more win: {list(reached)}"
            )
    if ruleset.game_tie is GameTie.TIE_BREAK_ROUND and len(winners) != 1:
        raise _mismatch(e, "winners", "a tie for the game is played off (ruling 31)")


def _check_game_tied(d: _Draft, e: GameTied) -> None:
    t = _table(d)
    ruleset = t.ruleset
    if ruleset.game_tie is not GameTie.TIE_BREAK_ROUND:
        raise _mismatch(e, None, f"{ruleset.name} has no tie-break rounds")
    if d.decision is not Decision.NEXT_ROUND:
        raise _mismatch(e, None, "a tie for the game comes at the end of a round")
    tied = _ascending(e, "tied")
    needed = ruleset.setup(t.players).tokens_to_win
    if needed is None:  # online keeps Premium's tie rule but has no token goal
        raise _mismatch(e, None, f"no tokens win a match of {ruleset.name}: no one ties for it")
    tokens = t.tokens
    if len(tied) < 2 or any(tokens[p] < needed for p in tied):
        raise _mismatch(e, "tied", f"two players or more tie with {needed} tokens or more")
    contenders = t.contenders
    if contenders:
        if not set(tied) <= set(contenders):
            raise _mismatch(e, "tied", "a tie-break round ties some of its tied players again")
    elif tied != tuple(p for p, count in enumerate(tokens) if count >= needed):
        raise _mismatch(e, "tied", f"every player with {needed} tokens or more is tied")


_CHECKERS: dict[type[Event], Callable[[_Draft, Any], None]] = {
    RoundStarted: _check_round_started,
    CardSetAside: _check_card_set_aside,
    CardRemovedFaceUp: _check_card_removed_face_up,
    CardDealt: _check_card_dealt,
    TurnStarted: _check_turn_started,
    CardDrawn: _check_card_drawn,
    CardPlayed: _check_card_played,
    CardDiscarded: _check_card_discarded,
    PlayerEliminated: _check_player_eliminated,
    PlayerProtected: _check_player_protected,
    HandSeen: _check_hand_seen,
    HandsCompared: _check_hands_compared,
    HandsTraded: _check_hands_traded,
    ChancellorDrew: _check_chancellor_drew,
    CardsReturned: _check_cards_returned,
    ChoiceRestricted: _check_choice_restricted,
    PlayerMarked: _check_player_marked,
    CardRevealed: _check_card_revealed,
    LookOffered: _check_look_offered,
    RedrawOffered: _check_redraw_offered,
    OptionDeclined: _check_option_declined,
    RoundEnded: _check_round_ended,
    TokenAwarded: _check_token_awarded,
    GameEnded: _check_game_ended,
    GameTied: _check_game_tied,
    # they only ever begin a log: their appliers refuse them
    GameStarted: _game_started,
    PositionEstablished: _position_established,
    PlayerLeft: _check_player_left,
    TurnTimedOut: _check_turn_timed_out,
}
assert _CHECKERS.keys() == _APPLIERS.keys() == _SHAPES.keys()


# --------------------------------------------------------------------------
# the verbs


def _apply_to_draft(d: _Draft, events: Iterable[Event]) -> None:
    """Apply events unchecked (:func:`_apply_checked` checks each first)."""
    appliers = _APPLIERS
    for event in events:
        try:
            applier = appliers[type(event)]
        except KeyError:
            raise EventMismatch(f"not an event: {short(event)}", field="event") from None
        applier(d, event)


def _apply_checked(d: _Draft, events: Iterable[Event]) -> None:
    appliers = _APPLIERS
    checkers = _CHECKERS
    shapes = _SHAPES
    for event in events:
        kind = type(event)
        checker = checkers.get(kind)
        if checker is None:
            raise EventMismatch(f"not an event: {short(event)}", field="event")
        _check_shape(d, event, shapes[kind])
        checker(d, event)
        appliers[kind](d, event)


def _thawed(state: object) -> _Draft:
    if type(state) is not GameState:
        raise ArgumentError("state", f"not a GameState: {short(state)}")
    return _thaw(state)


def evolve(state: GameState, event: Event) -> GameState:
    """The state after ``event``; ``state`` itself never changes.

    Raises :class:`EventMismatch` naming the field at fault for an event
    that cannot follow ``state``: a field of the wrong type, a seat that
    does not exist, a player out of the round or not the one to act, a
    decision the event cannot follow, a card that is not where the event
    takes it from."""
    d = _thawed(state)
    _apply_checked(d, (event,))
    return _freeze(d)


def apply_events(state: GameState, events: Iterable[Event]) -> GameState:
    """``evolve`` folded over ``events``, building one new state. Each
    event is checked against the state the ones before it left."""
    if isinstance(events, str | bytes) or not isinstance(events, Iterable):
        raise EventMismatch(f"a sequence of events, not {short(events)}", field="events")
    d = _thawed(state)
    _apply_checked(d, events)
    return _freeze(d)


def evolve_unchecked(state: GameState, event: Event) -> GameState:
    """:func:`evolve` without the checks of the event against the state:
    the appliers alone, as the engine applies its own events. For events
    the rules produced, or deliberately built ones (the replay-start
    search deals placeholder cards); a forged event can corrupt the state.
    What no applier can do is still refused: a redacted event (its hidden
    cards would enter play as unknowns), a card that is not where the event
    takes it from, a seat not at the table, an answer to nothing offered, a
    time-out of a player who has nothing to decide."""
    return apply_unchecked(state, (event,))


def apply_unchecked(state: GameState, events: Iterable[Event]) -> GameState:
    """:func:`apply_events` without the checks (see :func:`evolve_unchecked`):
    how the engine applies the events the rules have just produced."""
    if (type(events) is tuple or type(events) is list) and not events:
        return state
    d = _thaw(state)
    _apply_to_draft(d, events)
    return _freeze(d)


def initial_state(event: GameStarted) -> GameState:
    """The state a :class:`GameStarted` event creates: seats and tokens, no
    round yet."""
    if event.seed is None:
        raise EventMismatch("a redacted GameStarted cannot be replayed")
    ruleset = get_ruleset(event.ruleset)
    n = event.players
    return GameState(
        table=Table(
            ruleset=ruleset,
            players=n,
            seed=event.seed,
            tokens=(0,) * n,
            round_number=0,
            set_aside=None,
            face_up=(),
            round_result=None,
            winners=(),
            # an online table's settings default to 004's (ruling 52)
            settings=(
                TableSettings()
                if event.settings is None and ruleset.online_table
                else event.settings
            ),
        ),
        decision=Decision.NEXT_ROUND,
        current=event.first_player,
        turn_number=0,
        deck=(),
        hands=((),) * n,
        discards=((),) * n,
        out=_EMPTY,
        protected=_EMPTY,
        sightings=(),
    )
