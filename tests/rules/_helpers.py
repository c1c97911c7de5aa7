"""Helpers for the rules tests.

Every rules test starts from a described :class:`~loveletter.Position` (the
way a chess test starts from a FEN) or from a stacked deck, never from luck.

:func:`position` builds a position from card names and fills in every card
the test does not care about, so a test names only what matters::

    state = at(hands=["Guard Princess", "Priest", "Baron"], deck="King Prince")

:func:`check` asserts the exact events a command causes (``decide``) and
returns the resulting state (``push``), after checking that folding
``evolve`` over those events gives the same state and that the command was
listed by ``legal_commands``. :func:`reject` asserts the
:class:`~loveletter.RejectionKind` of an illegal command and that the state
is unchanged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Literal

import pytest

from loveletter import (
    Card,
    Command,
    GameState,
    IllegalCommand,
    Leave,
    Position,
    RejectionKind,
    StartRound,
    TableSettings,
    TimeOut,
    decide,
    dumps,
    evolve,
    from_position,
    get_ruleset,
    legal_commands,
    push,
)
from loveletter.events import CardDrawn, Event, TurnStarted

SPY = Card.SPY
GUARD = Card.GUARD
PRIEST = Card.PRIEST
BARON = Card.BARON
HANDMAID = Card.HANDMAID
PRINCE = Card.PRINCE
CHANCELLOR = Card.CHANCELLOR
KING = Card.KING
COUNTESS = Card.COUNTESS
PRINCESS = Card.PRINCESS
# Premium Edition, 5 to 8 players
BISHOP = Card.BISHOP
DOWAGER_QUEEN = Card.DOWAGER_QUEEN
CONSTABLE = Card.CONSTABLE
COUNT = Card.COUNT
SYCOPHANT = Card.SYCOPHANT
BARONESS = Card.BARONESS
CARDINAL = Card.CARDINAL
JESTER = Card.JESTER
ASSASSIN = Card.ASSASSIN

#: a card list: ``"Guard Princess"`` (names, spaces or commas) or a sequence of cards
Cards = str | Sequence[Card]

#: the order in which unplaced cards are used to fill the set-aside card, the
#: face-up cards and the rest: the least eventful cards first
#: cards whose play can knock a player out
_KNOCKERS = (BARON, GUARD, DOWAGER_QUEEN)
#: cards whose place in a pile matters at the round's end or to the player
_EVENTFUL = frozenset({SPY, PRINCESS, CONSTABLE, COUNT, JESTER, HANDMAID, SYCOPHANT})
#: cards that act from a pile, or say how its owner went out
_ACTS_FROM_PILE = frozenset({SPY, PRINCESS, CONSTABLE, COUNT, JESTER})

_FILL_ORDER = (
    GUARD,
    PRIEST,
    BARON,
    HANDMAID,
    KING,
    PRINCE,
    CHANCELLOR,
    COUNTESS,
    SPY,
    PRINCESS,
    # Premium, 5 to 8 players: the cards that act only when played first
    CARDINAL,
    BARONESS,
    SYCOPHANT,
    DOWAGER_QUEEN,
    JESTER,
    COUNT,
    CONSTABLE,
    ASSASSIN,
    BISHOP,
)


def cards(spec: Cards) -> tuple[Card, ...]:
    """``"Guard, Princess"`` -> ``(Card.GUARD, Card.PRINCESS)``."""
    if isinstance(spec, str):
        return tuple(Card.parse(word) for word in spec.replace(",", " ").split())
    return tuple(spec)


def full_deck(ruleset: str, players: int | None = None) -> tuple[Card, ...]:
    """Every card of the ruleset, in canonical order: its deck for
    ``players`` (the Premium deck depends on the player count), or its
    largest deck if ``players`` is not given or not supported."""
    rules = get_ruleset(ruleset)
    if players is None or not rules.supports(players):
        return rules.deck
    return rules.deck_for(players)


def leftovers(ruleset: str, *placed: Cards, players: int | None = None) -> tuple[Card, ...]:
    """The ruleset's cards not among ``placed``, least eventful first."""
    missing = Counter(full_deck(ruleset, players))
    used = Counter(card for zone in placed for card in cards(zone))
    extra = used - missing
    if extra:
        raise ValueError(f"more cards placed than the {ruleset} deck holds: {dict(extra)}")
    missing -= used
    return tuple(card for card in _FILL_ORDER for _ in range(missing[card]))


def stacked(ruleset: str, top: Cards, players: int | None = None) -> tuple[Card, ...]:
    """A whole deck (top first) beginning with ``top``; the rest follows in
    the fill order. ``players`` picks the Premium deck of that count."""
    head = cards(top)
    return head + leftovers(ruleset, head, players=players)


def position(
    ruleset: str = "2019",
    *,
    hands: Sequence[Cards],
    deck: Cards = "",
    set_aside: str | Card | None = None,
    face_up: Cards | None = None,
    discards: Sequence[Cards] | None = None,
    current: int = 0,
    drawn: bool = True,
    out: Iterable[int] = (),
    protected: Iterable[int] = (),
    tokens: Sequence[int] | None = None,
    rest: Literal["deck"] | int = "deck",
    round_number: int | None = None,
    turn_number: int | None = None,
    seed: int = 0,
    required: int | None = None,
    marks: Sequence[tuple[int, int]] = (),
    contenders: Sequence[int] = (),
) -> Position:
    """A position with one seat per entry of ``hands``.

    ``deck`` is the top of the deck (top first). Every card not placed
    explicitly goes, least eventful first, to the set-aside card (unless
    given), then to the three face-up cards of a 2-player round (unless
    given), then under the given deck cards (``rest="deck"``) or onto the
    end of seat ``rest``'s discard pile (``rest=<seat>``; use an out seat in
    2019 tests, so that a Spy dumped there earns no Spy token).
    """
    players = len(hands)
    out, protected = tuple(out), tuple(protected)
    hand_cards = [cards(h) for h in hands]
    pile: list[tuple[Card, ...]] = [cards(d) for d in discards or [""] * players]
    top = cards(deck)
    aside: tuple[Card, ...] = ()
    if set_aside is not None:
        aside = (set_aside,) if isinstance(set_aside, Card) else cards(set_aside)
    up = cards(face_up) if face_up is not None else ()
    rest_cards = list(leftovers(ruleset, top, aside, up, *hand_cards, *pile, players=players))
    if set_aside is None:
        # a Princess dumped on a pile of a player still in the round would
        # have knocked them out: she is the card set aside instead
        dumped_live = rest != "deck" and rest not in tuple(out)
        fatal = dumped_live and PRINCESS in rest_cards and Counter(rest_cards)[PRINCESS] == 1
        aside = (PRINCESS,) if fatal else (rest_cards[0],)
        rest_cards.remove(aside[0])
    if face_up is None and players == 2:
        up = tuple(rest_cards[:3])
        del rest_cards[:3]
    for seat in protected:  # a protected player's last card is their Handmaid
        if pile[seat][-1:] != (Card.HANDMAID,) and Card.HANDMAID in rest_cards:
            rest_cards.remove(Card.HANDMAID)
            pile[seat] = (*pile[seat], Card.HANDMAID)
    knocked = () if contenders else tuple(out)
    for seat in knocked:
        if not pile[seat] and rest_cards:
            # Knocked out on a turn of their own, by a card that does it (a
            # Baron comparison they started and lost), their hand on top.
            maker = next((card for card in _KNOCKERS if card in rest_cards), None)
            if maker is not None:
                rest_cards.remove(maker)
            # their hand: the knock-out makers are kept for the others
            hand = next((c for c in rest_cards if c not in _KNOCKERS), rest_cards[0])
            rest_cards.remove(hand)
            pile[seat] = (*(() if maker is None else (maker,)), hand)
    if rest == "deck":
        top = top + tuple(rest_cards)
    else:
        dealt_in = [seat for seat in range(players) if not contenders or seat in contenders]
        winners = [seat for seat, count in enumerate(tokens or ()) if count > 0]
        pile = _spread(pile, rest_cards, rest, dealt_in, current, knocked, starters=winners)
    (aside_card,) = aside
    if turn_number is None:
        held = sum(map(len, hand_cards)) + sum(map(len, pile))
        dealt = len(contenders) or players
        turn_number = max(1, held - dealt + (0 if drawn else 1))
    if round_number is None:
        round_number = 1 + max(tokens or (0,))
    return Position(
        ruleset=ruleset,
        players=players,
        deck=top,
        set_aside=aside_card,
        face_up=up,
        hands=tuple(hand_cards),
        discards=tuple(pile),
        current=current,
        drawn=drawn,
        out=tuple(out),
        protected=tuple(protected),
        tokens=tuple(tokens) if tokens is not None else None,
        round_number=round_number,
        turn_number=turn_number,
        seed=seed,
        required=required,
        marks=tuple(marks),
        contenders=tuple(contenders),
    )


def at(
    ruleset: str = "2019",
    *,
    hands: Sequence[Cards],
    deck: Cards = "",
    set_aside: str | Card | None = None,
    face_up: Cards | None = None,
    discards: Sequence[Cards] | None = None,
    current: int = 0,
    drawn: bool = True,
    out: Iterable[int] = (),
    protected: Iterable[int] = (),
    tokens: Sequence[int] | None = None,
    rest: Literal["deck"] | int = "deck",
    round_number: int | None = None,
    turn_number: int | None = None,
    seed: int = 0,
    required: int | None = None,
    marks: Sequence[tuple[int, int]] = (),
    contenders: Sequence[int] = (),
) -> GameState:
    """The state of :func:`position` (same arguments)."""
    return from_position(
        position(
            ruleset,
            hands=hands,
            deck=deck,
            set_aside=set_aside,
            face_up=face_up,
            discards=discards,
            current=current,
            drawn=drawn,
            out=out,
            protected=protected,
            tokens=tokens,
            rest=rest,
            round_number=round_number,
            turn_number=turn_number,
            seed=seed,
            required=required,
            marks=marks,
            contenders=contenders,
        )
    )


def premium(
    *,
    hands: Sequence[Cards],
    deck: Cards = "",
    set_aside: str | Card | None = None,
    face_up: Cards | None = None,
    discards: Sequence[Cards] | None = None,
    current: int = 0,
    drawn: bool = True,
    out: Iterable[int] = (),
    protected: Iterable[int] = (),
    tokens: Sequence[int] | None = None,
    round_number: int | None = None,
    seed: int = 0,
    required: int | None = None,
    marks: Sequence[tuple[int, int]] = (),
    contenders: Sequence[int] = (),
    draws: int = 0,
) -> GameState:
    """A Premium state (as :func:`at`, every unplaced card in the deck)
    whose turn number is the one its cards imply: every card in a hand or a
    discard pile was dealt (one per player dealt in), drawn at the start of
    a turn, or drawn by one of ``draws`` extra draws (a Prince's, an
    Assassin's or a Bishop's redraw)."""
    held = sum(len(cards(h)) for h in hands) + sum(len(cards(d)) for d in discards or ())
    dealt = len(contenders) or len(hands)
    turn_number = held - dealt - draws + (0 if drawn else 1)
    assert turn_number >= 1, f"these cards fit no turn of a round ({turn_number})"
    return at(
        "premium",
        hands=hands,
        deck=deck,
        set_aside=set_aside,
        face_up=face_up,
        discards=discards,
        current=current,
        drawn=drawn,
        out=out,
        protected=protected,
        tokens=tokens,
        round_number=round_number,
        turn_number=turn_number,
        seed=seed,
        required=required,
        marks=marks,
        contenders=contenders,
    )


def turn(player: int, drawn: Card) -> tuple[Event, Event]:
    """The two events that start ``player``'s turn: the turn and its draw."""
    return (TurnStarted(player), CardDrawn(player, drawn, False))


def check(state: GameState, command: Command, *expected: Event) -> GameState:
    """Assert that ``command`` causes exactly ``expected``; return the new state.

    Also checks that the engine agrees with itself: a played, kept or drawn
    command is among ``legal_commands``, and ``push`` equals ``evolve``
    folded over the events.
    """
    events = decide(state, command)
    assert events == expected
    after = push(state, command)
    folded = state
    for event in events:
        folded = evolve(folded, event)
    assert folded == after
    # the dealer's deal, a departure and a host's time-out are never among
    # a player's legal moves
    if not isinstance(command, StartRound | Leave | TimeOut):
        assert command in legal_commands(state)
    return after


def reject(state: GameState, command: Command, kind: RejectionKind) -> IllegalCommand:
    """Assert that ``command`` is rejected with ``kind`` by ``decide`` and
    ``push``, that it is not a legal command, and that ``state`` is unchanged."""
    before = dumps(state)
    with pytest.raises(IllegalCommand) as decided:
        decide(state, command)
    assert decided.value.kind is kind, str(decided.value)
    with pytest.raises(IllegalCommand) as pushed:
        push(state, command)
    assert pushed.value.kind is kind, str(pushed.value)
    assert dumps(state) == before
    assert command not in legal_commands(state)
    return decided.value


def _spread(
    pile: list[tuple[Card, ...]],
    spare: list[Card],
    rest: int,
    order: Sequence[int],
    current: int,
    gone: Iterable[int],
    first: int | None = None,
    starters: Iterable[int] = (),
) -> list[tuple[Card, ...]]:
    """``pile`` with the cards of ``spare`` put under the cards already
    there, so that the piles are those of turns played round the table.

    Turns go round the seats of ``order`` from a first player (``first``
    when the round's order names it; else whichever fits, one of
    ``starters`` if possible: the winners of the round before), skipping
    the players in ``gone`` (knocked out, their hand on top of their pile);
    each turn leaves one card on its player's pile. The current player is
    about to take a turn after ``k`` of their own, the others still in have
    had ``k`` or ``k + 1``, a player gone at most ``k + 1``. Cards that act
    from a pile (a Spy, a Princess...) go to seat ``rest``; the others
    (least eventful first) where the turns need them."""
    gone = set(gone)
    live = [s for s in order if s not in gone]
    at = live.index(current)
    after = live[at + 1 :] + live[:at]
    m = len(after)
    given = [len(p) for p in pile]
    marked = [c for c in spare if c in _ACTS_FROM_PILE]
    plain = [c for c in spare if c not in _ACTS_FROM_PILE]
    if first is not None:
        start = next(i for i, s in enumerate(order) if s not in gone)
        ahead = [s for s in list(order[start:]) + list(order[:start]) if s not in gone]
        splits: list[int] = [m - ahead.index(current)]
    else:
        # a split leaves its first player after[behind] (the current one when
        # behind == m); the winners of the round before first
        wanted = set(starters)
        splits = sorted(range(m + 1), key=lambda b: (after[b] if b < m else current) not in wanted)
    for k in range(len(spare) + max(given, default=0) + 2):
        for behind in splits:
            exact = {current: k, **{s: k for s in after[:behind]}}
            exact.update({s: k + 1 for s in after[behind:]})
            if any(given[s] > turns for s, turns in exact.items()):
                continue
            room = {s: k + 2 - given[s] for s in gone}  # k + 1 turns and the hand on top
            if any(r < 0 for r in room.values()):
                continue
            need = {s: turns - given[s] for s, turns in exact.items()}
            total = sum(need.values())
            if not total <= len(spare) <= total + sum(room.values()):
                continue
            extra = {**need, **dict.fromkeys(gone, 0)}
            left = len(spare) - total
            for s in sorted(gone, key=lambda s: s != rest):  # the rest seat first
                extra[s] = min(room[s], left)
                left -= extra[s]
            if extra.get(rest, 0) < len(marked) or (PRINCESS in marked and rest not in gone):
                continue
            cards_: dict[int, list[Card]] = {s: [] for s in extra}
            cards_[rest] = list(marked)
            pool = list(plain)
            for s in sorted(extra, key=lambda s: s != rest):
                while len(cards_[s]) < extra[s]:
                    cards_[s].append(pool.pop(0))
            return [tuple(cards_.get(s, ())) + p for s, p in enumerate(pile)]
    raise ValueError(f"no turns round the table fit these piles and {len(spare)} more cards")


def online(
    *,
    hands: Sequence[Cards],
    deck: Cards = "",
    discards: Sequence[Cards] | None = None,
    current: int | None = None,
    drawn: bool = True,
    order: Sequence[int] | None = None,
    out: Iterable[int] = (),
    exits: Sequence[int] = (),
    left: Iterable[int] = (),
    protected: Iterable[int] = (),
    tokens: Sequence[int] | None = None,
    round_number: int = 1,
    seed: int = 0,
    required: int | None = None,
    marks: Sequence[tuple[int, int]] = (),
    decks: int = 1,
    random_moves: bool = True,
    draws: int = 0,
    rest: int | None = None,
) -> GameState:
    """An online state (rulings 41-43): no set-aside or face-up card, every
    unplaced card under ``deck`` (least eventful first), or at the bottom of
    seat ``rest``'s discard pile when given, a turn order
    (``order``, seat order by default) whose first seat is current unless
    ``current`` says otherwise, and the turn number its cards imply (one per
    player dealt in, one per turn's draw, ``draws`` replacement draws).
    ``exits`` lists the players out in the order they went out (``out``
    defaults to them); ``left`` the players who left the match."""
    players = len(hands)
    ruleset = "online"
    hand_cards = [cards(h) for h in hands]
    pile = [cards(d) for d in discards or [""] * players]
    seats = (
        tuple(order)
        if order is not None
        else tuple(p for p in range(players) if p not in set(left) - set(exits))
    )
    current = seats[0] if current is None else current
    # the round's order is drawn at random: unless given, take one in which
    # the turns the piles show come round to ``current`` (some players in
    # seat order, then the current one, then the others)
    others = [s for s in seats if s != current]
    orders = (
        [seats]
        if order is not None
        else [(*others[:j], current, *others[j:]) for j in range(len(others) + 1)]
    )
    rules = get_ruleset(ruleset)
    full = Counter(rules.deck_for(players, decks))
    used = Counter(card for zone in (*hand_cards, *pile, cards(deck)) for card in zone)
    extra = used - full
    if extra:
        raise ValueError(f"more cards placed than the online deck holds: {dict(extra)}")
    full -= used
    unplaced = tuple(card for card in _FILL_ORDER for _ in range(full[card]))
    top = cards(deck)
    if rest is None:
        top += unplaced
        if order is None:
            # those who have played more than the current player come first
            gone_ = set(out) | set(exits)
            turns = {s: len(pile[s]) - (s in gone_) for s in seats}
            ahead = [s for s in others if turns[s] > turns[current]]
            seats = (*ahead, current, *[s for s in others if s not in ahead])
    else:
        # a Princess lies only in the pile of a player she knocked out (the
        # first to go out); with no one out, a test places her itself
        gone = [seat for seat in (*exits, *out) if seat != rest]
        if gone and PRINCESS in unplaced:
            fatal = tuple(card for card in unplaced if card is PRINCESS)
            unplaced = tuple(card for card in unplaced if card is not PRINCESS)
            pile[gone[0]] = fatal + pile[gone[0]]
        gone_seats = (set(out) | set(exits)) & set(seats)
        for index, candidate in enumerate(orders):
            try:
                pile = _spread(
                    pile, list(unplaced), rest, candidate, current, gone_seats, first=candidate[0]
                )
            except ValueError:
                if index == len(orders) - 1:
                    raise
                continue
            seats = candidate
            break
    held = sum(map(len, hand_cards)) + sum(map(len, pile))
    turn_number = held - len(seats) - draws + (0 if drawn else 1)
    assert turn_number >= 1, f"these cards fit no turn of a round ({turn_number})"
    return from_position(
        Position(
            ruleset=ruleset,
            players=players,
            deck=top,
            set_aside=None,
            face_up=(),
            hands=tuple(hand_cards),
            discards=tuple(pile),
            current=current,
            drawn=drawn,
            out=tuple(out) or tuple(exits) + tuple(p for p in range(players) if p not in seats),
            protected=tuple(protected),
            tokens=tuple(tokens) if tokens is not None else None,
            round_number=round_number,
            turn_number=turn_number,
            seed=seed,
            required=required,
            marks=tuple(marks),
            settings=TableSettings(decks=decks, random_moves=random_moves),
            order=seats,
            exits=tuple(exits),
            left=tuple(left),
        )
    )


def two_kings_tied(tokens: Sequence[int] | None = None, round_number: int = 1) -> GameState:
    """Online, two decks, seat 0 to play its Guard on the pile's last turn:
    seats 0 and 1 hold a King each with equal discard totals (13, six
    turns each), seat 2 a Baron, and seat 3 went out by a Princess (her
    pile holds the two decks' Princesses): a shared rank 1 once the turn
    ends the round."""
    return online(
        hands=["Guard King", "King", "Baron", ""],
        deck="Handmaid",
        discards=[
            "Guard Priest Baron Guard Priest Handmaid",
            "Guard Priest Handmaid Guard Priest Baron",
            "Guard",
            "",
        ],
        decks=2,
        rest=3,
        exits=[3],
        tokens=tokens,
        round_number=round_number,
    )
