"""Handmaid (4): protection until the start of the player's next turn."""

from __future__ import annotations

import pytest

from loveletter import Card, PlayCard, RejectionKind, StartRound, legal_commands, push
from loveletter.events import (
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    HandSeen,
    PlayerProtected,
    RoundEnded,
    RoundEndReason,
    TokenAwarded,
    TokenReason,
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
    at,
    check,
    reject,
    turn,
)

P = RejectionKind.TARGET_PROTECTED


@pytest.mark.rule("handmaid.protection-until-next-turn")
def test_handmaid_protection_until_next_turn() -> None:
    """Once seat 0 plays the Handmaid, no card may choose it; when its next
    turn starts the protection ends and it can be chosen again."""
    state = at(
        "2019-classic",
        hands=["Handmaid Guard", "Priest", "Baron"],
        deck="King Prince Guard Guard Priest Guard",
    )
    state = check(
        state, PlayCard(0, HANDMAID), CardPlayed(0, HANDMAID), PlayerProtected(0), *turn(1, KING)
    )
    assert state.protected == frozenset({0})
    # Seat 1 (Priest, King) cannot choose seat 0.
    reject(state, PlayCard(1, PRIEST, 0), P)
    reject(state, PlayCard(1, KING, 0), P)
    assert legal_commands(state, PRIEST) == (PlayCard(1, PRIEST, 2),)
    state = check(
        state,
        PlayCard(1, PRIEST, 2),
        CardPlayed(1, PRIEST, 2),
        HandSeen(1, 2, BARON),
        *turn(2, PRINCE),
    )
    # Seat 2 (Baron, Prince) cannot choose seat 0 either, with any card.
    reject(state, PlayCard(2, PRINCE, 0), P)
    reject(state, PlayCard(2, BARON, 0), P)
    assert state.protected == frozenset({0})
    state = check(
        state,
        PlayCard(2, PRINCE, 1),
        CardPlayed(2, PRINCE, 1),
        CardDiscarded(1, KING),
        CardDrawn(1, GUARD, False),
        *turn(0, GUARD),
    )
    # Seat 0's turn has started: protection is over.
    assert state.protected == frozenset()
    state = check(
        state,
        PlayCard(0, GUARD, 2, PRINCESS),
        CardPlayed(0, GUARD, 2, PRINCESS),
        *turn(1, PRIEST),
    )
    # Seat 0 can be chosen again.
    assert PlayCard(1, PRIEST, 0) in legal_commands(state)
    check(
        state,
        PlayCard(1, PRIEST, 0),
        CardPlayed(1, PRIEST, 0),
        HandSeen(1, 0, GUARD),
        *turn(2, GUARD),
    )


@pytest.mark.rule("handmaid.protection-until-next-turn", "round.new-round-setup")
def test_handmaid_protection_ends_with_the_round() -> None:
    """Ruling 7: protection ends at the round's end if that comes first,
    and never carries into the next round."""
    state = at(hands=["Handmaid Prince", "Priest", "Baron", ""], out=[3], rest=3)
    state = check(
        state,
        PlayCard(0, HANDMAID),
        CardPlayed(0, HANDMAID),
        PlayerProtected(0),
        RoundEnded(RoundEndReason.DECK_EMPTY, (0,), ((0, PRINCE), (1, PRIEST), (2, BARON))),
        TokenAwarded(0, TokenReason.ROUND_WIN, 1),
    )
    assert state.protected == frozenset()
    following = push(state, StartRound())
    assert following.protected == frozenset()


OTHER_PLAYER_CARDS = [GUARD, PRIEST, BARON, KING]


@pytest.mark.rule("handmaid.all-protected-no-effect", "targeting.other-player")
@pytest.mark.parametrize("card", OTHER_PLAYER_CARDS)
def test_handmaid_all_protected_no_effect(card: Card) -> None:
    """Every other player protected: a Guard, Priest, Baron or King is
    played with no target, no named card and no effect, and still goes to
    the discard pile. Choosing a protected player is rejected."""
    # the two Handmaids protect seats 1 and 2, so seat 0 keeps a Spy
    state = at(
        hands=[[card, Card.SPY], "Princess", "Countess"],
        protected=[1, 2],
        deck="Prince Guard",
    )
    assert legal_commands(state, card) == (PlayCard(0, card),)
    after = check(state, PlayCard(0, card), CardPlayed(0, card, None, None), *turn(1, PRINCE))
    assert after.hands == ((Card.SPY,), (PRINCESS, PRINCE), (COUNTESS,))
    assert after.discards[0] == (card,)
    assert after.out == frozenset()
    assert after.sightings == ()
    guess = PRINCESS if card is GUARD else None
    reject(state, PlayCard(0, card, 1, guess), P)
    reject(state, PlayCard(0, card, 2, guess), P)
    reject(state, PlayCard(0, card, 0, guess), RejectionKind.TARGET_NOT_ALLOWED)
    if card is GUARD:
        reject(state, PlayCard(0, GUARD, None, PRINCESS), RejectionKind.GUESS_NOT_ALLOWED)


@pytest.mark.rule("handmaid.all-protected-no-effect", "out.untargetable")
@pytest.mark.parametrize("card", OTHER_PLAYER_CARDS)
def test_handmaid_all_protected_or_out_no_effect(card: Card) -> None:
    """Ruling 6: players out of the round count like protected ones."""
    state = at(
        hands=[[card, HANDMAID], "", "Countess", ""],
        protected=[2],
        out=[1, 3],
        deck="Prince Guard",
    )
    assert legal_commands(state, card) == (PlayCard(0, card),)
    check(state, PlayCard(0, card), CardPlayed(0, card), *turn(2, PRINCE))
    reject(
        state,
        PlayCard(0, card, 1, PRINCESS if card is GUARD else None),
        RejectionKind.TARGET_OUT_OF_ROUND,
    )


@pytest.mark.rule("handmaid.all-protected-prince-self", "prince.any-player")
def test_handmaid_all_protected_prince_self() -> None:
    """Every other player protected: the Prince must choose its own player,
    who discards their other card and draws."""
    state = at(hands=["Prince Baron", "Princess", "Countess"], protected=[1, 2], deck="King Guard")
    assert legal_commands(state, PRINCE) == (PlayCard(0, PRINCE, 0),)
    reject(state, PlayCard(0, PRINCE, 1), P)
    reject(state, PlayCard(0, PRINCE, 2), P)
    reject(state, PlayCard(0, PRINCE), RejectionKind.TARGET_REQUIRED)
    after = check(
        state,
        PlayCard(0, PRINCE, 0),
        CardPlayed(0, PRINCE, 0),
        CardDiscarded(0, BARON),
        CardDrawn(0, KING, False),
        *turn(1, GUARD),
    )
    assert after.discards[0] == (PRINCE, BARON)
    assert after.hands[0] == (KING,)
