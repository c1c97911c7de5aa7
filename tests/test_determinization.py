"""Tests of :mod:`loveletter.determinization`: the samples show the player
their own view, play on, never exclude the truth, cover exactly the
assignments that a brute force finds consistent and do so uniformly (a
chi-square test with a stated false-alarm rate, shown to catch a biased
sampler), return the truth no more often than chance, ignore what the
player cannot see, and use what the player learnt.

The brute force (:func:`consistent_assignments`) shares nothing with the
sampler: it replays the round with the engine from every deal and every
command of the other player that could have been given, keeping those
whose events and views for the player are the ones observed.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from itertools import permutations

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import loveletter as ll
from loveletter import determinization
from loveletter.cards import Card
from loveletter.commands import Command, PlayCard
from loveletter.determinization import (
    Knowledge,
    _admits,
    knowledge_of,
    sample_consistent_state,
)
from loveletter.events import (
    CardDealt,
    CardDrawn,
    CardPlayed,
    CardRemovedFaceUp,
    CardRevealed,
    CardsReturned,
    ChancellorDrew,
    Event,
    HandsCompared,
    PlayerEliminated,
    PositionEstablished,
    RoundStarted,
)
from loveletter.rulesets import get_ruleset
from loveletter.state import GameState, TableSettings
from loveletter.views import PlayerView

#: what a player cannot see: the other hands (by seat), the deck, the set-aside card
Hidden = tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...], Card | None]

#: the chance that a uniformity test fails on a correct sampler (each test
#: uses fixed seeds, so a run is deterministic; this is the rate at which
#: another choice of seeds would fail)
FALSE_ALARM = 1e-4


def hidden(state: GameState, player: int) -> Hidden:
    others = tuple(hand for seat, hand in enumerate(state.hands) if seat != player)
    return others, state.deck, state.set_aside


def chi_square_sf(statistic: float, freedom: int) -> float:
    """P(X >= statistic) for a chi-square variable with ``freedom``
    degrees: the regularized upper incomplete gamma Q(k/2, x/2), by its
    series below a + 1 and its continued fraction above (Numerical
    Recipes, 6.2)."""
    a, x = freedom / 2, statistic / 2
    if x <= 0:
        return 1.0
    scale = math.exp(-x + a * math.log(x) - math.lgamma(a))
    if x < a + 1:
        term = total = 1 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= x / n
            total += term
        return 1 - total * scale
    tiny = 1e-300
    b = x + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1 / (d if abs(d) > tiny else tiny)
        c = b + an / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return scale * h


def uniformity_p(counts: Counter[Hidden], support: set[Hidden]) -> float:
    """The chi-square test's p-value for ``counts`` drawn uniformly from ``support``."""
    total = sum(counts.values())
    expected = total / len(support)
    statistic = sum((counts[item] - expected) ** 2 / expected for item in support)
    return chi_square_sf(statistic, len(support) - 1)


def test_chi_square_tail_matches_known_values() -> None:
    # chi-square quantiles from the tables: P(X >= q) for df degrees
    assert chi_square_sf(3.841458820694124, 1) == pytest.approx(0.05, rel=1e-9)
    assert chi_square_sf(18.307038053275146, 10) == pytest.approx(0.05, rel=1e-9)
    assert chi_square_sf(2.0, 2) == pytest.approx(math.exp(-1.0), rel=1e-12)
    # and scipy.stats.chi2.sf's values, on either branch of the computation
    assert chi_square_sf(0.5, 7) == pytest.approx(0.9994464813904249, rel=1e-12)
    assert chi_square_sf(70.0, 29) == pytest.approx(3.0321826017799458e-05, rel=1e-9)
    assert chi_square_sf(150.0, 99) == pytest.approx(0.0007204453957169282, rel=1e-9)


# --------------------------------------------------------------------------
# random games


def play(
    ruleset: str, players: int, seed: int, decks: int = 1, rounds: int = 1, limit: int = 300
) -> Iterator[tuple[GameState, tuple[Event, ...]]]:
    """A game of uniformly random commands: each state with the events that
    led to it (the deal first)."""
    table = None if decks == 1 else TableSettings(decks=decks)
    state = ll.new_game(ruleset, players, seed=seed, settings=table)
    yield state, ll.start_game(ruleset, players, seed=seed, settings=table)
    rng = random.Random(seed)
    for _ in range(limit):
        if state.is_over or (state.round_over and state.round_number >= rounds):
            return
        state, events = ll.step(state, rng.choice(ll.legal_commands(state)))
        yield state, events


def with_knowledge(
    moments: Iterator[tuple[GameState, tuple[Event, ...]]], players: int
) -> Iterator[tuple[GameState, list[Knowledge]]]:
    """Each state with every seat's knowledge of it."""
    knowledge = [Knowledge.start(seat) for seat in range(players)]
    for state, events in moments:
        knowledge = [known.observe(events) for known in knowledge]
        yield state, knowledge


def play_on(state: GameState, rng: random.Random, commands: int) -> None:
    for _ in range(commands):
        legal = ll.legal_commands(state)
        if not legal:
            return
        state = ll.push(state, rng.choice(legal))


CONFIGS = (
    ("2019", 2, 1),
    ("2019", 5, 1),
    ("2019-classic", 3, 1),
    ("premium", 2, 1),
    ("premium", 7, 1),
    ("online", 4, 2),
    ("online", 6, 1),
)


@pytest.mark.parametrize(("ruleset", "players", "decks"), CONFIGS)
@settings(max_examples=4)
@given(seed=st.integers(0, 2**32 - 1))
def test_samples_show_the_view_admit_the_truth_and_play_on(
    ruleset: str, players: int, decks: int, seed: int
) -> None:
    rng = random.Random(seed)
    for state, knowledge in with_knowledge(play(ruleset, players, seed, decks, rounds=2), players):
        player = rng.randrange(players)
        seen = ll.view(state, player)
        for known in (knowledge[player], None):
            assert _admits(seen, known, state)
            sample = sample_consistent_state(seen, rng, known)
            assert ll.view(sample, player) == seen
            assert sample.card_count() == state.card_count()
            assert sample.seed != state.seed
            if known is not None:  # every sighting of the round, the others' too
                assert [(s.viewer, s.owner, s.turn, s.via) for s in sample.sightings] == [
                    (s.viewer, s.owner, s.turn, s.via) for s in state.sightings
                ]
                # what others saw of the player's own hand, the player knows
                for drawn, true in zip(sample.sightings, state.sightings, strict=True):
                    assert drawn.card == true.card or drawn.owner != player
            play_on(sample, rng, 4)


# --------------------------------------------------------------------------
# the brute force


def deck_cards(events: Sequence[Event]) -> tuple[list[Card | None], bool]:
    """The deck cards a command's events take, top first (``None``: hidden
    from the player), and whether they draw the set-aside card."""
    cards: list[Card | None] = []
    from_set_aside = False
    for event in events:
        if isinstance(event, CardDealt | CardRemovedFaceUp):
            cards.append(event.card)
        elif isinstance(event, CardDrawn):
            if event.from_set_aside:
                from_set_aside = True
            else:
                cards.append(event.card)
        elif isinstance(event, ChancellorDrew):
            cards.extend(event.cards if event.cards is not None else [None] * event.count)
    return cards, from_set_aside


def fillings(pool: Counter[Card], pattern: Sequence[Card | None]) -> list[tuple[Card, ...]]:
    """Every distinct way to fill ``pattern`` (seen cards, ``None`` hidden) from ``pool``."""
    left = pool.copy()
    left.subtract(card for card in pattern if card is not None)
    if any(count < 0 for count in left.values()):
        return []
    result = []
    for fill in sorted(set(permutations(sorted(left.elements()), pattern.count(None)))):
        it = iter(fill)
        result.append(tuple(card if card is not None else next(it) for card in pattern))
    return result


#: a state whose undecided deck cards (the first ``undecided``) and, if
#: ``open_aside``, set-aside card are placeholders, with the cards not yet
#: placed
Node = tuple[GameState, tuple[Card, ...], int, bool]


def canonical(state: GameState, pool: Counter[Card], undecided: int, open_aside: bool) -> Node:
    """The node with its placeholders in a fixed order, so that histories
    reaching the same situation meet."""
    filler = sorted(pool.elements())
    table = state.table
    if open_aside:
        table = attrs.evolve(table, set_aside=filler[-1])
    deck = (*filler[:undecided], *state.deck[undecided:])
    return attrs.evolve(state, deck=deck, table=table), tuple(filler), undecided, open_aside


def consistent_assignments(
    ruleset: str,
    seed: int,
    groups: Sequence[tuple[Event, ...]],
    commands: Sequence[Command],
    views: Sequence[PlayerView],
    player: int,
) -> set[Hidden]:
    """Every hidden assignment of a two-player round's current moment that
    some deal and some commands of the other player make, with the events
    and views the player saw (``groups[0]`` deals the round, then each
    command's events; ``views[i]`` follows ``groups[i]``).

    Breadth first over the commands, the deck decided only as it is drawn:
    before each command, every filling of the cards it takes from the pool
    of cards not yet placed, then every command of the other player that
    shows the same card played (or the player's own command), kept when the
    events and the view for the player are the observed ones."""
    observed = [ll.events_for(player, events) for events in groups]
    everything = Counter(get_ruleset(ruleset).deck_for(2))
    pattern, _ = deck_cards(observed[0])
    nodes: set[Node] = set()
    for dealt in fillings(everything, pattern):
        pool = everything.copy()
        pool.subtract(dealt)
        undealt = sorted(pool.elements())
        deck = [undealt[-1], *dealt, *undealt[:-1]]  # the set-aside card first, a placeholder
        dealing = ll.start_game(ruleset, 2, seed=seed, first_player=0, deck=deck)
        if ll.events_for(player, dealing) != observed[0]:
            continue
        state = ll.new_game(ruleset, 2, seed=seed, first_player=0, deck=deck)
        if ll.view(state, player) == views[0]:
            nodes.add(canonical(state, +pool, len(undealt) - 1, True))
    for index, command in enumerate(commands, start=1):
        pattern, from_set_aside = deck_cards(observed[index])
        reached: set[Node] = set()
        for state, pool_cards, undecided, open_aside in nodes:
            pool = Counter(pool_cards)
            taken = min(len(pattern), undecided)
            asides: list[Card | None] = [None]
            if from_set_aside and open_aside:
                asides = [*sorted(set(pool))]
            for aside in asides:
                rest = pool.copy()
                before = state
                if aside is not None:
                    rest[aside] -= 1
                    before = attrs.evolve(state, table=attrs.evolve(state.table, set_aside=aside))
                for top in fillings(+rest, pattern[:taken]):
                    left = +rest
                    left.subtract(top)
                    drawn = attrs.evolve(before, deck=(*top, *before.deck[taken:]))
                    for move in candidates(drawn, command, player):
                        try:
                            after, events = ll.step(drawn, move)
                        except ll.IllegalCommand:
                            continue
                        if ll.events_for(player, events) != observed[index]:
                            continue
                        if ll.view(after, player) != views[index]:
                            continue
                        still_open = open_aside and aside is None
                        reached.add(canonical(after, +left, undecided - taken, still_open))
        nodes = reached
    result: set[Hidden] = set()
    for state, pool_cards, undecided, open_aside in nodes:
        others = tuple(hand for seat, hand in enumerate(state.hands) if seat != player)
        places = undecided + open_aside
        for order in set(permutations(pool_cards, places)):
            left_deck = (*order[:undecided], *state.deck[undecided:])
            aside = order[undecided] if open_aside else state.set_aside
            result.add((others, left_deck, aside))
    return result


def candidates(state: GameState, command: Command, player: int) -> list[Command]:
    """The player's own command, or the other's that could show the same."""
    if state.to_act == player:
        return [command]
    legal = ll.legal_commands(state)
    if isinstance(command, PlayCard):
        shown = (command.card, command.target, command.guess, command.second_target)
        return [
            c
            for c in legal
            if isinstance(c, PlayCard) and (c.card, c.target, c.guess, c.second_target) == shown
        ]
    return [c for c in legal if type(c) is type(command)]


@attrs.frozen(eq=False)
class Scenario:
    state: GameState
    player: int
    view: PlayerView
    knowledge: Knowledge
    consistent: set[Hidden]


#: two-player rounds of random commands (edition, seed, commands) that end
#: late in the round with the player to act and few consistent assignments;
#: between them: Guards that missed, Priest looks, trades, comparisons,
#: Chancellors of either player
SCENARIOS = (
    ("2019", 0, 12),
    ("2019", 28, 12),
    ("2019", 11, 10),
    ("2019-classic", 8, 6),
    ("premium", 21, 6),
    ("premium", 14, 5),
)


@cache
def scenario(ruleset: str, seed: int, count: int) -> Scenario:
    state = ll.new_game(ruleset, 2, seed=seed, first_player=0)
    groups = [ll.start_game(ruleset, 2, seed=seed, first_player=0)]
    states = [state]
    commands: list[Command] = []
    rng = random.Random(seed)
    for _ in range(count):
        command = rng.choice(ll.legal_commands(state))
        state, events = ll.step(state, command)
        commands.append(command)
        groups.append(events)
        states.append(state)
    player = state.to_act
    assert player is not None and not state.round_over
    views = [ll.view(s, player) for s in states]
    consistent = consistent_assignments(ruleset, seed, groups, commands, views, player)
    knowledge = knowledge_of(player, [event for events in groups for event in events])
    return Scenario(state, player, views[-1], knowledge, consistent)


def draw(case: Scenario, samples: int, seed: int) -> Counter[Hidden]:
    rng = random.Random(seed)
    return Counter(
        hidden(sample_consistent_state(case.view, rng, case.knowledge), case.player)
        for _ in range(samples)
    )


@pytest.mark.parametrize("where", SCENARIOS)
def test_samples_are_uniform_over_exactly_the_consistent_assignments(
    where: tuple[str, int, int],
) -> None:
    case = scenario(*where)
    assert 4 <= len(case.consistent) <= 40
    assert hidden(case.state, case.player) in case.consistent
    counts = draw(case, 60 * len(case.consistent), seed=sum(map(ord, where[0])) + where[1])
    assert set(counts) == case.consistent
    assert uniformity_p(counts, case.consistent) > FALSE_ALARM


@pytest.mark.parametrize("where", SCENARIOS)
def test_the_truth_comes_back_no_more_often_than_chance(where: tuple[str, int, int]) -> None:
    case = scenario(*where)
    samples = 60 * len(case.consistent)
    truth = draw(case, samples, seed=7 + where[1])[hidden(case.state, case.player)]
    # two cells, the truth and the rest: a chi-square test of 1 degree
    expected = samples / len(case.consistent)
    statistic = (truth - expected) ** 2 / expected + (truth - expected) ** 2 / (samples - expected)
    assert chi_square_sf(statistic, 1) > FALSE_ALARM


def test_the_uniformity_test_catches_a_sampler_that_prefers_the_truth() -> None:
    case = scenario(*SCENARIOS[0])
    truth = hidden(case.state, case.player)
    rng = random.Random(3)

    def biased() -> Hidden:
        if rng.random() < 0.1:
            return truth
        return hidden(sample_consistent_state(case.view, rng, case.knowledge), case.player)

    counts = Counter(biased() for _ in range(60 * len(case.consistent)))
    assert uniformity_p(counts, case.consistent) < FALSE_ALARM


def test_the_exact_listing_draws_uniformly_too(monkeypatch: pytest.MonkeyPatch) -> None:
    # When candidates seldom pass, the draw lists every assignment of the
    # checked places instead; forced here from the first draw.
    monkeypatch.setattr(determinization, "_TRIES", 0)
    determinization._plan.cache_clear()
    determinization._drawer.cache_clear()
    try:
        for where in SCENARIOS[:3]:
            case = scenario(*where)
            counts = draw(case, 60 * len(case.consistent), seed=where[1])
            assert set(counts) == case.consistent
            assert uniformity_p(counts, case.consistent) > FALSE_ALARM
    finally:
        determinization._plan.cache_clear()
        determinization._drawer.cache_clear()


# --------------------------------------------------------------------------
# what the sample may not depend on


def test_twin_states_give_equal_samples() -> None:
    # Two decks that differ in the set-aside card and deep in the deck, and
    # in the dealt card of a player who has not played yet: seat 0 cannot
    # tell the two games apart when it first acts.
    base = ll.new_game("2019", 4, seed=12)
    dealt = next(e for e in ll.start_game("2019", 4, seed=12) if isinstance(e, RoundStarted))
    deck = list(dealt.deck or ())
    assert len(deck) == 21
    twin = deck[:]
    twin[0], twin[-1] = twin[-1], twin[0]
    twin[-2], twin[-5] = twin[-5], twin[-2]
    twin[4], twin[-3] = twin[-3], twin[4]  # seat 3's dealt card
    assert twin != deck
    games = []
    for order in (deck, twin):
        state = ll.new_game("2019", 4, seed=12, first_player=base.current, deck=order)
        games.append(
            (state, ll.start_game("2019", 4, seed=12, first_player=base.current, deck=order))
        )
    (first, first_log), (second, second_log) = games
    player = first.current
    assert player == 0
    assert hidden(first, player) != hidden(second, player)
    assert ll.events_for(player, first_log) == ll.events_for(player, second_log)
    assert ll.view(first, player) == ll.view(second, player)
    for seed in range(5):
        samples = [
            sample_consistent_state(
                ll.view(state, player), random.Random(seed), knowledge_of(player, log)
            )
            for state, log in games
        ]
        assert samples[0] == samples[1]
        blind = [
            sample_consistent_state(ll.view(state, player), random.Random(seed))
            for state, _ in games
        ]
        assert blind[0] == blind[1]


def test_samples_vary_with_the_rng() -> None:
    case = scenario(*SCENARIOS[1])
    rng = random.Random(1)
    samples = {
        hidden(sample_consistent_state(case.view, rng, case.knowledge), case.player)
        for _ in range(40)
    }
    assert len(samples) > 1


# --------------------------------------------------------------------------
# what the player learnt, used


def moment(
    ruleset: str, players: int, seed: int, steps: int
) -> tuple[GameState, list[Knowledge], tuple[Event, ...]]:
    """The state after ``steps`` random commands, each seat's knowledge and
    the last events."""
    knowledge = [Knowledge.start(seat) for seat in range(players)]
    last: tuple[Event, ...] = ()
    for number, (state, events) in enumerate(play(ruleset, players, seed)):
        knowledge = [known.observe(events) for known in knowledge]
        last = events
        if number == steps:
            return state, knowledge, last
    raise AssertionError("the game ended early")


def hands_of(
    view: PlayerView, knowledge: Knowledge | None, owner: int, samples: int = 40
) -> list[tuple[Card, ...]]:
    rng = random.Random(0)
    return [sample_consistent_state(view, rng, knowledge).hands[owner] for _ in range(samples)]


@pytest.mark.parametrize(
    ("ruleset", "players", "seed", "steps"),
    [("2019", 2, 4, 2), ("2019", 4, 1, 12), ("premium", 6, 0, 17)],
)
def test_a_priest_look_that_still_holds_is_in_every_sample(
    ruleset: str, players: int, seed: int, steps: int
) -> None:
    state, knowledge, _ = moment(ruleset, players, seed, steps)
    player = state.to_act
    assert player is not None
    seen = ll.view(state, player)
    look = next(s for s in reversed(seen.sightings) if s.via is Card.PRIEST)
    # an old look (the view alone cannot vouch for it) that is still true
    assert look.turn < seen.turn_number - 1
    assert state.hands[look.owner] == (look.card,)
    assert all(hand == (look.card,) for hand in hands_of(seen, knowledge[player], look.owner))
    assert not all(hand == (look.card,) for hand in hands_of(seen, None, look.owner))


@pytest.mark.parametrize(
    ("ruleset", "players", "seed", "steps"), [("2019", 3, 0, 2), ("premium", 5, 0, 3)]
)
def test_a_guard_that_missed_rules_out_its_name(
    ruleset: str, players: int, seed: int, steps: int
) -> None:
    state, knowledge, last = moment(ruleset, players, seed, steps)
    guard = next(e for e in last if isinstance(e, CardPlayed))
    assert guard.card is Card.GUARD and guard.target is not None and guard.guess is not None
    assert not any(isinstance(e, PlayerEliminated | CardRevealed) for e in last)
    rules = get_ruleset(ruleset)

    def named(hand: tuple[Card, ...]) -> bool:
        if isinstance(guard.guess, Card):
            return guard.guess in hand
        return any(rules.value(card) == guard.guess for card in hand)

    seen = ll.view(state, guard.player)
    assert not any(named(h) for h in hands_of(seen, knowledge[guard.player], guard.target))
    assert any(named(h) for h in hands_of(seen, None, guard.target, samples=200))


@pytest.mark.parametrize(("players", "seed", "steps"), [(2, 115, 6), (4, 57, 8)])
def test_a_card_seen_before_a_chancellor_stays_in_hand_or_under_the_deck(
    players: int, seed: int, steps: int
) -> None:
    state, knowledge, last = moment("2019", players, seed, steps)
    chancellor = next(e for e in last if isinstance(e, CardsReturned)).player
    player = next(
        seat
        for seat in range(players)
        if any(s.owner == chancellor for s in ll.view(state, seat).sightings)
    )
    seen = ll.view(state, player)
    card = [s for s in seen.sightings if s.owner == chancellor][-1].card
    assert card is not Card.CHANCELLOR
    rng = random.Random(0)

    def kept(known: Knowledge | None) -> list[bool]:
        return [
            card in (sample.hands[chancellor] + sample.deck[-2:])
            for sample in (sample_consistent_state(seen, rng, known) for _ in range(40))
        ]

    assert all(kept(knowledge[player]))
    assert not all(kept(None))


@pytest.mark.parametrize(
    ("ruleset", "players", "seed", "steps"), [("2019", 3, 22, 9), ("premium", 5, 17, 8)]
)
def test_a_comparison_between_others_that_tied_means_equal_values(
    ruleset: str, players: int, seed: int, steps: int
) -> None:
    state, knowledge, last = moment(ruleset, players, seed, steps)
    compared = next(e for e in last if isinstance(e, HandsCompared))
    assert not any(isinstance(e, PlayerEliminated) for e in last)
    player = next(
        seat for seat in range(players) if seat not in (compared.player, compared.opponent)
    )
    value = get_ruleset(ruleset).value
    seen = ll.view(state, player)
    rng = random.Random(0)

    def equal(known: Knowledge | None) -> list[bool]:
        samples = (sample_consistent_state(seen, rng, known) for _ in range(40))
        return [
            value(s.hands[compared.player][0]) == value(s.hands[compared.opponent][0])
            for s in samples
        ]

    assert all(equal(knowledge[player]))
    assert not all(equal(None))


@pytest.mark.parametrize(
    ("ruleset", "players", "seed", "steps", "player"),
    [("2019", 2, 30, 1, 1), ("2019", 4, 1, 7, 0), ("premium", 6, 0, 3, 0)],
)
def test_a_prince_played_means_the_countess_was_not_kept(
    ruleset: str, players: int, seed: int, steps: int, player: int
) -> None:
    state, knowledge, last = moment(ruleset, players, seed, steps)
    prince = next(e for e in last if isinstance(e, CardPlayed))
    assert prince.card is Card.PRINCE and prince.target != prince.player != player
    seen = ll.view(state, player)
    assert Card.COUNTESS in seen.unseen_cards()
    holder = prince.player
    assert all(Card.COUNTESS not in h for h in hands_of(seen, knowledge[player], holder, 60))
    assert any(Card.COUNTESS in h for h in hands_of(seen, None, holder, 60))


# --------------------------------------------------------------------------
# the view alone


def test_without_knowledge_the_returned_cards_stay_under_the_deck() -> None:
    for state, _ in play("2019", 3, 8, limit=200):
        player = state.to_act
        if player is None:
            continue
        seen = ll.view(state, player)
        if any(card is not None for card in seen.deck_bottom):
            break
    else:
        pytest.fail("no Chancellor returned a card in that game")
    for _ in range(20):
        sample = sample_consistent_state(seen, random.Random(_))
        bottom = sample.deck[len(sample.deck) - len(seen.deck_bottom) :]
        for card, known in zip(bottom, seen.deck_bottom, strict=True):
            assert known is None or card is known


def test_without_knowledge_a_hand_revealed_at_the_round_end_is_kept() -> None:
    for state, _ in play("2019", 4, 3, limit=400):
        if state.round_result is not None and state.round_result.revealed:
            break
    else:
        pytest.fail("no round ended with the deck empty")
    player = state.round_result.revealed[0][0]
    seen = ll.view(state, player)
    sample = sample_consistent_state(seen, random.Random(1))
    for seat, card in state.round_result.revealed:
        assert sample.hands[seat] == (card,)


# --------------------------------------------------------------------------
# the API


def test_observe_redacts_and_matches_knowledge_of() -> None:
    log = [event for _, events in play("2019", 3, 2, limit=20) for event in events]
    for player in range(3):
        redacted = Knowledge.start(player).observe(ll.events_for(player, log))
        assert redacted == knowledge_of(player, log)
        assert redacted == Knowledge.start(player).observe(log)
        assert redacted.knows_round


def test_knowledge_from_the_middle_of_a_game_falls_back_on_the_view() -> None:
    moments = list(play("2019", 3, 2, limit=10))
    state = moments[-1][0]
    late = Knowledge.start(0).observe(e for _, events in moments[3:] for e in events)
    assert not late.knows_round
    seen = ll.view(state, 0)
    assert sample_consistent_state(seen, random.Random(4), late) == sample_consistent_state(
        seen, random.Random(4)
    )


def test_knowledge_after_a_described_position_knows_nothing_of_its_rounds() -> None:
    state, _ = next(play("2019", 3, 2))
    knowledge = Knowledge.start(0).observe([PositionEstablished(None), RoundStarted(2, 0, None)])
    assert not knowledge.knows_round and knowledge.ruleset is None
    seen = ll.view(state, 0)
    assert ll.view(sample_consistent_state(seen, random.Random(), knowledge), 0) == seen


def test_knowledge_of_another_player_or_moment_is_refused() -> None:
    moments = list(play("2019", 3, 2, limit=10))
    log = [event for _, events in moments for event in events]
    state = moments[-1][0]
    with pytest.raises(ll.ArgumentError, match="knowledge"):
        sample_consistent_state(ll.view(state, 0), random.Random(), knowledge_of(1, log))
    earlier = knowledge_of(0, [e for _, events in moments[:-2] for e in events])
    with pytest.raises(ll.ArgumentError, match="knowledge"):
        sample_consistent_state(ll.view(state, 0), random.Random(), earlier)


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda: Knowledge.start(-1), "player"),
        (lambda: sample_consistent_state("view", random.Random()), "view"),  # type: ignore[arg-type]  # the wrong type on purpose
    ],
)
def test_wrong_arguments_are_refused(call: Callable[[], object], field: str) -> None:
    with pytest.raises(ll.ArgumentError, match=field):
        call()
