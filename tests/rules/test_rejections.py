"""Illegal commands: each is rejected with its RejectionKind, the state unchanged."""

from __future__ import annotations

from typing import cast

import pytest

from loveletter import (
    Card,
    DrawCard,
    GameState,
    IllegalCommand,
    KeepCard,
    PlayCard,
    RejectionKind,
    StartRound,
    get_ruleset,
    new_game,
    push,
    start_game,
)

from ._helpers import (
    BARON,
    CHANCELLOR,
    COUNTESS,
    GUARD,
    HANDMAID,
    KING,
    PRIEST,
    PRINCE,
    PRINCESS,
    SPY,
    at,
    reject,
    stacked,
)

R = RejectionKind


def _playing() -> GameState:
    """Seat 0 of 3 holds Guard and Handmaid; seats 1 and 2 a Priest and a Baron."""
    return at(hands=["Guard Handmaid", "Priest", "Baron"], deck="King Prince")


def _between_rounds() -> GameState:
    state = at(hands=["Princess Guard", "Priest", ""], out=[2], deck="King")
    return push(state, PlayCard(0, PRINCESS))  # seat 1 wins: the round is over


def _game_over() -> GameState:
    state = at(hands=["Princess Guard", "Priest", ""], out=[2], deck="King", tokens=[0, 4, 0])
    state = push(state, PlayCard(0, PRINCESS))
    assert state.is_over
    return state


@pytest.mark.rule("turn.order")
def test_turn_order_not_your_turn() -> None:
    state = _playing()
    reject(state, PlayCard(1, PRIEST, 0), R.NOT_YOUR_TURN)
    reject(state, PlayCard(2, BARON, 1), R.NOT_YOUR_TURN)
    reject(state, PlayCard(7, GUARD, 1, PRIEST), R.NOT_YOUR_TURN)
    undrawn = at(hands=["Guard", "Priest", "Baron"], deck="King", drawn=False)
    reject(undrawn, DrawCard(2), R.NOT_YOUR_TURN)


@pytest.mark.rule("turn.draw-then-play")
def test_turn_draw_then_play_card_not_in_hand() -> None:
    """Only a card in the player's own hand can be played."""
    state = _playing()
    reject(state, PlayCard(0, PRIEST, 1), R.CARD_NOT_IN_HAND)  # seat 1's card
    reject(state, PlayCard(0, KING, 1), R.CARD_NOT_IN_HAND)  # in the deck
    reject(state, PlayCard(0, COUNTESS), R.CARD_NOT_IN_HAND)


@pytest.mark.rule("targeting.other-player", "prince.any-player")
def test_targeting_no_such_player() -> None:
    state = _playing()
    reject(state, PlayCard(0, GUARD, 3, PRIEST), R.NO_SUCH_PLAYER)
    reject(state, PlayCard(0, GUARD, -1, PRIEST), R.NO_SUCH_PLAYER)
    prince = at(hands=["Prince Handmaid", "Priest", "Baron"], deck="King")
    reject(prince, PlayCard(0, PRINCE, 3), R.NO_SUCH_PLAYER)


@pytest.mark.rule("targeting.other-player", "spy.no-effect", "countess.no-effect")
@pytest.mark.parametrize("card", [SPY, HANDMAID, CHANCELLOR, COUNTESS, PRINCESS])
def test_targeting_cards_that_choose_no_one(card: Card) -> None:
    """A card that chooses no player rejects a target (even oneself) and a
    named card."""
    state = at(hands=[[card, GUARD], "Priest", "Baron"], deck="King Prince")
    reject(state, PlayCard(0, card, 1), R.TARGET_NOT_ALLOWED)
    reject(state, PlayCard(0, card, 0), R.TARGET_NOT_ALLOWED)
    reject(state, PlayCard(0, card, None, PRIEST), R.GUESS_NOT_ALLOWED)


@pytest.mark.rule("guard.name-non-guard", "targeting.other-player")
@pytest.mark.parametrize("card", [PRIEST, BARON, KING, PRINCE])
def test_guard_name_only_a_guard_names_a_card(card: Card) -> None:
    state = at(hands=[[card, GUARD], "Priest", "Baron"], deck="Handmaid")
    reject(state, PlayCard(0, card, 1, PRIEST), R.GUESS_NOT_ALLOWED)


@pytest.mark.rule("chancellor.draw-two-keep-one", "turn.draw-then-play")
def test_chancellor_wrong_decision_while_pending() -> None:
    """PlayCard while a Chancellor choice is pending is WRONG_DECISION."""
    state = at(hands=["Chancellor Guard", "Priest", "Baron"], deck="King Prince Handmaid")
    pending = push(state, PlayCard(0, CHANCELLOR))
    reject(pending, PlayCard(0, GUARD, 1, PRIEST), R.WRONG_DECISION)
    reject(pending, PlayCard(0, KING, 1), R.WRONG_DECISION)
    reject(pending, DrawCard(0), R.WRONG_DECISION)
    reject(pending, StartRound(), R.WRONG_DECISION)


@pytest.mark.rule("turn.draw-then-play", "round.end-deck-empty")
def test_turn_wrong_decision() -> None:
    """Commands that answer a decision the game is not waiting for."""
    state = _playing()
    reject(state, KeepCard(0, GUARD, (HANDMAID,)), R.WRONG_DECISION)
    reject(state, DrawCard(0), R.WRONG_DECISION)
    reject(state, StartRound(), R.WRONG_DECISION)
    between = _between_rounds()
    reject(between, PlayCard(1, PRIEST, 0), R.WRONG_DECISION)
    reject(between, DrawCard(1), R.WRONG_DECISION)
    reject(between, KeepCard(1, PRIEST, ()), R.WRONG_DECISION)


@pytest.mark.rule("game.tokens-to-win")
def test_game_over_rejects_everything() -> None:
    """Once the game is over nothing more can happen."""
    state = _game_over()
    assert state.winners == (1,)
    reject(state, StartRound(), R.GAME_OVER)
    reject(state, StartRound(deck=stacked("2019", "")), R.GAME_OVER)
    reject(state, PlayCard(1, PRIEST, 0), R.GAME_OVER)
    reject(state, KeepCard(1, PRIEST, ()), R.GAME_OVER)
    reject(state, DrawCard(1), R.GAME_OVER)


@pytest.mark.rule("setup.deck-2019", "setup.deck-classic", "setup.shuffle")
def test_setup_invalid_deck() -> None:
    """A stacked deck must be exactly the edition's cards."""
    state = _between_rounds()
    full = stacked("2019", "")
    reject(state, StartRound(deck=full[:-1]), R.INVALID_DECK)  # a card missing
    reject(state, StartRound(deck=(*full, GUARD)), R.INVALID_DECK)  # one too many
    reject(state, StartRound(deck=(*full[1:], PRINCESS)), R.INVALID_DECK)  # Guard -> Princess
    reject(state, StartRound(deck=get_ruleset("2019-classic").deck), R.INVALID_DECK)
    reject(state, StartRound(deck=()), R.INVALID_DECK)
    classic = at("2019-classic", hands=["Princess Guard", "Priest", ""], out=[2], deck="King")
    classic = push(classic, PlayCard(0, PRINCESS))
    reject(classic, StartRound(deck=full), R.INVALID_DECK)
    for bad in (full[:-1], get_ruleset("2019-classic").deck):
        with pytest.raises(IllegalCommand) as error:
            new_game("2019", 3, deck=bad)
        assert error.value.kind is R.INVALID_DECK
        with pytest.raises(IllegalCommand) as error:
            start_game("2019", 3, deck=bad)
        assert error.value.kind is R.INVALID_DECK


@pytest.mark.rule("chancellor.draw-two-keep-one", "round.next-first-player")
def test_invalid_choice() -> None:
    """A KeepCard that does not match the held cards, or a first player who
    did not win the previous round, is INVALID_CHOICE."""
    state = at(hands=["Chancellor Guard", "Priest", "Baron"], deck="King Prince Handmaid")
    pending = push(state, PlayCard(0, CHANCELLOR))
    reject(pending, KeepCard(0, PRINCESS, (KING, PRINCE)), R.INVALID_CHOICE)
    reject(pending, KeepCard(0, GUARD, (KING,)), R.INVALID_CHOICE)
    reject(pending, KeepCard(0, GUARD, (KING, PRINCE, PRIEST)), R.INVALID_CHOICE)
    between = _between_rounds()
    reject(between, StartRound(first_player=0), R.INVALID_CHOICE)
    reject(between, StartRound(first_player=2), R.INVALID_CHOICE)
    reject(between, StartRound(first_player=5), R.INVALID_CHOICE)


@pytest.mark.rule("chancellor.draw-two-keep-one")
def test_chancellor_keep_card_malformed() -> None:
    """A KeepCard naming something that is not a card is malformed."""
    state = at(hands=["Chancellor Guard", "Priest", "Baron"], deck="King Prince Handmaid")
    pending = push(state, PlayCard(0, CHANCELLOR))
    reject(pending, KeepCard(0, cast(Card, None), (KING, PRINCE)), R.MALFORMED_COMMAND)
