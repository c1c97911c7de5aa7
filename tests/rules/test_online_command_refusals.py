"""The refusals of the online commands (``Leave``, ``TimeOut``) and of two
choices whose refusal had no case: each kind and what it says.

Programs compare the kind; people read the text, which names the value at
fault. ``tests/rules/test_refusal_messages.py`` does the same for the
other commands.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import pytest

from loveletter import (
    Card,
    Command,
    GameState,
    IllegalCommand,
    KeepCard,
    Leave,
    PlayCard,
    RejectionKind,
    StartRound,
    TimeOut,
    decide,
)

from ._helpers import BARON, HANDMAID, online
from .test_evolve_refusal_paths import (
    between_rounds,
    chancellor_choosing,
    online_between,
    online_no_random_moves,
    online_one_gone,
    online_over,
    online_turn,
    turn,
)

Kind = RejectionKind


def _online_cardinal() -> GameState:
    """Five players online: seat 0 holds the Cardinal (an ordered pair)."""
    return online(
        hands=["Cardinal Guard", "Priest", "King", "Baron", "Count"], deck="Handmaid Guard"
    )


def _online_baroness() -> GameState:
    """Five players online, where the Baroness is in the deck: seat 0 holds her."""
    return online(
        hands=["Baroness Guard", "Priest", "King", "Baron", "Count"], deck="Handmaid Guard"
    )


def _acting(state: GameState) -> int:
    assert state.to_act is not None
    return state.to_act


CASES: list[tuple[str, Callable[[], GameState], Callable[[GameState], Command], Kind, str]] = [
    (
        "leave-by-a-name",
        online_turn,
        lambda s: Leave(cast(Any, "1")),
        Kind.MALFORMED_COMMAND,
        "player must be a seat, not '1'",
    ),
    (
        "time-out-of-no-one",
        online_turn,
        lambda s: TimeOut(cast(Any, None)),
        Kind.MALFORMED_COMMAND,
        "player must be a seat, not None",
    ),
    (
        "leave-offline",
        turn,
        lambda s: Leave(1),
        Kind.NOT_IN_EDITION,
        "2019 has no Leave: it is online only",
    ),
    (
        "time-out-offline",
        turn,
        lambda s: TimeOut(0),
        Kind.NOT_IN_EDITION,
        "2019 has no TimeOut: it is online only",
    ),
    ("leave-after-the-match", online_over, lambda s: Leave(0), Kind.GAME_OVER, "the game is over"),
    (
        "leave-beyond-the-table",
        online_between,
        lambda s: Leave(s.players),
        Kind.NO_SUCH_PLAYER,
        "there is no player 4",
    ),
    (
        "leave-a-negative-seat",
        online_between,
        lambda s: Leave(-1),
        Kind.NO_SUCH_PLAYER,
        "there is no player -1",
    ),
    (
        "leave-twice",
        online_one_gone,
        lambda s: Leave(1),
        Kind.PLAYER_LEFT,
        "player 1 has already left",
    ),
    (
        "time-out-between-rounds",
        online_between,
        lambda s: TimeOut(0),
        Kind.WRONG_DECISION,
        "no player must act while the game waits for 'next-round'",
    ),
    (
        "time-out-of-another",
        online_turn,
        lambda s: TimeOut((_acting(s) + 1) % s.players),
        Kind.NOT_YOUR_TURN,
        "player {to_act} must act now, not player {other}",
    ),
    (
        "time-out-without-random-moves",
        online_no_random_moves,
        lambda s: TimeOut(_acting(s)),
        Kind.RANDOM_MOVES_OFF,
        "this table makes no random moves: it waits",
    ),
    (
        "keep-a-card-of-another-edition",
        chancellor_choosing,
        lambda s: KeepCard(0, Card.BISHOP, (BARON, HANDMAID)),
        Kind.MALFORMED_COMMAND,
        "2019 has no Bishop card",
    ),
    (
        "online-baroness-higher-seat-first",
        _online_baroness,
        lambda s: PlayCard(0, Card.BARONESS, 2, None, 1),
        Kind.TARGET_NOT_ALLOWED,
        "name the two players (or one twice), lower seat first",
    ),
    (
        "order-in-a-seat-order-edition",
        between_rounds,
        lambda s: StartRound(order=(0, 1, 2)),
        Kind.NOT_IN_EDITION,
        "2019 plays in seat order: no order to give",
    ),
    (
        "order-as-a-list",
        online_between,
        lambda s: StartRound(order=cast(Any, [0, 1, 2, 3])),
        Kind.MALFORMED_COMMAND,
        "order must list seats, not [0, 1, 2, 3]",
    ),
    (
        "order-with-a-seat-by-name",
        online_between,
        lambda s: StartRound(order=cast(Any, (0, 1, "2", 3))),
        Kind.MALFORMED_COMMAND,
        "order must list seats, not (0, 1, '2', 3)",
    ),
    (
        "order-missing-a-player",
        online_between,
        lambda s: StartRound(order=(0, 1, 2)),
        Kind.INVALID_CHOICE,
        "the order must list the players present once each: [0, 1, 2, 3]",
    ),
    (
        "order-led-by-another-than-the-winner",
        online_between,
        lambda s: StartRound(order=(0, 1, 2, 3)),
        Kind.INVALID_CHOICE,
        "the order must start with one of [2]",
    ),
    (
        "online-cardinal-one-player-twice",
        _online_cardinal,
        lambda s: PlayCard(0, Card.CARDINAL, 1, None, 1),
        Kind.TARGET_NOT_ALLOWED,
        "name two different players",
    ),
]


@pytest.mark.rule("game.rules-enforced")
@pytest.mark.parametrize(
    ("state_of", "command_of", "kind", "message"),
    [pytest.param(*case[1:], id=case[0]) for case in CASES],
)
def test_a_refused_command_gives_its_kind_and_says_why(
    state_of: Callable[[], GameState],
    command_of: Callable[[GameState], Command],
    kind: Kind,
    message: str,
) -> None:
    state = state_of()
    command = command_of(state)
    with pytest.raises(IllegalCommand) as refused:
        decide(state, command)
    to_act = state.to_act
    other = getattr(command, "player", None)
    assert refused.value.kind is kind
    assert refused.value.detail == message.format(to_act=to_act, other=other)
