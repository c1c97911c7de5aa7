"""``view`` and ``events_for``: which arguments they refuse and what the
refusal says, and the last returned card a Chancellor's player still knows.
"""

from __future__ import annotations

import pytest

from loveletter import (
    ArgumentError,
    Card,
    KeepCard,
    PlayCard,
    events_for,
    new_game,
    push,
    view,
)

from ._helpers import at


def view_refusal(state: object, player: object) -> ArgumentError:
    with pytest.raises(ArgumentError) as refused:
        view(state, player)  # type: ignore[arg-type]  # wrong on purpose
    return refused.value


def test_view_of_something_that_is_not_a_state_names_the_state_argument() -> None:
    refusal = view_refusal(object(), 0)
    assert refusal.field == "state"
    assert refusal.detail == "expected a GameState, not object"


@pytest.mark.parametrize(
    ("player", "shown"),
    [
        (2, "2"),
        (-1, "-1"),
        (999_999_999, "999999999"),
        (1_000_000_000, "that number"),
        (-(10**40), "that number"),
        (True, "True"),
        (1.0, "1.0"),
        ("p" * 50, repr("p" * 50)[:40]),
    ],
)
def test_view_of_a_seat_not_in_the_game_names_the_seats_and_the_value(
    player: object, shown: str
) -> None:
    refusal = view_refusal(new_game("2019", 2, seed=1), player)
    assert refusal.field == "player"
    assert refusal.detail == f"a seat from 0 to 1, not {shown}"


@pytest.mark.parametrize(
    ("player", "shown"),
    [(-1, "'-1'"), (1.0, "'1.0'"), (None, "'None'"), ("q" * 50, repr("q" * 40))],
)
def test_events_for_a_seat_that_cannot_be_one_names_the_value(player: object, shown: str) -> None:
    with pytest.raises(ArgumentError) as refused:
        events_for(player, ())  # type: ignore[arg-type]  # wrong on purpose
    assert refused.value.field == "player"
    assert refused.value.detail == f"a seat from 0, not {shown}"


@pytest.mark.rule("chancellor.return-bottom-any-order")
def test_the_last_returned_card_left_in_the_deck_is_still_known_to_its_player() -> None:
    """Seat 0 returns King then Prince on an empty deck; seat 1's draw takes
    the King, and seat 0 still knows the one card left is its Prince."""
    state = at(hands=["Chancellor Guard", "Baron", ""], deck="King Prince", out=[2], rest=2)
    state = push(state, PlayCard(0, Card.CHANCELLOR))
    state = push(state, KeepCard(0, Card.GUARD, (Card.KING, Card.PRINCE)))
    assert state.deck == (Card.PRINCE,)
    assert view(state, 0).deck_bottom == (Card.PRINCE,)
    assert view(state, 1).deck_bottom == ()
