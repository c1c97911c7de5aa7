"""Strategies and invariant checks shared by the whole-game properties.

The oracles below are written from the spec (``spec/editions.yaml``,
``spec/rules/*.yaml``, ``spec/rulings.yaml``, ``docs/premium-design.md``),
not read from the engine's own tables: deck compositions per player count,
card values, whom each card chooses, what a Guard or a Bishop may name,
token thresholds, the showdown order, the award steps, what each card's
effect does and who sees what are restated here, so a wrong table in the
engine shows up as a failed property instead of being copied into the test.

Only the public API is used (``loveletter``, ``loveletter.commands``,
``loveletter.events``).
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from enum import Enum
from functools import cache, reduce
from itertools import combinations, permutations
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
    LookAtHand,
    PlayCard,
    Redraw,
    StartRound,
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
)
from loveletter.evolution import apply_events, initial_state

R = RejectionKind
T = TypeVar("T")

# --------------------------------------------------------------------------
# facts from the spec

PREMIUM = "premium"
RULESET_NAMES = ("2019", "2019-classic", PREMIUM)

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
}


class Chooses(Enum):
    """Whom a card makes its player choose (docs/premium-design.md,
    "Whom each card chooses")."""

    NO_ONE = "no one"
    OTHER = "one other player"
    ANY = "one player, oneself included"
    PAIR = "exactly two distinct players, oneself included"
    ONE_OR_TWO_OTHERS = "one or two distinct other players"


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


def full_deck(ruleset: str, players: int) -> Counter[Card]:
    """setup.deck-*: the cards of a round of ``players``."""
    if ruleset == "2019":
        return _DECK_2019
    if ruleset == "2019-classic":
        return _DECK_CLASSIC
    return _DECK_PREMIUM_SMALL if players <= 4 else _DECK_PREMIUM_FULL


@cache
def edition_kinds(ruleset: str) -> frozenset[Card]:
    """Every kind the edition uses at some player count (a card of another
    edition is a malformed command)."""
    return frozenset().union(*(full_deck(ruleset, n) for n in PLAYER_COUNTS[ruleset]))


def names_numbers(ruleset: str) -> bool:
    """Premium names numbers (JSON integers); 2019 names cards."""
    return ruleset == PREMIUM


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


def scaled_examples(share: float) -> int:
    """``share`` times the active profile's ``max_examples`` (at least 1), so
    per-test budgets follow the profile chosen with ``HYPOTHESIS_PROFILE``."""
    profile = settings.default
    assert profile is not None
    return max(1, round(profile.max_examples * share))


# --------------------------------------------------------------------------
# strategies


@attrs.frozen
class GameSetup:
    """A game to play: from its first deal, or (``tokens``) from the same
    deal described as a position where the players already hold tokens."""

    ruleset: str
    players: int
    seed: int
    first_player: int
    #: tokens at the start: an endgame, where immediate wins, ties for the
    #: game and tie-break rounds come quickly
    tokens: tuple[int, ...] | None = None
    #: Premium: start in a tie-break round between these players (ruling 31);
    #: the others' dealt cards go under the deck
    contenders: tuple[int, ...] = ()

    def opening(self) -> tuple[Event, ...]:
        events = ll.start_game(
            self.ruleset, self.players, seed=self.seed, first_player=self.first_player
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
        tuple(sorted(full_deck(name, n).elements())): None
        for name in RULESET_NAMES
        for n in PLAYER_COUNTS[name]
    }
)


def choose_deck(choices: Choices, ruleset: str, players: int) -> tuple[Card, ...]:
    """A stacked deck: usually a valid order of this game's cards, else
    another edition's or player count's cards, or random cards."""
    kind = choices.integer(0, 3)
    mine = full_deck(ruleset, players)
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
    deck = choose_deck(choices, state.ruleset.name, state.players) if _maybe(choices) else None
    first = choose_seat(choices, state) if _maybe(choices) else None
    return StartRound(deck, first)


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
    if legal:
        # one choice: four chances in five of a legal command, picked uniformly
        choice = choices.integer(0, 5 * len(legal) - 1)
        if choice < 4 * len(legal):
            return legal[choice // 4]
    return choose_random_command(choices, state)


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
    return result.winners


def rule_violations(state: GameState, command: Command) -> frozenset[RejectionKind]:
    """Every reason the rules give to refuse ``command`` now; empty when the
    rules allow it. The engine must report one of these reasons (it may
    pick any, the order of its checks is its own business), except that a
    card the edition does not have is malformed before anything else
    (conformance/README.md: a field of the wrong type is reported first)."""
    if isinstance(command, PlayCard) and command.card not in edition_kinds(state.ruleset.name):
        return frozenset({R.MALFORMED_COMMAND})
    if state.is_over:
        return frozenset({R.GAME_OVER})
    if state.decision not in ANSWERS[type(command)]:
        return frozenset({R.WRONG_DECISION})
    found: set[RejectionKind] = set()
    if isinstance(command, StartRound):
        if command.deck is not None and Counter(command.deck) != full_deck(
            state.ruleset.name, state.players
        ):
            found.add(R.INVALID_DECK)
        if command.first_player is not None and (
            command.first_player not in allowed_first_players(state)
        ):
            found.add(R.INVALID_CHOICE)
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
    if chooses in (Chooses.ANY, Chooses.PAIR):
        seats = sorted((*seats, player))
    return seats


def _choice_exists(state: GameState, player: int, chooses: Chooses) -> bool:
    """Whether the card has any legal choice (targeting.choose-impossible-no-effect):
    one choosable player (two for the Cardinal), the Sycophant's required
    player among them."""
    seats = choosable(state, player, chooses)
    required = state.required
    if required is not None and required not in seats:
        return False
    return len(seats) >= (2 if chooses is Chooses.PAIR else 1)


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
    if second is None and chooses is Chooses.PAIR:
        return False
    if second is not None and (chooses in (Chooses.OTHER, Chooses.ANY) or second <= target):
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
    chooses = CHOOSES.get(card, Chooses.NO_ONE)
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
        chooses in (Chooses.OTHER, Chooses.ANY) or (target is not None and second <= target)
    ):
        found.add(R.TARGET_NOT_ALLOWED)
    if second is None and target is not None and chooses is Chooses.PAIR:
        found.add(R.TARGET_REQUIRED)
    for seat in (target, second):
        if seat is None:
            continue
        if not 0 <= seat < state.players:
            found.add(R.NO_SUCH_PLAYER)
        elif seat == player:
            if chooses not in (Chooses.ANY, Chooses.PAIR):
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
    (documented in ``legal_commands``)."""
    return isinstance(command, StartRound) and not rule_violations(state, command)


# --------------------------------------------------------------------------
# state invariants


def check_state(state: GameState) -> None:
    """Everything that must hold of any state reached by play."""
    name = state.ruleset.name
    n = state.players
    deck = full_deck(name, n)
    # cards are conserved across all zones
    assert state.card_count() == len(state.ruleset.deck_for(n)) == deck.total()
    zones: list[Card] = [*state.deck, *state.face_up]
    if state.set_aside is not None:
        zones.append(state.set_aside)
    for hand in state.hands:
        zones.extend(hand)
    for pile in state.discards:
        zones.extend(pile)
    assert Counter(zones) == deck, f"cards not conserved: {Counter(zones)} != {deck}"
    assert len(state.face_up) == FACE_UP_COUNT.get(n, 0)
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
    if state.ruleset.name != PREMIUM:
        assert state.required is None and state.marks == () and state.contenders == ()
    jesters = Counter(j for j, _ in state.marks)
    for jester, count in jesters.items():
        assert state.discards[jester].count(Card.JESTER) >= count


def check_tokens(state: GameState) -> None:
    """game.tokens-to-win(-premium), game.simultaneous-winners (2019),
    game.immediate-win and game.tie-break-round (Premium)."""
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
    the Baroness; those including the Sycophant's required player; none
    (``(None, None)``) when that leaves nothing."""
    if chooses is Chooses.NO_ONE:
        return [(None, None)]
    seats = choosable(state, player, chooses)
    options: list[tuple[int | None, int | None]] = []
    if chooses in (Chooses.OTHER, Chooses.ANY, Chooses.ONE_OR_TWO_OTHERS):
        options += [(p, None) for p in seats]
    if chooses in (Chooses.PAIR, Chooses.ONE_OR_TWO_OTHERS):
        options += list(combinations(seats, 2))
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
        for target, second in choice_options(state, player, CHOOSES.get(card, Chooses.NO_ONE)):
            names = namable(name, state.players, card) if target is not None else ()
            if names:
                plays.update(PlayCard(player, card, target, guess, second) for guess in names)
            else:
                plays.add(PlayCard(player, card, target, None, second))
    return frozenset(plays)


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
        chooses = CHOOSES.get(card, Chooses.NO_ONE)
        names = namable(name, state.players, card)
        some: tuple[Card | int | None, ...] = (
            (None, names[-1], Card.PRINCESS if numbers else 8)
            if names
            else (None, 2 if numbers else Card.PRIEST)
        )
        two = chooses in (Chooses.PAIR, Chooses.ONE_OR_TWO_OTHERS)
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


# --------------------------------------------------------------------------
# transitions


def check_transition(
    before: GameState, command: Command, events: tuple[Event, ...], after: GameState
) -> None:
    """What must hold of one accepted command's events and its outcome."""
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
            assert event.player == _next_seat(before.current, before.players, after.out)
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
        return [HandsTraded(target, second, Card.CARDINAL), LookOffered(player, (target, second))]
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
    if played is not None and card is Card.CARDINAL and target is not None:
        second = played.second_target
        assert second is not None
        hands = list(before.hands)
        left = list(hands[command.player])
        left.remove(Card.CARDINAL)
        hands[command.player] = tuple(left)
        assert after.hands[target] == hands[second] and after.hands[second] == hands[target]
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


def check_new_round(
    before: GameState, command: StartRound, events: tuple[Event, ...], after: GameState
) -> None:
    """round.next-first-player(-tie-random), round.new-round-setup,
    game.tie-break-round (only the tied players are dealt in)."""
    started = events[0]
    assert isinstance(started, RoundStarted)
    assert started.round_number == before.round_number + 1
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
    player's turn, a knock-out, an optional step) nor later."""
    if isinstance(command, StartRound):
        assert not after.protected, "a new round starts with protection"
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
    expected = (before.protected - started) | gained
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
    passes on with a card to draw, or waits for a step of the same turn."""
    if isinstance(command, StartRound):
        return
    assert not before.round_over, f"{command} accepted between rounds"
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
        assert not after.deck, f"{command}: the round ended with {len(after.deck)} cards to draw"
        assert not pending, f"{command}: the round ended in the middle of the turn"
        assert not turn_passed, "the round ended after the next turn began"
        return
    if turn_passed:
        (index,) = turn_passed
        drawn = events[index + 1]
        assert isinstance(drawn, CardDrawn) and not drawn.from_set_aside, (
            f"{command}: the deck was empty at the end of the turn and the round went on"
        )
    elif isinstance(command, DrawCard):
        assert after.decision is Decision.PLAY
    else:
        assert pending, f"{command}: the turn neither ended nor waits for a step"
        assert after.decision in (Decision.CHANCELLOR, Decision.LOOK, Decision.REDRAW)


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
            setup.ruleset, setup.players, seed=setup.seed, first_player=setup.first_player
        )
        if setup.tokens is not None:
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
        for command in (
            StartRound(),
            PlayCard(state.current, Card.GUARD, None, None),
            Decline(state.current),
        ):
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
