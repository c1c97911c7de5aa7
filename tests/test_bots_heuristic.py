"""The card counter (:mod:`loveletter.heuristic`) and the search bot
(:mod:`loveletter.search`): only legal commands in random games of every
edition, the counter's rules of thumb on built positions, its seeded
tie-breaks, and bots by name (:func:`loveletter.bots.make_bot`)."""

from __future__ import annotations

import io
import json
from collections import Counter
from collections.abc import Sequence

import pytest

import loveletter as ll
from loveletter.bots import BOT_NAMES, make_bot, parse_bot
from loveletter.commands import Command, KeepCard, PlayCard
from loveletter.events import (
    CardDealt,
    CardDrawn,
    CardPlayed,
    HandSeen,
    OptionDeclined,
    RedrawOffered,
    RoundStarted,
    TokenAwarded,
    TokenReason,
)
from loveletter.heuristic import CardCounterBot
from loveletter.narrative import card_name
from loveletter.positions import Position, from_position
from loveletter.search import SearchBot
from loveletter.simulation import derive_seed, seated_bots, simulate
from loveletter.state import Sighting, TableSettings

Card = ll.Card


class Checked:
    """Seats an agent and checks that each of its commands is legal, as
    the view lists them (play_game would refuse an illegal one anyway)."""

    def __init__(self, agent: ll.Agent) -> None:
        self.agent = agent
        self.chosen = 0

    def observe(self, events: tuple[ll.Event, ...]) -> None:
        observe = getattr(self.agent, "observe", None)
        if observe is not None:
            observe(events)

    def choose(self, view: ll.PlayerView) -> Command:
        command = self.agent.choose(view)
        assert command in view.legal_commands
        self.chosen += 1
        return command


TABLES = [
    ("2019", 2, None, 1),
    ("2019", 5, None, 1),
    ("2019-classic", 4, None, 1),
    ("premium", 2, None, 1),
    ("premium", 5, None, 1),
    ("premium", 8, None, 1),
    ("online", 3, 3, 1),
    ("online", 8, 2, 2),
]


@pytest.mark.parametrize(("ruleset", "players", "rounds", "decks"), TABLES)
def test_the_counter_plays_only_legal_commands(
    ruleset: str, players: int, rounds: int | None, decks: int
) -> None:
    settings = TableSettings(decks=decks) if ruleset == "online" else None
    for game in range(3):
        # counters against each other and against random bots, in turn
        agents = [
            Checked(
                CardCounterBot(derive_seed(game, seat)) if (seat + game) % 3 else ll.RandomBot(seat)
            )
            for seat in range(players)
        ]
        ll.play_game(ruleset, players, agents, seed=game, rounds=rounds, settings=settings)
        assert sum(agent.chosen for agent in agents) > 0


@pytest.mark.parametrize(("ruleset", "players", "rounds", "decks"), TABLES)
def test_the_search_bot_plays_only_legal_commands(
    ruleset: str, players: int, rounds: int | None, decks: int
) -> None:
    settings = TableSettings(decks=decks) if ruleset == "online" else None
    search = Checked(SearchBot(7, samples=8, candidates=3))
    agents: list[Checked | CardCounterBot] = [search]
    agents += [CardCounterBot(seat) for seat in range(1, players)]
    # one round, its search decisions sampled from what seat 0 observed
    record = ll.GameRecord.new(ruleset, players, seed=11, settings=settings)
    for seat, agent in enumerate(agents):
        agent.observe(record.events_for(seat))
    while not record.state.round_over:
        actor = record.state.to_act
        assert actor is not None
        before = len(record.events)
        record = record.push(agents[actor].choose(ll.view(record.state, actor)))
        for seat, agent in enumerate(agents):
            agent.observe(ll.events_for(seat, record.events[before:]))
    assert search.chosen > 0


def test_the_counter_beats_random_bots() -> None:
    # 2019, two players, seats alternating: it wins about 9 games in 10
    wins = 0
    for game in range(40):
        counter = game % 2
        agents: list[ll.Agent] = [ll.RandomBot(game), ll.RandomBot(game + 1)]
        agents[counter] = CardCounterBot(game)
        outcome = ll.play_game("2019", 2, agents, seed=game).outcome()
        assert outcome is not None  # a whole game has one
        wins += counter in outcome.winners
    assert wins >= 28


# --------------------------------------------------------------------------
# rules of thumb, on built positions: seat 0 to play


def _view(
    hand: Sequence[Card],
    others: Sequence[Card],
    discards: Sequence[Sequence[Card]] | None = None,
    *,
    ruleset: str = "2019",
    **fields: object,
) -> ll.PlayerView:
    """Seat 0's view holding ``hand`` (two cards) with the others holding
    ``others`` (one each) and the piles ``discards``; the rest of the deck
    in card order, its first card set aside."""
    players = len(others) + 1
    piles = [tuple(pile) for pile in discards] if discards else [()] * players
    left = Counter(ll.get_ruleset(ruleset).deck_for(players))
    for group in (hand, *[(card,) for card in others], *piles):
        left.subtract(group)
    rest = sorted(left.elements())
    face_up = tuple(rest[1:4]) if players == 2 else ()
    deck = tuple(rest[4:]) if players == 2 else tuple(rest[1:])
    position = Position(
        ruleset=ruleset,
        players=players,
        deck=deck,
        set_aside=rest[0],
        face_up=face_up,
        hands=(tuple(hand), *[(card,) for card in others]),
        discards=tuple(piles),
        current=0,
        drawn=True,
        turn_number=1 + sum(map(len, piles)),
        **fields,  # type: ignore[arg-type]  # the Position fields a test sets
    )
    return ll.view(from_position(position), 0)


def _seen(owner: int, card: Card, turn: int = 1) -> Sighting:
    return Sighting(viewer=0, owner=owner, card=card, turn=turn, via=Card.PRIEST)


def _choices(view: ll.PlayerView, seeds: int = 12) -> list[Command]:
    return [CardCounterBot(seed).choose(view) for seed in range(seeds)]


def test_a_guard_names_the_card_it_saw() -> None:
    view = _view(
        [Card.GUARD, Card.HANDMAID],
        [Card.BARON],
        [[Card.PRIEST], [Card.GUARD]],
        sightings=(_seen(1, Card.BARON),),
    )
    assert set(_choices(view)) == {PlayCard(0, Card.GUARD, 1, Card.BARON)}


def test_a_guard_never_names_a_card_all_of_whose_copies_are_in_sight() -> None:
    # Both Barons, both Priests and the Countess are in sight: naming them
    # cannot win; the likeliest unseen names are what it picks.
    view = _view(
        [Card.GUARD, Card.BARON],
        [Card.KING],
        [[Card.PRIEST, Card.PRIEST], [Card.BARON, Card.COUNTESS]],
    )
    unseen = Counter(view.unseen_cards())
    for command in _choices(view):
        assert isinstance(command, PlayCard)
        if command.card is Card.GUARD:
            assert isinstance(command.guess, Card)
            assert unseen[command.guess] > 0
            assert unseen[command.guess] == max(n for c, n in unseen.items() if c is not Card.GUARD)


@pytest.mark.parametrize("other", [Card.GUARD, Card.PRINCE, Card.KING, Card.COUNTESS])
def test_the_princess_is_never_played_by_choice(other: Card) -> None:
    view = _view([Card.PRINCESS, other], [Card.PRIEST, Card.BARON, Card.HANDMAID])
    for command in _choices(view):
        assert isinstance(command, PlayCard)
        assert command.card is not Card.PRINCESS
        # nor discarded with her own Prince
        assert not (command.card is Card.PRINCE and command.target == 0)


def test_a_prince_goes_to_the_player_known_to_hold_the_princess() -> None:
    view = _view(
        [Card.PRINCE, Card.HANDMAID],
        [Card.PRIEST, Card.PRINCESS, Card.GUARD],
        [[Card.PRIEST], [Card.GUARD], [Card.GUARD], [Card.GUARD]],
        sightings=(_seen(2, Card.PRINCESS),),
    )
    assert set(_choices(view)) == {PlayCard(0, Card.PRINCE, 2)}


def test_a_baron_is_played_only_when_likely_to_win() -> None:
    # Kept beside a Guard it would lose: the Guard is played instead.
    weak = _view([Card.BARON, Card.GUARD], [Card.KING])
    assert all(c.card is Card.GUARD for c in _choices(weak) if isinstance(c, PlayCard))
    # Kept beside the Princess it cannot lose.
    strong = _view([Card.BARON, Card.PRINCESS], [Card.KING])
    assert set(_choices(strong)) == {PlayCard(0, Card.BARON, 1)}


def test_the_handmaid_when_someone_knows_its_players_card() -> None:
    view = _view([Card.PRIEST, Card.HANDMAID], [Card.GUARD], [[Card.GUARD], [Card.PRIEST]])
    calm = CardCounterBot(1)
    assert calm.choose(view) == PlayCard(0, Card.PRIEST, 1)
    watched = CardCounterBot(1)
    # seat 1's Priest looked at seat 0's Priest, then seat 0 drew the Handmaid
    watched.observe(
        [
            RoundStarted(1, 0, None),
            CardDealt(0, Card.PRIEST),
            HandSeen(1, 0, None, Card.PRIEST),
            CardDrawn(0, Card.HANDMAID),
        ]
    )
    assert watched.choose(view) == PlayCard(0, Card.HANDMAID)


def test_a_chancellor_keeps_the_best_card() -> None:
    hand = (Card.CHANCELLOR, Card.SPY)
    others = ((Card.BARON,), (Card.HANDMAID,))
    left = Counter(ll.get_ruleset("2019").deck_for(3))
    left.subtract([*hand, Card.BARON, Card.HANDMAID, Card.PRINCESS, Card.GUARD])
    position = Position(
        ruleset="2019",
        players=3,
        # the Chancellor draws the Princess and a Guard
        deck=(Card.PRINCESS, Card.GUARD, *sorted(left.elements())[1:]),
        set_aside=sorted(left.elements())[0],
        face_up=(),
        hands=(hand, *others),
        discards=((), (), ()),
        current=0,
        drawn=True,
    )
    state = ll.push(from_position(position), PlayCard(0, Card.CHANCELLOR))
    view = ll.view(state, 0)
    assert view.decision is ll.Decision.CHANCELLOR
    for command in _choices(view):
        assert isinstance(command, KeepCard)
        assert command.keep is Card.PRINCESS


def test_ties_are_broken_by_the_bots_own_seed() -> None:
    # Three opponents the counter knows nothing of: every Guard target is as
    # good, and no seat is always the one aimed at.
    view = _view([Card.GUARD, Card.COUNTESS], [Card.PRIEST, Card.BARON, Card.KING])
    targets = Counter(
        c.target for c in _choices(view, 60) if isinstance(c, PlayCard) and c.card is Card.GUARD
    )
    assert set(targets) == {1, 2, 3}
    assert CardCounterBot(5).choose(view) == CardCounterBot(5).choose(view)


def test_without_events_a_sighting_out_of_date_is_dropped() -> None:
    # Seat 1 was seen with the Countess, who now lies in their pile: every
    # copy in sight, the sighting is not trusted.
    view = _view(
        [Card.PRINCE, Card.GUARD],
        [Card.PRIEST, Card.BARON],
        [[Card.PRIEST], [Card.COUNTESS], [Card.HANDMAID]],
        sightings=(_seen(1, Card.COUNTESS),),
    )
    for command in _choices(view):
        assert not (isinstance(command, PlayCard) and command.guess is Card.COUNTESS)


# --------------------------------------------------------------------------
# bots by name


def test_bots_by_name() -> None:
    assert BOT_NAMES == ("random", "counter", "search")
    assert repr(make_bot("random", 4)) == "RandomBot(seed=4)"
    assert repr(make_bot("counter", 4)) == "CardCounterBot(seed=4)"
    assert repr(make_bot("search:samples=3,playout=random", 4)) == (
        "SearchBot(seed=4, samples=3, candidates=6, playout='random')"
    )
    assert parse_bot(" counter ") == ("counter", {})
    for bad, field in [
        ("randy", "bot"),
        ("counter:samples=3", "bot"),
        ("search:samples", "bot"),
        ("search:depth=3", "bot"),
        ("search:samples=many", "samples"),
        ("search:samples=0", "samples"),
        ("search:playout=perfect", "playout"),
    ]:
        with pytest.raises(ll.ArgumentError) as caught:
            make_bot(bad, 1)
        assert caught.value.field == field


def test_random_bots_by_name_are_the_simulations_own() -> None:
    assert simulate("2019", 3, 6, 2, bots=["random"] * 3) == simulate("2019", 3, 6, 2)
    report = simulate("2019", 3, 6, 2, bots=["counter", "random", "random"])
    assert report.bots == ("counter", "random", "random")
    assert report.to_data()["bots"] == ["counter", "random", "random"]
    assert repr(seated_bots(["random", "counter"], 9)) == repr(
        [ll.RandomBot(derive_seed(9, "bot", 0)), CardCounterBot(derive_seed(9, "bot", 1))]
    )
    with pytest.raises(ValueError, match="one per seat"):
        simulate("2019", 3, 6, 2, bots=["counter", "random"])
    with pytest.raises(ll.ArgumentError, match="'randy' is not a bot"):
        simulate("2019", 2, 6, 2, bots="randy")
    with pytest.raises(ValueError, match="the fast engine plays random bots only"):
        simulate("2019", 2, 6, 2, engine="fast", bots=["counter", "random"])


def test_a_person_plays_against_bots_by_name() -> None:
    from loveletter import interactive

    assert interactive._seated(None, 3, 1) is None
    assert interactive._seated("counter", 3, 1) == ("counter", "random", "counter")
    assert interactive._seated(["counter", "search"], 3, 0) == ("random", "counter", "search")
    with pytest.raises(ll.ArgumentError, match="one per other seat"):
        interactive._seated(["counter", "search", "random"], 3, 0)
    out = io.StringIO()
    # seat 2 quits at its first move, once the two counters have played
    status = interactive.play(
        "2019", 3, seat=2, seed=1, bots="counter", stdin=io.StringIO("q\n"), stdout=out
    )
    assert status == 0 and "Game abandoned." in out.getvalue()
    # seat 0's bot is the counter seeded as simulations seed seat 0
    opening = ll.view(ll.new_game("2019", 3, seed=1), 0)
    first = CardCounterBot(derive_seed(1, "bot", 0)).choose(opening)
    assert isinstance(first, PlayCard)
    assert f"Player 0 plays the {card_name(first.card)}" in out.getvalue()


def test_the_search_bot_without_events_samples_from_the_view() -> None:
    # Never told the game (choose alone): the sampler trusts the view.
    view = _view([Card.GUARD, Card.BARON], [Card.KING, Card.PRIEST], [[Card.GUARD]] * 3)
    chosen = SearchBot(3, samples=16).choose(view)
    assert chosen in view.legal_commands
    assert SearchBot(3, samples=16).choose(view) == chosen


def test_the_search_departs_from_the_counter_only_on_evidence() -> None:
    from loveletter.search import _bounds

    low, high = _bounds([1.0, 0.0] * 8)  # mean 0.5, standard error 0.129
    assert (low, high) == pytest.approx((0.5 - 2 * 0.1291, 0.5 + 2 * 0.1291), abs=1e-4)
    assert _bounds([0.0] * 16) == (0.0, 0.0)  # as good as the default: no departure


def test_simulate_seats_bots_by_name_from_the_command_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from loveletter.cli import main

    argv = ["simulate", "--players", "2", "--games", "4", "--workers", "1", "--progress", "never"]
    assert main([*argv, "--bots", "counter,random", "--json"]) == 0
    expected = simulate("2019", 2, 4, 0, bots=["counter", "random"]).to_data()
    assert json.loads(capsys.readouterr().out) == expected
    assert main([*argv, "--bots", "counter"]) == 0
    assert "2 players, bots P0 counter, P1 counter, seed 0" in capsys.readouterr().out
    assert main([*argv, "--bots", "counter,random,random"]) == 2
    assert "--bots: one name, or one per seat (2), not 3" in capsys.readouterr().err
    assert main(["play", "--bots", "counter,counter,counter"]) == 2
    assert "one per other seat (2), not 3" in capsys.readouterr().err


def test_a_bishop_that_hit_rules_nothing_out() -> None:
    # Seat 1's Bishop named 5 at seat 2 and hit (a token, a redraw offered,
    # declined): unlike a miss, that leaves 5 possible for seat 2.
    view = _view(
        [Card.GUARD, Card.PRIEST],
        [Card.COUNTESS, Card.PRINCE, Card.BARON, Card.KING],
        [[Card.GUARD], [Card.BISHOP], [Card.GUARD], [Card.GUARD], [Card.GUARD]],
        ruleset="premium",
    )
    told = CardCounterBot(1)
    told.observe(
        [
            RoundStarted(1, 0, None),
            CardDealt(0, Card.PRIEST),
            CardPlayed(1, Card.BISHOP, 2, 5),
            TokenAwarded(1, TokenReason.BISHOP, 1),
            RedrawOffered(2),
            OptionDeclined(2),
        ]
    )
    scores = dict(zip(view.legal_commands, told.scores(view), strict=True))
    assert scores[PlayCard(0, Card.GUARD, 2, 5)] == scores[PlayCard(0, Card.GUARD, 3, 5)]
    missed = CardCounterBot(1)
    missed.observe([RoundStarted(1, 0, None), CardPlayed(1, Card.BISHOP, 2, 5)])
    scores = dict(zip(view.legal_commands, missed.scores(view), strict=True))
    assert scores[PlayCard(0, Card.GUARD, 2, 5)] < scores[PlayCard(0, Card.GUARD, 3, 5)]
