"""Dowager Queen (7, Premium with 5 to 8 players): compare hands with
another player; the higher number is knocked out."""

from __future__ import annotations

import pytest

from loveletter import (
    Card,
    GameState,
    PlayCard,
    RejectionKind,
    Sighting,
    decide,
    events_for,
    legal_commands,
)
from loveletter.events import CardPlayed, EliminationReason, HandsCompared, PlayerEliminated

from ._helpers import (
    BISHOP,
    CONSTABLE,
    COUNTESS,
    DOWAGER_QUEEN,
    GUARD,
    HANDMAID,
    KING,
    PRIEST,
    PRINCE,
    PRINCESS,
    SYCOPHANT,
    check,
    premium,
    reject,
    turn,
)

R = RejectionKind
HIGHER_OUT = "dowager-queen.compare-higher-out"
BY_DOWAGER = EliminationReason.DOWAGER_COMPARISON


def compared(mine: Card, theirs: Card) -> GameState:
    """A fresh 5-player deal: seat 0 holds the Dowager Queen and ``mine``,
    seat 1 ``theirs``; the next card of the deck is a Guard."""
    return premium(hands=[[DOWAGER_QUEEN, mine], [theirs], "Guard", "Guard", "Guard"], deck="Guard")


@pytest.mark.rule(HIGHER_OUT)
def test_dowager_queen_compare_higher_out_the_other_player() -> None:
    """Seat 0 keeps a Guard (1), seat 1 holds the King (6): seat 1 is out."""
    state = compared(GUARD, KING)
    after = check(
        state,
        PlayCard(0, DOWAGER_QUEEN, 1),
        CardPlayed(0, DOWAGER_QUEEN, 1),
        HandsCompared(0, 1, GUARD, KING, DOWAGER_QUEEN),
        PlayerEliminated(1, BY_DOWAGER, (KING,)),
        *turn(2, GUARD),
    )
    assert after.out == frozenset({1}) and after.discards[1] == (KING,)


@pytest.mark.rule(HIGHER_OUT)
def test_dowager_queen_compare_higher_out_its_own_player() -> None:
    """Seat 0 keeps the Countess (7) against a Priest (2): seat 0 is out."""
    state = compared(COUNTESS, PRIEST)
    check(
        state,
        PlayCard(0, DOWAGER_QUEEN, 1),
        CardPlayed(0, DOWAGER_QUEEN, 1),
        HandsCompared(0, 1, COUNTESS, PRIEST, DOWAGER_QUEEN),
        PlayerEliminated(0, BY_DOWAGER, (COUNTESS,)),
        *turn(1, GUARD),
    )


@pytest.mark.rule(HIGHER_OUT, "bishop.princess-beats-bishop")
@pytest.mark.parametrize("bishop_with_dowager", [True, False])
def test_dowager_queen_compare_higher_out_the_bishop_above_the_princess(
    bishop_with_dowager: bool,
) -> None:
    """Ruling 37: printed numbers; the Bishop (9) is higher than the
    Princess (8), so the Bishop's holder is knocked out."""
    mine, theirs = (BISHOP, PRINCESS) if bishop_with_dowager else (PRINCESS, BISHOP)
    loser = 0 if bishop_with_dowager else 1
    check(
        compared(mine, theirs),
        PlayCard(0, DOWAGER_QUEEN, 1),
        CardPlayed(0, DOWAGER_QUEEN, 1),
        HandsCompared(0, 1, mine, theirs, DOWAGER_QUEEN),
        PlayerEliminated(loser, BY_DOWAGER, (BISHOP,)),
        *turn(2 if loser == 1 else 1, GUARD),
    )


@pytest.mark.rule("dowager-queen.tie-no-effect", "setup.card-values-premium")
@pytest.mark.parametrize(
    ("mine", "theirs"), [(HANDMAID, SYCOPHANT), (KING, CONSTABLE), (PRINCE, PRINCE)]
)
def test_dowager_queen_tie_no_effect(mine: Card, theirs: Card) -> None:
    """Equal numbers, whatever the kinds: nothing happens."""
    after = check(
        compared(mine, theirs),
        PlayCard(0, DOWAGER_QUEEN, 1),
        CardPlayed(0, DOWAGER_QUEEN, 1),
        HandsCompared(0, 1, mine, theirs, DOWAGER_QUEEN),
        *turn(1, GUARD),
    )
    assert after.out == frozenset()


@pytest.mark.rule("dowager-queen.secret-comparison")
def test_dowager_queen_secret_comparison() -> None:
    """Only the two compared players see both cards; the others learn who
    is knocked out and see only the card that goes face up."""
    state = compared(GUARD, KING)
    events = decide(state, PlayCard(0, DOWAGER_QUEEN, 1))
    for player in (0, 1):
        assert events_for(player, events)[:3] == events[:3]
    for player in (2, 3, 4):
        seen = events_for(player, events)
        assert seen[1] == HandsCompared(0, 1, None, None, DOWAGER_QUEEN)
        assert seen[2] == PlayerEliminated(1, BY_DOWAGER, (KING,))
    after = check(state, PlayCard(0, DOWAGER_QUEEN, 1), *events)
    assert after.sightings == (
        Sighting(0, 1, KING, 1, DOWAGER_QUEEN),
        Sighting(1, 0, GUARD, 1, DOWAGER_QUEEN),
    )


@pytest.mark.rule(HIGHER_OUT, "targeting.choose-impossible-no-effect", "game.rules-enforced")
def test_dowager_queen_compare_higher_out_another_player_who_can_be_chosen() -> None:
    state = compared(GUARD, KING)
    assert legal_commands(state, DOWAGER_QUEEN) == tuple(
        PlayCard(0, DOWAGER_QUEEN, t) for t in range(1, 5)
    )
    reject(state, PlayCard(0, DOWAGER_QUEEN, 0), R.TARGET_NOT_ALLOWED)
    reject(state, PlayCard(0, DOWAGER_QUEEN), R.TARGET_REQUIRED)
    reject(state, PlayCard(0, DOWAGER_QUEEN, 1, 6), R.GUESS_NOT_ALLOWED)
