"""Contracts on the cards that compare values: the Baron, the Dowager
Queen, and the showdown at an empty deck with its Counts and the Princess
that beats the Bishop.

Every comparison is stated with the ruleset's values
(``Ruleset.values``), never the card codes: in Premium the King is 6 and
the Countess 7, the Bishop 9 and the Princess 8, unlike their codes.
"""

from __future__ import annotations

from loveletter.cards import Card, baron, dowager_queen
from loveletter.commands import PlayCard
from loveletter.consequences import showdown
from loveletter.events import EliminationReason, HandsCompared, PlayerEliminated
from loveletter.rulesets import RoundTie

from .contracts_harness import (
    PREMIUM_INDEX,
    RULESETS,
    all_cards,
    bystanders,
    concrete,
    fresh_caches,
    kind,
    kinds,
    make_state,
    play,
    untouched,
)


def baron_knocks_out_the_lower_value(r: int, mine: int, theirs: int) -> None:
    """The Baron's player and the target compare the player's other card
    with the target's: the lower value is out with their card, a tie does
    nothing; the cards are shown to the two players only; no one else is
    touched. Rules: baron.compare-lower-out, baron.tie-no-effect,
    baron.secret-comparison."""
    assert 0 <= r < 3
    assert 0 <= mine < kinds(r) and 0 <= theirs < kinds(r)
    fresh_caches()
    r, mine, theirs = concrete(r, mine, theirs)
    my_card, their_card = kind(r, mine), kind(r, theirs)
    state = make_state(r, ((Card.BARON, my_card), (their_card,), (Card.PRIEST,)))
    command = PlayCard(0, Card.BARON, 1)
    events = baron.baron(state, command)
    compared = HandsCompared(0, 1, my_card, their_card, Card.BARON)
    values = RULESETS[r].values
    reason = EliminationReason.BARON_COMPARISON
    if values[my_card] < values[their_card]:
        assert events == (compared, PlayerEliminated(0, reason, (my_card,)))
    elif values[my_card] > values[their_card]:
        assert events == (compared, PlayerEliminated(1, reason, (their_card,)))
    else:
        assert events == (compared,)
    after = play(state, command, events)
    assert all_cards(after) == all_cards(state)
    assert untouched(state, after, bystanders(state, 0, 1))


def dowager_queen_knocks_out_the_higher_value(mine: int, theirs: int, counts: int) -> None:
    """The Baron's mirror: the higher value is out, a tie does nothing, and
    Counts in the piles add nothing outside the showdown. Rules:
    dowager-queen.compare-higher-out, dowager-queen.tie-no-effect,
    dowager-queen.secret-comparison, count.showdown-bonus."""
    assert 0 <= mine < kinds(PREMIUM_INDEX) and 0 <= theirs < kinds(PREMIUM_INDEX)
    assert 0 <= counts <= 2
    fresh_caches()
    mine, theirs, counts = concrete(mine, theirs, counts)
    r = PREMIUM_INDEX
    my_card, their_card = kind(r, mine), kind(r, theirs)
    state = make_state(
        r,
        ((Card.DOWAGER_QUEEN, my_card), (their_card,), (Card.PRIEST,)),
        discards=((Card.COUNT,) * counts, (), ()),
    )
    command = PlayCard(0, Card.DOWAGER_QUEEN, 1)
    events = dowager_queen.dowager_queen(state, command)
    compared = HandsCompared(0, 1, my_card, their_card, Card.DOWAGER_QUEEN)
    values = RULESETS[r].values
    reason = EliminationReason.DOWAGER_COMPARISON
    if values[my_card] > values[their_card]:
        assert events == (compared, PlayerEliminated(0, reason, (my_card,)))
    elif values[my_card] < values[their_card]:
        assert events == (compared, PlayerEliminated(1, reason, (their_card,)))
    else:
        assert events == (compared,)
    after = play(state, command, events)
    assert all_cards(after) == all_cards(state)
    assert untouched(state, after, bystanders(state, 0, 1))


def showdown_follows_values_counts_and_piles(
    r: int, first: int, second: int, counts: int, pile: int
) -> None:
    """Two hands at an empty deck: the higher number wins, a number being
    the card's value plus one per Count in its owner's pile; equal numbers
    go to the higher discard-pile total in Premium (Counts at their printed
    value there) and to both players otherwise, or when still equal. The
    Princess beats the Bishop whatever the Counts. Rules:
    round.highest-card-wins, round.tie-all-win, round.tie-discard-sum,
    count.showdown-bonus, bishop.princess-beats-bishop."""
    assert 0 <= r < 3
    assert 0 <= first < kinds(r) and 0 <= second < kinds(r) and 0 <= pile < kinds(r)
    assert 0 <= counts <= (2 if r == PREMIUM_INDEX else 0)
    fresh_caches()
    r, first, second, counts, pile = concrete(r, first, second, counts, pile)
    ruleset = RULESETS[r]
    values = ruleset.values
    cards = (kind(r, first), kind(r, second))
    piles = ((Card.COUNT,) * counts, (kind(r, pile),))
    winners = showdown(ruleset, ((0, cards[0]), (1, cards[1])), piles)
    # a Count may be the card in the second pile too
    numbers = (values[cards[0]] + counts, values[cards[1]] + (piles[1] == (Card.COUNT,)))
    totals = (values[Card.COUNT] * counts, values[kind(r, pile)])
    if set(cards) == {Card.PRINCESS, Card.BISHOP}:
        assert winners == (cards.index(Card.PRINCESS),)
    elif numbers[0] != numbers[1]:
        assert winners == ((0,) if numbers[0] > numbers[1] else (1,))
    elif ruleset.round_tie is RoundTie.DISCARD_TOTAL and totals[0] != totals[1]:
        assert winners == ((0,) if totals[0] > totals[1] else (1,))
    else:
        assert winners == (0, 1)
