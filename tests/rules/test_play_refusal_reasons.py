"""What the refusal of a played card says, beyond its kind, and what
``decide`` and ``evolve`` say of something that is not a command or an
event at all."""

from __future__ import annotations

from typing import Any

import pytest

from loveletter import (
    Card,
    EventMismatch,
    GameState,
    IllegalCommand,
    PlayCard,
    RejectionKind,
    decide,
    evolve,
)

from ._helpers import at

R = RejectionKind
GUARD_TURN = at(hands=["Guard Priest", "Baron"])


@pytest.mark.rule(
    "guard.correct-guess-eliminates",
    "countess.forced-by-king-or-prince",
    "game.rules-enforced",
)
@pytest.mark.parametrize(
    ("state", "command", "kind", "detail"),
    [
        (GUARD_TURN, PlayCard(0, Card.GUARD, 1), R.GUESS_REQUIRED, "the Guard must name something"),
        (
            GUARD_TURN,
            PlayCard(0, Card.PRIEST, 1, Card.BARON),
            R.GUESS_NOT_ALLOWED,
            "only a Guard or a Bishop with a target names something",
        ),
        (GUARD_TURN, PlayCard(0, Card.BISHOP, 1), R.MALFORMED_COMMAND, "2019 has no Bishop card"),
        (
            at(hands=["Countess King", "Baron"]),
            PlayCard(0, Card.KING, 1),
            R.COUNTESS_REQUIRED,
            "the Countess must be played instead of the King",
        ),
        (
            at(hands=["Handmaid Priest", "Baron"]),
            PlayCard(0, Card.HANDMAID, 1),
            R.TARGET_NOT_ALLOWED,
            "the Handmaid does not choose a player",
        ),
    ],
)
def test_a_refused_play_says_which_rule_it_breaks(
    state: GameState, command: PlayCard, kind: RejectionKind, detail: str
) -> None:
    with pytest.raises(IllegalCommand) as refused:
        decide(state, command)
    assert (refused.value.kind, refused.value.detail) == (kind, detail)


def test_a_card_that_is_not_a_card_is_malformed_and_shown() -> None:
    with pytest.raises(IllegalCommand) as refused:
        decide(GUARD_TURN, PlayCard(0, "Guard", 1))  # type: ignore[arg-type]
    assert (refused.value.kind, refused.value.detail) == (
        R.MALFORMED_COMMAND,
        "card must be a Card, not 'Guard'",
    )


def test_something_that_is_not_a_command_or_an_event_is_refused_and_shown() -> None:
    with pytest.raises(IllegalCommand) as refused:
        decide(GUARD_TURN, 42)  # type: ignore[arg-type]
    assert (refused.value.kind, refused.value.detail) == (R.MALFORMED_COMMAND, "not a command: 42")
    with pytest.raises(EventMismatch, match=r"^event: not an event: 'x'$"):
        evolve(GUARD_TURN, "x")  # type: ignore[arg-type]


#: PlayCard, untyped: these commands hold fields of the wrong type on purpose
_Play: Any = PlayCard
CARDINAL_TURN = at("premium", hands=["Cardinal Guard", "Baron", "Priest", "King", "Prince"])


@pytest.mark.rule("game.rules-enforced", "targeting.other-player", "cardinal.swap-two-players")
@pytest.mark.parametrize(
    ("state", "command", "detail"),
    [
        # a card's code, a float or a bool equals the right card or seat, and
        # must still be refused: the field is of the wrong type
        (GUARD_TURN, _Play(0, 1, 1, Card.PRIEST), "card must be a Card, not 1"),
        (GUARD_TURN, _Play(0, Card.GUARD, 1.0, Card.PRIEST), "a target must be a seat, not 1.0"),
        (
            GUARD_TURN,
            _Play(0, Card.GUARD, True, Card.PRIEST),
            "a target must be a seat, not True",
        ),
        (
            CARDINAL_TURN,
            _Play(0, Card.CARDINAL, 1, second_target=2.0),
            "a target must be a seat, not 2.0",
        ),
        (
            GUARD_TURN,
            _Play(0, Card.GUARD, 1, True),
            "a name must be a card or a number, not True",
        ),
        (GUARD_TURN, _Play(0, Card.GUARD, 1, 2.0), "a name must be a card or a number, not 2.0"),
        # the player's own type is named first among the wrong fields
        (GUARD_TURN, _Play("0", "Guard", 1), "player must be a seat, not '0'"),
        (GUARD_TURN, _Play(0.0, Card.GUARD, 1.0), "player must be a seat, not 0.0"),
    ],
)
def test_a_field_of_the_wrong_type_is_malformed_and_named(
    state: GameState, command: PlayCard, detail: str
) -> None:
    with pytest.raises(IllegalCommand) as refused:
        decide(state, command)
    assert (refused.value.kind, refused.value.detail) == (R.MALFORMED_COMMAND, detail)
