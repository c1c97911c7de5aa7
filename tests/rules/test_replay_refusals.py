"""``replay`` refuses a log no game produces, at the first wrong event, and
``evolve`` refuses an event that cannot follow: where, and why."""

from __future__ import annotations

import random

import attrs
import pytest

from loveletter import (
    Card,
    Command,
    Decision,
    DrawCard,
    EventMismatch,
    GameState,
    IllegalCommand,
    PlayCard,
    Redraw,
    RejectionKind,
    StartRound,
    evolve,
    legal_commands,
    replay,
    start_game,
    step,
    to_position,
)
from loveletter.engine import replay_commands
from loveletter.events import (
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardsReturned,
    EliminationReason,
    Event,
    GameStarted,
    PlayerEliminated,
    PlayerLeft,
    PositionEstablished,
    RoundStarted,
    TurnStarted,
)

from ._helpers import at, online, premium

#: 2019, two players, seed 1: ten opening events; seat 0 holds Spy and
#: Chancellor, seat 1 a Princess. Playing the Spy gives the next three.
OPENING = start_game("2019", 2, seed=1)
SPY_TURN = (
    CardPlayed(0, Card.SPY),
    TurnStarted(1),
    *step(replay(OPENING), PlayCard(0, Card.SPY))[1][2:],
)


def mismatch(log: object) -> EventMismatch:
    with pytest.raises(EventMismatch) as refused:
        replay(log)  # type: ignore[arg-type]  # wrong on purpose
    return refused.value


def test_the_fixture_log_replays() -> None:
    assert len(OPENING) == 10
    assert replay((*OPENING, *SPY_TURN)).turn_number == 2


@pytest.mark.parametrize("log", [5, "GameStarted", b"log", None])
def test_a_log_that_is_not_a_sequence_of_events_is_refused(log: object) -> None:
    refusal = mismatch(log)
    assert str(refusal) == "an event log is a sequence of events"
    assert refusal.index is None


def test_an_empty_log_is_refused_at_its_start() -> None:
    refusal = mismatch(())
    assert refusal.index == 0
    assert str(refusal) == "events[0]: an event log starts with GameStarted or PositionEstablished"


@pytest.mark.rule("game.rules-enforced")
def test_an_event_implying_a_refused_command_is_refused_with_the_reason() -> None:
    refusal = mismatch((*OPENING, CardPlayed(0, Card.PRINCESS)))
    assert refusal.index == 10
    assert str(refusal) == (
        "events[10]: CardPlayed implies a command the rules refuse"
        " (card-not-in-hand: player 0 does not hold Princess)"
    )


@pytest.mark.rule("turn.order")
def test_an_event_the_rules_did_not_make_is_refused_showing_what_they_made() -> None:
    refusal = mismatch((*OPENING, SPY_TURN[0], TurnStarted(0), *SPY_TURN[2:]))
    assert refusal.index == 11
    assert str(refusal) == (
        "events[11]: TurnStarted(player=0) is not what the rules make happen here:"
        " TurnStarted(player=1)"
    )


def test_a_log_cut_inside_a_command_names_the_first_missing_event() -> None:
    refusal = mismatch((*OPENING, *SPY_TURN[:2]))
    assert refusal.index == 12
    assert str(refusal) == (
        "events[12]: the log ends inside a command's events: CardDrawn and what follows are missing"
    )


def test_a_refusal_by_step_is_led_by_the_move() -> None:
    with pytest.raises(IllegalCommand) as refused:
        step(replay(OPENING), PlayCard(0, Card.KING))
    assert refused.value.kind is RejectionKind.CARD_NOT_IN_HAND
    assert str(refused.value) == "P0 King: card-not-in-hand: player 0 does not hold King"


# -- evolve: a knock-out and a discard -----------------------------------------


@pytest.mark.rule("out.discard-hand")
@pytest.mark.parametrize("discarded", [(Card.KING,), (Card.PRIEST, Card.KING), ()])
def test_a_knock_out_must_discard_exactly_the_hand(discarded: tuple[Card, ...]) -> None:
    state = evolve(at(hands=["Guard Priest", "Baron"]), CardPlayed(0, Card.GUARD, 1, Card.BARON))
    with pytest.raises(EventMismatch) as refused:
        evolve(state, PlayerEliminated(1, EliminationReason.GUARD_GUESS, discarded))
    assert refused.value.field == "PlayerEliminated.discarded"
    assert refused.value.detail == f"player 1 does not hold {[str(c) for c in discarded]}"


@pytest.mark.rule("out.discard-hand")
def test_a_knock_out_discards_the_hand_in_any_order() -> None:
    # a hand of two goes out whole only with a player who leaves (online)
    state = evolve(online(hands=["Guard Priest", "Baron", "King"]), PlayerLeft(0))
    reason = EliminationReason.LEFT
    for discarded in ((Card.GUARD, Card.PRIEST), (Card.PRIEST, Card.GUARD)):
        after = evolve(state, PlayerEliminated(0, reason, discarded))
        assert after.hands[0] == ()
        assert after.discards[0][-2:] == discarded
        assert 0 in after.out


@pytest.mark.rule("out.untargetable", "handmaid.protection-until-next-turn")
def test_a_player_knocked_out_is_no_longer_protected_and_others_stay_so() -> None:
    state = at(hands=["Guard Priest", "Baron", "King"], protected=[1, 2])
    state = evolve(state, CardPlayed(0, Card.GUARD))
    after = evolve(state, PlayerEliminated(1, EliminationReason.GUARD_GUESS, (Card.BARON,)))
    assert after.protected == frozenset({2})
    unprotected = at(hands=["Guard Priest", "Baron", "King"], protected=[2])
    unprotected = evolve(unprotected, CardPlayed(0, Card.GUARD))
    after = evolve(unprotected, PlayerEliminated(1, EliminationReason.GUARD_GUESS, (Card.BARON,)))
    assert after.protected == frozenset({2})


@pytest.mark.rule("bishop.target-may-redraw")
def test_only_the_bishop_target_s_discard_answers_the_redraw_offer() -> None:
    state = premium(hands=["Bishop Guard", "Baron", "Priest", "King", "Prince"])
    state = step(state, PlayCard(0, Card.BISHOP, 1, 3))[0]
    assert (state.decision.value, state.pending) == ("redraw", (1,))
    other: Event = CardDiscarded(2, Card.PRIEST)
    with pytest.raises(EventMismatch, match=r"^CardDiscarded\.player: player 1 may redraw, not"):
        evolve(state, other)
    with pytest.raises(EventMismatch, match=r"^CardDiscarded\.card: player 1 does not hold King$"):
        evolve(state, CardDiscarded(1, Card.KING))
    answered = evolve(state, CardDiscarded(1, Card.BARON))
    assert answered.pending == ()


# -- the opening and the commands a log implies ---------------------------------


def chancellor_log() -> tuple[Event, ...]:
    """The opening, and seat 0 playing its Chancellor (drawing Guard, Prince)."""
    return (*OPENING, *step(replay(OPENING), PlayCard(0, Card.CHANCELLOR))[1])


@pytest.mark.parametrize(
    ("log", "index", "reason"),
    [
        pytest.param(
            (GameStarted("2019", 2, None, 0),),
            0,
            "a redacted GameStarted (no seed) cannot be replayed",
            id="redacted-game-start",
        ),
        pytest.param(
            (GameStarted("2019", 9, 1, 0),),
            0,
            "GameStarted.players: 2019 is for 2-6 players, not 9",
            id="impossible-game-start",
        ),
        pytest.param(
            (PositionEstablished(None),),
            0,
            "a redacted PositionEstablished cannot be replayed",
            id="redacted-position",
        ),
        pytest.param(
            (TurnStarted(0),),
            0,
            "an event log starts with GameStarted or PositionEstablished,"
            " not TurnStarted(player=0)",
            id="no-opening",
        ),
        pytest.param(
            (OPENING[0], RoundStarted(1, 0, None), *OPENING[2:]),
            1,
            "a redacted RoundStarted (no deck) cannot be replayed",
            id="redacted-deal",
        ),
        pytest.param(
            (*chancellor_log(), CardsReturned(0, 2, None)),
            12,
            "a redacted CardsReturned cannot be replayed",
            id="redacted-return",
        ),
        pytest.param(
            (*chancellor_log(), CardsReturned(0, 2, (Card.PRINCESS, Card.SPY))),
            12,
            "player 0 does not hold Princess",
            id="return-of-a-card-not-held",
        ),
        pytest.param(
            (*chancellor_log(), CardsReturned(0, 1, (Card.SPY,))),
            12,
            "a Chancellor keeps exactly one card",
            id="return-keeping-two",
        ),
    ],
)
def test_a_log_that_cannot_be_replayed_is_refused_where_and_why(
    log: tuple[Event, ...], index: int, reason: str
) -> None:
    refusal = mismatch(log)
    assert refusal.index == index
    assert str(refusal) == f"events[{index}]: {reason}"


def test_a_position_that_cannot_occur_is_refused_at_the_opening() -> None:
    position = attrs.evolve(to_position(at(hands=["Guard Priest", "Baron"])), current=5)
    refusal = mismatch((PositionEstablished(position),))
    assert refusal.index == 0
    assert str(refusal).startswith("events[0]: PositionEstablished.position: ")


@pytest.mark.rule("game.rules-enforced", "round.new-round-setup", "cardinal.swap-two-players")
@pytest.mark.parametrize(("ruleset", "players"), [("2019", 3), ("2019-classic", 2), ("premium", 6)])
def test_a_whole_game_replays_to_its_state_and_gives_back_its_commands(
    ruleset: str, players: int
) -> None:
    """Random legal play to the end of the game: every kind of command, every
    round's deal. The commands replay reads back are the ones played (a deal
    read back names its deck and first player)."""
    chooser = random.Random(f"{ruleset}-{players}")
    log = list(start_game(ruleset, players, seed=players))
    state = replay(log)
    played: list[Command] = []
    while state.decision is not Decision.GAME_OVER:
        command = chooser.choice(legal_commands(state))
        state, events = step(state, command)
        log.extend(events)
        played.append(command)
    replayed, commands = replay_commands(log)
    assert replayed == state
    # the first deal is read back as a StartRound too
    assert isinstance(commands[0], StartRound)
    assert commands[0].deck == log[1].deck  # type: ignore[attr-defined]
    assert len(commands) == 1 + len(played)
    for read, issued in zip(commands[1:], played, strict=True):
        if isinstance(issued, StartRound):
            assert isinstance(read, StartRound) and read.deck is not None
        else:
            assert read == issued
    assert sum(isinstance(c, StartRound) for c in commands) > 1


# -- commands read back from a log that starts from a position ------------------


def log_from(state: GameState, *commands: Command) -> tuple[list[Event], GameState]:
    log: list[Event] = [PositionEstablished(to_position(state))]
    for command in commands:
        state, events = step(state, command)
        log.extend(events)
    return log, state


@pytest.mark.rule("turn.draw-then-play")
def test_a_draw_is_read_back_as_the_draw_command() -> None:
    log, state = log_from(at(hands=["Guard", "Baron"], drawn=False), DrawCard(0))
    assert replay_commands(log) == (state, (DrawCard(0),))


@pytest.mark.rule("bishop.target-may-redraw")
def test_a_bishop_s_redraw_is_read_back_as_the_target_s_redraw() -> None:
    start = premium(hands=["Bishop Guard", "Baron", "Priest", "King", "Prince"])
    log, state = log_from(start, PlayCard(0, Card.BISHOP, 1, 3), Redraw(1))
    replayed, commands = replay_commands(log)
    assert replayed == state
    assert commands[-1] == Redraw(1)


@pytest.mark.rule("round.next-first-player-tie-random")
def test_a_first_player_chosen_among_tied_winners_is_read_back() -> None:
    """Seats 0 and 1 share the round; the seed would pick seat 0, the
    command picks seat 1, and the replay follows the command."""
    start = at(hands=["Guard Handmaid", "Handmaid", ""], deck="", rest=2, out=[2], seed=0)
    log, state = log_from(start, PlayCard(0, Card.GUARD, 1, Card.BARON), StartRound(first_player=1))
    replayed, commands = replay_commands(log)
    assert replayed == state
    assert state.current == 1
    assert isinstance(commands[-1], StartRound) and commands[-1].first_player == 1


@pytest.mark.parametrize(
    ("misplaced", "waits_for"),
    [
        (TurnStarted(1), "play"),
        (CardDiscarded(0, Card.SPY), "play"),
        (CardDrawn(0, Card.GUARD), "play"),
    ],
)
def test_an_event_no_command_begins_with_is_refused_naming_the_decision(
    misplaced: Event, waits_for: str
) -> None:
    refusal = mismatch((*OPENING, misplaced))
    assert refusal.index == 10
    shown = repr(misplaced) if len(repr(misplaced)) <= 60 else repr(misplaced)[:57] + "..."
    assert str(refusal) == (
        f"events[10]: no command begins with {shown} while the game waits for {waits_for!r}"
    )


@pytest.mark.parametrize(
    "misplaced",
    [CardPlayed(1, Card.GUARD, 0, Card.PRIEST), TurnStarted(0), CardDrawn(0, Card.KING)],
)
def test_between_rounds_only_a_deal_can_follow(misplaced: Event) -> None:
    start = at(hands=["Guard Handmaid", "Handmaid", ""], deck="", rest=2, out=[2], seed=0)
    log, _ = log_from(start, PlayCard(0, Card.GUARD, 1, Card.BARON))
    with pytest.raises(EventMismatch) as refused:
        replay((*log, misplaced))
    assert refused.value.index == len(log)


def test_while_the_chancellor_s_player_chooses_only_a_return_can_follow() -> None:
    with pytest.raises(EventMismatch) as refused:
        replay((*chancellor_log(), TurnStarted(1)))
    assert refused.value.index == 12
    assert str(refused.value) == (
        "events[12]: no command begins with TurnStarted(player=1)"
        " while the game waits for 'chancellor'"
    )
