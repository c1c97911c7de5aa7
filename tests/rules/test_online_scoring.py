"""Ranks, the hand bonus, the win counter and partial wins online (004):
rulings 44 to 46."""

from __future__ import annotations

import pytest

import loveletter as ll
from loveletter import Card, PlayCard
from loveletter.cards.base import Showdown
from loveletter.commands import Decline, Redraw
from loveletter.events import (
    CardPlayed,
    EliminationReason,
    PlayerEliminated,
    PlayerMarked,
    RedrawOffered,
    RoundEnded,
    RoundEndReason,
    TokenAwarded,
    TokenReason,
)
from loveletter.ranking import adjusted_values, round_ranks
from loveletter.rulesets import get_ruleset

from ._helpers import (
    BARON,
    BISHOP,
    COUNTESS,
    GUARD,
    JESTER,
    KING,
    PRIEST,
    PRINCESS,
    cards,
    check,
    online,
    turn,
    two_kings_tied,
)

ONLINE = get_ruleset("online")
WIN = TokenReason.ROUND_WIN
GUESS = EliminationReason.GUARD_GUESS


def adjusted(hands: dict[int, str], piles: dict[int, str]) -> dict[int, int]:
    """Adjusted hand values of the given hands (seat -> card) with the
    given discard piles (seat -> cards), everyone else's pile empty."""
    seats = 1 + max((*hands, *piles))
    revealed = tuple((seat, Card.parse(card)) for seat, card in sorted(hands.items()))
    discards = tuple(cards(piles.get(seat, "")) for seat in range(seats))
    return adjusted_values(ONLINE, revealed, discards)


# --------------------------------------------------------------------------
# 004's worked list of adjusted values, one case per situation it names


@pytest.mark.rule("round.hand-bonus-online", "count.showdown-bonus")
def test_lifted_seven_plus_two_and_princess_beside_a_bishop() -> None:
    """Both lifts: the Countess with both Counts and a higher discard sum
    than the Bishop holder (13), the Princess (12), the Bishop (9), a plain
    Countess or Dowager Queen (7)."""
    values = adjusted(
        {0: "Countess", 1: "Princess", 2: "Bishop", 3: "DowagerQueen"},
        {0: "Count Count Guard", 2: "Guard"},
    )
    assert values == {0: 13, 1: 12, 2: 9, 3: 7}
    # the Dowager Queen lifts the same way
    assert adjusted({0: "DowagerQueen", 1: "Princess", 2: "Bishop"}, {0: "Count Count"})[0] == 13


@pytest.mark.rule("round.hand-bonus-online", "count.showdown-bonus")
def test_lifted_princess_when_the_bishop_holder_adds_up_to_as_much() -> None:
    """The 7 with both Counts is not lifted when the Bishop holder's
    discard sum is not lower (equal here): Princess + 2 = 14, Princess 12,
    Bishop + 2 = 11, Bishop + 1 = 10, Countess + 2 = 9."""
    values = adjusted(
        {0: "Princess", 1: "Princess", 2: "Bishop", 3: "Bishop", 4: "Countess"},
        {
            0: "Count Count",
            2: "Count Count",
            3: "Count Guard Guard Guard Guard Guard",
            4: "Count Count",
        },
    )
    assert values == {0: 14, 1: 12, 2: 11, 3: 10, 4: 9}


@pytest.mark.rule("round.hand-bonus-online", "count.showdown-bonus")
def test_simple_values_without_a_princess() -> None:
    values = adjusted(
        {0: "Bishop", 1: "Bishop", 2: "Countess", 3: "King", 4: "Constable"},
        {0: "Count Count", 1: "Count", 2: "Count", 3: "Count Count", 4: "Count Count"},
    )
    assert values == {0: 11, 1: 10, 2: 8, 3: 8, 4: 8}


@pytest.mark.rule("round.hand-bonus-online", "count.showdown-bonus")
def test_simple_values_without_a_bishop() -> None:
    values = adjusted(
        {0: "Countess", 1: "Princess", 2: "DowagerQueen", 3: "King", 4: "Prince"},
        {0: "Count Count", 2: "Count", 3: "Count", 4: "Count Count"},
    )
    assert values == {0: 9, 1: 8, 2: 8, 3: 7, 4: 7}


@pytest.mark.rule("round.hand-bonus-online")
def test_both_counts_means_at_least_two_and_any_copy_of_the_bishop_counts() -> None:
    """Ruling 45 with two or three decks: three Counts still lift a 7, and
    a second Bishop holder with a higher discard sum does not stop it."""
    values = adjusted(
        {0: "Countess", 1: "Princess", 2: "Bishop", 3: "Bishop"},
        {0: "Count Count Count Guard", 2: "Guard", 3: "King King Prince Prince"},
    )
    assert values[0] == 7 + 3 + 4


@pytest.mark.rule("round.hand-bonus-online")
def test_the_bonus_needs_the_princess_and_the_bishop_held_by_others() -> None:
    assert adjusted({0: "Princess", 1: "Guard"}, {}) == {0: 8, 1: 1}
    assert adjusted({0: "Countess", 1: "Bishop"}, {0: "Count Count Guard"}) == {0: 9, 1: 9}
    showdown = Showdown(((0, Card.PRINCESS),), ((),), ONLINE.values)
    bonus = ONLINE.rules[Card.PRINCESS].hand_bonus
    assert bonus is not None and bonus(showdown, 0) == 0


# --------------------------------------------------------------------------
# ranks


@pytest.mark.rule("round.ranks-online", "round.hand-bonus-online")
def test_the_one_showdown_where_004_and_premium_disagree_goes_to_the_princess() -> None:
    """A Countess with both Counts whose discard sum equals the Bishop
    holder's, beside the Princess: 004's strict "lower" leaves her at 9,
    tied with the Bishop on value and sum, and the Princess (lifted by the
    Bishop to 12) ranks first. Premium gives that round to the Countess
    (ruling 28; conformance case showdown-seven-with-two-counts-ties-bishop-and-wins)."""
    revealed = ((0, COUNTESS), (1, PRINCESS), (2, BISHOP))
    discards = (cards("Count Count"), cards("Guard"), cards("Prince Guard Guard Guard Guard Guard"))
    assert sum(ONLINE.values[c] for c in discards[0]) == sum(ONLINE.values[c] for c in discards[2])
    ranks = round_ranks(ONLINE, 3, revealed, (0, 1, 2), (), discards)
    assert ranks == (2, 1, 2)


@pytest.mark.rule("round.ranks-online")
def test_ranks_share_ties_skip_after_them_and_put_players_out_below_in_reverse_order() -> None:
    revealed = ((1, KING), (2, KING), (4, GUARD))
    discards = (
        cards("Guard"),
        cards("Priest Baron"),
        cards("Handmaid Guard"),
        cards("Prince"),
        cards("Guard"),
        (),
    )
    # seat 3 went out first, then seat 0; seat 5 had left before the round
    ranks = round_ranks(ONLINE, 6, revealed, (1, 2, 4), (3, 0), discards)
    assert ranks == (4, 1, 1, 5, 3, None)


@pytest.mark.rule("round.ranks-online", "game.win-counter-online")
def test_every_rank_one_player_adds_one_to_their_win_counter() -> None:
    state = two_kings_tied(
        tokens=[3, 1, 0, 0],
        round_number=4,
    )
    events = ll.decide(state, PlayCard(0, GUARD, 2, 2))
    ended = events[1]
    assert isinstance(ended, RoundEnded)
    assert ended.ranks == (1, 1, 3, 4) and ended.winners == (0, 1)
    assert events[2:] == (TokenAwarded(0, WIN, 4), TokenAwarded(1, WIN, 2))


@pytest.mark.rule("round.ranks-online", "round.end-one-player-left")
def test_the_last_player_left_ranks_first_without_comparing_anything() -> None:
    state = online(
        hands=["Baron Priest", "Guard", "Princess"],
        deck="King Prince Guard",
        discards=["", "", ""],
    )
    # the Baron loses nobody... seat 0 Priest 2 beats seat 1's Guard 1
    after = ll.push(state, PlayCard(0, BARON, 1))
    assert after.exits == (1,)
    after = ll.push(after, PlayCard(2, PRINCESS))
    result = after.round_result
    assert result is not None and result.reason is RoundEndReason.ONE_PLAYER_LEFT
    assert result.revealed == () and result.ranks == (1, 3, 2)


# --------------------------------------------------------------------------
# partial wins


@pytest.mark.rule("bishop.partial-win-online", "game.win-counter-online")
def test_a_correct_bishop_number_is_a_partial_win_at_once() -> None:
    state = online(
        hands=["Bishop Guard", "Priest", "Baron", "Handmaid", "Count"],
        deck="King Prince",
        tokens=[2, 0, 0, 0, 0],
        round_number=3,
    )
    after = check(
        state,
        PlayCard(0, BISHOP, 1, 2),
        CardPlayed(0, BISHOP, 1, 2),
        TokenAwarded(0, TokenReason.BISHOP, 3),
        RedrawOffered(1),
    )
    assert after.tokens == (3, 0, 0, 0, 0) and not after.round_over
    after = check(after, Decline(1), ll.OptionDeclined(1), *turn(1, KING))
    redraw = ll.push(state, PlayCard(0, BISHOP, 1, 2))
    assert ll.decide(redraw, Redraw(1))[:2] == (
        ll.CardDiscarded(1, PRIEST),
        ll.CardDrawn(1, KING, False),
    )


@pytest.mark.rule("constable.partial-win-online", "game.win-counter-online")
def test_going_out_with_a_constable_already_in_the_pile_is_a_partial_win() -> None:
    state = online(
        hands=["Guard Priest", "Baron", "Handmaid", "Prince", "Count"],
        deck="King Prince",
        discards=["", "Constable", "", "", ""],
    )
    check(
        state,
        PlayCard(0, GUARD, 1, 3),
        CardPlayed(0, GUARD, 1, 3),
        PlayerEliminated(1, GUESS, (BARON,)),
        TokenAwarded(1, TokenReason.CONSTABLE, 1),
        *turn(2, KING),
    )


@pytest.mark.rule("constable.partial-win-online")
def test_a_constable_in_hand_pays_nothing_and_two_in_the_pile_pay_once() -> None:
    in_hand = online(
        hands=["Guard Priest", "Constable", "Handmaid", "Prince", "Count"],
        deck="King Prince",
    )
    events = ll.decide(in_hand, PlayCard(0, GUARD, 1, 6))
    assert not any(isinstance(e, TokenAwarded) for e in events)
    two = online(
        hands=["Guard Priest", "Baron", "Handmaid", "Prince", "Count"],
        deck="King Prince",
        # seat 1 played twice: a full lap, so everyone has played before
        discards=["Priest", "Constable Constable", "Guard", "Guard", "Guard"],
        decks=2,
    )
    events = ll.decide(two, PlayCard(0, GUARD, 1, 3))
    assert [e for e in events if isinstance(e, TokenAwarded)] == [
        TokenAwarded(1, TokenReason.CONSTABLE, 1)
    ]


@pytest.mark.rule("jester.partial-win-online", "game.win-counter-online")
def test_a_jester_whose_watched_player_ranks_first_is_a_partial_win_even_when_out() -> None:
    state = online(
        hands=["Guard Priest", "Princess", "Baron", "", "Handmaid"],
        deck="King",
        discards=["Jester", "", "", "Guard", "Guard"],
        exits=[3],
        marks=[(0, 1)],
        rest=3,
    )
    events = ll.decide(state, PlayCard(0, GUARD, 2, 2))
    ended = events[1]
    assert isinstance(ended, RoundEnded) and ended.winners == (1,)
    assert events[2:] == (TokenAwarded(1, WIN, 1), TokenAwarded(0, TokenReason.JESTER, 1))


@pytest.mark.rule("jester.partial-win-online")
def test_every_jester_played_is_its_own_bet() -> None:
    state = online(
        hands=["Guard Priest", "Princess", "Baron", "", "Guard"],
        deck="King",
        # seat 3 went out by the second deck's Princess
        discards=["Jester", "", "Jester", "", ""],
        marks=[(0, 1), (2, 1)],
        decks=2,
        rest=4,
        exits=[3],
    )
    events = ll.decide(state, PlayCard(0, GUARD, 4, 2))
    assert [e for e in events if isinstance(e, TokenAwarded)] == [
        TokenAwarded(1, WIN, 1),
        TokenAwarded(0, TokenReason.JESTER, 1),
        TokenAwarded(2, TokenReason.JESTER, 1),
    ]


@pytest.mark.rule("jester.partial-win-online")
def test_a_played_jester_watches_and_everyone_sees_it() -> None:
    state = online(hands=["Jester Guard", "Priest", "Baron", "Handmaid", "Count"], deck="King")
    after = check(
        state,
        PlayCard(0, JESTER, 3),
        CardPlayed(0, JESTER, 3),
        PlayerMarked(0, 3),
        *turn(1, KING),
    )
    assert all(ll.view(after, seat).marks == ((0, 3),) for seat in range(5))
