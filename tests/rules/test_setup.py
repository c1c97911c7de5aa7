"""Setup and the start of each round: decks, values, player counts, the deal."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from loveletter import (
    Card,
    PlayCard,
    PositionError,
    StartRound,
    decide,
    events_for,
    from_position,
    get_ruleset,
    legal_commands,
    new_game,
    push,
    replay,
    start_game,
    view,
)
from loveletter.events import (
    CardDealt,
    CardDrawn,
    CardPlayed,
    CardRemovedFaceUp,
    CardSetAside,
    GameStarted,
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
    stacked,
)


@pytest.mark.rule("setup.deck-2019")
def test_setup_deck_2019() -> None:
    """The 2019 deck: 21 cards, every one of them used in every round."""
    deck = get_ruleset("2019").deck
    assert Counter(deck) == {
        SPY: 2,
        GUARD: 6,
        PRIEST: 2,
        BARON: 2,
        HANDMAID: 2,
        PRINCE: 2,
        CHANCELLOR: 2,
        KING: 1,
        COUNTESS: 1,
        PRINCESS: 1,
    }
    events = start_game("2019", 4, seed=3)
    started = events[1]
    assert isinstance(started, RoundStarted)
    assert started.deck is not None
    assert sorted(started.deck) == sorted(deck)
    assert new_game("2019", 4, seed=3).card_count() == 21


@pytest.mark.rule("setup.deck-classic")
def test_setup_deck_classic() -> None:
    """The classic deck: the 2019 deck less one Guard, both Chancellors and
    both Spies."""
    deck = get_ruleset("2019-classic").deck
    assert Counter(deck) == {
        GUARD: 5,
        PRIEST: 2,
        BARON: 2,
        HANDMAID: 2,
        PRINCE: 2,
        KING: 1,
        COUNTESS: 1,
        PRINCESS: 1,
    }
    assert Counter(get_ruleset("2019").deck) - Counter(deck) == {GUARD: 1, CHANCELLOR: 2, SPY: 2}
    events = start_game("2019-classic", 3, seed=3)
    started = events[1]
    assert isinstance(started, RoundStarted)
    assert started.deck is not None
    assert sorted(started.deck) == sorted(deck)
    assert new_game("2019-classic", 3, seed=3).card_count() == 16


VALUE_ORDER = (SPY, GUARD, PRIEST, BARON, HANDMAID, PRINCE, CHANCELLOR, KING, COUNTESS, PRINCESS)


@pytest.mark.rule("setup.card-values")
@pytest.mark.parametrize("ruleset", ["2019", "2019-classic"])
def test_setup_card_values_table(ruleset: str) -> None:
    """Spy 0 up to Princess 9; the classic version keeps the values of its kinds."""
    rules = get_ruleset(ruleset)
    expected = {card: value for value, card in enumerate(VALUE_ORDER)}
    assert {kind: rules.value(kind) for kind in rules.kinds} == {
        kind: expected[kind] for kind in rules.kinds
    }


@pytest.mark.rule("setup.card-values", "round.highest-card-wins")
@pytest.mark.parametrize(("lower", "higher"), list(itertools.pairwise(VALUE_ORDER)))
@pytest.mark.parametrize("current_holds_higher", [False, True])
def test_setup_card_values_order_decides_the_showdown(
    lower: Card, higher: Card, current_holds_higher: bool
) -> None:
    """For each pair of kinds adjacent in value, the higher one wins an
    empty-deck showdown, whichever seat holds it."""
    # Seat 0 plays a card that does nothing and targets no one: a Handmaid
    # (both Handmaids exist, so one may also be a compared card).
    mine, theirs = (higher, lower) if current_holds_higher else (lower, higher)
    state = at(hands=[[HANDMAID, mine], [theirs], []], out=[2], rest=2)
    winner = 0 if current_holds_higher else 1
    check(
        state,
        PlayCard(0, HANDMAID),
        CardPlayed(0, HANDMAID),
        PlayerProtected(0),
        RoundEnded(RoundEndReason.DECK_EMPTY, (winner,), ((0, mine), (1, theirs))),
        TokenAwarded(winner, TokenReason.ROUND_WIN, 1),
    )


@pytest.mark.rule("setup.player-count")
@pytest.mark.parametrize(
    ("ruleset", "players", "allowed"),
    [
        ("2019", 1, False),
        ("2019", 2, True),
        ("2019", 3, True),
        ("2019", 4, True),
        ("2019", 5, True),
        ("2019", 6, True),
        ("2019", 7, False),
        ("2019-classic", 1, False),
        ("2019-classic", 2, True),
        ("2019-classic", 3, True),
        ("2019-classic", 4, True),
        ("2019-classic", 5, False),
        ("2019-classic", 6, False),
    ],
)
def test_setup_player_count(ruleset: str, players: int, allowed: bool) -> None:
    """2019: 2 to 6 players; 2019-classic: 2 to 4; anything else cannot be created."""
    if allowed:
        state = new_game(ruleset, players, seed=1)
        assert state.players == players
        assert all(len(state.hand(p)) == (2 if p == 0 else 1) for p in range(players))
    else:
        with pytest.raises(ValueError):
            new_game(ruleset, players, seed=1)
        with pytest.raises(ValueError):
            start_game(ruleset, players, seed=1)


@pytest.mark.rule("setup.player-count")
def test_setup_player_count_positions_checked_too() -> None:
    """A described position with too many players is rejected as well."""
    good = position("2019-classic", hands=["Guard Priest", "Baron", "Handmaid", "King"])
    assert from_position(good).players == 4
    bad = position("2019", hands=["Guard Priest", "Baron", "Handmaid", "King", "", "", ""])
    bad_classic = position("2019-classic", hands=["Guard Priest", "Baron", "Handmaid", "", ""])
    for p in (bad, bad_classic):
        with pytest.raises(PositionError) as error:
            from_position(p)
        assert error.value.field == "players"


@pytest.mark.rule("setup.shuffle")
def test_setup_shuffle_seeded_and_reproducible() -> None:
    """The same seed gives the same deal; the shuffle is a permutation of
    the whole deck; another seed gives another order."""
    first = start_game("2019", 3, seed=11)
    again = start_game("2019", 3, seed=11)
    other = start_game("2019", 3, seed=12)
    assert first == again
    deck_11 = first[1]
    deck_12 = other[1]
    assert isinstance(deck_11, RoundStarted) and isinstance(deck_12, RoundStarted)
    assert deck_11.deck is not None and deck_12.deck is not None
    assert sorted(deck_11.deck) == sorted(get_ruleset("2019").deck)
    assert deck_11.deck != deck_12.deck
    # The seed and the shuffled order are hidden from every player.
    for player in range(3):
        seen = events_for(player, first)
        assert seen[0] == GameStarted("2019", 3, None, 0)
        assert seen[1] == RoundStarted(1, 0, None)
    # The same commands from the same seed reproduce the same game.
    state_a = replay(first)
    state_b = replay(again)
    for _ in range(6):
        if state_a.round_over:
            break
        command = legal_commands(state_a)[0]
        state_a = push(state_a, command)
        state_b = push(state_b, command)
        assert state_a == state_b


@pytest.mark.rule("setup.shuffle", "round.new-round-setup")
def test_setup_shuffle_gathers_every_card_for_each_round() -> None:
    """Every round reshuffles all the cards, including those played, set
    aside or in hands in the previous round; the order comes from the seed,
    so the same state deals the same next round."""
    state = at(hands=["Princess Guard", "Priest", ""], out=[2], rest=2, seed=5)
    state = push(state, PlayCard(0, PRINCESS))  # seat 1 is the only one left
    assert state.round_over
    events = decide(state, StartRound())
    assert decide(state, StartRound()) == events
    started = events[0]
    assert isinstance(started, RoundStarted)
    assert started.round_number == 2
    assert started.deck is not None
    assert sorted(started.deck) == sorted(get_ruleset("2019").deck)
    other_seed = at(hands=["Princess Guard", "Priest", ""], out=[2], rest=2, seed=6)
    other_events = decide(push(other_seed, PlayCard(0, PRINCESS)), StartRound())
    assert other_events[0] != started


@pytest.mark.rule("setup.set-aside-face-down")
def test_setup_set_aside_face_down() -> None:
    """The top card is set aside face down: no one sees it, it is in no hand
    and not in the deck."""
    deck = stacked("2019", "Princess Guard Priest Baron Handmaid")
    events = start_game("2019", 3, seed=0, deck=deck)
    assert events == (
        GameStarted("2019", 3, 0, 0),
        RoundStarted(1, 0, deck),
        CardSetAside(PRINCESS),
        CardDealt(0, GUARD),
        CardDealt(1, PRIEST),
        CardDealt(2, BARON),
        TurnStarted(0),
        CardDrawn(0, HANDMAID, False),
    )
    state = replay(events)
    assert state.set_aside is PRINCESS
    assert PRINCESS not in state.deck
    assert all(PRINCESS not in hand for hand in state.hands)
    for player in range(3):
        seen = events_for(player, events)
        assert seen[2] == CardSetAside(None)
        assert view(state, player).set_aside_present
        assert PRINCESS not in view(state, player).hand


@pytest.mark.rule("setup.two-player-face-up", "setup.set-aside-face-down")
def test_setup_two_player_one_face_down_three_face_up() -> None:
    """With 2 players: one card face down, then three face up, then the deal."""
    deck = stacked("2019", "Countess Princess King Baron Guard Priest Handmaid")
    events = start_game("2019", 2, seed=0, deck=deck)
    assert events == (
        GameStarted("2019", 2, 0, 0),
        RoundStarted(1, 0, deck),
        CardSetAside(COUNTESS),
        CardRemovedFaceUp(PRINCESS),
        CardRemovedFaceUp(KING),
        CardRemovedFaceUp(BARON),
        CardDealt(0, GUARD),
        CardDealt(1, PRIEST),
        TurnStarted(0),
        CardDrawn(0, HANDMAID, False),
    )
    state = replay(events)
    assert state.set_aside is COUNTESS
    assert state.face_up == (PRINCESS, KING, BARON)
    assert len(state.deck) == 21 - 7
    for player in (0, 1):
        assert view(state, player).face_up == (PRINCESS, KING, BARON)
        assert events_for(player, events)[3:6] == events[3:6]  # face up: seen by all


@pytest.mark.rule("setup.two-player-face-up")
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_setup_two_player_face_up_only_with_two_players(players: int) -> None:
    """With more than 2 players no card is set aside face up."""
    state = new_game("2019", players, seed=4)
    assert state.face_up == ()
    assert len(state.deck) == 21 - 1 - players - 1


@pytest.mark.rule("setup.two-player-face-up")
def test_setup_two_player_face_up_never_drawn() -> None:
    """The face-up cards stay out of play for the whole round. The round is
    played until the deck runs out (each turn takes the first legal command
    that knocks no one out): no draw ever takes them."""
    deck = stacked("2019", "Baron Princess King Countess Chancellor Chancellor")
    state = new_game("2019", 2, deck=deck)
    assert state.face_up == (PRINCESS, KING, COUNTESS)
    while not state.round_over:
        options = legal_commands(state)
        harmless = [c for c in options if not push(state, c).out]
        state = push(state, (harmless or list(options))[0])
        assert state.face_up == (PRINCESS, KING, COUNTESS)
        assert all(card not in state.deck for card in (PRINCESS, KING, COUNTESS))
        for hand in state.hands:
            assert PRINCESS not in hand and KING not in hand and COUNTESS not in hand
    assert state.deck == ()
    assert state.round_result is not None
    assert state.round_result.reason is RoundEndReason.DECK_EMPTY


@pytest.mark.rule("setup.deal-one-each")
def test_setup_deal_one_each_from_first_player() -> None:
    """One card each, one at a time in turn order from the round's first
    player; then the first player's turn draw (ruling 3)."""
    deck = stacked("2019", "Guard Spy Priest Baron Handmaid Prince")
    events = start_game("2019", 4, seed=0, first_player=2, deck=deck)
    assert events == (
        GameStarted("2019", 4, 0, 2),
        RoundStarted(1, 2, deck),
        CardSetAside(GUARD),
        CardDealt(2, SPY),
        CardDealt(3, PRIEST),
        CardDealt(0, BARON),
        CardDealt(1, HANDMAID),
        TurnStarted(2),
        CardDrawn(2, PRINCE, False),
    )
    state = replay(events)
    assert state.hands == ((BARON,), (HANDMAID,), (SPY, PRINCE), (PRIEST,))
    # Each dealt card is seen by its owner only.
    for player in range(4):
        for event in events_for(player, events):
            if isinstance(event, CardDealt):
                assert (event.card is not None) == (event.player == player)


@pytest.mark.rule("setup.first-player")
def test_setup_first_player_defaults_to_seat_0() -> None:
    """Ruling 1: the first round's first player is named when the game is
    created, seat 0 by default."""
    events = start_game("2019-classic", 3, seed=8)
    assert events[0] == GameStarted("2019-classic", 3, 8, 0)
    started = events[1]
    assert isinstance(started, RoundStarted) and started.first_player == 0
    assert events[-2] == TurnStarted(0)
    default = new_game("2019-classic", 3, seed=8)
    assert default.to_act == 0 and len(default.hand(0)) == 2


@pytest.mark.rule("setup.first-player")
def test_setup_first_player_named_at_creation() -> None:
    """Ruling 1: a named seat starts the first round; a seat that does not
    exist cannot be named."""
    events = start_game("2019-classic", 3, seed=8, first_player=1)
    assert events[0] == GameStarted("2019-classic", 3, 8, 1)
    started = events[1]
    assert isinstance(started, RoundStarted) and started.first_player == 1
    assert events[-2] == TurnStarted(1)
    named = replay(events)
    assert named.to_act == 1 and len(named.hand(1)) == 2
    for seat in (-1, 3):
        with pytest.raises(ValueError):
            new_game("2019-classic", 3, seed=8, first_player=seat)
