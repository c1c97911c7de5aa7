"""Ending a round, its winners and tokens, and starting the next one."""

from __future__ import annotations

from collections import Counter

import pytest

from loveletter import (
    Decision,
    DrawCard,
    GameState,
    PlayCard,
    RejectionKind,
    StartRound,
    decide,
    legal_commands,
    push,
)
from loveletter.events import (
    CardDealt,
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardSetAside,
    EliminationReason,
    HandsCompared,
    HandSeen,
    PlayerEliminated,
    PlayerProtected,
    RoundEnded,
    RoundEndReason,
    RoundStarted,
    TokenAwarded,
    TokenReason,
    TurnStarted,
)

from ._helpers import (
    BARON,
    COUNTESS,
    GUARD,
    HANDMAID,
    KING,
    PRIEST,
    PRINCE,
    PRINCESS,
    at,
    check,
    reject,
    stacked,
    turn,
)

DECK_EMPTY = RoundEndReason.DECK_EMPTY
ONE_LEFT = RoundEndReason.ONE_PLAYER_LEFT
WIN = TokenReason.ROUND_WIN


@pytest.mark.rule("round.end-deck-empty")
def test_round_end_deck_empty_after_the_turn_that_draws_the_last_card() -> None:
    """The turn draw takes the last card: that turn is still played, and the
    round ends once it is over."""
    state = at(hands=["Handmaid Guard", "Priest", "Baron", ""], deck="King", out=[3], rest=3)
    state = check(
        state, PlayCard(0, HANDMAID), CardPlayed(0, HANDMAID), PlayerProtected(0), *turn(1, KING)
    )
    assert state.deck == ()
    assert state.decision is Decision.PLAY and state.current == 1
    assert not state.round_over
    state = check(
        state,
        PlayCard(1, PRIEST, 2),
        CardPlayed(1, PRIEST, 2),
        HandSeen(1, 2, BARON),
        RoundEnded(DECK_EMPTY, (1,), ((0, GUARD), (1, KING), (2, BARON))),
        TokenAwarded(1, WIN, 1),
    )
    assert state.decision is Decision.NEXT_ROUND
    assert state.to_act is None
    assert legal_commands(state) == (StartRound(),)
    assert state.round_result is not None
    assert state.round_result.winners == (1,)


@pytest.mark.rule("round.end-deck-empty", "turn.draw-then-play")
def test_round_end_deck_empty_after_drawing_the_last_card_from_a_position() -> None:
    """From a position before the turn draw: DrawCard takes the last card,
    the player still plays, and the round ends after that play."""
    state = at(
        hands=["Guard", "Priest", "Baron", ""], deck="Countess", out=[3], rest=3, drawn=False
    )
    state = check(state, DrawCard(0), CardDrawn(0, COUNTESS, False))
    assert state.deck == () and not state.round_over
    check(
        state,
        PlayCard(0, GUARD, 1, KING),
        CardPlayed(0, GUARD, 1, KING),
        RoundEnded(DECK_EMPTY, (0,), ((0, COUNTESS), (1, PRIEST), (2, BARON))),
        TokenAwarded(0, WIN, 1),
    )


@pytest.mark.rule("round.end-deck-empty")
def test_round_end_deck_empty_checked_only_once_the_turn_is_over() -> None:
    """Ruling 8: a Prince whose draw empties the deck does not cut the
    effect short; the new card is drawn and the round ends after the turn."""
    state = at(hands=["Prince Guard", "Priest", "Baron", ""], deck="King", out=[3], rest=3)
    check(
        state,
        PlayCard(0, PRINCE, 1),
        CardPlayed(0, PRINCE, 1),
        CardDiscarded(1, PRIEST),
        CardDrawn(1, KING, False),
        RoundEnded(DECK_EMPTY, (1,), ((0, GUARD), (1, KING), (2, BARON))),
        TokenAwarded(1, WIN, 1),
    )


@pytest.mark.rule("round.end-one-player-left")
def test_round_end_one_player_left_at_once() -> None:
    """A knock-out that leaves one player ends the round on the spot, with
    cards still in the deck; the survivor wins and shows nothing."""
    state = at(hands=["Guard Handmaid", "Priest", ""], out=[2], deck="King Prince Baron")
    after = check(
        state,
        PlayCard(0, GUARD, 1, PRIEST),
        CardPlayed(0, GUARD, 1, PRIEST),
        PlayerEliminated(1, EliminationReason.GUARD_GUESS, (PRIEST,)),
        RoundEnded(ONE_LEFT, (0,), ()),
        TokenAwarded(0, WIN, 1),
    )
    assert after.deck[:3] == (KING, PRINCE, BARON)
    assert after.round_over


@pytest.mark.rule("round.end-one-player-left")
def test_round_end_one_player_left_on_the_loser_s_own_turn() -> None:
    """Ruling 19: the player whose turn it is can be the one knocked out;
    the last player left wins, though it is not their turn."""
    state = at(hands=["Baron Guard", "", "Priest"], out=[1], deck="King Prince")
    check(
        state,
        PlayCard(0, BARON, 2),
        CardPlayed(0, BARON, 2),
        HandsCompared(0, 2, GUARD, PRIEST),
        PlayerEliminated(0, EliminationReason.BARON_COMPARISON, (GUARD,)),
        RoundEnded(ONE_LEFT, (2,), ()),
        TokenAwarded(2, WIN, 1),
    )


@pytest.mark.rule("round.highest-card-wins")
def test_round_highest_card_wins_discards_play_no_part() -> None:
    """Ruling 18: only the card in hand counts; seat 1's big discard pile
    does not help it."""
    state = at(
        "2019-classic",
        hands=["Handmaid Guard", "Baron", "Prince"],
        discards=["", "King Countess Handmaid", ""],
        rest=0,
    )
    check(
        state,
        PlayCard(0, HANDMAID),
        CardPlayed(0, HANDMAID),
        PlayerProtected(0),
        RoundEnded(DECK_EMPTY, (2,), ((0, GUARD), (1, BARON), (2, PRINCE))),
        TokenAwarded(2, WIN, 1),
    )


@pytest.mark.rule("round.tie-all-win")
@pytest.mark.parametrize("ruleset", ["2019", "2019-classic"])
def test_round_tie_all_win(ruleset: str) -> None:
    """Ruling 18: all the players tied for the highest card win the round
    and each gains a token; discard totals (here 9 against 0) break nothing."""
    state = at(
        ruleset,
        hands=["Handmaid Guard", "Prince", "Prince", ""],
        discards=["", "Baron Handmaid Guard", "", ""],
        tokens=[0, 2, 1, 0],
        out=[3],
        rest=3,
    )
    check(
        state,
        PlayCard(0, HANDMAID),
        CardPlayed(0, HANDMAID),
        PlayerProtected(0),
        RoundEnded(DECK_EMPTY, (1, 2), ((0, GUARD), (1, PRINCE), (2, PRINCE))),
        TokenAwarded(1, WIN, 3),
        TokenAwarded(2, WIN, 2),
    )


@pytest.mark.rule("round.tie-all-win")
def test_round_tie_all_win_including_the_current_player() -> None:
    """A tie between the player who just played and another: both win."""
    state = at(hands=["Handmaid Baron", "Baron", "Guard", ""], out=[3], rest=3)
    check(
        state,
        PlayCard(0, HANDMAID),
        CardPlayed(0, HANDMAID),
        PlayerProtected(0),
        RoundEnded(DECK_EMPTY, (0, 1), ((0, BARON), (1, BARON), (2, GUARD))),
        TokenAwarded(0, WIN, 1),
        TokenAwarded(1, WIN, 1),
    )


@pytest.mark.rule("round.winner-token")
def test_round_winner_token_kept_from_round_to_round() -> None:
    """A round win adds exactly one token to what the winner already has,
    and the tokens carry into the next round."""
    state = at(
        "2019-classic",
        hands=["Baron Guard", "", "Priest"],
        deck="King",
        tokens=[3, 4, 1],
        out=[1],
    )
    state = check(
        state,
        PlayCard(0, BARON, 2),
        CardPlayed(0, BARON, 2),
        HandsCompared(0, 2, GUARD, PRIEST),
        PlayerEliminated(0, EliminationReason.BARON_COMPARISON, (GUARD,)),
        RoundEnded(ONE_LEFT, (2,), ()),
        TokenAwarded(2, WIN, 2),
    )
    assert state.tokens == (3, 4, 2)
    following = push(state, StartRound())
    assert following.tokens == (3, 4, 2)
    assert following.round_number == state.round_number + 1


@pytest.mark.rule("round.winner-token")
def test_round_winner_token_one_each_whichever_way_the_round_ended() -> None:
    """An empty-deck win also gives exactly one token."""
    state = at(
        "2019-classic",
        hands=["Handmaid Guard", "King", "Priest"],
        tokens=[3, 2, 1],
        rest=0,
    )
    state = check(
        state,
        PlayCard(0, HANDMAID),
        CardPlayed(0, HANDMAID),
        PlayerProtected(0),
        RoundEnded(DECK_EMPTY, (1,), ((0, GUARD), (1, KING), (2, PRIEST))),
        TokenAwarded(1, WIN, 3),
    )
    assert state.tokens == (3, 3, 1)


def _round_won_by(winners: tuple[int, ...], seed: int = 0) -> GameState:
    """A 3-player 2019 round just ended (deck empty) with ``winners`` holding
    a Prince each and the others a Guard."""
    hands = ["Handmaid Guard", "Guard", "Guard", ""]
    for seat in winners:
        hands[seat] = "Handmaid Prince" if seat == 0 else "Prince"
    state = at(hands=hands, out=[3], rest=3, seed=seed)
    state = push(state, PlayCard(0, HANDMAID))
    assert state.round_result is not None
    assert state.round_result.winners == winners
    return state


@pytest.mark.rule("round.next-first-player")
def test_round_next_first_player_is_the_previous_winner() -> None:
    """The next round is dealt from the previous winner, who plays first."""
    state = _round_won_by((2,))
    deck = stacked("2019", "Guard Priest Baron Handmaid Countess Prince")
    check(
        state,
        StartRound(deck=deck),
        RoundStarted(2, 2, deck),
        CardSetAside(GUARD),
        CardDealt(2, PRIEST),
        CardDealt(3, BARON),
        CardDealt(0, HANDMAID),
        CardDealt(1, COUNTESS),
        TurnStarted(2),
        CardDrawn(2, PRINCE, False),
    )
    started = decide(state, StartRound())[0]
    assert isinstance(started, RoundStarted) and started.first_player == 2
    check(state, StartRound(first_player=2), *decide(state, StartRound()))
    reject(state, StartRound(first_player=0), RejectionKind.INVALID_CHOICE)
    reject(state, StartRound(first_player=1), RejectionKind.INVALID_CHOICE)


@pytest.mark.rule("round.next-first-player")
def test_round_next_first_player_after_one_player_left() -> None:
    """The survivor of a one-player-left round plays first next round."""
    state = at(hands=["Princess Guard", "Priest", "", ""], out=[2, 3], deck="King")
    state = push(state, PlayCard(0, PRINCESS))
    assert state.round_result is not None and state.round_result.winners == (1,)
    started = decide(state, StartRound())[0]
    assert isinstance(started, RoundStarted) and started.first_player == 1
    assert push(state, StartRound()).to_act == 1


@pytest.mark.rule("round.next-first-player-tie-random")
def test_round_next_first_player_tie_chosen_among_the_tied() -> None:
    """Ruling 13: after a tie, the seeded chance source picks one of the
    tied winners, the same one every time for the same seed, and records it
    in RoundStarted."""
    state = _round_won_by((1, 2), seed=7)
    events = decide(state, StartRound())
    assert decide(state, StartRound()) == events
    started = events[0]
    assert isinstance(started, RoundStarted)
    assert started.first_player in (1, 2)
    assert push(state, StartRound()).to_act == started.first_player


@pytest.mark.rule("round.next-first-player-tie-random")
def test_round_next_first_player_tie_each_tied_winner_equally_likely() -> None:
    """Across 400 fixed seeds each of the tied winners starts about half of
    the time, and a player who did not win never does."""
    counts: Counter[int] = Counter()
    for seed in range(400):
        started = decide(_round_won_by((0, 2), seed=seed), StartRound())[0]
        assert isinstance(started, RoundStarted)
        counts[started.first_player] += 1
    assert set(counts) == {0, 2}
    assert 150 <= counts[0] <= 250
    assert 150 <= counts[2] <= 250


@pytest.mark.rule("round.next-first-player-tie-random")
def test_round_next_first_player_tie_may_be_chosen_among_tied_only() -> None:
    """StartRound(first_player=x) is accepted for each tied winner and
    rejected (INVALID_CHOICE) for anyone else."""
    state = _round_won_by((1, 2), seed=7)
    deck = stacked("2019", "Guard Priest Baron Handmaid Countess Prince")
    for first in (1, 2):
        after = push(state, StartRound(deck=deck, first_player=first))
        assert after.to_act == first
        assert len(after.hand(first)) == 2
        started = decide(state, StartRound(deck=deck, first_player=first))[0]
        assert started == RoundStarted(2, first, deck)
    for loser in (0, 3):
        reject(state, StartRound(first_player=loser), RejectionKind.INVALID_CHOICE)
        reject(state, StartRound(deck=deck, first_player=loser), RejectionKind.INVALID_CHOICE)


@pytest.mark.rule("round.new-round-setup")
def test_round_new_round_setup_resets_everything_but_tokens() -> None:
    """Ruling 7: a new round puts everyone back in, empties the discard
    piles, ends every protection and forgets what was seen; tokens stay."""
    state = at(
        hands=["Priest Guard", "Baron", "Prince", ""],
        discards=["Handmaid", "Handmaid", "Guard", "Guard"],
        protected=[1],
        out=[3],
        tokens=[1, 0, 2, 3],
        rest=3,
    )
    state = check(
        state,
        PlayCard(0, PRIEST, 2),
        CardPlayed(0, PRIEST, 2),
        HandSeen(0, 2, PRINCE),
        RoundEnded(DECK_EMPTY, (2,), ((0, GUARD), (1, BARON), (2, PRINCE))),
        TokenAwarded(2, WIN, 3),
    )
    assert state.out == frozenset({3})
    assert state.protected == frozenset()  # protection ends with the round
    assert state.sightings != ()
    deck = stacked("2019", "Guard Priest Baron Handmaid Countess Prince")
    after = push(state, StartRound(deck=deck))
    assert after.round_number == state.round_number + 1
    assert after.out == frozenset()
    assert after.protected == frozenset()
    assert after.discards == ((), (), (), ())
    assert after.sightings == ()
    assert after.tokens == (1, 0, 3, 3)
    assert after.set_aside is GUARD
    assert after.face_up == ()
    assert after.hands == ((HANDMAID,), (COUNTESS,), (PRIEST, PRINCE), (BARON,))
    assert after.card_count() == 21
    assert after.round_result is None
    assert after.to_act == 2
    assert KING in after.deck
