"""Applying events: ``evolve(state, event) -> state``.

Each event type has one applier. Appliers write to a private scratch copy of
the state's fields (a :class:`_Draft`) that lives only inside this module's
functions and the engine's ``_resolve``; :func:`apply_events` thaws a state
once, applies a batch of events and freezes the result once, which is what
makes the immutable engine fast. No state is ever changed.

Appliers also check that an event can follow the state (the drawn card is
the top of the deck, the discarded card is in the hand, ...), so a forged or
reordered log raises :class:`EventMismatch` instead of corrupting a state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from loveletter.cards import Card
from loveletter.errors import EventMismatch
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
    RoundStarted,
    TokenAwarded,
    TurnStarted,
    TurnTimedOut,
)
from loveletter.interning import interned
from loveletter.rules import implements
from loveletter.rulesets import Ruleset, Scoring, get_ruleset
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
)

_DRAW = Decision.DRAW
_PLAY = Decision.PLAY
_LOOK = Decision.LOOK
_REDRAW = Decision.REDRAW
_sighting = interned(Sighting)

_NEXT_ROUND = Decision.NEXT_ROUND
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


def thaw(s: GameState) -> _Draft:
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


def freeze(d: _Draft) -> GameState:
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


def _mismatch_hand(player: int, card: Card | None) -> EventMismatch:
    return EventMismatch(f"player {player} does not hold {card}")


def _take(hand: tuple[Card, ...], card: Card, player: int) -> tuple[Card, ...]:
    """``hand`` without one ``card``."""
    if hand and hand[0] == card:
        return hand[1:]
    try:
        index = hand.index(card)
    except ValueError:
        raise _mismatch_hand(player, card) from None
    return hand[:index] + hand[index + 1 :]


def _pop_top(d: _Draft, card: Card | None) -> None:
    deck = d.deck
    if not deck or deck[0] != card:
        raise EventMismatch(f"the top of the deck is not {card}")
    d.deck = deck[1:]


@implements("round.new-round-setup")
def _round_started(d: _Draft, e: RoundStarted) -> None:
    if e.deck is None:
        raise EventMismatch("a redacted RoundStarted cannot be replayed")
    t = table_of(d)
    n = t.players
    t.round_number = e.round_number
    t.set_aside = None
    t.face_up = ()
    t.round_result = None
    d.turn_number = 0
    d.decision = _DRAW
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
        raise EventMismatch(f"{t.set_aside} is already set aside")
    _pop_top(d, e.card)
    t.set_aside = e.card


def _card_removed_face_up(d: _Draft, e: CardRemovedFaceUp) -> None:
    _pop_top(d, e.card)
    t = table_of(d)
    t.face_up = (*t.face_up, e.card)


def _card_dealt(d: _Draft, e: CardDealt) -> None:
    deck = d.deck
    if not deck or deck[0] != e.card:
        raise EventMismatch(f"the top of the deck is not {e.card}")
    d.deck = deck[1:]
    p = e.player
    hands = d.hands
    d.hands = hands[:p] + ((*hands[p], e.card),) + hands[p + 1 :]


def _turn_started(d: _Draft, e: TurnStarted) -> None:
    p = e.player
    d.current = p
    d.decision = _DRAW
    d.turn_number += 1
    if p in d.protected:
        d.protected = d.protected - {p}


def _card_drawn(d: _Draft, e: CardDrawn) -> None:
    card = e.card
    if e.from_set_aside:
        t = table_of(d)
        if t.set_aside != card or card is None:
            raise EventMismatch(f"the set-aside card is not {card}")
        t.set_aside = None
    else:
        deck = d.deck
        if not deck or deck[0] != card:
            raise EventMismatch(f"the top of the deck is not {card}")
        d.deck = deck[1:]
    p = e.player
    hands = d.hands
    d.hands = hands[:p] + ((*hands[p], card),) + hands[p + 1 :]
    if d.decision is _DRAW and p == d.current:
        d.decision = _PLAY  # the turn's own draw


def _card_played(d: _Draft, e: CardPlayed) -> None:
    # A Sycophant's requirement binds the next card played, then lapses
    # (ruling 34); a Sycophant played next sets it again after this.
    d.required = None
    p = e.player
    card = e.card
    hands = d.hands
    d.hands = hands[:p] + (_take(hands[p], card, p),) + hands[p + 1 :]
    discards = d.discards
    d.discards = discards[:p] + ((*discards[p], card),) + discards[p + 1 :]


def _card_discarded(d: _Draft, e: CardDiscarded) -> None:
    p = e.player
    if d.decision is _REDRAW and d.pending == (p,):
        _settle_pending(d)  # the Bishop's target chose to redraw
    card = e.card
    hands = d.hands
    d.hands = hands[:p] + (_take(hands[p], card, p),) + hands[p + 1 :]
    discards = d.discards
    d.discards = discards[:p] + ((*discards[p], card),) + discards[p + 1 :]


@implements("out.discard-hand", "out.untargetable")
def _player_eliminated(d: _Draft, e: PlayerEliminated) -> None:
    p = e.player
    hands = d.hands
    if hands[p] != e.discarded and sorted(hands[p]) != sorted(e.discarded):
        raise EventMismatch(f"player {p} does not hold {list(map(str, e.discarded))}")
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
        raise EventMismatch(f"player {p} is not at the table")
    t.left = t.left | {p}
    decision = d.decision
    if decision not in PLAYER_DECISIONS:
        return
    if d.required == p or d.current == p:
        d.required = None
    acting = d.pending[0] if decision is _REDRAW else d.current
    if p == acting or p == d.current:
        d.pending = ()
        d.decision = _PLAY  # nothing more is asked of this turn


def _turn_timed_out(d: _Draft, e: TurnTimedOut) -> None:
    decision = d.decision
    acting = d.pending[0] if decision is _REDRAW else d.current
    if decision not in PLAYER_DECISIONS or e.player != acting:
        raise EventMismatch(f"player {e.player} has no decision to time out")


def _player_protected(d: _Draft, e: PlayerProtected) -> None:
    d.protected = d.protected | {e.player}


def _hand_seen(d: _Draft, e: HandSeen) -> None:
    if e.card is None:
        raise EventMismatch("a redacted HandSeen cannot be replayed")
    if d.decision is _LOOK:
        if e.owner not in d.pending:
            raise EventMismatch(f"player {e.owner}'s hand was not offered for a look")
        _settle_pending(d)
    if e.viewer != e.owner:  # a Cardinal's look at one's own new hand shows nothing new
        d.sightings = (*d.sightings, _sighting(e.viewer, e.owner, e.card, d.turn_number, e.via))


def _hands_compared(d: _Draft, e: HandsCompared) -> None:
    if e.player_card is None or e.opponent_card is None:
        raise EventMismatch("a redacted HandsCompared cannot be replayed")
    turn = d.turn_number
    d.sightings = (
        *d.sightings,
        _sighting(e.player, e.opponent, e.opponent_card, turn, e.via),
        _sighting(e.opponent, e.player, e.player_card, turn, e.via),
    )


def _hands_traded(d: _Draft, e: HandsTraded) -> None:
    hands = list(d.hands)
    mine, theirs = hands[e.player], hands[e.opponent]
    hands[e.player], hands[e.opponent] = theirs, mine
    d.hands = tuple(hands)
    turn = d.turn_number
    d.sightings = (
        *d.sightings,
        *(_sighting(e.player, e.opponent, card, turn, e.via) for card in mine),
        *(_sighting(e.opponent, e.player, card, turn, e.via) for card in theirs),
    )


def _chancellor_drew(d: _Draft, e: ChancellorDrew) -> None:
    cards = e.cards
    if cards is None or d.deck[: len(cards)] != cards:
        raise EventMismatch("the Chancellor's cards are not the top of the deck")
    d.deck = d.deck[len(cards) :]
    p = e.player
    hands = d.hands
    d.hands = hands[:p] + (hands[p] + cards,) + hands[p + 1 :]
    d.decision = Decision.CHANCELLOR


def _cards_returned(d: _Draft, e: CardsReturned) -> None:
    cards = e.cards
    if cards is None:
        raise EventMismatch("a redacted CardsReturned cannot be replayed")
    p = e.player
    hand = d.hands[p]
    for card in cards:
        hand = _take(hand, card, p)
    d.hands = d.hands[:p] + (hand,) + d.hands[p + 1 :]
    d.deck = d.deck + cards
    d.returns = (*d.returns, (p, len(cards)))
    d.decision = _PLAY


def _settle_pending(d: _Draft) -> None:
    """The optional step offered is answered: the turn can end."""
    d.decision = _PLAY
    d.pending = ()


def _choice_restricted(d: _Draft, e: ChoiceRestricted) -> None:
    d.required = e.required


def _player_marked(d: _Draft, e: PlayerMarked) -> None:
    d.marks = (*d.marks, (e.player, e.marked))


def _card_revealed(d: _Draft, e: CardRevealed) -> None:
    if e.card not in d.hands[e.player]:
        raise _mismatch_hand(e.player, e.card)


def _look_offered(d: _Draft, e: LookOffered) -> None:
    d.decision = _LOOK
    d.pending = e.owners


def _redraw_offered(d: _Draft, e: RedrawOffered) -> None:
    d.decision = _REDRAW
    d.pending = (e.player,)


def _option_declined(d: _Draft, e: OptionDeclined) -> None:
    if d.decision not in (_LOOK, _REDRAW):
        raise EventMismatch("no optional step was offered")
    _settle_pending(d)


def _round_ended(d: _Draft, e: RoundEnded) -> None:
    table_of(d).round_result = RoundResult(e.reason, e.winners, e.revealed, e.ranks)
    d.decision = _NEXT_ROUND
    d.protected = _EMPTY
    d.required = None
    d.pending = ()


def _token_awarded(d: _Draft, e: TokenAwarded) -> None:
    t = table_of(d)
    tokens = t.tokens
    p = e.player
    if tokens[p] + 1 != e.total:
        raise EventMismatch(f"player {p} would have {tokens[p] + 1} tokens, not {e.total}")
    t.tokens = tokens[:p] + (e.total,) + tokens[p + 1 :]


def _game_ended(d: _Draft, e: GameEnded) -> None:
    d.decision = Decision.GAME_OVER
    d.pending = ()
    table_of(d).winners = e.winners


def _game_tied(d: _Draft, e: GameTied) -> None:
    table_of(d).contenders = e.tied


def _game_started(d: _Draft, e: GameStarted) -> None:
    raise EventMismatch("GameStarted can only begin a log (use replay)")


def _position_established(d: _Draft, e: PositionEstablished) -> None:
    raise EventMismatch("PositionEstablished can only begin a log (use replay)")


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


def apply_to_draft(d: _Draft, events: Iterable[Event]) -> None:
    appliers = _APPLIERS
    for event in events:
        try:
            applier = appliers[type(event)]
        except KeyError:
            raise EventMismatch(f"not an event: {event!r}") from None
        applier(d, event)


def evolve(state: GameState, event: Event) -> GameState:
    """The state after ``event``. Raises :class:`EventMismatch` for an event
    that cannot follow ``state``; ``state`` itself never changes."""
    d = thaw(state)
    apply_to_draft(d, (event,))
    return freeze(d)


def apply_events(state: GameState, events: Iterable[Event]) -> GameState:
    """``evolve`` folded over ``events``, building one new state."""
    d = thaw(state)
    apply_to_draft(d, events)
    return freeze(d)


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
