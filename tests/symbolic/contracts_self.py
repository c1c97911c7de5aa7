"""Contracts on the cards that act on their own player or on nothing
right away: the Handmaid, the Countess, the Princess, the Sycophant, the
Jester's mark, the cards that only act from a pile (Spy, Count, Constable)
or from a hand (Assassin), and every card that finds no one to choose."""

from __future__ import annotations

from loveletter.cards import Card, handmaid, jester, princess, sycophant
from loveletter.cards.base import Choice
from loveletter.commands import PlayCard
from loveletter.events import (
    ChoiceRestricted,
    EliminationReason,
    PlayerEliminated,
    PlayerMarked,
    PlayerProtected,
)
from loveletter.rulesets import PREMIUM

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
    truth,
    untouched,
)

#: the kinds whose effect does nothing when played (they act from a pile,
#: from a hand, or by forbidding plays)
_INERT = (Card.SPY, Card.COUNT, Card.CONSTABLE, Card.ASSASSIN, Card.COUNTESS)


def handmaid_protects_only_its_player(r: int, spare: int, protected_mask: int) -> None:
    """The Handmaid protects its player and changes nothing else. Rules:
    handmaid.protection-until-next-turn."""
    assert 0 <= r < 3
    assert 0 <= spare < kinds(r)
    assert 0 <= protected_mask < 8
    fresh_caches()
    r, spare, protected_mask = concrete(r, spare, protected_mask)
    protected = frozenset(p for p in (1, 2) if protected_mask >> p & 1)
    state = make_state(
        r, ((Card.HANDMAID, kind(r, spare)), (Card.GUARD,), (Card.PRIEST,)), protected=protected
    )
    command = PlayCard(0, Card.HANDMAID)
    events = handmaid.handmaid(state, command)
    assert events == (PlayerProtected(0),)
    after = play(state, command, events)
    assert after.protected == protected | {0}
    assert all_cards(after) == all_cards(state)
    assert untouched(state, after, bystanders(state, 0))


def inert_cards_change_nothing_but_their_place(which: int, spare: int) -> None:
    """Spy, Count, Constable, Assassin and Countess played: no event beyond
    the play, so only the card's move to the pile changes the state; the
    Countess forbids exactly the King and the Prince. Rules: spy.no-effect,
    count.no-effect, constable.no-effect, assassin.no-effect,
    countess.no-effect, countess.hidden-reason,
    countess.forced-by-king-or-prince."""
    assert 0 <= which < len(_INERT)
    assert 0 <= spare < kinds(PREMIUM_INDEX)
    fresh_caches()
    which, spare = concrete(which, spare)
    card = _INERT[which]
    rules = PREMIUM.rules[card]
    state = make_state(PREMIUM_INDEX, ((card, kind(PREMIUM_INDEX, spare)), (Card.GUARD,)))
    command = PlayCard(0, card)
    events = rules.effect(state, command)
    assert events == ()
    after = play(state, command, events)
    assert after.hands[0] == (kind(PREMIUM_INDEX, spare),)
    assert after.discards[0] == (card,)
    assert untouched(state, after, bystanders(state, 0))
    assert rules.forbids == (
        frozenset({Card.KING, Card.PRINCE}) if card is Card.COUNTESS else frozenset()
    )


def princess_played_or_discarded_knocks_out_her_player(r: int, spare: int, seat: int) -> None:
    """Playing the Princess puts her player out with their other card;
    discarding her any other way puts her player out too. Rules:
    princess.eliminated-when-played-or-discarded."""
    assert 0 <= r < 3
    assert 0 <= spare < kinds(r)
    assert 0 <= seat < 3
    fresh_caches()
    r, spare, seat = concrete(r, spare, seat)
    other = kind(r, spare)
    state = make_state(r, ((Card.PRINCESS, other), (Card.GUARD,), (Card.PRIEST,)))
    command = PlayCard(0, Card.PRINCESS)
    events = princess.princess(state, command)
    reason = EliminationReason.PRINCESS_DISCARDED
    assert events == (PlayerEliminated(0, reason, (other,)),)
    after = play(state, command, events)
    assert after.out == {0} and after.hands[0] == ()
    assert after.discards[0] == (Card.PRINCESS, other)
    assert all_cards(after) == all_cards(state)
    assert untouched(state, after, bystanders(state, 0))
    assert princess.discarded(seat) == (PlayerEliminated(seat, reason, ()),)


def sycophant_and_jester_record_their_choice(target: int, jester_played: bool) -> None:
    """A Sycophant requires the next card to choose its chosen player; a
    Jester marks its chosen player; neither moves a card. Rules:
    sycophant.next-card-must-choose, jester.mark-expected-winner."""
    assert 0 <= target < 3
    fresh_caches()
    (target,) = concrete(target)
    jester_played = truth(jester_played)
    card = Card.JESTER if jester_played else Card.SYCOPHANT
    if jester_played and target == 0:  # the Jester chooses another player
        return
    state = make_state(PREMIUM_INDEX, ((card, Card.GUARD), (Card.PRIEST,), (Card.KING,)))
    command = PlayCard(0, card, target)
    if jester_played:
        events = jester.jester(state, command)
        assert events == (PlayerMarked(0, target),)
    else:
        events = sycophant.sycophant(state, command)
        assert events == (ChoiceRestricted(0, target),)
    after = play(state, command, events)
    assert after.marks == (((0, target),) if jester_played else ())
    assert after.required == (None if jester_played else target)
    assert all_cards(after) == all_cards(state)
    assert untouched(state, after, bystanders(state, 0))


def a_card_that_finds_no_one_to_choose_does_nothing(r: int, played: int, spare: int) -> None:
    """When every other player is protected or out, a card that chooses
    another player is played with no target and has no effect. (The Prince
    and the Sycophant can always choose their own player.) Rules:
    handmaid.all-protected-no-effect, targeting.choose-impossible-no-effect."""
    assert 0 <= r < 3
    assert 0 <= played < kinds(r) and 0 <= spare < kinds(r)
    fresh_caches()
    r, played, spare = concrete(r, played, spare)
    ruleset = RULESETS[r]
    card = kind(r, played)
    if ruleset.choices[card] in (Choice.NONE, Choice.ANY):
        return
    state = make_state(
        r, ((card, kind(r, spare)), (Card.GUARD,), ()), protected=frozenset({1}), out=frozenset({2})
    )
    assert ruleset.rules[card].effect(state, PlayCard(0, card)) == ()
