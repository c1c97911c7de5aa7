"""Contracts on the cards that look at hands: the Priest, the Baroness and
the Cardinal's optional look. Looking moves no card: only the viewer's
knowledge (``sightings``) and, for the look, the pending choice change."""

from __future__ import annotations

from loveletter.cards import Card, baroness, cardinal, priest
from loveletter.commands import Decline, LookAtHand, PlayCard, Redraw
from loveletter.errors import IllegalCommand
from loveletter.events import HandSeen, OptionDeclined
from loveletter.evolution import apply_unchecked
from loveletter.state import Decision, Sighting

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


def priest_shows_the_target_card_to_its_player(r: int, held: int, spare: int) -> None:
    """The Priest's player, and only they, learn the target's card; no card
    moves but the Priest itself. Rules: priest.look-secretly."""
    assert 0 <= r < 3
    assert 0 <= held < kinds(r) and 0 <= spare < kinds(r)
    fresh_caches()
    r, held, spare = concrete(r, held, spare)
    card = kind(r, held)
    state = make_state(r, ((Card.PRIEST, kind(r, spare)), (card,), (Card.GUARD,)))
    command = PlayCard(0, Card.PRIEST, 1)
    events = priest.priest(state, command)
    assert events == (HandSeen(0, 1, card, Card.PRIEST),)
    after = play(state, command, events)
    assert after.sightings == (Sighting(0, 1, card, 1, Card.PRIEST),)
    assert all_cards(after) == all_cards(state)
    assert untouched(state, after, bystanders(state, 0))


def baroness_shows_each_chosen_hand(first: int, second: int, two: bool, target: int) -> None:
    """The Baroness's player sees the card of each of the one or two
    players chosen, and nothing moves. Rules: baroness.look-one-or-two."""
    assert 0 <= first < kinds(PREMIUM_INDEX) and 0 <= second < kinds(PREMIUM_INDEX)
    assert 1 <= target <= 2
    fresh_caches()
    first, second, target = concrete(first, second, target)
    two = truth(two)
    r = PREMIUM_INDEX
    cards = (kind(r, first), kind(r, second))
    state = make_state(r, ((Card.BARONESS, Card.GUARD), (cards[0],), (cards[1],)))
    command = PlayCard(0, Card.BARONESS, target, None, 2 if two and target == 1 else None)
    chosen = (1, 2) if command.second_target is not None else (target,)
    events = baroness.baroness(state, command)
    assert events == tuple(HandSeen(0, seat, cards[seat - 1], Card.BARONESS) for seat in chosen)
    after = play(state, command, events)
    assert all_cards(after) == all_cards(state)
    assert untouched(state, after, bystanders(state, 0))
    assert {s.owner for s in after.sightings} == set(chosen)


def cardinal_look_shows_one_of_the_swapped_hands(owner: int, answer: int, held: int) -> None:
    """The Cardinal's player may look at one of the two hands it swapped,
    and at no other, or decline; either way the choice is settled and no
    card moves. Rules: cardinal.optional-look."""
    assert 0 <= owner < 4
    assert 0 <= answer < 3
    assert 0 <= held < kinds(PREMIUM_INDEX)
    fresh_caches()
    owner, answer, held = concrete(owner, answer, held)
    r = PREMIUM_INDEX
    state = make_state(
        r,
        ((Card.GUARD,), (kind(r, held),), (Card.PRIEST,), (Card.KING,)),
        discards=((Card.CARDINAL,), (), (), ()),
        decision=Decision.LOOK,
        pending=(1, 2),
    )
    command = (LookAtHand(0, owner), Decline(0), Redraw(0))[answer]
    try:
        events = cardinal.look(state, command)
    except IllegalCommand:
        assert answer == 2 or (answer == 0 and owner not in (1, 2))
        return
    assert answer == 1 or owner in (1, 2)
    if answer == 1:
        assert events == (OptionDeclined(0),)
    else:
        assert events == (HandSeen(0, owner, state.hands[owner][0], Card.CARDINAL),)
    after = apply_unchecked(state, events)
    assert after.decision is Decision.PLAY and after.pending == ()
    assert after.hands == state.hands and after.discards == state.discards
