"""Strategies and invariant checks shared by the whole-game properties.

The oracles below are written from the spec (``spec/editions.yaml``,
``spec/rules/*.yaml``, ``spec/rulings.yaml``), not read from the engine's own
tables: deck compositions, card values, whom each card chooses, token
thresholds and who sees what are restated here, so a wrong table in the
engine shows up as a failed property instead of being copied into the test.

Only the public API is used (``loveletter``, ``loveletter.commands``,
``loveletter.events``).
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from functools import reduce
from itertools import permutations
from typing import Protocol, TypeVar

import attrs
from hypothesis import settings
from hypothesis import strategies as st

import loveletter as ll
from loveletter import Card, Decision, GameState, PlayerView, RejectionKind
from loveletter.commands import Command, DrawCard, KeepCard, PlayCard, StartRound
from loveletter.events import (
    CardDealt,
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardRemovedFaceUp,
    CardSetAside,
    CardsReturned,
    ChancellorDrew,
    Event,
    GameEnded,
    GameStarted,
    HandsCompared,
    HandSeen,
    HandsTraded,
    PlayerEliminated,
    PlayerProtected,
    PositionEstablished,
    RoundEnded,
    RoundEndReason,
    RoundStarted,
    TokenAwarded,
    TokenReason,
    TurnStarted,
)

R = RejectionKind
T = TypeVar("T")

# --------------------------------------------------------------------------
# facts from the spec

RULESET_NAMES = ("2019", "2019-classic")

#: spec/editions.yaml: deck composition per edition
COMPOSITION: dict[str, Counter[Card]] = {
    "2019": Counter(
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
    ),
    "2019-classic": Counter(
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
    ),
}
#: setup.player-count
PLAYER_COUNTS: dict[str, tuple[int, ...]] = {"2019": (2, 3, 4, 5, 6), "2019-classic": (2, 3, 4)}
#: game.tokens-to-win (the same table for both editions)
TOKENS_TO_WIN = {2: 6, 3: 5, 4: 4, 5: 3, 6: 3}
#: setup.card-values (both editions use the 2019 values)
VALUES: dict[Card, int] = {
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
#: targeting.other-player: these cards choose another player in the round
CHOOSE_OTHER = frozenset({Card.GUARD, Card.PRIEST, Card.BARON, Card.KING})
#: prince.any-player: the Prince chooses any player in the round, oneself included
CHOOSE_ANY = frozenset({Card.PRINCE})
#: countess.forced-by-king-or-prince
COUNTESS_FORCERS = frozenset({Card.KING, Card.PRINCE})
#: setup.two-player-face-up
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
    }
)

#: the decision each command answers
ANSWERS: dict[type[Command], Decision] = {
    PlayCard: Decision.PLAY,
    KeepCard: Decision.CHANCELLOR,
    DrawCard: Decision.DRAW,
    StartRound: Decision.NEXT_ROUND,
}

#: a whole game must end long before this many commands (hang guard)
MAX_STEPS = 3000


def full_deck(ruleset: str) -> Counter[Card]:
    return COMPOSITION[ruleset]


def guard_names(ruleset: str) -> frozenset[Card]:
    """guard.name-non-guard + ruling 5: kinds of this edition's deck but the Guard."""
    return frozenset(COMPOSITION[ruleset]) - {Card.GUARD}


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
    ruleset: str
    players: int
    seed: int
    first_player: int

    def opening(self) -> tuple[Event, ...]:
        return ll.start_game(
            self.ruleset, self.players, seed=self.seed, first_player=self.first_player
        )


@st.composite
def game_setups(draw: st.DrawFn, ruleset: str | None = None) -> GameSetup:
    """A ruleset (unless given), a supported player count, a seed, a first seat."""
    name = ruleset if ruleset is not None else draw(st.sampled_from(RULESET_NAMES))
    players = draw(st.sampled_from(PLAYER_COUNTS[name]))
    seed = draw(st.integers(min_value=0, max_value=2**32))
    first = draw(st.integers(min_value=0, max_value=players - 1))
    return GameSetup(name, players, seed, first)


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


_COMMAND_TYPES: tuple[type[Command], ...] = (PlayCard, KeepCard, DrawCard, StartRound)


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


def choose_deck(choices: Choices, ruleset: str) -> tuple[Card, ...]:
    """A stacked deck: usually a valid order of this edition's cards, else
    the other edition's cards or random cards."""
    kind = choices.integer(0, 3)
    if kind <= 1:
        return _permutation(choices, full_deck(ruleset).elements())
    if kind == 2:
        other = next(name for name in RULESET_NAMES if name != ruleset)
        return _permutation(choices, full_deck(other).elements())
    size = full_deck(ruleset).total() + choices.integer(-1, 1)
    return tuple(_pick(choices, _ALL_CARDS) for _ in range(size))


def choose_random_command(choices: Choices, state: GameState) -> Command:
    """A PlayCard, KeepCard, DrawCard or StartRound with random fields:
    wrong players, seats out of range, cards not held or not in the edition,
    self-targets, Guards naming the Guard, bad Chancellor returns, stacked
    decks (valid or not), first players who did not win. Biased towards the
    command the game is waiting for, so that the rejections are varied."""
    actor = state.current
    hand = state.hands[actor]
    waiting = next((k for k, d in ANSWERS.items() if d is state.decision), None)
    if waiting is not None and not _maybe(choices):
        kind: type[Command] = waiting
    else:
        kind = _pick(choices, _COMMAND_TYPES)
    player = choose_seat(choices, state) if _maybe(choices) else actor
    if kind is PlayCard:
        card = choose_card(choices, hand)
        target = None if _maybe(choices) else choose_seat(choices, state)
        guess = None if _maybe(choices) else _pick(choices, _ALL_CARDS)
        return PlayCard(player, card, target, guess)
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
    deck = choose_deck(choices, state.ruleset.name) if _maybe(choices) else None
    first = choose_seat(choices, state) if _maybe(choices) else None
    return StartRound(deck, first)


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


def rule_violations(state: GameState, command: Command) -> frozenset[RejectionKind]:
    """Every reason the rules give to refuse ``command`` now; empty when the
    rules allow it. The engine must report one of these reasons (it may
    pick any, the order of its checks is its own business)."""
    if state.is_over:
        return frozenset({R.GAME_OVER})
    if state.decision is not ANSWERS[type(command)]:
        return frozenset({R.WRONG_DECISION})
    found: set[RejectionKind] = set()
    if isinstance(command, StartRound):
        result = state.round_result
        assert result is not None
        if command.deck is not None and Counter(command.deck) != full_deck(state.ruleset.name):
            found.add(R.INVALID_DECK)
        if command.first_player is not None and command.first_player not in result.winners:
            found.add(R.INVALID_CHOICE)
        return frozenset(found)
    assert isinstance(command, PlayCard | KeepCard | DrawCard)
    if command.player != state.current:
        return frozenset({R.NOT_YOUR_TURN})
    hand = state.hands[state.current]
    if isinstance(command, DrawCard):
        return frozenset()
    if isinstance(command, KeepCard):
        if Counter((command.keep, *command.bottom)) != Counter(hand):
            found.add(R.INVALID_CHOICE)
        return frozenset(found)
    return frozenset(_play_violations(state, command, hand))


def _play_violations(
    state: GameState, command: PlayCard, hand: tuple[Card, ...]
) -> set[RejectionKind]:
    found: set[RejectionKind] = set()
    player, card, target, guess = command.player, command.card, command.target, command.guess
    if card not in hand:
        found.add(R.CARD_NOT_IN_HAND)
    else:
        rest = list(hand)
        rest.remove(card)
        if card is not Card.COUNTESS and Card.COUNTESS in rest and set(hand) & COUNTESS_FORCERS:
            found.add(R.COUNTESS_REQUIRED)
    choosable = [
        p
        for p in range(state.players)
        if p != player and p not in state.out and p not in state.protected
    ]
    if card in CHOOSE_OTHER or card in CHOOSE_ANY:
        if target is None:
            # ruling 6: with no other player to choose, Guard, Priest, Baron
            # and King are played without one; the Prince then chooses itself
            if card in CHOOSE_ANY or choosable:
                found.add(R.TARGET_REQUIRED)
        elif not 0 <= target < state.players:
            found.add(R.NO_SUCH_PLAYER)
        elif target == player:
            if card not in CHOOSE_ANY:
                found.add(R.TARGET_NOT_ALLOWED)
        elif target in state.out:
            found.add(R.TARGET_OUT_OF_ROUND)
        elif target in state.protected:
            found.add(R.TARGET_PROTECTED)
    elif target is not None:
        found.add(R.TARGET_NOT_ALLOWED)
    if card is Card.GUARD and target is not None:
        if guess is None:
            found.add(R.GUESS_REQUIRED)
        elif guess not in guard_names(state.ruleset.name):
            found.add(R.GUESS_NOT_ALLOWED)
    elif guess is not None:
        found.add(R.GUESS_NOT_ALLOWED)
    return found


def accepted_though_not_listed(state: GameState, command: Command) -> bool:
    """``legal_commands`` lists the single ``StartRound()`` between rounds, but
    a valid stacked deck and/or a first player among the tied winners are
    accepted too (documented in ``legal_commands``)."""
    return isinstance(command, StartRound) and not rule_violations(state, command)


# --------------------------------------------------------------------------
# state invariants


def check_state(state: GameState) -> None:
    """Everything that must hold of any state reached by play."""
    name = state.ruleset.name
    n = state.players
    deck = full_deck(name)
    # cards are conserved across all zones
    assert state.card_count() == len(state.ruleset.deck) == deck.total()
    zones: list[Card] = [*state.deck, *state.face_up]
    if state.set_aside is not None:
        zones.append(state.set_aside)
    for hand in state.hands:
        zones.extend(hand)
    for pile in state.discards:
        zones.extend(pile)
    assert Counter(zones) == deck, f"cards not conserved: {Counter(zones)} != {deck}"
    assert len(state.face_up) == FACE_UP_COUNT.get(n, 0)
    # ruling 9: the set-aside card only leaves through a Prince on an empty deck
    assert state.set_aside is not None or not state.deck
    assert len(state.hands) == len(state.discards) == len(state.tokens) == n
    live = state.live_players()
    assert live == tuple(p for p in range(n) if p not in state.out)
    assert len(live) >= 1
    for p in state.out:
        assert state.hands[p] == (), f"player {p} is out but holds {state.hands[p]}"
    decision = state.decision
    playing = decision in (Decision.PLAY, Decision.CHANCELLOR, Decision.DRAW)
    for p in live:
        size = len(state.hands[p])
        if p == state.current and decision is Decision.PLAY:
            assert size == 2, f"player {p} must play from two cards, holds {state.hands[p]}"
        elif p == state.current and decision is Decision.CHANCELLOR:
            assert size in (2, 3), f"Chancellor player {p} holds {state.hands[p]}"
        else:
            assert size == 1, f"player {p} in the round holds {state.hands[p]}"
    assert state.protected <= set(live), "a protected player is out of the round"
    if playing:
        # exactly one player must act, and it is the current one, in the round
        assert state.to_act == state.current
        assert state.current in live
        assert state.current not in state.protected, "protection ends as its turn starts"
        assert len(live) >= 2
        assert state.round_result is None
        assert not state.round_over and not state.is_over
    else:
        assert state.to_act is None
        assert state.round_over
        assert state.round_result is not None
        assert not state.protected, "protection never outlives its round (ruling 7)"
    check_tokens(state)
    check_legal_commands(state)


def check_tokens(state: GameState) -> None:
    """game.tokens-to-win, game.simultaneous-winners."""
    threshold = TOKENS_TO_WIN[state.players]
    at_threshold = tuple(p for p, t in enumerate(state.tokens) if t >= threshold)
    assert all(t >= 0 for t in state.tokens)
    if at_threshold:
        assert state.decision is Decision.GAME_OVER and state.is_over
        assert state.winners == at_threshold
    else:
        assert state.decision is not Decision.GAME_OVER and not state.is_over
        assert state.winners == ()


def _play_key(command: Command) -> tuple[int, int, int]:
    assert isinstance(command, PlayCard)
    target = -1 if command.target is None else command.target
    guess = -1 if command.guess is None else int(command.guess)
    return (int(command.card), target, guess)


def allowed_plays(state: GameState) -> frozenset[PlayCard]:
    """Every PlayCard the rules allow the current player, built from the
    rules (a second formulation, independent of :func:`rule_violations`)."""
    player = state.current
    cards = set(state.hands[player])
    if Card.COUNTESS in cards and cards & COUNTESS_FORCERS:
        cards = {Card.COUNTESS}  # countess.forced-by-king-or-prince
    choosable = [
        p
        for p in range(state.players)
        if p != player and p not in state.out and p not in state.protected
    ]
    plays: set[PlayCard] = set()
    for card in cards:
        targets: list[int | None] = [None]
        if card in CHOOSE_OTHER and choosable:
            targets = [*choosable]
        elif card in CHOOSE_ANY:
            targets = [*choosable, player]
        for target in targets:
            if card is Card.GUARD and target is not None:
                plays.update(
                    PlayCard(player, card, target, guess)
                    for guess in guard_names(state.ruleset.name)
                )
            else:
                plays.add(PlayCard(player, card, target))
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
    documented order (by card, target, guess; by kept card, returned order)."""
    legal = ll.legal_commands(state)
    assert len(set(legal)) == len(legal), "legal_commands lists a command twice"
    decision = state.decision
    if decision is Decision.GAME_OVER:
        assert legal == ()
        assert ll.playable_cards(state) == ()
    elif decision is Decision.NEXT_ROUND:
        assert legal == (StartRound(),)
    elif decision is Decision.CHANCELLOR:
        assert set(legal) == allowed_keeps(state)
        keys = [(int(c.keep), *map(int, c.bottom)) for c in legal if isinstance(c, KeepCard)]
        assert keys == sorted(keys), "legal_commands not in fixed order"
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


def check_legal_commands_complete(state: GameState) -> None:
    """Every PlayCard the rules allow is listed, and only those (exhaustive
    over cards held, every seat and one beyond each end, and every guess for
    a Guard; other cards are tried with no guess and with one)."""
    if state.decision is not Decision.PLAY:
        return
    legal = set(ll.legal_commands(state))
    player = state.current
    targets = (None, *range(-1, state.players + 1))
    for card in set(state.hands[player]):
        guesses = (None, *Card) if card is Card.GUARD else (None, Card.GUARD)
        for target in targets:
            for guess in guesses:
                command = PlayCard(player, card, target, guess)
                allowed = not rule_violations(state, command)
                assert allowed == (command in legal), f"{command}: the rules allow it: {allowed}"


def check_deal(state: GameState, started: RoundStarted) -> None:
    """setup.*, ruling 3: the deck (top first) is dealt set-aside card, face-up
    cards (2 players), one card each from the first player on, first draw."""
    deck = started.deck
    assert deck is not None
    n = state.players
    face_up = FACE_UP_COUNT.get(n, 0)
    first = started.first_player
    assert Counter(deck) == full_deck(state.ruleset.name)
    assert state.set_aside == deck[0]
    assert state.face_up == deck[1 : 1 + face_up]
    dealt = deck[1 + face_up : 1 + face_up + n]
    for offset in range(n):
        seat = (first + offset) % n
        expected = [dealt[offset]]
        if seat == first:
            expected.append(deck[1 + face_up + n])
        assert sorted(state.hands[seat]) == sorted(expected)
    assert state.deck == deck[2 + face_up + n :]
    assert state.current == first and state.decision is Decision.PLAY
    assert state.turn_number == 1 and state.round_number == started.round_number
    assert not state.out and not state.protected and not state.sightings
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
    round_ended = after.round_over and not before.round_over
    assert kinds.count(RoundEnded) == int(round_ended)
    assert kinds.count(GameEnded) == int(after.is_over)
    if after.is_over:
        assert isinstance(events[-1], GameEnded) and events[-1].winners == after.winners
    for index, event in enumerate(events):
        if isinstance(event, TurnStarted) and not isinstance(command, StartRound):
            # a turn only starts with a card to draw, and its draw comes next
            following = events[index + 1]
            assert isinstance(following, CardDrawn)
            assert following.player == event.player and not following.from_set_aside
            assert event.player == _next_seat(before.current, before.players, after.out)
            assert after.turn_number == before.turn_number + 1
    if isinstance(command, KeepCard):
        # chancellor.return-bottom-any-order, ruling 4: the returned cards
        # go under the deck in the order given, the last one bottom-most
        # (then the next player draws the top card)
        drawn = sum(isinstance(e, CardDrawn) for e in events)
        assert after.deck == (*before.deck, *command.bottom)[drawn:]
        assert after.hands[command.player] == (command.keep,)
    if isinstance(command, PlayCard) and command.card is Card.HANDMAID and not after.round_over:
        # handmaid.protection-until-next-turn: protected until their next turn
        assert command.player in after.protected
    if isinstance(command, StartRound):
        check_new_round(before, command, events, after)
    elif round_ended:
        check_round_end(before, events, after)
    else:
        assert after.tokens == before.tokens
        assert after.round_number == before.round_number


def _next_seat(current: int, players: int, out: frozenset[int]) -> int:
    """turn.order, ruling 2: increasing seat number, skipping players out."""
    seat = current
    for _ in range(players):
        seat = (seat + 1) % players
        if seat not in out:
            return seat
    raise AssertionError("no one left to play")


def check_round_end(before: GameState, events: tuple[Event, ...], after: GameState) -> None:
    """round.*, spy.*, game.*: who wins the round, who gets tokens, game end."""
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
        # round.end-deck-empty, round.highest-card-wins, round.tie-all-win
        assert result.reason is RoundEndReason.DECK_EMPTY
        assert after.deck == ()
        assert result.revealed == tuple((p, after.hands[p][0]) for p in live)
        best = max(VALUES[card] for _, card in result.revealed)
        assert result.winners == tuple(p for p, c in result.revealed if VALUES[c] == best)
    # spy.sole-spy-token (ruling 10): a lone player in the round with a Spy
    # in their discard pile gains one token, whoever won
    spies = [p for p in live if Card.SPY in after.discards[p]]
    spy = spies[0] if len(spies) == 1 else None
    expected = tuple(t + (p in result.winners) + (p == spy) for p, t in enumerate(before.tokens))
    assert after.tokens == expected, f"tokens {after.tokens}, rules give {expected}"
    awarded = Counter((e.player, e.reason) for e in events if isinstance(e, TokenAwarded))
    wanted = Counter((p, TokenReason.ROUND_WIN) for p in result.winners)
    if spy is not None:
        wanted[(spy, TokenReason.SPY)] += 1
    assert awarded == wanted
    for event in events:
        if isinstance(event, TokenAwarded):
            assert event.total <= after.tokens[event.player]
    # game.tokens-to-win, game.simultaneous-winners (ruling 12): checked after
    # every token of the round is awarded; everyone at the threshold wins
    threshold = TOKENS_TO_WIN[after.players]
    reached = tuple(p for p, t in enumerate(after.tokens) if t >= threshold)
    assert after.is_over == bool(reached)
    assert after.winners == reached


def check_new_round(
    before: GameState, command: StartRound, events: tuple[Event, ...], after: GameState
) -> None:
    """round.next-first-player(-tie-random), round.new-round-setup."""
    previous = before.round_result
    assert previous is not None
    started = events[0]
    assert isinstance(started, RoundStarted)
    assert started.round_number == before.round_number + 1
    if command.first_player is not None:
        assert started.first_player == command.first_player
    elif len(previous.winners) == 1:
        assert started.first_player == previous.winners[0]
    assert started.first_player in previous.winners
    if command.deck is not None:
        assert started.deck == command.deck
    assert after.tokens == before.tokens
    assert after.round_result is None
    check_deal(after, started)


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
        return () if event.viewer == player else ("card",)
    if isinstance(event, HandsCompared):
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


def hidden_shuffled(state: GameState, player: int) -> GameState:
    """``state`` with everything ``player`` may not see moved around: the
    other players' hands (same sizes), the deck order, the set-aside card and
    the seed. Nothing ``player`` may know changes."""
    others = [p for p in range(state.players) if p != player]
    hidden = list(state.deck)
    if state.set_aside is not None:
        hidden.append(state.set_aside)
    for p in others:
        hidden.extend(state.hands[p])
    rotated = hidden[1:] + hidden[:1]
    deck, rest = tuple(rotated[: len(state.deck)]), rotated[len(state.deck) :]
    set_aside = rest.pop(0) if state.set_aside is not None else None
    hands = list(state.hands)
    for p in others:
        size = len(hands[p])
        hands[p], rest = tuple(rest[:size]), rest[size:]
    assert not rest
    table = attrs.evolve(state.table, set_aside=set_aside, seed=state.seed + 1)
    return attrs.evolve(state, table=table, deck=deck, hands=tuple(hands))


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
        assert view.legal_commands == (legal if state.to_act == player else ())
        if indistinguishable:
            twin = ll.view(hidden_shuffled(state, player), player)
            assert twin == view, f"player {player}'s view depends on hidden cards"


def check_json_round_trip(value: object) -> None:
    """``loads(dumps(x)) == x``, reading back as the value's own class."""
    back = ll.loads(ll.dumps(value), type(value))
    assert back == value, f"{value} came back from JSON as {back}"


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
        started, dealt = opening[0], opening[1]
        assert started == GameStarted(setup.ruleset, setup.players, setup.seed, setup.first_player)
        assert isinstance(dealt, RoundStarted)
        assert dealt.first_player == setup.first_player and dealt.round_number == 1
        assert ll.replay(opening) == self.state
        assert self.state.tokens == (0,) * setup.players
        check_deal(self.state, dealt)
        self._check_new_events(opening)
        self.accepted = 0
        self.rejected = 0

    def attempt(self, command: Command) -> ll.IllegalCommand | None:
        """Give ``command``; return the rejection, if any, once checked."""
        self.commands.append(command)
        before = self.state
        violations = rule_violations(before, command)
        listed = command in ll.legal_commands(before)
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
        """The state reached follows the rules; every listed command is accepted."""
        state = self.state
        check_state(state)
        for command in ll.legal_commands(state):
            ll.decide(state, command)
        if self.checks.views:
            check_views(state, indistinguishable=self.checks.indistinguishable_views)
        if self.checks.exhaustive_legal:
            check_legal_commands_complete(state)
        if self.checks.replay:
            assert ll.replay(self.events) == state, "replay of the log differs from the state"
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
        for command in (StartRound(), PlayCard(state.current, Card.GUARD, None, None)):
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
