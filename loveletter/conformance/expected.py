"""What the reference engine says a case's script should meet on the way,
where the case file itself does not say it: each command of a replay start
(its events, the state after it, the rules it touches), the state a replay
start must reach (the case's own start), the states a case passes through
(for the ``try`` capability's candidate commands).

The runner asks these questions of our engine, never of the implementation
under test; the suite's build proves our engine agrees with every case and
every replay start (``make replays``, ``tests/conformance``).
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from loveletter.cards import Card
from loveletter.commands import Command, DrawCard, PlayCard
from loveletter.conformance.cases import Case
from loveletter.conformance.execute import ScriptError, observe_state, player_commands, start_state
from loveletter.conformance.starts import ReplayStart
from loveletter.engine import push, step
from loveletter.errors import IllegalCommand, SerializationError
from loveletter.serialization import from_data, to_data
from loveletter.state import Decision, GameState

JSON = Any

#: the state fields a replay start is held to: everything a position
#: fixes, piles as multisets (the order of an earlier turn's pile is not
#: what a case about its own rule is judged on)
START_FIELDS: tuple[str, ...] = (
    "decision",
    "current",
    "round_number",
    "deck",
    "set_aside",
    "face_up",
    "hands",
    "discards",
    "out",
    "protected",
    "tokens",
)


@attrs.frozen
class PreludeStep:
    """One command of a replay start, as the reference plays it."""

    command: JSON
    #: the reference state before it (for the rules it touches)
    before: GameState
    #: its events, in protocol form
    events: JSON
    #: the ``state`` observation after it
    after: JSON


#: prelude references already computed, by replay file and case name
_PRELUDES: dict[tuple[str, str], tuple[PreludeStep, ...]] = {}


def prelude(replay: ReplayStart) -> tuple[PreludeStep, ...]:
    """Every command of ``replay`` played by the reference engine."""
    key = (replay.path, replay.name)
    cached = _PRELUDES.get(key)
    if cached is not None:
        return cached
    script: dict[str, JSON] = {
        "ruleset": replay.ruleset,
        "players": replay.players,
        "start": {"deal": replay.deal()},
    }
    if replay.settings is not None:
        script["settings"] = replay.settings
    state, _ = start_state(script)
    steps = []
    for data in replay.commands:
        command = from_data(data, Command)
        after, events = step(state, command)
        steps.append(PreludeStep(data, state, to_data(list(events)), observe_state(after)))
        state = after
    result = tuple(steps)
    if len(_PRELUDES) < 10_000:
        _PRELUDES[key] = result
    return result


def goal(case: Case, after_draw: bool) -> JSON:
    """The ``state`` observation a replay start of ``case`` must reach: the
    case's start, after its first draw when the replay ends after it."""
    state, _ = start_state(case.data)
    if after_draw and state.decision is Decision.DRAW:
        state = push(state, DrawCard(state.current))
    return observe_state(state)


def state_differences(expected: Mapping[str, JSON], actual: JSON) -> list[str]:
    """The :data:`START_FIELDS` on which an observed ``state`` differs from
    the reference's, each with both values."""
    if not isinstance(actual, dict):
        return ["no state was given"]
    lines = []
    for key in START_FIELDS:
        want, got = expected.get(key), actual.get(key)
        if key in ("hands", "discards"):
            same = _as_multisets(want) == _as_multisets(got)
        else:
            same = want == got
        if not same:
            lines.append(f"{key}: expected {_short(want)}, actual {_short(got)}")
    return lines


def _as_multisets(piles: JSON) -> JSON:
    if not isinstance(piles, list) or not all(isinstance(p, list) for p in piles):
        return piles
    return [Counter(map(str, pile)) for pile in piles]


def _short(value: JSON, limit: int = 160) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def states_before_steps(data: Mapping[str, JSON]) -> list[GameState | None]:
    """The reference state before each step of a case's ``data`` (a
    refused command leaves it as it was; all None when the reference does
    not start the case)."""
    try:
        state: GameState | None = start_state(dict(data))[0]
    except ScriptError:
        return [None] * len(data["steps"])
    states: list[GameState | None] = []
    for item in data["steps"]:
        states.append(state)
        if state is None or "command" not in item:
            continue
        with contextlib.suppress(IllegalCommand, SerializationError):  # refused: it stays
            state = push(state, from_data(item["command"], Command))
    return states


def candidates(state: GameState) -> list[JSON]:
    """Commands to ``try`` at ``state``: every legal command of the player to
    act, and near misses around them (each card in that player's hand with
    every target and every guess: each name a card of the edition may name
    and each kind; the same commands by the next seat), so that an
    implementation answering "legal?" for each lets the runner rebuild its
    list of legal commands."""
    legal = player_commands(state)
    seen: dict[str, JSON] = {}

    def add(command: Command) -> None:
        data = to_data(command)
        seen.setdefault(repr(sorted(data.items())), data)

    for command in legal:
        add(command)
    if state.to_act is None:
        return list(seen.values())
    player = state.to_act
    seats: Sequence[int | None] = (None, *range(state.players))
    guesses: list[Card | int | None] = [None]
    setup = state.ruleset.setup(state.players, state.table.decks)
    named = [n for names in setup.names for n in names]
    legal_guesses = [c.guess for c in legal if isinstance(c, PlayCard)]
    # every name some card may name, and every kind (a Guard naming a Guard)
    for guess in (*legal_guesses, *named, *setup.kinds):
        if guess not in guesses:
            guesses.append(guess)
    for card in dict.fromkeys(state.hands[player]):
        for target in seats:
            for guess in guesses:
                add(PlayCard(player=player, card=card, target=target, guess=guess))
    other = (player + 1) % state.players
    for command in legal:
        moved: Any = command  # every player command has a player
        add(attrs.evolve(moved, player=other))
    return list(seen.values())
