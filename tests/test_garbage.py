"""Garbage in: every way into the engine either succeeds or raises a
``LoveLetterError`` subclass naming what is wrong, never ``IndexError``,
``RecursionError``, ``UnicodeDecodeError``, ``TypeError`` or a bare
``ValueError``, whatever it is fed: arbitrary text and bytes, valid JSON
of states, positions, events, commands and records with parts mutated,
deep nesting, huge numbers, positions and states with fields replaced,
event logs with events dropped, swapped, duplicated or altered, and
garbage arguments to ``new_game``, ``start_game`` and ``view``. What
``loads`` accepts must round-trip through ``dumps``; a state it builds must
pass ``check_state``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import loveletter as ll
from loveletter import Card, Decision, GameState, LoveLetterError, Position
from loveletter.events import Event, GameStarted, RoundStarted
from loveletter.validation import check_state


def examples(share: float) -> int:
    """``share`` of the active Hypothesis profile's ``max_examples``."""
    profile = settings.default
    assert profile is not None
    return max(1, round(profile.max_examples * share))


def outcome(call: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[bool, Any]:
    """``(True, call(*args, **kwargs))``, or ``(False, error)`` for a
    ``LoveLetterError``; anything else raised fails the test with the
    call's own traceback."""
    try:
        return True, call(*args, **kwargs)
    except LoveLetterError as error:
        assert str(error)  # every error says what is wrong
        return False, error


# --------------------------------------------------------------------------
# valid material to mutate


def random_game(
    ruleset: str, players: int, seed: int
) -> Iterator[tuple[GameState, tuple[Event, ...]]]:
    """Each state of a random game with the events that led to it."""
    rng = random.Random(seed)
    events = ll.start_game(ruleset, players, seed=seed, first_player=seed % players)
    state = ll.replay(events)
    yield state, events
    while legal := ll.legal_commands(state):
        state, produced = ll.step(state, rng.choice(legal))
        events += produced
        yield state, events


GAMES = [
    ("2019", 3, 1),
    ("2019-classic", 2, 2),
    ("premium", 5, 3),
    ("premium", 4, 4),
    ("2019", 6, 5),
]
STATES: list[GameState] = []
LOGS: list[tuple[Event, ...]] = []
for _game in GAMES:
    _seen: set[Decision] = set()
    for _state, _log in random_game(*_game):
        if _state.decision not in _seen or _state.turn_number % 7 == 3:
            _seen.add(_state.decision)
            STATES.append(_state)
    LOGS.append(_log)
POSITIONS = [ll.to_position(s) for s in STATES if s.decision is Decision.PLAY]
COMMANDS = [c for s in STATES[:20] for c in ll.legal_commands(s)]
EVENTS = sorted({e for log in LOGS for e in log[:200]}, key=repr)[:200]
RECORDS = [ll.GameRecord(log) for log in LOGS[:2]]
VALUES: list[object] = [*STATES, *POSITIONS, *COMMANDS, *EVENTS, *RECORDS, STATES[0].table]
VALUES += [ll.view(s, 0) for s in STATES[:5]]


# --------------------------------------------------------------------------
# garbage

NASTY_INTS = [
    -(2**256),
    -(10**9),
    -7,
    -1,
    0,
    1,
    2,
    3,
    7,
    9,
    99,
    10**9,
    2**53 + 1,
    2**256 - 1,
    2**256,
]
NAMES = [
    *(c.title for c in Card),
    *(d.value for d in Decision),
    "guard",
    "Joker",
    "",
    "0",
    "01",
    "-1",
    str(2**256),
    "premium",
    "2019",
    "nope",
    "GameState",
    "Position",
    "PlayCard",
    "GameRecord",
    "GameStarted",
    "Table",
]
json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from(NASTY_INTS),
    st.integers(-(2**80), 2**80),
    st.floats(),
    st.sampled_from(NAMES),
    st.text(max_size=8),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.sampled_from(["type", "player", "seed", "deck", "x"]) | st.text(max_size=4),
            inner,
            max_size=4,
        )
    ),
    max_leaves=12,
)
python_garbage = st.one_of(
    json_scalars,
    st.sampled_from(list(Card)),
    st.lists(st.sampled_from(list(Card)), max_size=25).map(tuple),
    st.lists(st.sampled_from(NASTY_INTS), max_size=5).map(tuple),
    st.lists(st.sampled_from(NASTY_INTS), max_size=5).map(frozenset),
    st.lists(st.lists(st.sampled_from(list(Card)), max_size=3).map(tuple), max_size=9).map(tuple),
    st.just((Card.PRINCESS,) * 21),
    st.just(object()),
    st.just([1, 2]),
    st.just({"a": 1}),
)


def paths(data: Any, here: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path into ``data`` (dict keys, list indexes), itself first."""
    yield here
    if isinstance(data, dict):
        for key, value in data.items():
            yield from paths(value, (*here, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from paths(value, (*here, index))


def mutate(draw: st.DrawFn, data: Any) -> Any:
    """``data`` (plain JSON data) with one part replaced, removed,
    duplicated, moved or nested."""
    every = list(paths(data))
    path = draw(st.sampled_from(every))
    if not path:
        return draw(json_values)
    parent: Any = data
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    action = draw(st.sampled_from(["replace", "remove", "duplicate", "swap", "nest", "number"]))
    if action == "replace":
        parent[key] = draw(json_values)
    elif action == "remove":
        del parent[key]
    elif action == "number":
        parent[key] = draw(st.sampled_from(NASTY_INTS))
    elif action == "nest":
        parent[key] = [parent[key]]
    elif isinstance(parent, list):
        other = draw(st.integers(0, len(parent) - 1))
        if action == "duplicate":
            parent.insert(other, parent[key])
        else:
            parent[key], parent[other] = parent[other], parent[key]
    else:
        parent[key] = {"type": parent.get("type"), **parent}
    return data


@st.composite
def mutated_json(draw: st.DrawFn) -> str:
    value = draw(st.sampled_from(VALUES))
    data = ll.to_data(value)
    for _ in range(draw(st.integers(1, 3))):
        data = mutate(draw, data)
    return json.dumps(data)


def check_loaded(text: str | bytes, expected: type | None = None) -> None:
    ok, value = outcome(ll.loads, text, expected)
    if ok:
        assert ll.loads(ll.dumps(value)) == value
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, GameState):
                check_state(item)


# --------------------------------------------------------------------------
# loads


@settings(max_examples=examples(1))
@given(st.text(max_size=200) | st.binary(max_size=200))
@example(b"\xff\xfe{}")
@example("\ud800")
@example('{"type": "DrawCard", "player": 1e999}')
@example("[" * 100_000 + "]" * 100_000)
@example('{"a":' * 100_000 + "0" + "}" * 100_000)
@example('{"type": "DrawCard", "player": ' + "7" * 100_000 + "}")
@example('{"type": "DrawCard", "player": 1' + "0" * 4400 + ".5}")
@example('{"type": "DrawCard", "player": -Infinity}')
@example("NaN")
def test_loads_of_any_text_or_bytes_succeeds_or_says_why(text: str | bytes) -> None:
    check_loaded(text)


@settings(max_examples=examples(2))
@given(mutated_json())
def test_loads_of_mutated_valid_json_succeeds_or_says_why(text: str) -> None:
    check_loaded(text)
    check_loaded(text.encode("utf-8"))


@settings(max_examples=examples(0.5))
@given(st.lists(mutated_json(), min_size=1, max_size=3), st.sampled_from([None, Event, GameState]))
def test_loads_of_arrays_of_mutated_values_succeeds_or_says_why(
    texts: list[str], expected: type | None
) -> None:
    check_loaded("[" + ", ".join(texts) + "]", expected)


@pytest.mark.parametrize("depth", [10, 64, 65, 1000, 100_000])
def test_deep_nesting_anywhere_is_refused(depth: int) -> None:
    data = ll.to_data(STATES[3])
    text = json.dumps(data).replace('"deck": [', '"deck": ' + "[" * depth + "[", 1)
    check_loaded(text)  # brackets left open: not JSON, or nested too deep
    nested = '{"type": "PlayCard", "player": 0, "card": "Guard", "target": ' + "[" * depth
    check_loaded(nested + "]" * depth + "}")


def test_huge_and_odd_numbers_in_a_state_are_refused() -> None:
    base = json.dumps(ll.to_data(STATES[2]))
    for number in ("1" + "0" * 5000, "-" + "9" * 500, "1e999", "NaN", "Infinity", "1.0", "true"):
        for field in ('"current": ', '"turn_number": ', '"tokens": [', '"seed": '):
            text = base.replace(
                field, f"{field}{number}, " if field.endswith("[") else f'{field}{number}, "x": ', 1
            )
            ok, error = outcome(ll.loads, text)
            assert not ok and isinstance(error, ll.SerializationError), text[:200]


# --------------------------------------------------------------------------
# from_position and check_state


FIELDS_OF_POSITION = [a.name for a in attrs.fields(Position)]
FIELDS_OF_STATE = [a.name for a in attrs.fields(GameState)] + [
    a.name for a in attrs.fields(ll.Table)
]


@settings(max_examples=examples(2))
@given(
    st.sampled_from(POSITIONS),
    st.lists(
        st.tuples(st.sampled_from(FIELDS_OF_POSITION), python_garbage), min_size=1, max_size=3
    ),
)
def test_from_position_of_a_mutated_position_succeeds_or_says_why(
    position: Position, changes: list[tuple[str, Any]]
) -> None:
    mutant = attrs.evolve(position)
    for name, value in changes:
        object.__setattr__(mutant, name, value)  # past the converters, as a careless caller might
    ok, state = outcome(ll.from_position, mutant)
    if ok:
        check_state(state)
        assert ll.from_position(ll.to_position(state)) == attrs.evolve(state, returns=state.returns)
    else:
        assert isinstance(state, ll.PositionError)


@settings(max_examples=examples(2))
@given(
    st.sampled_from(STATES),
    st.lists(st.tuples(st.sampled_from(FIELDS_OF_STATE), python_garbage), min_size=1, max_size=3),
)
def test_check_state_of_a_mutated_state_accepts_or_raises_state_error(
    state: GameState, changes: list[tuple[str, Any]]
) -> None:
    table_fields = {a.name for a in attrs.fields(ll.Table)}
    mutant = state
    for name, value in changes:
        if name in table_fields:
            if not isinstance(mutant.table, ll.Table):
                continue
            table = attrs.evolve(mutant.table)
            object.__setattr__(table, name, value)
            mutant = attrs.evolve(mutant, table=table)
        else:
            mutant = attrs.evolve(mutant, **{name: value})
    try:
        check_state(mutant)
    except ll.StateError as error:
        assert error.field
    else:
        assert ll.loads(ll.dumps(mutant), GameState) == mutant


# --------------------------------------------------------------------------
# replay


def _altered(draw: st.DrawFn, event: Event) -> Event:
    fields = [a.name for a in attrs.fields(type(event))]
    if not fields:
        return event
    name = draw(st.sampled_from(fields))
    value = draw(
        st.one_of(
            python_garbage,
            st.sampled_from([-1, 10**9, (Card.PRINCESS,) * 21, None, (), (-1,), (0, 0)]),
        )
    )
    altered = attrs.evolve(event)
    object.__setattr__(altered, name, value)
    return altered


@st.composite
def mutated_logs(draw: st.DrawFn) -> list[Event]:
    log = list(draw(st.sampled_from(LOGS)))
    log = log[: draw(st.integers(1, min(len(log), 80)))]
    for _ in range(draw(st.integers(1, 3))):
        index = draw(st.integers(0, len(log) - 1))
        action = draw(st.sampled_from(["drop", "swap", "duplicate", "alter", "alter", "players"]))
        if action == "drop" and len(log) > 1:
            del log[index]
        elif action == "swap":
            other = draw(st.integers(0, len(log) - 1))
            log[index], log[other] = log[other], log[index]
        elif action == "duplicate":
            log.insert(index, log[index])
        elif action == "players":
            first = log[0]
            if isinstance(first, GameStarted):
                log[0] = attrs.evolve(first, players=draw(st.sampled_from([10**9, -1, 0, 1, 9])))
        else:
            log[index] = _altered(draw, log[index])
    return log


@settings(max_examples=examples(1))
@given(mutated_logs())
def test_replay_of_a_mutated_log_succeeds_or_says_why(log: list[Event]) -> None:
    ok, state = outcome(ll.replay, log)
    if ok:
        check_state(state)


def test_replay_of_named_forgeries_says_why() -> None:
    log = list(LOGS[0][:40])
    started = log[0]
    assert isinstance(started, GameStarted)
    round_started = next(i for i, e in enumerate(log) if isinstance(e, RoundStarted))
    deal = log[round_started]
    assert isinstance(deal, RoundStarted)
    forgeries = [
        [attrs.evolve(started, players=10**9), *log[1:]],
        [
            log[0],
            attrs.evolve(deal, deck=(Card.PRINCESS,) * 21),
            *log[round_started + 1 :],
        ],
        [log[0], attrs.evolve(deal, first_player=-1), *log[round_started + 1 :]],
        [*log[:5], *log[6:]],
        [*log[:5], log[5], *log[5:]],
        [log[0], *log[2:]],
        [],
        "not a log",
        None,
        [None],
        [1, 2, 3],
    ]
    for forged in forgeries:
        assert not outcome(ll.replay, forged)[0]


# --------------------------------------------------------------------------
# new_game, start_game, view


ARGUMENTS: dict[str, list[Any]] = {
    "ruleset": [
        None,
        "nope",
        "2019",
        "premium",
        "2019-classic",
        7,
        b"2019",
        ll.get_ruleset("2019"),
    ],
    "players": [None, "3", True, -1, 0, 1, 2, 3, 9, 10**9, 3.0, 2**256],
    "seed": [None, True, -1, 0, 7, 2**256 - 1, 2**256, "7", 1.5, 10**100],
    "first_player": [None, -1, 0, 1, 99, True, "0", 1.0],
    "deck": [
        None,
        "Guard",
        [],
        [Card.PRINCESS] * 21,
        [1, 2, 3],
        5,
        list(ll.get_ruleset("2019").deck_for(3)),
        tuple(ll.get_ruleset("2019").deck_for(3))[1:] + (Card.PRINCESS,),
        list(range(21)),
        [object()],
    ],
}


@settings(max_examples=examples(1.5))
@given(**{name: st.sampled_from(values) for name, values in ARGUMENTS.items()})
def test_new_game_and_start_game_of_any_arguments_succeed_or_say_why(
    ruleset: Any, players: Any, seed: Any, first_player: Any, deck: Any
) -> None:
    arguments = {"seed": seed, "first_player": first_player, "deck": deck}
    ok, state = outcome(ll.new_game, ruleset, players, **arguments)
    if ok:
        check_state(state)
    ok, events = outcome(ll.start_game, ruleset, players, **arguments)
    if ok:
        check_state(ll.replay(events))


@pytest.mark.parametrize(
    "player", [True, False, -1, 99, None, "0", 1.0, 10**100, -(10**100)], ids=repr
)
def test_view_of_any_player_succeeds_or_says_why(player: Any) -> None:
    for state in STATES[:4]:
        outcome(ll.view, state, player)


def test_view_of_something_that_is_not_a_state_says_why() -> None:
    for state in (None, STATES[0].table, ll.to_position(STATES[1]), "state"):
        assert not outcome(ll.view, state, 0)[0]
