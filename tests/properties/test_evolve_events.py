"""Events applied one by one: ``evolve`` accepts an event only where it can
follow the state.

``evolve`` and ``apply_events`` take events from anywhere (a log read from a
file, a narrator's stream, a caller's hand), so every event is checked
against the state before it is applied. The properties, over random games
of all four editions (endgames and tie-break rounds included, and online
matches with players leaving and timing out):

* from a state at a decision point or between two events of one command
  (a real command's events applied in part), any event -- the real next
  one, the real next one with one field changed, or an event of any type
  with fields drawn from the game's seats and cards or of the wrong type
  (floats, bools, huge or negative integers, ``None``, strings, card codes)
  -- either raises :class:`~loveletter.EventMismatch` naming a field, or
  gives a state that passes
  :func:`~loveletter.validation.check_between_events`: what holds after
  every event of a real game. The real next event is always accepted.
* a command's events applied one by one with ``evolve`` reach what
  ``push`` returns, a state that passes the full ``check_state``.

The regression tests are the issue's examples: each raised a raw error or
gave a state ``check_state`` refuses.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

import loveletter as ll
from loveletter import Card, EventMismatch, GameState, evolve
from loveletter.events import (
    EVENT_TYPES,
    CardDealt,
    CardPlayed,
    ChoiceRestricted,
    EliminationReason,
    Event,
    HandSeen,
    HandsTraded,
    LookOffered,
    PlayerMarked,
    PlayerProtected,
    RedrawOffered,
    RoundEndReason,
    TokenReason,
    TurnStarted,
)
from loveletter.evolution import apply_events
from loveletter.validation import check_between_events, check_state

from .strategies import (
    ALL_RULESET_NAMES,
    ByteChoices,
    choose_next_command,
    game_setups,
    scaled_examples,
)

#: bytes of choices per game: a few dozen commands, then the first legal one
_CHOICE_BYTES = 160
#: the most commands played before the moment examined
_MOST_STEPS = 120

#: values of the wrong type for any field, and seats that do not exist
_WRONG: tuple[object, ...] = (
    None,
    "0",
    "Guard",
    0.0,
    1.0,
    1.5,
    -0.5,
    True,
    False,
    -1,
    -5,
    99,
    2**70,
    -(2**70),
    (),
    (0,),
    [0],
    [Card.GUARD],
    frozenset({0}),
)
#: fields holding one seat
_SEAT_FIELDS = frozenset(
    {
        "player",
        "opponent",
        "viewer",
        "owner",
        "target",
        "second_target",
        "required",
        "marked",
        "first_player",
    }
)
#: fields holding one card
_CARD_FIELDS = frozenset({"card", "via", "player_card", "opponent_card", "guess"})
#: fields holding a tuple of cards
_CARDS_FIELDS = frozenset({"discarded", "cards", "deck"})
#: fields holding a tuple of seats
_SEATS_FIELDS = frozenset({"owners", "winners", "tied", "seats", "order"})
#: fields holding a count
_COUNT_FIELDS = frozenset({"count", "total", "round_number", "players", "seed"})
_REASONS: dict[str, tuple[object, ...]] = {
    "PlayerEliminated": tuple(EliminationReason),
    "RoundEnded": tuple(RoundEndReason),
    "TokenAwarded": tuple(TokenReason),
}


@attrs.frozen(repr=False)
class Moment:
    """A state of a random game, and the events that really follow it in
    the command under way (all of the next command's at a decision point;
    none once the game is over)."""

    state: GameState
    following: tuple[Event, ...]
    #: the command whose events ``following`` ends, and the state before it
    command: ll.Command | None = None
    before: GameState | None = None

    def __repr__(self) -> str:
        # a failing example shows the state as text, not as a 30 kB repr
        return f"Moment(\n{self.state}\ncommand={self.command!r}\nfollowing={self.following!r})"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))  # what Hypothesis prints a failing example with


@st.composite
def moments(draw: st.DrawFn, *, between: bool = True) -> Moment:
    """Some commands into a random game of a random edition (mostly legal
    ones; online, players leave and time out too), stopping before the
    command that ends the game and, now and then, at a rarer decision (a
    Chancellor's keep, a Cardinal's look, a Bishop's redraw, the wait
    between rounds); then the next command's events applied in part or
    whole (``between``: cut anywhere, the game's end included; at the
    decision point itself one time in three) or not at all."""
    name = draw(st.sampled_from(ALL_RULESET_NAMES), label="ruleset")
    setup = draw(game_setups(name), label="setup")
    choices = ByteChoices(draw(st.binary(max_size=_CHOICE_BYTES), label="choices"))
    state = ll.replay(setup.opening())
    for _ in range(choices.integer(0, _MOST_STEPS)):
        if state.decision in _RARE and choices.integer(0, 1):
            break
        try:
            after = ll.push(state, choose_next_command(choices, state))
        except ll.IllegalCommand:
            continue
        if after.is_over:
            break
        state = after
    for _ in range(20):  # the next accepted command, its events cut anywhere
        if state.is_over:
            break
        command = choose_next_command(choices, state)
        try:
            events = ll.step(state, command)[1]
        except ll.IllegalCommand:
            continue
        cut = 0
        if between and draw(st.integers(0, 2), label="between"):
            cut = draw(st.integers(1, len(events)), label="cut")
        middle = apply_events(state, events[:cut])
        return Moment(middle, events[cut:], command, state)
    return Moment(state, ())


#: the decisions a game passes through least often
_RARE = frozenset(
    {ll.Decision.CHANCELLOR, ll.Decision.LOOK, ll.Decision.REDRAW, ll.Decision.NEXT_ROUND}
)


def _cards_in_play(state: GameState) -> list[Card]:
    """The cards an event is likely to name: the hands, the top of the deck
    and of each pile, the set-aside card."""
    cards = [card for hand in state.hands for card in hand]
    cards += state.deck[:2]
    cards += [pile[-1] for pile in state.discards if pile]
    if state.set_aside is not None:
        cards.append(state.set_aside)
    return cards


@st.composite
def plausible_values(draw: st.DrawFn, state: GameState, kind: str, field: str) -> object:
    """A value of the right type for ``kind.field``, drawn from the game:
    seats (and one past either end), the cards in play or any card, tuples
    of those, counts near the real ones, the enum's members."""
    n = state.players
    seat = st.integers(min_value=-1, max_value=n)
    near = st.sampled_from((state.current, *state.pending, *state.out)) | seat
    card = st.sampled_from(_cards_in_play(state) or list(Card)) | st.sampled_from(list(Card))
    if field in _SEAT_FIELDS:
        return draw(near)
    if field in _CARD_FIELDS:
        return draw(card | st.integers(0, 9)) if field == "guess" else draw(card)
    if field in _CARDS_FIELDS:
        if field == "deck":
            deck = list(state.ruleset.deck_for(n, state.table.decks))
            return tuple(draw(st.permutations(deck))[: len(deck) - draw(st.integers(0, 1))])
        hand = state.hands[draw(st.integers(0, n - 1))]
        source = st.sampled_from(
            (hand, state.deck[:1], state.deck[:2], state.deck[1:3], (), tuple(reversed(hand)))
        )
        return draw(source | st.lists(card, max_size=3).map(tuple))
    if field in _SEATS_FIELDS:
        live = tuple(p for p in range(n) if p not in state.out)
        return draw(
            st.sampled_from((live, live[:1], tuple(range(n)), state.pending, ()))
            | st.lists(seat, max_size=4).map(tuple)
        )
    if field in _COUNT_FIELDS:
        real = {"total": max(state.tokens) + 1, "round_number": state.round_number + 1}
        return draw(st.integers(-1, 4) | st.just(real.get(field, 2)))
    if field == "reason":
        return draw(st.sampled_from(_REASONS[kind]))
    if field == "from_set_aside":
        return draw(st.booleans())
    if field == "revealed":
        pairs = tuple(
            (p, hand[0]) for p, hand in enumerate(state.hands) if p not in state.out and hand
        )
        return draw(st.sampled_from((pairs, (), pairs[:1])))
    if field == "ranks":
        ranks = st.lists(st.none() | st.integers(0, n), min_size=n, max_size=n).map(tuple)
        return draw(st.none() | ranks)
    return draw(st.sampled_from(_WRONG))  # a field only a log's opening has


def _fields(kind: type[Event]) -> list[str]:
    return [f.name for f in attrs.fields(kind)]


@st.composite
def events_after(draw: st.DrawFn, moment: Moment) -> list[Event]:
    """The real next event, one or two of its mutants (one field changed to
    a plausible value or one of the wrong type), and events of any type,
    most fields plausible, some of the wrong type."""
    state = moment.state
    tried: list[Event] = []
    if moment.following:
        real = moment.following[0]
        tried.append(real)
        for _ in range(draw(st.integers(1, 2), label="mutants")):
            field = draw(st.sampled_from(_fields(type(real))), label="field")
            kind = type(real).__name__
            value = draw(plausible_values(state, kind, field) | st.sampled_from(_WRONG))
            tried.append(attrs.evolve(real, **{field: value}))
    for _ in range(draw(st.integers(1, 3), label="random events")):
        cls = draw(st.sampled_from(sorted(EVENT_TYPES.values(), key=lambda c: c.__name__)))
        values: dict[str, Any] = {}
        for field in _fields(cls):
            wrong = draw(st.integers(0, 7), label=f"{field} wrong") == 0
            pool = (
                st.sampled_from(_WRONG) if wrong else plausible_values(state, cls.__name__, field)
            )
            values[field] = draw(pool, label=field)
        tried.append(cls(**values))
    return tried


_SLOW = [HealthCheck.too_slow, HealthCheck.data_too_large]


@settings(max_examples=scaled_examples(10.0), suppress_health_check=_SLOW)
@given(moment=moments(), data=st.data())
def test_an_event_is_refused_naming_a_field_or_leaves_a_state_any_event_can(
    moment: Moment, data: st.DataObject
) -> None:
    state = moment.state
    check_between_events(state)
    before = ll.dumps(state)
    for event in data.draw(events_after(moment), label="events"):
        note(f"event: {event!r}")
        try:
            after = evolve(state, event)
        except EventMismatch as refused:
            assert refused.field, f"{refused} names no field"
            assert str(refused).startswith(f"{refused.field}: ")
            assert refused.index is None
            real = bool(moment.following) and _same(event, moment.following[0])
            assert not real, f"the real next event was refused: {refused}"
            continue
        check_between_events(after)
    assert ll.dumps(state) == before, "evolve changed the state it was given"


def _same(event: Event, real: Event) -> bool:
    """Equal down to the types of the fields (``1.0 == 1``, ``True == 1``)."""
    return type(event) is type(real) and all(
        type(getattr(event, f)) is type(getattr(real, f)) and getattr(event, f) == getattr(real, f)
        for f in _fields(type(real))
    )


@settings(max_examples=scaled_examples(3.0), suppress_health_check=_SLOW)
@given(moment=moments(between=False))
def test_a_command_s_events_applied_one_by_one_reach_what_push_returns(moment: Moment) -> None:
    if moment.command is None or moment.before is None:
        return
    state = moment.state
    for event in moment.following:
        state = evolve(state, event)
        check_between_events(state)
    assert state == ll.push(moment.before, moment.command)
    check_state(state)


# --------------------------------------------------------------------------
# the examples


def _deal() -> GameState:
    return ll.new_game("2019", 3, seed=1)


def test_regression_a_trade_with_seat_50_names_the_opponent() -> None:
    # was a raw IndexError
    state = evolve(_deal(), CardPlayed(0, _card(0)))
    with pytest.raises(EventMismatch) as refused:
        evolve(state, HandsTraded(0, 50))
    assert refused.value.field == "HandsTraded.opponent"
    assert str(refused.value) == "HandsTraded.opponent: must be a seat from 0 to 2, not 50"


def _card(seat: int) -> Card:
    return _deal().hands[seat][0]


def test_regression_a_float_player_is_refused_naming_the_player() -> None:
    # CardPlayed(0.0, ...) was a raw TypeError (a hand sliced by a float);
    # PlayerProtected(1.0), equal to seat 1, was accepted
    state = _deal()
    with pytest.raises(EventMismatch) as refused:
        evolve(state, CardPlayed(0.0, _card(0)))  # type: ignore[arg-type]  # a float seat
    assert refused.value.field == "CardPlayed.player"
    with pytest.raises(EventMismatch) as refused:
        evolve(state, PlayerProtected(1.0))  # type: ignore[arg-type]  # a float seat
    assert refused.value.field == "PlayerProtected.player"


def test_regression_a_protection_of_seat_99_is_refused() -> None:
    # was accepted, into a state check_state refuses
    state = evolve(_deal(), CardPlayed(0, _card(0)))
    with pytest.raises(EventMismatch) as refused:
        evolve(state, PlayerProtected(99))
    assert refused.value.field == "PlayerProtected.player"


def test_regression_a_turn_of_seat_minus_5_is_refused() -> None:
    # was accepted, into a state check_state refuses
    state = evolve(_deal(), CardPlayed(0, _card(0)))
    with pytest.raises(EventMismatch) as refused:
        evolve(state, TurnStarted(-5))
    assert (refused.value.field, refused.value.detail) == (
        "TurnStarted.player",
        "must be a seat from 0 to 2, not -5",
    )


def test_a_card_dealt_in_the_middle_of_a_turn_is_refused_as_a_whole() -> None:
    with pytest.raises(EventMismatch) as refused:
        evolve(_deal(), CardDealt(1, _deal().deck[0]))
    assert refused.value.field == "CardDealt"


def test_what_is_not_a_state_or_not_events_is_refused_naming_it() -> None:
    with pytest.raises(ll.ArgumentError) as wrong:
        evolve("state", TurnStarted(0))  # type: ignore[arg-type]  # not a state
    assert wrong.value.field == "state"
    with pytest.raises(EventMismatch) as refused:
        apply_events(_deal(), 5)  # type: ignore[arg-type]  # not a sequence
    assert refused.value.field == "events"


# --------------------------------------------------------------------------
# what the card just played can do, as its module says


def _playing(ruleset: str, players: int, card: Card) -> GameState:
    """A state whose current player has just played ``card`` (its first
    turn, from a deck stacked so that they hold it and a Guard)."""
    deck = list(ll.get_ruleset(ruleset).deck_for(players))
    for wanted in (card, Card.GUARD):
        deck.remove(wanted)
    # set aside, one card each (seat 0 first), then seat 0's draw
    stacked = (deck[0], card, *deck[1:players], Card.GUARD, *deck[players:])
    state = ll.new_game(ruleset, players, seed=1, first_player=0, deck=stacked)
    assert sorted(state.hands[0]) == sorted((card, Card.GUARD))
    return evolve(state, CardPlayed(0, card))


@pytest.mark.parametrize(
    ("card", "event", "field"),
    [
        (Card.GUARD, PlayerProtected(0), None),  # the Guard protects no one
        (Card.JESTER, PlayerMarked(0, 0), "PlayerMarked.marked"),  # oneself
        (Card.GUARD, PlayerMarked(0, 1), None),  # only the Jester marks
        (Card.PRIEST, ChoiceRestricted(0, 1), None),  # only the Sycophant binds
        (Card.BISHOP, LookOffered(0, (1, 2)), None),  # the Bishop leaves a redraw
        (Card.CARDINAL, RedrawOffered(1), None),  # the Cardinal leaves a look
        (Card.GUARD, HandSeen(0, 1, Card.GUARD, Card.GUARD), "HandSeen.via"),
    ],
)
def test_an_effect_event_follows_only_a_card_whose_module_says_it_does_that(
    card: Card, event: Event, field: str | None
) -> None:
    state = _playing("premium", 5, card)
    with pytest.raises(EventMismatch) as refused:
        evolve(state, event)
    assert refused.value.field == (field or type(event).__name__)


def test_the_cards_that_do_it_are_accepted() -> None:
    assert evolve(_playing("premium", 5, Card.HANDMAID), PlayerProtected(0)).protected == {0}
    assert evolve(_playing("premium", 5, Card.JESTER), PlayerMarked(0, 1)).marks == ((0, 1),)
    assert evolve(_playing("premium", 5, Card.SYCOPHANT), ChoiceRestricted(0, 1)).required == 1
