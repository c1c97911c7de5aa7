"""Cardinal (2, Premium with 5 to 8 players): two players, its own player
possibly one of them, trade hands; then its player may look at one of the
two hands."""

from __future__ import annotations

from itertools import combinations

import pytest

from loveletter import Decision, GameState, PlayCard, RejectionKind, Sighting, legal_commands, view
from loveletter.commands import Decline, LookAtHand, Redraw
from loveletter.events import (
    CardPlayed,
    HandSeen,
    HandsTraded,
    LookOffered,
    OptionDeclined,
    RoundEnded,
    RoundEndReason,
    TokenAwarded,
    TokenReason,
)

from ._helpers import (
    BARON,
    CARDINAL,
    GUARD,
    KING,
    PRINCE,
    PRINCESS,
    check,
    premium,
    reject,
    turn,
)

R = RejectionKind
SWAP = "cardinal.swap-two-players"
LOOK = "cardinal.optional-look"


def deal() -> GameState:
    """A fresh 5-player deal: seat 0 holds the Cardinal and a Guard."""
    return premium(hands=["Cardinal Guard", "Princess", "Baron", "Handmaid", "Count"], deck="King")


@pytest.mark.rule(SWAP, "targeting.choose-impossible-no-effect")
def test_cardinal_swap_two_players_any_pair_its_own_player_included() -> None:
    """Exactly two distinct players, listed lower seat first."""
    state = deal()
    assert legal_commands(state, CARDINAL) == tuple(
        PlayCard(0, CARDINAL, a, None, b) for a, b in combinations(range(5), 2)
    )
    reject(state, PlayCard(0, CARDINAL, 1), R.TARGET_REQUIRED)
    reject(state, PlayCard(0, CARDINAL), R.TARGET_REQUIRED)
    reject(state, PlayCard(0, CARDINAL, 2, None, 1), R.TARGET_NOT_ALLOWED)
    reject(state, PlayCard(0, CARDINAL, 2, None, 2), R.TARGET_NOT_ALLOWED)
    reject(state, PlayCard(0, CARDINAL, 1, None, 5), R.NO_SUCH_PLAYER)
    reject(state, PlayCard(0, CARDINAL, 1, 2, 2), R.GUESS_NOT_ALLOWED)


@pytest.mark.rule(SWAP, LOOK)
def test_cardinal_swap_two_players_then_its_player_may_look() -> None:
    """Seats 1 and 2 trade (the Princess moves: a trade is no discard, no
    one is knocked out); each learns what the other now holds. The look is
    offered to the Cardinal's player, who may pick either hand."""
    state = check(
        deal(),
        PlayCard(0, CARDINAL, 1, None, 2),
        CardPlayed(0, CARDINAL, 1, None, 2),
        HandsTraded(1, 2, CARDINAL),
        LookOffered(0, (1, 2)),
    )
    assert state.hands[1:3] == ((BARON,), (PRINCESS,))
    assert state.out == frozenset()
    assert state.sightings == (
        Sighting(1, 2, PRINCESS, 1, CARDINAL),
        Sighting(2, 1, BARON, 1, CARDINAL),
    )
    assert state.decision is Decision.LOOK and state.to_act == 0
    assert state.pending == (1, 2)
    assert legal_commands(state) == (LookAtHand(0, 1), LookAtHand(0, 2), Decline(0))
    looked = check(
        state,
        LookAtHand(0, 2),
        HandSeen(0, 2, PRINCESS, CARDINAL),
        *turn(1, KING),
    )
    assert Sighting(0, 2, PRINCESS, 1, CARDINAL) in looked.sightings
    check(state, LookAtHand(0, 1), HandSeen(0, 1, BARON, CARDINAL), *turn(1, KING))


@pytest.mark.rule(LOOK)
def test_cardinal_optional_look_may_be_declined() -> None:
    """Ruling 25: the look is optional; declining it, the player learns nothing."""
    state = check(
        deal(),
        PlayCard(0, CARDINAL, 3, None, 4),
        CardPlayed(0, CARDINAL, 3, None, 4),
        HandsTraded(3, 4, CARDINAL),
        LookOffered(0, (3, 4)),
    )
    after = check(state, Decline(0), OptionDeclined(0), *turn(1, KING))
    assert not [s for s in after.sightings if s.viewer == 0]
    assert view(after, 0).sightings == ()


@pytest.mark.rule(LOOK, "game.rules-enforced")
def test_cardinal_optional_look_only_at_one_of_the_two_hands() -> None:
    state = check(
        deal(),
        PlayCard(0, CARDINAL, 1, None, 2),
        CardPlayed(0, CARDINAL, 1, None, 2),
        HandsTraded(1, 2, CARDINAL),
        LookOffered(0, (1, 2)),
    )
    reject(state, LookAtHand(0, 3), R.INVALID_CHOICE)
    reject(state, LookAtHand(1, 2), R.NOT_YOUR_TURN)
    reject(state, Decline(1), R.NOT_YOUR_TURN)
    reject(state, Redraw(0), R.WRONG_DECISION)
    reject(state, PlayCard(0, GUARD, 1, 3), R.WRONG_DECISION)


@pytest.mark.rule(SWAP, LOOK)
def test_cardinal_swap_two_players_with_its_own_player() -> None:
    """Seat 0 trades its remaining Guard for seat 1's Princess: each learns
    what the other now holds; the look may then be at either hand."""
    state = check(
        deal(),
        PlayCard(0, CARDINAL, 0, None, 1),
        CardPlayed(0, CARDINAL, 0, None, 1),
        HandsTraded(0, 1, CARDINAL),
        LookOffered(0, (0, 1)),
    )
    assert state.hands[:2] == ((PRINCESS,), (GUARD,))
    assert state.sightings == (
        Sighting(0, 1, GUARD, 1, CARDINAL),
        Sighting(1, 0, PRINCESS, 1, CARDINAL),
    )
    assert legal_commands(state) == (LookAtHand(0, 0), LookAtHand(0, 1), Decline(0))
    check(state, LookAtHand(0, 1), HandSeen(0, 1, GUARD, CARDINAL), *turn(1, KING))


@pytest.mark.rule(SWAP, "targeting.choose-impossible-no-effect", "handmaid.all-protected-no-effect")
def test_cardinal_swap_two_players_fewer_than_two_choosable_no_effect() -> None:
    """001 (Cardinal): with fewer than two choosable players still in the
    round the card has no effect. Turn 9, seats 2 and 3 are out
    (Guards of seats 4 and 0) and seats 1 and 4 protected; only seat 0
    itself can be chosen."""
    state = premium(
        hands=["Cardinal Guard", "Priest", "", "", "Count"],
        discards=["Guard Guard", "Guard Handmaid", "Guard Baron", "King Prince", "Guard Handmaid"],
        out=[2, 3],
        protected=[1, 4],
        deck="Baron",
    )
    assert state.turn_number == 9
    assert legal_commands(state, CARDINAL) == (PlayCard(0, CARDINAL),)
    reject(state, PlayCard(0, CARDINAL, 0, None, 1), R.TARGET_PROTECTED)
    check(state, PlayCard(0, CARDINAL), CardPlayed(0, CARDINAL), *turn(1, BARON))


@pytest.mark.rule(SWAP, "out.untargetable", "handmaid.protection-until-next-turn")
def test_cardinal_swap_two_players_only_players_who_can_be_chosen() -> None:
    """Turn 5, seat 4 is out (seat 3's Guard) and seat 2 protected: the
    pairs leave them out."""
    state = premium(
        hands=["Cardinal Guard", "Priest", "Baron", "Prince", ""],
        discards=["Guard", "Guard", "Handmaid", "Guard", "Count"],
        out=[4],
        protected=[2],
        deck="King",
    )
    assert legal_commands(state, CARDINAL) == tuple(
        PlayCard(0, CARDINAL, a, None, b) for a, b in ((0, 1), (0, 3), (1, 3))
    )
    reject(state, PlayCard(0, CARDINAL, 1, None, 2), R.TARGET_PROTECTED)
    reject(state, PlayCard(0, CARDINAL, 1, None, 4), R.TARGET_OUT_OF_ROUND)


@pytest.mark.rule(LOOK, "round.end-deck-empty")
def test_cardinal_optional_look_comes_before_the_end_of_the_round() -> None:
    """The Cardinal played on the last turn: the round ends only once its
    player has answered the look."""
    state = premium(
        hands=["Cardinal Guard", "Princess", "Prince", "Prince", "Baron"],
        discards=[
            "Guard Guard Priest Handmaid Countess",
            "Guard Guard Baron Sycophant Cardinal",
            "Guard Guard Handmaid King Count",
            "Guard Priest Sycophant Baroness DowagerQueen",
            "Count Constable Baroness Jester Assassin",
        ],
        marks=[(4, 2)],
        set_aside="Bishop",
    )
    assert state.deck == ()
    state = check(
        state,
        PlayCard(0, CARDINAL, 0, None, 1),
        CardPlayed(0, CARDINAL, 0, None, 1),
        HandsTraded(0, 1, CARDINAL),
        LookOffered(0, (0, 1)),
    )
    assert state.round_result is None
    check(
        state,
        Decline(0),
        OptionDeclined(0),
        RoundEnded(
            RoundEndReason.DECK_EMPTY,
            (0,),
            ((0, PRINCESS), (1, GUARD), (2, PRINCE), (3, PRINCE), (4, BARON)),
        ),
        TokenAwarded(0, TokenReason.ROUND_WIN, 1),
    )
