"""Contracts on the cards that guess: the Guard, the Bishop (and its
redraw), and the Assassin that answers a Guard.

A guess is drawn from what the rules let the card name in the edition's
largest deck (``Setup.names``): cards in 2019, numbers in Premium, so a
contract that compared codes instead of values would be falsified by the
Premium cards whose number differs from their code.
"""

from __future__ import annotations

from loveletter.cards import Card, assassin, bishop, guard
from loveletter.commands import Decline, KeepCard, PlayCard, Redraw
from loveletter.errors import IllegalCommand
from loveletter.events import (
    CardDiscarded,
    CardDrawn,
    CardRevealed,
    EliminationReason,
    OptionDeclined,
    PlayerEliminated,
    RedrawOffered,
    TokenAwarded,
    TokenReason,
)
from loveletter.evolution import apply_unchecked
from loveletter.state import Decision

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


def _names(r: int, card: Card) -> tuple[Card | int, ...]:
    ruleset = RULESETS[r]
    return ruleset.setup(ruleset.max_players).names[card]


def guard_hits_exactly_on_match(r: int, held: int, guess: int, spare: int) -> None:
    """The target is knocked out, discarding their hand, exactly when the
    named card (2019) or number (Premium, by the ruleset's values) matches
    their card; the Guard's player keeps their other card and no one else
    is touched. Rules: guard.correct-guess-eliminates, guard.name-number,
    guard.name-non-guard."""
    assert 0 <= r < 3
    assert 0 <= held < kinds(r) and 0 <= spare < kinds(r)
    assert 0 <= guess < len(_names(r, Card.GUARD))
    fresh_caches()
    r, held, guess, spare = concrete(r, held, guess, spare)
    ruleset = RULESETS[r]
    target_card, named = kind(r, held), _names(r, Card.GUARD)[guess]
    state = make_state(r, ((Card.GUARD, kind(r, spare)), (target_card,), (Card.PRIEST,)))
    command = PlayCard(0, Card.GUARD, 1, named)
    events = guard.guard(state, command)
    # 2019 names a kind, Premium a number (compared with the card's value)
    hit = ruleset.values[target_card] == named if ruleset.names_numbers else target_card is named
    if hit:
        assert events == (PlayerEliminated(1, EliminationReason.GUARD_GUESS, (target_card,)),)
    else:
        assert events == ()
    after = play(state, command, events)
    assert all_cards(after) == all_cards(state)
    assert after.hands[0] == (kind(r, spare),)
    assert (1 in after.out) is hit
    assert untouched(state, after, bystanders(state, 0, 1))


def bishop_scores_exactly_on_number(held: int, guess: int, tokens: int) -> None:
    """A Bishop naming the number of the target's card gives its player one
    token (the ``total`` counts it) and offers the target a redraw; a wrong
    number does nothing. The target's card is not touched by the Bishop
    itself. Rules: bishop.name-number-and-player, bishop.correct-number-token,
    bishop.target-may-redraw."""
    assert 0 <= held < kinds(PREMIUM_INDEX)
    assert 0 <= guess < len(_names(PREMIUM_INDEX, Card.BISHOP))
    assert 0 <= tokens < 3
    fresh_caches()
    held, guess, tokens = concrete(held, guess, tokens)
    r = PREMIUM_INDEX
    target_card, named = kind(r, held), _names(r, Card.BISHOP)[guess]
    state = make_state(
        r, ((Card.BISHOP, Card.GUARD), (target_card,), (Card.PRIEST,)), tokens=(tokens, 1, 0)
    )
    command = PlayCard(0, Card.BISHOP, 1, named)
    events = bishop.bishop(state, command)
    hit = RULESETS[r].values[target_card] == named
    if hit:
        assert events == (TokenAwarded(0, TokenReason.BISHOP, tokens + 1), RedrawOffered(1))
    else:
        assert events == ()
    after = play(state, command, events)
    assert after.tokens == (tokens + hit, 1, 0)
    assert all_cards(after) == all_cards(state)
    assert untouched(state, after, bystanders(state, 0))
    if hit:
        assert after.decision is Decision.REDRAW and after.to_act == 1


def bishop_redraw_replaces_only_the_targets_card(
    held: int, top: int, deck_size: int, answer: int
) -> None:
    """The Bishop's target answers: ``Redraw`` discards their card unresolved
    (a Princess knocks them out) and draws the top card, or the set-aside
    one when the deck is empty; ``Decline`` keeps it; anything else is
    refused. Either answer ends the pending choice, and no one else's cards
    move. Rules: bishop.target-may-redraw, prince.empty-deck-draws-set-aside,
    princess.eliminated-when-played-or-discarded."""
    assert 0 <= held < kinds(PREMIUM_INDEX) and 0 <= top < kinds(PREMIUM_INDEX)
    assert 0 <= deck_size <= 1
    assert 0 <= answer < 3
    fresh_caches()
    held, top, deck_size, answer = concrete(held, top, deck_size, answer)
    r = PREMIUM_INDEX
    card = kind(r, held)
    deck = (kind(r, top),)[:deck_size]
    state = make_state(
        r,
        ((Card.GUARD,), (card,), (Card.PRIEST,)),
        deck=deck,
        set_aside=Card.KING,
        discards=((Card.BISHOP,), (), ()),
        decision=Decision.REDRAW,
        pending=(1,),
    )
    command = (Redraw(1), Decline(1), KeepCard(1, card, ()))[answer]
    try:
        events = bishop.redraw(state, command)
    except IllegalCommand:
        assert answer == 2
        return
    assert answer != 2
    after = apply_unchecked(state, events)
    assert after.decision is Decision.PLAY and after.pending == ()
    assert all_cards(after) == all_cards(state)
    assert untouched(state, after, bystanders(state, 1))
    if answer == 1:
        assert events == (OptionDeclined(1),)
        assert after.hands == state.hands
    elif card is Card.PRINCESS:
        assert 1 in after.out and after.discards[1] == (Card.PRINCESS,)
    else:
        drawn = CardDrawn(1, deck[0], False) if deck else CardDrawn(1, Card.KING, True)
        assert events == (CardDiscarded(1, card), drawn)
        assert after.hands[1] == (drawn.card,) and after.discards[1] == (card,)


def assassin_answers_only_a_guard(played: int, spare: int, top: int, deck_size: int) -> None:
    """Chosen by a Guard, the Assassin's holder reveals it: the Guard's
    player is out with their other card, and the holder discards the
    Assassin and draws a replacement; any other card gets no answer.
    Rules: assassin.guard-player-knocked-out, assassin.discard-and-redraw."""
    assert 0 <= played < kinds(PREMIUM_INDEX) and 0 <= spare < kinds(PREMIUM_INDEX)
    assert 0 <= top < kinds(PREMIUM_INDEX)
    assert 0 <= deck_size <= 1
    fresh_caches()
    played, spare, top, deck_size = concrete(played, spare, top, deck_size)
    r = PREMIUM_INDEX
    card, other = kind(r, played), kind(r, spare)
    deck = (kind(r, top),)[:deck_size]
    state = make_state(
        r, ((card, other), (Card.ASSASSIN,), (Card.PRIEST,)), deck=deck, set_aside=Card.KING
    )
    command = PlayCard(0, card, 1, 2)
    answer = assassin.answer_guard(state, command, 1)
    if card is not Card.GUARD:
        assert answer is None
        return
    assert answer is not None
    drawn = CardDrawn(1, deck[0], False) if deck else CardDrawn(1, Card.KING, True)
    assert answer == (
        CardRevealed(1, Card.ASSASSIN),
        PlayerEliminated(0, EliminationReason.ASSASSIN, (other,)),
        CardDiscarded(1, Card.ASSASSIN),
        drawn,
    )
    after = play(state, command, answer)
    assert all_cards(after) == all_cards(state)
    assert 0 in after.out and after.discards[0] == (Card.GUARD, other)
    assert 1 not in after.out and after.hands[1] == (drawn.card,)
    assert untouched(state, after, bystanders(state, 0, 1))
