"""The cards that differ online (004): the Baroness's two looks, the
Cardinal's ordered swap and look, destroyed cards, and the targeting rules
IMMUNE, REQUIRED and WATCHED (rulings 47 to 49)."""

from __future__ import annotations

import pytest

import loveletter as ll
from loveletter import PlayCard, RejectionKind
from loveletter.commands import Decline, LookAtHand
from loveletter.events import (
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    EliminationReason,
    HandSeen,
    HandsTraded,
    PlayerEliminated,
    RoundEnded,
)

from ._helpers import (
    ASSASSIN,
    BARON,
    BARONESS,
    CARDINAL,
    COUNTESS,
    GUARD,
    HANDMAID,
    JESTER,
    KING,
    PRIEST,
    PRINCE,
    PRINCESS,
    SYCOPHANT,
    check,
    online,
    reject,
    turn,
)

R = RejectionKind
PRINCESS_OUT = EliminationReason.PRINCESS_DISCARDED


def targets(state: ll.GameState, card: ll.Card) -> list[tuple[int | None, int | None]]:
    return [
        (c.target, c.second_target)
        for c in ll.legal_commands(state, card)
        if isinstance(c, PlayCard)
    ]


@pytest.mark.rule("baroness.two-looks-online", "targeting.valid-choice-online")
def test_the_baroness_looks_at_two_other_players_the_same_one_twice_allowed() -> None:
    state = online(
        hands=["Baroness Guard", "Priest", "Baron", "Handmaid", "King"],
        deck="Prince",
        protected=[3],
        discards=["", "", "", "Handmaid", ""],
    )
    assert targets(state, BARONESS) == [(1, 1), (1, 2), (1, 4), (2, 2), (2, 4), (4, 4)]
    after = check(
        state,
        PlayCard(0, BARONESS, 1, second_target=1),
        CardPlayed(0, BARONESS, 1, None, 1),
        HandSeen(0, 1, PRIEST, BARONESS),
        HandSeen(0, 1, PRIEST, BARONESS),
        *turn(1, PRINCE),
    )
    seen = ll.events_for(2, ll.decide(state, PlayCard(0, BARONESS, 2, second_target=4)))
    assert [e.card for e in seen if isinstance(e, HandSeen)] == [None, None]
    assert after.sightings[-1].card is PRIEST
    reject(state, PlayCard(0, BARONESS, 2, second_target=1), R.TARGET_NOT_ALLOWED)
    reject(state, PlayCard(0, BARONESS, 2), R.TARGET_REQUIRED)
    reject(state, PlayCard(0, BARONESS, 0, second_target=1), R.TARGET_NOT_ALLOWED)
    reject(state, PlayCard(0, BARONESS, 1, second_target=3), R.TARGET_PROTECTED)


@pytest.mark.rule("baroness.two-looks-online", "targeting.valid-choice-online")
def test_a_baroness_with_one_other_choosable_looks_at_them_twice_with_none_does_nothing() -> None:
    one = online(
        hands=["Baroness Guard", "Priest", "", "Handmaid", ""],
        deck="Prince",
        # two knock-outs: two turns resolved at least, by cards that do it
        discards=["Guard", "Guard", "Baron", "Handmaid", "Guard"],
        exits=[2, 4],
        protected=[3],
    )
    assert targets(one, BARONESS) == [(1, 1)]
    none = online(
        hands=["Baroness Guard", "", "", "Handmaid", ""],
        deck="Prince",
        # three knock-outs: three cards that knock a player out played
        # three knock-outs: a Guard of seat 0's, a Baron of seat 2's and a
        # Guard of seat 3's before their Handmaid
        discards=["Guard", "Priest", "Baron Guard", "Guard Handmaid", "Guard"],
        exits=[1, 2, 4],
        protected=[3],
    )
    assert targets(none, BARONESS) == [(None, None)]


@pytest.mark.rule("cardinal.swap-and-look-first-online", "targeting.valid-choice-online")
def test_the_cardinal_swaps_an_ordered_pair_and_its_player_sees_the_first_ones_new_card() -> None:
    state = online(
        hands=["Cardinal Guard", "Priest", "Baron", "King", "Handmaid"],
        deck="Prince",
    )
    listed = targets(state, CARDINAL)
    assert (1, 2) in listed and (2, 1) in listed and (0, 3) in listed and (3, 0) in listed
    assert len(listed) == 5 * 4
    check(
        state,
        PlayCard(0, CARDINAL, 2, second_target=1),
        CardPlayed(0, CARDINAL, 2, None, 1),
        HandsTraded(2, 1, CARDINAL),
        HandSeen(0, 2, PRIEST, CARDINAL),
        *turn(1, PRINCE),
    )
    # naming oneself first: one sees the card one just received
    events = ll.decide(state, PlayCard(0, CARDINAL, 0, second_target=3))
    assert events[1:3] == (HandsTraded(0, 3, CARDINAL), HandSeen(0, 0, KING, CARDINAL))
    reject(state, PlayCard(0, CARDINAL, 2, second_target=2), R.TARGET_NOT_ALLOWED)
    reject(state, PlayCard(0, CARDINAL, 2), R.TARGET_REQUIRED)


@pytest.mark.rule("cardinal.swap-and-look-first-online")
def test_the_cardinal_moves_a_princess_safely_and_asks_for_no_look() -> None:
    state = online(
        hands=["Cardinal Guard", "Princess", "Baron", "King", "Handmaid"],
        deck="Prince",
    )
    after = ll.push(state, PlayCard(0, CARDINAL, 1, second_target=2))
    assert after.hands[2] == (PRINCESS,) and after.out == frozenset()
    assert after.decision is ll.Decision.PLAY and after.current == 1
    reject(after, LookAtHand(0, 1), R.WRONG_DECISION)
    reject(after, Decline(0), R.WRONG_DECISION)


@pytest.mark.rule("targeting.valid-choice-online", "targeting.choose-impossible-no-effect")
def test_all_others_immune_cards_for_others_have_no_effect_prince_and_sycophant_choose_self() -> (
    None
):
    state = online(
        hands=["Guard Prince", "Priest", "Baron"],
        deck="King",
        discards=["", "Handmaid", "Handmaid"],
        protected=[1, 2],
    )
    assert targets(state, GUARD) == [(None, None)]
    assert targets(state, PRINCE) == [(0, None)]


@pytest.mark.rule("targeting.valid-choice-online", "sycophant.next-card-must-choose")
def test_the_required_player_choosing_cards_for_others_has_no_valid_choice() -> None:
    state = online(
        hands=["Baroness Guard", "Priest", "Baron", "Handmaid", "Guard"],
        deck="King",
        discards=["", "", "", "Sycophant", ""],
        order=[3, 0, 1, 2, 4],
        current=0,
        required=0,
    )
    assert targets(state, GUARD) == [(None, None)]
    assert targets(state, BARONESS) == [(None, None)]
    cardinal = online(
        hands=["Cardinal Prince", "Priest", "Baron", "Handmaid", "Guard"],
        deck="King",
        discards=["", "", "", "Sycophant", ""],
        order=[3, 0, 1, 2, 4],
        current=0,
        required=0,
    )
    assert targets(cardinal, PRINCE) == [(0, None)]
    assert sorted(targets(cardinal, CARDINAL)) == sorted(
        [(0, 1), (0, 2), (0, 3), (0, 4), (1, 0), (2, 0), (3, 0), (4, 0)]
    )


@pytest.mark.rule("targeting.valid-choice-online", "sycophant.next-card-must-choose")
def test_a_required_other_player_may_be_looked_at_twice_or_paired_with_the_player() -> None:
    state = online(
        hands=["Baroness Cardinal", "Priest", "Baron", "Handmaid", "Guard"],
        deck="King",
        discards=["", "", "", "Sycophant", ""],
        order=[3, 0, 1, 2, 4],
        current=0,
        required=2,
    )
    assert targets(state, BARONESS) == [(1, 2), (2, 2), (2, 3), (2, 4)]
    assert (0, 2) in targets(state, CARDINAL) and (2, 0) in targets(state, CARDINAL)
    assert all(2 in pair for pair in targets(state, CARDINAL))
    reject(state, PlayCard(0, BARONESS, 1, second_target=1), R.REQUIRED_PLAYER_NOT_CHOSEN)


@pytest.mark.rule("targeting.valid-choice-online", "sycophant.next-card-must-choose")
def test_required_and_immune_at_once_is_refused_as_a_position() -> None:
    with pytest.raises(ll.PositionError) as caught:
        online(
            hands=["Guard Prince", "Priest", "Baron", "Guard", "Guard"],
            deck="King",
            discards=["", "Handmaid", "Sycophant", "", ""],
            order=[2, 0, 1, 3, 4],
            current=0,
            required=1,
            protected=[1],
        )
    assert caught.value.field == "required"


@pytest.mark.rule("out.destroyed-cards-online", "prince.discard-and-draw")
def test_a_destroyed_card_goes_face_up_then_only_the_princess_acts() -> None:
    state = online(hands=["Prince Guard", "Princess", "Baron", "Jester", "Count"], deck="King")
    check(
        state,
        PlayCard(0, PRINCE, 1),
        CardPlayed(0, PRINCE, 1),
        CardDiscarded(1, PRINCESS),
        PlayerEliminated(1, PRINCESS_OUT, ()),
        *turn(2, KING),
    )
    jester = ll.decide(state, PlayCard(0, PRINCE, 3))
    assert jester[1:3] == (CardDiscarded(3, JESTER), CardDrawn(3, KING, False))
    assert not any(isinstance(e, ll.PlayerMarked) for e in jester)


@pytest.mark.rule("out.destroyed-cards-online", "out.discard-hand")
def test_a_player_going_out_destroys_the_hand_without_replacement() -> None:
    state = online(hands=["Guard Baron", "Countess", "Priest"], deck="King Prince")
    after = check(
        state,
        PlayCard(0, GUARD, 1, 7),
        CardPlayed(0, GUARD, 1, 7),
        PlayerEliminated(1, EliminationReason.GUARD_GUESS, (COUNTESS,)),
        *turn(2, KING),
    )
    assert after.hands[1] == () and after.exits == (1,)


@pytest.mark.rule("out.destroyed-cards-online", "princess.eliminated-when-played-or-discarded")
def test_two_princesses_in_hand_playing_one_puts_the_player_out_the_other_goes_face_up() -> None:
    state = online(hands=["Princess Princess", "Priest", "Baron"], deck="King Prince", decks=2)
    after = check(
        state,
        PlayCard(0, PRINCESS),
        CardPlayed(0, PRINCESS),
        PlayerEliminated(0, PRINCESS_OUT, (PRINCESS,)),
        *turn(1, KING),
    )
    assert after.discards[0] == (PRINCESS, PRINCESS)


@pytest.mark.rule("out.destroyed-cards-online", "assassin.discard-and-redraw")
def test_the_assassin_answering_a_guard_is_destroyed_and_replaced_by_the_piles_last_card() -> None:
    state = online(
        hands=["Guard Priest", "Assassin", "Baron", "Handmaid", "King", ""],
        deck="Prince",
        # seat 5 went out by the Princess, which lies on their pile
        discards=["", "", "", "", "Guard", ""],
        rest=4,
        exits=[5],
    )
    events = ll.decide(state, PlayCard(0, GUARD, 1, 2))
    assert events[1:5] == (
        ll.CardRevealed(1, ASSASSIN),
        PlayerEliminated(0, EliminationReason.ASSASSIN, (PRIEST,)),
        CardDiscarded(1, ASSASSIN),
        CardDrawn(1, PRINCE, False),
    )
    assert isinstance(events[5], RoundEnded)


@pytest.mark.rule("countess.forced-by-king-or-prince")
def test_the_countess_lock_is_by_label_five_and_six_not_5b_or_6b() -> None:
    king = online(hands=["Countess King", "Priest", "Baron", "Guard", "Handmaid"], deck="Prince")
    assert {c.card for c in ll.legal_commands(king) if isinstance(c, PlayCard)} == {COUNTESS}
    count = online(hands=["Countess Count", "Priest", "Baron", "Guard", "Handmaid"], deck="Prince")
    assert {c.card for c in ll.legal_commands(count) if isinstance(c, PlayCard)} == {
        COUNTESS,
        ll.Card.COUNT,
    }
    assert SYCOPHANT not in count.hands[0] and HANDMAID not in count.hands[0]
    assert BARON in count.hands[2] and KING not in count.hands[0]
