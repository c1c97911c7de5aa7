"""Strategies and invariant checks shared by the whole-game properties.

The oracles below are written from the spec (``spec/editions.yaml``,
``spec/rules/*.yaml``, ``spec/rulings.yaml``, ``docs/premium-design.md``,
``docs/online-design.md``), not read from the engine's own tables: deck
compositions per player count (and, online, per number of decks), card
values, whom each card chooses, what a Guard or a Bishop may name, token
thresholds, the showdown order, online ranks with 004's hand bonus, the
award steps and partial wins, the online turn order and the time-out's
seeded move (both drawn again here from ``loveletter/chance.py``'s
documented numbers), leaving, what each card's effect does and who sees
what are restated here, so a wrong table in the engine shows up as a failed
property instead of being copied into the test.

Only the public API is used (``loveletter``, ``loveletter.commands``,
``loveletter.events``).
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from enum import Enum
from functools import cache, reduce
from hashlib import blake2b
from itertools import combinations, permutations
from math import factorial
from typing import Any, Protocol, TypeVar, cast

import attrs
from hypothesis import settings
from hypothesis import strategies as st

import loveletter as ll
from loveletter import Card, Decision, GameState, PlayerView, RejectionKind, Sighting
from loveletter.commands import (
    Command,
    Decline,
    DrawCard,
    KeepCard,
    Leave,
    LookAtHand,
    PlayCard,
    Redraw,
    StartRound,
    TimeOut,
)
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
from loveletter.evolution import apply_events, initial_state

import budget

R = RejectionKind
T = TypeVar("T")

# --------------------------------------------------------------------------
# facts from the spec

PREMIUM = "premium"
#: the editions scored with favor tokens, which a game ends with
RULESET_NAMES = ("2019", "2019-classic", PREMIUM)
#: the perpetual edition (004): ranks and win counters, no game end
ONLINE = "online"
ALL_RULESET_NAMES = (*RULESET_NAMES, ONLINE)
#: setup.decks-online (ruling 41): copies of the deck a table may play
ONLINE_DECKS = (1, 2, 3)

_DECK_2019 = Counter(
    {
        Card.SPY: 2,
        Card.GUARD: 6,
        Card.PRIEST: 2,
        Card.BARON: 2,
        Card.HANDMAID: 2,
        Card.PRINCE: 2,
        Card.CHANCELLOR: 2,
        Card.KING: 1,
        Card.COUNTESS: 1,
        Card.PRINCESS: 1,
    }
)
_DECK_CLASSIC = Counter(
    {
        Card.GUARD: 5,
        Card.PRIEST: 2,
        Card.BARON: 2,
        Card.HANDMAID: 2,
        Card.PRINCE: 2,
        Card.KING: 1,
        Card.COUNTESS: 1,
        Card.PRINCESS: 1,
    }
)
#: setup.deck-premium (ruling 20): 2 to 4 players, the 16 cards of 001's setup
_DECK_PREMIUM_SMALL = Counter(
    {
        Card.GUARD: 5,
        Card.PRIEST: 2,
        Card.BARON: 2,
        Card.HANDMAID: 2,
        Card.PRINCE: 2,
        Card.KING: 1,
        Card.COUNTESS: 1,
        Card.PRINCESS: 1,
    }
)
#: setup.deck-premium (ruling 20): 5 to 8 players, all 32 cards
_DECK_PREMIUM_FULL = _DECK_PREMIUM_SMALL + Counter(
    {
        Card.GUARD: 3,
        Card.BISHOP: 1,
        Card.DOWAGER_QUEEN: 1,
        Card.CONSTABLE: 1,
        Card.COUNT: 2,
        Card.SYCOPHANT: 2,
        Card.BARONESS: 2,
        Card.CARDINAL: 2,
        Card.JESTER: 1,
        Card.ASSASSIN: 1,
    }
)
assert _DECK_PREMIUM_SMALL.total() == 16 and _DECK_PREMIUM_FULL.total() == 32

#: setup.player-count, setup.player-count-premium
PLAYER_COUNTS: dict[str, tuple[int, ...]] = {
    "2019": (2, 3, 4, 5, 6),
    "2019-classic": (2, 3, 4),
    PREMIUM: (2, 3, 4, 5, 6, 7, 8),
    # setup.player-count-online (ruling 41): no two-player table
    ONLINE: (3, 4, 5, 6, 7, 8),
}
#: game.tokens-to-win (both 2019 editions), game.tokens-to-win-premium
TOKENS_TO_WIN: dict[str, dict[int, int]] = {
    "2019": {2: 6, 3: 5, 4: 4, 5: 3, 6: 3},
    "2019-classic": {2: 6, 3: 5, 4: 4},
    PREMIUM: {2: 7, 3: 5, 4: 4, 5: 4, 6: 4, 7: 4, 8: 4},
}
#: setup.card-values (both 2019 editions)
_VALUES_2019: dict[Card, int] = {
    Card.SPY: 0,
    Card.GUARD: 1,
    Card.PRIEST: 2,
    Card.BARON: 3,
    Card.HANDMAID: 4,
    Card.PRINCE: 5,
    Card.CHANCELLOR: 6,
    Card.KING: 7,
    Card.COUNTESS: 8,
    Card.PRINCESS: 9,
}
#: setup.card-values-premium
_VALUES_PREMIUM: dict[Card, int] = {
    Card.JESTER: 0,
    Card.ASSASSIN: 0,
    Card.GUARD: 1,
    Card.PRIEST: 2,
    Card.CARDINAL: 2,
    Card.BARON: 3,
    Card.BARONESS: 3,
    Card.HANDMAID: 4,
    Card.SYCOPHANT: 4,
    Card.PRINCE: 5,
    Card.COUNT: 5,
    Card.KING: 6,
    Card.CONSTABLE: 6,
    Card.COUNTESS: 7,
    Card.DOWAGER_QUEEN: 7,
    Card.PRINCESS: 8,
    Card.BISHOP: 9,
}
VALUES: dict[str, dict[Card, int]] = {
    "2019": _VALUES_2019,
    "2019-classic": _VALUES_2019,
    PREMIUM: _VALUES_PREMIUM,
    # setup.card-values-premium: online keeps Premium's numbers
    ONLINE: _VALUES_PREMIUM,
}


class Chooses(Enum):
    """Whom a card makes its player choose (docs/premium-design.md,
    "Whom each card chooses")."""

    NO_ONE = "no one"
    OTHER = "one other player"
    ANY = "one player, oneself included"
    PAIR = "exactly two distinct players, oneself included"
    ONE_OR_TWO_OTHERS = "one or two distinct other players"
    #: online Baroness (ruling 48): two other players, the same one twice
    #: allowed, written lower seat first
    TWO_OTHERS = "two other players, maybe the same one, lower seat first"
    #: online Cardinal (ruling 48): two different players in either order,
    #: its own player allowed
    ORDERED_PAIR = "two different players in order, oneself included"


#: targeting.other-player, prince.any-player, sycophant.next-card-must-choose,
#: cardinal.swap-two-players, baroness.look-one-or-two, jester.*, bishop.*,
#: dowager-queen.*; every other kind chooses no one
CHOOSES: dict[Card, Chooses] = {
    Card.GUARD: Chooses.OTHER,
    Card.PRIEST: Chooses.OTHER,
    Card.BARON: Chooses.OTHER,
    Card.KING: Chooses.OTHER,
    Card.DOWAGER_QUEEN: Chooses.OTHER,
    Card.JESTER: Chooses.OTHER,
    Card.BISHOP: Chooses.OTHER,
    Card.PRINCE: Chooses.ANY,
    Card.SYCOPHANT: Chooses.ANY,
    Card.CARDINAL: Chooses.PAIR,
    Card.BARONESS: Chooses.ONE_OR_TWO_OTHERS,
}
#: targeting.valid-choice-online, baroness.two-looks-online,
#: cardinal.swap-and-look-first-online: the two cards whose choice differs
ONLINE_CHOOSES: dict[Card, Chooses] = {
    **CHOOSES,
    Card.BARONESS: Chooses.TWO_OTHERS,
    Card.CARDINAL: Chooses.ORDERED_PAIR,
}
#: the kinds of choice made of two players
TWO_PLAYERS = frozenset(
    {Chooses.PAIR, Chooses.ONE_OR_TWO_OTHERS, Chooses.TWO_OTHERS, Chooses.ORDERED_PAIR}
)
#: the kinds of choice that may include the card's own player
SELF_ALLOWED = frozenset({Chooses.ANY, Chooses.PAIR, Chooses.ORDERED_PAIR})


def choice_of(state_or_ruleset: GameState | str, card: Card) -> Chooses:
    """Whom ``card`` makes its player choose in this edition."""
    name = state_or_ruleset if isinstance(state_or_ruleset, str) else state_or_ruleset.ruleset.name
    table = ONLINE_CHOOSES if name == ONLINE else CHOOSES
    return table.get(card, Chooses.NO_ONE)


#: countess.forced-by-king-or-prince; ruling 26: by name in Premium too
COUNTESS_FORCERS = frozenset({Card.KING, Card.PRINCE})
#: setup.two-player-face-up (every edition, tie-break rounds included)
FACE_UP_COUNT = {2: 3}

#: what a PlayerView holds (ruling 14); a new field must be reviewed for leaks
VIEW_FIELDS = frozenset(
    {
        "player",
        "ruleset",
        "players",
        "round_number",
        "turn_number",
        "tokens",
        "decision",
        "current",
        "hand",
        "hand_sizes",
        "deck_size",
        "set_aside_present",
        "face_up",
        "discards",
        "out",
        "protected",
        "sightings",
        "round_result",
        "winners",
        "legal_commands",
        "deck_bottom",
        "required",
        "marks",
        "contenders",
        "pending",
        # online, public (ruling 53): the table's settings, the round's turn
        # order, who went out in which order, who left the match
        "settings",
        "order",
        "exits",
        "left",
    }
)

#: the decisions each command answers
ANSWERS: dict[type[Command], frozenset[Decision]] = {
    PlayCard: frozenset({Decision.PLAY}),
    KeepCard: frozenset({Decision.CHANCELLOR}),
    DrawCard: frozenset({Decision.DRAW}),
    StartRound: frozenset({Decision.NEXT_ROUND}),
    LookAtHand: frozenset({Decision.LOOK}),
    Redraw: frozenset({Decision.REDRAW}),
    Decline: frozenset({Decision.LOOK, Decision.REDRAW}),
}
_IN_PLAY = frozenset(
    {Decision.DRAW, Decision.PLAY, Decision.CHANCELLOR, Decision.LOOK, Decision.REDRAW}
)

#: a whole game must end long before this many commands (hang guard)
MAX_STEPS = 5000


def fold(events: Sequence[ll.Event]) -> GameState:
    """``evolve`` folded over a log, without ``replay``'s check that the
    rules produce it (cheap enough for every step of a random game)."""
    first = events[0]
    if isinstance(first, ll.GameStarted):
        return apply_events(initial_state(first), events[1:])
    assert isinstance(first, ll.PositionEstablished) and first.position is not None
    return apply_events(ll.from_position(first.position), events[1:])


def full_deck(ruleset: str, players: int, decks: int = 1) -> Counter[Card]:
    """setup.deck-*: the cards of a round of ``players``; online
    (setup.deck-online, setup.decks-online) ``decks`` copies of Premium's
    deck for that count."""
    if ruleset == "2019":
        return _DECK_2019
    if ruleset == "2019-classic":
        return _DECK_CLASSIC
    deck = _DECK_PREMIUM_SMALL if players <= 4 else _DECK_PREMIUM_FULL
    if ruleset == ONLINE:
        return Counter({card: count * decks for card, count in deck.items()})
    assert decks == 1, f"{ruleset} plays one deck"
    return deck


def state_deck(state: GameState) -> Counter[Card]:
    """The cards of ``state``'s game, as its table plays them."""
    return full_deck(state.ruleset.name, state.players, decks_of(state))


def decks_of(state: GameState) -> int:
    """Copies of the deck the table plays (the settings recorded online)."""
    settings = state.table.settings
    return 1 if settings is None else settings.decks


def is_online(state: GameState) -> bool:
    return state.ruleset.name == ONLINE


@cache
def edition_kinds(ruleset: str) -> frozenset[Card]:
    """Every kind the edition uses at some player count (a card of another
    edition is a malformed command)."""
    return frozenset().union(*(full_deck(ruleset, n) for n in PLAYER_COUNTS[ruleset]))


def names_numbers(ruleset: str) -> bool:
    """Premium and online name numbers (JSON integers); 2019 names cards."""
    return ruleset in (PREMIUM, ONLINE)


@cache
def namable(ruleset: str, players: int, card: Card) -> tuple[Card | int, ...]:
    """What ``card`` may name, in increasing order (ruling 5, guard.name-non-guard;
    ruling 23, guard.name-number; ruling 27, bishop.name-number-and-player):
    what the deck in use holds; the Guard never its own kind or number."""
    present = full_deck(ruleset, players)
    if names_numbers(ruleset):
        numbers = sorted({VALUES[ruleset][k] for k in present})
        if card is Card.GUARD:
            return tuple(n for n in numbers if n != 1)
        if card is Card.BISHOP:
            return tuple(numbers)
        return ()
    if card is Card.GUARD:
        return tuple(sorted(k for k in present if k is not Card.GUARD))
    return ()


def is_name(ruleset: str, guess: object) -> bool:
    """A name of the right type for the edition (a bool or a card is not a number)."""
    return type(guess) is (int if names_numbers(ruleset) else Card)


def tokens_to_win(state: GameState) -> int:
    return TOKENS_TO_WIN[state.ruleset.name][state.players]


# --------------------------------------------------------------------------
# seeded chance, drawn again from loveletter/chance.py's documented numbers


def chance_number(seed: int, round_number: int, purpose: str) -> int:
    """The BLAKE2b-512 digest of ``"loveletter/<seed>/<round>/<purpose>"``,
    read as a big-endian integer."""
    text = f"loveletter/{seed}/{round_number}/{purpose}".encode()
    return int.from_bytes(blake2b(text, digest_size=64).digest(), "big")


def seeded_shuffle(items: Sequence[T], seed: int, round_number: int, purpose: str) -> tuple[T, ...]:
    """The documented shuffle: the top ``64 + bit_length(n!)`` bits (at most
    512) of the number, read as a Lehmer code over ``items``."""
    pool = list(items)
    bits = min(512, 64 + factorial(len(pool)).bit_length())
    number = chance_number(seed, round_number, purpose) >> (512 - bits)
    picked: list[T] = []
    for size in range(len(pool), 0, -1):
        number, index = divmod(number, size)
        picked.append(pool.pop(index))
    return tuple(picked)


def seeded_choice(options: Sequence[T], seed: int, round_number: int, purpose: str) -> T:
    """One of ``options``: the whole number modulo their count."""
    return options[chance_number(seed, round_number, purpose) % len(options)]


def scaled_examples(share: float) -> int:
    """``share`` times the active profile's ``max_examples`` times the budget
    tier's share (at least 1), so per-test budgets follow the profile and
    ``LOVELETTER_BUDGET`` (``tests/budget.py``: a quarter in make test)."""
    profile = settings.default
    assert profile is not None
    return max(1, round(profile.max_examples * share * budget.SHARE))


# --------------------------------------------------------------------------
# strategies


@attrs.frozen
class GameSetup:
    """A game to play: from its first deal, or (``tokens``) from the same
    deal described as a position where the players already hold tokens."""

    ruleset: str
    players: int
    seed: int
    #: online may leave it out: the drawn order then stands (ruling 43)
    first_player: int | None
    #: tokens at the start: an endgame, where immediate wins, ties for the
    #: game and tie-break rounds come quickly
    tokens: tuple[int, ...] | None = None
    #: Premium: start in a tie-break round between these players (ruling 31);
    #: the others' dealt cards go under the deck
    contenders: tuple[int, ...] = ()
    #: online: the table's settings (decks, random moves, times)
    settings: ll.TableSettings | None = None
    #: online: the rounds dealt before everyone leaves (game.no-end-online:
    #: a match only closes when fewer than two players are left at the table)
    rounds: int = 0

    def opening(self) -> tuple[Event, ...]:
        events = ll.start_game(
            self.ruleset,
            self.players,
            seed=self.seed,
            first_player=self.first_player,
            settings=self.settings,
        )
        if self.tokens is None:
            return events
        dealt = ll.to_position(ll.replay(events))
        if self.contenders:
            assert self.first_player in self.contenders
            sitting = [p for p in range(self.players) if p not in self.contenders]
            dealt = attrs.evolve(
                dealt,
                deck=(*dealt.deck, *(dealt.hands[p][0] for p in sitting)),
                hands=tuple(() if p in sitting else h for p, h in enumerate(dealt.hands)),
                out=tuple(sitting),
                contenders=self.contenders,
            )
        # each round that ended gave a token: the endgame is some rounds in
        rounds = 1 + max(self.tokens)
        return (PositionEstablished(attrs.evolve(dealt, tokens=self.tokens, round_number=rounds)),)


@st.composite
def game_setups(
    draw: st.DrawFn, ruleset: str | None = None, players: int | None = None
) -> GameSetup:
    """A ruleset (unless given), a supported player count (unless given), a
    seed, a first seat. One game in four is an endgame: every player one or
    two tokens short of the goal (mostly one); in Premium, half of those
    start with a tie-break round instead (the first player and some others
    tied at the goal or one past it)."""
    name = ruleset if ruleset is not None else draw(st.sampled_from(RULESET_NAMES))
    if name == ONLINE:
        return draw(online_setups(players))
    count = players if players is not None else draw(st.sampled_from(PLAYER_COUNTS[name]))
    assert count in PLAYER_COUNTS[name]
    seed = draw(st.integers(min_value=0, max_value=2**32))
    first = draw(st.integers(min_value=0, max_value=count - 1))
    kind = draw(st.integers(min_value=0, max_value=7))
    goal = TOKENS_TO_WIN[name][count]
    if kind == 6 or (kind == 7 and name != PREMIUM):
        short = st.integers(min_value=0, max_value=3).map(lambda k: 2 if k == 3 else 1)
        tokens = tuple(goal - draw(short) for _ in range(count))
        return GameSetup(name, count, seed, first, tokens)
    if kind == 7:
        others = [p for p in range(count) if p != first]
        tied = draw(st.lists(st.sampled_from(others), min_size=1, unique=True))
        contenders = tuple(sorted((first, *tied)))
        tokens = tuple(
            goal + draw(st.integers(0, 1)) if p in contenders else draw(st.integers(0, goal - 1))
            for p in range(count)
        )
        return GameSetup(name, count, seed, first, tokens, contenders)
    return GameSetup(name, count, seed, first)


#: the most cards an online game deals over its rounds, to bound its length
_ONLINE_CARDS_PER_GAME = 64


@st.composite
def online_setups(
    draw: st.DrawFn, players: int | None = None, decks: int | None = None
) -> GameSetup:
    """An online table (rulings 41, 52): a player count, a seed, a named
    first player or none, 1 to 3 decks, random moves on (seven times in
    eight) or off, times at the ends or the middle of their ranges, and the
    rounds to deal (fewer the bigger the deck) before everyone leaves."""
    count = players if players is not None else draw(st.sampled_from(PLAYER_COUNTS[ONLINE]))
    seed = draw(st.integers(min_value=0, max_value=2**32))
    first = draw(st.none() | st.integers(min_value=0, max_value=count - 1))
    copies = decks if decks is not None else draw(st.sampled_from(ONLINE_DECKS))
    random_moves = draw(st.integers(min_value=0, max_value=7)) != 7
    settings = ll.TableSettings(
        decks=copies,
        turn_time_ms=draw(st.sampled_from((20_000, 5_000, 60_000))),
        random_moves=random_moves,
        intermission_ms=draw(st.sampled_from((30_000, 0, 12_345))),
    )
    size = full_deck(ONLINE, count, copies).total()
    most = max(1, min(4, _ONLINE_CARDS_PER_GAME // size))
    rounds = draw(st.integers(min_value=1, max_value=most))
    return GameSetup(ONLINE, count, seed, first, settings=settings, rounds=rounds)


class Choices(Protocol):
    """Where the random choices of a game come from."""

    def integer(self, low: int, high: int) -> int:
        """A number from ``low`` to ``high`` inclusive; the low end is the
        simplest (Hypothesis shrinks towards it)."""
        ...


class DrawnChoices:
    """One Hypothesis draw per choice: the best shrinking, and a failing
    example prints each command. Costs a fraction of a millisecond a draw."""

    def __init__(self, draw: Callable[[st.SearchStrategy[int]], int]) -> None:
        self._draw = draw

    def integer(self, low: int, high: int) -> int:
        # st.integers with the same bounds is cached by Hypothesis, so no
        # strategy is built per step
        return self._draw(st.integers(min_value=low, max_value=high))


class ByteChoices:
    """Choices read from one byte string drawn for the whole game (zeros past
    its end). Hypothesis still shrinks it, byte by byte towards zero (the
    first legal command), at a tiny fraction of the cost of a draw per step;
    used where thousands of games must fit in seconds."""

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._position = 0

    def _byte(self) -> int:
        position = self._position
        self._position += 1
        return self._data[position] if position < len(self._data) else 0

    def integer(self, low: int, high: int) -> int:
        span = high - low + 1
        if span <= 1:
            return low
        number = self._byte()
        if span > 256:
            number = number << 8 | self._byte()
        return low + number % span


_COMMAND_TYPES: tuple[type[Command], ...] = (
    PlayCard,
    KeepCard,
    DrawCard,
    StartRound,
    LookAtHand,
    Redraw,
    Decline,
    Leave,
    TimeOut,
)


def _pick(choices: Choices, items: Sequence[T]) -> T:
    return items[choices.integer(0, len(items) - 1)]


def _maybe(choices: Choices) -> bool:
    """A coin flip; shrinks towards False."""
    return choices.integer(0, 1) == 1


def _permutation(choices: Choices, items: Iterable[T]) -> tuple[T, ...]:
    pool = list(items)
    return tuple(pool.pop(choices.integer(0, len(pool) - 1)) for _ in range(len(pool)))


def choose_seat(choices: Choices, state: GameState) -> int:
    """A seat of the game or one beyond either end (no such player)."""
    return choices.integer(-1, state.players)


def choose_card(choices: Choices, hand: tuple[Card, ...]) -> Card:
    """Usually a card of ``hand``, else any kind (maybe not in this edition)."""
    if hand and not _maybe(choices):
        return _pick(choices, hand)
    return _pick(choices, _ALL_CARDS)


_ALL_CARDS = tuple(Card)
#: every deck some edition deals at some count, to stack a wrong one
_ALL_DECKS = tuple(
    {
        tuple(sorted(full_deck(name, n, decks).elements())): None
        for name in ALL_RULESET_NAMES
        for n in PLAYER_COUNTS[name]
        for decks in (ONLINE_DECKS if name == ONLINE else (1,))
    }
)


def choose_deck(choices: Choices, ruleset: str, players: int, decks: int = 1) -> tuple[Card, ...]:
    """A stacked deck: usually a valid order of this game's cards, else
    another edition's, player count's or number of decks' cards, or random
    cards."""
    kind = choices.integer(0, 3)
    mine = full_deck(ruleset, players, decks)
    if kind <= 1:
        return _permutation(choices, mine.elements())
    if kind == 2:
        return _permutation(choices, _pick(choices, _ALL_DECKS))
    size = mine.total() + choices.integer(-1, 1)
    return tuple(_pick(choices, _ALL_CARDS) for _ in range(size))


def choose_guess(choices: Choices) -> Card | int:
    """A card (2019's names) or a number (Premium's), maybe out of range."""
    if _maybe(choices):
        return _pick(choices, _ALL_CARDS)
    return choices.integer(-1, 10)


def choose_random_command(choices: Choices, state: GameState) -> Command:
    """Any command with random fields: wrong players, seats out of range,
    cards not held or not in the edition, self-targets, second targets,
    Guards naming their own card or number, names of the wrong kind, bad
    Chancellor returns, looks at hands not offered, answers to a choice not
    pending, stacked decks (valid or not), first players who may not start.
    Biased towards the commands the game is waiting for, so that the
    rejections are varied."""
    legal = ll.legal_commands(state)
    if legal and choices.integer(0, 2) == 0:
        return choose_mutant(choices, state, _pick(choices, legal))
    actor = state.to_act if state.to_act is not None else state.current
    hand = state.hands[actor]
    waiting = [k for k, d in ANSWERS.items() if state.decision in d]
    if is_online(state) and state.decision in _IN_PLAY:
        waiting.append(TimeOut)
    if waiting and not _maybe(choices):
        kind = _pick(choices, waiting)
    else:
        kind = _pick(choices, _COMMAND_TYPES)
    player = choose_seat(choices, state) if _maybe(choices) else actor
    if kind is PlayCard:
        card = choose_card(choices, hand)
        target = None if _maybe(choices) else choose_seat(choices, state)
        second = choose_seat(choices, state) if choices.integer(0, 3) == 3 else None
        guess = None if _maybe(choices) else choose_guess(choices)
        return PlayCard(player, card, target, guess, second)
    if kind is KeepCard:
        keep = choose_card(choices, hand)
        rest = list(hand)
        if keep in rest and not _maybe(choices):
            rest.remove(keep)
            bottom = _permutation(choices, rest)
        else:
            bottom = tuple(choose_card(choices, hand) for _ in range(choices.integer(0, 3)))
        return KeepCard(player, keep, bottom)
    if kind is DrawCard:
        return DrawCard(player)
    if kind is LookAtHand:
        if state.pending and not _maybe(choices):
            return LookAtHand(player, _pick(choices, state.pending))
        return LookAtHand(player, choose_seat(choices, state))
    if kind is Redraw:
        return Redraw(player)
    if kind is Decline:
        return Decline(player)
    if kind is Leave:
        return Leave(player)
    if kind is TimeOut:
        return TimeOut(player)
    deck = (
        choose_deck(choices, state.ruleset.name, state.players, decks_of(state))
        if _maybe(choices)
        else None
    )
    first = choose_seat(choices, state) if _maybe(choices) else None
    # an order half the time online, now and then elsewhere (not-in-edition)
    stacked = choices.integer(0, 1 if is_online(state) else 7) == 1
    order = choose_order(choices, state) if stacked else None
    return StartRound(deck, first, order)


def choose_order(choices: Choices, state: GameState) -> tuple[int, ...]:
    """A stacked turn order (setup.turn-order-online): usually the players
    present in any order (whose first may or may not start the round),
    else every seat, one seat short, or a seat twice."""
    present = [p for p in range(state.players) if p not in state.table.left]
    kind = choices.integer(0, 4)
    if kind <= 2:
        order = list(_permutation(choices, present))
        if kind == 0:
            # the first place to a player allowed to start
            starters = allowed_first_players(state) if state.round_result else ()
            if starters:
                first = _pick(choices, starters)
                at = order.index(first)
                order[0], order[at] = order[at], order[0]
        return tuple(order)
    if kind == 3:
        return _permutation(choices, range(state.players))
    order = list(_permutation(choices, present))
    if _maybe(choices) or len(order) < 2:
        order.append(_pick(choices, order))
    else:
        order.pop(choices.integer(0, len(order) - 1))
    return tuple(order)


def choose_mutant(choices: Choices, state: GameState, legal: Command) -> Command:
    """A legal command with one field changed: another seat as target,
    second target, owner or player; another name; another card of the hand
    (or any card); no target, no name, no second target. Most are refused,
    for reasons close to the rules' edges (the Sycophant's required player,
    protection, a second player the card does not choose, ...)."""
    seat = choose_seat(choices, state)
    maybe_seat = None if choices.integer(0, 3) == 0 else seat
    if isinstance(legal, PlayCard):
        field = choices.integer(0, 4)
        if field == 0:
            return attrs.evolve(legal, target=maybe_seat)
        if field == 1:
            return attrs.evolve(legal, second_target=maybe_seat)
        if field == 2:
            guess = None if choices.integer(0, 3) == 0 else choose_guess(choices)
            return attrs.evolve(legal, guess=guess)
        if field == 3:
            return attrs.evolve(legal, card=choose_card(choices, state.hands[legal.player]))
        return attrs.evolve(legal, player=seat)
    if isinstance(legal, LookAtHand) and _maybe(choices):
        return attrs.evolve(legal, owner=seat)
    if isinstance(legal, StartRound):
        return StartRound(None, seat)
    other: Command = attrs.evolve(cast(Any, legal), player=seat)
    return other


def choose_next_command(choices: Choices, state: GameState) -> Command:
    """Usually one of the legal commands (by index), sometimes a random one.

    The legal branch is the simplest one, so that a shrunk failing game
    still runs to its end."""
    legal = ll.legal_commands(state)
    if is_online(state):
        # Online, now and then a time-out (a legal move drawn from the seed)
        # or a player leaving; the high end, so that shrinking goes towards
        # the listed commands.
        table = choices.integer(0, 63)
        if table == 63:
            present = [p for p in range(state.players) if p not in state.table.left]
            return Leave(_pick(choices, present))
        if table >= 59 and state.to_act is not None:
            return TimeOut(state.to_act)
    if legal:
        # one choice: four chances in five of a legal command, picked uniformly
        choice = choices.integer(0, 5 * len(legal) - 1)
        if choice < 4 * len(legal):
            return legal[choice // 4]
    return choose_random_command(choices, state)


def exodus(choices: Choices, state: GameState, rounds: int) -> Leave | None:
    """Online, once ``rounds`` rounds are over: one of the players present
    leaves (game.no-end-online: only that closes a match)."""
    if not is_online(state) or state.decision is not Decision.NEXT_ROUND:
        return None
    if state.round_number < rounds:
        return None
    present = [p for p in range(state.players) if p not in state.table.left]
    return Leave(_pick(choices, present))


@st.composite
def random_commands(draw: st.DrawFn, state: GameState) -> Command:
    """Strategy form of :func:`choose_random_command`."""
    return choose_random_command(DrawnChoices(draw), state)


@st.composite
def next_commands(draw: st.DrawFn, state: GameState) -> Command:
    """Strategy form of :func:`choose_next_command`: one draw per step, which
    Hypothesis prints as the command itself in a failing example."""
    return choose_next_command(DrawnChoices(draw), state)


# --------------------------------------------------------------------------
# rule oracles


def allowed_first_players(state: GameState) -> tuple[int, ...]:
    """Who may start the next round: round.next-first-player(-tie-random);
    in a tie-break round (ruling 31) the tied players who won the last
    round, or every tied player if none did."""
    result = state.round_result
    assert result is not None
    if state.contenders:
        return tuple(p for p in result.winners if p in state.contenders) or state.contenders
    if is_online(state):
        # setup.turn-order-online (ruling 43): a rank-1 player of the last
        # round still at the table; none left: any player present
        return rank_one_present(state) or present_seats(state)
    return result.winners


def present_seats(state: GameState) -> tuple[int, ...]:
    """online.leave-any-time: the seats that have not left the match."""
    return tuple(p for p in range(state.players) if p not in state.table.left)


def rank_one_present(state: GameState) -> tuple[int, ...]:
    """The last round's rank-1 players still present, ascending (the
    candidates to start the next round, ruling 43)."""
    result = state.round_result
    assert result is not None and result.ranks is not None
    return tuple(
        p for p, rank in enumerate(result.ranks) if rank == 1 and p not in state.table.left
    )


def _table_violations(state: GameState, command: Leave | TimeOut) -> set[RejectionKind]:
    """online.leave-any-time, online.timeout-random-move: a player leaves at
    any moment, once; a time-out is for the player who must act, at a
    table with random moves."""
    if type(command.player) is not int:
        return {R.MALFORMED_COMMAND}
    if not is_online(state):
        return {R.NOT_IN_EDITION}
    if state.is_over:
        return {R.GAME_OVER}
    if isinstance(command, Leave):
        if not 0 <= command.player < state.players:
            return {R.NO_SUCH_PLAYER}
        return {R.PLAYER_LEFT} if command.player in state.table.left else set()
    if state.decision not in _IN_PLAY:
        return {R.WRONG_DECISION}
    found: set[RejectionKind] = set()
    if command.player != state.to_act:
        found.add(R.NOT_YOUR_TURN)
    settings = state.table.settings
    assert settings is not None
    if not settings.random_moves:
        found.add(R.RANDOM_MOVES_OFF)
    return found


def _order_violations(state: GameState, command: StartRound) -> set[RejectionKind]:
    """setup.turn-order-online: a stacked order lists the players present
    once each and starts with one allowed to start (the named first player,
    if one is named); other editions play in seat order."""
    order = command.order
    if order is None:
        return set()
    if not is_online(state):
        return {R.NOT_IN_EDITION}
    found: set[RejectionKind] = set()
    if sorted(order) != list(present_seats(state)):
        found.add(R.INVALID_CHOICE)
    if order and order[0] not in allowed_first_players(state):
        found.add(R.INVALID_CHOICE)
    if order and command.first_player is not None and order[0] != command.first_player:
        found.add(R.INVALID_CHOICE)
    return found


def rule_violations(state: GameState, command: Command) -> frozenset[RejectionKind]:
    """Every reason the rules give to refuse ``command`` now; empty when the
    rules allow it. The engine must report one of these reasons (it may
    pick any, the order of its checks is its own business), except that a
    card the edition does not have is malformed before anything else
    (conformance/README.md: a field of the wrong type is reported first; ruling
    54: the card a PlayCard plays, or one a KeepCard keeps or returns)."""
    kinds = edition_kinds(state.ruleset.name)
    if isinstance(command, PlayCard) and command.card not in kinds:
        return frozenset({R.MALFORMED_COMMAND})
    if isinstance(command, KeepCard) and not {command.keep, *command.bottom} <= kinds:
        return frozenset({R.MALFORMED_COMMAND})
    if isinstance(command, Leave | TimeOut):
        return frozenset(_table_violations(state, command))
    if state.is_over:
        return frozenset({R.GAME_OVER})
    if state.decision not in ANSWERS[type(command)]:
        return frozenset({R.WRONG_DECISION})
    found: set[RejectionKind] = set()
    if isinstance(command, StartRound):
        if command.deck is not None and Counter(command.deck) != state_deck(state):
            found.add(R.INVALID_DECK)
        if command.first_player is not None and (
            command.first_player not in allowed_first_players(state)
        ):
            found.add(R.INVALID_CHOICE)
        found |= _order_violations(state, command)
        return frozenset(found)
    assert isinstance(command, PlayCard | KeepCard | DrawCard | LookAtHand | Redraw | Decline)
    # one actor: the current player, or the Bishop's target deciding to redraw
    if command.player != state.to_act:
        return frozenset({R.NOT_YOUR_TURN})
    hand = state.hands[command.player]
    if isinstance(command, DrawCard | Redraw | Decline):
        return frozenset()
    if isinstance(command, LookAtHand):
        # cardinal.optional-look: one of the two hands swapped
        return frozenset() if command.owner in state.pending else frozenset({R.INVALID_CHOICE})
    if isinstance(command, KeepCard):
        if Counter((command.keep, *command.bottom)) != Counter(hand):
            found.add(R.INVALID_CHOICE)
        return frozenset(found)
    return frozenset(_play_violations(state, command, hand))


def choosable(state: GameState, player: int, chooses: Chooses) -> list[int]:
    """targeting.other-player, out.untargetable, handmaid.*, ruling 24: the
    players the card may choose (ignoring the Sycophant): in the round and
    not protected; the card's own player only where the card allows it."""
    seats = [
        p
        for p in range(state.players)
        if p != player and p not in state.out and p not in state.protected
    ]
    if chooses in SELF_ALLOWED:
        seats = sorted((*seats, player))
    return seats


def _choice_exists(state: GameState, player: int, chooses: Chooses) -> bool:
    """Whether the card has any legal choice (targeting.choose-impossible-no-effect):
    one choosable player (two different ones for the Cardinal; online the
    Baroness may take one twice), the Sycophant's required player among
    them."""
    seats = choosable(state, player, chooses)
    required = state.required
    if required is not None and required not in seats:
        return False
    return len(seats) >= (2 if chooses in _DISTINCT_PAIRS else 1)


#: the choices that need two different players
_DISTINCT_PAIRS = frozenset({Chooses.PAIR, Chooses.ORDERED_PAIR})
#: the choices that need two players, the same one twice included
_TWO_NEEDED = frozenset({Chooses.PAIR, Chooses.TWO_OTHERS, Chooses.ORDERED_PAIR})


def _badly_ordered(chooses: Chooses, target: int, second: int) -> bool:
    """A second player the card may not take after ``target``: none for a
    one-player card; a Premium pair is written ascending; the online
    Baroness's in non-decreasing order; the online Cardinal's two differ."""
    if chooses in (Chooses.OTHER, Chooses.ANY, Chooses.NO_ONE):
        return True
    if chooses is Chooses.TWO_OTHERS:
        return second < target
    if chooses is Chooses.ORDERED_PAIR:
        return second == target
    return second <= target


def _choice_ok(
    state: GameState, player: int, chooses: Chooses, target: int | None, second: int | None
) -> bool:
    """Whether ``(target, second)`` is a proper choice for the card, or the
    empty choice of a card that can choose no one (a predicate; the
    constructive formulation is :func:`choice_options`)."""
    if chooses is Chooses.NO_ONE:
        return target is None and second is None
    if target is None:
        return second is None and not _choice_exists(state, player, chooses)
    seats = choosable(state, player, chooses)
    picked = [target] if second is None else [target, second]
    if second is None and chooses in _TWO_NEEDED:
        return False
    if second is not None and _badly_ordered(chooses, target, second):
        return False
    if not all(p in seats for p in picked):
        return False
    return state.required is None or state.required in picked


def _play_violations(
    state: GameState, command: PlayCard, hand: tuple[Card, ...]
) -> set[RejectionKind]:
    found: set[RejectionKind] = set()
    name = state.ruleset.name
    player, card = command.player, command.card
    target, second, guess = command.target, command.second_target, command.guess
    if card not in hand:  # (a card the edition lacks was refused as malformed)
        found.add(R.CARD_NOT_IN_HAND)
    else:
        rest = list(hand)
        rest.remove(card)
        if card is not Card.COUNTESS and Card.COUNTESS in rest and set(hand) & COUNTESS_FORCERS:
            found.add(R.COUNTESS_REQUIRED)
    chooses = choice_of(state, card)
    if not _choice_ok(state, player, chooses, target, second):
        found |= _choice_reasons(state, player, chooses, target, second)
    names = namable(name, state.players, card)
    if names and target is not None:
        if guess is None:
            found.add(R.GUESS_REQUIRED)
        elif not is_name(name, guess) or guess not in names:
            found.add(R.GUESS_NOT_ALLOWED)
    elif guess is not None:
        found.add(R.GUESS_NOT_ALLOWED)
    return found


def _choice_reasons(
    state: GameState, player: int, chooses: Chooses, target: int | None, second: int | None
) -> set[RejectionKind]:
    """Why ``(target, second)`` is not a choice the card may make now: every
    reason that applies."""
    found: set[RejectionKind] = set()
    if chooses is Chooses.NO_ONE or not _choice_exists(state, player, chooses):
        # ruling 6, targeting.choose-impossible-no-effect: played with no one
        found.add(R.TARGET_NOT_ALLOWED)
    if target is None:
        if second is not None:
            found.add(R.TARGET_NOT_ALLOWED)
        if chooses is not Chooses.NO_ONE and _choice_exists(state, player, chooses):
            found.add(R.TARGET_REQUIRED)
    if second is not None and (
        chooses in (Chooses.OTHER, Chooses.ANY)
        or (target is not None and _badly_ordered(chooses, target, second))
    ):
        found.add(R.TARGET_NOT_ALLOWED)
    if second is None and target is not None and chooses in _TWO_NEEDED:
        found.add(R.TARGET_REQUIRED)
    for seat in (target, second):
        if seat is None:
            continue
        if not 0 <= seat < state.players:
            found.add(R.NO_SUCH_PLAYER)
        elif seat == player:
            if chooses not in SELF_ALLOWED:
                found.add(R.TARGET_NOT_ALLOWED)
        elif seat in state.out:
            found.add(R.TARGET_OUT_OF_ROUND)
        elif seat in state.protected:
            found.add(R.TARGET_PROTECTED)
    required = state.required
    if required is not None and target is not None and required not in (target, second):
        found.add(R.REQUIRED_PLAYER_NOT_CHOSEN)
    assert found, f"no reason found against {(target, second)}"
    return found


def typed(command: Command) -> tuple[Command, type]:
    """A command with the type of its name, to compare strictly (a card
    equals its code: ``Card.KING == 7``, yet a Premium name is a number and
    a 2019 name a card)."""
    return (command, type(getattr(command, "guess", None)))


def is_listed(command: Command, legal: Iterable[Command]) -> bool:
    """Whether ``command`` is one of ``legal``, its name of the same type."""
    return typed(command) in {typed(c) for c in legal}


def accepted_though_not_listed(state: GameState, command: Command) -> bool:
    """``legal_commands`` lists the single ``StartRound()`` between rounds, but
    a valid stacked deck and/or an allowed first player are accepted too
    (documented in ``legal_commands``). Online, leaving and time-outs are
    never listed (they are not a player's move) and are accepted when the
    rules allow them."""
    return isinstance(command, StartRound | Leave | TimeOut) and not rule_violations(state, command)


# --------------------------------------------------------------------------
# state invariants


def check_state(state: GameState) -> None:
    """Everything that must hold of any state reached by play."""
    name = state.ruleset.name
    n = state.players
    deck = state_deck(state)
    # cards are conserved across all zones (online: every copy of every deck)
    assert state.card_count() == len(state.ruleset.deck_for(n, decks_of(state))) == deck.total()
    zones: list[Card] = [*state.deck, *state.face_up]
    if state.set_aside is not None:
        zones.append(state.set_aside)
    for hand in state.hands:
        zones.extend(hand)
    for pile in state.discards:
        zones.extend(pile)
    assert Counter(zones) == deck, f"cards not conserved: {Counter(zones)} != {deck}"
    assert len(state.face_up) == FACE_UP_COUNT.get(n, 0)
    if is_online(state):
        check_online_table(state)
    else:
        # rulings 9 and 38: the set-aside card only leaves on an empty deck
        assert state.set_aside is not None or not state.deck
    assert len(state.hands) == len(state.discards) == len(state.tokens) == n
    live = state.live_players()
    assert live == tuple(p for p in range(n) if p not in state.out)
    assert len(live) >= 1
    for p in state.out:
        assert state.hands[p] == (), f"player {p} is out but holds {state.hands[p]}"
    decision = state.decision
    for p in live:
        size = len(state.hands[p])
        if p == state.current and decision is Decision.PLAY:
            assert size == 2, f"player {p} must play from two cards, holds {state.hands[p]}"
        elif p == state.current and decision is Decision.CHANCELLOR:
            assert size in (2, 3), f"Chancellor player {p} holds {state.hands[p]}"
        elif p == state.current and _left_alone_in_their_turn(state):
            # online.leave-any-time: the last other player may have left
            # while this one was deciding what to play; the round ended on
            # the spot (check_leave checks that nothing was taken from them)
            assert size in (1, 2), f"player {p} left alone in their turn holds {state.hands[p]}"
        else:
            assert size == 1, f"player {p} in the round holds {state.hands[p]}"
    assert state.protected <= set(live), "a protected player is out of the round"
    check_pending(state)
    if decision in _IN_PLAY:
        # exactly one player must act: the current one, in the round, except
        # the Bishop's target deciding whether to redraw (ruling 25)
        if decision is Decision.REDRAW:
            assert state.to_act == state.pending[0] != state.current
        else:
            assert state.to_act == state.current
        assert state.current in live and state.to_act in live
        assert state.current not in state.protected, "protection ends as its turn starts"
        assert state.to_act not in state.protected, "a protected player was chosen"
        assert len(live) >= 2
        assert state.round_result is None
        assert not state.round_over and not state.is_over
    else:
        assert state.to_act is None
        assert state.round_over
        assert state.required is None, "the Sycophant's requirement ends with the round"
        if state.round_result is not None:
            assert not state.protected, "protection never outlives its round (ruling 7)"
        else:
            # game.immediate-win (ruling 30): won mid-round, no RoundEnded
            assert name == PREMIUM and state.is_over
    check_tokens(state)
    check_legal_commands(state)


def _left_alone_in_their_turn(state: GameState) -> bool:
    """Online, the round ended with one player left, the current one: the
    others may have left before they played their turn's card."""
    result = state.round_result
    if not is_online(state) or result is None or state.decision in _IN_PLAY:
        return False
    return result.reason is RoundEndReason.ONE_PLAYER_LEFT


def check_online_table(state: GameState) -> None:
    """setup.no-set-aside-online, round.end-pile-online, setup.turn-order-online,
    online.leave-any-time: no card set aside or face up; a turn in play
    always has a card left in the pile (it started with two); the round's
    order lists the players dealt in, once each (every other seat has left
    the match); the players out of the round are those not dealt in and
    those who went out, each once, in order; a player who left is never to
    act, required or in the round."""
    n = state.players
    table = state.table
    assert table.settings is not None and table.settings.decks in ONLINE_DECKS
    assert state.set_aside is None and state.face_up == ()
    assert state.contenders == () and state.returns == ()
    order, left, exits = table.order, table.left, state.exits
    assert len(set(order)) == len(order) >= 2 and set(order) <= set(range(n)), order
    assert set(range(n)) - set(order) <= left, f"{order}: a seat present was not dealt in"
    assert len(set(exits)) == len(exits) and set(exits) <= set(order), exits
    assert state.out == (frozenset(range(n)) - set(order)) | set(exits), (state.out, exits)
    assert state.required is None or state.required not in left
    if state.decision in _IN_PLAY:
        # (between rounds a player may leave and stay unranked as they were)
        assert not set(state.live_players()) & left, "a player who left is still in the round"
        assert len(state.deck) >= 1, "a turn in play with an empty pile (ruling 42)"
        assert state.current not in left and state.to_act not in left


def check_pending(state: GameState) -> None:
    """The optional steps, the Sycophant's requirement and the Jester's marks."""
    decision = state.decision
    live = state.live_players()
    if decision is Decision.LOOK:
        # cardinal.optional-look: the two hands it swapped, ascending
        a, b = state.pending
        assert a < b and a in live and b in live
        assert state.discards[state.current][-1] is Card.CARDINAL
    elif decision is Decision.REDRAW:
        # bishop.target-may-redraw: its target, another player in the round
        (target,) = state.pending
        assert target in live and target != state.current
        assert state.discards[state.current][-1] is Card.BISHOP
    else:
        assert state.pending == ()
    if state.required is not None:
        # ruling 34: set by a Sycophant, binds the next card played
        assert decision is Decision.PLAY
        assert state.required in live and state.required not in state.protected
    for jester, marked in state.marks:
        # ruling 32: only a played Jester marks, another player
        assert jester != marked and 0 <= marked < state.players
        assert Card.JESTER in state.discards[jester]
    if state.ruleset.name not in (PREMIUM, ONLINE):
        assert state.required is None and state.marks == () and state.contenders == ()
    if is_online(state):
        # cardinal.swap-and-look-first-online: no optional look online
        assert decision is not Decision.LOOK
    jesters = Counter(j for j, _ in state.marks)
    for jester, count in jesters.items():
        assert state.discards[jester].count(Card.JESTER) >= count


def check_tokens(state: GameState) -> None:
    """game.tokens-to-win(-premium), game.simultaneous-winners (2019),
    game.immediate-win and game.tie-break-round (Premium); online
    (game.win-counter-online, game.no-end-online) the counters only count:
    the match has no winner and closes only with fewer than two present."""
    if is_online(state):
        assert all(t >= 0 for t in state.tokens)
        assert state.winners == () and state.contenders == ()
        closed = len(present_seats(state)) < 2
        assert state.is_over == closed, f"present {present_seats(state)}, over: {state.is_over}"
        return
    threshold = tokens_to_win(state)
    at_threshold = tuple(p for p, t in enumerate(state.tokens) if t >= threshold)
    assert all(t >= 0 for t in state.tokens)
    if state.ruleset.name != PREMIUM:
        if at_threshold:
            assert state.decision is Decision.GAME_OVER and state.is_over
            assert state.winners == at_threshold
        else:
            assert state.decision is not Decision.GAME_OVER and not state.is_over
            assert state.winners == ()
        return
    contenders = state.contenders
    assert contenders == tuple(sorted(set(contenders)))
    assert set(contenders) <= set(at_threshold), "a tied player below the threshold"
    if state.is_over:
        # one winner, always: several at once play a tie-break round
        assert len(state.winners) == 1 and state.winners[0] in at_threshold
        if contenders:
            assert state.winners[0] in contenders
        else:
            assert state.winners == at_threshold
    else:
        assert state.winners == ()
        if contenders:
            assert len(contenders) >= 2
        else:
            assert not at_threshold, f"{at_threshold} reached {threshold} and the game goes on"
    if contenders and state.decision in _IN_PLAY:
        # a tie-break round deals only the tied players
        assert set(state.live_players()) <= set(contenders)


def _play_key(command: Command) -> tuple[int, int, int, int]:
    assert isinstance(command, PlayCard)
    target = -1 if command.target is None else command.target
    second = -1 if command.second_target is None else command.second_target
    guess = -1 if command.guess is None else int(command.guess)
    return (int(command.card), target, second, guess)


def choice_options(
    state: GameState, player: int, chooses: Chooses
) -> list[tuple[int | None, int | None]]:
    """Every ``(target, second_target)`` the card may choose, built from the
    rules: one choosable player, or two for the Cardinal, or one or two for
    the Baroness; online, two for the Baroness (the same one twice
    included) and two different ones in either order for the Cardinal;
    those including the Sycophant's required player; none (``(None,
    None)``) when that leaves nothing."""
    if chooses is Chooses.NO_ONE:
        return [(None, None)]
    seats = choosable(state, player, chooses)
    options: list[tuple[int | None, int | None]] = []
    if chooses in (Chooses.OTHER, Chooses.ANY, Chooses.ONE_OR_TWO_OTHERS):
        options += [(p, None) for p in seats]
    if chooses in (Chooses.PAIR, Chooses.ONE_OR_TWO_OTHERS):
        options += list(combinations(seats, 2))
    if chooses is Chooses.TWO_OTHERS:
        options += [(a, b) for a in seats for b in seats if a <= b]
    if chooses is Chooses.ORDERED_PAIR:
        options += [(a, b) for a in seats for b in seats if a != b]
    if state.required is not None:
        options = [o for o in options if state.required in o]
    return options or [(None, None)]


def allowed_plays(state: GameState) -> frozenset[PlayCard]:
    """Every PlayCard the rules allow the current player, built from the
    rules (a second formulation, independent of :func:`rule_violations`)."""
    player = state.current
    name = state.ruleset.name
    cards = set(state.hands[player])
    if Card.COUNTESS in cards and cards & COUNTESS_FORCERS:
        cards = {Card.COUNTESS}  # countess.forced-by-king-or-prince
    plays: set[PlayCard] = set()
    for card in cards:
        for target, second in choice_options(state, player, choice_of(state, card)):
            names = namable(name, state.players, card) if target is not None else ()
            if names:
                plays.update(PlayCard(player, card, target, guess, second) for guess in names)
            else:
                plays.add(PlayCard(player, card, target, None, second))
    return frozenset(plays)


def ordered_options(state: GameState) -> tuple[Command, ...]:
    """The commands the rules allow the player to act, in the documented
    order of ``legal_commands`` (plays by card, target, second target,
    name; Redraw then Decline), from the rules alone."""
    decision = state.decision
    if decision is Decision.PLAY:
        return tuple(sorted(allowed_plays(state), key=_play_key))
    if decision is Decision.REDRAW:
        return (Redraw(state.pending[0]), Decline(state.pending[0]))
    assert decision is Decision.DRAW, f"no time-out at {decision}"
    return (DrawCard(state.current),)


def timeout_move(state: GameState) -> Command:
    """online.timeout-random-move (ruling 51): the number for the purpose
    ``timeout/<turn>/<decision>``; at a play, the ``(n mod k)``-th of the
    ``k`` distinct playable cards in card order, then the ``((n div k) mod
    m)``-th of that card's ``m`` plays; at any other decision the ``(n mod
    m)``-th legal command."""
    purpose = f"timeout/{state.turn_number}/{state.decision.value}"
    number = chance_number(state.seed, state.round_number, purpose)
    options = ordered_options(state)
    if state.decision is not Decision.PLAY:
        return options[number % len(options)]
    plays = [c for c in options if isinstance(c, PlayCard)]
    cards = sorted({c.card for c in plays})
    card = cards[number % len(cards)]
    moves = [c for c in plays if c.card == card]
    return moves[(number // len(cards)) % len(moves)]


def allowed_keeps(state: GameState) -> frozenset[KeepCard]:
    """chancellor.return-bottom-any-order: keep any one card, return the
    others in any order (ruling 15: the Countess constrains nothing here)."""
    hand = state.hands[state.current]
    keeps: set[KeepCard] = set()
    for keep in set(hand):
        rest = list(hand)
        rest.remove(keep)
        keeps.update(KeepCard(state.current, keep, order) for order in permutations(rest))
    return frozenset(keeps)


def check_legal_commands(state: GameState) -> None:
    """legal_commands lists exactly what the rules allow, once each, in its
    documented order (by card, target, second target, name; by kept card,
    returned order; the looks by seat then Decline; Redraw then Decline),
    and every command it lists is the player's to act."""
    legal = ll.legal_commands(state)
    assert len(set(legal)) == len(legal), "legal_commands lists a command twice"
    decision = state.decision
    for command in legal:
        assert getattr(command, "player", state.to_act) == state.to_act
    if decision is Decision.GAME_OVER:
        assert legal == ()
        assert ll.playable_cards(state) == ()
    elif decision is Decision.NEXT_ROUND:
        assert legal == (StartRound(),)
    elif decision is Decision.CHANCELLOR:
        assert set(legal) == allowed_keeps(state)
        keys = [(int(c.keep), *map(int, c.bottom)) for c in legal if isinstance(c, KeepCard)]
        assert keys == sorted(keys), "legal_commands not in fixed order"
    elif decision is Decision.LOOK:
        current = state.current
        assert legal == (*(LookAtHand(current, o) for o in sorted(state.pending)), Decline(current))
    elif decision is Decision.REDRAW:
        target = state.pending[0]
        assert legal == (Redraw(target), Decline(target))
    elif decision is Decision.PLAY:
        allowed = allowed_plays(state)
        assert set(legal) == allowed, (
            f"listed but not allowed: {set(legal) - allowed}; "
            f"allowed but not listed: {allowed - set(legal)}"
        )
        assert list(legal) == sorted(legal, key=_play_key), "legal_commands not in fixed order"
        cards = ll.playable_cards(state)
        assert cards == tuple(sorted({c.card for c in allowed}))
        absent = next(card for card in Card if card not in cards)
        for card in (*cards, absent):
            by_card = ll.legal_commands(state, card)
            assert by_card == tuple(c for c in legal if isinstance(c, PlayCard) and c.card == card)
    else:
        assert legal == (DrawCard(state.current),)


def check_one_actor(state: GameState) -> None:
    """Only the player to act may act: each listed command, given by anyone
    else, is refused as not their turn."""
    legal = ll.legal_commands(state)
    if not legal or isinstance(legal[0], StartRound):
        return
    command = legal[0]
    for seat in range(state.players):
        if seat == state.to_act:
            continue
        other: Command = attrs.evolve(cast(Any, command), player=seat)
        try:
            ll.decide(state, other)
        except ll.IllegalCommand as error:
            assert error.kind is R.NOT_YOUR_TURN, f"{other}: {error}"
        else:
            raise AssertionError(f"{other} accepted from a player who is not to act")


def check_legal_commands_complete(state: GameState) -> None:
    """Every PlayCard the rules allow is listed, and only those: exhaustive
    over the cards held and every pair of seats (one beyond each end and
    none included) as target and second target, each with no name, a name
    of the deck and a name of the wrong type; then every name, of either
    type and out of range, with each choice the rules allow. The looks of a
    Cardinal at every seat."""
    if state.decision is Decision.LOOK:
        legal = set(ll.legal_commands(state))
        for owner in range(-1, state.players + 1):
            look = LookAtHand(state.current, owner)
            allowed = not rule_violations(state, look)
            assert allowed == (look in legal), f"{look}: the rules allow it: {allowed}"
        return
    if state.decision is not Decision.PLAY:
        return
    listed = {typed(c) for c in ll.legal_commands(state)}
    name = state.ruleset.name
    player = state.current
    seats = (None, *range(-1, state.players + 1))
    numbers = names_numbers(name)
    # every name of the edition's kind, some of the other kind
    every_name: tuple[Card | int, ...] = (
        (*range(-1, 11), Card.GUARD, Card.BARON, Card.PRINCESS)
        if numbers
        else (*Card, -1, 0, 3, 10)
    )

    def check(command: PlayCard) -> bool:
        allowed = not rule_violations(state, command)
        assert allowed == (typed(command) in listed), f"{command}: the rules allow it: {allowed}"
        return allowed

    for card in set(state.hands[player]):
        chooses = choice_of(state, card)
        names = namable(name, state.players, card)
        some: tuple[Card | int | None, ...] = (
            (None, names[-1], Card.PRINCESS if numbers else 8)
            if names
            else (None, 2 if numbers else Card.PRIEST)
        )
        two = chooses in TWO_PLAYERS
        chosen: list[tuple[int | None, int | None]] = []
        for target in seats:
            for second in seats if two else (None,):
                if any([check(PlayCard(player, card, target, g, second)) for g in some]):
                    chosen.append((target, second))
        if not two:
            # a second player for a card that chooses at most one
            first = chosen[0][0] if chosen else None
            for second in (first, 0 if first is None else first + 1):
                check(PlayCard(player, card, first, some[1], second))
        for target, second in chosen if names else ():
            for guess in every_name:
                check(PlayCard(player, card, target, guess, second))


def check_deal(state: GameState, started: RoundStarted) -> None:
    """setup.*, ruling 3: the deck (top first) is dealt set-aside card, face-up
    cards (2 players), one card each from the first player on (in a
    tie-break round only to the tied players), first draw."""
    if is_online(state):
        check_online_deal(state, started)
        return
    deck = started.deck
    assert deck is not None
    n = state.players
    face_up = FACE_UP_COUNT.get(n, 0)
    first = started.first_player
    seats = tuple(range(n)) if started.seats is None else started.seats
    assert first in seats
    assert Counter(deck) == full_deck(state.ruleset.name, n)
    assert state.set_aside == deck[0]
    assert state.face_up == deck[1 : 1 + face_up]
    position = 1 + face_up
    for offset in range(n):
        seat = (first + offset) % n
        if seat not in seats:
            assert state.hands[seat] == ()
            continue
        expected = [deck[position]]
        position += 1
        if seat == first:
            expected.append(deck[1 + face_up + len(seats)])
        assert sorted(state.hands[seat]) == sorted(expected)
    assert state.deck == deck[2 + face_up + len(seats) :]
    assert state.current == first and state.decision is Decision.PLAY
    assert state.turn_number == 1 and state.round_number == started.round_number
    assert state.out == frozenset(range(n)) - set(seats)
    assert not state.protected and not state.sightings
    assert state.required is None and state.marks == () and state.pending == ()
    assert state.returns == ()
    assert all(pile == () for pile in state.discards)


def check_online_deal(state: GameState, started: RoundStarted) -> None:
    """setup.no-set-aside-online, setup.deal-one-each, setup.turn-order-online:
    no card set aside or face up; one card to each player present, in the
    round's order; the first of the order draws; the rest is the pile."""
    deck, order = started.deck, started.order
    assert deck is not None and order is not None and started.seats is None
    n = state.players
    assert Counter(deck) == state_deck(state)
    assert sorted(order) == list(present_seats(state)), f"{order} deals in a player who left"
    assert started.first_player == order[0]
    assert state.table.order == order
    assert state.set_aside is None and state.face_up == ()
    for index, seat in enumerate(order):
        expected = [deck[index]] + ([deck[len(order)]] if index == 0 else [])
        assert sorted(state.hands[seat]) == sorted(expected), (seat, state.hands[seat], expected)
    for seat in set(range(n)) - set(order):
        assert state.hands[seat] == ()
    assert state.deck == deck[len(order) + 1 :]
    assert state.current == order[0] and state.decision is Decision.PLAY
    assert state.turn_number == 1 and state.round_number == started.round_number
    assert state.out == frozenset(range(n)) - set(order) and state.exits == ()
    assert not state.protected and not state.sightings
    assert state.required is None and state.marks == () and state.pending == ()
    assert all(pile == () for pile in state.discards)


def swapped_first(order: Sequence[int], first: int | None) -> tuple[int, ...]:
    """Ruling 43: ``first`` swaps places with whoever comes first (no
    rotation); ``None`` leaves the order as drawn."""
    seats = list(order)
    if first is not None:
        at = seats.index(first)
        seats[0], seats[at] = seats[at], seats[0]
    return tuple(seats)


def drawn_deck(state: GameState, round_number: int) -> tuple[Card, ...]:
    """setup.shuffle: the table's cards in canonical (card) order, shuffled
    with the purpose ``deck``."""
    return seeded_shuffle(sorted(state_deck(state).elements()), state.seed, round_number, "deck")


def first_order(setup_players: int, seed: int, first: int | None) -> tuple[int, ...]:
    """Ruling 43, round 1: every seat shuffled with the purpose ``order``, a
    named first player swapped into first place."""
    return swapped_first(seeded_shuffle(range(setup_players), seed, 1, "order"), first)


def next_order(state: GameState, command: StartRound) -> tuple[int, ...]:
    """Ruling 43: the order of the round ``command`` deals, from the state
    between rounds: the players present shuffled (purpose ``order``), then
    the named first player, else the one rank-1 player still present, else
    one of several drawn (purpose ``first-player``), swapped into first
    place; with none present the shuffle stands. A stacked order as given."""
    if command.order is not None:
        return command.order
    round_number = state.round_number + 1
    shuffled = seeded_shuffle(present_seats(state), state.seed, round_number, "order")
    first = command.first_player
    candidates = rank_one_present(state)
    if first is None and candidates:
        first = seeded_choice(candidates, state.seed, round_number, "first-player")
    return swapped_first(shuffled, first)


# --------------------------------------------------------------------------
# transitions


def check_transition(
    before: GameState, command: Command, events: tuple[Event, ...], after: GameState
) -> None:
    """What must hold of one accepted command's events and its outcome."""
    if isinstance(command, TimeOut):
        # online.timeout-random-move: the time-out, then exactly the events
        # of the move drawn from the seed, which the player could have made
        move = timeout_move(before)
        assert events[0] == TurnTimedOut(command.player), events[0]
        assert is_listed(move, ll.legal_commands(before)), f"{move} is not a legal command"
        assert events[1:] == ll.decide(before, move), f"{command} did not make {move}"
        check_transition(before, move, events[1:], after)
        return
    assert after.ruleset is before.ruleset
    assert (after.players, after.seed) == (before.players, before.seed)
    assert all(a >= b for a, b in zip(after.tokens, before.tokens, strict=True)), "tokens fell"
    assert events, "an accepted command causes at least one event"
    kinds = [type(e) for e in events]
    assert GameStarted not in kinds and PositionEstablished not in kinds
    round_ended = before.round_result is None and after.round_result is not None
    assert kinds.count(RoundEnded) == int(round_ended)
    assert kinds.count(GameEnded) == int(after.is_over)
    assert kinds.count(GameTied) <= 1
    if after.is_over:
        assert isinstance(events[-1], GameEnded) and events[-1].winners == after.winners
    for index, event in enumerate(events):
        if isinstance(event, TurnStarted) and not isinstance(command, StartRound):
            # a turn only starts with a card to draw, and its draw comes next;
            # the turn passes on from the current player (not from a Bishop's
            # target who just answered)
            following = events[index + 1]
            assert isinstance(following, CardDrawn)
            assert following.player == event.player, f"{event} followed by {following}"
            assert not following.from_set_aside, (
                f"{event}: the deck was empty at the end of the turn and the round went on"
            )
            assert event.player == next_in_turn(before, after.out)
            assert after.turn_number == before.turn_number + 1
            assert index + 2 == len(events), "nothing happens after the next turn's draw"
    check_set_aside_draws(before, events)
    if isinstance(command, KeepCard):
        # chancellor.return-bottom-any-order, ruling 4: the returned cards
        # go under the deck in the order given, the last one bottom-most
        # (then the next player draws the top card)
        drawn = sum(isinstance(e, CardDrawn) for e in events)
        assert after.deck == (*before.deck, *command.bottom)[drawn:]
        assert after.hands[command.player] == (command.keep,)
        assert after.returns == (*before.returns, (command.player, len(command.bottom)))
    elif not isinstance(command, StartRound):
        assert after.returns == before.returns
    if isinstance(command, PlayCard) and command.card is Card.HANDMAID and not after.round_over:
        # handmaid.protection-until-next-turn: protected until their next turn
        assert command.player in after.protected
    if isinstance(command, StartRound):
        check_new_round(before, command, events, after)
        return
    if isinstance(command, PlayCard | LookAtHand | Redraw | Decline):
        check_effect(before, command, events, after)
        check_sightings(before, events, after)
    if isinstance(command, Leave):
        check_leave(before, command, events, after)
    check_award_steps(before, command, events, after)
    if round_ended:
        check_round_end(before, command, events, after)
    assert after.round_number == before.round_number


def check_set_aside_draws(before: GameState, events: tuple[Event, ...]) -> None:
    """Rulings 9 and 38: the set-aside card is drawn only when the deck is
    empty, at most once (the card is there when asked for), and the round
    ends in that same turn."""
    taken = [e for e in events if isinstance(e, CardDrawn) and e.from_set_aside]
    if not taken:
        return
    assert len(taken) == 1, "the set-aside card was requested twice"
    assert not before.deck and before.set_aside is not None
    assert taken[0].card == before.set_aside
    assert any(isinstance(e, RoundEnded | GameEnded) for e in events), "the round goes on"


def next_in_turn(before: GameState, out: frozenset[int]) -> int:
    """Whose turn follows the current player's: turn.order (seat order) or,
    online, the round's drawn order (setup.turn-order-online), passing over
    the players out of the round (out.turn-skipped)."""
    order = before.table.order if is_online(before) else ()
    if not order:
        return _next_seat(before.current, before.players, out)
    at = order.index(before.current)
    for step in range(1, len(order) + 1):
        seat = order[(at + step) % len(order)]
        if seat not in out:
            return seat
    raise AssertionError("no one left to play")


def check_leave(
    before: GameState, command: Leave, events: tuple[Event, ...], after: GameState
) -> None:
    """online.leave-any-time (ruling 50): the player leaves the table; if
    they were in the round they go out of it, their hand face up without
    effect (no draw, no Constable: check_award_steps); if it was theirs to
    act the turn ends (the next one starts or the round ends by the pile);
    one player left ends the round; the requirement naming them or binding
    their turn lapses; between rounds fewer than two present closes the
    match."""
    player = command.player
    assert events[0] == PlayerLeft(player)
    assert after.table.left == before.table.left | {player}
    rest = list(events[1:])
    if before.decision not in _IN_PLAY:
        closes = len(present_seats(after)) < 2
        assert rest == ([GameEnded(())] if closes else []), f"{command} between rounds: {rest}"
        assert (after.hands, after.out, after.exits) == (before.hands, before.out, before.exits)
        return
    if player in before.out:
        assert rest == [], f"{command} from a player out of the round: {rest}"
        assert after.decision is before.decision and after.to_act == before.to_act
        return
    hand = before.hands[player]
    assert rest[0] == PlayerEliminated(player, EliminationReason.LEFT, hand), rest[0]
    assert after.exits == (*before.exits, player)
    assert after.discards[player] == (*before.discards[player], *hand)
    assert after.hands[player] == ()
    assert not any(isinstance(e, CardDrawn) and e.player == player for e in rest)
    if not any(isinstance(e, TurnStarted) for e in rest):
        # nobody else's hand changes: the current player keeps both cards
        # if the round ends before they play
        others = [q for q in range(before.players) if q != player]
        assert all(after.hands[q] == before.hands[q] for q in others)
    following = rest[1:]
    live = [p for p in before.live_players() if p != player]
    acting = player in (before.current, before.to_act)
    if len(live) < 2:
        ended = following[0]
        assert isinstance(ended, RoundEnded) and ended.reason is RoundEndReason.ONE_PLAYER_LEFT
    elif acting:
        # the turn is over: round.end-pile-online decides what comes next
        assert following, f"{command}: the leaver's turn did not end"
        if len(before.deck) <= 1:
            ended = following[0]
            assert isinstance(ended, RoundEnded) and ended.reason is RoundEndReason.DECK_EMPTY
        else:
            assert following[0] == TurnStarted(next_in_turn(before, after.out))
            assert after.required is None and after.pending == ()
    else:
        assert following == [], f"{command}: {following} though the leaver was not to act"
        assert (after.decision, after.current, after.to_act, after.pending) == (
            before.decision,
            before.current,
            before.to_act,
            before.pending,
        )
        assert after.deck == before.deck
        assert after.required == (None if before.required == player else before.required)
    assert after.marks == before.marks


def _next_seat(current: int, players: int, out: frozenset[int]) -> int:
    """turn.order, ruling 2: increasing seat number, skipping players out."""
    seat = current
    for _ in range(players):
        seat = (seat + 1) % players
        if seat not in out:
            return seat
    raise AssertionError("no one left to play")


def _replacement(state: GameState, player: int) -> CardDrawn:
    """prince.empty-deck-draws-set-aside, assassin.discard-and-redraw,
    bishop.target-may-redraw: the top card, or the set-aside card when the
    deck is empty (ruling 38)."""
    if state.deck:
        return CardDrawn(player, state.deck[0], False)
    assert state.set_aside is not None
    return CardDrawn(player, state.set_aside, True)


def _discard_and_draw(state: GameState, player: int, card: Card) -> list[Event]:
    """Discard ``card`` without its effect, then draw; a discarded Princess
    knocks her player out instead of the draw."""
    if card is Card.PRINCESS:
        return [
            CardDiscarded(player, card),
            PlayerEliminated(player, EliminationReason.PRINCESS_DISCARDED, ()),
        ]
    return [CardDiscarded(player, card), _replacement(state, player)]


def _compare(
    state: GameState, player: int, mine: Card, target: int, via: Card, lower_loses: bool
) -> list[Event]:
    """baron.*, dowager-queen.*: printed values, no Count bonus (ruling 37)."""
    theirs = state.hands[target][0]
    values = VALUES[state.ruleset.name]
    events: list[Event] = [HandsCompared(player, target, mine, theirs, via)]
    if values[mine] != values[theirs]:
        player_higher = values[mine] > values[theirs]
        loser, card = (target, theirs) if player_higher == lower_loses else (player, mine)
        reason = (
            EliminationReason.BARON_COMPARISON
            if lower_loses
            else EliminationReason.DOWAGER_COMPARISON
        )
        events.append(PlayerEliminated(loser, reason, (card,)))
    return events


def expected_effect(state: GameState, command: Command) -> list[Event]:
    """The events a command's effect causes, from each card's rules (the
    Constable's tokens, the end of the turn and of the round excluded)."""
    name = state.ruleset.name
    if isinstance(command, LookAtHand):
        owner = command.owner
        return [HandSeen(command.player, owner, state.hands[owner][0], Card.CARDINAL)]
    if isinstance(command, Decline):
        return [OptionDeclined(command.player)]
    if isinstance(command, Redraw):
        return _discard_and_draw(state, command.player, state.hands[command.player][0])
    assert isinstance(command, PlayCard)
    player, card, target, second = (
        command.player,
        command.card,
        command.target,
        command.second_target,
    )
    rest = list(state.hands[player])
    rest.remove(card)
    values = VALUES[name]
    if card is Card.HANDMAID:
        return [PlayerProtected(player)]
    if card is Card.PRINCESS:
        return [PlayerEliminated(player, EliminationReason.PRINCESS_DISCARDED, tuple(rest))]
    if card is Card.CHANCELLOR:
        drawn = state.deck[:2]
        return [ChancellorDrew(player, len(drawn), drawn)] if drawn else []
    if target is None:
        # no one may be chosen: no effect (ruling 6, ruling 24)
        return []
    held = state.hands[target]
    if card is Card.GUARD:
        if Card.ASSASSIN in held:
            # assassin.guard-player-knocked-out, assassin.discard-and-redraw
            return [
                CardRevealed(target, Card.ASSASSIN),
                PlayerEliminated(player, EliminationReason.ASSASSIN, tuple(rest)),
                CardDiscarded(target, Card.ASSASSIN),
                _replacement(state, target),
            ]
        guess = command.guess
        hit = values[held[0]] == guess if names_numbers(name) else held[0] == guess
        return [PlayerEliminated(target, EliminationReason.GUARD_GUESS, held)] if hit else []
    if card is Card.PRIEST:
        return [HandSeen(player, target, held[0], Card.PRIEST)]
    if card is Card.BARON:
        return _compare(state, player, rest[0], target, Card.BARON, lower_loses=True)
    if card is Card.DOWAGER_QUEEN:
        return _compare(state, player, rest[0], target, Card.DOWAGER_QUEEN, lower_loses=False)
    if card is Card.KING:
        return [HandsTraded(player, target, Card.KING)]
    if card is Card.PRINCE:
        # ruling 16: the Prince's player discards the card left in hand
        (discarded,) = rest if target == player else held
        return _discard_and_draw(state, target, discarded)
    if card is Card.BISHOP:
        if values[held[0]] != command.guess:
            return []
        total = state.tokens[player] + 1
        return [TokenAwarded(player, TokenReason.BISHOP, total), RedrawOffered(target)]
    if card is Card.SYCOPHANT:
        return [ChoiceRestricted(player, target)]
    if card is Card.JESTER:
        return [PlayerMarked(player, target)]
    if card is Card.BARONESS:
        seen = [target] if second is None else [target, second]
        return [HandSeen(player, p, state.hands[p][0], Card.BARONESS) for p in seen]
    if card is Card.CARDINAL:
        assert second is not None
        traded = HandsTraded(target, second, Card.CARDINAL)
        if name == ONLINE:
            # cardinal.swap-and-look-first-online: its player then sees the
            # first target's new card (the one the second held), at once
            hands = list(state.hands)
            hands[player] = tuple(rest)
            return [traded, HandSeen(player, target, hands[second][0], Card.CARDINAL)]
        return [traded, LookOffered(player, (target, second))]
    raise AssertionError(f"the {card} chooses no one, yet {target} was chosen")


_ENDS = (TurnStarted, RoundEnded, GameEnded)


def check_effect(
    before: GameState,
    command: PlayCard | LookAtHand | Redraw | Decline,
    events: tuple[Event, ...],
    after: GameState,
) -> None:
    """The command's events are its card's effect, then the end of the turn
    (or of the round, or of the game); a knock-out that leaves one player
    stops the effect (ruling 39), a token that wins the game stops
    everything (ruling 30)."""
    index = 0
    if isinstance(command, PlayCard):
        played = CardPlayed(
            command.player, command.card, command.target, command.guess, command.second_target
        )
        assert events[0] == played
        index = 1
    expected = expected_effect(before, command)
    live = len(before.live_players())
    for wanted in expected:
        event = events[index] if index < len(events) else None
        if isinstance(event, GameEnded):
            # a token won the game at once (ruling 30)
            assert isinstance(events[index - 1], TokenAwarded)
            break
        if isinstance(event, RoundEnded):
            # ruling 39: one player left ends the round even mid-effect
            assert live == 1, f"the effect stopped before {wanted} with {live} players left"
            break
        assert event == wanted, f"{command}: expected {wanted}, the engine gave {event}"
        index += 1
        if isinstance(event, PlayerEliminated):
            live -= 1
            while index < len(events) and _is_token(events[index], TokenReason.CONSTABLE):
                index += 1
    rest = events[index:]
    if rest:
        assert isinstance(rest[0], _ENDS), f"{command}: unexpected {rest[0]} after the effect"
    else:
        # a choice is pending: the Chancellor's, or an optional step (ruling 25)
        assert after.decision in (Decision.CHANCELLOR, Decision.LOOK, Decision.REDRAW), (
            f"{command}: the turn stops"
        )
    check_card_state(before, command, expected, events, after)


def _is_token(event: Event, reason: TokenReason) -> bool:
    return isinstance(event, TokenAwarded) and event.reason is reason


def check_card_state(
    before: GameState,
    command: PlayCard | LookAtHand | Redraw | Decline,
    expected: list[Event],
    events: tuple[Event, ...],
    after: GameState,
) -> None:
    """What the effect leaves in the state: the Sycophant's requirement,
    the Jester's marks, the Cardinal's swap and look, the Bishop's offer."""
    playing = after.decision in _IN_PLAY
    played = command if isinstance(command, PlayCard) else None
    card = played.card if played is not None else None
    target = played.target if played is not None else None
    # ruling 34: a Sycophant's requirement binds the next card played, then
    # lapses; it also ends with the round
    if card is Card.SYCOPHANT and playing:
        assert after.required == target
    else:
        assert after.required is None
    # ruling 32: a played Jester marks its target for the round
    marks = before.marks
    if card is Card.JESTER and target is not None:
        marks = (*marks, (command.player, target))
    assert after.marks == marks
    # ruling 35: the pair trade hands; the look at one of them is offered
    # (online, ruling 48: no look to offer, the turn goes on)
    if played is not None and card is Card.CARDINAL and target is not None:
        second = played.second_target
        assert second is not None
        hands = list(before.hands)
        left = list(hands[command.player])
        left.remove(Card.CARDINAL)
        hands[command.player] = tuple(left)
        # (the next turn's draw, if one of them draws, comes after the card held)
        assert after.hands[target][:1] == hands[second] and after.hands[second][:1] == hands[target]
        if is_online(before):
            assert after.decision is not Decision.LOOK and after.pending == ()
        else:
            assert after.decision is Decision.LOOK and after.pending == (target, second)
            assert after.to_act == command.player
    # ruling 27: a correct number offers the target a redraw, unless it won
    if card is Card.BISHOP and any(isinstance(e, RedrawOffered) for e in expected):
        if after.is_over:
            assert not any(isinstance(e, RedrawOffered) for e in events)
        else:
            assert after.decision is Decision.REDRAW and after.pending == (target,)
            assert after.to_act == target and after.current == command.player
    if played is None and playing:
        # the optional step was answered: the turn went on
        assert after.decision not in (Decision.LOOK, Decision.REDRAW)


def check_sightings(before: GameState, events: tuple[Event, ...], after: GameState) -> None:
    """priest.look-secretly, baron.secret-comparison, king.trade-hands,
    baroness.*, cardinal.*, dowager-queen.secret-comparison: what each
    player is shown is recorded for them alone, with the turn and the card
    that showed it."""
    turn = before.turn_number
    hands = list(before.hands)
    seen: list[Sighting] = []
    for event in events:
        if isinstance(event, CardPlayed):
            rest = list(hands[event.player])
            rest.remove(event.card)
            hands[event.player] = tuple(rest)
        elif isinstance(event, HandSeen):
            assert event.card is not None
            if event.viewer != event.owner:  # a Cardinal's look at one's own new hand
                seen.append(Sighting(event.viewer, event.owner, event.card, turn, event.via))
        elif isinstance(event, HandsCompared):
            assert event.player_card is not None and event.opponent_card is not None
            seen.append(
                Sighting(event.player, event.opponent, event.opponent_card, turn, event.via)
            )
            seen.append(Sighting(event.opponent, event.player, event.player_card, turn, event.via))
        elif isinstance(event, HandsTraded):
            # each side learns what the other now holds: what it gave
            mine, theirs = hands[event.player], hands[event.opponent]
            seen += [Sighting(event.player, event.opponent, c, turn, event.via) for c in mine]
            seen += [Sighting(event.opponent, event.player, c, turn, event.via) for c in theirs]
            hands[event.player], hands[event.opponent] = theirs, mine
    assert after.sightings == (*before.sightings, *seen), (
        f"sightings {after.sightings[len(before.sightings) :]}, rules give {seen} for {events}"
    )


def check_award_steps(
    before: GameState, command: Command, events: tuple[Event, ...], after: GameState
) -> None:
    """game.immediate-win, game.tie-break-round, constable.knocked-out-token,
    bishop.correct-number-token, round.winner-token, spy.*, jester.* and
    game.tokens-to-win / game.simultaneous-winners: every token has its
    cause, and after each award step (ruling 30) the game ends, is tied or
    goes on as the rules say.

    The steps: a Bishop's correct number; a knock-out's Constable token
    when the knock-out does not end the round; the end of a round (round
    wins, Spy, Jester, and the Constable token of the knock-out that ended
    it)."""
    if is_online(before):
        check_online_awards(before, command, events, after)
        return
    name = before.ruleset.name
    n = before.players
    threshold = tokens_to_win(before)
    tokens = list(before.tokens)
    contenders = before.contenders
    piles = [list(p) for p in before.discards]
    out = set(before.out)
    marks = before.marks
    if isinstance(command, PlayCard) and command.card is Card.JESTER and command.target is not None:
        marks = (*marks, (command.player, command.target))
    carried: list[int] = []
    position = 0

    def award(player: int, reason: TokenReason) -> None:
        nonlocal position
        event = events[position] if position < len(events) else None
        assert event == TokenAwarded(player, reason, tokens[player] + 1), (
            f"expected a {reason} token for {player}, the engine gave {event}"
        )
        tokens[player] += 1
        position += 1

    def step(gained: list[int]) -> bool:
        """The outcome of an award step; whether the game ended."""
        nonlocal position, contenders
        if contenders:
            reached = tuple(sorted({p for p in gained if p in contenders}))
        else:
            reached = tuple(p for p in range(n) if tokens[p] >= threshold)
        event = events[position] if position < len(events) else None
        if not reached:
            assert not isinstance(event, GameEnded | GameTied), f"{event} with no one at the goal"
            return False
        if len(reached) == 1 or name != PREMIUM:
            assert event == GameEnded(reached), f"expected GameEnded{reached}, got {event}"
            assert position == len(events) - 1, "events after the end of the game"
            return True
        assert event == GameTied(reached), f"expected GameTied{reached}, got {event}"
        contenders = reached
        position += 1
        return False

    while position < len(events):
        event = events[position]
        position += 1
        if isinstance(event, CardPlayed | CardDiscarded):
            piles[event.player].append(event.card)
        elif isinstance(event, PlayerEliminated):
            # ruling 29: the Constable counts if it lay in the pile before the
            # knock-out (not the card the knock-out itself discards)
            gained = []
            if name == PREMIUM and Card.CONSTABLE in piles[event.player]:
                award(event.player, TokenReason.CONSTABLE)
                gained.append(event.player)
            piles[event.player].extend(event.discarded)
            out.add(event.player)
            if n - len(out) < 2:
                assert isinstance(events[position], RoundEnded), "one player left, round goes on"
                carried = gained
            elif gained and step(gained):
                break
        elif isinstance(event, TokenAwarded):
            # only the Bishop awards outside the steps above
            assert event.reason is TokenReason.BISHOP, f"unexplained token {event}"
            assert isinstance(command, PlayCard) and command.card is Card.BISHOP
            position -= 1
            award(command.player, TokenReason.BISHOP)
            if step([command.player]):
                break
        elif isinstance(event, RoundEnded):
            gained = list(carried)
            for p in event.winners:
                award(p, TokenReason.ROUND_WIN)
                gained.append(p)
            for p in round_end_bonuses(before, after, event, marks):
                award(p, _bonus_reason(name))
                gained.append(p)
            if step(gained):
                break
        else:
            assert not isinstance(event, GameEnded | GameTied), f"unexplained {event}"
    assert tuple(tokens) == after.tokens, f"tokens {after.tokens}, rules give {tuple(tokens)}"
    assert after.contenders == contenders


def check_online_awards(
    before: GameState, command: Command, events: tuple[Event, ...], after: GameState
) -> None:
    """game.win-counter-online and the partial wins (ruling 46): every
    rank-1 player of a round adds one; a correct Bishop number adds one at
    once (bishop.partial-win-online); a player going out with a Constable
    already in their pile adds one (constable.partial-win-online), once
    whatever the copies; after the ranks, each Jester played whose WATCHED
    player ranks 1 adds one to its player if still present
    (jester.partial-win-online); a player who has left gains nothing
    (online.leave-any-time). No count ends the match (game.no-end-online):
    only fewer than two players present close it, with no winner."""
    tokens = list(before.tokens)
    piles = [list(p) for p in before.discards]
    left = set(before.table.left)
    marks = before.marks
    if isinstance(command, PlayCard) and command.card is Card.JESTER and command.target is not None:
        marks = (*marks, (command.player, command.target))
    position = 0

    def award(player: int, reason: TokenReason) -> None:
        nonlocal position
        event = events[position] if position < len(events) else None
        assert player not in left, f"{player} left the match and gains a {reason} token"
        assert event == TokenAwarded(player, reason, tokens[player] + 1), (
            f"expected a {reason} partial win for {player}, the engine gave {event}"
        )
        tokens[player] += 1
        position += 1

    while position < len(events):
        event = events[position]
        position += 1
        if isinstance(event, PlayerLeft):
            left.add(event.player)
        elif isinstance(event, CardPlayed | CardDiscarded):
            piles[event.player].append(event.card)
        elif isinstance(event, PlayerEliminated):
            # "not the last card": the Constable lay in the pile before the
            # going out put the hand there
            if event.player not in left and Card.CONSTABLE in piles[event.player]:
                award(event.player, TokenReason.CONSTABLE)
            piles[event.player].extend(event.discarded)
        elif isinstance(event, TokenAwarded):
            assert event.reason is TokenReason.BISHOP, f"unexplained token {event}"
            assert isinstance(command, PlayCard) and command.card is Card.BISHOP
            position -= 1
            award(command.player, TokenReason.BISHOP)
        elif isinstance(event, RoundEnded):
            ranks = event.ranks
            assert ranks is not None, f"{event} has no ranks"
            assert event.winners == tuple(p for p, rank in enumerate(ranks) if rank == 1)
            for p in event.winners:
                award(p, TokenReason.ROUND_WIN)
            for jester, watched in marks:
                if ranks[watched] == 1 and jester not in left:
                    award(jester, TokenReason.JESTER)
        elif isinstance(event, GameEnded):
            # game.no-end-online: the match closes, with no winner
            assert event.winners == () and position == len(events), f"{event} in {events}"
            assert after.decision is Decision.GAME_OVER
            assert len([p for p in range(before.players) if p not in left]) < 2
        else:
            assert not isinstance(event, GameTied), f"{event} in an online match"
    assert tuple(tokens) == after.tokens, f"counters {after.tokens}, rules give {tuple(tokens)}"
    assert after.winners == () and after.contenders == ()


def _bonus_reason(name: str) -> TokenReason:
    return TokenReason.JESTER if name == PREMIUM else TokenReason.SPY


def round_end_bonuses(
    before: GameState, after: GameState, ended: RoundEnded, marks: tuple[tuple[int, int], ...]
) -> list[int]:
    """The cards' round-end tokens, after the round wins. 2019: the only
    player in the round with a Spy in their pile (spy.sole-spy-token, ruling
    10). Premium: each Jester's player whose marked player won the round,
    out of the round or not (ruling 32)."""
    if before.ruleset.name == PREMIUM:
        return [jester for jester, marked in marks if marked in ended.winners]
    live = after.live_players()
    spies = [p for p in live if Card.SPY in after.discards[p]]
    return spies if len(spies) == 1 else []


def showdown_winners(
    ruleset: str, revealed: tuple[tuple[int, Card], ...], discards: tuple[tuple[Card, ...], ...]
) -> tuple[int, ...]:
    """round.highest-card-wins, round.tie-all-win; Premium (ruling 28):
    count.showdown-bonus, round.tie-discard-sum, bishop.princess-beats-bishop."""
    values = VALUES[ruleset]
    if ruleset != PREMIUM:
        best = max(values[card] for _, card in revealed)
        return tuple(p for p, card in revealed if values[card] == best)

    def number(p: int, card: Card) -> int:
        return values[card] + discards[p].count(Card.COUNT)

    def total(p: int) -> int:
        return sum(values[c] for c in discards[p])

    def beats(a: int, a_card: Card, b: int, b_card: Card) -> bool:
        if a_card is Card.PRINCESS and b_card is Card.BISHOP:
            return True
        if a_card is Card.BISHOP and b_card is Card.PRINCESS:
            return False
        return (number(a, a_card), total(a)) > (number(b, b_card), total(b))

    winners = tuple(
        p
        for p, card in revealed
        if not any(beats(q, other, p, card) for q, other in revealed if q != p)
    )
    if winners:
        return winners
    # everyone is beaten by someone: a cycle through the Princess and the Bishop
    holders = tuple(p for p, card in revealed if card is Card.PRINCESS)
    assert holders and any(card is Card.BISHOP for _, card in revealed)
    return holders


def check_round_end(
    before: GameState, command: Command, events: tuple[Event, ...], after: GameState
) -> None:
    """round.*: why the round ended, who won it, what was shown (the tokens
    are :func:`check_award_steps`'s)."""
    if is_online(after):
        check_online_round_end(events, after)
        return
    result = after.round_result
    assert result is not None
    (ended,) = [e for e in events if isinstance(e, RoundEnded)]
    assert (ended.reason, ended.winners, ended.revealed) == (
        result.reason,
        result.winners,
        result.revealed,
    )
    live = after.live_players()
    if len(live) == 1:
        # round.end-one-player-left: the survivor wins; ruling 14: not shown
        assert result.reason is RoundEndReason.ONE_PLAYER_LEFT
        assert result.winners == live
        assert result.revealed == ()
    else:
        # round.end-deck-empty, round.highest-card-wins, round.tie-all-win,
        # round.tie-discard-sum, count.showdown-bonus, bishop.princess-beats-bishop
        assert result.reason is RoundEndReason.DECK_EMPTY
        assert after.deck == ()
        assert result.revealed == tuple((p, after.hands[p][0]) for p in live)
        expected = showdown_winners(after.ruleset.name, result.revealed, after.discards)
        assert result.winners == expected, f"winners {result.winners}, rules give {expected}"
    assert after.decision is (Decision.GAME_OVER if after.is_over else Decision.NEXT_ROUND)


def pile_total(state: GameState, player: int) -> int:
    """round.tie-discard-sum: the printed numbers in the player's pile."""
    values = VALUES[state.ruleset.name]
    return sum(values[card] for card in state.discards[player])


def adjusted_hand_value(state: GameState, player: int, live: Sequence[int]) -> int:
    """round.hand-bonus-online (ruling 45), 004's formula: the printed
    number of the card in hand, one per Count in the holder's own pile, and
    four more for the Princess while another player holds a Bishop, or for
    the Countess or the Dowager Queen with at least two Counts in the pile
    while another player holds the Princess and another a Bishop whose
    pile total is lower than the holder's."""
    (card,) = state.hands[player]
    counts = state.discards[player].count(Card.COUNT)
    others = {q: state.hands[q][0] for q in live if q != player}
    held = set(others.values())
    lifted = card is Card.PRINCESS and Card.BISHOP in held
    if card in (Card.COUNTESS, Card.DOWAGER_QUEEN) and counts >= 2 and Card.PRINCESS in held:
        mine = pile_total(state, player)
        lifted = lifted or any(
            c is Card.BISHOP and pile_total(state, q) < mine for q, c in others.items()
        )
    return VALUES[ONLINE][card] + counts + (4 if lifted else 0)


def online_ranks(state: GameState) -> tuple[int | None, ...]:
    """round.ranks-online (rulings 44, 45): at a round's end, the players
    still in by adjusted hand value, then pile total, sports numbering (1,
    1, 3); alone, rank 1 without comparison; the players who went out below
    them, each ranked by how many were in the round just before they went
    out; the players not dealt in (they had left) no rank."""
    dealt = state.table.order
    live = [p for p in dealt if p not in state.out]
    assert set(live).isdisjoint(state.exits) and {*live, *state.exits} == set(dealt)
    ranks: list[int | None] = [None] * state.players
    if len(live) == 1:
        ranks[live[0]] = 1
    else:
        score = {p: (adjusted_hand_value(state, p, live), pile_total(state, p)) for p in live}
        for p in live:
            ranks[p] = 1 + sum(score[q] > score[p] for q in live)
    for index, p in enumerate(state.exits):
        ranks[p] = len(dealt) - index
    return tuple(ranks)


def check_online_round_end(events: tuple[Event, ...], after: GameState) -> None:
    """round.end-pile-online, round.end-one-player-left, round.ranks-online:
    why the round ended, what was shown, every rank (the counters are
    :func:`check_online_awards`')."""
    result = after.round_result
    assert result is not None
    (ended,) = [e for e in events if isinstance(e, RoundEnded)]
    assert (ended.reason, ended.winners, ended.revealed, ended.ranks) == (
        result.reason,
        result.winners,
        result.revealed,
        result.ranks,
    )
    live = [p for p in after.table.order if p not in after.out]
    if len(live) == 1:
        assert result.reason is RoundEndReason.ONE_PLAYER_LEFT
        assert result.revealed == ()
    else:
        assert result.reason is RoundEndReason.DECK_EMPTY
        assert len(after.deck) <= 1, f"the round ended with {len(after.deck)} cards in the pile"
        assert result.revealed == tuple((p, after.hands[p][0]) for p in sorted(live))
    expected = online_ranks(after)
    assert result.ranks == expected, f"ranks {result.ranks}, rules give {expected}"
    assert result.winners == tuple(p for p, rank in enumerate(expected) if rank == 1)
    closed = len(present_seats(after)) < 2
    assert after.decision is (Decision.GAME_OVER if closed else Decision.NEXT_ROUND)


def check_new_round(
    before: GameState, command: StartRound, events: tuple[Event, ...], after: GameState
) -> None:
    """round.next-first-player(-tie-random), round.new-round-setup,
    game.tie-break-round (only the tied players are dealt in)."""
    started = events[0]
    assert isinstance(started, RoundStarted)
    assert started.round_number == before.round_number + 1
    if is_online(before):
        order = next_order(before, command)
        assert started.order == order, f"order {started.order}, ruling 43 gives {order}"
        assert started.first_player == order[0] and order[0] in allowed_first_players(before)
        deck = drawn_deck(before, started.round_number) if command.deck is None else command.deck
        assert started.deck == deck, "not the deck the seed (or the command) gives"
        assert after.tokens == before.tokens and after.table.left == before.table.left
        assert after.round_result is None
        check_deal(after, started)
        return
    allowed = allowed_first_players(before)
    if command.first_player is not None:
        assert started.first_player == command.first_player
    elif len(allowed) == 1:
        assert started.first_player == allowed[0]
    assert started.first_player in allowed
    if command.deck is not None:
        assert started.deck == command.deck
    assert started.seats == (before.contenders or None)
    assert after.tokens == before.tokens
    assert after.contenders == before.contenders
    assert after.round_result is None
    check_deal(after, started)


# --------------------------------------------------------------------------
# timing: when protection lapses and when a round ends

#: the events that keep a turn open after its card's effect: a Chancellor's
#: draw (chancellor.return-bottom-any-order), a Cardinal's look
#: (cardinal.optional-look), a Bishop's redraw (bishop.target-may-redraw)
_STEPS_OF_THE_SAME_TURN = (ChancellorDrew, LookOffered, RedrawOffered)


def leaves_a_step_pending(before: GameState, command: Command) -> bool:
    """Whether the rules keep the turn open once ``command``'s effect is
    done (unless a token wins the game first)."""
    if not isinstance(command, PlayCard):
        return False
    return any(isinstance(e, _STEPS_OF_THE_SAME_TURN) for e in expected_effect(before, command))


def check_protection_timing(
    before: GameState, command: Command, events: tuple[Event, ...], after: GameState
) -> None:
    """handmaid.protection-until-next-turn (rulings 7 and 22): a Handmaid's
    protection starts when she is played and lasts until her player's next
    turn begins, or the round ends: it is lifted neither earlier (another
    player's turn, a knock-out, an optional step) nor later. Online, a
    protected player who leaves is out of the round and protected no more;
    a time-out protects as the move it makes."""
    command, events = unwrap_timeout(before, command, events)
    if isinstance(command, StartRound) or before.round_over:
        assert not after.protected, "protection between rounds or in a new round"
        return
    if any(isinstance(e, RoundEnded) for e in events):
        assert not after.protected, "protection outlived its round (ruling 7)"
        return
    if after.is_over:
        # game.immediate-win: the game stops where it stands, mid-round
        return
    started = {e.player for e in events if isinstance(e, TurnStarted)}
    # from the command, not from the engine's PlayerProtected events
    gained = set()
    if isinstance(command, PlayCard) and command.card is Card.HANDMAID:
        gained.add(command.player)
    expected = ((before.protected - started) | gained) - after.out
    assert after.protected == expected, (
        f"{command}: protected {set(after.protected)}, the rules give {set(expected)} "
        f"(turns started: {started}, Handmaids played: {gained})"
    )


def check_round_end_timing(
    before: GameState, command: Command, events: tuple[Event, ...], after: GameState
) -> None:
    """round.end-deck-empty, round.end-one-player-left (ruling 39) and
    game.immediate-win (ruling 30): a round ends exactly when one of its
    conditions holds, neither earlier nor later. It ends on the spot when a
    knock-out leaves one player (only that knock-out's Constable token
    between them); at the end of a turn when the deck is empty and two or
    more players are left, never in the middle of a turn; in Premium a
    token that wins the game stops it where it stands. Otherwise the turn
    passes on with a card to draw, or waits for a step of the same turn.
    Online (round.end-pile-online) the pile ends the round after a turn that
    leaves it one card or none, and a turn never starts on fewer than two;
    a player leaving ends the turn if it was theirs to act
    (online.leave-any-time)."""
    command, events = unwrap_timeout(before, command, events)
    if isinstance(command, StartRound):
        return
    if isinstance(command, Leave) and before.round_over:
        assert not any(isinstance(e, RoundEnded) for e in events)
        return
    assert not before.round_over, f"{command} accepted between rounds"
    online = is_online(before)
    ended = [e for e in events if isinstance(e, RoundEnded)]
    assert len(ended) <= 1
    live = after.live_players()
    if after.is_over and not ended:
        # game.immediate-win: a Bishop's or a Constable's token won the game
        assert after.ruleset.name == PREMIUM, "a 2019 game only ends with a round"
        kinds = [type(e) for e in events]
        assert kinds[-1] is GameEnded and kinds[-2] is TokenAwarded
        assert len(live) >= 2, "one player left, yet the round did not end"
        return
    if len(live) == 1:
        assert ended, f"{command}: one player is left and the round goes on"
        (end,) = ended
        assert end.reason is RoundEndReason.ONE_PLAYER_LEFT
        stop = events.index(end)
        last_out = max(i for i, e in enumerate(events) if isinstance(e, PlayerEliminated))
        between = events[last_out + 1 : stop]
        assert all(_is_token(e, TokenReason.CONSTABLE) for e in between), (
            f"{command}: {between} happened after the last knock-out, before the round ended"
        )
        return
    pending = leaves_a_step_pending(before, command)
    turn_passed = [i for i, e in enumerate(events) if isinstance(e, TurnStarted)]
    if ended:
        (end,) = ended
        assert end.reason is RoundEndReason.DECK_EMPTY, f"{end} with {len(live)} players left"
        assert len(after.deck) <= (1 if online else 0), (
            f"{command}: the round ended with {len(after.deck)} cards to draw"
        )
        assert not pending, f"{command}: the round ended in the middle of the turn"
        assert not turn_passed, "the round ended after the next turn began"
        return
    if turn_passed:
        (index,) = turn_passed
        drawn = events[index + 1]
        assert isinstance(drawn, CardDrawn) and not drawn.from_set_aside, (
            f"{command}: the deck was empty at the end of the turn and the round went on"
        )
        assert not online or after.deck, f"{command}: a turn started on the pile's last card"
    elif isinstance(command, DrawCard):
        assert after.decision is Decision.PLAY
    elif isinstance(command, Leave):
        # another player's leaving does not end the turn
        assert command.player not in (before.current, before.to_act), (
            f"{command}: the turn of the player who left neither ended nor passed on"
        )
        assert after.decision is before.decision
    else:
        assert pending, f"{command}: the turn neither ended nor waits for a step"
        assert after.decision in (Decision.CHANCELLOR, Decision.LOOK, Decision.REDRAW)


def unwrap_timeout(
    before: GameState, command: Command, events: tuple[Event, ...]
) -> tuple[Command, tuple[Event, ...]]:
    """A time-out as the move it makes (online.timeout-random-move), its
    ``TurnTimedOut`` dropped; any other command as it is."""
    if isinstance(command, TimeOut):
        assert isinstance(events[0], TurnTimedOut)
        return timeout_move(before), events[1:]
    return command, events


def names_the_target(state: GameState, command: Command) -> bool:
    """Whether ``command`` is a Guard's or a Bishop's play that names what its
    target holds (a knock-out; a Bishop's token, game.immediate-win)."""
    if not isinstance(command, PlayCard) or command.target is None or command.guess is None:
        return False
    (held,) = state.hands[command.target]
    name = state.ruleset.name
    return (VALUES[name][held] if names_numbers(name) else held) == command.guess


#: conformance/README.md, "Rejection kinds": the closed list of reasons a
#: command may be refused for
REJECTION_KINDS = frozenset(
    {
        "game-over",
        "wrong-decision",
        "not-your-turn",
        "card-not-in-hand",
        "countess-required",
        "no-such-player",
        "target-required",
        "target-not-allowed",
        "target-out-of-round",
        "target-protected",
        "required-player-not-chosen",
        "guess-required",
        "guess-not-allowed",
        "invalid-choice",
        "invalid-deck",
        "malformed-command",
        # online (docs/online-design.md, "Engine vocabulary")
        "not-in-edition",
        "player-left",
        "random-moves-off",
    }
)


def check_refusal(
    error: ll.IllegalCommand,
    command: Command,
    state: GameState,
    *,
    hash_before: int,
    legal_before: tuple[Command, ...],
) -> None:
    """game.rules-enforced: a refused command is an :class:`IllegalCommand`
    whose kind is on the closed list and is one the rules give
    (:func:`rule_violations`), and it leaves the state identical (equal,
    same hash) and so everything computed from it (its legal commands)."""
    assert type(error) is ll.IllegalCommand, f"{command} refused with {type(error).__name__}"
    assert error.kind.value in REJECTION_KINDS, f"{error.kind!r} is not on the closed list"
    violations = rule_violations(state, command)
    assert error.kind in violations, f"{command} refused as {error.kind}; rules: {violations}"
    assert hash(state) == hash_before, f"refusing {command} changed the state's hash"
    assert ll.legal_commands(state) == legal_before, f"refusing {command} changed legal_commands"


# --------------------------------------------------------------------------
# hidden information


def hidden_fields(event: Event, player: int) -> tuple[str, ...]:
    """Fields of ``event`` that ``player`` must not see (ruling 14)."""
    if isinstance(event, GameStarted):
        return ("seed",)
    if isinstance(event, PositionEstablished):
        return ("position",)
    if isinstance(event, RoundStarted):
        return ("deck",)
    if isinstance(event, CardSetAside):
        return ("card",)
    if isinstance(event, CardDealt | CardDrawn):
        return () if event.player == player else ("card",)
    if isinstance(event, HandSeen):
        # a Priest's, a Baroness's or a Cardinal's look: the viewer alone
        return () if event.viewer == player else ("card",)
    if isinstance(event, HandsCompared):
        # a Baron's or a Dowager Queen's comparison: the two alone
        return () if player in (event.player, event.opponent) else ("player_card", "opponent_card")
    if isinstance(event, ChancellorDrew | CardsReturned):
        return () if event.player == player else ("cards",)
    public = (
        CardRemovedFaceUp,
        TurnStarted,
        CardPlayed,
        CardDiscarded,
        PlayerEliminated,
        PlayerProtected,
        HandsTraded,
        RoundEnded,
        TokenAwarded,
        GameEnded,
        # Premium: the Sycophant's requirement, the Jester's mark, the
        # Assassin's reveal (public, ruling 33), the optional steps offered
        # and declined, a tie for the game
        ChoiceRestricted,
        PlayerMarked,
        CardRevealed,
        LookOffered,
        RedrawOffered,
        OptionDeclined,
        GameTied,
        # online (ruling 53): a player leaving, a time-out
        PlayerLeft,
        TurnTimedOut,
    )
    assert isinstance(event, public), f"new event type {type(event).__name__}: what may it show?"
    return ()


def check_redaction(event: Event, players: int, *, json: bool = False) -> None:
    """Each player's copy hides exactly the fields the rules hide from them."""
    variants: set[Event] = set()
    for player in range(players):
        seen = ll.redact(event, player)
        hidden = hidden_fields(event, player)
        expected = attrs.evolve(event, **dict.fromkeys(hidden)) if hidden else event
        assert type(seen) is type(event)
        assert seen == expected, f"player {player} sees {seen}, should see {expected}"
        if hidden:
            variants.add(seen)
    if json:
        for seen in variants:
            check_json_round_trip(seen)


def known_deck_bottom(state: GameState, player: int) -> tuple[Card | None, ...]:
    """chancellor.return-bottom-any-order: the cards ``player`` put under the
    deck that are still in it, top first down to the bottom card, ``None``
    for the cards others put there below theirs. Returns pile up at the
    bottom, oldest highest; draws take the top, so they eat into the oldest
    returns first."""
    owners = [owner for owner, count in state.returns for _ in range(count)]
    still = owners[max(0, len(owners) - len(state.deck)) :]
    cards = state.deck[len(state.deck) - len(still) :]
    known = [card if owner == player else None for owner, card in zip(still, cards, strict=True)]
    while known and known[0] is None:
        known.pop(0)
    return tuple(known)


def hidden_shuffled(state: GameState, player: int) -> GameState:
    """``state`` with everything ``player`` may not see moved around: the
    other players' hands (same sizes), the deck order (but the cards the
    player put under it), the set-aside card and the seed. Nothing
    ``player`` may know changes."""
    others = [p for p in range(state.players) if p != player]
    known = known_deck_bottom(state, player)
    fixed = {len(state.deck) - len(known) + i for i, card in enumerate(known) if card is not None}
    loose = [i for i in range(len(state.deck)) if i not in fixed]
    hidden = [state.deck[i] for i in loose]
    if state.set_aside is not None:
        hidden.append(state.set_aside)
    for p in others:
        hidden.extend(state.hands[p])
    rest = hidden[1:] + hidden[:1]
    deck = list(state.deck)
    for i in loose:
        deck[i] = rest.pop(0)
    set_aside = rest.pop(0) if state.set_aside is not None else None
    hands = list(state.hands)
    for p in others:
        size = len(hands[p])
        hands[p], rest = tuple(rest[:size]), rest[size:]
    assert not rest
    table = attrs.evolve(state.table, set_aside=set_aside, seed=state.seed + 1)
    return attrs.evolve(state, table=table, deck=tuple(deck), hands=tuple(hands))


def check_views(state: GameState, *, indistinguishable: bool = False) -> None:
    """Each player's view shows what the rules let them know, and (with
    ``indistinguishable``) nothing that depends on what they may not know."""
    assert {f.name for f in attrs.fields(PlayerView)} == VIEW_FIELDS
    legal = ll.legal_commands(state)
    for player in range(state.players):
        view = ll.view(state, player)
        assert view.player == player
        assert view.hand == state.hands[player]
        assert view.hand_sizes == tuple(map(len, state.hands))
        assert view.deck_size == len(state.deck)
        assert view.set_aside_present == (state.set_aside is not None)
        assert view.face_up == state.face_up
        assert view.discards == state.discards
        assert set(view.out) == state.out and set(view.protected) == state.protected
        assert (view.tokens, view.winners, view.decision, view.current) == (
            state.tokens,
            state.winners,
            state.decision,
            state.current,
        )
        assert view.sightings == tuple(s for s in state.sightings if s.viewer == player)
        assert view.round_result == state.round_result
        if view.round_result is not None and (
            view.round_result.reason is RoundEndReason.ONE_PLAYER_LEFT
        ):
            assert view.round_result.revealed == ()
        # public: the Sycophant's requirement, the marks, the tie, the step pending
        assert (view.required, view.marks, view.contenders, view.pending) == (
            state.required,
            state.marks,
            state.contenders,
            state.pending,
        )
        assert view.deck_bottom == known_deck_bottom(state, player)
        # online, public (ruling 53): settings, turn order, who went out in
        # which order, who left
        assert (view.settings, view.order, view.exits, view.left) == (
            state.table.settings,
            state.table.order,
            state.exits,
            tuple(sorted(state.table.left)),
        )
        assert view.legal_commands == (legal if state.to_act == player else ())
        if indistinguishable:
            twin = ll.view(hidden_shuffled(state, player), player)
            assert twin == view, f"player {player}'s view depends on hidden cards"


def check_json_round_trip(value: object) -> None:
    """``loads(dumps(x)) == x``, reading back as the value's own class."""
    back = ll.loads(ll.dumps(value), type(value))
    assert back == value, f"{value} came back from JSON as {back}"
    if isinstance(value, PlayCard | CardPlayed) and value.guess is not None:
        assert type(back.guess) is type(value.guess), f"{value}: the name changed type"


# --------------------------------------------------------------------------
# a game driven step by step


@attrs.frozen
class Checks:
    """Which checks run after every step (the rest run once a game ends)."""

    #: views and the redaction of each new event, for every player
    views: bool = True
    #: JSON round trips of every event, redacted copy and command
    json: bool = True
    #: replay of the whole log and a JSON round trip of the state
    replay: bool = True
    #: views compared with those of the state with hidden cards moved
    indistinguishable_views: bool = True
    #: every PlayCard enumerated to compare the rules with legal_commands
    exhaustive_legal: bool = True


#: every check after every step
ALL_CHECKS = Checks()
#: the cheap per-step checks only; the rest run at the end of each game
CORE_CHECKS = Checks(
    views=False, json=False, replay=False, indistinguishable_views=False, exhaustive_legal=False
)


_STATE_FIELDS = tuple(f.name for f in attrs.fields(GameState))
_TABLE_FIELDS = tuple(f.name for f in attrs.fields(ll.Table))


def _shallow_fields(state: GameState) -> tuple[object, ...]:
    """A cheap snapshot: every field of the state and of its table (all
    tuples, frozensets and other immutable values)."""
    table = state.table
    return (
        *[getattr(state, name) for name in _STATE_FIELDS],
        *[getattr(table, name) for name in _TABLE_FIELDS],
    )


class GameRun:
    """One game, driven command by command and checked at every step.

    ``attempt`` checks the step itself (acceptance, events, immutability);
    ``check_now`` checks the state reached; ``check_finished`` the whole game.
    """

    def __init__(self, setup: GameSetup, checks: Checks) -> None:
        self.setup = setup
        self.checks = checks
        opening = setup.opening()
        self.events: list[Event] = list(opening)
        self.commands: list[Command] = []
        self.state = ll.new_game(
            setup.ruleset,
            setup.players,
            seed=setup.seed,
            first_player=setup.first_player,
            settings=setup.settings,
        )
        if setup.ruleset == ONLINE:
            self._check_online_opening(opening)
        elif setup.tokens is not None:
            # the same deal, described as a position with tokens on the table
            (established,) = opening
            assert isinstance(established, PositionEstablished)
            assert established.position is not None
            self.state = ll.from_position(established.position)
            assert self.state.tokens == setup.tokens
            assert self.state.contenders == setup.contenders
            assert ll.replay(opening) == self.state
        else:
            started, dealt = opening[0], opening[1]
            assert setup.first_player is not None
            assert started == GameStarted(
                setup.ruleset, setup.players, setup.seed, setup.first_player
            )
            assert isinstance(dealt, RoundStarted)
            assert dealt.first_player == setup.first_player and dealt.round_number == 1
            assert dealt.seats is None
            assert ll.replay(opening) == self.state
            assert self.state.tokens == (0,) * setup.players
            check_deal(self.state, dealt)
            assert self.state.contenders == ()
        self._check_new_events(opening)
        self.accepted = 0
        self.rejected = 0
        #: how often each kind of step was seen (for coverage reports)
        self.seen: Counter[str] = Counter()
        #: rounds in which the set-aside card was drawn (ruling 38: once at most)
        self.set_aside_drawn: set[int] = set()

    def _check_online_opening(self, opening: tuple[Event, ...]) -> None:
        """setup.turn-order-online, setup.shuffle, ruling 52: the first
        round's order and deck are the seed's (a named first player swapped
        in), the settings are recorded, every counter starts at 0."""
        setup = self.setup
        assert setup.settings is not None
        order = first_order(setup.players, setup.seed, setup.first_player)
        started, dealt = opening[0], opening[1]
        assert started == GameStarted(ONLINE, setup.players, setup.seed, order[0], setup.settings)
        assert isinstance(dealt, RoundStarted) and dealt.round_number == 1
        assert dealt.order == order, f"order {dealt.order}, ruling 43 gives {order}"
        assert dealt.deck == drawn_deck(self.state, 1), "not the deck the seed gives"
        assert ll.replay(opening) == self.state
        assert self.state.tokens == (0,) * setup.players
        assert self.state.table.settings == setup.settings and not self.state.table.left
        check_deal(self.state, dealt)

    def attempt(self, command: Command) -> ll.IllegalCommand | None:
        """Give ``command``; return the rejection, if any, once checked."""
        self.commands.append(command)
        before = self.state
        violations = rule_violations(before, command)
        listed = is_listed(command, ll.legal_commands(before))
        if listed:
            assert not violations, f"{command} is listed but breaks the rules: {violations}"
        if violations:
            # expected to be refused: keep a deep copy and the JSON to compare
            kept = copy.deepcopy(before, {id(before.ruleset): before.ruleset})
            kept_json = ll.dumps(before)
        else:
            fields = _shallow_fields(before)
        try:
            events = ll.decide(before, command)
        except ll.IllegalCommand as error:
            assert not listed, f"listed command {command} rejected: {error}"
            assert isinstance(error.kind, RejectionKind)
            assert violations, f"{command} rejected ({error}) though the rules allow it"
            assert error.kind in violations, (
                f"{command} rejected as {error.kind}; the rules object {set(violations)}"
            )
            # rejected: nothing changed, and the caller's object is intact
            assert self.state is before and before == kept
            assert ll.dumps(before) == kept_json
            self.rejected += 1
            self.seen[f"rejected {error.kind.value}"] += 1
            if self.checks.json:
                check_json_round_trip(command)
            return error
        assert not violations, f"{command} was accepted though the rules object {violations}"
        assert listed or accepted_though_not_listed(before, command), (
            f"{command} was accepted but is not a legal command"
        )
        after = ll.push(before, command)
        assert ll.step(before, command) == (after, events)
        assert reduce(ll.evolve, events, before) == after, "evolve fold differs from push"
        assert _shallow_fields(before) == fields, "the engine changed the state it was given"
        check_transition(before, command, events, after)
        self.state = after
        self.events.extend(events)
        self.accepted += 1
        self.seen.update(type(e).__name__ for e in events)
        if any(isinstance(e, CardDrawn) and e.from_set_aside for e in events):
            assert before.round_number not in self.set_aside_drawn, "set-aside card drawn twice"
            self.set_aside_drawn.add(before.round_number)
        self._check_new_events(events)
        if self.checks.json:
            check_json_round_trip(command)
        return None

    def _check_new_events(self, events: Iterable[Event]) -> None:
        if not self.checks.views:
            return
        for event in events:
            check_redaction(event, self.setup.players, json=self.checks.json)
            if self.checks.json:
                check_json_round_trip(event)

    def check_now(self) -> None:
        """The state reached follows the rules; every listed command is
        accepted; only the player to act may act."""
        state = self.state
        check_state(state)
        for command in ll.legal_commands(state):
            ll.decide(state, command)
        if self.checks.exhaustive_legal or state.decision in (Decision.LOOK, Decision.REDRAW):
            check_one_actor(state)
        if self.checks.views:
            check_views(state, indistinguishable=self.checks.indistinguishable_views)
        if self.checks.exhaustive_legal:
            check_legal_commands_complete(state)
        if self.checks.replay:
            # The fold of the log at every step; the checked replay (which
            # decides every command again) runs once on the whole game in
            # check_finished, and passes through each of these prefixes.
            assert fold(self.events) == state, "the fold of the log differs from the state"
            check_json_round_trip(state)

    def check_finished(self) -> None:
        """At game over: the whole log replays to the state; each player's
        stream is the log redacted event by event; whatever was not checked
        at every step is checked once now; every command is refused."""
        state = self.state
        assert state.is_over
        assert ll.replay(self.events) == state
        check_json_round_trip(state)
        check_views(state, indistinguishable=True)
        for player in range(state.players):
            mine = ll.events_for(player, self.events)
            assert mine == tuple(ll.redact(e, player) for e in self.events)
            check_json_round_trip(ll.view(state, player))
        if not self.checks.views:
            for event in self.events:
                check_redaction(event, state.players)
        after_the_end: list[Command] = [
            StartRound(),
            PlayCard(state.current, Card.GUARD, None, None),
            Decline(state.current),
        ]
        if is_online(state):
            after_the_end += [Leave(p) for p in present_seats(state)]
            after_the_end.append(TimeOut(state.current))
        for command in after_the_end:
            try:
                ll.decide(state, command)
            except ll.IllegalCommand as error:
                assert error.kind is R.GAME_OVER
            else:
                raise AssertionError(f"{command} accepted after the game ended")

    def describe(self) -> str:
        """The game so far, for a failure report."""
        lines = [f"{self.setup}"]
        lines += [f"  {index}: {command}" for index, command in enumerate(self.commands)]
        return "\n".join(lines)
