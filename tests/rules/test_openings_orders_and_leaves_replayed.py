"""A log's opening checked as ``new_game`` checks its arguments, a stacked
online turn order, and a leave read back from a log.

``replay`` reads the command behind each batch of events; these are the
paths of that reading no other case takes: a ``GameStarted`` whose first
player or settings no game could have (refused where ``new_game`` would
refuse them), an online round dealt in a given order, and a ``PlayerLeft``
that is read back as the ``Leave`` it came from.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from loveletter import (
    EventMismatch,
    Leave,
    TableSettings,
    legal_commands,
    new_game,
    replay,
    start_game,
    step,
)
from loveletter.events import Event, GameStarted


def _opening(**changes: Any) -> tuple[Event, ...]:
    events = start_game("online", 3, seed=5)
    started = events[0]
    assert isinstance(started, GameStarted)
    return (attrs.evolve(started, **changes), *events[1:])


@pytest.mark.rule("game.rules-enforced")
@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"first_player": 9}, "GameStarted.first_player: must be a seat from 0 to 2, not 9"),
        ({"settings": TableSettings(decks=9)}, "GameStarted.settings.decks: from 1 to 3, not 9"),
    ],
    ids=["first-player-beyond-the-table", "too-many-decks"],
)
def test_an_opening_no_game_could_have_is_refused_as_new_game_refuses_it(
    changes: dict[str, Any], reason: str
) -> None:
    with pytest.raises(EventMismatch) as refused:
        replay(_opening(**changes))
    assert refused.value.index == 0
    assert str(refused.value) == f"events[0]: {reason}"


@pytest.mark.rule("setup.turn-order-online")
def test_an_online_game_can_be_dealt_in_a_given_turn_order() -> None:
    drawn = new_game("online", 3, seed=5)
    stacked = (1, 2, 0)
    assert drawn.table.order != stacked
    state = new_game("online", 3, seed=5, order=stacked)
    assert (state.table.order, state.current) == (stacked, 1)


@pytest.mark.rule("online.leave-any-time")
def test_a_leave_is_read_back_from_the_log() -> None:
    state = new_game("online", 4, seed=3)
    log = list(start_game("online", 4, seed=3))
    for _ in range(3):
        state, events = step(state, legal_commands(state)[0])
        log += events
    leaver = next(p for p in range(4) if p != state.to_act)
    state, events = step(state, Leave(leaver))
    log += events
    state, events = step(state, legal_commands(state)[0])
    log += events
    assert any(type(event).__name__ == "PlayerLeft" for event in log)
    assert replay(log) == state
