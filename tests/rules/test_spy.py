"""Spy (0), 2019 only: a bonus token for the sole Spy player still in."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from loveletter import GameState, KeepCard, PlayCard, RejectionKind, StartRound, decide
from loveletter.events import (
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardsReturned,
    ChancellorDrew,
    EliminationReason,
    Event,
    HandsTraded,
    PlayerEliminated,
    PlayerProtected,
    RoundEnded,
    RoundEndReason,
    RoundStarted,
    TokenAwarded,
    TokenReason,
)

from ._helpers import (
    BARON,
    CHANCELLOR,
    GUARD,
    HANDMAID,
    KING,
    PRIEST,
    PRINCE,
    PRINCESS,
    SPY,
    at,
    check,
    reject,
    turn,
)

WIN = TokenReason.ROUND_WIN
SPY_TOKEN = TokenReason.SPY
DECK_EMPTY = RoundEndReason.DECK_EMPTY


def _showdown(discards: Sequence[str]) -> GameState:
    """Seat 0 (Handmaid, Prince) is about to play its Handmaid with the deck
    empty; seat 1 holds a Guard, seat 2 a Priest, seat 3 is out. Seat 0
    wins the showdown."""
    return at(hands=["Handmaid Prince", "Guard", "Priest", ""], discards=discards, out=[3], rest=3)


def _showdown_events(*tokens: Event) -> tuple[Event, ...]:
    return (
        CardPlayed(0, HANDMAID),
        PlayerProtected(0),
        RoundEnded(DECK_EMPTY, (0,), ((0, PRINCE), (1, GUARD), (2, PRIEST))),
        TokenAwarded(0, WIN, 1),
        *tokens,
    )


@pytest.mark.rule("spy.no-effect")
def test_spy_no_effect_when_played() -> None:
    state = at(hands=["Spy Guard", "Priest", "Baron"], deck="King")
    after = check(state, PlayCard(0, SPY), CardPlayed(0, SPY), *turn(1, KING))
    assert after.discards[0] == (SPY,)
    assert after.tokens == (0, 0, 0)


@pytest.mark.rule("spy.no-effect", "prince.discard-and-draw")
def test_spy_no_effect_when_discarded_by_a_prince() -> None:
    state = at(hands=["Prince Guard", "Spy", "Baron"], deck="King Priest")
    check(
        state,
        PlayCard(0, PRINCE, 1),
        CardPlayed(0, PRINCE, 1),
        CardDiscarded(1, SPY),
        CardDrawn(1, KING, False),
        *turn(1, PRIEST),
    )


@pytest.mark.rule("spy.no-effect", "out.discard-hand")
def test_spy_no_effect_when_discarded_on_a_knock_out() -> None:
    state = at(hands=["Guard Handmaid", "Spy", "Baron"], deck="King")
    check(
        state,
        PlayCard(0, GUARD, 1, SPY),
        CardPlayed(0, GUARD, 1, SPY),
        PlayerEliminated(1, EliminationReason.GUARD_GUESS, (SPY,)),
        *turn(2, KING),
    )


@pytest.mark.rule("spy.sole-spy-token")
def test_spy_sole_spy_token() -> None:
    """The only player still in with a Spy in their discard pile gains a token."""
    check(
        _showdown(["", "Spy", "", "Spy"]),
        PlayCard(0, HANDMAID),
        *_showdown_events(TokenAwarded(1, SPY_TOKEN, 1)),
    )


@pytest.mark.rule("spy.sole-spy-token")
def test_spy_two_spy_players_nobody_gets_the_token() -> None:
    check(_showdown(["", "Spy", "Spy", ""]), PlayCard(0, HANDMAID), *_showdown_events())


@pytest.mark.rule("spy.sole-spy-token")
def test_spy_no_spy_played_nobody_gets_the_token() -> None:
    state = at(
        hands=["Handmaid Prince", "Guard", "Priest", ""],
        discards=["", "", "", "Spy Spy"],
        out=[3],
        rest=3,
    )
    check(state, PlayCard(0, HANDMAID), *_showdown_events())


@pytest.mark.rule("spy.sole-spy-token", "out.discard-hand")
def test_spy_eliminated_spy_player_does_not_block() -> None:
    """Ruling 10: a Spy player knocked out neither qualifies nor stops the
    remaining Spy player from qualifying, even when knocked out on the last
    turn."""
    state = at(
        hands=["Guard Prince", "Baron", "Priest", ""],
        discards=["", "Spy", "Spy", ""],
        out=[3],
        rest=3,
    )
    check(
        state,
        PlayCard(0, GUARD, 2, PRIEST),
        CardPlayed(0, GUARD, 2, PRIEST),
        PlayerEliminated(2, EliminationReason.GUARD_GUESS, (PRIEST,)),
        RoundEnded(DECK_EMPTY, (0,), ((0, PRINCE), (1, BARON))),
        TokenAwarded(0, WIN, 1),
        TokenAwarded(1, SPY_TOKEN, 1),
    )


@pytest.mark.rule("spy.sole-spy-token", "prince.discard-and-draw")
def test_spy_via_prince_discard_counts() -> None:
    """Ruling 10: a Spy discarded through a Prince counts for the player who
    discarded it, not for the Prince's player."""
    state = at(hands=["Prince Guard", "Spy", "Priest", ""], set_aside="Guard", out=[3], rest=3)
    check(
        state,
        PlayCard(0, PRINCE, 1),
        CardPlayed(0, PRINCE, 1),
        CardDiscarded(1, SPY),
        CardDrawn(1, GUARD, True),
        RoundEnded(DECK_EMPTY, (2,), ((0, GUARD), (1, GUARD), (2, PRIEST))),
        TokenAwarded(2, WIN, 1),
        TokenAwarded(1, SPY_TOKEN, 1),
    )


@pytest.mark.rule("spy.sole-spy-token", "chancellor.return-bottom-any-order")
def test_spy_returned_by_chancellor_does_not_count() -> None:
    """Ruling 11: a Spy put under the deck by a Chancellor is not discarded;
    whoever draws it later and holds it at the end gets nothing either."""
    state = at(hands=["Chancellor Spy", "Guard", "Priest", ""], deck="Baron", out=[3], rest=3)
    state = check(
        state, PlayCard(0, CHANCELLOR), CardPlayed(0, CHANCELLOR), ChancellorDrew(0, 1, (BARON,))
    )
    state = check(state, KeepCard(0, BARON, (SPY,)), CardsReturned(0, 1, (SPY,)), *turn(1, SPY))
    assert state.discards[0][-1] is CHANCELLOR and SPY not in state.discards[0]
    check(
        state,
        PlayCard(1, GUARD, 2, PRINCESS),
        CardPlayed(1, GUARD, 2, PRINCESS),
        RoundEnded(DECK_EMPTY, (0,), ((0, BARON), (1, SPY), (2, PRIEST))),
        TokenAwarded(0, WIN, 1),
    )


@pytest.mark.rule("spy.sole-spy-token", "king.trade-hands")
def test_spy_traded_by_king_does_not_count() -> None:
    """Ruling 10: giving a Spy away with the King is not discarding it."""
    state = at(hands=["King Spy", "Guard", "Priest", ""], out=[3], rest=3)
    after = check(
        state,
        PlayCard(0, KING, 1),
        CardPlayed(0, KING, 1),
        HandsTraded(0, 1),
        RoundEnded(DECK_EMPTY, (2,), ((0, GUARD), (1, SPY), (2, PRIEST))),
        TokenAwarded(2, WIN, 1),
    )
    assert after.tokens == (0, 0, 1, 0)


@pytest.mark.rule("spy.one-token-max")
def test_spy_one_token_max_with_both_spies() -> None:
    """Both Spies in one player's pile still give one token."""
    check(
        _showdown(["", "Spy Spy", "", ""]),
        PlayCard(0, HANDMAID),
        *_showdown_events(TokenAwarded(1, SPY_TOKEN, 1)),
    )


@pytest.mark.rule("spy.not-a-round-win")
def test_spy_not_a_round_win_same_player_gets_two_tokens() -> None:
    """The round winner who is also the sole Spy player gains both tokens."""
    check(
        _showdown(["Spy", "", "", "Spy"]),
        PlayCard(0, HANDMAID),
        *_showdown_events(TokenAwarded(0, SPY_TOKEN, 2)),
    )


@pytest.mark.rule("spy.not-a-round-win", "round.next-first-player")
def test_spy_not_a_round_win_no_claim_to_the_first_turn() -> None:
    """Ruling 13: the Spy token's owner is not a winner when the next first
    player is chosen."""
    state = check(
        _showdown(["", "Spy", "", "Spy"]),
        PlayCard(0, HANDMAID),
        *_showdown_events(TokenAwarded(1, SPY_TOKEN, 1)),
    )
    assert state.round_result is not None
    assert state.round_result.winners == (0,)
    started = decide(state, StartRound())[0]
    assert isinstance(started, RoundStarted)
    assert started.first_player == 0
    reject(state, StartRound(first_player=1), RejectionKind.INVALID_CHOICE)


@pytest.mark.rule("spy.sole-spy-token", "round.end-one-player-left")
def test_spy_token_also_when_one_player_is_left() -> None:
    """Ruling 10: the Spy bonus is checked however the round ended; the
    knocked-out player's Spy does not count."""
    state = at(
        hands=["Guard Handmaid", "Priest", "", ""],
        discards=["Spy", "Spy", "", ""],
        out=[2, 3],
        deck="King",
    )
    check(
        state,
        PlayCard(0, GUARD, 1, PRIEST),
        CardPlayed(0, GUARD, 1, PRIEST),
        PlayerEliminated(1, EliminationReason.GUARD_GUESS, (PRIEST,)),
        RoundEnded(RoundEndReason.ONE_PLAYER_LEFT, (0,), ()),
        TokenAwarded(0, WIN, 1),
        TokenAwarded(0, SPY_TOKEN, 2),
    )
