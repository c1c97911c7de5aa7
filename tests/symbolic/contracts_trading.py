"""Contracts on the cards that move cards between zones: the King and the
Cardinal (trades), the Prince (discard and draw) and the Chancellor (draw
two, keep one, return the rest)."""

from __future__ import annotations

from loveletter.cards import Card, cardinal, chancellor, king, prince
from loveletter.commands import Decline, KeepCard, PlayCard
from loveletter.errors import IllegalCommand
from loveletter.events import CardsReturned, ChancellorDrew, HandsTraded, LookOffered
from loveletter.evolution import apply_unchecked
from loveletter.state import Decision

from .contracts_harness import (
    PREMIUM_INDEX,
    all_cards,
    bystanders,
    concrete,
    fresh_caches,
    kind,
    kinds,
    make_state,
    play,
    truth,
    untouched,
)


def king_trades_exactly_the_two_hands(r: int, spare: int, held: int, target: int) -> None:
    """The King's player and the target swap their hands (the player's
    other card against the target's); no one else is touched. Rules:
    king.trade-hands."""
    assert 0 <= r < 3
    assert 0 <= spare < kinds(r) and 0 <= held < kinds(r)
    assert 1 <= target <= 2
    fresh_caches()
    r, spare, held, target = concrete(r, spare, held, target)
    mine, theirs = kind(r, spare), kind(r, held)
    state = make_state(r, ((Card.KING, mine), (theirs,), (Card.PRIEST,)))
    if target == 2:
        state = make_state(r, ((Card.KING, mine), (Card.PRIEST,), (theirs,)))
    command = PlayCard(0, Card.KING, target)
    events = king.king(state, command)
    assert events == (HandsTraded(0, target, Card.KING),)
    after = play(state, command, events)
    assert after.hands[0] == (theirs,) and after.hands[target] == (mine,)
    assert all_cards(after) == all_cards(state)
    assert untouched(state, after, bystanders(state, 0, target))
    assert after.out == state.out


def cardinal_swaps_exactly_the_two_chosen(first: int, second: int, a: int, b: int) -> None:
    """The two players a Cardinal chooses (its own player may be one) swap
    hands; everyone else keeps theirs; the look is then offered on those
    two. Rules: cardinal.swap-two-players, cardinal.optional-look."""
    assert 0 <= first < second < 3
    assert 0 <= a < kinds(PREMIUM_INDEX) and 0 <= b < kinds(PREMIUM_INDEX)
    fresh_caches()
    first, second, a, b = concrete(first, second, a, b)
    r = PREMIUM_INDEX
    state = make_state(r, ((Card.CARDINAL, kind(r, a)), (kind(r, b),), (Card.PRIEST,)))
    command = PlayCard(0, Card.CARDINAL, first, None, second)
    events = cardinal.cardinal(state, command)
    assert events == (
        HandsTraded(first, second, Card.CARDINAL),
        LookOffered(0, (first, second)),
    )
    after = play(state, command, events)
    held = (kind(r, a),), (kind(r, b),), (Card.PRIEST,)
    assert after.hands[first] == held[second] and after.hands[second] == held[first]
    assert all_cards(after) == all_cards(state)
    assert untouched(state, after, bystanders(state, 0, first, second))
    assert after.decision is Decision.LOOK and after.pending == (first, second)


def prince_makes_exactly_the_chosen_player_discard_and_draw(
    r: int, held: int, spare: int, top: int, deck_size: int, target: int
) -> None:
    """The chosen player (the Prince's own player included, who discards
    the card left after the Prince) discards their hand unresolved and
    draws the top card, or the set-aside card when the deck is empty; a
    discarded Princess knocks them out instead of the draw. No one else is
    touched. Rules: prince.any-player, prince.discard-and-draw,
    prince.empty-deck-draws-set-aside, prince.princess-discard-eliminates."""
    assert 0 <= r < 3
    assert 0 <= held < kinds(r) and 0 <= spare < kinds(r) and 0 <= top < kinds(r)
    assert 0 <= deck_size <= 1
    assert 0 <= target < 3
    fresh_caches()
    r, held, spare, top, deck_size, target = concrete(r, held, spare, top, deck_size, target)
    deck = (kind(r, top),)[:deck_size]
    state = make_state(
        r,
        ((Card.PRINCE, kind(r, spare)), (kind(r, held),), (Card.PRIEST,)),
        deck=deck,
        set_aside=Card.GUARD,
    )
    command = PlayCard(0, Card.PRINCE, target)
    events = prince.prince(state, command)
    after = play(state, command, events)
    discarded = (kind(r, spare),) if target == 0 else state.hands[target]
    assert after.discards[target][-1:] == discarded
    assert all_cards(after) == all_cards(state)
    assert untouched(state, after, bystanders(state, 0, target))
    if discarded == (Card.PRINCESS,):
        assert target in after.out and after.hands[target] == ()
    else:
        assert target not in after.out
        assert after.hands[target] == ((deck[0] if deck else Card.GUARD),)
        assert (after.set_aside is None) is (not deck)


def chancellor_draws_up_to_two_and_returns_to_the_bottom(
    deck_size: int, keep: int, reverse: bool, spare: int
) -> None:
    """The Chancellor's player draws the top two cards (one if only one is
    left, none if the deck is empty), then keeps one card of their hand and
    puts the others under the deck in the order they choose; a keep that is
    not one card of the hand with the rest returned is refused. No card is
    created or lost. Rules: chancellor.draw-two-keep-one,
    chancellor.one-card-in-deck, chancellor.empty-deck-no-effect,
    chancellor.return-bottom-any-order. Only the 2019 edition's full deck
    holds the Chancellor."""
    assert 0 <= deck_size <= 3
    assert 0 <= keep < 4
    assert 0 <= spare < kinds(0)
    fresh_caches()
    deck_size, keep, spare = concrete(deck_size, keep, spare)
    reverse = truth(reverse)
    r = 0
    deck = (Card.GUARD, Card.PRINCESS, Card.BARON)[:deck_size]
    state = make_state(
        r, ((Card.CHANCELLOR, kind(r, spare)), (Card.PRIEST,)), deck=deck, set_aside=Card.KING
    )
    command = PlayCard(0, Card.CHANCELLOR)
    events = chancellor.chancellor(state, command)
    drawn = deck[:2]
    if not drawn:
        assert events == ()
        return
    assert events == (ChancellorDrew(0, len(drawn), drawn),)
    middle = play(state, command, events)
    hand = middle.hands[0]
    assert hand == (kind(r, spare), *drawn) and middle.decision is Decision.CHANCELLOR
    assert middle.deck == deck[2:]
    kept = (*hand, Card.COUNTESS)[min(keep, len(hand))]  # the last choice is not in the hand
    rest = list(hand)
    if kept in rest:
        rest.remove(kept)
    bottom = tuple(reversed(rest)) if reverse else tuple(rest)
    try:
        answer = chancellor.keep(middle, KeepCard(0, kept, bottom))
    except IllegalCommand:
        assert kept not in hand
        return
    assert kept in hand
    assert answer == (CardsReturned(0, len(bottom), bottom),)
    after = apply_unchecked(middle, answer)
    assert after.hands[0] == (kept,) and after.deck == (*deck[2:], *bottom)
    assert after.decision is Decision.PLAY
    assert all_cards(after) == all_cards(state)
    assert untouched(state, after, bystanders(state, 0))
    try:
        chancellor.keep(middle, Decline(0))
    except IllegalCommand:
        pass
    else:
        raise AssertionError("the Chancellor's choice must be a KeepCard")
