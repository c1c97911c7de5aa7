"""An independent perft oracle for the conformance suite (2019, 2019-classic,
premium, online).

Written from the rules (``spec/rules/*.yaml``, ``spec/rulings.yaml``; for
Premium the rulebook 001 and the design contract ``docs/premium-design.md``,
rulings 20-40; for the online edition the rulebook 004 and
``docs/online-design.md``, rulings 41-53) and the case format
(``conformance/README.md``), and on purpose **without importing
``loveletter``**: only the standard library and PyYAML.
It recomputes what a case claims about move generation (``perft``,
``legal_command_count``, ``legal_commands``) with code that shares nothing
with the engine, so a bug would have to be made twice, the same way, to slip
through.

It models only what move generation depends on: the zones (deck, set-aside
card, face-up cards, hands, discard piles), who is out or protected, whose turn
it is and what the game waits for, and the favor tokens (which decide between
``next-round`` and ``game-over``). In Premium also the Sycophant's requirement,
the Jester's mark, the tie-break round's contenders and the pending optional
step (the Cardinal's look, the Bishop target's redraw). Online also the
round's drawn turn order, the players who went out (in order) and those who
left, the table's decks, and the ranks at a round's end (the next round's
first player is a rank-1 player) with the win counters; and, to follow a
case's ``TimeOut`` or a ``StartRound`` without a stacked deck or order, the
seed, the round and turn numbers and the seeded chance the case format
documents (``Seeded chance``: a BLAKE2b digest decoded as a Lehmer code),
implemented here again. It does not model events, views or sightings.

Commands are small frozen dataclasses (hashable, so a legal command set is a
``frozenset``); the state is a mutable dataclass that :func:`apply` copies
before changing it.

    >>> deck = ["Prince", "Guard", "Priest", "Handmaid", "King", "Guard", "Baron", "Guard",
    ...         "Countess", "Guard", "Prince", "Handmaid", "Priest", "Princess", "Guard", "Baron"]
    >>> state = deal("2019-classic", 2, deck)
    >>> state.hands
    [['King', 'Baron'], ['Guard']]
    >>> perft(state, 3)
    [2, 8, 64]

Premium (sections "premium" and "premium play" below): a 4-player position where the player
to act holds a Guard and a Priest. The Guard chooses one of the three others
and names a number of the 16-card deck other than 1 (2 to 8: seven numbers),
the Priest one of the three others: 3 x 7 + 3 = 24 commands.

    >>> position = {
    ...     "deck": ["Guard", "Guard", "Prince", "Handmaid", "Baron", "King", "Princess"],
    ...     "set_aside": "Priest", "face_up": [],
    ...     "hands": [["Guard", "Priest"], ["Baron"], ["Handmaid"], ["Prince"]],
    ...     "discards": [[], ["Guard"], ["Guard"], ["Countess"]], "current": 0, "drawn": True}
    >>> state = from_position("premium", 4, position)
    >>> len(legal_commands(state))
    24
    >>> sorted(guard_numbers(4)), sorted(guard_numbers(5))
    ([2, 3, 4, 5, 6, 7, 8], [0, 2, 3, 4, 5, 6, 7, 8, 9])

Online (section "online" below): no card set aside, a drawn turn order, two
other players for the Baroness (one twice allowed, lower seat first), an
ordered pair for the Cardinal (its own player allowed, no look to answer),
and a round that ends after a turn leaving one card or none in the pile.
Five players, seat 2 to play a Baroness or a Cardinal, nobody protected:
the Baroness takes two of the four others, one of them twice allowed
(6 pairs + 4 doubles), the Cardinal any two different players of the five
in either order (5 x 4): 30 commands.

    >>> held = ["Guard", "Baron", "Baroness", "Cardinal", "Priest", "King"]
    >>> rest = sorted((Counter(deck_cards("online", 5)) - Counter(held)).elements())
    >>> position = {
    ...     "deck": rest, "set_aside": None, "discards": [[]] * 5, "current": 2,
    ...     "hands": [["Guard"], ["Baron"], ["Baroness", "Cardinal"], ["Priest"], ["King"]],
    ...     "drawn": True, "order": [2, 3, 4, 0, 1]}
    >>> len(legal_commands(from_position("online", 5, position)))
    30

Run it on case files: ``python -m tests.conformance.perft_oracle CASE.yaml ...``
"""

from __future__ import annotations

import hashlib
import itertools
import math
import sys
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, NamedTuple, TypeAlias, TypeGuard

import yaml

# ------------------------------------------------------------------ editions

#: setup.deck-2019, setup.deck-classic: the cards of each edition's deck.
DECKS: Final[Mapping[str, Mapping[str, int]]] = {
    "2019": {
        "Spy": 2,
        "Guard": 6,
        "Priest": 2,
        "Baron": 2,
        "Handmaid": 2,
        "Prince": 2,
        "Chancellor": 2,
        "King": 1,
        "Countess": 1,
        "Princess": 1,
    },
    "2019-classic": {
        "Guard": 5,
        "Priest": 2,
        "Baron": 2,
        "Handmaid": 2,
        "Prince": 2,
        "King": 1,
        "Countess": 1,
        "Princess": 1,
    },
}

#: setup.card-values (the classic version keeps the values of the kinds it uses).
VALUES: Final[Mapping[str, int]] = {
    "Spy": 0,
    "Guard": 1,
    "Priest": 2,
    "Baron": 3,
    "Handmaid": 4,
    "Prince": 5,
    "Chancellor": 6,
    "King": 7,
    "Countess": 8,
    "Princess": 9,
}

#: setup.player-count, setup.player-count-premium, setup.player-count-online:
#: the fewest and most players.
PLAYER_COUNTS: Final[Mapping[str, tuple[int, int]]] = {
    "2019": (2, 6),
    "2019-classic": (2, 4),
    "premium": (2, 8),
    "online": (3, 8),
}

#: game.tokens-to-win: favor tokens needed to win, by number of players (both editions).
TOKENS_TO_WIN: Final[Mapping[int, int]] = {2: 6, 3: 5, 4: 4, 5: 3, 6: 3}

#: targeting.other-player: the cards that must choose another player.
CHOOSE_OTHER: Final = frozenset({"Guard", "Priest", "Baron", "King"})


def guard_names(ruleset: str) -> tuple[str, ...]:
    """guard.name-non-guard, ruling 5: any kind of the edition's deck but the Guard
    (so in 2019-classic neither the Spy nor the Chancellor)."""
    return tuple(sorted(kind for kind in DECKS[ruleset] if kind != "Guard"))


# ------------------------------------------------------------------ premium

#: The Premium ruleset (docs/premium-design.md), the online one
#: (docs/online-design.md), and the other names they answer to.
PREMIUM: Final = "premium"
ONLINE: Final = "online"
RULESET_ALIASES: Final[Mapping[str, str]] = {
    "premium-2016": PREMIUM,
    "perpetual": ONLINE,
    "discard": ONLINE,
}
#: The editions that play Premium's cards (online is a delta on Premium).
PREMIUM_FAMILY: Final = frozenset({PREMIUM, ONLINE})

#: setup.deck-premium, ruling 20: the 16 cards for 2 to 4 players...
PREMIUM_DECK_SMALL: Final[Mapping[str, int]] = {
    "Guard": 5,
    "Priest": 2,
    "Baron": 2,
    "Handmaid": 2,
    "Prince": 2,
    "King": 1,
    "Countess": 1,
    "Princess": 1,
}

#: ...and all 32 for 5 to 8 (the Guards "Odette" and "Dougaul" are one kind).
PREMIUM_DECK_FULL: Final[Mapping[str, int]] = {
    **PREMIUM_DECK_SMALL,
    "Guard": 8,
    "Bishop": 1,
    "DowagerQueen": 1,
    "Constable": 1,
    "Count": 2,
    "Sycophant": 2,
    "Baroness": 2,
    "Cardinal": 2,
    "Jester": 1,
    "Assassin": 1,
}

#: setup.card-values-premium (the King, Countess and Princess differ from 2019).
PREMIUM_VALUES: Final[Mapping[str, int]] = {
    "Jester": 0,
    "Assassin": 0,
    "Guard": 1,
    "Priest": 2,
    "Cardinal": 2,
    "Baron": 3,
    "Baroness": 3,
    "Handmaid": 4,
    "Sycophant": 4,
    "Prince": 5,
    "Count": 5,
    "King": 6,
    "Constable": 6,
    "Countess": 7,
    "DowagerQueen": 7,
    "Princess": 8,
    "Bishop": 9,
}

#: game.tokens-to-win-premium: 7/5/4 for 2/3/4 players, 4 for 5 to 8.
PREMIUM_TOKENS_TO_WIN: Final[Mapping[int, int]] = {2: 7, 3: 5, 4: 4, 5: 4, 6: 4, 7: 4, 8: 4}

#: Whom each Premium card chooses (the design's targeting table):
#: ``other`` one other player; ``any`` one player, its own player included;
#: ``pair`` two distinct players, its own player allowed; ``one-or-two`` one or
#: two distinct other players; ``none`` nobody.
PREMIUM_CHOOSES: Final[Mapping[str, str]] = {
    "Guard": "other",
    "Priest": "other",
    "Baron": "other",
    "King": "other",
    "DowagerQueen": "other",
    "Jester": "other",
    "Bishop": "other",
    "Prince": "any",
    "Sycophant": "any",
    "Cardinal": "pair",
    "Baroness": "one-or-two",
    "Handmaid": "none",
    "Countess": "none",
    "Princess": "none",
    "Constable": "none",
    "Count": "none",
    "Assassin": "none",
}


#: targeting.valid-choice-online (ruling 48): as Premium, but the Baroness
#: takes two other players (``two-others``: the same one twice allowed,
#: written lower seat first) and the Cardinal two different players in the
#: order chosen, its own player allowed (``ordered-pair``).
ONLINE_CHOOSES: Final[Mapping[str, str]] = {
    **PREMIUM_CHOOSES,
    "Baroness": "two-others",
    "Cardinal": "ordered-pair",
}

#: conformance/README.md, "Cards": the card order, wherever cards are listed
#: (legal commands, the canonical deck a seeded shuffle permutes, the cards
#: a time-out draws from).
CARD_ORDER: Final = (
    "Spy",
    "Guard",
    "Priest",
    "Baron",
    "Handmaid",
    "Prince",
    "Chancellor",
    "King",
    "Countess",
    "Princess",
    "Bishop",
    "DowagerQueen",
    "Constable",
    "Count",
    "Sycophant",
    "Baroness",
    "Cardinal",
    "Jester",
    "Assassin",
)

#: online.time-control-settings (ruling 52): the settings' ranges.
SETTING_RANGES: Final[Mapping[str, tuple[int, int]]] = {
    "decks": (1, 3),
    "turn_time_ms": (5_000, 60_000),
    "intermission_ms": (0, 30_000),
}


def canonical_ruleset(ruleset: str) -> str:
    """The ruleset a case's name stands for (``premium-2016`` is ``premium``)."""
    return RULESET_ALIASES.get(ruleset, ruleset)


def deck_cards(ruleset: str, players: int, decks: int = 1) -> Mapping[str, int]:
    """The cards a round is dealt from: the edition's deck, or in Premium the 16
    or the 32 cards by player count (setup.deck-premium); online the same by
    player count, every count times the table's ``decks`` (setup.deck-online,
    setup.decks-online)."""
    if ruleset in PREMIUM_FAMILY:
        cards = PREMIUM_DECK_FULL if players >= 5 else PREMIUM_DECK_SMALL
        return {card: count * decks for card, count in cards.items()}
    return DECKS[ruleset]


def tokens_to_win(ruleset: str, players: int) -> int | None:
    """game.tokens-to-win, game.tokens-to-win-premium; online none
    (game.no-end-online: a win counter ends nothing)."""
    if ruleset == ONLINE:
        return None
    return (PREMIUM_TOKENS_TO_WIN if ruleset == PREMIUM else TOKENS_TO_WIN)[players]


# ------------------------------------------------------------ seeded chance


def chance(seed: int, round_number: int, purpose: str) -> int:
    """conformance/README.md, "Seeded chance": the BLAKE2b-512 digest of
    ``loveletter/<seed>/<round>/<purpose>`` (UTF-8), read big-endian."""
    text = f"loveletter/{seed}/{round_number}/{purpose}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=64).digest(), "big")


def shuffle(items: Sequence[Any], seed: int, round_number: int, purpose: str) -> list[Any]:
    """A seeded shuffle: the top ``64 + bit_length(n!)`` bits of the chance
    number (512 at most) decoded as a Lehmer code over ``items``: for sizes
    n, n-1, ..., 1, ``number, i = divmod(number, size)`` takes the i-th of
    the items left."""
    pool = list(items)
    bits = min(512, 64 + math.factorial(len(pool)).bit_length())
    number = chance(seed, round_number, purpose) >> (512 - bits)
    drawn = []
    for size in range(len(pool), 0, -1):
        number, index = divmod(number, size)
        drawn.append(pool.pop(index))
    return drawn


def canonical_deck(ruleset: str, players: int, decks: int = 1) -> list[str]:
    """The deck in card order, every copy, as a seeded shuffle takes it."""
    cards = deck_cards(ruleset, players, decks)
    return [card for card in CARD_ORDER for _ in range(cards.get(card, 0))]


def first_swapped(order: Sequence[int], first: int | None) -> tuple[int, ...]:
    """setup.turn-order-online, ruling 43: the first player swaps places
    with the order's first seat (a swap, not a rotation)."""
    seats = list(order)
    if first is not None:
        index = seats.index(first)
        seats[0], seats[index] = seats[index], seats[0]
    return tuple(seats)


def guard_numbers(players: int) -> frozenset[int]:
    """guard.name-number, ruling 23: a number other than 1 that some card of the
    Premium deck in use carries (2-4 players: 2 to 8; 5-8 players: 0, 2 to 9)."""
    return bishop_numbers(players) - {1}


def bishop_numbers(players: int) -> frozenset[int]:
    """bishop.name-number-and-player, ruling 27: any number a card of the deck
    carries, 1 included (the Bishop is only in the 32 cards: 0 to 9)."""
    return frozenset(PREMIUM_VALUES[kind] for kind in deck_cards(PREMIUM, players))


# ------------------------------------------------------------------- errors


class OracleError(ValueError):
    """A start the rules do not allow, or a replay the oracle cannot follow
    (an accepted command the oracle finds illegal, or the reverse)."""


class OutOfReach(Exception):
    """A case shape the oracle does not model (the message says why)."""


# ----------------------------------------------------------------- commands


@dataclass(frozen=True, slots=True)
class DrawCard:
    """The turn's draw, a ply only from a position given with ``drawn: false``."""

    player: int


@dataclass(frozen=True, slots=True)
class PlayCard:
    """``guess`` is a card name in 2019, a number in Premium; ``second_target``
    only for a Premium Cardinal or Baroness pair (always above ``target``)."""

    player: int
    card: str
    target: int | None = None
    guess: str | int | None = None
    second_target: int | None = None


@dataclass(frozen=True, slots=True)
class KeepCard:
    """The answer to a Chancellor: ``bottom`` goes under the deck in this order."""

    player: int
    keep: str
    bottom: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LookAtHand:
    """Premium: the Cardinal's optional look at one of the two swapped hands."""

    player: int
    owner: int


@dataclass(frozen=True, slots=True)
class Redraw:
    """Premium: the Bishop's target discards their card and draws (their answer)."""

    player: int


@dataclass(frozen=True, slots=True)
class Decline:
    """Premium: skip the pending optional step (the Cardinal's look, the redraw)."""

    player: int


@dataclass(frozen=True, slots=True)
class Leave:
    """Online: a host's command, never a legal one; the player leaves the match."""

    player: int


@dataclass(frozen=True, slots=True)
class TimeOut:
    """Online: a host's command, never a legal one; the player to act ran out
    of time and the seeded draw makes a move for them."""

    player: int


Command: TypeAlias = (
    DrawCard | PlayCard | KeepCard | LookAtHand | Redraw | Decline | Leave | TimeOut
)

# ---------------------------------------------------------------------- state

Decision: TypeAlias = Literal[
    "draw", "play", "chancellor", "look", "redraw", "next-round", "game-over"
]


@dataclass(slots=True)
class State:
    ruleset: str
    players: int
    deck: list[str]  # draw pile, top first (ruling 4)
    set_aside: str | None  # the face-down card; None once a Prince's draw took it
    face_up: tuple[str, ...]  # the 2-player face-up cards, never drawn
    hands: list[list[str]]
    discards: list[list[str]]  # by seat, oldest first
    out: set[int]
    protected: set[int]
    current: int  # whose turn it is (or was, once the round is over)
    decision: Decision
    tokens: list[int]
    round_winners: tuple[int, ...] = ()  # of the round just ended, for the next first player
    # Premium only (empty or None in 2019):
    required: int | None = None  # the Sycophant's chosen seat, until the next card played
    marks: tuple[tuple[int, int], ...] = ()  # (Jester's player, marked player)
    contenders: tuple[int, ...] = ()  # the players of a tie-break round; () in a normal round
    pending: tuple[int, ...] = ()  # look: the two swapped seats; redraw: the Bishop's target
    tied: tuple[int, ...] = ()  # between rounds: who plays the coming tie-break round
    # Online only (their defaults elsewhere):
    order: tuple[int, ...] = ()  # the round's turn order, first player first; () = seat order
    exits: tuple[int, ...] = ()  # the players who went out this round, in order
    left: frozenset[int] = frozenset()  # the seats that left the match
    decks: int = 1  # copies of the deck
    random_moves: bool = True  # whether a TimeOut makes a move
    seed: int = 0  # for the seeded chance
    round_number: int = 1
    turn_number: int = 1  # turns started this round
    ranks: tuple[int | None, ...] = ()  # of the round just ended

    def copy(self) -> State:
        return State(
            ruleset=self.ruleset,
            players=self.players,
            deck=list(self.deck),
            set_aside=self.set_aside,
            face_up=self.face_up,
            hands=[list(hand) for hand in self.hands],
            discards=[list(pile) for pile in self.discards],
            out=set(self.out),
            protected=set(self.protected),
            current=self.current,
            decision=self.decision,
            tokens=list(self.tokens),
            round_winners=self.round_winners,
            required=self.required,
            marks=self.marks,
            contenders=self.contenders,
            pending=self.pending,
            tied=self.tied,
            order=self.order,
            exits=self.exits,
            left=self.left,
            decks=self.decks,
            random_moves=self.random_moves,
            seed=self.seed,
            round_number=self.round_number,
            turn_number=self.turn_number,
            ranks=self.ranks,
        )

    def in_round(self) -> list[int]:
        return [seat for seat in range(self.players) if seat not in self.out]

    def present(self) -> list[int]:
        """online.leave-any-time: the seats that have not left the match."""
        return [seat for seat in range(self.players) if seat not in self.left]

    def to_act(self) -> int:
        """Who must act: the Bishop's target at a redraw, else the current player."""
        return self.pending[0] if self.decision == "redraw" else self.current


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise OracleError(message)


def _check_edition_cards(ruleset: str, players: int, cards: Sequence[str], decks: int = 1) -> None:
    """setup.deck-2019 / setup.deck-classic / setup.deck-premium /
    setup.deck-online: exactly the cards of the edition (in Premium and
    online, of the deck for this many players; online times the decks)."""
    want, have = Counter(deck_cards(ruleset, players, decks)), Counter(cards)
    _require(
        want == have,
        f"not the {ruleset} cards: extra {dict(have - want)}, missing {dict(want - have)}",
    )


def _check_players(ruleset: str, players: int) -> None:
    low, high = PLAYER_COUNTS[ruleset]  # setup.player-count
    _require(low <= players <= high, f"{ruleset} is for {low} to {high} players, not {players}")


# --------------------------------------------------------------------- starts


def deal(
    ruleset: str,
    players: int,
    deck: Sequence[str],
    first_player: int = 0,
    tokens: Sequence[int] | None = None,
    contenders: Sequence[int] = (),
    *,
    order: Sequence[int] | None = None,
    decks: int = 1,
    seed: int = 0,
    random_moves: bool = True,
) -> State:
    """A round dealt from a stacked deck (top first), following ruling 3.

    ``contenders``: the players of a Premium tie-break round (ruling 31); the
    others sit out, out of the round from its start. Empty: everyone plays.

    Online (rulings 41-43): the round's turn ``order``, or when none is given
    the seed's first order (round 1) with ``first_player`` swapped into first
    place; ``decks`` copies of the deck; no card set aside.
    """
    ruleset = canonical_ruleset(ruleset)
    if ruleset == ONLINE:
        _check_players(ruleset, players)
        _require(1 <= decks <= 3, f"online plays with 1 to 3 decks, not {decks}")
        if order is None:
            _require(0 <= first_player < players, f"no seat {first_player}")
            order = first_swapped(shuffle(range(players), seed, 1, "order"), first_player)
        state = State(
            ruleset=ONLINE,
            players=players,
            deck=[],
            set_aside=None,
            face_up=(),
            hands=[[] for _ in range(players)],
            discards=[[] for _ in range(players)],
            out=set(),
            protected=set(),
            current=0,
            decision="next-round",
            tokens=list(tokens) if tokens is not None else [0] * players,
            decks=decks,
            seed=seed,
            random_moves=random_moves,
            round_number=0,
        )
        return _online_deal(state, deck, tuple(order))
    _require(order is None, f"{ruleset} plays in seat order: no order to give")
    _check_players(ruleset, players)
    _check_edition_cards(ruleset, players, deck)
    _require(0 <= first_player < players, f"no seat {first_player}")
    seats = _contenders(ruleset, players, contenders) or tuple(range(players))
    _require(first_player in seats, f"seat {first_player} sits the tie-break round out")
    pile = list(deck)
    # setup.set-aside-face-down: the top card, unseen for the whole round.
    set_aside = pile.pop(0)
    # setup.two-player-face-up: with two players, the next three lie face up
    # (a tie-break round keeps the game's own setup: the game's player count).
    face_up = tuple(pile.pop(0) for _ in range(3)) if players == 2 else ()
    # setup.deal-one-each: one card each, from the first player clockwise (ruling 2),
    # to the players dealt in.
    hands: list[list[str]] = [[] for _ in range(players)]
    for offset in range(players):
        seat = (first_player + offset) % players
        if seat in seats:
            hands[seat].append(pile.pop(0))
    # turn.draw-then-play: the first player's turn starts with their draw.
    hands[first_player].append(pile.pop(0))
    return State(
        ruleset=ruleset,
        players=players,
        deck=pile,
        set_aside=set_aside,
        face_up=face_up,
        hands=hands,
        discards=[[] for _ in range(players)],
        out=set(range(players)) - set(seats),
        protected=set(),
        current=first_player,
        decision="play",
        tokens=list(tokens) if tokens is not None else [0] * players,
        contenders=seats if contenders else (),
    )


def _contenders(ruleset: str, players: int, contenders: Sequence[int]) -> tuple[int, ...]:
    """game.tie-break-round: the tied players, ascending (none in a normal round)."""
    seats = tuple(sorted(set(contenders)))
    if seats:
        _require(ruleset == PREMIUM, f"{ruleset} has no tie-break round (ruling 12)")
        _require(len(seats) == len(contenders), f"contenders {contenders} repeat a seat")
        _require(len(seats) >= 2, f"a tie-break round needs two tied players, not {seats}")
        _require(all(0 <= seat < players for seat in seats), f"no seats {seats}")
    return seats


def from_position(
    ruleset: str,
    players: int,
    position: Mapping[str, Any],
    settings: Mapping[str, Any] | None = None,
) -> State:
    """A round in progress, as a case's ``start.position`` describes it.

    Premium positions may add ``required`` (the Sycophant's seat, or null),
    ``marks`` (``[jester_player, marked]`` pairs) and ``contenders`` (a tie-break
    round's players; every other seat sits out, as if listed in ``out``).
    Online positions may add ``order`` (the round's turn order), ``exits``
    (who went out, in order), ``left`` (who left the match), ``seed``,
    ``round_number`` and ``turn_number``; ``settings`` are the case's table
    settings.
    """
    ruleset = canonical_ruleset(ruleset)
    _check_players(ruleset, players)
    decks, random_moves = _settings(ruleset, settings)
    if ruleset == ONLINE:
        return _online_position(players, position, decks, random_moves)
    for key in ("order", "exits", "left"):
        _require(not position.get(key), f"{ruleset} has no {key}")
    drawn = bool(position["drawn"])
    if position.get("pending"):
        raise OutOfReach("a position with a pending optional step (look, redraw)")
    contenders = _contenders(ruleset, players, position.get("contenders") or ())
    sitting_out = set(range(players)) - set(contenders) if contenders else set()
    state = State(
        ruleset=ruleset,
        players=players,
        deck=list(position["deck"]),
        set_aside=position["set_aside"],
        face_up=tuple(position.get("face_up", ())),
        hands=[list(hand) for hand in position["hands"]],
        discards=[list(pile) for pile in position["discards"]],
        out=set(position.get("out", ())) | sitting_out,
        protected=set(position.get("protected", ())),
        current=position["current"],
        decision="play" if drawn else "draw",
        tokens=list(position.get("tokens", [0] * players)),
        required=position.get("required"),
        marks=tuple((jester, marked) for jester, marked in position.get("marks") or ()),
        contenders=contenders,
    )
    # The constraints the README puts on a position: every card once...
    _require(state.set_aside is not None, "a round in progress keeps its set-aside card (ruling 9)")
    cards = [*state.deck, *state.face_up, *itertools.chain(*state.hands, *state.discards)]
    if state.set_aside is not None:
        cards.append(state.set_aside)
    _check_edition_cards(ruleset, players, cards)
    _require(len(state.face_up) == (3 if players == 2 else 0), "wrong number of face-up cards")
    _require(len(state.hands) == players == len(state.discards), "one hand and pile per seat")
    _require(len(state.tokens) == players, "one token count per seat")
    # ...the current player in the round and unprotected, two players left...
    _require(state.current not in state.out, "the current player is out")
    _require(state.current not in state.protected, "the current player is protected")
    _require(not state.protected & state.out, "an out player is protected")
    _require(len(state.in_round()) >= 2, "fewer than two players in the round")
    # ...two cards for the current player once drawn, one for the others, none when out.
    for seat, hand in enumerate(state.hands):
        want = 0 if seat in state.out else 2 if seat == state.current and drawn else 1
        _require(len(hand) == want, f"seat {seat} holds {hand}, expected {want} card(s)")
    # turn.draw-then-play: a turn never starts on an empty deck.
    _require(drawn or bool(state.deck), "a draw is pending but the deck is empty")
    if ruleset == PREMIUM:
        _check_premium_position(state, sitting_out)
    else:
        _require(
            state.required is None and not state.marks and not state.contenders,
            f"{ruleset} has no Sycophant, Jester or tie-break round",
        )
    return state


def _check_premium_position(state: State, sitting_out: set[int]) -> None:
    """What a Premium round in progress cannot look otherwise."""
    in_round = state.in_round()
    # sycophant.next-card-must-choose: the Sycophant chose a player it could
    # choose, and nothing but a card played (which ends the requirement) changes
    # that player's being in the round and unprotected.
    required = state.required
    if required is not None:
        _require(_is_seat(required), f"required {required!r} is not a seat")
        _require(required in in_round, f"the required seat {required} is out")
        _require(required not in state.protected, f"the required seat {required} is protected")
    # jester.mark-expected-winner: a mark is made by a played Jester, of another seat.
    for jester, marked in state.marks:
        _require(
            _is_seat(jester) and _is_seat(marked) and jester != marked,
            f"mark {[jester, marked]}",
        )
        _require(0 <= jester < state.players and 0 <= marked < state.players, "mark off the table")
        _require("Jester" in state.discards[jester], f"seat {jester} marks with no Jester played")
    jesters = PREMIUM_DECK_FULL["Jester"] * state.decks
    _require(len(state.marks) <= jesters, "more marks than Jesters")
    # game.immediate-win, game.tie-break-round: a normal round is played while
    # nobody has reached the threshold; a tie-break round by players who have.
    threshold = tokens_to_win(state.ruleset, state.players)
    if threshold is None:  # online: no count of tokens ends the game
        return
    for seat in state.contenders or range(state.players):
        reached = state.tokens[seat] >= threshold
        _require(
            reached == bool(state.contenders),
            f"seat {seat} has {state.tokens[seat]} tokens (threshold {threshold})",
        )
    # game.tie-break-round: the others sit out from the start: never dealt a card.
    for seat in sitting_out:
        _require(not state.discards[seat], f"seat {seat} sits out but has discards")


def _settings(ruleset: str, settings: Mapping[str, Any] | None) -> tuple[int, bool]:
    """online.time-control-settings (ruling 52): the table's ``decks`` and
    ``random_moves``, each setting within its range; no other edition has
    any."""
    if settings is None:
        return 1, True
    _require(ruleset == ONLINE, f"{ruleset} has no table settings")
    _require(set(settings) <= {*SETTING_RANGES, "random_moves"}, f"settings {dict(settings)}")
    for name, (low, high) in SETTING_RANGES.items():
        value = settings.get(name, low)
        _require(_is_seat(value) and low <= value <= high, f"settings.{name}: {value!r}")
    random_moves = settings.get("random_moves", True)
    _require(isinstance(random_moves, bool), f"settings.random_moves: {random_moves!r}")
    return settings.get("decks", 1), random_moves


def from_start(case: Mapping[str, Any]) -> State:
    """The state a case starts from: its stacked ``deal`` or its ``position``."""
    ruleset, players, start = case["ruleset"], case["players"], case["start"]
    settings = case.get("settings")
    if "deal" in start:
        spec = start["deal"]
        decks, random_moves = _settings(canonical_ruleset(ruleset), settings)
        order = spec.get("order")
        first = spec.get("first_player")
        if order is not None:
            _require(sorted(order) == list(range(players)), f"the order {order} is not every seat")
            _require(first is None or first == order[0], f"the order {order} starts elsewhere")
        state = deal(
            ruleset,
            players,
            spec["deck"],
            first if first is not None else 0,
            spec.get("tokens"),
            spec.get("contenders") or (),
            order=order,
            decks=decks,
            seed=int(spec.get("seed", 0)),
            random_moves=random_moves,
        )
        state.round_number = spec.get("round_number", 1)
        return state
    return from_position(ruleset, players, start["position"], settings)


# ------------------------------------------------------------ legal commands


def legal_commands(state: State) -> frozenset[Command]:
    """The distinct commands the player to act may give now."""
    # Between rounds and after the game nobody has a command: StartRound is the
    # dealer's step, not a player's (README, "Legal commands").
    if state.decision in ("next-round", "game-over"):
        return frozenset()
    me = state.current
    if state.decision == "draw":
        return frozenset({DrawCard(me)})
    if state.decision == "chancellor":
        return frozenset(_chancellor_answers(state.hands[me], me))
    if state.decision == "look":
        # cardinal.optional-look, ruling 25: one of the two swapped hands, or not.
        return frozenset({*(LookAtHand(me, owner) for owner in state.pending), Decline(me)})
    if state.decision == "redraw":
        # bishop.target-may-redraw, ruling 25: the target answers, not the current player.
        [target] = state.pending
        return frozenset({Redraw(target), Decline(target)})
    if state.ruleset in PREMIUM_FAMILY:
        return frozenset(_premium_plays(state))
    return frozenset(_plays(state))


def _chancellor_answers(hand: Sequence[str], me: int) -> Iterator[KeepCard]:
    # chancellor.draw-two-keep-one / chancellor.one-card-in-deck: keep exactly one
    # card; chancellor.return-bottom-any-order: the rest go under in any order.
    # countess.not-during-chancellor (ruling 15): the Countess limits nothing here.
    # Identical cards give the same answer once (the frozenset dedupes).
    for index, keep in enumerate(hand):
        rest = [*hand[:index], *hand[index + 1 :]]
        for order in itertools.permutations(rest):
            yield KeepCard(me, keep, order)


def _plays(state: State) -> Iterator[PlayCard]:
    me = state.current
    playable = set(state.hands[me])  # two equal cards are one choice
    # countess.forced-by-king-or-prince: with a King or a Prince beside her, the
    # Countess is the only card that may be played (countess.voluntary otherwise;
    # with the Princess either card may go, ruling 17).
    if "Countess" in playable and playable & {"King", "Prince"}:
        playable = {"Countess"}
    # targeting.other-player, out.untargetable, handmaid.protection-until-next-turn:
    # the other players who may be chosen.
    choosable = [seat for seat in state.in_round() if seat != me and seat not in state.protected]
    for card in playable:
        if card in CHOOSE_OTHER:
            if not choosable:
                # handmaid.all-protected-no-effect, ruling 6: played with no target
                # and no guess (everyone else out or protected).
                yield PlayCard(me, card)
            elif card == "Guard":
                # guard.name-non-guard: one command per target and nameable kind.
                for target in choosable:
                    for name in guard_names(state.ruleset):
                        yield PlayCard(me, card, target, name)
            else:
                for target in choosable:
                    yield PlayCard(me, card, target)
        elif card == "Prince":
            # prince.any-player: any unprotected player in the round, oneself always
            # (handmaid.all-protected-prince-self: then only oneself).
            for target in [*choosable, me]:
                yield PlayCard(me, card, target)
        else:
            # Spy, Handmaid, Chancellor, Countess, Princess choose no one. Playing the
            # Princess is legal, it only knocks its player out.
            yield PlayCard(me, card)


def _premium_plays(state: State) -> Iterator[PlayCard]:
    me, required = state.current, state.required
    playable = set(state.hands[me])  # two equal cards are one choice
    # countess.forced-by-king-or-prince, ruling 26: by name, the King or the Prince
    # (not the Dowager Queen, the Count or the Constable).
    if "Countess" in playable and playable & {"King", "Prince"}:
        playable = {"Countess"}
    # targeting: a player who can be chosen is in the round and unprotected
    # (handmaid.protection-until-next-turn, ruling 24); the current player always can.
    choosable = [seat for seat in state.in_round() if seat not in state.protected]
    others = [seat for seat in choosable if seat != me]

    # sycophant.next-card-must-choose, ruling 34: the choice must include the
    # required seat (the named number is never constrained).
    def allowed(*seats: int) -> bool:
        return required is None or required in seats

    table = ONLINE_CHOOSES if state.ruleset == ONLINE else PREMIUM_CHOOSES
    for card in playable:
        chooses = table[card]
        commands: list[PlayCard] = []
        if chooses == "other":
            numbers: Sequence[int | None] = [None]
            if card == "Guard":
                numbers = sorted(guard_numbers(state.players))  # guard.name-number
            elif card == "Bishop":
                numbers = sorted(bishop_numbers(state.players))  # bishop.name-number-and-player
            commands = [
                PlayCard(me, card, target, number)
                for target in others
                if allowed(target)
                for number in numbers
            ]
        elif chooses == "pair":
            # cardinal.swap-two-players: two distinct choosable players, its own
            # player allowed, written in ascending order.
            commands = [
                PlayCard(me, card, first, second_target=second)
                for first, second in itertools.combinations(choosable, 2)
                if allowed(first, second)
            ]
        elif chooses == "one-or-two":
            # baroness.look-one-or-two, ruling 36: one other player, or two.
            commands = [PlayCard(me, card, target) for target in others if allowed(target)]
            commands += [
                PlayCard(me, card, first, second_target=second)
                for first, second in itertools.combinations(others, 2)
                if allowed(first, second)
            ]
        elif chooses == "two-others":
            # baroness.two-looks-online, ruling 48: two other players, the same
            # one twice allowed, the lower seat written first.
            commands = [
                PlayCard(me, card, first, second_target=second)
                for index, first in enumerate(others)
                for second in others[index:]
                if allowed(first, second)
            ]
        elif chooses == "ordered-pair":
            # cardinal.swap-and-look-first-online, ruling 48: two different
            # choosable players in the order chosen, its own player allowed.
            commands = [
                PlayCard(me, card, first, second_target=second)
                for first, second in itertools.permutations(choosable, 2)
                if allowed(first, second)
            ]
        elif chooses == "any":
            # prince.any-player, sycophant.next-card-must-choose: any choosable
            # player, its own included; its own player can always be chosen, so
            # this choice is never impossible (ruling 24).
            targets = [seat for seat in choosable if allowed(seat)] or [me]
            commands = [PlayCard(me, card, target) for target in targets]
        if commands:
            yield from commands
        else:
            # targeting.choose-impossible-no-effect (001 "Choosing a Player"):
            # a card that chooses no one, or whose choice is impossible (everyone
            # else out or protected, or the requirement unmet), is played with
            # no target, no guess, and no effect.
            yield PlayCard(me, card)


# ------------------------------------------------------------------- effects


def apply(state: State, command: Command) -> State:
    """The state after a legal command (the caller checks legality), or
    online after a host's ``Leave`` or ``TimeOut`` (checked here)."""
    if isinstance(command, Leave):
        return leave(state, command.player)
    if isinstance(command, TimeOut):
        return time_out(state, command.player)
    state = state.copy()
    me = state.current
    if isinstance(command, DrawCard):
        state.hands[me].append(state.deck.pop(0))  # turn.draw-then-play
        state.decision = "play"
        return state
    if isinstance(command, KeepCard):
        hand = state.hands[me]
        hand.remove(command.keep)
        _require(Counter(hand) == Counter(command.bottom), f"{command} does not return {hand}")
        state.hands[me] = [command.keep]
        # chancellor.return-bottom-any-order, ruling 4: under the deck in the order
        # listed, the last one bottom-most. It is not a discard (ruling 11).
        state.deck.extend(command.bottom)
        _end_turn(state)
        return state
    if isinstance(command, LookAtHand | Decline):
        # cardinal.optional-look (nothing moves), or the target keeps their card.
        state.pending = ()
        _end_turn(state)
        return state
    if isinstance(command, Redraw):
        # bishop.target-may-redraw: discard without effect, draw (ruling 27).
        [target] = state.pending
        state.pending = ()
        if not _discard_and_draw(state, target):
            _end_turn(state)
        return state
    if state.ruleset in PREMIUM_FAMILY:
        _premium_play(state, command)
    else:
        _play(state, command)
    return state


def _play(state: State, command: PlayCard) -> None:
    me, card, target = state.current, command.card, command.target
    # turn.played-cards-face-up: the played card goes to its player's pile.
    state.hands[me].remove(card)
    state.discards[me].append(card)
    if card == "Princess":
        _knock_out(state, me)  # princess.eliminated-when-played-or-discarded
    elif card == "Handmaid":
        state.protected.add(me)  # handmaid.protection-until-next-turn
    elif card == "Chancellor":
        # chancellor.draw-two-keep-one / chancellor.one-card-in-deck: take up to two;
        # chancellor.empty-deck-no-effect: with an empty deck nothing happens.
        taken = state.deck[:2]
        if taken:
            del state.deck[:2]
            state.hands[me].extend(taken)
            state.decision = "chancellor"  # the turn goes on until the KeepCard
            return
    elif target is None:
        pass  # Spy, Countess (no effect), or a card with nobody to choose (ruling 6)
    elif card == "Guard":
        # guard.correct-guess-eliminates
        if state.hands[target] == [command.guess]:
            _knock_out(state, target)
    elif card == "Priest":
        pass  # priest.look-secretly: nothing moves
    elif card == "Baron":
        # baron.compare-lower-out (the Baron's own player may lose), baron.tie-no-effect
        mine, theirs = VALUES[state.hands[me][0]], VALUES[state.hands[target][0]]
        if mine < theirs:
            _knock_out(state, me)
        elif theirs < mine:
            _knock_out(state, target)
    elif card == "King":
        # king.trade-hands: a swap, not a discard.
        state.hands[me], state.hands[target] = state.hands[target], state.hands[me]
    elif card == "Prince":
        # prince.discard-and-draw: the chosen player discards without effect...
        [discarded] = state.hands[target]
        state.hands[target] = []
        state.discards[target].append(discarded)
        if discarded == "Princess":
            _knock_out(state, target)  # prince.princess-discard-eliminates: no draw
        elif state.deck:
            state.hands[target].append(state.deck.pop(0))
        else:
            # prince.empty-deck-draws-set-aside (never the face-up cards)
            if state.set_aside is None:
                raise OracleError("the set-aside card is already gone (ruling 9)")
            state.hands[target].append(state.set_aside)
            state.set_aside = None
    # round.end-one-player-left: the round ends the instant one player is left,
    # even on the turn of the player just knocked out (ruling 19).
    if len(state.in_round()) == 1:
        _end_round(state)
    else:
        _end_turn(state)


def _knock_out(state: State, seat: int) -> None:
    # out.discard-hand: what is left in hand goes face up, without effect.
    state.out.add(seat)
    state.discards[seat].extend(state.hands[seat])
    state.hands[seat] = []
    state.protected.discard(seat)


def _end_turn(state: State) -> None:
    if state.ruleset == ONLINE:
        _online_end_turn(state)
        return
    # round.end-deck-empty, ruling 8: checked once the turn is over.
    if not state.deck:
        _end_round(state)
        return
    # turn.order, out.turn-skipped: the next seat clockwise still in the round.
    seat = (state.current + 1) % state.players
    while seat in state.out:
        seat = (seat + 1) % state.players
    state.current = seat
    # handmaid.protection-until-next-turn: it ends as the player's turn starts.
    state.protected.discard(seat)
    # turn.draw-then-play: a draw the rules make happen, not a ply.
    state.hands[seat].append(state.deck.pop(0))
    state.decision = "play"


def _end_round(state: State) -> None:
    if state.ruleset == PREMIUM:
        _premium_end_round(state, set())
        return
    alive = state.in_round()
    if len(alive) == 1:
        winners = alive  # round.end-one-player-left
    else:
        # round.highest-card-wins (hand cards only), round.tie-all-win (ruling 18).
        best = max(VALUES[state.hands[seat][0]] for seat in alive)
        winners = [seat for seat in alive if VALUES[state.hands[seat][0]] == best]
    for seat in winners:
        state.tokens[seat] += 1  # round.winner-token
    # spy.sole-spy-token, spy.one-token-max (rulings 10, 11): exactly one player
    # still in the round with a Spy in their own discard pile gains one token.
    spies = [seat for seat in alive if "Spy" in state.discards[seat]]
    if len(spies) == 1:
        state.tokens[spies[0]] += 1
    # spy.not-a-round-win: only the round's winners may start the next round.
    state.round_winners = tuple(winners)
    state.protected.clear()  # ruling 7: protection ends with the round
    # game.tokens-to-win, ruling 12: checked once every token of the round is out.
    threshold = TOKENS_TO_WIN[state.players]
    won = any(tokens >= threshold for tokens in state.tokens)
    state.decision = "game-over" if won else "next-round"


def start_round(
    state: State,
    deck: Sequence[str] | None,
    first_player: int | None,
    order: Sequence[int] | None = None,
) -> State:
    """The dealer's StartRound between rounds, from a stacked deck (online
    also from the seed, and with a stacked turn ``order``)."""
    _require(state.decision == "next-round", f"no round to start ({state.decision})")
    if state.ruleset == ONLINE:
        return _online_start_round(state, deck, first_player, order)
    _require(order is None, f"{state.ruleset} plays in seat order: no order to give")
    if deck is None:
        raise OutOfReach("a StartRound without a stacked deck shuffles at random")
    if state.tied:
        return _start_tie_break_round(state, deck, first_player)
    _check_edition_cards(state.ruleset, state.players, deck)
    # round.next-first-player: the previous round's winner starts;
    # round.next-first-player-tie-random: among tied winners the command picks.
    if first_player is None:
        if len(state.round_winners) != 1:
            raise OutOfReach("tied winners and no first_player: the engine draws at random")
        [first_player] = state.round_winners
    _require(first_player in state.round_winners, f"seat {first_player} did not win the round")
    # round.new-round-setup: everyone back in, piles empty, only tokens carry over.
    return deal(state.ruleset, state.players, deck, first_player, state.tokens)


# -------------------------------------------------------------- premium play


def _premium_value(card: str) -> int:
    return PREMIUM_VALUES[card]


def _premium_play(state: State, command: PlayCard) -> None:
    me, card = state.current, command.card
    # turn.played-cards-face-up: the played card goes to its player's pile.
    state.hands[me].remove(card)
    state.discards[me].append(card)
    # sycophant.next-card-must-choose: the requirement ends with the next card
    # played, whether or not it chooses anyone (a Sycophant sets a new one below).
    state.required = None
    if not _premium_effect(state, command):
        _end_turn(state)


def _premium_effect(state: State, command: PlayCard) -> bool:
    """Apply a played card's effect; True when the turn does not simply end
    (the round or the game is over, or an optional step is pending)."""
    me, card, target, guess = state.current, command.card, command.target, command.guess
    if card == "Princess":
        # princess.eliminated-when-played-or-discarded; the card left in hand goes
        # face up (a Constable there counts for nothing, ruling 29).
        return _premium_knock_out(state, me)
    if card == "Handmaid":
        state.protected.add(me)  # handmaid.protection-until-next-turn
        return False
    if target is None:
        # Countess, Constable, Count, Assassin (constable.no-effect, count.no-effect,
        # assassin.no-effect), or a card whose choice was impossible (ruling 24).
        return False
    if card == "Guard":
        [held] = state.hands[target]
        if held == "Assassin":
            # assassin.guard-player-knocked-out, ruling 33: whatever the number;
            # then assassin.discard-and-redraw unless the round or game ended.
            return _premium_knock_out(state, me) or _discard_and_draw(state, target)
        if _premium_value(held) == guess:  # guard.name-number: by value
            return _premium_knock_out(state, target)
        return False
    if card == "Bishop":
        if _premium_value(state.hands[target][0]) != guess:
            return False  # a wrong number does nothing
        # bishop.correct-number-token: a token at once, its own award step
        # (game.immediate-win, ruling 30)...
        state.tokens[me] += 1
        if _award_step(state, {me}):
            return True
        # ...then bishop.target-may-redraw: the target decides.
        state.decision = "redraw"
        state.pending = (target,)
        return True
    if card in ("Baron", "DowagerQueen"):
        # baron.compare-lower-out / dowager-queen.compare-higher-out (printed
        # values, ruling 37); baron.tie-no-effect / dowager-queen.tie-no-effect.
        mine = _premium_value(state.hands[me][0])
        theirs = _premium_value(state.hands[target][0])
        if mine == theirs:
            return False
        lower, higher = (me, target) if mine < theirs else (target, me)
        return _premium_knock_out(state, lower if card == "Baron" else higher)
    if card == "King":
        # king.trade-hands: a swap, not a discard.
        state.hands[me], state.hands[target] = state.hands[target], state.hands[me]
        return False
    if card == "Cardinal":
        # cardinal.swap-two-players: a trade, not a discard (ruling 35)...
        second = command.second_target
        if second is None:
            raise OracleError(f"{command} names one player")
        state.hands[target], state.hands[second] = state.hands[second], state.hands[target]
        if state.ruleset == ONLINE:
            # cardinal.swap-and-look-first-online: the look is no choice.
            return False
        # ...then cardinal.optional-look: its player decides.
        state.decision = "look"
        state.pending = (target, second)
        return True
    if card == "Prince":
        return _discard_and_draw(state, target)  # prince.discard-and-draw
    if card == "Sycophant":
        state.required = target  # sycophant.next-card-must-choose
        return False
    if card == "Jester":
        state.marks = (*state.marks, (me, target))  # jester.mark-expected-winner
        return False
    # Priest, Baroness: looks only (priest.look-secretly, baroness.look-one-or-two).
    return False


def _discard_and_draw(state: State, seat: int) -> bool:
    """The Prince's, the Assassin's and the Bishop redraw's step: discard the hand
    without effect, then draw the top card, or the set-aside card once the deck
    is empty (ruling 38). True when the discard ended the round or the game."""
    [discarded] = state.hands[seat]
    state.hands[seat] = []
    state.discards[seat].append(discarded)
    if discarded == "Princess":
        # princess.knock-out-effects-apply: knocked out, no draw; the Constable
        # and the Jester still count.
        return _premium_knock_out(state, seat)
    if state.deck:
        state.hands[seat].append(state.deck.pop(0))
    else:
        # round.end-pile-online, ruling 42: online the pile's last card stands
        # for the set-aside one, so a replacement draw always finds a card.
        _require(state.ruleset != ONLINE, "online: a replacement draw on an empty pile")
        if state.set_aside is None:
            raise OracleError("the set-aside card is already gone (ruling 38)")
        state.hands[seat].append(state.set_aside)
        state.set_aside = None
    return False


def _premium_knock_out(state: State, seat: int) -> bool:
    """Knock a player out; True when that ended the round or the game."""
    if state.ruleset == ONLINE:
        return _online_knock_out(state, seat)
    # constable.knocked-out-token, ruling 29: a Constable already in the pile,
    # before the hand goes face up, gives one token.
    constable = "Constable" in state.discards[seat]
    _knock_out(state, seat)
    gained: set[int] = set()
    if constable:
        state.tokens[seat] += 1
        gained.add(seat)
    if len(state.in_round()) == 1:
        # round.end-one-player-left, ruling 39: at once, mid-effect; the
        # Constable's token joins the round-end award step (ruling 30).
        _premium_end_round(state, gained)
        return True
    # Otherwise the Constable's token is an award step of its own.
    return bool(gained) and _award_step(state, gained)


def _premium_end_round(state: State, gained: set[int]) -> None:
    """The round's end: its winners, the Jester's token, one award step."""
    alive = state.in_round()
    # round.end-one-player-left, or the showdown (ruling 28).
    winners = alive if len(alive) == 1 else _showdown(state, alive)
    for seat in winners:
        state.tokens[seat] += 1  # round.winner-token
        gained.add(seat)
    # jester.mark-expected-winner, ruling 32: the marked player won (a shared win
    # counts); the Jester's player need not be in the round.
    for jester, marked in state.marks:
        if marked in winners:
            state.tokens[jester] += 1
            gained.add(jester)
    state.round_winners = tuple(winners)
    if not _award_step(state, gained):
        state.decision = "next-round"
        _stop_round(state, ())


def _showdown(state: State, alive: Sequence[int]) -> list[int]:
    """Ruling 28 (round.tie-discard-sum, count.showdown-bonus,
    bishop.princess-beats-bishop): who nobody beats, or the Princess in a cycle."""

    def rank(seat: int) -> tuple[int, int]:
        # The hand's value plus one per Count in the player's own pile, then the
        # printed values of the pile (ruling 40: never the Count bonus).
        [held] = state.hands[seat]
        pile = state.discards[seat]
        return _premium_value(held) + pile.count("Count"), sum(map(_premium_value, pile))

    def beats(first: int, second: int) -> bool:
        held = {state.hands[first][0], state.hands[second][0]}
        if held == {"Princess", "Bishop"}:
            return state.hands[first] == ["Princess"]  # whatever the Counts
        return rank(first) > rank(second)

    winners = [seat for seat in alive if not any(beats(other, seat) for other in alive)]
    return winners or [seat for seat in alive if state.hands[seat] == ["Princess"]]


def _award_step(state: State, gained: set[int]) -> bool:
    """game.immediate-win, ruling 30, after the tokens of one award step: True
    when the game is over or tied (the round stops there)."""
    if state.contenders:
        # game.tie-break-round, ruling 31: decided by the first step in which
        # any tied player gains a token.
        deciders = sorted(seat for seat in gained if seat in state.contenders)
    else:
        threshold = tokens_to_win(state.ruleset, state.players)
        if threshold is None:  # game.no-end-online: a win counter ends nothing
            return False
        deciders = [seat for seat in range(state.players) if state.tokens[seat] >= threshold]
    if not deciders:
        return False
    if len(deciders) == 1:
        state.decision = "game-over"  # exactly one: they win, even mid-round
        _stop_round(state, ())
    else:
        state.decision = "next-round"  # several: a tie-break round among them
        _stop_round(state, tuple(deciders))
    return True


def _stop_round(state: State, tied: tuple[int, ...]) -> None:
    # Ruling 7 (protection) and the Sycophant's requirement end with the round.
    state.protected.clear()
    state.required = None
    state.pending = ()
    state.tied = tied


def _start_tie_break_round(state: State, deck: Sequence[str], first_player: int | None) -> State:
    """game.tie-break-round, ruling 31: only the tied players are dealt in."""
    tied = state.tied
    # The previous round's winner if exactly one tied player won it, else a
    # choice among the tied players who won it, or among all tied players.
    candidates = [seat for seat in state.round_winners if seat in tied] or list(tied)
    if first_player is None:
        if len(candidates) != 1:
            raise OutOfReach("a tie-break round with no first_player: the engine draws at random")
        [first_player] = candidates
    _require(first_player in candidates, f"seat {first_player} may not start the tie-break round")
    return deal(state.ruleset, state.players, deck, first_player, state.tokens, tied)


# ------------------------------------------------------------------ online


def _online_deal(state: State, deck: Sequence[str], order: tuple[int, ...]) -> State:
    """setup.no-set-aside-online, setup.turn-order-online, setup.deal-one-each:
    a new round after ``state`` (or the first), dealt from ``deck`` (top
    first) in ``order``, which must be the players present. No card is set
    aside and none is laid face up; only the win counters, the seats that
    left and the table carry over."""
    players = state.players
    present = state.present()
    _require(
        all(_is_seat(seat) for seat in order) and sorted(order) == present,
        f"the order {list(order)} is not the players present, {present}",
    )
    _check_edition_cards(ONLINE, players, deck, state.decks)
    pile = list(deck)
    hands: list[list[str]] = [[] for _ in range(players)]
    for seat in order:
        hands[seat].append(pile.pop(0))
    first = order[0]
    hands[first].append(pile.pop(0))  # turn.draw-then-play
    return State(
        ruleset=ONLINE,
        players=players,
        deck=pile,
        set_aside=None,
        face_up=(),
        hands=hands,
        discards=[[] for _ in range(players)],
        out=set(range(players)) - set(order),  # those who left sit out
        protected=set(),
        current=first,
        decision="play",
        tokens=list(state.tokens),
        order=order,
        left=state.left,
        decks=state.decks,
        random_moves=state.random_moves,
        seed=state.seed,
        round_number=state.round_number + 1,
        turn_number=1,
    )


def _online_position(
    players: int, position: Mapping[str, Any], decks: int, random_moves: bool
) -> State:
    """An online round in progress (from_position's online part)."""
    drawn = bool(position["drawn"])
    if position.get("pending"):
        raise OutOfReach("a position with a pending optional step (redraw)")
    _require(not position.get("contenders"), "online has no tie-break round (ruling 44)")
    state = State(
        ruleset=ONLINE,
        players=players,
        deck=list(position["deck"]),
        set_aside=position.get("set_aside"),
        face_up=tuple(position.get("face_up", ())),
        hands=[list(hand) for hand in position["hands"]],
        discards=[list(pile) for pile in position["discards"]],
        out=set(position.get("out", ())),
        protected=set(position.get("protected", ())),
        current=position["current"],
        decision="play" if drawn else "draw",
        tokens=list(position.get("tokens", [0] * players)),
        required=position.get("required"),
        marks=tuple((jester, marked) for jester, marked in position.get("marks") or ()),
        order=tuple(position.get("order", ())),
        exits=tuple(position.get("exits", ())),
        left=frozenset(position.get("left", ())),
        decks=decks,
        random_moves=random_moves,
        seed=int(position.get("seed", 0)),
        round_number=position.get("round_number", 1),
        turn_number=position.get("turn_number", 1),
    )
    # setup.no-set-aside-online: nothing set aside or face up, every card once.
    _require(state.set_aside is None and not state.face_up, "online sets no card aside")
    _require(len(state.hands) == players == len(state.discards), "one hand and pile per seat")
    _require(len(state.tokens) == players, "one win counter per seat")
    _check_edition_cards(
        ONLINE, players, [*state.deck, *itertools.chain(*state.hands, *state.discards)], decks
    )
    in_round = state.in_round()
    _require(state.current in in_round, "the current player is out")
    _require(state.current not in state.protected, "the current player is protected")
    _require(not state.protected & state.out, "an out player is protected")
    _require(len(in_round) >= 2, "fewer than two players in the round")
    for seat, hand in enumerate(state.hands):
        want = 0 if seat in state.out else 2 if seat == state.current and drawn else 1
        _require(len(hand) == want, f"seat {seat} holds {hand}, expected {want} card(s)")
    # round.end-pile-online: a turn starts with two cards in the pile or more.
    _require(len(state.deck) >= (1 if drawn else 2), "too few cards in the pile for a turn")
    # online.leave-any-time: who left is out of the round; the exits went
    # out, each once; the order, when given, holds everyone dealt in.
    _require(state.left <= state.out, f"seats {sorted(state.left)} left but are in the round")
    _require(len(set(state.exits)) == len(state.exits), f"exits {state.exits} repeat a seat")
    _require(set(state.exits) <= state.out, f"exits {state.exits} still in the round")
    if state.order:
        _require(len(set(state.order)) == len(state.order), f"order {state.order} repeats")
        _require(set(in_round) <= set(state.order), f"order {state.order} leaves players out")
    _check_premium_position(state, set())
    return state


def _next_in_order(state: State) -> int:
    """turn.order, out.turn-skipped, setup.turn-order-online: the next
    player still in the round after the current one, in the round's drawn
    order (seat order when a position gives none)."""
    order = state.order or tuple(range(state.players))
    index = order.index(state.current)
    for step in range(1, len(order) + 1):
        seat = order[(index + step) % len(order)]
        if seat not in state.out:
            return seat
    raise OracleError("nobody is left in the round")


def _online_end_turn(state: State) -> None:
    """round.end-pile-online (ruling 42): the round ends after a turn that
    leaves one card or none in the pile; otherwise the next player starts."""
    if len(state.deck) <= 1:
        _online_end_round(state)
        return
    seat = _next_in_order(state)
    state.current = seat
    state.protected.discard(seat)  # handmaid.protection-until-next-turn
    state.hands[seat].append(state.deck.pop(0))  # turn.draw-then-play
    state.turn_number += 1
    state.decision = "play"


def _online_knock_out(state: State, seat: int, leaving: bool = False) -> bool:
    """A player goes out, their hand face up without effect; True when that
    ended the round. constable.partial-win-online: a Constable already in
    the pile adds one to the win counter, never for a leaver."""
    constable = "Constable" in state.discards[seat] and not leaving
    _knock_out(state, seat)
    state.exits = (*state.exits, seat)  # round.ranks-online: the order they went out
    if constable:
        state.tokens[seat] += 1
    if len(state.in_round()) == 1:
        _online_end_round(state)  # round.end-one-player-left: at once
        return True
    return False


def online_ranks(state: State) -> tuple[int | None, ...]:
    """round.ranks-online, round.hand-bonus-online (rulings 44, 45): the
    players still in by adjusted hand value (the printed value, one per
    Count in their own pile, and 4 for the Princess beside a Bishop, or for
    a 7 with two Counts beside the Princess and a Bishop whose pile is
    lower), then pile total, sharing a rank when still tied (1, 1, 3); one
    player left ranks first; those who went out below, the last one out
    highest, each at the number of players in the round just before."""
    alive = state.in_round()
    ranks: list[int | None] = [None] * state.players
    if len(alive) == 1:
        ranks[alive[0]] = 1
    else:
        held = {seat: state.hands[seat][0] for seat in alive}
        total = {seat: sum(map(_premium_value, state.discards[seat])) for seat in alive}

        def key(seat: int) -> tuple[int, int]:
            counts = state.discards[seat].count("Count")
            others = [held[other] for other in alive if other != seat]
            lifted = held[seat] == "Princess" and "Bishop" in others
            if held[seat] in ("Countess", "DowagerQueen") and counts >= 2 and "Princess" in others:
                lifted = any(
                    held[other] == "Bishop" and total[other] < total[seat]
                    for other in alive
                    if other != seat
                )
            return _premium_value(held[seat]) + counts + 4 * lifted, total[seat]

        keys = {seat: key(seat) for seat in alive}
        for seat in alive:
            ranks[seat] = 1 + sum(keys[other] > keys[seat] for other in alive)
    dealt = len(alive) + len(state.exits)
    for index, seat in enumerate(state.exits):
        ranks[seat] = dealt - index
    return tuple(ranks)


def _online_end_round(state: State) -> None:
    """The round's ranks and win counters (game.win-counter-online: one per
    rank-1 player; jester.partial-win-online: one per used Jester whose
    marked player ranks first, its player still present); the match
    closes once fewer than two are present (game.no-end-online)."""
    ranks = online_ranks(state)
    state.ranks = ranks
    state.round_winners = tuple(seat for seat, rank in enumerate(ranks) if rank == 1)
    for seat in state.round_winners:
        state.tokens[seat] += 1
    for jester, marked in state.marks:
        if ranks[marked] == 1 and jester not in state.left:
            state.tokens[jester] += 1
    _stop_round(state, ())
    state.decision = "next-round" if len(state.present()) >= 2 else "game-over"


def leave(state: State, player: int) -> State:
    """online.leave-any-time (ruling 50): the player leaves the match, out
    of the round with their hand discarded without effect; their turn (or
    their answer to a Bishop) ends if they had to act; a requirement of
    theirs, or on their turn, lapses; between rounds the match closes once
    fewer than two are present."""
    _require(state.ruleset == ONLINE, f"{state.ruleset} has no Leave")
    _require(state.decision != "game-over", "the game is over")
    _require(0 <= player < state.players, f"there is no player {player}")
    _require(player not in state.left, f"player {player} has already left")
    state = state.copy()
    state.left = state.left | {player}
    if state.decision == "next-round":
        if len(state.present()) < 2:
            state.decision = "game-over"
        return state
    acting = player in (state.to_act(), state.current)
    if state.required == player or state.current == player:
        state.required = None
    if player not in state.out and _online_knock_out(state, player, leaving=True):
        return state
    if acting:
        state.pending = ()
        _online_end_turn(state)
    return state


def order_key(command: Command) -> tuple[Any, ...]:
    """The engine's listing order (``legal_commands``): by card in card
    order, then target (none first), second target (none first), then the
    number named; a redraw before its decline."""
    if isinstance(command, PlayCard):
        return (
            CARD_ORDER.index(command.card),
            -1 if command.target is None else command.target,
            -1 if command.second_target is None else command.second_target,
            -1 if command.guess is None else command.guess,
        )
    return (isinstance(command, Decline),)


def timeout_move(state: State) -> Command:
    """online.timeout-random-move (ruling 51): ``n`` from the seeded chance
    for ``timeout/<turn>/<decision>``; at a play the ``n mod k``-th of the
    ``k`` distinct playable cards (card order), then the ``(n div k) mod
    m``-th of its ``m`` commands in listing order; otherwise the ``n mod
    m``-th command."""
    number = chance(state.seed, state.round_number, f"timeout/{state.turn_number}/{state.decision}")
    moves = sorted(legal_commands(state), key=order_key)
    if state.decision == "play":
        cards = sorted({m.card for m in moves if isinstance(m, PlayCard)}, key=CARD_ORDER.index)
        card = cards[number % len(cards)]
        moves = [m for m in moves if isinstance(m, PlayCard) and m.card == card]
        return moves[(number // len(cards)) % len(moves)]
    return moves[number % len(moves)]


def time_out(state: State, player: int) -> State:
    """A host's TimeOut: the player to act is given the seeded move."""
    _require(state.ruleset == ONLINE, f"{state.ruleset} has no TimeOut")
    _require(state.decision not in ("next-round", "game-over"), "nobody must act now")
    _require(player == state.to_act(), f"player {player} need not act now")
    _require(state.random_moves, "this table makes no random moves")
    return apply(state, timeout_move(state))


def _online_start_round(
    state: State,
    deck: Sequence[str] | None,
    first_player: int | None,
    order: Sequence[int] | None,
) -> State:
    """setup.turn-order-online (ruling 43): the players present, shuffled
    from the seed, one of the last round's rank-1 players still present
    swapped into first place (several: the seed chooses, or the dealer;
    none: no swap), unless the dealer stacks the order; the deck shuffled
    from the seed unless stacked."""
    present = state.present()
    round_number = state.round_number + 1
    candidates = [seat for seat in state.round_winners if seat in present]
    unsettled = not candidates
    if unsettled:
        candidates = present
    if first_player is not None:
        _require(first_player in candidates, f"seat {first_player} may not start the round")
    if order is not None:
        _require(
            isinstance(order, list | tuple) and all(_is_seat(seat) for seat in order),
            f"the order {order!r} is not a list of seats",
        )
        _require(sorted(order) == present, f"the order {list(order)} is not {present}")
        _require(order[0] in candidates, f"seat {order[0]} may not start the round")
        _require(first_player in (None, order[0]), f"the order starts with {order[0]}")
        drawn = tuple(order)
    else:
        first = first_player
        if first is None and not unsettled:
            first = (
                candidates[0]
                if len(candidates) == 1
                else candidates[chance(state.seed, round_number, "first-player") % len(candidates)]
            )
        drawn = first_swapped(shuffle(present, state.seed, round_number, "order"), first)
    if deck is None:
        canonical = canonical_deck(ONLINE, state.players, state.decks)
        deck = shuffle(canonical, state.seed, round_number, "deck")
    return _online_deal(state, deck, drawn)


# --------------------------------------------------------------------- perft


def perft(state: State, depth: int) -> list[int]:
    """How many distinct legal command sequences of each length 1..depth there are."""
    counts = [0] * depth

    def walk(node: State, level: int) -> None:
        commands = legal_commands(node)
        counts[level] += len(commands)
        if level + 1 < depth:
            for command in commands:
                walk(apply(node, command), level + 1)

    if depth > 0:
        walk(state, 0)
    return counts


# ------------------------------------------------------------ reading cases


def _is_seat(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_command(data: object) -> Command | None:
    """A case's PlayCard, KeepCard, DrawCard, LookAtHand, Redraw or Decline (an
    absent ``target``, ``guess`` or ``second_target`` is null), or online a
    host's Leave or TimeOut; None for anything else (StartRound, malformed
    commands). A guess is a card name (2019) or an integer (Premium); which
    one a ruleset takes is for legality to say."""
    if not isinstance(data, Mapping):
        return None
    kind, player = data.get("type"), data.get("player")
    if not isinstance(player, int) or isinstance(player, bool):
        return None
    if kind == "DrawCard":
        return DrawCard(player)
    if kind in ("Redraw", "Decline"):
        return Redraw(player) if kind == "Redraw" else Decline(player)
    if kind in ("Leave", "TimeOut"):
        return Leave(player) if kind == "Leave" else TimeOut(player)
    if kind == "LookAtHand":
        owner = data.get("owner")
        return LookAtHand(player, owner) if _is_seat(owner) else None
    if kind == "PlayCard":
        card, target, guess = data.get("card"), data.get("target"), data.get("guess")
        second = data.get("second_target")
        if not isinstance(card, str) or not (target is None or _is_seat(target)):
            return None
        if not (second is None or _is_seat(second)):
            return None
        if not (guess is None or isinstance(guess, str) or _is_seat(guess)):
            return None
        return PlayCard(player, card, target, guess, second)
    if kind == "KeepCard":
        keep, bottom = data.get("keep"), data.get("bottom")
        if not isinstance(keep, str) or not isinstance(bottom, list):
            return None
        if not all(isinstance(card, str) for card in bottom):
            return None
        return KeepCard(player, keep, tuple(bottom))
    return None


class Checkpoint(NamedTuple):
    step: int  # index of the checks step in the case's steps
    checks: Mapping[str, Any]
    state: State


def replay(case: Mapping[str, Any]) -> Iterator[Checkpoint]:
    """Play a case's command steps and yield the state at each checks step.

    Accepted commands must be legal for the oracle, and the commands a case
    expects to be rejected must not be; a rejected command changes nothing.
    """
    if case.get("start_rejected"):
        raise OutOfReach("start_rejected: the start itself is refused, there is nothing to play")
    state = from_start(case)
    for index, step in enumerate(case["steps"]):
        if "checks" in step:
            yield Checkpoint(index, step["checks"], state)
            continue
        data = step["command"]
        rejected = "rejected" in step
        if isinstance(data, Mapping) and data.get("type") == "StartRound":
            state = _replay_start_round(state, data, index, rejected)
            continue
        command = parse_command(data)
        if isinstance(command, Leave | TimeOut):
            # the host's commands are never listed: the oracle judges them
            try:
                after = apply(state, command)
            except OracleError:
                _require(rejected, f"steps[{index}]: {data} accepted in the case, refused here")
                continue
            _require(not rejected, f"steps[{index}]: {data} rejected in the case, valid here")
            state = after
            continue
        legal = command is not None and command in legal_commands(state)
        if rejected:
            _require(
                not legal, f"steps[{index}]: {data} rejected in the case, legal for the oracle"
            )
        elif command is None or not legal:
            raise OracleError(
                f"steps[{index}]: {data} accepted in the case, illegal for the oracle"
            )
        else:
            state = apply(state, command)


def _replay_start_round(state: State, data: Mapping[str, Any], index: int, rejected: bool) -> State:
    try:
        started = start_round(state, data.get("deck"), data.get("first_player"), data.get("order"))
    except OracleError:
        if rejected:
            return state
        raise
    except OutOfReach:
        if rejected:
            return state  # cannot tell, and a rejection changes nothing anyway
        raise
    _require(not rejected, f"steps[{index}]: StartRound rejected in the case, valid for the oracle")
    return started


def main(paths: Sequence[str]) -> int:
    """Print the oracle's perft and counts next to each case's."""
    good = True
    for path in paths:
        with open(path, encoding="utf-8") as file:
            case = yaml.safe_load(file)
        for step, checks, state in replay(case):
            if "perft" in checks:
                got = perft(state, len(checks["perft"]))
                good &= got == checks["perft"]
                print(f"{path} steps[{step}]: perft case {checks['perft']} oracle {got}")
            if "legal_command_count" in checks:
                want, count = checks["legal_command_count"], len(legal_commands(state))
                good &= count == want
                print(f"{path} steps[{step}]: count case {want} oracle {count}")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
