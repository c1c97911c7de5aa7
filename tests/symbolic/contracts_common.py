"""Contracts on the helpers the card modules share (loveletter/cards/_common.py).

Each function is a CrossHair condition (``--analysis_kind asserts``): the
leading asserts bound its symbolic inputs, the later ones must hold on
every path.
"""

from __future__ import annotations

from loveletter.cards import Card
from loveletter.cards._common import (
    compare,
    discard_and_draw,
    discard_unresolved,
    draw_replacement,
    remaining,
)
from loveletter.events import (
    CardDiscarded,
    CardDrawn,
    EliminationReason,
    HandsCompared,
    PlayerEliminated,
)
from loveletter.evolution import apply_unchecked

from .contracts_harness import (
    RULESETS,
    all_cards,
    bystanders,
    concrete,
    fresh_caches,
    kind,
    kinds,
    make_state,
    truth,
    untouched,
)


def remaining_removes_one_copy(r: int, a: int, b: int, second: bool) -> None:
    """Playing a card takes exactly one copy of it out of the hand, even
    when both cards are of one kind. Rules: turn.draw-then-play."""
    assert 0 <= r < 3
    assert 0 <= a < kinds(r) and 0 <= b < kinds(r)
    fresh_caches()
    r, a, b = concrete(r, a, b)
    second = truth(second)
    hand = (kind(r, a), kind(r, b))
    played = hand[1] if second else hand[0]
    rest = remaining(hand, played)
    assert len(rest) == 1
    assert sorted((played, *rest)) == sorted(hand)


def discard_unresolved_discards_each_card(r: int, a: int, b: int, two: bool, player: int) -> None:
    """Each card is discarded face up without its effect, in order; only a
    discarded Princess does anything (her player is out). Rules:
    princess.eliminated-when-played-or-discarded."""
    assert 0 <= r < 3
    assert 0 <= a < kinds(r) and 0 <= b < kinds(r)
    assert 0 <= player < 3
    fresh_caches()
    r, a, b, player = concrete(r, a, b, player)
    two = truth(two)
    cards = (kind(r, a), kind(r, b)) if two else (kind(r, a),)
    state = make_state(r, ((Card.GUARD,), (Card.GUARD,), (Card.GUARD,)))
    events = discard_unresolved(state, player, cards)
    expected: list[object] = []
    for card in cards:
        expected.append(CardDiscarded(player, card))
        if card is Card.PRINCESS:
            expected.append(PlayerEliminated(player, EliminationReason.PRINCESS_DISCARDED, ()))
    assert events == expected


def draw_replacement_takes_top_or_set_aside(r: int, top: int, aside: int, deck_size: int) -> None:
    """The replacement is the top of the deck, or the set-aside card when
    the deck is empty. Rules: prince.empty-deck-draws-set-aside,
    assassin.discard-and-redraw."""
    assert 0 <= r < 3
    assert 0 <= top < kinds(r) and 0 <= aside < kinds(r)
    assert 0 <= deck_size <= 2
    fresh_caches()
    r, top, aside, deck_size = concrete(r, top, aside, deck_size)
    deck = (kind(r, top), Card.GUARD)[:deck_size]
    state = make_state(r, ((Card.PRIEST,), ()), deck=deck, set_aside=kind(r, aside))
    drawn = draw_replacement(state, 1)
    if deck:
        assert drawn == CardDrawn(1, deck[0], False)
    else:
        assert drawn == CardDrawn(1, kind(r, aside), True)


def discard_and_draw_replaces_the_hand(r: int, held: int, top: int, deck_size: int) -> None:
    """The player discards their card unresolved and draws a new one (top
    of the deck, else the set-aside card), unless the card was the Princess,
    which knocks them out with no draw; no one else is touched and no card
    is created or lost. Rules: prince.discard-and-draw,
    prince.princess-discard-eliminates, prince.empty-deck-draws-set-aside."""
    assert 0 <= r < 3
    assert 0 <= held < kinds(r) and 0 <= top < kinds(r)
    assert 0 <= deck_size <= 1
    fresh_caches()
    r, held, top, deck_size = concrete(r, held, top, deck_size)
    card = kind(r, held)
    deck = (kind(r, top),)[:deck_size]
    state = make_state(
        r, ((Card.GUARD, Card.PRINCE), (card,), (Card.BARON,)), deck=deck, set_aside=Card.KING
    )
    events = discard_and_draw(state, 1, (card,))
    after = apply_unchecked(state, events)
    assert all_cards(after) == all_cards(state)
    assert untouched(state, after, bystanders(state, 1))
    assert after.discards[1] == (card,)
    if card is Card.PRINCESS:
        assert 1 in after.out and after.hands[1] == ()
    else:
        assert 1 not in after.out
        assert after.hands[1] == (deck[0] if deck else Card.KING,)


def compare_follows_ruleset_values(r: int, mine: int, theirs: int, lower_loses: bool) -> None:
    """A secret comparison of printed values in the ruleset (never card
    codes, never showdown bonuses): the lower card (Baron) or the higher
    (Dowager Queen) is out with their card, a tie does nothing. Rules:
    baron.compare-lower-out, baron.tie-no-effect,
    dowager-queen.compare-higher-out, dowager-queen.tie-no-effect."""
    assert 0 <= r < 3
    assert 0 <= mine < kinds(r) and 0 <= theirs < kinds(r)
    fresh_caches()
    r, mine, theirs = concrete(r, mine, theirs)
    lower_loses = truth(lower_loses)
    my_card, their_card = kind(r, mine), kind(r, theirs)
    via = Card.BARON if lower_loses else Card.DOWAGER_QUEEN
    state = make_state(r, ((via, my_card), (their_card,)), discards=((Card.COUNT,), ()))
    events = compare(state, 0, via, 1, via, lower_loses)
    assert events[0] == HandsCompared(0, 1, my_card, their_card, via)
    values = RULESETS[r].values
    out = [e for e in events[1:] if type(e) is PlayerEliminated]
    assert len(events) == 1 + len(out)
    if values[my_card] == values[their_card]:
        assert out == []
    else:
        player_lower = values[my_card] < values[their_card]
        loser = 0 if player_lower is lower_loses else 1
        assert len(out) == 1 and out[0].player == loser
        assert out[0].discarded == ((my_card,) if loser == 0 else (their_card,))
