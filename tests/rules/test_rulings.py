"""One test per numbered ruling of spec/rulings.yaml (its number is in the
test's name and docstring; the marker names the rules it refines)."""

from __future__ import annotations

import pytest

from loveletter import (
    KeepCard,
    PlayCard,
    Position,
    PositionError,
    RejectionKind,
    StartRound,
    decide,
    events_for,
    from_position,
    legal_commands,
    new_game,
    playable_cards,
    push,
    replay,
    start_game,
    view,
)
from loveletter.events import (
    CardDealt,
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardRemovedFaceUp,
    CardSetAside,
    CardsReturned,
    ChancellorDrew,
    EliminationReason,
    GameEnded,
    GameStarted,
    HandSeen,
    HandsTraded,
    PlayerEliminated,
    PlayerProtected,
    PositionEstablished,
    RoundEnded,
    RoundEndReason,
    RoundStarted,
    TokenAwarded,
    TokenReason,
    TurnStarted,
)

from ._helpers import (
    BARON,
    CHANCELLOR,
    COUNTESS,
    GUARD,
    HANDMAID,
    KING,
    PRIEST,
    PRINCE,
    PRINCESS,
    SPY,
    at,
    check,
    position,
    reject,
    stacked,
    turn,
)

DECK_EMPTY = RoundEndReason.DECK_EMPTY
ONE_LEFT = RoundEndReason.ONE_PLAYER_LEFT
WIN = TokenReason.ROUND_WIN
SPY_TOKEN = TokenReason.SPY


@pytest.mark.rule("setup.first-player")
@pytest.mark.parametrize(
    ("ruleset", "players"),
    [("2019", n) for n in range(2, 7)] + [("2019-classic", n) for n in range(2, 5)],
)
def test_setup_first_player_ruling_1(ruleset: str, players: int) -> None:
    """Ruling 1: seat 0 starts unless the creator names another seat."""
    assert new_game(ruleset, players, seed=2).to_act == 0
    last = players - 1
    events = start_game(ruleset, players, seed=2, first_player=last)
    assert events[0] == GameStarted(ruleset, players, 2, last)
    assert replay(events).to_act == last


@pytest.mark.rule("turn.order")
def test_turn_order_ruling_2_seats_increase_then_wrap() -> None:
    """Ruling 2: with 5 players the turns go 0, 1, 2, 3, 4, then 0 again."""
    state = at(
        hands=["Guard Guard", "Guard", "Guard", "Guard", "Guard"],
        deck="Priest Priest Baron Baron Handmaid Handmaid",
    )
    draws = [PRIEST, PRIEST, BARON, BARON, HANDMAID]
    for step, following in enumerate([1, 2, 3, 4, 0]):
        player = state.current
        state = check(
            state,
            PlayCard(player, GUARD, following, PRINCESS),
            CardPlayed(player, GUARD, following, PRINCESS),
            *turn(following, draws[step]),
        )


@pytest.mark.rule("setup.deal-one-each", "setup.set-aside-face-down", "setup.two-player-face-up")
def test_setup_deal_ruling_3_stacked_deck_two_players() -> None:
    """Ruling 3: top card face down, next three face up (2 players), then one
    card each from the first player on, then the first player's draw."""
    deck = stacked("2019", "Spy Guard Priest Baron Handmaid Prince Chancellor King")
    events = start_game("2019", 2, first_player=1, deck=deck)
    assert events[1:] == (
        RoundStarted(1, 1, deck),
        CardSetAside(SPY),
        CardRemovedFaceUp(GUARD),
        CardRemovedFaceUp(PRIEST),
        CardRemovedFaceUp(BARON),
        CardDealt(1, HANDMAID),
        CardDealt(0, PRINCE),
        TurnStarted(1),
        CardDrawn(1, CHANCELLOR, False),
    )
    state = replay(events)
    assert state.deck[0] is KING
    assert state.hands == ((PRINCE,), (HANDMAID, CHANCELLOR))


@pytest.mark.rule("turn.draw-then-play", "chancellor.return-bottom-any-order")
def test_turn_draw_ruling_4_deck_listed_top_first() -> None:
    """Ruling 4: every draw takes the first card listed; the Chancellor's
    returned cards go under the deck in the order listed."""
    state = at(hands=["Handmaid Guard", "Chancellor", "Baron"], deck="Priest King Prince Countess")
    state = check(
        state, PlayCard(0, HANDMAID), CardPlayed(0, HANDMAID), PlayerProtected(0), *turn(1, PRIEST)
    )
    state = check(
        state,
        PlayCard(1, CHANCELLOR),
        CardPlayed(1, CHANCELLOR),
        ChancellorDrew(1, 2, (KING, PRINCE)),
    )
    state = check(
        state,
        KeepCard(1, PRIEST, (PRINCE, KING)),
        CardsReturned(1, 2, (PRINCE, KING)),
        *turn(2, COUNTESS),
    )
    assert state.deck[-2:] == (PRINCE, KING)


@pytest.mark.rule("guard.name-non-guard", "guard.correct-guess-eliminates")
def test_guard_ruling_5_hopeless_guess_allowed_absent_kind_refused() -> None:
    """Ruling 5: in 2019-classic the King, face up beside the deck, may be
    named (the guess fails); the Chancellor, not in that deck, may not."""
    state = at(
        "2019-classic",
        hands=["Guard Handmaid", "Priest"],
        face_up="King Baron Baron",
        deck="Prince",
    )
    check(state, PlayCard(0, GUARD, 1, KING), CardPlayed(0, GUARD, 1, KING), *turn(1, PRINCE))
    reject(state, PlayCard(0, GUARD, 1, CHANCELLOR), RejectionKind.GUESS_NOT_ALLOWED)


@pytest.mark.rule(
    "targeting.other-player",
    "handmaid.all-protected-no-effect",
    "handmaid.all-protected-prince-self",
)
def test_targeting_ruling_6_forced_into_a_card_with_no_target() -> None:
    """Ruling 6: holding two Barons while the only other player still in is
    protected, the player must play one with no effect; it still lies in
    the discard pile. Out players count like protected ones."""
    state = at(
        hands=["Baron Baron", "", "Princess", ""],
        out=[1, 3],
        protected=[2],
        deck="Guard",
    )
    assert legal_commands(state) == (PlayCard(0, BARON),)
    after = check(state, PlayCard(0, BARON), CardPlayed(0, BARON), *turn(2, GUARD))
    assert after.discards[0] == (BARON,)
    assert after.hands[0] == (BARON,)
    prince = at(hands=["Prince Baron", "", "Princess", ""], out=[1, 3], protected=[2], deck="Guard")
    assert legal_commands(prince, PRINCE) == (PlayCard(0, PRINCE, 0),)


@pytest.mark.rule("handmaid.protection-until-next-turn", "round.new-round-setup")
def test_handmaid_ruling_7_protection_ends_at_turn_start_or_round_end() -> None:
    """Ruling 7: a protected player is never the one to play (a position
    saying so is rejected); protection is gone after the round ends."""
    bad = position(hands=["Guard Handmaid", "Priest", "Baron"], deck="King", protected=[0])
    with pytest.raises(PositionError) as error:
        from_position(bad)
    assert error.value.field == "protected"
    state = at(
        hands=["Prince Guard", "Priest", "Baron", ""],
        set_aside="Guard",
        protected=[1, 2],
        out=[3],
        rest=3,
    )
    state = check(
        state,
        PlayCard(0, PRINCE, 0),
        CardPlayed(0, PRINCE, 0),
        CardDiscarded(0, GUARD),
        CardDrawn(0, GUARD, True),
        RoundEnded(DECK_EMPTY, (2,), ((0, GUARD), (1, PRIEST), (2, BARON))),
        TokenAwarded(2, WIN, 1),
    )
    assert state.protected == frozenset()
    assert push(state, StartRound()).protected == frozenset()


@pytest.mark.rule("round.end-deck-empty", "chancellor.draw-two-keep-one")
def test_round_end_ruling_8_chancellor_refills_the_deck() -> None:
    """Ruling 8: a Chancellor that takes the last two cards puts two back,
    so the deck is not empty when the turn ends and play goes on."""
    state = at(
        hands=["Chancellor Guard", "Priest", "Baron", ""], deck="King Prince", out=[3], rest=3
    )
    state = check(
        state,
        PlayCard(0, CHANCELLOR),
        CardPlayed(0, CHANCELLOR),
        ChancellorDrew(0, 2, (KING, PRINCE)),
    )
    assert state.deck == ()
    state = check(
        state,
        KeepCard(0, GUARD, (PRINCE, KING)),
        CardsReturned(0, 2, (PRINCE, KING)),
        *turn(1, PRINCE),
    )
    assert state.deck == (KING,)
    assert not state.round_over


@pytest.mark.rule("prince.empty-deck-draws-set-aside", "setup.set-aside-face-down")
def test_prince_ruling_9_set_aside_card_needed_at_most_once() -> None:
    """Ruling 9: a round in progress always has its set-aside card (a
    position without one is rejected); once a Prince takes it, the round
    ends with that turn."""
    good = position(hands=["Prince Guard", "Priest", "Baron", ""], out=[3], rest=3)
    missing = Position(
        ruleset=good.ruleset,
        players=good.players,
        deck=(good.set_aside,) if good.set_aside is not None else (),
        set_aside=None,
        face_up=good.face_up,
        hands=good.hands,
        discards=good.discards,
        current=good.current,
        drawn=good.drawn,
        out=good.out,
    )
    with pytest.raises(PositionError) as error:
        from_position(missing)
    assert error.value.field == "set_aside"
    state = from_position(good)
    after = push(state, PlayCard(0, PRINCE, 1))
    assert after.set_aside is None
    assert after.round_over


@pytest.mark.rule("spy.sole-spy-token", "prince.discard-and-draw")
def test_spy_ruling_10_own_prince_discarding_a_spy_counts() -> None:
    """Ruling 10: a player whose own Prince makes them discard a Spy has a
    Spy in their pile and qualifies."""
    state = at(hands=["Prince Spy", "Guard", "Priest", ""], deck="Countess", out=[3], rest=3)
    check(
        state,
        PlayCard(0, PRINCE, 0),
        CardPlayed(0, PRINCE, 0),
        CardDiscarded(0, SPY),
        CardDrawn(0, COUNTESS, False),
        RoundEnded(DECK_EMPTY, (0,), ((0, COUNTESS), (1, GUARD), (2, PRIEST))),
        TokenAwarded(0, WIN, 1),
        TokenAwarded(0, SPY_TOKEN, 2),
    )


@pytest.mark.rule(
    "chancellor.return-bottom-any-order",
    "princess.eliminated-when-played-or-discarded",
    "spy.sole-spy-token",
)
def test_chancellor_ruling_11_returning_princess_and_spy() -> None:
    """Ruling 11: returning the Princess and a Spy together knocks no one
    out and earns no Spy credit; both go back into the deck."""
    state = at(
        hands=["Chancellor Spy", "Guard", "Priest", ""], deck="Princess Baron", out=[3], rest=3
    )
    state = check(
        state,
        PlayCard(0, CHANCELLOR),
        CardPlayed(0, CHANCELLOR),
        ChancellorDrew(0, 2, (PRINCESS, BARON)),
    )
    state = check(
        state,
        KeepCard(0, BARON, (SPY, PRINCESS)),
        CardsReturned(0, 2, (SPY, PRINCESS)),
        *turn(1, SPY),
    )
    assert state.out == frozenset({3})
    assert state.discards[0][-1] is CHANCELLOR and SPY not in state.discards[0]
    assert state.deck == (PRINCESS,)


@pytest.mark.rule("game.tokens-to-win", "spy.not-a-round-win", "round.winner-token")
def test_game_ruling_12_round_win_and_spy_token_counted_together() -> None:
    """Ruling 12: one token short after the round win, the Spy token then
    brings the same player to the threshold: the game ends."""
    state = at(
        hands=["Handmaid Prince", "Guard", "Priest", ""],
        discards=["Spy", "", "", "Spy"],
        tokens=[2, 3, 3, 0],
        out=[3],
        rest=3,
    )
    check(
        state,
        PlayCard(0, HANDMAID),
        CardPlayed(0, HANDMAID),
        PlayerProtected(0),
        RoundEnded(DECK_EMPTY, (0,), ((0, PRINCE), (1, GUARD), (2, PRIEST))),
        TokenAwarded(0, WIN, 3),
        TokenAwarded(0, SPY_TOKEN, 4),
        GameEnded((0,)),
    )


@pytest.mark.rule("round.next-first-player-tie-random")
def test_round_ruling_13_tied_first_player_recorded_in_the_event() -> None:
    """Ruling 13: the chosen seat is recorded in RoundStarted, which every
    player sees (the deck order stays hidden), and replay needs no seed."""
    state = at(hands=["Handmaid Prince", "Prince", "Guard", ""], out=[3], rest=3, seed=3)
    state = push(state, PlayCard(0, HANDMAID))
    assert state.round_result is not None and state.round_result.winners == (0, 1)
    events = decide(state, StartRound())
    started = events[0]
    assert isinstance(started, RoundStarted) and started.first_player in (0, 1)
    for player in range(4):
        seen = events_for(player, events)[0]
        assert seen == RoundStarted(2, started.first_player, None)
    assert check(state, StartRound(), *events).to_act == started.first_player


@pytest.mark.rule(
    "round.end-deck-empty",
    "round.end-one-player-left",
    "setup.set-aside-face-down",
    "priest.look-secretly",
)
def test_views_ruling_14_who_sees_what() -> None:
    """Ruling 14: the set-aside card is seen by no one (until drawn, then by
    its drawer only); an empty-deck end shows every remaining hand to all;
    a one-player-left end shows nothing."""
    state = at(hands=["Priest Guard", "Baron", "King", ""], set_aside="Princess", out=[3], rest=3)
    for player in range(4):
        assert view(state, player).set_aside_present
        assert PRINCESS not in view(state, player).hand
    events = decide(state, PlayCard(0, PRIEST, 1))
    assert events[:2] == (CardPlayed(0, PRIEST, 1), HandSeen(0, 1, BARON))
    ended = events[2]
    assert ended == RoundEnded(DECK_EMPTY, (2,), ((0, GUARD), (1, BARON), (2, KING)))
    for player in range(4):
        assert events_for(player, events)[2] == ended
    after = push(state, PlayCard(0, PRIEST, 1))
    for player in range(4):
        assert view(after, player).round_result == after.round_result
    left = at(hands=["Guard Handmaid", "Priest", "", ""], out=[2, 3], deck="King")
    left_events = decide(left, PlayCard(0, GUARD, 1, PRIEST))
    assert left_events[2] == RoundEnded(ONE_LEFT, (0,), ())
    prince = at(hands=["Prince Guard", "Baron", "", ""], set_aside="Countess", out=[2, 3], rest=3)
    drawn = decide(prince, PlayCard(0, PRINCE, 1))
    assert drawn[2] == CardDrawn(1, COUNTESS, True)
    assert events_for(1, drawn)[2] == CardDrawn(1, COUNTESS, True)
    assert events_for(0, drawn)[2] == CardDrawn(1, None, True)
    established = events_for(0, (PositionEstablished(position(hands=["Guard Priest", "Baron"])),))
    assert established == (PositionEstablished(None),)


@pytest.mark.rule("countess.forced-by-king-or-prince", "countess.not-during-chancellor")
def test_countess_ruling_15_lock_checked_again_at_the_next_turn() -> None:
    """Ruling 15: a Countess received through a King trade binds nobody
    until her holder's next turn, when a drawn Prince makes her mandatory."""
    state = at(hands=["King Guard", "Countess", "Baron"], deck="Priest Handmaid Prince")
    state = check(
        state, PlayCard(0, KING, 1), CardPlayed(0, KING, 1), HandsTraded(0, 1), *turn(1, PRIEST)
    )
    assert state.hands[0] == (COUNTESS,)
    state = check(
        state,
        PlayCard(1, PRIEST, 2),
        CardPlayed(1, PRIEST, 2),
        HandSeen(1, 2, BARON),
        *turn(2, HANDMAID),
    )
    state = check(
        state, PlayCard(2, HANDMAID), CardPlayed(2, HANDMAID), PlayerProtected(2), *turn(0, PRINCE)
    )
    assert state.hands[0] == (COUNTESS, PRINCE)
    assert playable_cards(state) == (COUNTESS,)
    assert legal_commands(state) == (PlayCard(0, COUNTESS),)


@pytest.mark.rule("prince.any-player", "prince.discard-and-draw")
def test_prince_ruling_16_on_oneself_with_the_other_prince() -> None:
    """Ruling 16: with two Princes, playing one on oneself discards the
    other, unresolved, and draws."""
    state = at(hands=["Prince Prince", "Guard", "Baron"], deck="Countess Priest")
    after = check(
        state,
        PlayCard(0, PRINCE, 0),
        CardPlayed(0, PRINCE, 0),
        CardDiscarded(0, PRINCE),
        CardDrawn(0, COUNTESS, False),
        *turn(1, PRIEST),
    )
    assert after.discards[0] == (PRINCE, PRINCE)
    assert after.hands[0] == (COUNTESS,)


@pytest.mark.rule("countess.voluntary", "princess.eliminated-when-played-or-discarded")
def test_countess_ruling_17_princess_may_be_played_beside_her() -> None:
    """Ruling 17: both the Countess and the Princess are legal plays."""
    state = at(hands=["Countess Princess", "Guard", "Baron"], deck="Priest")
    assert legal_commands(state) == (PlayCard(0, COUNTESS), PlayCard(0, PRINCESS))
    check(
        state,
        PlayCard(0, PRINCESS),
        CardPlayed(0, PRINCESS),
        PlayerEliminated(0, EliminationReason.PRINCESS_DISCARDED, (COUNTESS,)),
        *turn(1, PRIEST),
    )


@pytest.mark.rule("round.tie-all-win", "round.highest-card-wins")
def test_round_ruling_18_three_way_tie_no_discard_tie_break() -> None:
    """Ruling 18: three players tied on a Guard all win whatever their
    discard piles hold."""
    state = at(
        "2019-classic",
        hands=["Handmaid Guard", "Guard", "Guard"],
        discards=["Prince King", "", "Priest"],
        rest=1,
    )
    check(
        state,
        PlayCard(0, HANDMAID),
        CardPlayed(0, HANDMAID),
        PlayerProtected(0),
        RoundEnded(DECK_EMPTY, (0, 1, 2), ((0, GUARD), (1, GUARD), (2, GUARD))),
        TokenAwarded(0, WIN, 1),
        TokenAwarded(1, WIN, 1),
        TokenAwarded(2, WIN, 1),
    )


@pytest.mark.rule(
    "out.turn-skipped", "round.end-deck-empty", "princess.eliminated-when-played-or-discarded"
)
def test_out_ruling_19_own_knock_out_then_empty_deck_check() -> None:
    """Ruling 19: knocked out on one's own turn with two players still in
    and the deck empty, the round ends on the empty deck after that turn."""
    state = at(hands=["Princess Guard", "Priest", "Baron", ""], out=[3], rest=3)
    check(
        state,
        PlayCard(0, PRINCESS),
        CardPlayed(0, PRINCESS),
        PlayerEliminated(0, EliminationReason.PRINCESS_DISCARDED, (GUARD,)),
        RoundEnded(DECK_EMPTY, (2,), ((1, PRIEST), (2, BARON))),
        TokenAwarded(2, WIN, 1),
    )
