"""Winning a Premium game: the tokens needed, award steps and immediate
wins (ruling 30), and tie-break rounds between players who reach the
threshold together (ruling 31)."""

from __future__ import annotations

import pytest

from loveletter import (
    Card,
    Command,
    GameState,
    PlayCard,
    RejectionKind,
    StartRound,
    decide,
    get_ruleset,
    legal_commands,
    push,
)
from loveletter.events import (
    CardDealt,
    CardDrawn,
    CardPlayed,
    CardRemovedFaceUp,
    CardSetAside,
    EliminationReason,
    GameEnded,
    GameTied,
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
    CONSTABLE,
    COUNT,
    COUNTESS,
    GUARD,
    HANDMAID,
    KING,
    PRIEST,
    PRINCE,
    PRINCESS,
    SYCOPHANT,
    check,
    premium,
    reject,
    stacked,
)

R = RejectionKind
WIN = TokenReason.ROUND_WIN
GUESS = EliminationReason.GUARD_GUESS
ONE_LEFT = RoundEndReason.ONE_PLAYER_LEFT
VALUES = get_ruleset("premium").values

# --------------------------------------------------------------------------
# the tokens needed

#: the cards dealt to seats 0, 1, ...: none is a Guard, so every turn's
#: draw (a Guard) is the card played
DEALT = (PRIEST, BARON, HANDMAID, KING, COUNTESS, COUNT, SYCOPHANT, CONSTABLE)


def guard_chain(players: int, tokens: list[int] | None = None) -> tuple[GameState, list[Command]]:
    """A fresh deal in which every turn's player draws a Guard and knocks
    out the next player in the round, until one is left; the state and the
    commands of the whole round."""
    hands: list[list[Card]] = [[card] for card in DEALT[:players]]
    hands[0].append(GUARD)
    total = sum(tokens or ())
    state = premium(
        hands=hands,
        deck=[GUARD] * (players - 2),
        tokens=tokens,
        round_number=total + 1,
    )
    commands: list[Command] = []
    play = state
    while not play.round_over:
        current = play.current
        target = next(
            seat % players
            for seat in range(current + 1, current + players)
            if seat % players not in play.out
        )
        command = PlayCard(current, GUARD, target, VALUES[play.hands[target][0]])
        commands.append(command)
        play = push(play, command)
    return state, commands


@pytest.mark.rule("game.tokens-to-win-premium", "round.end-one-player-left", "round.winner-token")
@pytest.mark.parametrize(
    ("players", "needed"), [(2, 7), (3, 5), (4, 4), (5, 4), (6, 4), (7, 4), (8, 4)]
)
def test_game_tokens_to_win_premium_threshold(players: int, needed: int) -> None:
    """001 "Game End and How to Win": 7, 5 and 4 tokens for 2, 3 and 4
    players, 4 for 5 to 8. The round's winner reaching it wins the game;
    one token short, a new round is dealt."""
    assert get_ruleset("premium").tokens_to_win(players) == needed
    _, commands = guard_chain(players)
    last = commands[-1]
    assert isinstance(last, PlayCard) and last.target is not None
    winner = last.player
    for short in (False, True):
        tokens = [0] * players
        tokens[winner] = needed - (2 if short else 1)
        if winner != 0:
            tokens[0] = 1  # seat 0 won the previous round: it starts this one
        state, commands = guard_chain(players, tokens)
        for command in commands[:-1]:
            state = push(state, command)
        loser = last.target
        expected = [
            CardPlayed(winner, GUARD, loser, last.guess),
            PlayerEliminated(loser, GUESS, state.hands[loser]),
            RoundEnded(ONE_LEFT, (winner,), ()),
            TokenAwarded(winner, WIN, tokens[winner] + 1),
        ]
        if not short:
            expected.append(GameEnded((winner,)))
        after = check(state, last, *expected)
        if short:
            assert legal_commands(after) == (StartRound(),) and after.winners == ()
        else:
            assert after.is_over and after.winners == (winner,)
            reject(after, StartRound(), R.GAME_OVER)


# --------------------------------------------------------------------------
# tie-break rounds


def tied_without_the_round_winner() -> GameState:
    """Round 8: seat 0 knocks seat 1 out and wins the round; seat 1 (its
    Constable) and seat 4 (its Jester, marking seat 0) reach 4 tokens in
    that round's award step. Neither tied player won the round."""
    state = premium(
        hands=["Guard King", "Prince", "", "", ""],
        discards=[
            "Guard Guard",
            "Constable Guard",
            "Priest Baron",
            "Guard Count",
            "Jester Baron Handmaid",
        ],
        out=[2, 3, 4],
        marks=[(4, 0)],
        tokens=[1, 3, 0, 0, 3],
        round_number=8,
        deck="Priest",
    )
    return check(
        state,
        PlayCard(0, GUARD, 1, 5),
        CardPlayed(0, GUARD, 1, 5),
        PlayerEliminated(1, GUESS, (PRINCE,)),
        TokenAwarded(1, TokenReason.CONSTABLE, 4),
        RoundEnded(ONE_LEFT, (0,), ()),
        TokenAwarded(0, WIN, 2),
        TokenAwarded(4, TokenReason.JESTER, 4),
        GameTied((1, 4)),
    )


@pytest.mark.rule("game.tie-break-round", "game.immediate-win", "setup.deal-one-each")
def test_game_tie_break_round_deals_only_the_tied_players() -> None:
    """Ruling 31: the players who did not tie sit the round out (out of it
    from the start, empty piles); the deck is the game's 32 cards and the
    tokens stay as they are."""
    state = tied_without_the_round_winner()
    assert state.contenders == (1, 4) and state.winners == ()
    assert legal_commands(state) == (StartRound(),)
    deck = stacked("premium", "Princess Guard Priest Baron", 5)
    after = check(
        state,
        StartRound(deck, 4),
        RoundStarted(9, 4, deck, (1, 4)),
        CardSetAside(PRINCESS),
        CardDealt(4, GUARD),
        CardDealt(1, PRIEST),
        TurnStarted(4),
        CardDrawn(4, BARON, False),
    )
    assert after.out == frozenset({0, 2, 3})
    assert after.discards == ((), (), (), (), ())
    assert after.hands == ((), (PRIEST,), (), (), (GUARD, BARON))
    assert after.tokens == (2, 4, 0, 0, 4)
    assert after.contenders == (1, 4)
    assert after.card_count() == 32 and len(after.deck) == 32 - 4
    assert after.face_up == ()
    # the players sitting out can be neither chosen nor play
    reject(after, PlayCard(4, GUARD, 0, 6), R.TARGET_OUT_OF_ROUND)
    assert {c.target for c in legal_commands(after, BARON) if isinstance(c, PlayCard)} == {1}


@pytest.mark.rule("game.tie-break-round", "round.next-first-player-tie-random")
def test_game_tie_break_round_first_player_among_all_tied_if_none_won() -> None:
    """Neither tied player won the last round: the first player is one of
    them (seeded), never the round's winner."""
    state = tied_without_the_round_winner()
    reject(state, StartRound(first_player=0), R.INVALID_CHOICE)
    reject(state, StartRound(first_player=2), R.INVALID_CHOICE)
    for first in (1, 4):
        assert push(state, StartRound(first_player=first)).current == first
    started = decide(state, StartRound())[0]
    assert isinstance(started, RoundStarted)
    assert started.first_player in (1, 4) and started.seats == (1, 4)
    assert decide(state, StartRound()) == decide(state, StartRound())


def constable_tie() -> GameState:
    """001's example (Bob and Susan): Susan (seat 0) knocks Bob (seat 1) out
    and wins the round; Bob's Constable pays; both reach 4."""
    state = premium(
        hands=["Guard Priest", "Prince", "", "", ""],
        discards=[
            "Guard Guard",
            "Constable Guard",
            "Guard Priest",
            "Handmaid Count",
            "Baron Guard",
        ],
        out=[2, 3, 4],
        tokens=[3, 3, 0, 0, 0],
        round_number=7,
        deck="Baron",
    )
    return check(
        state,
        PlayCard(0, GUARD, 1, 5),
        CardPlayed(0, GUARD, 1, 5),
        PlayerEliminated(1, GUESS, (PRINCE,)),
        TokenAwarded(1, TokenReason.CONSTABLE, 4),
        RoundEnded(ONE_LEFT, (0,), ()),
        TokenAwarded(0, WIN, 4),
        GameTied((0, 1)),
    )


@pytest.mark.rule("game.tie-break-round", "round.next-first-player")
def test_game_tie_break_round_first_player_the_tied_round_winner() -> None:
    """Exactly one tied player (Susan) won the last round: she starts."""
    state = constable_tie()
    reject(state, StartRound(first_player=1), R.INVALID_CHOICE)
    started = decide(state, StartRound())[0]
    assert isinstance(started, RoundStarted)
    assert started.first_player == 0 and started.seats == (0, 1)


@pytest.mark.rule("game.tie-break-round", "game.immediate-win")
def test_game_tie_break_round_the_contender_who_gains_a_token_wins() -> None:
    """Susan knocks Bob out on the first turn of the tie-break round: she
    alone gains a token (5 against 4) and wins the game."""
    state = premium(
        hands=["Guard Priest", "Baron", "", "", ""],
        out=[2, 3, 4],
        contenders=[0, 1],
        tokens=[4, 4, 0, 0, 0],
        round_number=8,
        deck="King",
    )
    assert state.turn_number == 1
    after = check(
        state,
        PlayCard(0, GUARD, 1, 3),
        CardPlayed(0, GUARD, 1, 3),
        PlayerEliminated(1, GUESS, (BARON,)),
        RoundEnded(ONE_LEFT, (0,), ()),
        TokenAwarded(0, WIN, 5),
        GameEnded((0,)),
    )
    assert after.winners == (0,)


@pytest.mark.rule("game.tie-break-round", "game.immediate-win", "constable.knocked-out-token")
def test_game_tie_break_round_decided_by_any_token_even_mid_round() -> None:
    """A tie-break among seats 0, 1 and 2, turn 4: seat 0 knocks out seat 1,
    whose Constable pays. That award step is the first in which a tied
    player gains: seat 1 alone did, and wins the game though out."""
    state = premium(
        hands=["Guard Priest", "Baron", "Handmaid", "", ""],
        discards=["Guard", "Constable", "Guard", "", ""],
        out=[3, 4],
        contenders=[0, 1, 2],
        tokens=[4, 4, 4, 1, 0],
        round_number=9,
        deck="King",
    )
    assert state.turn_number == 4
    after = check(
        state,
        PlayCard(0, GUARD, 1, 3),
        CardPlayed(0, GUARD, 1, 3),
        PlayerEliminated(1, GUESS, (BARON,)),
        TokenAwarded(1, TokenReason.CONSTABLE, 5),
        GameEnded((1,)),
    )
    assert after.winners == (1,) and after.round_result is None


@pytest.mark.rule("game.tie-break-round", "jester.mark-expected-winner")
def test_game_tie_break_round_several_gain_another_tie_break_among_them() -> None:
    """A tie-break among seats 0, 1 and 2, turn 6: seat 2 marked seat 0 with
    the Jester and was knocked out. Seat 0 now wins the round, and seat 2's
    Jester pays in the same award step: seats 0 and 2 play again, seat 1
    sits the next round out."""
    state = premium(
        hands=["Guard Priest", "Prince", "", "", ""],
        discards=["Guard Guard", "Guard Guard", "Jester Count", "", ""],
        out=[2, 3, 4],
        contenders=[0, 1, 2],
        marks=[(2, 0)],
        tokens=[4, 4, 4, 2, 1],
        round_number=10,
        deck="King",
    )
    assert state.turn_number == 6
    after = check(
        state,
        PlayCard(0, GUARD, 1, 5),
        CardPlayed(0, GUARD, 1, 5),
        PlayerEliminated(1, GUESS, (PRINCE,)),
        RoundEnded(ONE_LEFT, (0,), ()),
        TokenAwarded(0, WIN, 5),
        TokenAwarded(2, TokenReason.JESTER, 5),
        GameTied((0, 2)),
    )
    assert after.contenders == (0, 2) and not after.is_over
    following = push(after, StartRound())
    assert following.current == 0  # the only tied player who won the round
    assert following.out == frozenset({1, 3, 4})


#: a tie-break round of a 5-player game at turn 27: seats 0 and 1 played
#: thirteen cards each and each discarded one more to the other's Prince;
#: the Bishop is the set-aside card
TIE_BREAK_PILES = [
    "Guard Count Guard Prince Guard Count Priest Guard Cardinal Baron Assassin Guard Sycophant"
    " Countess",
    "Guard Jester Prince Guard Priest Baron Handmaid DowagerQueen Constable Sycophant Baroness"
    " Guard Baroness Cardinal",
    "",
    "",
    "",
]


@pytest.mark.rule("game.tie-break-round", "round.tie-discard-sum", "count.showdown-bonus")
def test_game_tie_break_round_a_shared_round_win_ties_again() -> None:
    """The deck runs out: seat 0's King and two Counts (8) against seat 1's
    Princess (8), piles of 42 each: both win the round, both gain, and they
    play yet another tie-break round."""
    state = premium(
        hands=["Handmaid King", "Princess", "", "", ""],
        discards=TIE_BREAK_PILES,
        set_aside="Bishop",
        out=[2, 3, 4],
        contenders=[0, 1],
        tokens=[4, 4, 0, 0, 0],
        round_number=8,
        draws=2,
    )
    assert state.deck == () and state.turn_number == 27
    after = check(
        state,
        PlayCard(0, HANDMAID),
        CardPlayed(0, HANDMAID),
        PlayerProtected(0),
        RoundEnded(RoundEndReason.DECK_EMPTY, (0, 1), ((0, KING), (1, PRINCESS))),
        TokenAwarded(0, WIN, 5),
        TokenAwarded(1, WIN, 5),
        GameTied((0, 1)),
    )
    assert after.contenders == (0, 1)
    for first in (0, 1):  # both tied players won the round: either may start
        assert push(after, StartRound(first_player=first)).current == first
    reject(after, StartRound(first_player=2), R.INVALID_CHOICE)


@pytest.mark.rule("game.tie-break-round", "setup.two-player-face-up", "round.tie-discard-sum")
def test_game_tie_break_round_in_a_two_player_game() -> None:
    """Ruling 31 holds for every player count: two players reaching 7
    together (a shared round win, turn 10) play a tie-break round, dealt as
    any two-player round (three cards face up)."""
    state = premium(
        hands=["Prince", "Handmaid Prince"],
        discards=["Handmaid Guard Priest Guard Baron", "Guard Priest Guard Baron"],
        face_up="King Countess Guard",
        set_aside="Princess",
        current=1,
        tokens=[6, 6],
        round_number=13,
    )
    assert state.deck == () and state.turn_number == 10
    after = check(
        state,
        PlayCard(1, HANDMAID),
        CardPlayed(1, HANDMAID),
        PlayerProtected(1),
        RoundEnded(RoundEndReason.DECK_EMPTY, (0, 1), ((0, PRINCE), (1, PRINCE))),
        TokenAwarded(0, WIN, 7),
        TokenAwarded(1, WIN, 7),
        GameTied((0, 1)),
    )
    deck = stacked("premium", "Guard Priest Baron Handmaid Prince King Countess", 2)
    following = check(
        after,
        StartRound(deck, 1),
        RoundStarted(14, 1, deck, (0, 1)),
        CardSetAside(GUARD),
        CardRemovedFaceUp(PRIEST),
        CardRemovedFaceUp(BARON),
        CardRemovedFaceUp(HANDMAID),
        CardDealt(1, PRINCE),
        CardDealt(0, KING),
        TurnStarted(1),
        CardDrawn(1, COUNTESS, False),
    )
    assert following.out == frozenset() and following.contenders == (0, 1)
