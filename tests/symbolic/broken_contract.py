"""Deliberately wrong contracts: CrossHair must report a counterexample for
each one within the CI budget (tests/symbolic/test_crosshair.py checks it).

Each is a plausible mistake in a contract, not in the engine: if CrossHair
only ever ran the harness on a few easy paths (or none), these would pass
too, and the real contracts would prove nothing. Each counterexample needs
a specific card, edition or deck size to show up, so finding it shows that
CrossHair explores those choices.
"""

from __future__ import annotations

from loveletter.cards import Card, baron, cardinal, chancellor, guard, prince
from loveletter.commands import PlayCard
from loveletter.events import CardDrawn, HandSeen, PlayerEliminated
from loveletter.evolution import evolve_unchecked as evolve  # the appliers, as the engine runs them
from loveletter.ranking import round_ranks

from .contracts_harness import (
    ONLINE_INDEX,
    PREMIUM_INDEX,
    RULESETS,
    concrete,
    fresh_caches,
    kind,
    kinds,
    make_state,
)


def wrong_baron_compares_codes(r: int, mine: int, theirs: int) -> None:
    """Wrong: a Baron comparison by card codes. Premium cards whose number
    differs from their code (King 6 with code 7, Bishop 9 with code 10,
    ...) falsify it."""
    assert 0 <= r < 3
    assert 0 <= mine < kinds(r) and 0 <= theirs < kinds(r)
    fresh_caches()
    r, mine, theirs = concrete(r, mine, theirs)
    my_card, their_card = kind(r, mine), kind(r, theirs)
    state = make_state(r, ((Card.BARON, my_card), (their_card,)))
    events = baron.baron(state, PlayCard(0, Card.BARON, 1))
    out = [e.player for e in events if type(e) is PlayerEliminated]
    if my_card < their_card:
        assert out == [0]
    elif my_card > their_card:
        assert out == [1]
    else:
        assert out == []


def wrong_guard_number_is_the_code(held: int, guess: int) -> None:
    """Wrong: in Premium a Guard's number hits the card whose code it is."""
    assert 0 <= held < kinds(PREMIUM_INDEX)
    assert 0 <= guess <= 9
    fresh_caches()
    held, guess = concrete(held, guess)
    card = kind(PREMIUM_INDEX, held)
    state = make_state(PREMIUM_INDEX, ((Card.GUARD, Card.PRIEST), (card,)))
    events = guard.guard(state, PlayCard(0, Card.GUARD, 1, guess))
    assert (events != ()) is (int(card) == guess)


def wrong_prince_never_takes_the_set_aside_card(r: int, held: int, deck_size: int) -> None:
    """Wrong: a Prince's victim always draws from the deck. An empty deck,
    whatever the edition or card (except the Princess), falsifies it."""
    assert 0 <= r < 3
    assert 0 <= held < kinds(r)
    assert 0 <= deck_size <= 2
    fresh_caches()
    r, held, deck_size = concrete(r, held, deck_size)
    deck = (Card.GUARD, Card.PRIEST)[:deck_size]
    state = make_state(
        r, ((Card.PRINCE, Card.BARON), (kind(r, held),)), deck=deck, set_aside=Card.KING
    )
    events = prince.prince(state, PlayCard(0, Card.PRINCE, 1))
    assert all(e.from_set_aside is False for e in events if type(e) is CardDrawn)


def wrong_chancellor_always_draws_two(deck_size: int) -> None:
    """Wrong: the Chancellor always draws two cards (not with one left)."""
    assert 0 <= deck_size <= 4
    fresh_caches()
    (deck_size,) = concrete(deck_size)
    deck = (Card.GUARD, Card.PRIEST, Card.BARON, Card.KING)[:deck_size]
    state = make_state(0, ((Card.CHANCELLOR, Card.SPY), (Card.PRIEST,)), deck=deck)
    events = chancellor.chancellor(state, PlayCard(0, Card.CHANCELLOR))
    assert events == () or len(state.deck) - 2 >= 0


def wrong_evolve_draw_keeps_the_deck(r: int, top: int, x: int) -> None:
    """Wrong: drawing leaves the deck as it was. Any fitting draw falsifies
    it, so CrossHair must find the one card that is on top."""
    assert 0 <= r < 3
    assert 0 <= top < kinds(r) and 0 <= x < kinds(r)
    fresh_caches()
    r, top, x = concrete(r, top, x)
    state = make_state(r, ((Card.GUARD,), (Card.PRIEST,)), deck=(kind(r, top), Card.GUARD))
    try:
        after = evolve(state, CardDrawn(1, kind(r, x), False))
    except Exception:
        return
    assert after.deck == state.deck or RULESETS[r] is None


def wrong_first_out_ranks_just_below_the_players_in(live: int, exits: int) -> None:
    """Wrong (online): the first player out ranks just below those still
    in. The last one out does; two exits falsify it."""
    assert 1 <= live <= 3 and 1 <= exits <= 2
    fresh_caches()
    live, exits = concrete(live, exits)
    seats = tuple(range(live))
    gone = tuple(range(live, live + exits))
    revealed = tuple((seat, Card.GUARD) for seat in seats) if live > 1 else ()
    piles = ((),) * 5
    ranks = round_ranks(RULESETS[ONLINE_INDEX], 5, revealed, seats, gone, piles)
    assert ranks[gone[0]] == live + 1


def wrong_online_cardinal_shows_the_second_its_new_card(first: int, a: int, b: int) -> None:
    """Wrong (online): the Cardinal's player sees the second chosen
    player's new card. Any two different cards falsify it."""
    assert 1 <= first <= 2
    assert 0 <= a < kinds(ONLINE_INDEX) and 0 <= b < kinds(ONLINE_INDEX)
    fresh_caches()
    first, a, b = concrete(first, a, b)
    second = 3 - first
    held = (Card.GUARD, kind(ONLINE_INDEX, a), kind(ONLINE_INDEX, b))
    state = make_state(ONLINE_INDEX, ((Card.CARDINAL, held[0]), (held[1],), (held[2],)))
    events = cardinal.cardinal_online(state, PlayCard(0, Card.CARDINAL, first, None, second))
    assert events[-1] == HandSeen(0, second, held[first], Card.CARDINAL)
