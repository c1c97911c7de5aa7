"""Why a choice of players is refused: the kind, and the reason given.

The engine first asks whether a card's choice is among its options, then,
only for a refusal, works out which rule it breaks. Each case here breaks
one rule, in a five-player Premium round where seat 0 holds the card and a
Guard; the message, led by the move, is what a player reads.
"""

from __future__ import annotations

import pytest

from loveletter import (
    Card,
    Decline,
    EventMismatch,
    GameState,
    IllegalCommand,
    LookAtHand,
    PlayCard,
    RejectionKind,
    decide,
    evolve,
    push,
)
from loveletter.cards import cardinal
from loveletter.events import OptionDeclined

from ._helpers import at

R = RejectionKind


def table(
    card: Card,
    *,
    protected: tuple[int, ...] = (),
    out: tuple[int, ...] = (),
    required: int | None = None,
) -> GameState:
    """Seat 0 to play ``card`` (and holding a Guard) among five seats; a
    ``required`` seat was named by the Sycophant seat 4 just played."""
    hands = [f"{card.title} Guard", "Baron", "Priest", "King", "Prince"]
    for seat in out:
        hands[seat] = ""
    discards = ["", "", "", "", "Sycophant" if required is not None else ""]
    for seat in protected:
        # a protected player played their Handmaid on a turn of their own, so
        # the players after them up to seat 0 have played since
        for later in range(seat + 1, 5):
            if later not in out:
                discards[later] = discards[later] or "Guard"
    return at(
        "premium",
        hands=hands,
        protected=protected,
        out=out,
        required=required,
        discards=discards,
    )


CASES = [
    pytest.param(
        table(Card.PRINCE),
        PlayCard(0, Card.PRINCE, 1.5),  # type: ignore[arg-type]
        R.MALFORMED_COMMAND,
        "a target must be a seat, not 1.5",
        id="a-target-that-is-not-a-seat",
    ),
    pytest.param(
        table(Card.CARDINAL),
        PlayCard(0, Card.CARDINAL, 1, second_target="2"),  # type: ignore[arg-type]
        R.MALFORMED_COMMAND,
        "a target must be a seat, not '2'",
        id="a-second-target-that-is-not-a-seat",
    ),
    pytest.param(
        table(Card.PRINCE),
        PlayCard(0, Card.PRINCE, 1, second_target=2),
        R.TARGET_NOT_ALLOWED,
        "the Prince chooses one player",
        id="two-players-for-a-card-that-chooses-one",
    ),
    pytest.param(
        table(Card.CARDINAL),
        PlayCard(0, Card.CARDINAL, None, second_target=2),
        R.TARGET_NOT_ALLOWED,
        "the Cardinal chooses one player",
        id="a-second-target-without-a-first",
    ),
    pytest.param(
        table(Card.BARONESS),
        PlayCard(0, Card.BARONESS, 5),
        R.NO_SUCH_PLAYER,
        "there is no player 5",
        id="a-seat-past-the-table",
    ),
    pytest.param(
        table(Card.BARONESS),
        PlayCard(0, Card.BARONESS, 1, second_target=-1),
        R.NO_SUCH_PLAYER,
        "there is no player -1",
        id="a-negative-second-seat",
    ),
    pytest.param(
        table(Card.BARONESS),
        PlayCard(0, Card.BARONESS, 0),
        R.TARGET_NOT_ALLOWED,
        "the Baroness must choose another player",
        id="oneself-for-a-card-that-chooses-others",
    ),
    pytest.param(
        table(Card.PRINCE, out=(2,)),
        PlayCard(0, Card.PRINCE, 2),
        R.TARGET_OUT_OF_ROUND,
        "player 2 is out of the round",
        id="a-player-out-of-the-round",
    ),
    pytest.param(
        table(Card.CARDINAL, protected=(3,)),
        PlayCard(0, Card.CARDINAL, 1, second_target=3),
        R.TARGET_PROTECTED,
        "player 3 is protected by a Handmaid",
        id="a-protected-second-player",
    ),
    pytest.param(
        table(Card.CARDINAL),
        PlayCard(0, Card.CARDINAL, 2, second_target=2),
        R.TARGET_NOT_ALLOWED,
        "name two different players, the lower seat as target",
        id="the-same-player-twice",
    ),
    pytest.param(
        table(Card.CARDINAL),
        PlayCard(0, Card.CARDINAL, 3, second_target=1),
        R.TARGET_NOT_ALLOWED,
        "name two different players, the lower seat as target",
        id="the-higher-seat-first",
    ),
    pytest.param(
        table(Card.CARDINAL, protected=(1,), out=(2, 3, 4)),
        PlayCard(0, Card.CARDINAL, 0),
        R.TARGET_NOT_ALLOWED,
        "the Cardinal has no player it may choose now",
        id="a-choice-when-no-pair-can-be-chosen",
    ),
    pytest.param(
        table(Card.PRINCE),
        PlayCard(0, Card.PRINCE),
        R.TARGET_REQUIRED,
        "the Prince must choose a player",
        id="no-player-for-a-card-that-must-choose",
    ),
    pytest.param(
        table(Card.CARDINAL),
        PlayCard(0, Card.CARDINAL, 1),
        R.TARGET_REQUIRED,
        "the Cardinal must choose two players",
        id="one-player-for-a-card-that-chooses-two",
    ),
    pytest.param(
        table(Card.PRINCE, required=2),
        PlayCard(0, Card.PRINCE, 1),
        R.REQUIRED_PLAYER_NOT_CHOSEN,
        "a Sycophant requires this card to choose player 2",
        id="not-the-player-the-sycophant-named",
    ),
    pytest.param(
        table(Card.CARDINAL, required=2),
        PlayCard(0, Card.CARDINAL, 0, second_target=1),
        R.REQUIRED_PLAYER_NOT_CHOSEN,
        "a Sycophant requires this card to choose player 2",
        id="a-pair-without-the-player-the-sycophant-named",
    ),
]


@pytest.mark.rule(
    "targeting.choose-impossible-no-effect",
    "sycophant.next-card-must-choose",
    "cardinal.swap-two-players",
    "handmaid.protection-until-next-turn",
    "targeting.other-player",
    "out.untargetable",
    "game.rules-enforced",
)
@pytest.mark.parametrize(("state", "command", "kind", "detail"), CASES)
def test_a_refused_choice_says_which_rule_it_breaks(
    state: GameState, command: PlayCard, kind: RejectionKind, detail: str
) -> None:
    with pytest.raises(IllegalCommand) as refused:
        decide(state, command)
    assert (refused.value.kind, refused.value.detail) == (kind, detail)
    with pytest.raises(IllegalCommand) as pushed:
        push(state, command)
    assert str(pushed.value) == str(refused.value)


def test_a_refusal_is_led_by_the_move_refused() -> None:
    state = table(Card.PRINCE)
    with pytest.raises(IllegalCommand) as refused:
        decide(state, PlayCard(0, Card.PRINCE, 7))
    assert refused.value.move == "P0 Prince on P7"
    assert str(refused.value) == "P0 Prince on P7: no-such-player: there is no player 7"


def cardinal_look_pending() -> GameState:
    """Seat 0 has swapped the hands of seats 1 and 2 with a Cardinal."""
    state = push(table(Card.CARDINAL), PlayCard(0, Card.CARDINAL, 1, second_target=2))
    assert state.pending == (1, 2)
    return state


@pytest.mark.rule("cardinal.optional-look")
def test_the_cardinal_look_is_at_one_of_the_two_swapped_hands() -> None:
    state = cardinal_look_pending()
    with pytest.raises(IllegalCommand) as refused:
        push(state, LookAtHand(0, 3))
    assert refused.value.kind is R.INVALID_CHOICE
    assert refused.value.detail == "look at the hand of player 1 or 2"
    with pytest.raises(IllegalCommand) as refused:
        push(state, LookAtHand(0, "1"))  # type: ignore[arg-type]
    assert refused.value.kind is R.MALFORMED_COMMAND
    assert refused.value.detail == "owner must be a seat, not '1'"


@pytest.mark.rule("cardinal.optional-look")
def test_the_cardinal_answer_refuses_anything_but_a_look_or_decline() -> None:
    """The engine refuses other commands first; the card's rules do too."""
    state = cardinal_look_pending()
    with pytest.raises(IllegalCommand) as refused:
        cardinal.look(state, PlayCard(0, Card.GUARD, 1, 2))
    assert refused.value.kind is R.WRONG_DECISION
    assert refused.value.detail == "the Cardinal's player must answer LookAtHand or Decline"
    assert cardinal.look(state, Decline(0)) == (OptionDeclined(0),)


@pytest.mark.rule("cardinal.optional-look", "bishop.target-may-redraw")
def test_a_decline_with_no_optional_step_offered_cannot_follow() -> None:
    with pytest.raises(EventMismatch, match=r"^OptionDeclined: no optional step was offered$"):
        evolve(table(Card.PRINCE), OptionDeclined(0))
