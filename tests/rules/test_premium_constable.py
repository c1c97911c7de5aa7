"""Constable (6, Premium with 5 to 8 players): knocked out of the round
with the Constable already in one's discard pile, one gains a token."""

from __future__ import annotations

import pytest

from loveletter import PlayCard, StartRound, legal_commands, push
from loveletter.events import (
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    EliminationReason,
    GameEnded,
    GameTied,
    HandsCompared,
    PlayerEliminated,
    RoundEnded,
    RoundEndReason,
    TokenAwarded,
    TokenReason,
)

from ._helpers import (
    BARON,
    CONSTABLE,
    COUNTESS,
    DOWAGER_QUEEN,
    GUARD,
    KING,
    PRIEST,
    PRINCE,
    PRINCESS,
    check,
    premium,
    turn,
)

CONSTABLE_TOKEN = TokenReason.CONSTABLE
#: turn 6 of a 5-player round: everyone has played once, seat 1 a Constable
PILES = ["Guard", "Constable", "Guard", "Guard", "Guard"]
#: turn 7, seat 1 to play: seat 0 has played twice
PILES_7 = ["Guard Priest", "Constable", "Guard", "Guard", "Guard"]


@pytest.mark.rule("constable.knocked-out-token", "guard.name-number")
def test_constable_knocked_out_token_by_another_player() -> None:
    """Knocked out by another player's Guard with the Constable in the
    pile: one token, right after the knock-out; the turn then goes on."""
    state = premium(
        hands=["Guard Priest", "Baron", "Prince", "Guard", "Count"],
        discards=PILES,
        deck="King",
    )
    after = check(
        state,
        PlayCard(0, GUARD, 1, 3),
        CardPlayed(0, GUARD, 1, 3),
        PlayerEliminated(1, EliminationReason.GUARD_GUESS, (BARON,)),
        TokenAwarded(1, CONSTABLE_TOKEN, 1),
        *turn(2, KING),
    )
    assert after.tokens == (0, 1, 0, 0, 0)
    assert after.discards[1] == (CONSTABLE, BARON)


@pytest.mark.rule("constable.knocked-out-token", "princess.eliminated-when-played-or-discarded")
def test_constable_knocked_out_token_by_playing_the_princess() -> None:
    """Knocking oneself out counts too (001: "when you are knocked out")."""
    state = premium(
        hands=["Prince", "Princess Guard", "Priest", "Guard", "Count"],
        discards=PILES_7,
        current=1,
        deck="King",
    )
    check(
        state,
        PlayCard(1, PRINCESS),
        CardPlayed(1, PRINCESS),
        PlayerEliminated(1, EliminationReason.PRINCESS_DISCARDED, (GUARD,)),
        TokenAwarded(1, CONSTABLE_TOKEN, 1),
        *turn(2, KING),
    )


@pytest.mark.rule("constable.knocked-out-token", "baron.compare-lower-out")
def test_constable_knocked_out_token_by_losing_one_s_own_baron() -> None:
    state = premium(
        hands=["Prince", "Baron Guard", "Priest", "Guard", "Count"],
        discards=PILES_7,
        current=1,
        deck="King",
    )
    check(
        state,
        PlayCard(1, BARON, 2),
        CardPlayed(1, BARON, 2),
        HandsCompared(1, 2, GUARD, PRIEST),
        PlayerEliminated(1, EliminationReason.BARON_COMPARISON, (GUARD,)),
        TokenAwarded(1, CONSTABLE_TOKEN, 1),
        *turn(2, KING),
    )


@pytest.mark.rule("constable.knocked-out-token", "dowager-queen.compare-higher-out")
def test_constable_knocked_out_token_by_losing_one_s_own_dowager_queen() -> None:
    state = premium(
        hands=["Prince", "DowagerQueen King", "Priest", "Guard", "Count"],
        discards=PILES_7,
        current=1,
        deck="Guard",
    )
    check(
        state,
        PlayCard(1, DOWAGER_QUEEN, 2),
        CardPlayed(1, DOWAGER_QUEEN, 2),
        HandsCompared(1, 2, KING, PRIEST, DOWAGER_QUEEN),
        PlayerEliminated(1, EliminationReason.DOWAGER_COMPARISON, (KING,)),
        TokenAwarded(1, CONSTABLE_TOKEN, 1),
        *turn(2, GUARD),
    )


@pytest.mark.rule(
    "constable.knocked-out-token",
    "princess.knock-out-effects-apply",
    "prince.princess-discard-eliminates",
)
def test_constable_knocked_out_token_by_a_prince_on_the_princess() -> None:
    """001 Princess Annette: the rest of the Prince's effect (the draw) does
    not apply, but what being knocked out sets off (the Constable) still
    does."""
    state = premium(
        hands=["Prince Guard", "Princess", "Priest", "Guard", "Count"],
        discards=PILES,
        deck="King",
    )
    after = check(
        state,
        PlayCard(0, PRINCE, 1),
        CardPlayed(0, PRINCE, 1),
        CardDiscarded(1, PRINCESS),
        PlayerEliminated(1, EliminationReason.PRINCESS_DISCARDED, ()),
        TokenAwarded(1, CONSTABLE_TOKEN, 1),
        *turn(2, KING),
    )
    assert after.hands[1] == () and after.discards[1] == (CONSTABLE, PRINCESS)


@pytest.mark.rule("constable.knocked-out-token", "out.discard-hand")
def test_constable_knocked_out_token_not_for_a_constable_in_hand() -> None:
    """Ruling 29: a Constable discarded by the knock-out itself (the card in
    hand) was not in the pile before it: no token."""
    state = premium(hands=["Guard Priest", "Constable", "Baron", "Handmaid", "Count"], deck="King")
    after = check(
        state,
        PlayCard(0, GUARD, 1, 6),
        CardPlayed(0, GUARD, 1, 6),
        PlayerEliminated(1, EliminationReason.GUARD_GUESS, (CONSTABLE,)),
        *turn(2, KING),
    )
    assert after.tokens == (0, 0, 0, 0, 0)


@pytest.mark.rule("constable.knocked-out-token", "game.immediate-win")
def test_constable_knocked_out_token_wins_the_game_at_once() -> None:
    """Round 4: seat 1 (3 tokens) is knocked out with the Constable in their
    pile while three others stay in: the token is an award step of its own
    and wins the game in the middle of the round (001 Constable Viktor:
    "you win immediately and the game ends")."""
    state = premium(
        hands=["Guard Priest", "Baron", "Prince", "Guard", "Count"],
        discards=PILES,
        tokens=[1, 3, 0, 0, 0],
        round_number=5,
        deck="King",
    )
    after = check(
        state,
        PlayCard(0, GUARD, 1, 3),
        CardPlayed(0, GUARD, 1, 3),
        PlayerEliminated(1, EliminationReason.GUARD_GUESS, (BARON,)),
        TokenAwarded(1, CONSTABLE_TOKEN, 4),
        GameEnded((1,)),
    )
    assert after.is_over and after.winners == (1,) and after.round_result is None
    assert legal_commands(after) == ()


#: turn 8 of a 5-player round, seat 0 to play: seat 4 lost its Baron against
#: seat 0's Priest (turn 5), seat 0's Guard hit seat 2 (turn 6) and seat 1's
#: Guard hit seat 3 (turn 7); seat 1 played the Constable on turn 2
ENDGAME_PILES = ["Guard Guard", "Constable Guard", "Guard Priest", "Handmaid Count", "Baron Guard"]


@pytest.mark.rule(
    "constable.knocked-out-token",
    "game.immediate-win",
    "game.tie-break-round",
    "round.end-one-player-left",
)
def test_constable_knocked_out_token_joins_the_round_end_award_step() -> None:
    """001's example: Bob and Susan, 3 tokens each, are the last two in the
    round; Susan knocks Bob out, Bob has the Constable in his pile. Susan
    wins the round and Bob gains the Constable's token in the same award
    step: both reach 4, a tie, so they play another round."""
    susan, bob = 0, 1
    state = premium(
        hands=["Guard Priest", "Prince", "", "", ""],
        discards=ENDGAME_PILES,
        out=[2, 3, 4],
        tokens=[3, 3, 0, 0, 0],
        round_number=7,
        deck="Baron",
    )
    after = check(
        state,
        PlayCard(susan, GUARD, bob, 5),
        CardPlayed(susan, GUARD, bob, 5),
        PlayerEliminated(bob, EliminationReason.GUARD_GUESS, (PRINCE,)),
        TokenAwarded(bob, CONSTABLE_TOKEN, 4),
        RoundEnded(RoundEndReason.ONE_PLAYER_LEFT, (susan,), ()),
        TokenAwarded(susan, TokenReason.ROUND_WIN, 4),
        GameTied((susan, bob)),
    )
    assert after.winners == () and not after.is_over
    assert after.contenders == (susan, bob)
    assert legal_commands(after) == (StartRound(),)
    assert push(after, StartRound()).out == frozenset({2, 3, 4})


@pytest.mark.rule("constable.knocked-out-token", "game.immediate-win")
def test_constable_knocked_out_token_alone_at_the_threshold_wins_after_the_round() -> None:
    """The same knock-out when only Bob reaches 4: the round is over (Susan
    wins it) and, at the end of that award step, Bob alone has won."""
    state = premium(
        hands=["Guard Priest", "Prince", "", "", ""],
        discards=ENDGAME_PILES,
        out=[2, 3, 4],
        tokens=[1, 3, 2, 0, 0],
        round_number=7,
        deck="Baron",
    )
    after = check(
        state,
        PlayCard(0, GUARD, 1, 5),
        CardPlayed(0, GUARD, 1, 5),
        PlayerEliminated(1, EliminationReason.GUARD_GUESS, (PRINCE,)),
        TokenAwarded(1, CONSTABLE_TOKEN, 4),
        RoundEnded(RoundEndReason.ONE_PLAYER_LEFT, (0,), ()),
        TokenAwarded(0, TokenReason.ROUND_WIN, 2),
        GameEnded((1,)),
    )
    assert after.winners == (1,)


@pytest.mark.rule("constable.no-effect")
def test_constable_no_effect_when_played() -> None:
    state = premium(hands=["Constable Guard", "Priest", "Baron", "Handmaid", "Count"], deck="King")
    assert legal_commands(state, CONSTABLE) == (PlayCard(0, CONSTABLE),)
    after = check(state, PlayCard(0, CONSTABLE), CardPlayed(0, CONSTABLE), *turn(1, KING))
    assert after.tokens == (0, 0, 0, 0, 0)


@pytest.mark.rule("constable.no-effect", "prince.discard-and-draw")
def test_constable_no_effect_when_discarded_by_a_prince() -> None:
    """Discarded through a Prince it does nothing then; it now lies in the
    pile, so a later knock-out of that player would pay it."""
    state = premium(
        hands=["Prince Guard", "Constable", "Baron", "Handmaid", "Count"],
        deck="King Guard Countess Priest",
    )
    after = check(
        state,
        PlayCard(0, PRINCE, 1),
        CardPlayed(0, PRINCE, 1),
        CardDiscarded(1, CONSTABLE),
        CardDrawn(1, KING, False),
        *turn(1, GUARD),
    )
    assert after.tokens == (0, 0, 0, 0, 0)
    assert after.discards[1] == (CONSTABLE,)
    # seat 1 plays its Guard (wrong); seat 2 draws the Countess and its Baron
    # beats seat 1's King: now the Constable in the pile pays
    after = check(after, PlayCard(1, GUARD, 3, 2), CardPlayed(1, GUARD, 3, 2), *turn(2, COUNTESS))
    check(
        after,
        PlayCard(2, BARON, 1),
        CardPlayed(2, BARON, 1),
        HandsCompared(2, 1, COUNTESS, KING),
        PlayerEliminated(1, EliminationReason.BARON_COMPARISON, (KING,)),
        TokenAwarded(1, CONSTABLE_TOKEN, 1),
        *turn(3, PRIEST),
    )
