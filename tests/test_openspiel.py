"""The OpenSpiel games (loveletter.openspiel): OpenSpiel's own checks, the
chance nodes, the action strings, what observations and information states
hide, the returns, resampling, and OpenSpiel's algorithms and Shimmy's
PettingZoo wrapper running on them."""

from __future__ import annotations

import pickle
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts, outcome_sampling_mccfr
from pettingzoo.test.api_test import api_test as untyped_api_test
from shimmy import OpenSpielCompatibilityV0

import loveletter as ll
from loveletter.actions import action_table
from loveletter.encoding import observation_size
from loveletter.notation import card_text
from loveletter.openspiel import (
    GAME_NAMES,
    LoveLetterState,
    _encoder,
    history_shape,
    load_game,
    resampler,
)

# PettingZoo's check carries no annotations: typed here once
api_test: Callable[..., None] = untyped_api_test

_SEAT = len(ll.Card)  # a seat's chance outcome id is _SEAT + seat


def _random_chance(state: Any, rng: random.Random) -> None:
    outcomes, chances = zip(*state.chance_outcomes(), strict=True)
    state.apply_action(rng.choices(outcomes, chances)[0])


def _playout(state: Any, rng: random.Random, until: Callable[[Any], bool] | None = None) -> Any:
    """Play ``state`` on at random (chance by its odds) to the end, or
    until ``until(state)`` holds; the state reached."""
    while not state.is_terminal():
        if until is not None and until(state):
            break
        if state.is_chance_node():
            _random_chance(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def _dealt(state: Any, rng: random.Random) -> Any:
    """``state`` once its round is dealt."""
    while state.is_chance_node():
        _random_chance(state, rng)
    return state


# --------------------------------------------------------------------------
# OpenSpiel's own checks


@pytest.mark.parametrize(
    ("edition", "parameters", "sims", "serialize"),
    [
        ("2019", {"players": 2}, 2, True),
        ("2019", {"players": 5, "rounds": 1}, 2, False),
        ("2019-classic", {"players": 2}, 2, True),
        ("2019-classic", {"players": 4, "rounds": 2}, 2, False),
        ("premium", {"players": 3}, 1, False),
        ("premium", {"players": 6, "rounds": 1}, 2, True),
        ("online", {"players": 3, "rounds": 3}, 2, True),
        ("online", {"players": 7, "rounds": 1, "decks": 2}, 1, False),
    ],
)
def test_openspiel_random_simulation(
    edition: str, parameters: dict[str, int], sims: int, serialize: bool
) -> None:
    # sorted and unique legal actions, clones, serialization, chance
    # outcomes summing to 1, returns within the utility bounds, the game
    # no longer than max_game_length, tensors of the declared sizes
    game = load_game(edition, **parameters)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=serialize, verbose=False)


def test_games_are_registered_and_load_by_name() -> None:
    registered = {game.short_name for game in pyspiel.registered_games()}
    assert set(GAME_NAMES.values()) <= registered
    game = pyspiel.load_game("python_loveletter_online(players=4,rounds=2,decks=3)")
    assert (game.num_players(), game.get_parameters()["decks"]) == (4, 3)
    assert str(load_game("z2019")) == "python_loveletter_2019(players=2,rounds=0)"
    assert pyspiel.load_game(str(game)).get_parameters() == game.get_parameters()


@pytest.mark.parametrize(
    ("edition", "parameters", "message"),
    [
        ("online", {"rounds": 0}, "never ends"),
        ("online", {"decks": 4}, "decks"),
        ("2019", {"players": 7}, "2-6 players"),
        ("premium", {"rounds": -1}, "rounds"),
    ],
)
def test_bad_parameters_are_refused(edition: str, parameters: dict[str, int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        load_game(edition, **parameters)


def test_game_info_bounds() -> None:
    classic = load_game("2019-classic", players=2)
    # 6 tokens to win between 2 players: at most 11 rounds, each of at most
    # two decisions a card of its 16
    assert classic.max_game_length() == 11 * 2 * 16
    assert (classic.min_utility(), classic.max_utility()) == (-1.0, 1.0)
    online = load_game("online", players=4, rounds=3, decks=2)
    assert online.max_game_length() == 3 * 2 * 32
    assert (online.min_utility(), online.max_utility()) == (-1.5, 1.0)
    assert online.max_chance_outcomes() == _SEAT + 4


# --------------------------------------------------------------------------
# Chance


def test_a_deal_is_card_by_card_with_the_true_odds() -> None:
    game = load_game("2019-classic", players=2, rounds=1)
    state = game.new_initial_state()
    deck = Counter(ll.get_ruleset("2019-classic").deck_for(2))
    dealt: list[ll.Card] = []
    rng = random.Random(5)
    while state.is_chance_node():
        left = sum(deck.values())
        assert state.chance_outcomes() == [
            (int(card), count / left) for card, count in sorted(deck.items()) if count
        ]
        assert len([c for c in deck if deck[c]]) > 1  # one kind left: no node
        card = ll.Card(rng.choice(state.legal_actions()))
        assert state.action_to_string(pyspiel.PlayerId.CHANCE, int(card)).endswith(card_text(card))
        state.apply_action(int(card))
        deck[card] -= 1
        dealt.append(card)
    engine = state.engine_state
    deck_order = dealt + sorted(deck.elements())
    assert engine.set_aside == deck_order[0]
    assert engine.face_up == tuple(deck_order[1:4])
    assert (engine.hands[0][0], engine.hands[1][0]) == (deck_order[4], deck_order[5])
    assert engine.deck == tuple(deck_order[7:])


def test_a_tied_round_draws_its_first_player_uniformly() -> None:
    rng = random.Random(0)
    state = load_game("2019", players=2).new_initial_state()
    state = _playout(
        state,
        rng,
        until=lambda s: (
            s.is_chance_node()
            and s.engine_state is not None
            and len(s.engine_state.round_result.winners) == 2
        ),
    )
    assert state.chance_outcomes() == [(_SEAT, 0.5), (_SEAT + 1, 0.5)]
    second = state.child(_SEAT + 1)
    assert _dealt(second, rng).engine_state.current == 1
    assert _dealt(state.child(_SEAT), rng).engine_state.current == 0


def test_an_online_round_draws_its_turn_order_seat_by_seat() -> None:
    state = load_game("online", players=4).new_initial_state()
    assert state.chance_outcomes() == [(_SEAT + seat, 0.25) for seat in range(4)]
    for seat, share in ((2, 1 / 3), (0, 1 / 2), (3, None)):
        state.apply_action(_SEAT + seat)
        if share is not None:
            outcomes = state.chance_outcomes()
            assert {p for _, p in outcomes} == {share}
            assert state.action_to_string(pyspiel.PlayerId.CHANCE, outcomes[0][0]).startswith(
                "Order"
            )
    # the last seat is forced: the deck comes next
    assert all(outcome < _SEAT for outcome, _ in state.chance_outcomes())
    engine = _dealt(state, random.Random(1)).engine_state
    assert engine.table.order == (2, 0, 3, 1)
    assert engine.current == 2


# --------------------------------------------------------------------------
# Actions


@pytest.mark.parametrize(("edition", "players"), [("2019", 3), ("premium", 5), ("online", 3)])
def test_action_strings_are_the_move_notation_and_unique(edition: str, players: int) -> None:
    game = load_game(edition, players=players, rounds=1)
    state = _dealt(game.new_initial_state(), random.Random(2))
    table = action_table(edition, players)
    player = state.current_player()
    texts = [state.action_to_string(player, a) for a in range(game.num_distinct_actions())]
    assert len(set(texts)) == len(texts) == table.size
    assert texts == [table.describe(a, player) for a in range(table.size)]
    legal = state.legal_actions()
    assert legal == sorted(legal) == list(table.legal_actions(state.engine_state))


# --------------------------------------------------------------------------
# What a player is shown: twin histories


def _start_events(edition: str, players: int, deck: list[ll.Card], order: list[int]) -> Any:
    settings = ll.TableSettings() if edition == "online" else None
    return ll.start_game(
        edition,
        players,
        seed=0,
        first_player=order[0] if order else 0,
        deck=deck,
        order=order or None,
        settings=settings,
    )


def _feed(state: Any, order: list[int], deck: list[ll.Card]) -> None:
    # the order's last seat is forced: no chance node draws it
    outcomes = [_SEAT + seat for seat in order[:-1]] + [int(card) for card in deck]
    while state.is_chance_node():
        state.apply_action(outcomes.pop(0))


def _shown(state: Any, player: int) -> tuple[Any, ...]:
    return (
        state.observation_string(player),
        tuple(state.observation_tensor(player)),
        state.information_state_string(player),
        tuple(state.information_state_tensor(player)),
    )


def _twin_trial(edition: str, players: int, rng: random.Random) -> tuple[int, int]:
    """Two games of one round, dealt decks differing by two cards swapped,
    played with the same moves while both allow them. The reference of what
    ``player`` was shown is built apart: their redacted events and views.
    Equal references: equal strings and tensors; different ones: different
    information states. Counts of (equal, different) moments."""
    rules = ll.get_ruleset(edition)
    deck = list(rules.deck_for(players))
    rng.shuffle(deck)
    i, j = rng.sample([k for k in range(len(deck)) if deck[k] != deck[0]] + [0], 2)
    twin = list(deck)
    twin[i], twin[j] = twin[j], twin[i]
    order = rng.sample(range(players), players) if rules.draws_order else []
    player = rng.randrange(players)
    game = load_game(edition, players=players, rounds=1)
    table = action_table(edition, players)
    states = [game.new_initial_state(), game.new_initial_state()]
    references: list[list[Any]] = [[], []]
    for state, cards, reference in zip(states, (deck, twin), references, strict=True):
        _feed(state, order, cards)
        events = _start_events(edition, players, cards, order)
        reference.append((ll.events_for(player, events), ll.view(state.engine_state, player)))
    counts = [0, 0]
    while True:
        first, second = states
        if references[0] == references[1]:
            assert _shown(first, player) == _shown(second, player)
            counts[0] += 1
        else:
            assert first.information_state_string(player) != second.information_state_string(player)
            assert first.information_state_tensor(player) != second.information_state_tensor(player)
            counts[1] += 1
        if first.is_terminal() or second.is_terminal():
            return counts[0], counts[1]
        if first.current_player() != second.current_player():
            return counts[0], counts[1]
        legal = sorted(set(first.legal_actions()) & set(second.legal_actions()))
        if not legal:
            return counts[0], counts[1]
        action = rng.choice(legal)
        for state, reference in zip(states, references, strict=True):
            engine = state.engine_state
            command = table.command(action, state.current_player())
            events = ll.step(engine, command)[1]
            state.apply_action(action)
            reference.append((ll.events_for(player, events), ll.view(state.engine_state, player)))


@pytest.mark.parametrize(
    ("edition", "players", "trials"),
    [("2019", 2, 25), ("2019-classic", 4, 25), ("premium", 5, 12), ("online", 3, 25)],
)
def test_twin_histories_differ_exactly_where_the_player_saw_a_difference(
    edition: str, players: int, trials: int
) -> None:
    rng = random.Random(f"twins/{edition}/{players}")
    same = different = 0
    for _ in range(trials):
        equal, unequal = _twin_trial(edition, players, rng)
        same += equal
        different += unequal
    # both sides of the property were exercised many times
    assert same > 50 and different > 20


def _missed_guards(rng: random.Random) -> tuple[Any, Any, int]:
    """Two children of one 3-player position: a Guard that missed, naming
    different targets or cards, and another player, who sees the same
    either way in their view (the Guard on its player's pile)."""
    game = load_game("2019-classic", players=3, rounds=1)
    table = action_table("2019-classic", 3)
    for _ in range(300):
        state = _dealt(game.new_initial_state(), rng)
        actor = state.current_player()
        guards = [
            a
            for a in state.legal_actions()
            if isinstance(command := table.command(a, actor), ll.PlayCard)
            and command.card is ll.Card.GUARD
        ]
        if len(guards) < 2:
            continue
        one, other = (state.child(a) for a in rng.sample(guards, 2))
        if one.engine_state.out or other.engine_state.out:
            continue  # a Guard that hits shows
        return one, other, rng.choice([seat for seat in range(3) if seat != actor])
    raise AssertionError("no missed Guard found")


def test_the_information_state_remembers_what_the_view_forgets() -> None:
    # a Guard that misses leaves no trace in the views (only a Guard on a
    # pile) of whom it chose and what it named: the information state keeps
    # both for as long as the round lasts
    rng = random.Random(7)
    for _ in range(6):
        one, other, watcher = _missed_guards(rng)
        for _ in range(4):
            assert one.player_view(watcher) == other.player_view(watcher)
            assert one.observation_string(watcher) == other.observation_string(watcher)
            assert one.observation_tensor(watcher) == other.observation_tensor(watcher)
            assert one.information_state_string(watcher) != other.information_state_string(watcher)
            assert one.information_state_tensor(watcher) != other.information_state_tensor(watcher)
            if one.is_terminal() or one.current_player() != other.current_player():
                break
            legal = sorted(set(one.legal_actions()) & set(other.legal_actions()))
            if not legal:
                break
            action = rng.choice(legal)
            one.apply_action(action)
            other.apply_action(action)
            if one.player_view(watcher) != other.player_view(watcher):
                break


@pytest.mark.parametrize(
    ("edition", "players"), [("2019", 3), ("premium", 2), ("premium", 6), ("online", 5)]
)
def test_history_rows_tell_events_apart(edition: str, players: int) -> None:
    # the rows of the history block are a one-to-one encoding of the events
    # as a player sees them, and of their hand when it changes
    game = load_game(edition, players=players, rounds=2)
    encoder = _encoder(game.setup)
    rng = random.Random(f"rows/{edition}")
    seen: dict[tuple[int, bytes], ll.Event] = {}
    for _ in range(6):
        state = _playout(game.new_initial_state(), rng)
        for player in range(players):
            hands = 0
            for step in state._core.logs[player]:
                for event in step.events:
                    if isinstance(event, ll.GameStarted):
                        continue
                    key = (player, encoder.event_row(event, player).tobytes())
                    assert seen.setdefault(key, event) == event
                if step.hand is not None:
                    hands += 1
                    row = encoder.hand_row(step.hand)
                    assert Counter(step.hand) == Counter(
                        {
                            card: int(row[encoder.hand_type + 1 + i])
                            for i, card in enumerate(encoder.kinds)
                        }
                    )
                assert len(step.rows(encoder, player)) == len(
                    [e for e in step.events if not isinstance(e, ll.GameStarted)]
                ) + (step.hand is not None)
            assert hands >= 2  # a hand row at each deal at least


def test_history_tensor_shape() -> None:
    game = load_game("premium", players=5, rounds=1)
    rows, width = history_shape("premium", 5)
    size = observation_size("premium", 5)
    assert game.information_state_tensor_shape() == [size + rows * width]
    assert game.observation_tensor_shape() == [size]
    state = _playout(game.new_initial_state(), random.Random(3))
    tensor = np.array(state.information_state_tensor(0))[size:].reshape(rows, width)
    used = int(np.count_nonzero(tensor.any(axis=1)))
    assert 10 < used < rows
    assert not tensor[used:].any()


# --------------------------------------------------------------------------
# Returns


def test_a_whole_game_returns_one_to_its_winner() -> None:
    state = _playout(load_game("2019-classic", players=2).new_initial_state(), random.Random(4))
    engine = state.engine_state
    assert engine.is_over
    (winner,) = engine.winners
    assert state.returns() == [1.0 if seat == winner else -1.0 for seat in range(2)]


def test_a_single_round_returns_shares_to_its_leaders() -> None:
    rng = random.Random(6)
    shared = False
    for _ in range(60):
        state = _playout(load_game("2019", players=4, rounds=1).new_initial_state(), rng)
        tokens = state.engine_state.tokens
        leaders = [seat for seat in range(4) if tokens[seat] == max(tokens)]
        k = len(leaders)
        expected = [1 / k if seat in leaders else -1 / (4 - k) for seat in range(4)]
        assert state.returns() == pytest.approx(expected)
        assert sum(state.returns()) == pytest.approx(0.0)
        shared |= k > 1
    assert shared


def test_an_online_match_returns_its_mean_round_score() -> None:
    rng = random.Random(8)
    state = load_game("online", players=4, rounds=3).new_initial_state()
    scores = []
    while not state.is_terminal():
        before = state.engine_state
        if state.is_chance_node():
            _random_chance(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        after = state.engine_state
        if after is not None and after.round_over and (before is None or not before.round_over):
            ranks = after.round_result.ranks
            mean = sum(ranks) / 4
            scores.append([2 * (mean - rank) / 3 for rank in ranks])
    assert len(scores) == 3
    assert state.returns() == pytest.approx([sum(s[seat] for s in scores) / 3 for seat in range(4)])


# --------------------------------------------------------------------------
# Resampling and OpenSpiel's algorithms


def test_resampling_keeps_the_information_state() -> None:
    rng = random.Random(9)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for edition, players in (("2019", 3), ("premium", 4), ("online", 3)):
        game = load_game(edition, players=players, rounds=2)
        state = game.new_initial_state()
        checked = 0
        while not state.is_terminal():
            if state.is_chance_node():
                _random_chance(state, rng)
                continue
            player = state.current_player()
            sample = state.resample_from_infostate(player, sampler)
            assert isinstance(sample, LoveLetterState)
            assert sample.information_state_string(player) == state.information_state_string(player)
            assert sample.information_state_tensor(player) == state.information_state_tensor(player)
            assert sample.legal_actions() == state.legal_actions()
            if checked % 4 == 0:
                copy = pickle.loads(pickle.dumps(sample))
                assert str(copy) == str(sample)
                _playout(sample, rng)  # the sample plays on to the end
            checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
        assert checked > 5
    # the draws vary: the true hidden cards are one possibility among others
    state = _dealt(load_game("2019", players=4, rounds=1).new_initial_state(), rng)
    player = state.current_player()
    hidden = {state.resample_from_infostate(player, sampler).engine_state.hands for _ in range(20)}
    assert len(hidden) > 5
    with pytest.raises(ValueError, match="must act"):
        load_game("2019").new_initial_state().resample_from_infostate(0, sampler)


def test_information_set_mcts_plays_with_our_resampler() -> None:
    game = load_game("2019-classic", players=2, rounds=1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bots = [
        ismcts.ISMCTSBot(
            game, evaluator, uct_c=2.0, max_simulations=25, random_state=np.random.RandomState(2)
        )
        for _ in range(2)
    ]
    bots[0].set_resampler(resampler(random.Random(3)))  # the callback form
    # bots[1] calls the state's own resample_from_infostate
    rng = random.Random(4)
    decisions = 0
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                _random_chance(state, rng)
                continue
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
        assert sum(state.returns()) == 0.0
    assert decisions >= 6


def test_outcome_sampling_mccfr_runs_on_a_single_round() -> None:
    game = load_game("2019-classic", players=2, rounds=1)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(60):
        solver.iteration()
    policy = solver.average_policy()
    state = _dealt(game.new_initial_state(), random.Random(5))
    probabilities = policy.action_probabilities(state)
    assert set(probabilities) == set(state.legal_actions())
    assert sum(probabilities.values()) == pytest.approx(1.0)


# --------------------------------------------------------------------------
# Through Shimmy, a PettingZoo environment


# Shimmy declares unbounded observation spaces, which api_test frowns upon
@pytest.mark.filterwarnings("ignore:Agent's m:UserWarning")
def test_shimmy_makes_a_pettingzoo_environment_of_it() -> None:
    config = {"players": 3, "rounds": 1}
    env = OpenSpielCompatibilityV0(game_name=GAME_NAMES["2019"], config=config)
    env.reset(seed=1)
    rng = random.Random(1)
    finals: dict[str, float] = {}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            finals[agent] = reward
            env.step(None)
            continue
        assert observation.shape == env.observation_space(agent).shape
        action = rng.choice(np.flatnonzero(info["action_mask"]).tolist())
        env.step(action)
    assert set(finals) == {"player_0", "player_1", "player_2"}
    assert sum(finals.values()) == pytest.approx(0.0)
    api_test(
        OpenSpielCompatibilityV0(game_name=GAME_NAMES["2019-classic"], config={"rounds": 1}),
        num_cycles=50,
    )
