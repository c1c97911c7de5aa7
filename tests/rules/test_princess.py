"""Princess (9): out when played or discarded, not when passed or returned."""

from __future__ import annotations

import pytest

from loveletter import KeepCard, PlayCard
from loveletter.events import (
    CardDiscarded,
    CardPlayed,
    CardsReturned,
    ChancellorDrew,
    EliminationReason,
    HandsTraded,
    PlayerEliminated,
    RoundEnded,
    RoundEndReason,
    TokenAwarded,
    TokenReason,
)

from ._helpers import (
    BARON,
    CHANCELLOR,
    GUARD,
    KING,
    PRIEST,
    PRINCE,
    PRINCESS,
    at,
    check,
    turn,
)

PRINCESS_OUT = EliminationReason.PRINCESS_DISCARDED
RULE = "princess.eliminated-when-played-or-discarded"


@pytest.mark.rule(RULE, "out.turn-skipped")
def test_princess_played_out() -> None:
    """Ruling 19: playing the Princess knocks her player out at once, the
    other card is discarded face up, and the turn passes on."""
    state = at(hands=["Princess Guard", "Priest", "Baron"], deck="King")
    after = check(
        state,
        PlayCard(0, PRINCESS),
        CardPlayed(0, PRINCESS),
        PlayerEliminated(0, PRINCESS_OUT, (GUARD,)),
        *turn(1, KING),
    )
    assert after.out == frozenset({0})
    assert after.discards[0] == (PRINCESS, GUARD)


@pytest.mark.rule(RULE, "round.end-one-player-left")
def test_princess_played_out_last_opponent_wins() -> None:
    """With two players in, playing the Princess ends the round at once."""
    state = at(hands=["Guard Princess", "Priest"], deck="King Baron")
    check(
        state,
        PlayCard(0, PRINCESS),
        CardPlayed(0, PRINCESS),
        PlayerEliminated(0, PRINCESS_OUT, (GUARD,)),
        RoundEnded(RoundEndReason.ONE_PLAYER_LEFT, (1,), ()),
        TokenAwarded(1, TokenReason.ROUND_WIN, 1),
    )


@pytest.mark.rule(RULE, "prince.princess-discard-eliminates")
def test_princess_discarded_by_a_prince_out() -> None:
    """Made to discard the Princess by another player's Prince: out."""
    state = at(hands=["Guard Prince", "Baron", "Princess"], deck="King")
    after = check(
        state,
        PlayCard(0, PRINCE, 2),
        CardPlayed(0, PRINCE, 2),
        CardDiscarded(2, PRINCESS),
        PlayerEliminated(2, PRINCESS_OUT, ()),
        *turn(1, KING),
    )
    assert after.out == frozenset({2})
    assert len(after.deck) == len(state.deck) - 1  # only the next turn draw


@pytest.mark.rule(RULE, "king.trade-hands")
def test_princess_passed_with_the_king_not_out() -> None:
    """Giving the Princess away with the King is neither playing nor
    discarding her: nobody is out."""
    state = at(hands=["King Princess", "Baron", "Priest"], deck="Guard")
    after = check(
        state, PlayCard(0, KING, 2), CardPlayed(0, KING, 2), HandsTraded(0, 2), *turn(1, GUARD)
    )
    assert after.out == frozenset()
    assert after.hands == ((PRIEST,), (BARON, GUARD), (PRINCESS,))


@pytest.mark.rule(RULE, "chancellor.return-bottom-any-order")
def test_princess_returned_with_the_chancellor_not_out() -> None:
    """Ruling 11: putting the Princess under the deck with the Chancellor
    knocks no one out; she goes back into the deck."""
    state = at(hands=["Chancellor Princess", "Baron", "Priest"], deck="Guard King Guard")
    state = check(
        state,
        PlayCard(0, CHANCELLOR),
        CardPlayed(0, CHANCELLOR),
        ChancellorDrew(0, 2, (GUARD, KING)),
    )
    after = check(
        state,
        KeepCard(0, KING, (PRINCESS, GUARD)),
        CardsReturned(0, 2, (PRINCESS, GUARD)),
        *turn(1, GUARD),
    )
    assert after.out == frozenset()
    assert after.deck[-2:] == (PRINCESS, GUARD)
    assert after.discards[0] == (CHANCELLOR,)
