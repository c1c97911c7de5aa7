"""Premium setup: the two decks, the values, 2 to 8 players, the deal."""

from __future__ import annotations

from collections import Counter

import pytest

from loveletter import (
    Card,
    PlayCard,
    PositionError,
    StartRound,
    events_for,
    from_position,
    get_ruleset,
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
    EliminationReason,
    GameStarted,
    HandsCompared,
    PlayerEliminated,
    RoundStarted,
    TurnStarted,
)

from ._helpers import (
    ASSASSIN,
    BARON,
    BARONESS,
    BISHOP,
    CARDINAL,
    CONSTABLE,
    COUNT,
    COUNTESS,
    DOWAGER_QUEEN,
    GUARD,
    HANDMAID,
    JESTER,
    KING,
    PRIEST,
    PRINCE,
    PRINCESS,
    SYCOPHANT,
    check,
    position,
    premium,
    stacked,
    turn,
)

SMALL_DECK = {
    GUARD: 5,
    PRIEST: 2,
    BARON: 2,
    HANDMAID: 2,
    PRINCE: 2,
    KING: 1,
    COUNTESS: 1,
    PRINCESS: 1,
}
#: the sixteen cards added with 5 to 8 players (ruling 20)
ADDED = {
    GUARD: 3,
    BISHOP: 1,
    DOWAGER_QUEEN: 1,
    CONSTABLE: 1,
    COUNT: 2,
    SYCOPHANT: 2,
    BARONESS: 2,
    CARDINAL: 2,
    JESTER: 1,
    ASSASSIN: 1,
}


@pytest.mark.rule("setup.deck-premium", "setup.shuffle")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_deck_premium_sixteen_cards_for_two_to_four(players: int) -> None:
    """001 "SETUP": with 2 to 4 players the deck is the sixteen listed
    cards; every round is shuffled from exactly those."""
    deck = get_ruleset("premium").deck_for(players)
    assert Counter(deck) == SMALL_DECK
    events = start_game("premium", players, seed=3)
    started = events[1]
    assert isinstance(started, RoundStarted) and started.deck is not None
    assert sorted(started.deck) == sorted(deck)
    assert new_game("premium", players, seed=3).card_count() == 16


@pytest.mark.rule("setup.deck-premium", "setup.shuffle")
@pytest.mark.parametrize("players", [5, 6, 7, 8])
def test_setup_deck_premium_all_thirty_two_for_five_to_eight(players: int) -> None:
    """001 "SETUP AND PLAY" and ruling 20: with 5 to 8 players all 32 cards;
    the two Guards of different names (Odette, Dougaul) are one kind, 8 in all."""
    deck = get_ruleset("premium").deck_for(players)
    assert len(deck) == 32
    assert Counter(deck) == Counter(SMALL_DECK) + Counter(ADDED)
    assert Counter(deck)[GUARD] == 8
    events = start_game("premium", players, seed=3)
    started = events[1]
    assert isinstance(started, RoundStarted) and started.deck is not None
    assert sorted(started.deck) == sorted(deck)
    assert new_game("premium", players, seed=3).card_count() == 32


@pytest.mark.rule("setup.deck-premium", "round.new-round-setup", "setup.shuffle")
@pytest.mark.parametrize(
    ("discards", "size"),
    [
        # 4 players, turn 3: seats 0 and 1 each knocked one player out with a Guard
        (["Guard", "Guard", "Baron", "Handmaid"], 16),
        # 5 players, turn 4: the same, then seat 4 lost a Baron comparison to seat 1
        (["Guard", "Guard", "Baron", "Handmaid", "Baron Guard"], 32),
    ],
)
def test_setup_deck_premium_every_round_uses_the_deck_of_the_game(
    discards: list[str], size: int
) -> None:
    """Every round of a game is dealt from the deck of the game's player
    count, however many players are left in it at the end of a round."""
    players = len(discards)
    hands = ["Princess Guard", "Priest", *([""] * (players - 2))]
    state = premium(hands=hands, discards=discards, out=range(2, players))
    state = push(state, PlayCard(0, PRINCESS))
    assert state.round_result is not None and state.round_result.winners == (1,)
    following = push(state, StartRound())
    assert following.card_count() == size
    assert following.out == frozenset()
    assert len(following.deck) == size - 1 - players - 1


PREMIUM_VALUES = {
    JESTER: 0,
    ASSASSIN: 0,
    GUARD: 1,
    PRIEST: 2,
    CARDINAL: 2,
    BARON: 3,
    BARONESS: 3,
    HANDMAID: 4,
    SYCOPHANT: 4,
    PRINCE: 5,
    COUNT: 5,
    KING: 6,
    CONSTABLE: 6,
    COUNTESS: 7,
    DOWAGER_QUEEN: 7,
    PRINCESS: 8,
    BISHOP: 9,
}


@pytest.mark.rule("setup.card-values-premium")
def test_setup_card_values_premium_table() -> None:
    """The printed numbers: King 6, Countess 7 and Princess 8 differ from
    2019; the added kinds share numbers with the old ones."""
    rules = get_ruleset("premium")
    assert set(rules.kinds) == set(PREMIUM_VALUES)
    assert {kind: rules.value(kind) for kind in rules.kinds} == PREMIUM_VALUES


#: kinds next to each other in value: the second is higher
ADJACENT = [
    (JESTER, GUARD),
    (ASSASSIN, GUARD),
    (GUARD, PRIEST),
    (CARDINAL, BARON),
    (PRIEST, BARONESS),
    (BARONESS, HANDMAID),
    (BARON, SYCOPHANT),
    (SYCOPHANT, PRINCE),
    (HANDMAID, COUNT),
    (COUNT, KING),
    (PRINCE, CONSTABLE),
    (CONSTABLE, COUNTESS),
    (KING, DOWAGER_QUEEN),
    (DOWAGER_QUEEN, PRINCESS),
    (COUNTESS, PRINCESS),
    (PRINCESS, BISHOP),
]
#: different kinds of the same value
SAME = [
    (JESTER, ASSASSIN),
    (PRIEST, CARDINAL),
    (BARON, BARONESS),
    (HANDMAID, SYCOPHANT),
    (PRINCE, COUNT),
    (KING, CONSTABLE),
    (COUNTESS, DOWAGER_QUEEN),
]


@pytest.mark.rule("setup.card-values-premium", "baron.compare-lower-out")
@pytest.mark.parametrize(("lower", "higher"), ADJACENT)
@pytest.mark.parametrize("baron_holds_higher", [False, True])
def test_setup_card_values_premium_order_decides_a_baron(
    lower: Card, higher: Card, baron_holds_higher: bool
) -> None:
    """Only the number counts: for each pair of kinds adjacent in value, a
    Baron comparison knocks out the holder of the lower one (the Assassin
    chosen by a Baron does nothing: only a Guard sets it off)."""
    mine, theirs = (higher, lower) if baron_holds_higher else (lower, higher)
    state = premium(hands=[[BARON, mine], [theirs], "Guard", "Guard", "Guard"], deck="Guard")
    loser, card = (1, theirs) if baron_holds_higher else (0, mine)
    check(
        state,
        PlayCard(0, BARON, 1),
        CardPlayed(0, BARON, 1),
        HandsCompared(0, 1, mine, theirs),
        PlayerEliminated(loser, EliminationReason.BARON_COMPARISON, (card,)),
        *turn(2 if baron_holds_higher else 1, GUARD),
    )


@pytest.mark.rule("setup.card-values-premium", "baron.tie-no-effect")
@pytest.mark.parametrize(("one", "other"), SAME)
def test_setup_card_values_premium_kinds_of_one_number_tie(one: Card, other: Card) -> None:
    """Kinds that share a number are equal in a comparison: a tie."""
    state = premium(hands=[[BARON, one], [other], "Guard", "Guard", "Guard"], deck="Guard")
    check(
        state,
        PlayCard(0, BARON, 1),
        CardPlayed(0, BARON, 1),
        HandsCompared(0, 1, one, other),
        *turn(1, GUARD),
    )


@pytest.mark.rule("setup.player-count-premium")
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6, 7, 8, 9])
def test_setup_player_count_premium(players: int) -> None:
    """2 to 8 players; a premium game of 1 or 9 cannot be created."""
    if 2 <= players <= 8:
        state = new_game("premium", players, seed=1)
        assert state.players == players
        assert all(len(state.hand(p)) == (2 if p == 0 else 1) for p in range(players))
    else:
        with pytest.raises(ValueError):
            new_game("premium", players, seed=1)
        with pytest.raises(ValueError):
            start_game("premium", players, seed=1)


@pytest.mark.rule("setup.player-count-premium")
def test_setup_player_count_premium_positions_checked_too() -> None:
    good = position("premium", hands=["Guard Priest", *(["Guard"] * 7)])
    assert from_position(good).players == 8
    nine = ["Guard Priest", "Baron", "Handmaid", "Prince", "King", "Count", "Countess", "Jester"]
    bad = position("premium", hands=[*nine, "Bishop"])
    with pytest.raises(PositionError) as error:
        from_position(bad)
    assert error.value.field == "players"


@pytest.mark.rule("setup.player-count-premium", "game.tokens-to-win-premium")
def test_setup_player_count_premium_aliases_name_the_same_ruleset() -> None:
    events = start_game("premium-2016", 5, seed=2)
    assert events[0] == GameStarted("premium", 5, 2, 0)
    assert get_ruleset("premium-2016") is get_ruleset("premium")
    assert get_ruleset("premium").tokens_to_win(5) == 4


@pytest.mark.rule(
    "setup.two-player-face-up",
    "setup.set-aside-face-down",
    "setup.deal-one-each",
    "setup.first-player",
)
def test_setup_two_player_premium_one_face_down_three_face_up() -> None:
    """001 "SETUP": one card removed face down, three more face up with two
    players, then one card each and the first player's draw."""
    deck = stacked("premium", "Countess Princess King Baron Guard Priest Handmaid", 2)
    events = start_game("premium", 2, seed=0, deck=deck)
    assert events == (
        GameStarted("premium", 2, 0, 0),
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
    assert state.face_up == (PRINCESS, KING, BARON)
    assert len(state.deck) == 16 - 7
    for player in (0, 1):
        seen = events_for(player, events)
        assert seen[2] == CardSetAside(None)
        assert seen[3:6] == events[3:6]
        assert view(state, player).face_up == (PRINCESS, KING, BARON)


@pytest.mark.rule(
    "setup.two-player-face-up",
    "setup.set-aside-face-down",
    "setup.deal-one-each",
    "setup.first-player",
)
def test_setup_five_players_premium_one_face_down_and_a_card_each() -> None:
    """001 "SETUP AND PLAY": with 5 to 8 players one card face down, none
    face up; the deal starts from the first player named at creation."""
    deck = stacked("premium", "Bishop Assassin Jester Guard Count Constable Princess", 5)
    events = start_game("premium", 5, seed=0, first_player=3, deck=deck)
    assert events == (
        GameStarted("premium", 5, 0, 3),
        RoundStarted(1, 3, deck),
        CardSetAside(BISHOP),
        CardDealt(3, ASSASSIN),
        CardDealt(4, JESTER),
        CardDealt(0, GUARD),
        CardDealt(1, COUNT),
        CardDealt(2, CONSTABLE),
        TurnStarted(3),
        CardDrawn(3, PRINCESS, False),
    )
    state = replay(events)
    assert state.face_up == ()
    assert state.hands == ((GUARD,), (COUNT,), (CONSTABLE,), (ASSASSIN, PRINCESS), (JESTER,))
    assert len(state.deck) == 32 - 7
    for player in range(5):
        for event in events_for(player, events):
            if isinstance(event, CardDealt):
                assert (event.card is not None) == (event.player == player)


@pytest.mark.rule("setup.two-player-face-up")
@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
def test_setup_two_player_face_up_only_with_two_players_premium(players: int) -> None:
    state = new_game("premium", players, seed=4)
    assert state.face_up == ()
    assert len(state.deck) == len(get_ruleset("premium").deck_for(players)) - 1 - players - 1


@pytest.mark.rule("out.discard-hand", "princess.eliminated-when-played-or-discarded")
def test_setup_premium_positions_fill_every_card_of_the_deck_in_use() -> None:
    """The rules tests' helper places every card of the deck of the player
    count (a sanity check of the positions used in these modules)."""
    state = premium(hands=["Princess Guard", "Priest", "Baron", "Handmaid", "Count"], deck="King")
    assert state.card_count() == 32 and state.turn_number == 1
    after = check(
        state,
        PlayCard(0, PRINCESS),
        CardPlayed(0, PRINCESS),
        PlayerEliminated(0, EliminationReason.PRINCESS_DISCARDED, (GUARD,)),
        TurnStarted(1),
        CardDrawn(1, KING, False),
    )
    assert after.discards[0] == (PRINCESS, GUARD)
