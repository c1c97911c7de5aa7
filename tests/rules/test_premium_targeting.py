"""Choosing players in Premium (001 "Choosing a Player", rulings 24 and
25): who can be chosen, who may choose themselves, and cards whose choice
is impossible."""

from __future__ import annotations

import pytest

from loveletter import Card, GameState, PlayCard, RejectionKind, legal_commands
from loveletter.events import (
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    ChoiceRestricted,
)

from ._helpers import (
    BARON,
    BARONESS,
    BISHOP,
    CARDINAL,
    DOWAGER_QUEEN,
    GUARD,
    JESTER,
    KING,
    PRIEST,
    PRINCE,
    SYCOPHANT,
    check,
    premium,
    reject,
    turn,
)

R = RejectionKind
IMPOSSIBLE = "targeting.choose-impossible-no-effect"
#: the cards that choose only other players
OTHERS_ONLY = [GUARD, PRIEST, BARON, KING, DOWAGER_QUEEN, JESTER, BISHOP, BARONESS]
#: every card that chooses players
CHOOSING = [*OTHERS_ONLY, PRINCE, SYCOPHANT, CARDINAL]


def choosing(card: Card, target: int) -> PlayCard:
    """Seat 0 plays ``card`` choosing ``target`` (a Cardinal: seat 0 itself
    and ``target``), naming a number if the card names one."""
    if card is CARDINAL:
        return PlayCard(0, card, 0, None, target)
    return PlayCard(0, card, target, 5 if card in (GUARD, BISHOP) else None)


def turn_six(card: Card) -> GameState:
    """Turn 6 of a 5-player round: seat 2 played the Handmaid on turn 3 and
    is protected until its next turn."""
    return premium(
        hands=[[card, GUARD], "Priest", "Baron", "Count", "Countess"],
        discards=["Guard", "Guard", "Handmaid", "Guard", "Guard"],
        protected=[2],
        deck="Guard",
    )


@pytest.mark.rule(IMPOSSIBLE, "handmaid.protection-until-next-turn")
@pytest.mark.parametrize("card", CHOOSING)
def test_targeting_a_protected_player_cannot_be_chosen_by_any_card(card: Card) -> None:
    """Ruling 24: protection means not being choosable, by every card that
    chooses (Sycophant, Jester, Bishop, Cardinal, Baroness included)."""
    state = turn_six(card)
    reject(state, choosing(card, 2), R.TARGET_PROTECTED)
    chosen = {
        seat
        for command in legal_commands(state, card)
        if isinstance(command, PlayCard)
        for seat in (command.target, command.second_target)
    }
    assert 2 not in chosen and 1 in chosen


def alone_but_protected(card: Card) -> GameState:
    """Turn 6: seats 2 and 3 were knocked out by the Guards of seats 0 and
    1, seat 4 lost its own Baron to seat 0, and seat 1 played the Handmaid
    on turn 5: no other player can be chosen."""
    return premium(
        hands=[[card, GUARD], "Priest", "", "", ""],
        discards=["Guard Guard", "Guard Handmaid", "Cardinal", "Count", "Baron Assassin"],
        out=[2, 3, 4],
        protected=[1],
        deck="Guard Prince",
    )


@pytest.mark.rule(IMPOSSIBLE, "handmaid.all-protected-no-effect")
@pytest.mark.parametrize("card", [*OTHERS_ONLY, CARDINAL])
def test_targeting_choose_impossible_no_effect_when_no_one_can_be_chosen(card: Card) -> None:
    """Every other player still in is protected: a card that chooses other
    players, or a Cardinal (which needs two), is played with no target and
    no number, and does nothing."""
    state = alone_but_protected(card)
    assert state.turn_number == 6
    assert legal_commands(state, card) == (PlayCard(0, card),)
    reject(state, choosing(card, 1), R.TARGET_PROTECTED)
    if card in (GUARD, BISHOP):
        reject(state, PlayCard(0, card, None, 5), R.GUESS_NOT_ALLOWED)
    after = check(state, PlayCard(0, card), CardPlayed(0, card), *turn(1, GUARD))
    assert after.out == frozenset({2, 3, 4}) and after.marks == () and after.tokens[0] == 0


@pytest.mark.rule(IMPOSSIBLE, "handmaid.all-protected-prince-self", "prince.any-player")
def test_targeting_choose_impossible_the_prince_chooses_its_own_player() -> None:
    state = alone_but_protected(PRINCE)
    assert legal_commands(state, PRINCE) == (PlayCard(0, PRINCE, 0),)
    reject(state, PlayCard(0, PRINCE), R.TARGET_REQUIRED)
    check(
        state,
        PlayCard(0, PRINCE, 0),
        CardPlayed(0, PRINCE, 0),
        CardDiscarded(0, GUARD),
        CardDrawn(0, GUARD, False),
        *turn(1, PRINCE),
    )


@pytest.mark.rule(IMPOSSIBLE, "sycophant.next-card-must-choose")
def test_targeting_choose_impossible_the_sycophant_chooses_its_own_player() -> None:
    state = alone_but_protected(SYCOPHANT)
    assert legal_commands(state, SYCOPHANT) == (PlayCard(0, SYCOPHANT, 0),)
    reject(state, PlayCard(0, SYCOPHANT), R.TARGET_REQUIRED)
    after = check(
        state,
        PlayCard(0, SYCOPHANT, 0),
        CardPlayed(0, SYCOPHANT, 0),
        ChoiceRestricted(0, 0),
        *turn(1, GUARD),
    )
    assert after.required == 0


@pytest.mark.rule(IMPOSSIBLE)
@pytest.mark.parametrize("card", OTHERS_ONLY)
def test_targeting_only_the_prince_sycophant_and_cardinal_choose_their_own_player(
    card: Card,
) -> None:
    """Every other card that chooses chooses only other players."""
    state = turn_six(card)
    reject(state, choosing(card, 0), R.TARGET_NOT_ALLOWED)
    assert all(
        0 not in (command.target, command.second_target)
        for command in legal_commands(state, card)
        if isinstance(command, PlayCard)
    )


@pytest.mark.rule(IMPOSSIBLE, "prince.any-player", "cardinal.swap-two-players")
@pytest.mark.parametrize("card", [PRINCE, SYCOPHANT, CARDINAL])
def test_targeting_the_prince_sycophant_and_cardinal_may_choose_their_own_player(
    card: Card,
) -> None:
    state = turn_six(card)
    assert any(
        0 in (command.target, command.second_target)
        for command in legal_commands(state, card)
        if isinstance(command, PlayCard)
    )


@pytest.mark.rule(IMPOSSIBLE, "out.untargetable")
@pytest.mark.parametrize("card", CHOOSING)
def test_targeting_a_player_out_of_the_round_cannot_be_chosen(card: Card) -> None:
    state = alone_but_protected(card)
    reject(state, choosing(card, 3), R.TARGET_OUT_OF_ROUND)
