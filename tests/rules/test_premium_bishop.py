"""Bishop (9, Premium with 5 to 8 players): name a number and another
player; a right number gives a token at once, then the chosen player may
discard their card and draw a new one."""

from __future__ import annotations

import pytest

from loveletter import Card, Decision, GameState, PlayCard, RejectionKind, legal_commands, view
from loveletter.commands import Decline, LookAtHand, Redraw
from loveletter.events import (
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    EliminationReason,
    GameEnded,
    HandsCompared,
    OptionDeclined,
    PlayerEliminated,
    RedrawOffered,
    RoundEnded,
    RoundEndReason,
    TokenAwarded,
    TokenReason,
)

from ._helpers import (
    ASSASSIN,
    BARON,
    BISHOP,
    CONSTABLE,
    GUARD,
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
BISHOP_TOKEN = TokenReason.BISHOP


def bishop_deal(
    target: str = "Priest", tokens: list[int] | None = None, round_number: int = 1
) -> GameState:
    """A fresh 5-player deal: seat 0 holds the Bishop and a Guard, seat 1
    ``target``; the deck starts King, Prince."""
    return premium(
        hands=["Bishop Guard", target, "Baron", "Handmaid", "Count"],
        deck="King Prince",
        tokens=tokens,
        round_number=round_number,
    )


@pytest.mark.rule("bishop.name-number-and-player")
def test_bishop_name_number_and_player_any_number_of_the_deck() -> None:
    """Ruling 27: another player, and any number some card carries, 1
    included: 0 to 9 with the 32 cards."""
    state = bishop_deal()
    assert legal_commands(state, BISHOP) == tuple(
        PlayCard(0, BISHOP, target, number) for target in range(1, 5) for number in range(10)
    )


@pytest.mark.rule("bishop.name-number-and-player", "game.rules-enforced")
def test_bishop_name_number_and_player_refusals() -> None:
    """Never its own player; always a number (an integer of the deck) with
    a target, and a target when one can be chosen."""
    state = bishop_deal()
    reject(state, PlayCard(0, BISHOP, 0, 9), R.TARGET_NOT_ALLOWED)
    reject(state, PlayCard(0, BISHOP, 1), R.GUESS_REQUIRED)
    reject(state, PlayCard(0, BISHOP), R.TARGET_REQUIRED)
    reject(state, PlayCard(0, BISHOP, 1, 10), R.GUESS_NOT_ALLOWED)
    reject(state, PlayCard(0, BISHOP, 1, SYCOPHANT), R.GUESS_NOT_ALLOWED)


@pytest.mark.rule("bishop.correct-number-token", "bishop.target-may-redraw")
def test_bishop_correct_number_token_then_the_target_may_redraw() -> None:
    """A right number: the Bishop's player gains a token at once, then the
    chosen player (not the Bishop's) decides: Redraw discards their card
    without effect and draws the top card; then the next turn."""
    state = check(
        bishop_deal(),
        PlayCard(0, BISHOP, 1, 2),
        CardPlayed(0, BISHOP, 1, 2),
        TokenAwarded(0, BISHOP_TOKEN, 1),
        RedrawOffered(1),
    )
    assert state.tokens == (1, 0, 0, 0, 0)
    assert state.decision is Decision.REDRAW and state.to_act == 1 and state.current == 0
    assert legal_commands(state) == (Redraw(1), Decline(1))
    assert view(state, 1).legal_commands == (Redraw(1), Decline(1))
    assert view(state, 0).legal_commands == ()
    after = check(
        state,
        Redraw(1),
        CardDiscarded(1, PRIEST),
        CardDrawn(1, KING, False),
        *turn(1, PRINCE),
    )
    assert after.discards[1] == (PRIEST,)
    assert after.hands[1] == (KING, PRINCE)


@pytest.mark.rule("bishop.target-may-redraw")
def test_bishop_target_may_decline_to_redraw() -> None:
    state = check(
        bishop_deal(),
        PlayCard(0, BISHOP, 1, 2),
        CardPlayed(0, BISHOP, 1, 2),
        TokenAwarded(0, BISHOP_TOKEN, 1),
        RedrawOffered(1),
    )
    after = check(state, Decline(1), OptionDeclined(1), *turn(1, KING))
    assert after.hands[1] == (PRIEST, KING)
    assert after.discards[1] == ()


@pytest.mark.rule("bishop.name-number-and-player", "bishop.correct-number-token")
@pytest.mark.parametrize(("held", "number"), [("Guard", 1), ("Sycophant", 4), ("Handmaid", 4)])
def test_bishop_correct_number_token_any_card_of_that_number(held: str, number: int) -> None:
    """1 may be named and hits a Guard; a number hits every kind carrying it."""
    state = premium(hands=["Bishop Guard", held, "Baron", "Priest", "Count"], deck="King")
    check(
        state,
        PlayCard(0, BISHOP, 1, number),
        CardPlayed(0, BISHOP, 1, number),
        TokenAwarded(0, BISHOP_TOKEN, 1),
        RedrawOffered(1),
    )


@pytest.mark.rule("bishop.correct-number-token", "bishop.target-may-redraw")
def test_bishop_wrong_number_does_nothing() -> None:
    """No token and no redraw offered: the turn simply passes."""
    state = bishop_deal()
    for number in (0, 1, 3, 4, 5, 6, 7, 8, 9):
        after = check(
            state, PlayCard(0, BISHOP, 1, number), CardPlayed(0, BISHOP, 1, number), *turn(1, KING)
        )
        assert after.tokens == (0, 0, 0, 0, 0)


@pytest.mark.rule("bishop.correct-number-token", "game.immediate-win", "game.tokens-to-win-premium")
def test_bishop_correct_number_token_wins_the_game_at_once() -> None:
    """001 (Bishop): a token that reaches the count wins the game on the
    spot, so the round stops there (no RoundEnded, no redraw)."""
    state = bishop_deal(tokens=[3, 0, 1, 0, 0], round_number=5)
    after = check(
        state,
        PlayCard(0, BISHOP, 1, 2),
        CardPlayed(0, BISHOP, 1, 2),
        TokenAwarded(0, BISHOP_TOKEN, 4),
        GameEnded((0,)),
    )
    assert after.is_over and after.winners == (0,)
    assert after.round_result is None
    assert legal_commands(after) == ()
    reject(after, Redraw(1), R.GAME_OVER)


@pytest.mark.rule("bishop.target-may-redraw", "game.rules-enforced")
def test_bishop_target_may_redraw_only_the_target_answers() -> None:
    state = check(
        bishop_deal(),
        PlayCard(0, BISHOP, 1, 2),
        CardPlayed(0, BISHOP, 1, 2),
        TokenAwarded(0, BISHOP_TOKEN, 1),
        RedrawOffered(1),
    )
    reject(state, Redraw(0), R.NOT_YOUR_TURN)
    reject(state, Decline(2), R.NOT_YOUR_TURN)
    reject(state, LookAtHand(1, 1), R.WRONG_DECISION)
    reject(state, PlayCard(0, GUARD, 2, 3), R.WRONG_DECISION)
    reject(state, PlayCard(1, PRIEST, 2), R.WRONG_DECISION)
    after = check(state, Decline(1), OptionDeclined(1), *turn(1, KING))
    reject(after, Redraw(1), R.WRONG_DECISION)


@pytest.mark.rule(
    "bishop.target-may-redraw",
    "princess.knock-out-effects-apply",
    "constable.knocked-out-token",
    "prince.princess-discard-eliminates",
)
def test_bishop_target_may_redraw_a_discarded_princess_knocks_out() -> None:
    """Turn 6: the target holds the Princess and a Constable lies in their
    pile. Discarding her knocks them out and they draw nothing; the
    Constable still pays (001, Princess Annette)."""
    state = premium(
        hands=["Bishop Guard", "Princess", "Baron", "Handmaid", "Count"],
        discards=["Guard", "Constable", "Guard", "Guard", "Guard"],
        deck="King Prince",
    )
    state = check(
        state,
        PlayCard(0, BISHOP, 1, 8),
        CardPlayed(0, BISHOP, 1, 8),
        TokenAwarded(0, BISHOP_TOKEN, 1),
        RedrawOffered(1),
    )
    after = check(
        state,
        Redraw(1),
        CardDiscarded(1, PRINCESS),
        PlayerEliminated(1, EliminationReason.PRINCESS_DISCARDED, ()),
        TokenAwarded(1, TokenReason.CONSTABLE, 1),
        *turn(2, KING),
    )
    assert after.out == frozenset({1})
    assert after.discards[1] == (CONSTABLE, PRINCESS)
    assert after.tokens == (1, 1, 0, 0, 0)


@pytest.mark.rule("bishop.target-may-redraw", "game.immediate-win", "round.end-one-player-left")
def test_bishop_token_and_round_win_are_two_award_steps() -> None:
    """Round 3, turn 4: seats 2 to 4 are out. Seat 0 (2 tokens) hits seat 1's
    Princess: 3 tokens, not yet 4. Seat 1 redraws and is knocked out, which
    ends the round; the round win is a second award step, and wins."""
    state = premium(
        hands=["Bishop Guard", "Princess", "", "", ""],
        discards=["Guard", "Guard", "Priest", "Handmaid", "Baron Guard"],
        out=[2, 3, 4],
        tokens=[2, 0, 0, 0, 0],
        round_number=3,
        deck="King",
    )
    state = check(
        state,
        PlayCard(0, BISHOP, 1, 8),
        CardPlayed(0, BISHOP, 1, 8),
        TokenAwarded(0, BISHOP_TOKEN, 3),
        RedrawOffered(1),
    )
    assert state.winners == ()
    after = check(
        state,
        Redraw(1),
        CardDiscarded(1, PRINCESS),
        PlayerEliminated(1, EliminationReason.PRINCESS_DISCARDED, ()),
        RoundEnded(RoundEndReason.ONE_PLAYER_LEFT, (0,), ()),
        TokenAwarded(0, TokenReason.ROUND_WIN, 4),
        GameEnded((0,)),
    )
    assert after.winners == (0,)


#: turn 26 of a 5-player round (first player seat 0, five plays each): the
#: deck is empty and the Princess is the set-aside card
LATE_PILES = [
    "Guard Guard Priest Handmaid Countess",
    "Guard Guard Baron Sycophant Cardinal",
    "Guard Guard Handmaid King Count",
    "Guard Baron Sycophant Baroness DowagerQueen",
    "Count Constable Baroness Cardinal Assassin",
]


@pytest.mark.rule(
    "bishop.target-may-redraw",
    "setup.set-aside-face-down",
    "round.end-deck-empty",
    "round.tie-discard-sum",
)
def test_bishop_target_may_redraw_takes_the_set_aside_card_when_the_deck_is_empty() -> None:
    """Ruling 38: the redraw on an empty deck takes the set-aside card;
    then the turn ends and, the deck being empty, so does the round."""
    state = premium(
        hands=["Bishop Guard", "Priest", "Prince", "Prince", "Jester"],
        discards=LATE_PILES,
        set_aside="Princess",
    )
    assert state.deck == () and state.turn_number == 26
    state = check(
        state,
        PlayCard(0, BISHOP, 1, 2),
        CardPlayed(0, BISHOP, 1, 2),
        TokenAwarded(0, BISHOP_TOKEN, 1),
        RedrawOffered(1),
    )
    redrawn = check(
        state,
        Redraw(1),
        CardDiscarded(1, PRIEST),
        CardDrawn(1, PRINCESS, True),
        RoundEnded(
            RoundEndReason.DECK_EMPTY,
            (1,),
            ((0, GUARD), (1, PRINCESS), (2, PRINCE), (3, PRINCE), (4, JESTER)),
        ),
        TokenAwarded(1, TokenReason.ROUND_WIN, 1),
    )
    assert redrawn.set_aside is None
    # declining instead: seat 2's Prince and Count (5 + 1) win the showdown
    check(
        state,
        Decline(1),
        OptionDeclined(1),
        RoundEnded(
            RoundEndReason.DECK_EMPTY,
            (2,),
            ((0, GUARD), (1, PRIEST), (2, PRINCE), (3, PRINCE), (4, JESTER)),
        ),
        TokenAwarded(2, TokenReason.ROUND_WIN, 1),
    )


@pytest.mark.rule("bishop.correct-number-token", "assassin.guard-player-knocked-out")
def test_bishop_does_not_set_off_the_assassin() -> None:
    """Ruling 27: only a Guard sets the Assassin off. The Bishop naming 0
    on the Assassin's holder is simply a right number."""
    state = bishop_deal("Assassin")
    state = check(
        state,
        PlayCard(0, BISHOP, 1, 0),
        CardPlayed(0, BISHOP, 1, 0),
        TokenAwarded(0, BISHOP_TOKEN, 1),
        RedrawOffered(1),
    )
    after = check(state, Decline(1), OptionDeclined(1), *turn(1, KING))
    assert after.out == frozenset() and after.hands[1] == (ASSASSIN, KING)


@pytest.mark.rule(
    "bishop.target-may-redraw",
    "constable.no-effect",
    "jester.mark-expected-winner",
    "assassin.no-effect",
)
@pytest.mark.parametrize(("held", "number"), [(CONSTABLE, 6), (JESTER, 0), (ASSASSIN, 0)])
def test_bishop_target_may_redraw_the_discarded_card_has_no_effect(held: Card, number: int) -> None:
    """The redraw discards without effect: a Constable or the Assassin does
    nothing, a Jester marks no one."""
    state = bishop_deal(held.title)
    state = check(
        state,
        PlayCard(0, BISHOP, 1, number),
        CardPlayed(0, BISHOP, 1, number),
        TokenAwarded(0, BISHOP_TOKEN, 1),
        RedrawOffered(1),
    )
    after = check(
        state, Redraw(1), CardDiscarded(1, held), CardDrawn(1, KING, False), *turn(1, PRINCE)
    )
    assert after.tokens == (1, 0, 0, 0, 0) and after.marks == () and after.out == frozenset()


@pytest.mark.rule("bishop.princess-beats-bishop", "baron.compare-lower-out")
def test_bishop_counts_nine_in_a_baron_comparison() -> None:
    """Outside the showdown the Bishop is 9: a Baron's player holding the
    Princess loses to the Bishop."""
    state = premium(hands=["Baron Princess", "Bishop", "Guard", "Handmaid", "Count"], deck="King")
    check(
        state,
        PlayCard(0, BARON, 1),
        CardPlayed(0, BARON, 1),
        HandsCompared(0, 1, PRINCESS, BISHOP),
        PlayerEliminated(0, EliminationReason.BARON_COMPARISON, (PRINCESS,)),
        *turn(1, KING),
    )
