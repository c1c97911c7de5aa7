"""Winning the game: token thresholds and simultaneous winners."""

from __future__ import annotations

import pytest

from loveletter import (
    Decision,
    GameState,
    PlayCard,
    RejectionKind,
    StartRound,
    get_ruleset,
    legal_commands,
    view,
)
from loveletter.events import (
    CardPlayed,
    EliminationReason,
    GameEnded,
    PlayerEliminated,
    PlayerProtected,
    RoundEnded,
    RoundEndReason,
    TokenAwarded,
    TokenReason,
)

from ._helpers import GUARD, HANDMAID, PRIEST, PRINCE, at, check, reject

THRESHOLDS = [
    ("2019", 2, 6),
    ("2019", 3, 5),
    ("2019", 4, 4),
    ("2019", 5, 3),
    ("2019", 6, 3),
    ("2019-classic", 2, 6),
    ("2019-classic", 3, 5),
    ("2019-classic", 4, 4),
]


def _guard_wins_round(ruleset: str, players: int, tokens: list[int]) -> GameState:
    """Seat 0's Guard knocks out seat 1, the only other player still in."""
    hands = ["Guard Handmaid", "Priest"] + [""] * (players - 2)
    return at(ruleset, hands=hands, out=range(2, players), tokens=tokens, deck="King")


@pytest.mark.rule("game.tokens-to-win")
@pytest.mark.parametrize(("ruleset", "players", "needed"), THRESHOLDS)
def test_game_tokens_to_win_threshold(ruleset: str, players: int, needed: int) -> None:
    """6/5/4/3/3 tokens for 2/3/4/5/6 players (classic: 6/5/4): the game
    ends exactly when a player reaches the threshold."""
    assert get_ruleset(ruleset).tokens_to_win(players) == needed
    tokens = [0] * players
    tokens[0] = needed - 1
    state = check(
        _guard_wins_round(ruleset, players, tokens),
        PlayCard(0, GUARD, 1, PRIEST),
        CardPlayed(0, GUARD, 1, PRIEST),
        PlayerEliminated(1, EliminationReason.GUARD_GUESS, (PRIEST,)),
        RoundEnded(RoundEndReason.ONE_PLAYER_LEFT, (0,), ()),
        TokenAwarded(0, TokenReason.ROUND_WIN, needed),
        GameEnded((0,)),
    )
    assert state.decision is Decision.GAME_OVER
    assert state.is_over
    assert state.winners == (0,)
    assert legal_commands(state) == ()
    assert all(view(state, p).winners == (0,) for p in range(players))


@pytest.mark.rule("game.tokens-to-win")
@pytest.mark.parametrize(("ruleset", "players", "needed"), THRESHOLDS)
def test_game_tokens_to_win_not_yet_reached(ruleset: str, players: int, needed: int) -> None:
    """One token short of the threshold, the game goes on to a new round,
    even if a player who lost this round is one token short too."""
    tokens = [0] * players
    tokens[0] = needed - 2
    tokens[1] = needed - 1
    state = check(
        _guard_wins_round(ruleset, players, tokens),
        PlayCard(0, GUARD, 1, PRIEST),
        CardPlayed(0, GUARD, 1, PRIEST),
        PlayerEliminated(1, EliminationReason.GUARD_GUESS, (PRIEST,)),
        RoundEnded(RoundEndReason.ONE_PLAYER_LEFT, (0,), ()),
        TokenAwarded(0, TokenReason.ROUND_WIN, needed - 1),
    )
    assert state.decision is Decision.NEXT_ROUND
    assert state.winners == ()
    assert legal_commands(state) == (StartRound(),)


@pytest.mark.rule("game.tokens-to-win", "spy.not-a-round-win")
def test_game_tokens_to_win_checked_after_the_spy_token() -> None:
    """Ruling 12: the check comes once every token of the round is handed
    out, so a Spy token alone can end the game."""
    state = at(
        hands=["Handmaid Prince", "Guard", "Priest", ""],
        discards=["", "Spy", "", ""],
        tokens=[0, 3, 0, 0],
        out=[3],
        rest=3,
    )
    state = check(
        state,
        PlayCard(0, HANDMAID),
        CardPlayed(0, HANDMAID),
        PlayerProtected(0),
        RoundEnded(RoundEndReason.DECK_EMPTY, (0,), ((0, PRINCE), (1, GUARD), (2, PRIEST))),
        TokenAwarded(0, TokenReason.ROUND_WIN, 1),
        TokenAwarded(1, TokenReason.SPY, 4),
        GameEnded((1,)),
    )
    assert state.winners == (1,)


@pytest.mark.rule("game.simultaneous-winners", "spy.sole-spy-token")
def test_game_simultaneous_winners_round_win_and_spy_token() -> None:
    """The round winner and the sole Spy player both reach the threshold (4
    with 4 players) in the same round: both win the game."""
    state = at(
        hands=["Handmaid Prince", "Guard", "Priest", ""],
        discards=["", "Spy", "", ""],
        tokens=[3, 3, 0, 0],
        out=[3],
        rest=3,
    )
    state = check(
        state,
        PlayCard(0, HANDMAID),
        CardPlayed(0, HANDMAID),
        PlayerProtected(0),
        RoundEnded(RoundEndReason.DECK_EMPTY, (0,), ((0, PRINCE), (1, GUARD), (2, PRIEST))),
        TokenAwarded(0, TokenReason.ROUND_WIN, 4),
        TokenAwarded(1, TokenReason.SPY, 4),
        GameEnded((0, 1)),
    )
    assert state.winners == (0, 1)
    reject(state, StartRound(), RejectionKind.GAME_OVER)


@pytest.mark.rule("game.simultaneous-winners", "round.tie-all-win")
def test_game_simultaneous_winners_tied_round_winners() -> None:
    """Two tied round winners reaching the threshold together both win."""
    state = at(
        "2019-classic",
        hands=["Handmaid Prince", "Prince", "Priest"],
        tokens=[4, 4, 4],
        rest=2,
    )
    state = check(
        state,
        PlayCard(0, HANDMAID),
        CardPlayed(0, HANDMAID),
        PlayerProtected(0),
        RoundEnded(RoundEndReason.DECK_EMPTY, (0, 1), ((0, PRINCE), (1, PRINCE), (2, PRIEST))),
        TokenAwarded(0, TokenReason.ROUND_WIN, 5),
        TokenAwarded(1, TokenReason.ROUND_WIN, 5),
        GameEnded((0, 1)),
    )
    assert state.winners == (0, 1)


@pytest.mark.rule("game.simultaneous-winners")
def test_game_simultaneous_winners_with_different_totals() -> None:
    """Ruling 12: reaching the threshold is what counts, not leading: seat 0
    ends with 5 tokens (round win and Spy), seat 1 with 4 (shared round win);
    the threshold is 4, so both win."""
    state = at(
        hands=["Handmaid Prince", "Prince", "Priest", ""],
        discards=["Spy", "", "", ""],
        tokens=[3, 3, 0, 0],
        out=[3],
        rest=3,
    )
    state = check(
        state,
        PlayCard(0, HANDMAID),
        CardPlayed(0, HANDMAID),
        PlayerProtected(0),
        RoundEnded(RoundEndReason.DECK_EMPTY, (0, 1), ((0, PRINCE), (1, PRINCE), (2, PRIEST))),
        TokenAwarded(0, TokenReason.ROUND_WIN, 4),
        TokenAwarded(1, TokenReason.ROUND_WIN, 4),
        TokenAwarded(0, TokenReason.SPY, 5),
        GameEnded((0, 1)),
    )
    assert state.tokens == (5, 4, 0, 0)
    assert state.winners == (0, 1)
    reject(state, PlayCard(0, PRINCE, 0), RejectionKind.GAME_OVER)
