"""Leaving a match and running out of time online (rulings 50 to 52)."""

from __future__ import annotations

import pytest

import loveletter as ll
from loveletter import Decision, Leave, PlayCard, RejectionKind, StartRound, TimeOut
from loveletter.chance import chance_number
from loveletter.commands import Decline, Redraw
from loveletter.events import (
    CardPlayed,
    EliminationReason,
    GameEnded,
    PlayerEliminated,
    PlayerLeft,
    RoundEnded,
    RoundEndReason,
    TokenAwarded,
    TokenReason,
    TurnTimedOut,
)

from ._helpers import BISHOP, GUARD, HANDMAID, KING, PRIEST, PRINCESS, check, online, reject, turn

R = RejectionKind
LEFT = EliminationReason.LEFT


@pytest.mark.rule("online.leave-any-time")
def test_a_player_not_to_act_leaves_out_of_turn_and_the_turn_goes_on() -> None:
    state = online(hands=["Guard Priest", "Princess", "Baron", "Handmaid"], deck="King Prince")
    after = check(
        state,
        Leave(1),
        PlayerLeft(1),
        PlayerEliminated(1, LEFT, (PRINCESS,)),
    )
    assert after.current == 0 and after.decision is Decision.PLAY
    assert after.exits == (1,) and after.table.left == frozenset({1})
    # the Princess left the round without her effect: no second knock-out
    reject(after, Leave(1), R.PLAYER_LEFT)
    reject(after, PlayCard(0, GUARD, 1, 2), R.TARGET_OUT_OF_ROUND)


@pytest.mark.rule("online.leave-any-time", "turn.draw-then-play")
def test_the_player_to_act_leaving_ends_their_turn() -> None:
    state = online(hands=["Guard Priest", "Princess", "Baron", "Handmaid"], deck="King Prince")
    check(
        state,
        Leave(0),
        PlayerLeft(0),
        PlayerEliminated(0, LEFT, (GUARD, PRIEST)),
        *turn(1, KING),
    )


@pytest.mark.rule("online.leave-any-time", "bishop.target-may-redraw")
def test_a_bishops_target_leaving_lapses_the_offer_and_ends_the_turn() -> None:
    state = online(
        hands=["Bishop Guard", "Priest", "Baron", "Handmaid", "Count"], deck="King Prince"
    )
    offered = ll.push(state, PlayCard(0, BISHOP, 1, 2))
    assert offered.decision is Decision.REDRAW and offered.to_act == 1
    check(
        offered,
        Leave(1),
        PlayerLeft(1),
        PlayerEliminated(1, LEFT, (PRIEST,)),
        *turn(2, KING),
    )
    # the Bishop's player leaving ends the turn and the offer with it
    check(
        offered,
        Leave(0),
        PlayerLeft(0),
        PlayerEliminated(0, LEFT, (GUARD,)),
        *turn(1, KING),
    )


@pytest.mark.rule("online.leave-any-time", "constable.partial-win-online")
def test_leaving_pays_no_constable_and_a_leaver_gets_no_jester_partial_win() -> None:
    state = online(
        hands=["Guard Priest", "Baron", "Princess", "Handmaid", "King"],
        deck="Prince",
        discards=["", "Constable Jester", "", "", "Guard"],
        marks=[(1, 2)],
        rest=1,
    )
    after = check(state, Leave(1), PlayerLeft(1), PlayerEliminated(1, LEFT, (ll.Card.BARON,)))
    ended = ll.decide(after, PlayCard(0, GUARD, 3, 2))
    assert isinstance(ended[1], RoundEnded) and ended[1].winners == (2,)
    assert [e for e in ended if isinstance(e, TokenAwarded)] == [
        TokenAwarded(2, TokenReason.ROUND_WIN, 1)
    ]


@pytest.mark.rule("online.leave-any-time", "round.end-one-player-left", "game.no-end-online")
def test_the_last_two_leaving_end_the_round_and_close_the_match() -> None:
    state = online(hands=["Guard Priest", "Princess", "Baron"], deck="King Prince")
    after = ll.push(state, Leave(2))
    events = ll.decide(after, Leave(1))
    assert events == (
        PlayerLeft(1),
        PlayerEliminated(1, LEFT, (PRINCESS,)),
        RoundEnded(RoundEndReason.ONE_PLAYER_LEFT, (0,), (), (1, 2, 3)),
        TokenAwarded(0, TokenReason.ROUND_WIN, 1),
        GameEnded(()),
    )
    closed = ll.push(after, Leave(1))
    assert closed.is_over and closed.winners == ()
    reject(closed, Leave(0), R.GAME_OVER)


@pytest.mark.rule("online.leave-any-time", "out.turn-skipped")
def test_a_player_who_left_is_dealt_into_no_later_round() -> None:
    state = ll.new_game("online", 4, seed=8)
    state = ll.push(state, Leave(3))
    while not state.round_over:
        state = ll.push(state, ll.legal_commands(state)[0])
    dealt = ll.push(state, StartRound())
    assert 3 not in dealt.table.order and dealt.hands[3] == () and 3 in dealt.out
    assert dealt.round_result is None
    # between rounds too: a leave there closes nothing while two remain
    between = ll.push(state, Leave(2))
    assert between.decision is Decision.NEXT_ROUND and between.table.left == {2, 3}


@pytest.mark.rule("online.leave-any-time", "sycophant.next-card-must-choose")
def test_a_required_player_leaving_lifts_the_requirement() -> None:
    state = online(
        hands=["Guard Priest", "Baron", "Handmaid", "King", "Guard"],
        deck="Prince",
        discards=["", "", "", "", "Sycophant"],
        order=[4, 0, 1, 2, 3],
        current=0,
        required=2,
    )
    after = ll.push(state, Leave(2))
    assert after.required is None
    assert PlayCard(0, GUARD, 1, 3) in ll.legal_commands(after)


@pytest.mark.rule("online.timeout-random-move")
def test_a_time_out_makes_the_seeded_random_move_card_first() -> None:
    state = online(hands=["Guard Handmaid", "Priest", "Baron"], deck="King Prince", seed=123456789)
    number = chance_number(state.seed, 1, f"timeout/{state.turn_number}/play")
    card = (GUARD, HANDMAID)[number % 2]
    moves = ll.legal_commands(state, card)
    move = moves[(number // 2) % len(moves)]
    events = ll.decide(state, TimeOut(0))
    assert events[0] == TurnTimedOut(0)
    assert events[1:] == ll.decide(state, move)
    assert ll.replay((ll.PositionEstablished(ll.to_position(state)), *events)) == ll.push(
        state, TimeOut(0)
    )


@pytest.mark.rule("online.timeout-random-move")
def test_every_card_has_its_even_chance_whatever_its_number_of_moves() -> None:
    """Guard and Handmaid: a uniform draw over commands would pick the Guard
    14 times in 15; card first, each card about half the time."""
    handmaids = 0
    for seed in range(400):
        state = online(hands=["Guard Handmaid", "Priest", "Baron"], deck="King Prince", seed=seed)
        played = ll.decide(state, TimeOut(0))[1]
        assert isinstance(played, CardPlayed)
        handmaids += played.card is HANDMAID
    assert 160 < handmaids < 240


@pytest.mark.rule("online.timeout-random-move")
def test_the_bishops_target_is_timed_on_the_redraw_and_the_princess_can_be_played() -> None:
    offered = ll.push(
        online(hands=["Bishop Guard", "Priest", "Baron", "Handmaid", "Count"], deck="King"),
        PlayCard(0, BISHOP, 1, 2),
    )
    reject(offered, TimeOut(0), R.NOT_YOUR_TURN)
    events = ll.decide(offered, TimeOut(1))
    assert events[0] == TurnTimedOut(1)
    assert events[1:] in (ll.decide(offered, Redraw(1)), ll.decide(offered, Decline(1)))
    suicides = [
        seed
        for seed in range(40)
        if isinstance(
            ll.decide(
                online(hands=["Princess Guard", "Priest", "Baron"], deck="King", seed=seed),
                TimeOut(0),
            )[1],
            CardPlayed,
        )
        and ll.decide(
            online(hands=["Princess Guard", "Priest", "Baron"], deck="King", seed=seed),
            TimeOut(0),
        )[1]
        == CardPlayed(0, PRINCESS)
    ]
    assert suicides, "the card is drawn first, so a time-out may discard the Princess"


@pytest.mark.rule("online.timeout-random-move", "online.time-control-settings")
def test_a_time_out_is_refused_without_random_moves_between_rounds_and_elsewhere() -> None:
    state = online(hands=["Guard Priest", "Baron", "Handmaid"], deck="King", random_moves=False)
    reject(state, TimeOut(0), R.RANDOM_MOVES_OFF)
    on = online(hands=["Guard Priest", "Baron", "Handmaid"], deck="King")
    reject(on, TimeOut(1), R.NOT_YOUR_TURN)
    between = ll.new_game("online", 3, seed=2)
    while not between.round_over:
        between = ll.push(between, ll.legal_commands(between)[0])
    reject(between, TimeOut(0), R.WRONG_DECISION)
    premium = ll.new_game("premium", 3, seed=1)
    reject(premium, TimeOut(0), R.NOT_IN_EDITION)
    reject(premium, Leave(1), R.NOT_IN_EDITION)
    assert KING in state.deck and PRIEST in state.hands[0]
