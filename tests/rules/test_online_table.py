"""The online table (004): who plays, with which decks, in which order, and
when a round ends. Rulings 41 to 43 and 52."""

from __future__ import annotations

from collections import Counter

import pytest

import loveletter as ll
from loveletter import Card, Decision, PlayCard, RejectionKind, StartRound, TableSettings
from loveletter.chance import choose, shuffled
from loveletter.events import (
    CardDealt,
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardSetAside,
    GameStarted,
    RoundEnded,
    RoundEndReason,
    RoundStarted,
    TokenAwarded,
    TokenReason,
)

from ._helpers import GUARD, HANDMAID, PRIEST, PRINCE, check, online, reject, turn, two_kings_tied

R = RejectionKind
STANDARD = Counter(
    {
        Card.GUARD: 5,
        Card.PRIEST: 2,
        Card.BARON: 2,
        Card.HANDMAID: 2,
        Card.PRINCE: 2,
        Card.KING: 1,
        Card.COUNTESS: 1,
        Card.PRINCESS: 1,
    }
)
#: 004's Extended deck with ruling 41's single Constable
EXTENDED = STANDARD + Counter(
    {
        Card.GUARD: 3,
        Card.BISHOP: 1,
        Card.DOWAGER_QUEEN: 1,
        Card.CONSTABLE: 1,
        Card.COUNT: 2,
        Card.SYCOPHANT: 2,
        Card.BARONESS: 2,
        Card.CARDINAL: 2,
        Card.JESTER: 1,
        Card.ASSASSIN: 1,
    }
)


@pytest.mark.rule("setup.player-count-online")
@pytest.mark.parametrize("players", [1, 2, 9])
def test_an_online_table_seats_three_to_eight(players: int) -> None:
    with pytest.raises(ll.SetupError) as caught:
        ll.new_game("online", players, seed=1)
    assert caught.value.field == "players"


@pytest.mark.rule("setup.deck-online", "setup.player-count-online", "setup.decks-online")
@pytest.mark.parametrize("players", range(3, 9))
@pytest.mark.parametrize("decks", [1, 2, 3])
def test_the_standard_deck_for_three_or_four_the_extended_for_five_to_eight(
    players: int, decks: int
) -> None:
    """004's card table: 16 cards per deck, 32 in Extended (ruling 41's
    counts), times the number of decks."""
    base = STANDARD if players <= 4 else EXTENDED
    expected = Counter({card: count * decks for card, count in base.items()})
    state = ll.new_game("online", players, seed=3, settings=TableSettings(decks=decks))
    everywhere = Counter(state.deck) + sum(
        (Counter(h) + Counter(p) for h, p in zip(state.hands, state.discards, strict=True)),
        Counter(),
    )
    assert everywhere == expected
    assert state.card_count() == (16 if players <= 4 else 32) * decks


@pytest.mark.rule("setup.decks-online", "online.time-control-settings")
@pytest.mark.parametrize(
    ("settings", "field"),
    [
        (TableSettings(decks=0), "settings.decks"),
        (TableSettings(decks=4), "settings.decks"),
        (TableSettings(turn_time_ms=4_999), "settings.turn_time_ms"),
        (TableSettings(turn_time_ms=60_001), "settings.turn_time_ms"),
        (TableSettings(intermission_ms=30_001), "settings.intermission_ms"),
        (TableSettings(intermission_ms=-1), "settings.intermission_ms"),
    ],
)
def test_table_settings_out_of_their_ranges_are_refused(
    settings: TableSettings, field: str
) -> None:
    with pytest.raises(ll.SetupError) as caught:
        ll.new_game("online", 4, seed=1, settings=settings)
    assert caught.value.field == field


@pytest.mark.rule("online.time-control-settings")
def test_the_settings_default_to_004s_and_are_recorded_in_the_first_event() -> None:
    (started, *_) = ll.start_game("online", 4, seed=2)
    assert isinstance(started, GameStarted)
    assert started.settings == TableSettings(1, 20_000, True, 30_000)
    with pytest.raises(ll.SetupError) as caught:
        ll.new_game("premium", 4, seed=1, settings=TableSettings())
    assert caught.value.field == "settings"


@pytest.mark.rule("setup.no-set-aside-online", "setup.deal-one-each", "setup.turn-order-online")
def test_a_deal_sets_nothing_aside_and_deals_in_the_drawn_order() -> None:
    deck = (Card.PRINCESS, GUARD, Card.BARON, PRIEST, *([GUARD] * 4), PRIEST, Card.BARON)
    deck += (HANDMAID, HANDMAID, PRINCE, PRINCE, Card.KING, Card.COUNTESS)
    events = ll.start_game("online", 3, seed=0, deck=deck, order=(2, 0, 1))
    assert not any(isinstance(e, CardSetAside) for e in events)
    assert events[1] == RoundStarted(1, 2, deck, None, (2, 0, 1))
    assert events[2:5] == (
        CardDealt(2, Card.PRINCESS),
        CardDealt(0, GUARD),
        CardDealt(1, Card.BARON),
    )
    assert events[5:] == turn(2, PRIEST)
    state = ll.replay(events)
    assert state.set_aside is None and state.face_up == () and len(state.deck) == 12


@pytest.mark.rule("setup.turn-order-online")
def test_the_first_order_is_the_seeded_shuffle_and_a_named_first_player_is_swapped_in() -> None:
    drawn = shuffled(range(5), 9, 1, "order")
    assert ll.new_game("online", 5, seed=9).table.order == drawn
    # naming a first player swaps them with whoever the shuffle put first
    first = drawn[3]
    swapped = list(drawn)
    swapped[0], swapped[3] = swapped[3], swapped[0]
    state = ll.new_game("online", 5, seed=9, first_player=first)
    assert state.table.order == tuple(swapped)
    assert state.current == first


@pytest.mark.rule("setup.turn-order-online")
def test_the_next_order_starts_with_a_previous_rank_one_player_by_a_swap() -> None:
    state = online(
        hands=["Guard Princess", "Priest", "Baron"],
        deck="Handmaid",
        discards=["Guard", "Guard", "Guard"],
        rest=2,
    )
    # seat 0 plays the Guard, misses, the pile is down to its last card:
    # the round ends and the Princess ranks first
    after = ll.push(state, PlayCard(0, GUARD, 1, 8))
    assert after.decision is Decision.NEXT_ROUND
    assert after.round_result is not None and after.round_result.winners == (0,)
    dealt = ll.push(after, StartRound())
    expected = list(shuffled((0, 1, 2), state.seed, 2, "order"))
    index = expected.index(0)
    expected[0], expected[index] = expected[index], expected[0]
    assert dealt.table.order == tuple(expected)
    assert dealt.current == 0
    reject(after, StartRound(order=(1, 0, 2)), R.INVALID_CHOICE)
    reject(after, StartRound(order=(0, 1)), R.INVALID_CHOICE)
    reject(after, StartRound(first_player=1), R.INVALID_CHOICE)
    stacked = ll.push(after, StartRound(order=(0, 2, 1)))
    assert stacked.table.order == (0, 2, 1)


@pytest.mark.rule("setup.turn-order-online")
def test_several_rank_one_players_the_first_is_drawn_among_them_from_the_seed() -> None:
    state = two_kings_tied()
    after = ll.push(state, PlayCard(0, GUARD, 2, 2))
    assert after.round_result is not None and after.round_result.winners == (0, 1)
    first = choose((0, 1), state.seed, 2, "first-player")
    dealt = ll.push(after, StartRound())
    assert dealt.current == first == dealt.table.order[0]


@pytest.mark.rule("round.end-pile-online", "turn.draw-then-play")
def test_a_turn_that_leaves_two_cards_goes_on_one_that_leaves_one_ends_the_round() -> None:
    # seat 3 went out, by the Princess, which lies on their pile
    state = online(
        hands=["Guard Handmaid", "Priest", "Baron", ""],
        deck="Handmaid Guard Prince",
        discards=["Guard", "Guard", "Guard", ""],
        rest=2,
        exits=[3],
    )
    # three cards: the next player draws one, leaving two
    state = check(
        state,
        PlayCard(0, HANDMAID),
        CardPlayed(0, HANDMAID),
        ll.PlayerProtected(0),
        *turn(1, HANDMAID),
    )
    assert state.deck[:2] == (GUARD, PRINCE)
    # two cards: the next player draws one, leaving the last
    state = ll.push(state, PlayCard(1, PRIEST, 2))
    assert state.current == 2 and len(state.deck) == 1
    # the turn after that leaves one card: the round ends with it unused
    end = ll.push(state, PlayCard(2, GUARD, 1, 5))
    assert end.decision is Decision.NEXT_ROUND and end.deck == (PRINCE,)
    assert end.round_result is not None
    assert end.round_result.reason is RoundEndReason.DECK_EMPTY


@pytest.mark.rule("round.end-pile-online", "setup.no-set-aside-online", "prince.discard-and-draw")
def test_a_prince_takes_the_piles_last_card_and_the_round_ends_after_the_turn() -> None:
    # seat 3 went out, by the Princess, which lies on their pile
    state = online(
        hands=["Prince Guard", "Priest", "Baron", ""],
        deck="Handmaid",
        discards=["", "", "Guard", ""],
        rest=2,
        exits=[3],
    )
    assert state.deck == (HANDMAID,)
    events = ll.decide(state, PlayCard(0, PRINCE, 1))
    assert events[:3] == (
        CardPlayed(0, PRINCE, 1),
        CardDiscarded(1, PRIEST),
        CardDrawn(1, HANDMAID, False),
    )
    ended = events[3]
    assert isinstance(ended, RoundEnded) and ended.reason is RoundEndReason.DECK_EMPTY
    assert ended.revealed == ((0, GUARD), (1, HANDMAID), (2, Card.BARON))


@pytest.mark.rule("round.end-pile-online", "setup.decks-online")
@pytest.mark.parametrize("decks", [1, 2, 3])
def test_the_threshold_is_one_card_whatever_the_decks(decks: int) -> None:
    state = ll.new_game("online", 3, seed=4, settings=TableSettings(decks=decks))
    while not state.round_over:
        assert len(state.deck) >= 1  # a turn started with two or more
        state = ll.push(state, ll.legal_commands(state)[0])
    assert len(state.deck) <= 1 or len(state.live_players()) == 1


@pytest.mark.rule("round.end-one-player-left")
def test_one_player_left_ends_the_round_at_once_and_ranks_them_first() -> None:
    state = online(
        hands=["Guard Priest", "Baron", ""],
        deck="King Prince Guard",
        # seat 1's Guard knocked seat 2 out on the turn before
        discards=["", "Guard", "Handmaid"],
        exits=[2],
    )
    check(
        state,
        PlayCard(0, GUARD, 1, 3),
        CardPlayed(0, GUARD, 1, 3),
        ll.PlayerEliminated(1, ll.EliminationReason.GUARD_GUESS, (Card.BARON,)),
        RoundEnded(RoundEndReason.ONE_PLAYER_LEFT, (0,), (), (1, 2, 3)),
        TokenAwarded(0, TokenReason.ROUND_WIN, 1),
    )


@pytest.mark.rule("game.no-end-online", "game.win-counter-online")
def test_a_match_never_ends_by_itself() -> None:
    state = ll.new_game("online", 3, seed=5)
    for _ in range(12):
        while not state.round_over:
            state = ll.push(state, ll.legal_commands(state)[-1])
        assert not state.is_over and state.winners == ()
        state = ll.push(state, StartRound())
    assert state.round_number == 13 and sum(state.tokens) >= 12


@pytest.mark.rule("online.time-control-settings")
def test_a_log_whose_first_event_omits_the_settings_plays_with_004s_defaults() -> None:
    opening = ll.start_game("online", 3, seed=1)
    started = opening[0]
    assert isinstance(started, GameStarted)
    bare = GameStarted(started.ruleset, started.players, started.seed, started.first_player)
    state = ll.replay((bare, *opening[1:]))
    ll.check_state(state)
    assert state.table.settings == TableSettings()
