"""Player turns: draw then play, turn order, the discard piles."""

from __future__ import annotations

import pytest

from loveletter import (
    Decision,
    DrawCard,
    PlayCard,
    PositionError,
    RejectionKind,
    from_position,
    legal_commands,
    new_game,
    playable_cards,
    view,
)
from loveletter.events import (
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    EliminationReason,
    HandSeen,
    PlayerEliminated,
    PlayerProtected,
)

from ._helpers import (
    BARON,
    COUNTESS,
    GUARD,
    HANDMAID,
    KING,
    PRIEST,
    PRINCE,
    PRINCESS,
    SPY,
    at,
    check,
    position,
    reject,
    stacked,
    turn,
)


@pytest.mark.rule("turn.draw-then-play")
def test_turn_draw_then_play_one_of_two_cards() -> None:
    """The turn draw gives the player two cards; they play one and keep the
    other. Either card may be the one played."""
    deck = stacked("2019", "Guard Priest Baron Handmaid Countess Prince")
    state = new_game("2019", 3, deck=deck)
    # set aside Guard; dealt 0: Priest, 1: Baron, 2: Handmaid; 0 draws the Countess
    assert state.decision is Decision.PLAY
    assert state.hands == ((PRIEST, COUNTESS), (BARON,), (HANDMAID,))
    assert playable_cards(state) == (PRIEST, COUNTESS)

    after = check(state, PlayCard(0, COUNTESS), CardPlayed(0, COUNTESS), *turn(1, PRINCE))
    assert after.hands == ((PRIEST,), (BARON, PRINCE), (HANDMAID,))
    assert after.discards[0] == (COUNTESS,)

    other = check(
        state,
        PlayCard(0, PRIEST, 1),
        CardPlayed(0, PRIEST, 1),
        HandSeen(0, 1, BARON),
        *turn(1, PRINCE),
    )
    assert other.hands == ((COUNTESS,), (BARON, PRINCE), (HANDMAID,))
    assert other.discards[0] == (PRIEST,)


@pytest.mark.rule("turn.draw-then-play")
def test_turn_undrawn_position_waits_for_the_draw() -> None:
    """A position described before the turn draw waits for the current
    player's DrawCard: nothing can be played yet, no one else may draw, and
    DrawCard is not accepted once the player holds two cards."""
    state = at(hands=["Guard", "Priest", "Baron"], deck="King Prince", drawn=False)
    assert state.decision is Decision.DRAW
    assert state.to_act == 0
    assert legal_commands(state) == (DrawCard(0),)
    assert playable_cards(state) == ()
    reject(state, PlayCard(0, GUARD, 1, PRIEST), RejectionKind.WRONG_DECISION)
    reject(state, DrawCard(1), RejectionKind.NOT_YOUR_TURN)
    drawn = at(hands=["Guard King", "Priest", "Baron"], deck="Prince", drawn=True)
    reject(drawn, DrawCard(0), RejectionKind.WRONG_DECISION)


@pytest.mark.rule("turn.draw-then-play")
def test_turn_draw_card_then_play_from_an_undrawn_position() -> None:
    """DrawCard takes the top card, and then the same player plays one of
    their two cards: the turn is not over after the draw."""
    state = at(hands=["Guard", "Priest", "Baron"], deck="King Prince", drawn=False)
    drawn = check(state, DrawCard(0), CardDrawn(0, KING, False))
    assert drawn.decision is Decision.PLAY
    assert drawn.current == 0
    assert drawn.hands == ((GUARD, KING), (PRIEST,), (BARON,))
    assert drawn.deck[0] is PRINCE
    check(
        drawn,
        PlayCard(0, GUARD, 1, PRIEST),
        CardPlayed(0, GUARD, 1, PRIEST),
        PlayerEliminated(1, EliminationReason.GUARD_GUESS, (PRIEST,)),
        *turn(2, PRINCE),
    )


@pytest.mark.rule("turn.draw-then-play")
def test_turn_never_starts_with_an_empty_deck() -> None:
    """Ruling 8: an empty deck ends the round at the end of a turn, so no
    turn starts without a card to draw; such a position is rejected."""
    bad = position(hands=["Guard", "Priest", ""], deck="", out=[2], rest=2, drawn=False)
    with pytest.raises(PositionError) as error:
        from_position(bad)
    assert error.value.field == "deck"


@pytest.mark.rule("turn.order")
def test_turn_order_clockwise_wraps_to_seat_0() -> None:
    """Ruling 2: clockwise is increasing seat number; after the last seat
    comes seat 0."""
    state = at(
        hands=["Guard", "Priest", "Baron", "Handmaid Countess"], deck="King Prince", current=3
    )
    check(state, PlayCard(3, HANDMAID), CardPlayed(3, HANDMAID), PlayerProtected(3), *turn(0, KING))
    state = at(hands=["Guard", "Priest Countess", "Baron", "Handmaid"], deck="King", current=1)
    check(state, PlayCard(1, COUNTESS), CardPlayed(1, COUNTESS), *turn(2, KING))


@pytest.mark.rule("turn.order", "out.turn-skipped")
@pytest.mark.parametrize(
    ("current", "out", "following"),
    [(0, [1], 2), (0, [1, 2], 3), (3, [0], 1), (3, [0, 1], 2), (2, [3, 0], 1)],
)
def test_turn_order_skips_players_out_of_the_round(
    current: int, out: list[int], following: int
) -> None:
    """The next turn goes to the next seat clockwise that is still in the round."""
    hands: list[str] = ["Guard", "Priest", "Baron", "Prince"]
    hands[current] = "Handmaid Countess"
    for seat in out:
        hands[seat] = ""
    state = at(hands=hands, deck="King", current=current, out=out)
    check(
        state,
        PlayCard(current, COUNTESS),
        CardPlayed(current, COUNTESS),
        *turn(following, KING),
    )


@pytest.mark.rule("turn.played-cards-face-up")
def test_turn_played_cards_face_up_in_arrival_order() -> None:
    """Played cards, Prince discards and knock-out discards go face up into
    their owner's pile, oldest first, and every player sees every pile."""
    state = at(
        hands=["Prince Guard", "Baron", "Princess"],
        discards=["Priest", "Handmaid", "Spy"],
        deck="King Countess Guard Guard",
    )
    # Seat 0's Prince makes seat 1 discard the Baron and draw the King.
    state = check(
        state,
        PlayCard(0, PRINCE, 1),
        CardPlayed(0, PRINCE, 1),
        CardDiscarded(1, BARON),
        CardDrawn(1, KING, False),
        *turn(1, COUNTESS),
    )
    assert state.discards == ((PRIEST, PRINCE), (HANDMAID, BARON), (SPY,))
    # Seat 1 holds King and Countess: the Countess must be played.
    state = check(state, PlayCard(1, COUNTESS), CardPlayed(1, COUNTESS), *turn(2, GUARD))
    # Seat 2 plays the Princess: out, the other card is discarded face up.
    state = check(
        state,
        PlayCard(2, PRINCESS),
        CardPlayed(2, PRINCESS),
        PlayerEliminated(2, EliminationReason.PRINCESS_DISCARDED, (GUARD,)),
        *turn(0, GUARD),
    )
    assert state.discards == ((PRIEST, PRINCE), (HANDMAID, BARON, COUNTESS), (SPY, PRINCESS, GUARD))
    for player in range(3):
        assert view(state, player).discards == state.discards
