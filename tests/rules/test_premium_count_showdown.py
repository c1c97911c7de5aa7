"""The Premium showdown (001 "End of a Round", rulings 28 and 40): highest
number, Counts adding 1 each, the Princess beating the Bishop, ties broken
by discard-pile totals; and the Count (5), which does nothing else."""

from __future__ import annotations

import pytest

from loveletter import GameState, PlayCard, legal_commands
from loveletter.events import (
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    HandsCompared,
    PlayerProtected,
    RoundEnded,
    RoundEndReason,
    TokenAwarded,
    TokenReason,
)

from ._helpers import (
    BARON,
    CARDINAL,
    CONSTABLE,
    COUNT,
    DOWAGER_QUEEN,
    GUARD,
    HANDMAID,
    KING,
    PRIEST,
    PRINCE,
    check,
    premium,
    turn,
)

DECK_EMPTY = RoundEndReason.DECK_EMPTY
WIN = TokenReason.ROUND_WIN


def last_turn(hands: list[str], piles: list[str], set_aside: str) -> GameState:
    """The last turn of a round, first player seat 0, no one out and no
    Prince played: every card is placed and the deck is empty. With 3
    players that is turn 12 (seat 2 to play), with 5 turn 26 (seat 0)."""
    current = 2 if len(hands) == 3 else 0
    state = premium(hands=hands, discards=piles, set_aside=set_aside, current=current)
    assert state.deck == () and state.turn_number == (12 if current else 26)
    return state


def handmaid_ends_the_round(state: GameState, winners: tuple[int, ...]) -> None:
    """The current player plays their Handmaid on an empty deck: the hands
    are shown (the current player's other card) and compared."""
    player = state.current
    shown = tuple(
        (seat, hand[0] if len(hand) == 1 else next(c for c in hand if c is not HANDMAID))
        for seat, hand in enumerate(state.hands)
    )
    check(
        state,
        PlayCard(player, HANDMAID),
        CardPlayed(player, HANDMAID),
        PlayerProtected(player),
        RoundEnded(DECK_EMPTY, winners, shown),
        *(TokenAwarded(seat, WIN, state.tokens[seat] + 1) for seat in winners),
    )


# --------------------------------------------------------------------------
# 3 players, 16 cards: turn 12, seat 2 plays its Handmaid on an empty deck


@pytest.mark.rule("round.tie-discard-sum", "round.end-deck-empty")
def test_round_tie_discard_sum_highest_number_wins_whatever_the_totals() -> None:
    """The Princess (8) wins though her holder's pile is the lightest."""
    state = last_turn(
        ["Prince", "Princess", "Handmaid Guard"],
        ["Countess King Baron Handmaid", "Guard Guard Guard Priest", "Guard Priest Baron"],
        "Prince",
    )
    handmaid_ends_the_round(state, (1,))


@pytest.mark.rule("round.tie-discard-sum")
def test_round_tie_discard_sum_a_tie_goes_to_the_highest_discard_total() -> None:
    """Two Princes: seat 0's pile totals 17 (Guard 1, Baron 3, King 6,
    Countess 7), seat 2's 10 once its Handmaid is played (Guard, Priest,
    Baron, Handmaid). Seat 0 wins alone."""
    state = last_turn(
        ["Prince", "Guard", "Handmaid Prince"],
        ["Guard Baron King Countess", "Guard Guard Priest Handmaid", "Guard Priest Baron"],
        "Princess",
    )
    handmaid_ends_the_round(state, (0,))


@pytest.mark.rule("round.tie-discard-sum", "round.winner-token")
def test_round_tie_discard_sum_still_tied_all_tied_players_win() -> None:
    """Same numbers and same totals (12 each, the Handmaid just played
    included): both win and each gains a token."""
    state = last_turn(
        ["Prince", "Guard", "Handmaid Prince"],
        ["Guard Handmaid Guard King", "Guard Priest Guard Countess", "Baron Priest Baron"],
        "Princess",
    )
    handmaid_ends_the_round(state, (0, 2))


# --------------------------------------------------------------------------
# 5 players, 32 cards: turn 26, seat 0 plays its Handmaid on an empty deck


@pytest.mark.rule("count.showdown-bonus", "round.tie-discard-sum")
def test_count_showdown_bonus_two_counts_lift_the_countess_over_the_princess() -> None:
    """001 Count Guntram: with both Counts in your pile, "the cards with a
    number of 7 [...] would beat the Princess": 7 + 2 = 9 against 8."""
    state = last_turn(
        ["Handmaid Countess", "Princess", "Prince", "Prince", "Baron"],
        [
            "Count Count Guard Guard Guard",
            "Guard Guard Priest Baron Sycophant",
            "Guard Guard Priest King Baroness",
            "Guard Handmaid Sycophant Cardinal Bishop",
            "DowagerQueen Constable Baroness Cardinal Assassin",
        ],
        "Jester",
    )
    handmaid_ends_the_round(state, (0,))


#: the piles of seats 2 to 4 below: the second Count is in seat 3's pile,
#: whose Guard becomes 2, far from the lead
OTHER_PILES = [
    "Guard Guard Priest Sycophant Cardinal",
    "Guard Count Baroness Cardinal Bishop",
    "Handmaid DowagerQueen Constable Baroness Assassin",
]


@pytest.mark.rule("count.showdown-bonus", "round.tie-discard-sum")
def test_count_showdown_bonus_a_tie_it_creates_goes_to_the_discard_totals() -> None:
    """001: a tie made by the Count is resolved normally. Seat 0's Prince
    and Count make 6, like seat 1's King; seat 0's pile totals 16 (the Count
    counted 5), seat 1's 14: seat 0 wins."""
    state = last_turn(
        ["Handmaid Prince", "King", "Prince", "Guard", "Jester"],
        [
            "Count Guard Guard Priest Baron",
            "Countess Guard Guard Guard Sycophant",
            "Guard Baron Priest Sycophant Cardinal",
            *OTHER_PILES[1:],
        ],
        "Princess",
    )
    handmaid_ends_the_round(state, (0,))


@pytest.mark.rule("count.showdown-bonus", "round.tie-discard-sum")
def test_count_showdown_bonus_is_not_part_of_the_discard_total() -> None:
    """Ruling 40: the Count adds 5 to its owner's pile total, its printed
    number, never the bonus. Seat 0 (Prince + Count = 6, pile 16) and seat 1
    (King 6, pile 16) stay tied: both win."""
    state = last_turn(
        ["Handmaid Prince", "King", "Prince", "Guard", "Jester"],
        [
            "Count Guard Guard Priest Baron",
            "Countess Baron Guard Guard Sycophant",
            *OTHER_PILES,
        ],
        "Princess",
    )
    handmaid_ends_the_round(state, (0, 1))


#: seats 3 and 4 hold Princes; their piles
LOW_PILES = [
    "Guard Baron Sycophant Baroness Cardinal",
    "DowagerQueen Constable Baroness Cardinal Assassin",
]


@pytest.mark.rule("bishop.princess-beats-bishop", "count.showdown-bonus")
def test_bishop_princess_beats_bishop_whatever_the_counts() -> None:
    """001 Bishop Vinizio: "the Princess still beats the Bishop"; with two
    Counts the Bishop's holder has 11, and still loses to her."""
    state = last_turn(
        ["Handmaid Princess", "Bishop", "Countess", "Prince", "Prince"],
        [
            "Guard Guard Guard Priest Baron",
            "Count Count Guard Guard Sycophant",
            "Guard Handmaid Guard Priest Baron",
            "Guard King Sycophant Baroness Cardinal",
            LOW_PILES[1],
        ],
        "Jester",
    )
    handmaid_ends_the_round(state, (0,))


@pytest.mark.rule("bishop.princess-beats-bishop", "round.tie-discard-sum", "count.showdown-bonus")
def test_bishop_princess_beats_bishop_a_cycle_goes_to_the_princess() -> None:
    """Ruling 28: the Princess beats the Bishop (9, pile 16), who beats the
    Countess with two Counts (9, pile 14) on the totals, who beats the
    Princess (9 > 8). Everyone is beaten by someone: the Princess wins."""
    state = last_turn(
        ["Handmaid Princess", "Bishop", "Countess", "Prince", "Prince"],
        [
            "Guard Guard Guard Priest Baron",
            "Guard Handmaid Guard King Sycophant",
            "Count Count Guard Guard Priest",
            *LOW_PILES,
        ],
        "Jester",
    )
    handmaid_ends_the_round(state, (0,))


@pytest.mark.rule("bishop.princess-beats-bishop", "round.tie-discard-sum", "count.showdown-bonus")
def test_bishop_princess_beats_bishop_but_not_a_countess_with_two_counts() -> None:
    """The same hands, but the Countess's pile (21) outweighs the Bishop's
    (9): she beats both the Bishop and the Princess and wins alone."""
    state = last_turn(
        ["Handmaid Princess", "Bishop", "Countess", "Prince", "Prince"],
        [
            "Guard Guard Guard Priest Baron",
            "Guard Handmaid Guard Guard Priest",
            "Count Count Guard King Sycophant",
            *LOW_PILES,
        ],
        "Jester",
    )
    handmaid_ends_the_round(state, (2,))


# --------------------------------------------------------------------------
# the Count does nothing else


@pytest.mark.rule("count.no-effect")
def test_count_no_effect_when_played() -> None:
    state = premium(hands=["Count Guard", "Priest", "Baron", "Handmaid", "King"], deck="Prince")
    assert legal_commands(state, COUNT) == (PlayCard(0, COUNT),)
    check(state, PlayCard(0, COUNT), CardPlayed(0, COUNT), *turn(1, PRINCE))


@pytest.mark.rule("count.no-effect", "prince.discard-and-draw")
def test_count_no_effect_when_discarded_by_a_prince() -> None:
    state = premium(
        hands=["Prince Guard", "Count", "Baron", "Handmaid", "King"], deck="Priest Guard"
    )
    check(
        state,
        PlayCard(0, PRINCE, 1),
        CardPlayed(0, PRINCE, 1),
        CardDiscarded(1, COUNT),
        CardDrawn(1, PRIEST, False),
        *turn(1, GUARD),
    )


#: turn 6: seat 0 played a Count on turn 1, the others a Guard each
COUNT_PILES = ["Count", "Guard", "Guard", "Guard", "Guard"]


@pytest.mark.rule("count.showdown-bonus", "count.no-effect", "baron.tie-no-effect")
def test_count_showdown_bonus_not_in_a_baron_comparison() -> None:
    """Seat 0's Priest (2) against seat 1's Cardinal (2): a tie, though a
    Count lies in seat 0's pile."""
    state = premium(
        hands=["Baron Priest", "Cardinal", "Guard", "Handmaid", "King"],
        discards=COUNT_PILES,
        deck="Prince",
    )
    check(
        state,
        PlayCard(0, BARON, 1),
        CardPlayed(0, BARON, 1),
        HandsCompared(0, 1, PRIEST, CARDINAL),
        *turn(1, PRINCE),
    )


@pytest.mark.rule("count.showdown-bonus", "dowager-queen.tie-no-effect")
def test_count_showdown_bonus_not_in_a_dowager_queen_comparison() -> None:
    """Seat 0's King (6) against seat 1's Constable (6): a tie, though a
    Count lies in seat 0's pile."""
    state = premium(
        hands=["DowagerQueen King", "Constable", "Guard", "Handmaid", "Priest"],
        discards=COUNT_PILES,
        deck="Prince",
    )
    check(
        state,
        PlayCard(0, DOWAGER_QUEEN, 1),
        CardPlayed(0, DOWAGER_QUEEN, 1),
        HandsCompared(0, 1, KING, CONSTABLE, DOWAGER_QUEEN),
        *turn(1, PRINCE),
    )
