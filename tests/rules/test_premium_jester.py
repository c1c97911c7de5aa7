"""Jester (0, Premium with 5 to 8 players): choose another player; if they
win the round, the Jester's player gains a token."""

from __future__ import annotations

import pytest

from loveletter import (
    GameState,
    PlayCard,
    RejectionKind,
    StartRound,
    events_for,
    legal_commands,
    push,
)
from loveletter.events import (
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    EliminationReason,
    GameEnded,
    GameTied,
    PlayerEliminated,
    PlayerMarked,
    PlayerProtected,
    RoundEnded,
    RoundEndReason,
    TokenAwarded,
    TokenReason,
)

from ._helpers import (
    ASSASSIN,
    BISHOP,
    GUARD,
    HANDMAID,
    JESTER,
    KING,
    PRINCE,
    check,
    premium,
    reject,
    turn,
)

R = RejectionKind
RULE = "jester.mark-expected-winner"
WIN = TokenReason.ROUND_WIN
JESTER_TOKEN = TokenReason.JESTER


@pytest.mark.rule(RULE, "targeting.choose-impossible-no-effect")
def test_jester_mark_expected_winner_another_player() -> None:
    """The mark is public and lasts for the round; the Jester's own player
    cannot be chosen."""
    state = premium(hands=["Jester Guard", "Priest", "Baron", "Handmaid", "Count"], deck="King")
    assert legal_commands(state, JESTER) == tuple(PlayCard(0, JESTER, t) for t in range(1, 5))
    reject(state, PlayCard(0, JESTER, 0), R.TARGET_NOT_ALLOWED)
    reject(state, PlayCard(0, JESTER), R.TARGET_REQUIRED)
    reject(state, PlayCard(0, JESTER, 2, 3), R.GUESS_NOT_ALLOWED)
    events = (CardPlayed(0, JESTER, 2), PlayerMarked(0, 2), *turn(1, KING))
    after = check(state, PlayCard(0, JESTER, 2), *events)
    assert after.marks == ((0, 2),)
    for player in range(5):
        assert events_for(player, events)[:2] == events[:2]


def knock_out_the_last_opponent(marked: int, tokens: list[int], round_number: int) -> GameState:
    """Turn 9: seat 4 played the Jester on turn 5, marking ``marked``, and
    was knocked out on turn 8 (its Baron against seat 1); seats 2 and 3 are
    out too. Seat 0's Guard is about to hit seat 1, the last opponent."""
    return premium(
        hands=["Guard King", "Prince", "", "", ""],
        discards=[
            "Guard Guard",
            "Guard Guard",
            "Priest Baron",
            "Guard Count",
            "Jester Baron Handmaid",
        ],
        out=[2, 3, 4],
        marks=[(4, marked)],
        tokens=tokens,
        round_number=round_number,
        deck="Priest",
    )


@pytest.mark.rule(RULE, "round.end-one-player-left", "game.immediate-win")
def test_jester_mark_expected_winner_token_even_once_out_of_the_round() -> None:
    """The marked player wins the round: the Jester's player gains a token
    after the round-win token, though out of the round themselves."""
    state = knock_out_the_last_opponent(marked=0, tokens=[0, 0, 0, 0, 0], round_number=1)
    assert state.turn_number == 9
    after = check(
        state,
        PlayCard(0, GUARD, 1, 5),
        CardPlayed(0, GUARD, 1, 5),
        PlayerEliminated(1, EliminationReason.GUARD_GUESS, (PRINCE,)),
        RoundEnded(RoundEndReason.ONE_PLAYER_LEFT, (0,), ()),
        TokenAwarded(0, WIN, 1),
        TokenAwarded(4, JESTER_TOKEN, 1),
    )
    assert after.tokens == (1, 0, 0, 0, 1)


@pytest.mark.rule(RULE)
def test_jester_mark_expected_winner_no_token_if_they_lose() -> None:
    state = knock_out_the_last_opponent(marked=1, tokens=[0, 0, 0, 0, 0], round_number=1)
    check(
        state,
        PlayCard(0, GUARD, 1, 5),
        CardPlayed(0, GUARD, 1, 5),
        PlayerEliminated(1, EliminationReason.GUARD_GUESS, (PRINCE,)),
        RoundEnded(RoundEndReason.ONE_PLAYER_LEFT, (0,), ()),
        TokenAwarded(0, WIN, 1),
    )


@pytest.mark.rule(RULE, "game.immediate-win", "game.tokens-to-win-premium")
def test_jester_mark_expected_winner_token_alone_can_win_the_game() -> None:
    """The round's award step holds the Jester's token: seat 4 reaches 4
    tokens and wins, seat 0 (the round's winner) does not."""
    state = knock_out_the_last_opponent(marked=0, tokens=[1, 0, 0, 0, 3], round_number=5)
    after = check(
        state,
        PlayCard(0, GUARD, 1, 5),
        CardPlayed(0, GUARD, 1, 5),
        PlayerEliminated(1, EliminationReason.GUARD_GUESS, (PRINCE,)),
        RoundEnded(RoundEndReason.ONE_PLAYER_LEFT, (0,), ()),
        TokenAwarded(0, WIN, 2),
        TokenAwarded(4, JESTER_TOKEN, 4),
        GameEnded((4,)),
    )
    assert after.winners == (4,)


def shared_showdown(tokens: list[int], round_number: int) -> GameState:
    """Turn 26, the deck is empty: seat 0 played the Jester on turn 6,
    marking seat 1. Seat 0 (Prince and a Count: 6, pile 16 with the Handmaid
    it is about to play) and seat 1 (King 6, pile 16) will share the round."""
    return premium(
        hands=["Handmaid Prince", "King", "Prince", "Guard", "Assassin"],
        discards=[
            "Count Jester Guard Baron Baron",
            "Countess Sycophant Baroness Guard Guard",
            "Guard Guard Priest Cardinal Bishop",
            "Guard Count Priest Cardinal Sycophant",
            "Guard Handmaid DowagerQueen Constable Baroness",
        ],
        set_aside="Princess",
        marks=[(0, 1)],
        tokens=tokens,
        round_number=round_number,
    )


SHOWN = ((0, PRINCE), (1, KING), (2, PRINCE), (3, GUARD), (4, ASSASSIN))


@pytest.mark.rule(RULE, "round.tie-discard-sum")
def test_jester_mark_expected_winner_a_shared_win_counts() -> None:
    """Ruling 32: sharing the round counts as winning it. Seat 0 gains
    its round token and then the Jester's."""
    state = shared_showdown([0, 0, 0, 0, 0], 1)
    after = check(
        state,
        PlayCard(0, HANDMAID),
        CardPlayed(0, HANDMAID),
        PlayerProtected(0),
        RoundEnded(RoundEndReason.DECK_EMPTY, (0, 1), SHOWN),
        TokenAwarded(0, WIN, 1),
        TokenAwarded(1, WIN, 1),
        TokenAwarded(0, JESTER_TOKEN, 2),
    )
    assert after.tokens == (2, 1, 0, 0, 0)
    assert push(after, StartRound()).marks == ()  # a mark lasts for its round only


@pytest.mark.rule(RULE, "game.immediate-win", "game.tie-break-round")
def test_jester_mark_expected_winner_one_award_step_with_the_round_wins() -> None:
    """Round 7, seats 0 and 1 have 3 tokens: seat 0 ends with 5, seat 1 with
    4. Both reached 4 in the same award step: a tie for the game, whatever
    the totals (ruling 30)."""
    state = shared_showdown([3, 3, 0, 0, 0], 7)
    after = check(
        state,
        PlayCard(0, HANDMAID),
        CardPlayed(0, HANDMAID),
        PlayerProtected(0),
        RoundEnded(RoundEndReason.DECK_EMPTY, (0, 1), SHOWN),
        TokenAwarded(0, WIN, 4),
        TokenAwarded(1, WIN, 4),
        TokenAwarded(0, JESTER_TOKEN, 5),
        GameTied((0, 1)),
    )
    assert after.tokens == (5, 4, 0, 0, 0)
    assert after.contenders == (0, 1) and after.winners == ()


@pytest.mark.rule(RULE, "prince.discard-and-draw")
def test_jester_mark_expected_winner_a_discarded_jester_marks_no_one() -> None:
    """Only a played Jester marks: one discarded by a Prince does nothing."""
    state = premium(
        hands=["Prince Guard", "Jester", "Baron", "Handmaid", "Count"], deck="King Guard"
    )
    after = check(
        state,
        PlayCard(0, PRINCE, 1),
        CardPlayed(0, PRINCE, 1),
        CardDiscarded(1, JESTER),
        CardDrawn(1, KING, False),
        *turn(1, GUARD),
    )
    assert after.marks == ()


@pytest.mark.rule(RULE, "game.immediate-win", "bishop.correct-number-token")
def test_jester_mark_expected_winner_void_once_the_game_is_won_mid_round() -> None:
    """Turn 6 of round 4: seat 4 marked seat 0, whose Bishop then wins the
    game. There is no round end, so the mark gives nothing."""
    state = premium(
        hands=["Bishop Guard", "Priest", "Baron", "Handmaid", "Count"],
        discards=["Guard", "Guard", "Guard", "Guard", "Jester"],
        marks=[(4, 0)],
        tokens=[3, 0, 0, 0, 0],
        round_number=4,
        deck="King",
    )
    after = check(
        state,
        PlayCard(0, BISHOP, 1, 2),
        CardPlayed(0, BISHOP, 1, 2),
        TokenAwarded(0, TokenReason.BISHOP, 4),
        GameEnded((0,)),
    )
    assert after.tokens == (4, 0, 0, 0, 0)
