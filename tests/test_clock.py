"""The host's clock (loveletter.clock), on a fake clock: deadlines for each
wait, time-outs that make the engine's seeded random moves (a match driven
by them alone replays exactly), the Bishop's target's own wait, readiness
cutting the intermission, and no time-out when random moves are off."""

from __future__ import annotations

import doctest

import pytest

import loveletter as ll
import loveletter.clock
from loveletter.clock import Deadline, deadline, starts_wait
from loveletter.simulation import random_bots

C = ll.Card
SETTINGS = ll.TableSettings(turn_time_ms=7_000, intermission_ms=12_000)


def test_the_module_doctests_pass() -> None:
    results = doctest.testmod(loveletter.clock)
    assert results.attempted >= 3 and results.failed == 0


@pytest.mark.parametrize(("players", "seed", "decks"), [(3, 1, 1), (5, 4, 2), (8, 2, 3)])
def test_a_match_driven_only_by_the_deadlines_replays_exactly(
    players: int, seed: int, decks: int
) -> None:
    """Nobody ever acts: the host sends what each deadline says when it is
    due, and the record of the match is an ordinary, checked game."""
    settings = ll.TableSettings(decks=decks, turn_time_ms=7_000, intermission_ms=12_000)
    record = ll.GameRecord.new("online", players, seed=seed, settings=settings)
    now = since = 0
    waits = {"turn": 0, "intermission": 0, "redraw": 0}
    while not (record.state.round_over and record.state.round_number == 4):
        due = deadline(record.state, since)
        if record.state.decision is ll.Decision.REDRAW:  # a Bishop's target's own wait
            assert due.player == record.state.pending[0] != record.state.current
            waits["redraw"] += 1
        assert due.due_ms is not None and due.command is not None
        if due.player is None:
            assert due.command == ll.StartRound() and due.due_ms == since + 12_000
            waits["intermission"] += 1
        else:
            assert due.player == record.state.to_act
            assert due.command == ll.TimeOut(due.player) and due.due_ms == since + 7_000
            waits["turn"] += 1
        now = due.due_ms
        before = record.state
        record = record.push(due.command)
        assert starts_wait(before, record.state)  # every command here begins a new wait
        since = now
    assert waits["intermission"] == 3  # rounds 2, 3 and 4 dealt after their pause
    assert waits["redraw"] == (players == 8)  # seed 2's Bishop names its target's card
    assert now == 7_000 * waits["turn"] + 12_000 * 3
    timed_out = [e.player for e in record.events if isinstance(e, ll.TurnTimedOut)]
    assert len(timed_out) == waits["turn"]
    assert ll.GameRecord(record.events) == record  # replays, checked, event for event
    assert ll.replay(record.events) == record.state
    assert ll.loads(ll.dumps(record)) == record
    assert record.scoreboard().rounds and len(record.scoreboard().rounds) == 4
    assert all(
        isinstance(c, ll.TimeOut | ll.StartRound) for c in record.commands()
    )  # no player ever chose anything


def _bishop_hits() -> ll.GameState:
    """Five players in seat order; Player 0 holds the Bishop, Player 1 the
    Priest, and the Bishop names 2: Player 1 must decide on a redraw."""
    deck = list(ll.get_ruleset("online").deck_for(5))
    top = [C.BISHOP, C.PRIEST, C.GUARD, C.GUARD, C.GUARD, C.HANDMAID]
    for card in top:
        deck.remove(card)
    state = ll.new_game("online", 5, seed=1, deck=top + deck, order=(0, 1, 2, 3, 4))
    return state


def test_a_bishops_target_gets_a_deadline_of_its_own() -> None:
    state = _bishop_hits()
    assert deadline(state, 0) == Deadline(0, 20_000, ll.TimeOut(0))
    # Player 0 plays at 15 s of their 20: the target's wait starts then, whole
    after = ll.push(state, ll.PlayCard(0, C.BISHOP, 1, 2))
    assert after.decision is ll.Decision.REDRAW and after.current == 0
    assert starts_wait(state, after)
    assert deadline(after, 15_000) == Deadline(1, 35_000, ll.TimeOut(1))
    # the target times out: a random answer, then the next turn's own wait
    answered, events = ll.step(after, ll.TimeOut(1))
    assert events[0] == ll.TurnTimedOut(1)
    assert isinstance(events[1], ll.CardDiscarded | ll.OptionDeclined)
    assert answered.decision is ll.Decision.PLAY and answered.to_act == 1
    assert starts_wait(after, answered)  # same player, but a new turn
    assert deadline(answered, 35_000) == Deadline(1, 55_000, ll.TimeOut(1))


def test_a_player_leaving_out_of_turn_keeps_the_deadline_of_the_one_to_act() -> None:
    state = _bishop_hits()
    gone = ll.push(state, ll.Leave(3))
    assert gone.to_act == 0 and not starts_wait(state, gone)
    # the acting player leaving ends their turn: the next one's wait begins
    next_turn = ll.push(gone, ll.Leave(0))
    assert next_turn.to_act == 1 and starts_wait(gone, next_turn)
    # the Bishop's target leaving ends the Bishop's turn, and its redraw
    after = ll.push(state, ll.PlayCard(0, C.BISHOP, 1, 2))
    lapsed = ll.push(after, ll.Leave(1))
    assert lapsed.decision is ll.Decision.PLAY and lapsed.to_act == 2
    assert starts_wait(after, lapsed)


def _between_rounds(settings: ll.TableSettings = SETTINGS) -> ll.GameState:
    state = ll.new_game("online", 4, seed=6, settings=settings)
    while not state.round_over:
        state = ll.push(state, ll.legal_commands(state)[0])
    assert state.decision is ll.Decision.NEXT_ROUND
    return state


def test_readiness_cuts_the_intermission_short() -> None:
    state = _between_rounds()
    deal = ll.StartRound()
    assert deadline(state, 50_000) == Deadline(None, 62_000, deal)
    assert deadline(state, 50_000, ready=[0, 1, 3]) == Deadline(None, 62_000, deal)
    assert deadline(state, 50_000, ready=[3, 1, 0, 2]) == Deadline(None, 50_000, deal)
    # a player who left need not be ready, and leaving keeps the pause's start
    gone = ll.push(state, ll.Leave(2))
    assert not starts_wait(state, gone)
    assert deadline(gone, 50_000, ready={0, 1, 3}) == Deadline(None, 50_000, deal)
    assert deadline(gone, 50_000, ready={0, 1}) == Deadline(None, 62_000, deal)
    # the round ending began the pause; the deal begins the first turn's wait
    dealt = ll.push(gone, deal)
    assert starts_wait(gone, dealt)
    assert dealt.to_act is not None and dealt.to_act != 2
    assert deadline(dealt, 62_000) == Deadline(dealt.to_act, 69_000, ll.TimeOut(dealt.to_act))


def test_no_intermission_deals_at_once() -> None:
    state = _between_rounds(ll.TableSettings(intermission_ms=0))
    assert deadline(state, 8_000) == Deadline(None, 8_000, ll.StartRound())


def test_with_random_moves_off_the_clock_never_sends_a_time_out() -> None:
    """Bots play a whole match on a table without random moves: at every
    wait the deadline names who must act and sends nothing, and the engine
    refuses a time-out."""
    settings = ll.TableSettings(random_moves=False, turn_time_ms=5_000, intermission_ms=0)
    bots = random_bots(6, 9)
    state = ll.new_game("online", 6, seed=9, settings=settings)
    since = 0
    waits = 0
    while state.round_number < 4 or not state.round_over:
        due = deadline(state, since)
        assert not isinstance(due.command, ll.TimeOut)
        if state.to_act is None:
            assert due == Deadline(None, since, ll.StartRound())
            command: ll.Command = ll.StartRound()
        else:
            assert due == Deadline(state.to_act, since + 5_000, None)
            with pytest.raises(ll.IllegalCommand) as caught:
                ll.decide(state, ll.TimeOut(state.to_act))
            assert caught.value.kind is ll.RejectionKind.RANDOM_MOVES_OFF
            command = bots[state.to_act].choose(ll.view(state, state.to_act))
            waits += 1
        before, state = state, ll.push(state, command)
        if starts_wait(before, state):
            since += 3_000  # the players answer in 3 s: well before the deadline
    assert waits > 20


def test_a_closed_match_waits_for_nothing() -> None:
    state = ll.new_game("online", 3, seed=1, settings=SETTINGS)
    actor = state.to_act
    for seat in range(3):
        if seat != actor:
            state = ll.push(state, ll.Leave(seat))
    assert state.is_over
    assert deadline(state, 1_000) == Deadline(None, None, None)


def test_the_table_settings_decide_and_other_editions_never_time_out() -> None:
    state = ll.new_game("online", 4, seed=1)  # the defaults: 20 s turns
    assert deadline(state, 0).due_ms == 20_000
    quick = ll.TableSettings(turn_time_ms=5_000)
    assert deadline(state, 0, settings=quick).due_ms == 5_000
    classic = ll.new_game("2019", 3, seed=1)
    with pytest.raises(ll.ArgumentError) as caught:
        deadline(classic, 0)
    assert caught.value.field == "settings"
    assert deadline(classic, 0, settings=quick) == Deadline(classic.to_act, 5_000, None)
