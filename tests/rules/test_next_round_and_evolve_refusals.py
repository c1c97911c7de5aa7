"""The next round's first player after a shared win, the refusals of a
``StartRound``, and the events ``evolve`` refuses because they cannot
follow the state."""

from __future__ import annotations

import pytest

from loveletter import (
    Card,
    Decision,
    EventMismatch,
    GameState,
    IllegalCommand,
    PlayCard,
    RejectionKind,
    StartRound,
    evolve,
    push,
    step,
)
from loveletter.events import (
    CardDealt,
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardSetAside,
    GameStarted,
    RoundEnded,
    RoundStarted,
    TokenAwarded,
    TokenReason,
)
from loveletter.evolution import apply_events, initial_state

from ._helpers import at


def shared_win(seed: int) -> GameState:
    """2019, seat 2 out, the deck empty: seat 0's Guard misses, and the
    showdown is Handmaid against Handmaid, a round won by seats 0 and 1."""
    state = at(hands=["Guard Handmaid", "Handmaid", ""], deck="", rest=2, out=[2], seed=seed)
    state = push(state, PlayCard(0, Card.GUARD, 1, Card.BARON))
    assert state.round_result is not None and state.round_result.winners == (0, 1)
    return state


@pytest.mark.rule("round.next-first-player-tie-random", "setup.shuffle")
def test_after_a_shared_win_the_seed_picks_the_next_first_player_among_the_winners() -> None:
    # the pick is part of the seeded record: the same seed, the same pick
    firsts = tuple(push(shared_win(seed), StartRound()).current for seed in range(8))
    assert firsts == (0, 1, 0, 0, 0, 1, 1, 0)


@pytest.mark.rule("round.next-first-player-tie-random")
def test_a_start_round_names_a_first_player_among_the_winners_only() -> None:
    state = shared_win(0)
    assert push(state, StartRound(first_player=1)).current == 1
    with pytest.raises(IllegalCommand) as refused:
        push(state, StartRound(first_player=2))
    assert (refused.value.kind, refused.value.detail) == (
        RejectionKind.INVALID_CHOICE,
        "the first player must be one of [0, 1]",
    )
    with pytest.raises(IllegalCommand) as refused:
        push(state, StartRound(first_player="0"))  # type: ignore[arg-type]
    assert (refused.value.kind, refused.value.detail) == (
        RejectionKind.MALFORMED_COMMAND,
        "first_player must be a seat, not '0'",
    )
    with pytest.raises(IllegalCommand) as refused:
        push(state, StartRound(deck=[Card.GUARD] * 21))  # type: ignore[arg-type]
    assert (refused.value.kind, refused.value.detail) == (
        RejectionKind.INVALID_DECK,
        "the deck must be a sequence of cards",
    )


@pytest.mark.rule("turn.order")
def test_a_start_round_during_a_round_is_refused() -> None:
    with pytest.raises(IllegalCommand) as refused:
        push(at(hands=["Guard Priest", "Baron"]), StartRound())
    assert (refused.value.kind, refused.value.detail) == (
        RejectionKind.WRONG_DECISION,
        "the round is still being played",
    )


@pytest.mark.rule("round.new-round-setup")
def test_a_round_start_alone_clears_the_table_for_the_deal() -> None:
    state = shared_win(0)
    deck = (Card.PRINCESS, *state.ruleset.deck_for(3)[:-1])
    started = evolve(state, RoundStarted(2, 1, tuple(sorted(deck))))
    assert (started.round_number, started.current, started.turn_number) == (2, 1, 0)
    assert started.set_aside is None
    assert started.decision.value == "draw"
    assert started.hands == ((), (), ())
    assert started.out == frozenset()
    with pytest.raises(EventMismatch, match=r"^RoundStarted\.deck: a redacted RoundStarted"):
        evolve(state, RoundStarted(2, 1, None))


@pytest.mark.rule("round.new-round-setup", "setup.set-aside-face-down", "setup.deal-one-each")
def test_a_deal_takes_the_top_card_or_cannot_follow() -> None:
    state = shared_win(0)
    deck = tuple(sorted(state.ruleset.deck_for(3)))
    started = evolve(state, RoundStarted(2, 1, deck))
    top = deck[0]
    other = next(card for card in deck if card != top)
    with pytest.raises(
        EventMismatch, match=f"^CardSetAside.card: the top of the deck is not {other}$"
    ):
        evolve(started, CardSetAside(other))
    aside = evolve(started, CardSetAside(top))
    with pytest.raises(
        EventMismatch, match=f"^CardDealt.card: the top of the deck is not {other}$"
    ):
        evolve(aside, CardDealt(1, other))
    dealt = evolve(aside, CardDealt(1, deck[1]))
    assert dealt.hands[1] == (deck[1],)
    emptied = evolve(
        at(hands=["Guard Priest", "Baron"], deck="", rest=0), CardPlayed(0, Card.GUARD)
    )
    with pytest.raises(
        EventMismatch, match=r"^CardDealt: cards are set aside, put face up and dealt"
    ):
        evolve(emptied, CardDealt(1, Card.KING))


@pytest.mark.rule("turn.played-cards-face-up")
def test_playing_a_card_not_held_names_the_player() -> None:
    with pytest.raises(EventMismatch, match=r"^CardPlayed\.card: player 0 does not hold King$"):
        evolve(at(hands=["Guard Priest", "Baron"]), CardPlayed(0, Card.KING))


@pytest.mark.rule("round.winner-token")
def test_a_token_total_that_does_not_add_one_cannot_follow() -> None:
    before = at(hands=["Guard Priest", "Baron", ""], deck="", rest=2, out=[2], tokens=[2, 0, 0])
    events = step(before, PlayCard(0, Card.GUARD, 1, Card.BARON))[1]
    ended = next(i for i, e in enumerate(events) if type(e) is RoundEnded)
    state = apply_events(before, events[: ended + 1])  # the round is won, its token not given
    with pytest.raises(
        EventMismatch, match=r"^TokenAwarded\.total: player 0 would have 3 tokens, not 5$"
    ):
        evolve(state, TokenAwarded(0, TokenReason.ROUND_WIN, 5))
    with pytest.raises(EventMismatch, match=r"^TokenAwarded\.total: must be an integer, not 3\.0$"):
        evolve(state, TokenAwarded(0, TokenReason.ROUND_WIN, 3.0))  # type: ignore[arg-type]
    assert evolve(state, TokenAwarded(0, TokenReason.ROUND_WIN, 3)).tokens == (3, 0, 0)


def test_a_game_start_without_its_seed_cannot_be_replayed() -> None:
    with pytest.raises(EventMismatch, match=r"^a redacted GameStarted cannot be replayed$"):
        initial_state(GameStarted("2019", 2, None, 0))
    assert initial_state(GameStarted("2019", 2, 7, 1)).current == 1


@pytest.mark.rule("turn.draw-then-play")
def test_a_draw_from_an_empty_deck_cannot_follow() -> None:
    state = evolve(at(hands=["Guard Priest", "Baron"], deck="", rest=0), CardPlayed(0, Card.GUARD))
    with pytest.raises(EventMismatch):
        evolve(state, CardDrawn(1, Card.KING))


@pytest.mark.rule("prince.empty-deck-draws-set-aside")
def test_a_draw_of_the_set_aside_card_must_draw_that_card() -> None:
    # seat 0's Prince makes seat 1 discard and draw again, the deck empty
    prince = (CardPlayed(0, Card.PRINCE, 1), CardDiscarded(1, Card.BARON))
    empty = at(hands=["Prince Guard", "Baron", ""], deck="", set_aside="King", rest=2, out=[2])
    state = apply_events(empty, prince)
    with pytest.raises(
        EventMismatch, match=r"^CardDrawn\.card: the set-aside card is not Princess$"
    ):
        evolve(state, CardDrawn(1, Card.PRINCESS, True))
    with pytest.raises(
        EventMismatch, match=r"^CardDrawn\.card: a redacted CardDrawn cannot be replayed$"
    ):
        evolve(state, CardDrawn(1, None, True))
    with pytest.raises(EventMismatch, match=r"^CardDrawn\.card: the top of the deck is not King$"):
        evolve(state, CardDrawn(1, Card.KING))
    assert evolve(state, CardDrawn(1, Card.KING, True)).set_aside is None
    state = apply_events(at(hands=["Prince Guard", "Baron"], set_aside="King"), prince)
    with pytest.raises(
        EventMismatch, match=r"^CardDrawn\.from_set_aside: .* only from an empty deck$"
    ):
        evolve(state, CardDrawn(1, Card.KING, True))
    top = state.deck[0]
    other = next(card for card in state.deck if card != top)
    with pytest.raises(
        EventMismatch, match=f"^CardDrawn\\.card: the top of the deck is not {other}$"
    ):
        evolve(state, CardDrawn(1, other))


@pytest.mark.rule("turn.draw-then-play", "chancellor.draw-two-keep-one")
def test_only_the_turns_own_draw_moves_the_decision_to_play() -> None:
    """A draw changes the decision only when it is the current player's
    draw at the start of their turn; a card drawn while the Chancellor's
    player chooses what to keep, or another player's draw while the turn
    waits for its own (both from a forged log), cannot follow."""
    state = at(hands=["Chancellor Guard", "Priest", "Baron"], deck="Guard Guard Prince Handmaid")
    state = push(state, PlayCard(0, Card.CHANCELLOR))
    assert state.decision is Decision.CHANCELLOR
    with pytest.raises(EventMismatch, match=r"^CardDrawn: no card is drawn while .* 'chancellor'$"):
        evolve(state, CardDrawn(0, state.deck[0], False))
    waiting = at(hands=["Guard", "Priest", "Baron"], deck="Guard Prince Handmaid", drawn=False)
    assert waiting.decision is Decision.DRAW
    with pytest.raises(EventMismatch, match=r"^CardDrawn\.player: player 0 takes the turn's draw"):
        evolve(waiting, CardDrawn(1, waiting.deck[0], False))
    assert evolve(waiting, CardDrawn(0, waiting.deck[0], False)).decision is Decision.PLAY
