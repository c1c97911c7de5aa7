"""Hidden information (ruling 14): targeted leak tests.

Most tests compare *twin games*: two games that differ only in a card some
player may not see (another hand, the deck order, the set-aside card, the
seed). That player's event stream (``events_for``) and ``view`` must then be
identical in both games, which shows they carry nothing about that card,
not even indirectly. The players who may see the card must see it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import attrs
import pytest

import loveletter as ll
from loveletter import Card, Decision, GameState, PlayerView, Sighting
from loveletter.commands import Command, Decline, KeepCard, LookAtHand, PlayCard, Redraw
from loveletter.events import (
    CardDealt,
    CardDrawn,
    CardRevealed,
    CardSetAside,
    CardsReturned,
    ChancellorDrew,
    ChoiceRestricted,
    EliminationReason,
    Event,
    GameStarted,
    HandsCompared,
    HandSeen,
    HandsTraded,
    LookOffered,
    PlayerEliminated,
    PlayerMarked,
    PositionEstablished,
    RedrawOffered,
    RoundEnded,
    RoundEndReason,
    RoundStarted,
    TokenAwarded,
    TokenReason,
)

G, PRIEST, BARON, HANDMAID = Card.GUARD, Card.PRIEST, Card.BARON, Card.HANDMAID
PRINCE, CHANCELLOR, KING = Card.PRINCE, Card.CHANCELLOR, Card.KING
COUNTESS, PRINCESS, SPY = Card.COUNTESS, Card.PRINCESS, Card.SPY


def stacked(ruleset: str, top: Sequence[Card]) -> tuple[Card, ...]:
    """A deck for ``ruleset`` (top first): ``top``, then the rest in card
    order, so the bottom card is the highest one left."""
    rest = Counter(ll.get_ruleset(ruleset).deck)
    rest.subtract(top)
    assert all(n >= 0 for n in rest.values()), f"{top} is not part of {ruleset}"
    return (*top, *sorted(rest.elements()))


def swapped(deck: tuple[Card, ...], *pairs: tuple[int, Card]) -> tuple[Card, ...]:
    """``deck`` with the card at each index exchanged for a copy of the given
    card taken from as low in the deck as possible (far below any draw)."""
    cards = list(deck)
    for index, card in pairs:
        lowest = max(i for i, c in enumerate(cards) if c == card and i > index)
        cards[index], cards[lowest] = cards[lowest], cards[index]
    return tuple(cards)


@attrs.frozen
class Game:
    state: GameState
    events: tuple[Event, ...]

    def seen_by(self, player: int) -> tuple[Event, ...]:
        return ll.events_for(player, self.events)

    def view(self, player: int) -> PlayerView:
        return ll.view(self.state, player)


def play(
    deck: tuple[Card, ...],
    commands: Sequence[Command] = (),
    *,
    ruleset: str = "2019",
    players: int = 3,
    seed: int = 0,
) -> Game:
    events = list(ll.start_game(ruleset, players, seed=seed, deck=deck))
    state = ll.replay(events)
    for command in commands:
        state, new = ll.step(state, command)
        events += new
    return Game(state, tuple(events))


def from_position(position: ll.Position, commands: Sequence[Command] = ()) -> Game:
    state = ll.from_position(position)
    # the seed it took, so that replaying the log is exact
    events: list[Event] = [PositionEstablished(attrs.evolve(position, seed=state.seed))]
    for command in commands:
        state, new = ll.step(state, command)
        events += new
    assert ll.replay(events) == state
    return Game(state, tuple(events))


def assert_same_knowledge(a: Game, b: Game, player: int) -> None:
    """``player`` cannot tell the two games apart."""
    assert a.seen_by(player) == b.seen_by(player)
    assert a.view(player) == b.view(player)


def assert_different_knowledge(a: Game, b: Game, player: int) -> None:
    """``player`` can tell the games apart (the twins really differ)."""
    assert (a.seen_by(player), a.view(player)) != (b.seen_by(player), b.view(player))


def the(kind: type[Event], events: Sequence[Event]) -> list[Event]:
    return [e for e in events if isinstance(e, kind)]


# --------------------------------------------------------------------------
# Priest, Baron, King, Chancellor


@pytest.mark.rule("priest.look-secretly")
def test_only_the_priest_player_sees_the_card_looked_at() -> None:
    # set aside Guard; deal Priest, King, Baron; seat 0 draws a Handmaid
    deck = stacked("2019", [G, PRIEST, KING, BARON, HANDMAID])
    twin = swapped(deck, (2, PRINCESS))  # seat 1 holds the Princess instead
    command = [PlayCard(0, PRIEST, 1)]
    a, b = play(deck, command), play(twin, command)
    assert the(HandSeen, a.seen_by(0)) == [HandSeen(0, 1, KING)]
    assert a.view(0).sightings == (Sighting(0, 1, KING, 1, PRIEST),)
    for other in (1, 2):
        assert the(HandSeen, a.seen_by(other)) == [HandSeen(0, 1, None)]
        assert a.view(other).sightings == ()
    assert_same_knowledge(a, b, 2)
    assert_different_knowledge(a, b, 0)


@pytest.mark.rule("baron.secret-comparison")
def test_a_baron_tie_is_seen_only_by_the_two_players_compared() -> None:
    # seat 0: Baron, then draws a Priest; seat 1: Priest (a tie); seat 2: King
    deck = stacked("2019", [G, BARON, PRIEST, KING, PRIEST])
    twin = swapped(deck, (2, HANDMAID), (4, HANDMAID))  # a tie of Handmaids instead
    command = [PlayCard(0, BARON, 1)]
    a, b = play(deck, command), play(twin, command)
    assert not a.state.out
    for participant in (0, 1):
        assert the(HandsCompared, a.seen_by(participant)) == [HandsCompared(0, 1, PRIEST, PRIEST)]
    assert the(HandsCompared, a.seen_by(2)) == [HandsCompared(0, 1, None, None)]
    assert a.view(0).sightings == (Sighting(0, 1, PRIEST, 1, BARON),)
    assert a.view(1).sightings == (Sighting(1, 0, PRIEST, 1, BARON),)
    assert a.view(2).sightings == ()
    assert_same_knowledge(a, b, 2)


@pytest.mark.rule("baron.secret-comparison", "baron.compare-lower-out")
def test_a_baron_loser_shows_their_card_but_the_winner_does_not() -> None:
    # seat 0: Baron, then draws a King; seat 1: Guard (loses); seat 2: Priest
    deck = stacked("2019", [G, BARON, G, PRIEST, KING])
    twin = swapped(deck, (4, PRINCESS))  # the winner holds the Princess instead
    command = [PlayCard(0, BARON, 1)]
    a, b = play(deck, command), play(twin, command)
    assert a.state.out == {1}
    assert a.state.discards[1] == (G,)  # the loser's card is discarded face up
    assert_same_knowledge(a, b, 2)
    assert_different_knowledge(a, b, 1)  # the other participant saw the King


@pytest.mark.rule("king.trade-hands")
def test_after_a_king_trade_each_trader_knows_what_the_other_now_holds() -> None:
    # seat 0: King, then draws a Priest; seat 1: Prince; seat 2: Baron
    deck = stacked("2019", [G, KING, PRINCE, BARON, PRIEST])
    twin = swapped(deck, (2, PRINCESS))
    command = [PlayCard(0, KING, 1)]
    a, b = play(deck, command), play(twin, command)
    assert a.view(0).hand == (PRINCE,)
    assert a.view(0).sightings == (Sighting(0, 1, PRIEST, 1, KING),)
    assert a.view(1).sightings == (Sighting(1, 0, PRINCE, 1, KING),)
    assert PRIEST in a.view(1).hand
    assert a.view(2).sightings == ()
    assert_same_knowledge(a, b, 2)


@pytest.mark.rule("chancellor.draw-two-keep-one", "chancellor.return-bottom-any-order")
def test_only_the_chancellor_player_sees_the_cards_drawn_and_returned() -> None:
    # seat 0: Chancellor, then draws a Guard; the next two cards: Spy, Princess
    deck = stacked("2019", [G, CHANCELLOR, PRIEST, BARON, G, SPY, PRINCESS])
    twin = swapped(deck, (6, COUNTESS))  # the Chancellor finds the Countess instead
    a_mid, b_mid = play(deck, [PlayCard(0, CHANCELLOR)]), play(twin, [PlayCard(0, CHANCELLOR)])
    assert a_mid.state.decision is Decision.CHANCELLOR
    assert the(ChancellorDrew, a_mid.seen_by(0)) == [ChancellorDrew(0, 2, (SPY, PRINCESS))]
    for other in (1, 2):
        assert the(ChancellorDrew, a_mid.seen_by(other)) == [ChancellorDrew(0, 2, None)]
        view = a_mid.view(other)
        assert view.hand_sizes[0] == 3 and view.legal_commands == ()
        assert_same_knowledge(a_mid, b_mid, other)
    assert a_mid.view(0).legal_commands == ll.legal_commands(a_mid.state)
    a = play(deck, [PlayCard(0, CHANCELLOR), KeepCard(0, PRINCESS, (G, SPY))])
    b = play(twin, [PlayCard(0, CHANCELLOR), KeepCard(0, COUNTESS, (G, SPY))])
    assert the(CardsReturned, a.seen_by(0)) == [CardsReturned(0, 2, (G, SPY))]
    for other in (1, 2):
        assert the(CardsReturned, a.seen_by(other)) == [CardsReturned(0, 2, None)]
        assert_same_knowledge(a, b, other)


@pytest.mark.rule("countess.hidden-reason")
def test_no_one_can_tell_a_forced_countess_from_a_chosen_one() -> None:
    # seat 0 holds the Countess and draws the King (forced) or a Guard (chosen)
    deck = stacked("2019", [G, COUNTESS, PRIEST, BARON, KING])
    twin = swapped(deck, (4, G))
    forced = play(deck, [PlayCard(0, COUNTESS)])
    chosen = play(twin, [PlayCard(0, COUNTESS)])
    assert ll.legal_commands(play(deck).state) == (PlayCard(0, COUNTESS),)
    for other in (1, 2):
        assert_same_knowledge(forced, chosen, other)


# --------------------------------------------------------------------------
# the deck, the set-aside card, the seed


@pytest.mark.rule("setup.set-aside-face-down", "setup.shuffle")
def test_no_one_sees_the_deck_order_the_set_aside_card_or_the_seed() -> None:
    deck = stacked("2019", [PRINCESS, G, PRIEST, BARON, HANDMAID])
    # the set-aside Princess swapped with the bottom Countess, deep cards reordered
    twin = swapped(deck, (0, COUNTESS), (8, CHANCELLOR))
    assert twin != deck
    a, b = play(deck, seed=1), play(twin, seed=2)
    for player in range(3):
        assert_same_knowledge(a, b, player)
        seen = a.seen_by(player)
        assert the(GameStarted, seen) == [GameStarted("2019", 3, None, 0)]
        assert the(RoundStarted, seen) == [RoundStarted(1, 0, None)]
        assert the(CardSetAside, seen) == [CardSetAside(None)]
        view = a.view(player)
        assert view.set_aside_present and view.deck_size == len(a.state.deck)
        data = ll.to_data(view)
        assert isinstance(data, dict)
        assert not {"deck", "set_aside", "seed", "hands"} & set(data)
        # the only Princess is set aside (a Guard may still name her)
        assert "Princess" not in ll.dumps(attrs.evolve(view, legal_commands=()))


def test_later_rounds_hide_their_deck_too() -> None:
    state = ll.new_game("2019-classic", 2, seed=8)
    events = list(ll.start_game("2019-classic", 2, seed=8))
    while state.round_number < 3 and not state.is_over:
        state, new = ll.step(state, ll.legal_commands(state)[0])
        events += new
    started = the(RoundStarted, events)
    assert len(started) >= 2 and all(isinstance(e, RoundStarted) and e.deck for e in started)
    for player in range(2):
        for event in the(RoundStarted, ll.events_for(player, events)):
            assert isinstance(event, RoundStarted) and event.deck is None


@pytest.mark.rule("prince.empty-deck-draws-set-aside", "setup.set-aside-face-down")
def test_the_set_aside_card_drawn_by_a_prince_is_seen_only_by_its_new_holder() -> None:
    # 2019-classic, 3 players, an empty deck: seat 0 plays the Prince on seat 1,
    # who discards the King and takes the set-aside Countess
    # eleven turns round the table from seat 1: seats 1 and 2 have had four
    discards = ((PRIEST, BARON, PRINCE), (G, G, HANDMAID, HANDMAID), (G, G, PRIEST, BARON))
    position = ll.Position(
        ruleset="2019-classic",
        players=3,
        deck=(),
        set_aside=COUNTESS,
        face_up=(),
        hands=((PRINCE, G), (KING,), (PRINCESS,)),
        discards=discards,
        current=0,
        drawn=True,
        turn_number=12,  # 15 cards held or discarded: 3 dealt and 12 drawn
    )
    # before the Prince: no one can tell the set-aside Countess from the
    # Princess that seat 2 holds
    twin_position = attrs.evolve(
        position, set_aside=PRINCESS, hands=((PRINCE, G), (KING,), (COUNTESS,))
    )
    for player in (0, 1):
        assert_same_knowledge(from_position(position), from_position(twin_position), player)
        view = from_position(position).view(player)
        assert view.set_aside_present
        assert "Countess" not in ll.dumps(attrs.evolve(view, legal_commands=()))
    a = from_position(position, [PlayCard(0, PRINCE, 1)])
    assert the(CardDrawn, a.seen_by(1)) == [CardDrawn(1, COUNTESS, True)]
    for other in (0, 2):
        assert the(CardDrawn, a.seen_by(other)) == [CardDrawn(1, None, True)]
        assert the(PositionEstablished, a.seen_by(other)) == [PositionEstablished(None)]
    assert not a.view(0).set_aside_present
    # the deck was empty, so the round ends and every hand is shown
    (ended,) = the(RoundEnded, a.events)
    assert isinstance(ended, RoundEnded)
    assert ended.revealed == ((0, G), (1, COUNTESS), (2, PRINCESS))


# --------------------------------------------------------------------------
# the end of a round


@pytest.mark.rule("round.end-deck-empty")
def test_an_empty_deck_round_end_shows_every_remaining_hand_to_everyone() -> None:
    # 2019-classic, seat 1 is out; seat 0 plays the Handmaid on an empty deck
    position = ll.Position(
        ruleset="2019-classic",
        players=3,
        deck=(),
        set_aside=G,
        face_up=(),
        hands=((HANDMAID, KING), (), (BARON,)),
        discards=(
            (G, G, G),
            (G, PRIEST, PRINCE, PRIEST, PRINCESS),
            (BARON, HANDMAID, PRINCE, COUNTESS),
        ),
        current=0,
        drawn=True,
        out=(1,),
        turn_number=12,  # 15 cards held or discarded: 3 dealt and 12 drawn
    )
    game = from_position(position, [PlayCard(0, HANDMAID)])
    result = game.state.round_result
    assert result is not None and result.reason is RoundEndReason.DECK_EMPTY
    assert result.revealed == ((0, KING), (2, BARON))  # the player out shows nothing
    for player in range(3):
        assert game.view(player).round_result == result
        assert the(RoundEnded, game.seen_by(player)) == [
            RoundEnded(RoundEndReason.DECK_EMPTY, (0,), ((0, KING), (2, BARON)))
        ]


@pytest.mark.rule("round.end-one-player-left")
def test_the_last_player_standing_does_not_show_their_card() -> None:
    # 2 players: set aside Guard, three face up; seat 0: Guard, then draws a
    # Baron; seat 1: Priest. Seat 0 names the Priest and is left alone.
    deck = stacked("2019-classic", [G, G, G, HANDMAID, G, PRIEST, BARON])
    twin = swapped(deck, (6, PRINCESS))  # the survivor keeps the Princess instead
    command = [PlayCard(0, G, 1, PRIEST)]
    a = play(deck, command, ruleset="2019-classic", players=2)
    b = play(twin, command, ruleset="2019-classic", players=2)
    result = a.state.round_result
    assert result is not None and result.reason is RoundEndReason.ONE_PLAYER_LEFT
    assert result.winners == (0,) and result.revealed == ()
    assert a.view(1).round_result == result
    assert_same_knowledge(a, b, 1)


# --------------------------------------------------------------------------
# views in general


def test_a_view_holds_only_public_fields_and_the_players_own_hand() -> None:
    state = ll.new_game("2019", 4, seed=21)
    for player in range(4):
        view = ll.view(state, player)
        assert view.hand == state.hands[player]
        assert view.hand_sizes == (2, 1, 1, 1)
        assert view.legal_commands == (ll.legal_commands(state) if player == 0 else ())
        assert ll.loads(ll.dumps(view), PlayerView) == view
        if player == 0:
            continue  # the Guard's legal guesses name every card
        text = ll.dumps(view)
        for other in range(4):
            for card in state.hands[other]:
                if other != player and card not in view.hand:
                    assert str(card) not in text, f"player {player} sees {card} of {other}"


def test_view_refuses_a_seat_that_is_not_in_the_game() -> None:
    state = ll.new_game("2019", 2)
    for seat in (-1, 2):
        with pytest.raises(ValueError):
            ll.view(state, seat)


def test_events_for_redacts_each_event_as_redact_does() -> None:
    game = play(stacked("2019", [G, PRIEST, KING, BARON, HANDMAID]), [PlayCard(0, PRIEST, 1)])
    for player in range(3):
        assert game.seen_by(player) == tuple(ll.redact(e, player) for e in game.events)
        for event in game.seen_by(player):
            assert ll.loads(ll.dumps(event)) == event


# --------------------------------------------------------------------------
# Premium: Baroness, Cardinal, Dowager Queen, Assassin, Bishop

BISHOP, DOWAGER, BARONESS, CARDINAL = Card.BISHOP, Card.DOWAGER_QUEEN, Card.BARONESS, Card.CARDINAL
ASSASSIN, SYCOPHANT, COUNT, JESTER = Card.ASSASSIN, Card.SYCOPHANT, Card.COUNT, Card.JESTER


def premium_game(deck: tuple[Card, ...], commands: Sequence[Command] = ()) -> Game:
    return play(deck, commands, ruleset="premium", players=5)


@pytest.mark.rule("baroness.look-one-or-two")
def test_only_the_baroness_player_sees_the_one_hand_looked_at() -> None:
    # set aside Guard; deal Baroness, King, Baron, Handmaid, Count; seat 0 draws a Guard
    deck = stacked("premium", [G, BARONESS, KING, BARON, HANDMAID, COUNT, G])
    twin = swapped(deck, (2, PRINCESS))  # seat 1 holds the Princess instead
    command = [PlayCard(0, BARONESS, 1)]
    a, b = premium_game(deck, command), premium_game(twin, command)
    assert the(HandSeen, a.seen_by(0)) == [HandSeen(0, 1, KING, BARONESS)]
    assert a.view(0).sightings == (Sighting(0, 1, KING, 1, BARONESS),)
    for other in (1, 2, 3, 4):
        assert the(HandSeen, a.seen_by(other)) == [HandSeen(0, 1, None, BARONESS)]
        assert a.view(other).sightings == ()
    for other in (2, 3, 4):
        assert_same_knowledge(a, b, other)
    assert_different_knowledge(a, b, 0)


@pytest.mark.rule("baroness.look-one-or-two")
def test_only_the_baroness_player_sees_the_two_hands_looked_at() -> None:
    deck = stacked("premium", [G, BARONESS, KING, BARON, HANDMAID, COUNT, G])
    twin = swapped(deck, (4, SYCOPHANT))  # seat 3 holds a Sycophant instead
    command = [PlayCard(0, BARONESS, 1, None, 3)]
    a, b = premium_game(deck, command), premium_game(twin, command)
    assert the(HandSeen, a.seen_by(0)) == [
        HandSeen(0, 1, KING, BARONESS),
        HandSeen(0, 3, HANDMAID, BARONESS),
    ]
    assert a.view(0).sightings == (
        Sighting(0, 1, KING, 1, BARONESS),
        Sighting(0, 3, HANDMAID, 1, BARONESS),
    )
    for other in (1, 2, 4):
        assert the(HandSeen, a.seen_by(other)) == [
            HandSeen(0, 1, None, BARONESS),
            HandSeen(0, 3, None, BARONESS),
        ]
        assert_same_knowledge(a, b, other)
    assert_different_knowledge(a, b, 0)


@pytest.mark.rule("cardinal.swap-two-players", "cardinal.optional-look")
def test_after_a_cardinal_swap_each_swapped_player_knows_what_the_other_holds() -> None:
    # seat 0: Cardinal, then draws a Guard; seat 1: Princess; seat 2: Baron
    deck = stacked("premium", [G, CARDINAL, PRINCESS, BARON, HANDMAID, COUNT, G])
    twin = swapped(deck, (2, COUNTESS))  # seat 1 holds the Countess instead
    swap = [PlayCard(0, CARDINAL, 1, None, 2)]
    a, b = premium_game(deck, swap), premium_game(twin, swap)
    assert a.view(1).hand == (BARON,) and a.view(2).hand == (PRINCESS,)
    assert a.view(1).sightings == (Sighting(1, 2, PRINCESS, 1, CARDINAL),)
    assert a.view(2).sightings == (Sighting(2, 1, BARON, 1, CARDINAL),)
    # the Cardinal's player has not looked yet: it knows nothing of the hands
    for other in (0, 3, 4):
        assert a.view(other).sightings == ()
        assert a.view(other).pending == (1, 2)
        assert_same_knowledge(a, b, other)
    assert a.view(0).legal_commands == (LookAtHand(0, 1), LookAtHand(0, 2), Decline(0))
    # declining, it never learns them
    a_decline = premium_game(deck, [*swap, Decline(0)])
    b_decline = premium_game(twin, [*swap, Decline(0)])
    for other in (0, 3, 4):
        assert_same_knowledge(a_decline, b_decline, other)
    # looking, it learns the hand it picked, and only it
    a_look = premium_game(deck, [*swap, LookAtHand(0, 2)])
    b_look = premium_game(twin, [*swap, LookAtHand(0, 2)])
    assert the(HandSeen, a_look.seen_by(0)) == [HandSeen(0, 2, PRINCESS, CARDINAL)]
    assert a_look.view(0).sightings == (Sighting(0, 2, PRINCESS, 1, CARDINAL),)
    assert_different_knowledge(a_look, b_look, 0)
    for other in (3, 4):
        assert the(HandSeen, a_look.seen_by(other)) == [HandSeen(0, 2, None, CARDINAL)]
        assert_same_knowledge(a_look, b_look, other)


@pytest.mark.rule("cardinal.swap-two-players")
def test_a_cardinal_swap_with_its_own_player_shows_each_the_other_s_new_card() -> None:
    deck = stacked("premium", [G, CARDINAL, PRINCESS, BARON, HANDMAID, COUNT, G])
    game = premium_game(deck, [PlayCard(0, CARDINAL, 0, None, 1), Decline(0)])
    assert game.view(0).hand == (PRINCESS,)
    assert game.view(0).sightings == (Sighting(0, 1, G, 1, CARDINAL),)
    assert game.view(1).sightings == (Sighting(1, 0, PRINCESS, 1, CARDINAL),)


@pytest.mark.rule("dowager-queen.secret-comparison", "dowager-queen.tie-no-effect")
def test_a_dowager_queen_comparison_is_seen_only_by_the_two_players() -> None:
    # seat 0: Dowager Queen, then draws a Sycophant (4); seat 1: Handmaid (4), a tie
    deck = stacked("premium", [G, DOWAGER, HANDMAID, BARON, PRIEST, COUNT, SYCOPHANT])
    twin = swapped(deck, (2, SYCOPHANT))  # seat 1's 4 is the other Sycophant
    command = [PlayCard(0, DOWAGER, 1)]
    a, b = premium_game(deck, command), premium_game(twin, command)
    assert not a.state.out and not b.state.out
    for participant in (0, 1):
        assert the(HandsCompared, a.seen_by(participant)) == [
            HandsCompared(0, 1, SYCOPHANT, HANDMAID, DOWAGER)
        ]
    assert a.view(0).sightings == (Sighting(0, 1, HANDMAID, 1, DOWAGER),)
    assert a.view(1).sightings == (Sighting(1, 0, SYCOPHANT, 1, DOWAGER),)
    for other in (2, 3, 4):
        assert the(HandsCompared, a.seen_by(other)) == [HandsCompared(0, 1, None, None, DOWAGER)]
        assert a.view(other).sightings == ()
        assert_same_knowledge(a, b, other)
    assert_different_knowledge(a, b, 0)


@pytest.mark.rule("assassin.guard-player-knocked-out", "assassin.discard-and-redraw")
def test_the_assassin_is_revealed_to_everyone_but_its_replacement_is_not() -> None:
    # seat 0: Guard, then draws a Priest; seat 1: the Assassin, who redraws a King
    deck = stacked("premium", [G, G, ASSASSIN, BARON, HANDMAID, COUNT, PRIEST, KING])
    twin = swapped(deck, (7, PRINCESS))  # the Assassin's holder redraws the Princess
    command = [PlayCard(0, G, 1, 5)]
    a, b = premium_game(deck, command), premium_game(twin, command)
    for player in range(5):
        seen = a.seen_by(player)
        assert the(CardRevealed, seen) == [CardRevealed(1, ASSASSIN)]
        assert the(PlayerEliminated, seen) == [
            PlayerEliminated(0, EliminationReason.ASSASSIN, (PRIEST,))
        ]
        assert a.view(player).discards[1] == (ASSASSIN,)
    # the draws: seat 0's at the start, then the Assassin's replacement
    assert the(CardDrawn, a.seen_by(1))[1] == CardDrawn(1, KING)
    for other in (0, 2, 3, 4):
        assert the(CardDrawn, a.seen_by(other))[1] == CardDrawn(1, None)
        assert_same_knowledge(a, b, other)


@pytest.mark.rule("bishop.correct-number-token", "bishop.target-may-redraw")
def test_a_bishop_token_is_public_but_shows_only_the_number() -> None:
    """Everyone sees the token, so everyone learns the target holds a 4;
    nobody but the target learns whether it is a Handmaid or a Sycophant.
    Only the target may answer the redraw."""
    # seat 0: Bishop, then draws a Guard; seat 1: Handmaid (4)
    deck = stacked("premium", [G, BISHOP, HANDMAID, BARON, PRIEST, COUNT, G])
    twin = swapped(deck, (2, SYCOPHANT))
    command = [PlayCard(0, BISHOP, 1, 4)]
    a, b = premium_game(deck, command), premium_game(twin, command)
    for player in range(5):
        seen = a.seen_by(player)
        assert the(TokenAwarded, seen) == [TokenAwarded(0, TokenReason.BISHOP, 1)]
        assert the(RedrawOffered, seen) == [RedrawOffered(1)]
        view = a.view(player)
        assert view.tokens == (1, 0, 0, 0, 0)
        assert view.pending == (1,) and view.decision is Decision.REDRAW
        assert view.legal_commands == ((Redraw(1), Decline(1)) if player == 1 else ())
    for other in (0, 2, 3, 4):
        assert_same_knowledge(a, b, other)
    # declined, the card stays hidden; redrawn, it goes face up
    declined = premium_game(deck, [*command, Decline(1)])
    declined_twin = premium_game(twin, [*command, Decline(1)])
    for other in (0, 2, 3, 4):
        assert_same_knowledge(declined, declined_twin, other)
    redrawn = premium_game(deck, [*command, Redraw(1)])
    assert redrawn.view(3).discards[1] == (HANDMAID,)


def test_the_sycophant_s_requirement_and_the_jester_s_mark_are_public() -> None:
    # seat 0: Jester, draws a Guard; seat 1: Sycophant, draws a Cardinal
    deck = stacked("premium", [G, JESTER, SYCOPHANT, PRIEST, COUNT, BARON, G, CARDINAL])
    game = premium_game(deck, [PlayCard(0, JESTER, 3), PlayCard(1, SYCOPHANT, 0)])
    for player in range(5):
        view = game.view(player)
        assert view.marks == ((0, 3),) and view.required == 0
        assert the(PlayerMarked, game.seen_by(player)) == [PlayerMarked(0, 3)]
        assert the(ChoiceRestricted, game.seen_by(player)) == [ChoiceRestricted(1, 0)]


def test_events_for_redacts_every_premium_event_that_hides_a_card() -> None:
    """A whole 5-player Premium game (first legal command each time, which
    meets Cardinals' looks and Bishops' redraws): each player's stream hides
    every card they may not see, and nothing else."""
    state = ll.new_game("premium", 5, seed=1)
    events = list(ll.start_game("premium", 5, seed=1))
    while not state.is_over:
        state, new = ll.step(state, ll.legal_commands(state)[0])
        events += new
    kinds = {type(e) for e in events}
    assert {HandSeen, HandsTraded, LookOffered, RedrawOffered} <= kinds
    for player in range(5):
        seen = ll.events_for(player, events)
        assert seen == tuple(ll.redact(e, player) for e in events)
        for event, shown in zip(events, seen, strict=True):
            if isinstance(event, HandSeen):
                assert (shown == event) == (event.viewer == player)
            elif isinstance(event, HandsCompared):
                assert (shown == event) == (player in (event.player, event.opponent))
            elif isinstance(event, CardDrawn | CardDealt):
                assert (shown == event) == (event.player == player)
            elif isinstance(event, RoundStarted):
                assert shown == attrs.evolve(event, deck=None)
            elif isinstance(event, GameStarted | CardSetAside | PositionEstablished):
                assert shown != event
            else:
                assert shown == event, event


# --------------------------------------------------------------------------
# what a Chancellor's player knows of the bottom of the deck (2019)


@pytest.mark.rule("chancellor.return-bottom-any-order")
def test_deck_bottom_lists_a_chancellor_player_s_returned_cards() -> None:
    # seat 0: Chancellor, draws a Guard, then the Spy and the Princess
    deck = stacked("2019", [G, CHANCELLOR, PRIEST, BARON, G, SPY, PRINCESS])
    game = play(deck, [PlayCard(0, CHANCELLOR), KeepCard(0, PRINCESS, (G, SPY))])
    assert game.view(0).deck_bottom == (G, SPY)  # top first: the Spy is the bottom card
    assert game.state.deck[-2:] == (G, SPY)
    for other in (1, 2):
        assert game.view(other).deck_bottom == ()


def chancellors_on_a_short_deck() -> tuple[ll.Position, list[Command]]:
    """2019, 3 players, turn 10, seven cards left: seat 0 and then seat 1
    play a Chancellor and return two cards each."""
    position = ll.Position(
        ruleset="2019",
        players=3,
        deck=(HANDMAID, PRINCE, KING, COUNTESS, PRIEST, HANDMAID, G),
        set_aside=G,
        face_up=(),
        hands=((CHANCELLOR, G), (CHANCELLOR,), (PRINCESS,)),
        discards=((G, SPY, BARON), (G, PRIEST, SPY), (G, BARON, PRINCE)),
        current=0,
        drawn=True,
        turn_number=10,
    )
    commands: list[Command] = [
        # seat 0 draws Handmaid and Prince, returns the Handmaid then the Guard
        PlayCard(0, CHANCELLOR),
        KeepCard(0, PRINCE, (HANDMAID, G)),
        # seat 1 draws the King, plays its Chancellor: Countess, Priest
        PlayCard(1, CHANCELLOR),
        KeepCard(1, KING, (COUNTESS, PRIEST)),
    ]
    return position, commands


@pytest.mark.rule("chancellor.return-bottom-any-order")
def test_deck_bottom_marks_cards_below_one_s_own_returned_by_others() -> None:
    """Seat 0's cards went under first, seat 1's under them: seat 0 knows
    its cards and that two unknown cards lie below them; seat 1 knows its
    own, which end the deck. Draws from the top then eat into them."""
    position, commands = chancellors_on_a_short_deck()
    game = from_position(position, commands[:2])  # seat 1 has drawn the King
    assert game.state.deck == (COUNTESS, PRIEST, HANDMAID, G, HANDMAID, G)
    assert game.view(0).deck_bottom == (HANDMAID, G)
    assert game.view(1).deck_bottom == ()
    game = from_position(position, commands)  # seat 2 has drawn a Handmaid
    assert game.state.deck == (G, HANDMAID, G, COUNTESS, PRIEST)
    assert game.view(0).deck_bottom == (HANDMAID, G, None, None)
    assert game.view(1).deck_bottom == (COUNTESS, PRIEST)
    assert game.view(2).deck_bottom == ()
    # seat 2's Handmaid; seat 0 draws the Guard and plays it (a wrong
    # guess); seat 1 draws seat 0's Handmaid
    later = [*commands, PlayCard(2, HANDMAID), PlayCard(0, G, 1, PRIEST)]
    game = from_position(position, later)
    assert game.state.deck == (G, COUNTESS, PRIEST)
    assert game.view(0).deck_bottom == (G, None, None)
    assert game.view(1).deck_bottom == (COUNTESS, PRIEST)
