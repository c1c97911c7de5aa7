"""Sycophant (4, Premium with 5 to 8 players): choose a player, oneself
included; the next card played, if it chooses players, must choose them."""

from __future__ import annotations

import pytest

from loveletter import Card, GameState, PlayCard, RejectionKind, StartRound, legal_commands, push
from loveletter.events import (
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    ChoiceRestricted,
    HandSeen,
    HandsTraded,
    LookOffered,
    PlayerProtected,
    RoundEnded,
    RoundEndReason,
    TokenAwarded,
    TokenReason,
)

from ._helpers import (
    BARON,
    BARONESS,
    BISHOP,
    CARDINAL,
    COUNTESS,
    DOWAGER_QUEEN,
    GUARD,
    HANDMAID,
    JESTER,
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
RULE = "sycophant.next-card-must-choose"


def required(chosen: int, second: str = "Guard", draw: str = "Guard") -> GameState:
    """Turn 2 of a 5-player round: seat 0's Sycophant chose ``chosen``;
    seat 1 holds ``second`` and has drawn ``draw``; the deck then holds the
    Countess and a Prince."""
    state = premium(
        hands=["Sycophant Priest", second, "Baron", "Handmaid", "Count"],
        deck=f"{draw} Countess Prince",
    )
    return check(
        state,
        PlayCard(0, SYCOPHANT, chosen),
        CardPlayed(0, SYCOPHANT, chosen),
        ChoiceRestricted(0, chosen),
        *turn(1, Card.parse(draw)),
    )


@pytest.mark.rule(RULE, "targeting.choose-impossible-no-effect")
def test_sycophant_next_card_must_choose_any_player_its_own_included() -> None:
    """001: "choose a player (including yourself)"; the choice is recorded
    for everyone to see."""
    state = premium(hands=["Sycophant Priest", "Guard", "Baron", "Handmaid", "Count"], deck="King")
    assert legal_commands(state, SYCOPHANT) == tuple(PlayCard(0, SYCOPHANT, t) for t in range(5))
    reject(state, PlayCard(0, SYCOPHANT), R.TARGET_REQUIRED)
    for chosen in range(5):
        after = check(
            state,
            PlayCard(0, SYCOPHANT, chosen),
            CardPlayed(0, SYCOPHANT, chosen),
            ChoiceRestricted(0, chosen),
            *turn(1, KING),
        )
        assert after.required == chosen


@pytest.mark.rule(RULE, "guard.name-number")
def test_sycophant_next_card_must_choose_the_required_player() -> None:
    """Seat 1's Guard must choose seat 3; the number stays free."""
    state = required(3)
    assert legal_commands(state, GUARD) == tuple(
        PlayCard(1, GUARD, 3, n) for n in (0, 2, 3, 4, 5, 6, 7, 8, 9)
    )
    reject(state, PlayCard(1, GUARD, 2, 3), R.REQUIRED_PLAYER_NOT_CHOSEN)
    reject(state, PlayCard(1, GUARD, 0, 2), R.REQUIRED_PLAYER_NOT_CHOSEN)
    after = check(state, PlayCard(1, GUARD, 3, 2), CardPlayed(1, GUARD, 3, 2), *turn(2, COUNTESS))
    assert after.required is None


@pytest.mark.rule(RULE, "targeting.choose-impossible-no-effect")
@pytest.mark.parametrize(
    "card", [GUARD, PRIEST, BARON, KING, DOWAGER_QUEEN, JESTER, BISHOP, BARONESS]
)
def test_sycophant_next_card_must_choose_a_card_that_cannot_has_no_effect(card: Card) -> None:
    """Seat 0 chose seat 1, whose card only chooses other players: it is
    played with no target (and no number) and does nothing (001 "Choosing
    a Player")."""
    state = required(1, second="Guard", draw=card.title)
    assert legal_commands(state, card) == (PlayCard(1, card),)
    reject(
        state,
        PlayCard(1, card, 2, *((5,) if card in (GUARD, BISHOP) else ())),
        R.REQUIRED_PLAYER_NOT_CHOSEN,
    )
    after = check(state, PlayCard(1, card), CardPlayed(1, card), *turn(2, COUNTESS))
    assert after.required is None and after.out == frozenset()


@pytest.mark.rule(RULE, "prince.any-player")
def test_sycophant_next_card_must_choose_a_prince_must_choose_them() -> None:
    """A Prince must choose the required player, even its own player."""
    other = required(2, draw="Prince")
    assert legal_commands(other, PRINCE) == (PlayCard(1, PRINCE, 2),)
    reject(other, PlayCard(1, PRINCE, 1), R.REQUIRED_PLAYER_NOT_CHOSEN)
    check(
        other,
        PlayCard(1, PRINCE, 2),
        CardPlayed(1, PRINCE, 2),
        CardDiscarded(2, BARON),
        CardDrawn(2, COUNTESS, False),
        *turn(2, PRINCE),
    )
    itself = required(1, draw="Prince")
    assert legal_commands(itself, PRINCE) == (PlayCard(1, PRINCE, 1),)
    check(
        itself,
        PlayCard(1, PRINCE, 1),
        CardPlayed(1, PRINCE, 1),
        CardDiscarded(1, GUARD),
        CardDrawn(1, COUNTESS, False),
        *turn(2, PRINCE),
    )


@pytest.mark.rule(RULE, "cardinal.swap-two-players")
def test_sycophant_next_card_must_choose_a_cardinal_pair_must_contain_them() -> None:
    state = required(3, draw="Cardinal")
    assert legal_commands(state, CARDINAL) == (
        PlayCard(1, CARDINAL, 0, None, 3),
        PlayCard(1, CARDINAL, 1, None, 3),
        PlayCard(1, CARDINAL, 2, None, 3),
        PlayCard(1, CARDINAL, 3, None, 4),
    )
    reject(state, PlayCard(1, CARDINAL, 0, None, 2), R.REQUIRED_PLAYER_NOT_CHOSEN)
    check(
        state,
        PlayCard(1, CARDINAL, 1, None, 3),
        CardPlayed(1, CARDINAL, 1, None, 3),
        HandsTraded(1, 3, CARDINAL),
        LookOffered(1, (1, 3)),
    )


@pytest.mark.rule(RULE, "baroness.look-one-or-two")
def test_sycophant_next_card_must_choose_a_baroness_must_include_them() -> None:
    state = required(3, draw="Baroness")
    assert legal_commands(state, BARONESS) == (
        PlayCard(1, BARONESS, 0, None, 3),
        PlayCard(1, BARONESS, 2, None, 3),
        PlayCard(1, BARONESS, 3),
        PlayCard(1, BARONESS, 3, None, 4),
    )
    reject(state, PlayCard(1, BARONESS, 2), R.REQUIRED_PLAYER_NOT_CHOSEN)
    reject(state, PlayCard(1, BARONESS, 0, None, 2), R.REQUIRED_PLAYER_NOT_CHOSEN)
    check(
        state,
        PlayCard(1, BARONESS, 3),
        CardPlayed(1, BARONESS, 3),
        HandSeen(1, 3, HANDMAID, BARONESS),
        *turn(2, COUNTESS),
    )


@pytest.mark.rule(RULE)
def test_sycophant_next_card_must_choose_ends_with_the_next_card_played() -> None:
    """The requirement binds only the next card played: seat 1's Handmaid
    chooses no one and ends it; seat 2's Baron may then choose anyone."""
    state = required(3, draw="Handmaid")
    after = check(
        state,
        PlayCard(1, HANDMAID),
        CardPlayed(1, HANDMAID),
        PlayerProtected(1),
        *turn(2, COUNTESS),
    )
    assert after.required is None
    assert {c.target for c in legal_commands(after, BARON) if isinstance(c, PlayCard)} == {0, 3, 4}


@pytest.mark.rule(RULE, "handmaid.protection-until-next-turn")
def test_sycophant_next_card_must_choose_a_second_sycophant_chooses_them_again() -> None:
    """A Sycophant chooses players, so it must choose the required one, and
    sets the same requirement for the card after it."""
    state = required(4, draw="Sycophant")
    assert legal_commands(state, SYCOPHANT) == (PlayCard(1, SYCOPHANT, 4),)
    after = check(
        state,
        PlayCard(1, SYCOPHANT, 4),
        CardPlayed(1, SYCOPHANT, 4),
        ChoiceRestricted(1, 4),
        *turn(2, COUNTESS),
    )
    assert after.required == 4


@pytest.mark.rule(RULE, "round.end-deck-empty", "round.new-round-setup")
def test_sycophant_next_card_must_choose_ends_with_the_round() -> None:
    """A Sycophant played on the last turn binds nothing: the requirement
    ends with the round and the next round starts without one."""
    state = premium(
        hands=["Sycophant Handmaid", "Princess", "Prince", "Prince", "Guard"],
        discards=[
            "Guard Guard Priest Baron Countess",
            "Guard Guard Priest Handmaid King",
            "Guard Guard Baron Sycophant Cardinal",
            "Guard Count Baroness Cardinal Bishop",
            "Count DowagerQueen Constable Baroness Assassin",
        ],
        set_aside="Jester",
    )
    assert state.deck == ()
    after = check(
        state,
        PlayCard(0, SYCOPHANT, 1),
        CardPlayed(0, SYCOPHANT, 1),
        ChoiceRestricted(0, 1),
        RoundEnded(
            RoundEndReason.DECK_EMPTY,
            (1,),
            ((0, HANDMAID), (1, PRINCESS), (2, PRINCE), (3, PRINCE), (4, GUARD)),
        ),
        TokenAwarded(1, TokenReason.ROUND_WIN, 1),
    )
    assert after.required is None
    assert push(after, StartRound()).required is None
