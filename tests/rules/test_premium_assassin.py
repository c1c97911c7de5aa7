"""Assassin (0, Premium with 5 to 8 players): a Guard that chooses its
holder knocks out the Guard's own player; the holder then changes the
Assassin for a new card. Played or discarded, it does nothing."""

from __future__ import annotations

import pytest

from loveletter import GameState, PlayCard, RejectionKind, events_for, legal_commands
from loveletter.events import (
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardRevealed,
    ChoiceRestricted,
    EliminationReason,
    GameEnded,
    HandsCompared,
    PlayerEliminated,
    RoundEnded,
    RoundEndReason,
    TokenAwarded,
    TokenReason,
)

from ._helpers import (
    ASSASSIN,
    BARON,
    DOWAGER_QUEEN,
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
BY_ASSASSIN = EliminationReason.ASSASSIN


def deal(first: str = "Guard Priest") -> GameState:
    """A fresh 5-player deal: seat 1 holds the Assassin; the deck starts King, Prince."""
    hands = [first, "Assassin", "Baron", "Handmaid", "Count"]
    return premium(hands=hands, deck="King Prince")


@pytest.mark.rule("assassin.guard-player-knocked-out", "assassin.discard-and-redraw")
@pytest.mark.parametrize("number", [0, 2, 5, 9])
def test_assassin_guard_player_knocked_out_whatever_the_number(number: int) -> None:
    """001: "regardless of what number that player named (even 0!)": the
    Assassin is revealed to all, the Guard's player is knocked out (their
    hand face up), the holder stays in, discards the Assassin without
    effect and draws the top card. The turn then passes as usual."""
    state = deal()
    after = check(
        state,
        PlayCard(0, GUARD, 1, number),
        CardPlayed(0, GUARD, 1, number),
        CardRevealed(1, ASSASSIN),
        PlayerEliminated(0, BY_ASSASSIN, (PRIEST,)),
        CardDiscarded(1, ASSASSIN),
        CardDrawn(1, KING, False),
        *turn(1, PRINCE),
    )
    assert after.out == frozenset({0})
    assert after.discards == ((GUARD, PRIEST), (ASSASSIN,), (), (), ())
    assert after.hands[1] == (KING, PRINCE)
    # the reveal is public: every player's stream shows it
    events = (CardRevealed(1, ASSASSIN), PlayerEliminated(0, BY_ASSASSIN, (PRIEST,)))
    for player in range(5):
        seen = events_for(player, (CardPlayed(0, GUARD, 1, number), *events))
        assert seen[1:] == events


@pytest.mark.rule("assassin.guard-player-knocked-out", "constable.knocked-out-token")
def test_assassin_guard_player_knocked_out_their_constable_counts() -> None:
    """Turn 6, a Constable in the Guard's player's pile: the Assassin's
    knock-out pays it, right after the knock-out."""
    state = premium(
        hands=["Guard Priest", "Assassin", "Baron", "Handmaid", "Count"],
        discards=["Constable", "Guard", "Guard", "Guard", "Guard"],
        deck="King Prince",
    )
    check(
        state,
        PlayCard(0, GUARD, 1, 3),
        CardPlayed(0, GUARD, 1, 3),
        CardRevealed(1, ASSASSIN),
        PlayerEliminated(0, BY_ASSASSIN, (PRIEST,)),
        TokenAwarded(0, TokenReason.CONSTABLE, 1),
        CardDiscarded(1, ASSASSIN),
        CardDrawn(1, KING, False),
        *turn(1, PRINCE),
    )


@pytest.mark.rule(
    "assassin.discard-and-redraw", "constable.knocked-out-token", "game.immediate-win"
)
def test_assassin_discard_and_redraw_not_once_the_game_is_won() -> None:
    """Round 4, the Guard's player has 3 tokens and a Constable in their
    pile: its token wins the game at once, and nothing more happens (the
    holder keeps the Assassin)."""
    state = premium(
        hands=["Guard Priest", "Assassin", "Baron", "Handmaid", "Count"],
        discards=["Constable", "Guard", "Guard", "Guard", "Guard"],
        tokens=[3, 0, 0, 0, 0],
        round_number=4,
        deck="King Prince",
    )
    after = check(
        state,
        PlayCard(0, GUARD, 1, 3),
        CardPlayed(0, GUARD, 1, 3),
        CardRevealed(1, ASSASSIN),
        PlayerEliminated(0, BY_ASSASSIN, (PRIEST,)),
        TokenAwarded(0, TokenReason.CONSTABLE, 4),
        GameEnded((0,)),
    )
    assert after.winners == (0,) and after.hands[1] == (ASSASSIN,)


@pytest.mark.rule(
    "assassin.discard-and-redraw", "assassin.guard-player-knocked-out", "round.end-one-player-left"
)
def test_assassin_discard_and_redraw_not_once_the_round_is_over() -> None:
    """Turn 4, seats 2 to 4 already out: the knock-out leaves the holder
    alone, the round ends at once and the holder keeps the Assassin
    (ruling 39)."""
    state = premium(
        hands=["Guard Priest", "Assassin", "", "", ""],
        discards=["Guard", "Guard", "Priest", "Handmaid", "Baron Guard"],
        out=[2, 3, 4],
        deck="King",
    )
    after = check(
        state,
        PlayCard(0, GUARD, 1, 5),
        CardPlayed(0, GUARD, 1, 5),
        CardRevealed(1, ASSASSIN),
        PlayerEliminated(0, BY_ASSASSIN, (PRIEST,)),
        RoundEnded(RoundEndReason.ONE_PLAYER_LEFT, (1,), ()),
        TokenAwarded(1, TokenReason.ROUND_WIN, 1),
    )
    assert after.hands[1] == (ASSASSIN,)
    assert after.deck[0] == KING


@pytest.mark.rule(
    "assassin.discard-and-redraw",
    "assassin.guard-player-knocked-out",
    "setup.set-aside-face-down",
    "round.end-deck-empty",
)
def test_assassin_discard_and_redraw_takes_the_set_aside_card_when_the_deck_is_empty() -> None:
    """Turn 26, the deck is empty: the holder draws the set-aside card; the
    turn is over and, the deck being empty, the round ends."""
    state = premium(
        hands=["Guard Priest", "Assassin", "Prince", "Prince", "Jester"],
        discards=[
            "Guard Guard Priest Handmaid Countess",
            "Guard Guard Baron Sycophant Cardinal",
            "Guard Guard Handmaid King Count",
            "Guard Baron Sycophant Baroness DowagerQueen",
            "Count Constable Baroness Cardinal Bishop",
        ],
        set_aside="Princess",
    )
    assert state.deck == () and state.turn_number == 26
    check(
        state,
        PlayCard(0, GUARD, 1, 2),
        CardPlayed(0, GUARD, 1, 2),
        CardRevealed(1, ASSASSIN),
        PlayerEliminated(0, BY_ASSASSIN, (PRIEST,)),
        CardDiscarded(1, ASSASSIN),
        CardDrawn(1, PRINCESS, True),
        RoundEnded(
            RoundEndReason.DECK_EMPTY,
            (1,),
            ((1, PRINCESS), (2, PRINCE), (3, PRINCE), (4, JESTER)),
        ),
        TokenAwarded(1, TokenReason.ROUND_WIN, 1),
    )


@pytest.mark.rule("assassin.no-effect")
def test_assassin_no_effect_when_played() -> None:
    """Played, the Assassin chooses no one and does nothing."""
    state = premium(hands=["Assassin Guard", "Priest", "Baron", "Handmaid", "Count"], deck="King")
    assert legal_commands(state, ASSASSIN) == (PlayCard(0, ASSASSIN),)
    reject(state, PlayCard(0, ASSASSIN, 1), R.TARGET_NOT_ALLOWED)
    check(state, PlayCard(0, ASSASSIN), CardPlayed(0, ASSASSIN), *turn(1, KING))


@pytest.mark.rule("assassin.no-effect", "prince.discard-and-draw")
def test_assassin_no_effect_when_discarded_by_a_prince() -> None:
    state = deal("Prince Guard")
    check(
        state,
        PlayCard(0, PRINCE, 1),
        CardPlayed(0, PRINCE, 1),
        CardDiscarded(1, ASSASSIN),
        CardDrawn(1, KING, False),
        *turn(1, PRINCE),
    )


@pytest.mark.rule(
    "assassin.no-effect", "assassin.guard-player-knocked-out", "baron.compare-lower-out"
)
def test_assassin_counts_zero_against_a_baron() -> None:
    """Chosen by a Baron, the Assassin does not react; it counts 0 and loses."""
    state = deal("Baron Priest")
    check(
        state,
        PlayCard(0, BARON, 1),
        CardPlayed(0, BARON, 1),
        HandsCompared(0, 1, PRIEST, ASSASSIN),
        PlayerEliminated(1, EliminationReason.BARON_COMPARISON, (ASSASSIN,)),
        *turn(2, KING),
    )
    tie = deal("Baron Jester")
    check(
        tie,
        PlayCard(0, BARON, 1),
        CardPlayed(0, BARON, 1),
        HandsCompared(0, 1, JESTER, ASSASSIN),
        *turn(1, KING),
    )


@pytest.mark.rule("assassin.no-effect", "dowager-queen.compare-higher-out")
def test_assassin_counts_zero_against_a_dowager_queen() -> None:
    """Chosen by a Dowager Queen, the Assassin counts 0: the Dowager's
    player, holding a Guard (1), has the higher card and is knocked out."""
    state = deal("DowagerQueen Guard")
    check(
        state,
        PlayCard(0, DOWAGER_QUEEN, 1),
        CardPlayed(0, DOWAGER_QUEEN, 1),
        HandsCompared(0, 1, GUARD, ASSASSIN, DOWAGER_QUEEN),
        PlayerEliminated(0, EliminationReason.DOWAGER_COMPARISON, (GUARD,)),
        *turn(1, KING),
    )


@pytest.mark.rule("assassin.guard-player-knocked-out", "sycophant.next-card-must-choose")
def test_assassin_a_sycophant_can_force_a_guard_onto_the_assassin() -> None:
    """Seat 0's Sycophant requires seat 2, the Assassin's holder: seat 1's
    Guard must choose them, and seat 1 is knocked out."""
    state = premium(
        hands=["Sycophant Priest", "Guard", "Assassin", "Handmaid", "Count"],
        deck="Guard King Prince",
    )
    state = check(
        state,
        PlayCard(0, SYCOPHANT, 2),
        CardPlayed(0, SYCOPHANT, 2),
        ChoiceRestricted(0, 2),
        *turn(1, GUARD),
    )
    assert {c.target for c in legal_commands(state) if isinstance(c, PlayCard)} == {2}
    reject(state, PlayCard(1, GUARD, 0, 2), R.REQUIRED_PLAYER_NOT_CHOSEN)
    check(
        state,
        PlayCard(1, GUARD, 2, 7),
        CardPlayed(1, GUARD, 2, 7),
        CardRevealed(2, ASSASSIN),
        PlayerEliminated(1, BY_ASSASSIN, (GUARD,)),
        CardDiscarded(2, ASSASSIN),
        CardDrawn(2, KING, False),
        *turn(2, PRINCE),
    )
