"""The PettingZoo environment (:mod:`loveletter.pettingzoo`): PettingZoo's
own API and seed tests for every edition, observations that are the
agent's encoded view, games played to their end with masks, rewards as
documented, reproducible deals.

PettingZoo's ``max_cycles_test`` does not apply: it needs a parallel
environment and a ``max_cycles`` argument, and Love Letter's turns are
sequential (``is_parallelizable`` is false)."""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from pettingzoo.test.api_test import api_test as untyped_api_test
from pettingzoo.test.seed_test import seed_test as untyped_seed_test

import loveletter as ll
from loveletter.actions import action_table
from loveletter.encoding import encode_view, legal_mask
from loveletter.errors import SetupError
from loveletter.pettingzoo import env, raw_env, round_rewards

SETTINGS: list[dict[str, Any]] = [
    {"ruleset": "2019", "players": 2},
    {"ruleset": "2019", "players": 5},
    {"ruleset": "2019-classic", "players": 3},
    {"ruleset": "premium", "players": 4},
    {"ruleset": "premium", "players": 7},
    {"ruleset": "online", "players": 3, "rounds": 3},
    {"ruleset": "online", "players": 6, "rounds": 2, "decks": 2},
]
# PettingZoo's checks carry no annotations: typed here once
api_test: Callable[..., None] = untyped_api_test
seed_test: Callable[..., None] = untyped_seed_test

IDS = ["-".join(str(v) for v in setting.values()) for setting in SETTINGS]

#: what api_test says of any environment whose observations are dictionaries
#: (as every classic game's are) unless it is one of PettingZoo's own
KNOWN_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box",
)


def checked_quietly(test: Callable[[], None]) -> None:
    """Run one of PettingZoo's checks; it may warn only as it does about
    every dictionary observation."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        test()
    unexpected = [str(w.message) for w in caught if not str(w.message).startswith(KNOWN_WARNINGS)]
    assert not unexpected


@pytest.mark.parametrize(
    ("ruleset", "players"),
    [
        (rules.name, players)
        for rules in ll.RULESETS.values()
        for players in range(rules.min_players, rules.max_players + 1)
    ],
)
def test_pettingzoos_api_test_passes(ruleset: str, players: int) -> None:
    setting: dict[str, Any] = {"ruleset": ruleset, "players": players}
    if ruleset == "online":
        setting.update(rounds=2, decks=1 + players % 3)
    checked_quietly(lambda: api_test(env(**setting), num_cycles=300))
    checked_quietly(lambda: api_test(raw_env(**setting), num_cycles=300))


@pytest.mark.parametrize("setting", SETTINGS, ids=IDS)
def test_pettingzoos_seed_test_passes(setting: dict[str, Any]) -> None:
    checked_quietly(lambda: seed_test(lambda: env(**setting), num_cycles=300))


def play(game: raw_env, chooser: random.Random) -> dict[str, float]:
    """Play ``game`` (reset) to its end with random legal actions, checking
    each observation against the agent's own view; the rewards each agent
    was given in total."""
    totals = dict.fromkeys(game.possible_agents, 0.0)
    table = action_table(game.ruleset, game.players)
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, _ = game.last()
        assert observation is not None
        totals[agent] += reward
        seat = game.possible_agents.index(agent)
        looked = ll.view(game.game_state, seat)
        assert observation["observation"].tolist() == encode_view(looked)
        assert observation["action_mask"].tolist() == legal_mask(looked)
        assert game.observation_space(agent).contains(observation)
        if terminated or truncated:
            game.step(None)
            continue
        assert game.game_state.to_act == seat
        legal = np.flatnonzero(observation["action_mask"])
        assert tuple(legal) == table.legal_actions(game.game_state)
        game.step(int(chooser.choice(legal)))
    assert not game.agents
    return totals


@pytest.mark.parametrize("setting", SETTINGS, ids=IDS)
def test_every_agent_observes_its_own_view_and_no_more(setting: dict[str, Any]) -> None:
    game = raw_env(**setting)
    chooser = random.Random(3)
    for seed in range(2):
        game.reset(seed=seed)
        for _ in range(30):
            if game.terminations[game.agent_selection]:
                break
            for agent in game.agents:
                seat = game.possible_agents.index(agent)
                observed = game.observe(agent)
                looked = ll.view(game.game_state, seat)
                assert observed["observation"].tolist() == encode_view(looked)
                assert observed["observation"].dtype == np.float32
                assert observed["action_mask"].dtype == np.int8
                assert bool(observed["action_mask"].any()) == (agent == game.agent_selection)
            mask = game.observe(game.agent_selection)["action_mask"]
            game.step(int(chooser.choice(np.flatnonzero(mask))))


@pytest.mark.parametrize("ruleset", ["2019", "2019-classic", "premium"])
def test_games_with_tokens_pay_winners_one_and_the_others_minus_one(ruleset: str) -> None:
    chooser = random.Random(ruleset)
    for players in (2, 4):
        game = raw_env(ruleset=ruleset, players=players)
        for seed in range(3):
            game.reset(seed=seed)
            totals = play(game, chooser)
            final = game.game_state
            assert final.is_over
            assert totals == {
                f"player_{seat}": 1.0 if seat in final.winners else -1.0 for seat in range(players)
            }


def test_online_rounds_pay_by_rank_and_sum_to_zero() -> None:
    chooser = random.Random(9)
    game = raw_env(ruleset="online", players=5, rounds=4)
    table = action_table("online", 5)
    for seed in range(3):
        game.reset(seed=seed)
        paid_rounds = 0
        for agent in game.agent_iter():
            _, _, terminated, truncated, _ = game.last()
            if terminated or truncated:
                assert not truncated, "an online match of 4 rounds ends, not cut short"
                game.step(None)
                continue
            action = int(chooser.choice(np.flatnonzero(game.observe(agent)["action_mask"])))
            seat = game.possible_agents.index(agent)
            after = ll.push(game.game_state, table.command(action, seat))
            game.step(action)
            rewards = [game.rewards[a] for a in game.possible_agents]
            if after.round_over:
                assert after.round_result is not None and after.round_result.ranks is not None
                assert rewards == round_rewards(after.round_result.ranks)
                assert sum(rewards) == pytest.approx(0.0)
                paid_rounds += 1
            else:
                assert not any(rewards)
        assert paid_rounds == 4
        assert game.game_state.round_number == 4 and game.game_state.round_over


def test_round_rewards_rank_seats_pairwise() -> None:
    assert round_rewards((1, 2, 3)) == [1.0, 0.0, -1.0]
    assert round_rewards((3, 1, 1, 4)) == [-1 / 3, 2 / 3, 2 / 3, -1.0]
    assert round_rewards((1, None, None)) == [0.0, 0.0, 0.0]


def test_a_reset_seed_deals_the_engines_game_and_then_reproducibly_others() -> None:
    first, second = raw_env(ruleset="premium", players=5), raw_env(ruleset="premium", players=5)
    first.reset(seed=11)
    assert first.game_state == ll.new_game("premium", 5, seed=11)
    second.reset(seed=11)
    first.reset()
    second.reset()
    assert first.game_state == second.game_state != ll.new_game("premium", 5, seed=11)
    seeded = raw_env(seed=4)
    seeded.reset()
    assert seeded.game_state == ll.new_game("2019", 2, seed=4)


def test_random_games_replay_exactly_from_a_seed() -> None:
    def trace(seed: int) -> list[tuple[str, float, list[float]]]:
        game = raw_env(ruleset="2019", players=3)
        game.reset(seed=seed)
        chooser = random.Random(seed)
        steps = []
        for agent in game.agent_iter():
            observation, reward, terminated, truncated, _ = game.last()
            assert observation is not None
            steps.append((agent, reward, observation["observation"].tolist()))
            mask = observation["action_mask"]
            done = terminated or truncated
            game.step(None if done else int(chooser.choice(np.flatnonzero(mask))))
        return steps

    assert trace(21) == trace(21)
    assert trace(21) != trace(22)


def test_an_illegal_action_ends_the_wrapped_game_against_its_player() -> None:
    game = env(ruleset="2019-classic", players=3)
    game.reset(seed=1)
    agent = game.agent_selection
    observed = game.observe(agent)
    assert observed is not None
    mask = observed["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo warns of the illegal move
        game.step(illegal)
    assert all(game.terminations.values())
    assert game.rewards[agent] == -1

    raw = raw_env(ruleset="2019-classic", players=3)
    raw.reset(seed=1)
    with pytest.raises(ll.IllegalCommand):
        raw.step(illegal)


def test_a_round_cap_truncates_a_game_with_tokens() -> None:
    game = raw_env(ruleset="2019", players=4, rounds=1)
    game.reset(seed=2)
    chooser = random.Random(2)
    while not any(game.truncations.values()):
        assert not any(game.terminations.values())
        mask = game.observe(game.agent_selection)["action_mask"]
        game.step(int(chooser.choice(np.flatnonzero(mask))))
    assert all(game.truncations.values()) and not any(game.terminations.values())
    game.reset(seed=2)
    totals = play(game, random.Random(2))
    assert totals == dict.fromkeys(game.possible_agents, 0.0)
    assert game.game_state.round_number == 1 and game.game_state.round_over
    assert not game.game_state.is_over


def test_render_shows_the_acting_agents_view(capsys: pytest.CaptureFixture[str]) -> None:
    game = raw_env(ruleset="2019", players=3, render_mode="ansi")
    game.reset(seed=5)
    seat = game.game_state.to_act
    assert seat is not None
    assert game.render() == str(ll.view(game.game_state, seat))
    shown = raw_env(ruleset="2019", players=3, render_mode="human")
    shown.reset(seed=5)
    assert shown.render() is None
    assert capsys.readouterr().out.strip() == str(ll.view(game.game_state, seat))
    assert raw_env().render() is None


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({"ruleset": "online", "players": 4}, "rounds"),
        ({"ruleset": "online", "players": 4, "rounds": 0}, "rounds"),
        ({"ruleset": "2019", "decks": 2}, "decks"),
        ({"ruleset": "2019", "players": 7}, "players"),
        ({"render_mode": "rgb_array"}, "render_mode"),
    ],
)
def test_bad_settings_are_refused(arguments: dict[str, Any], field: str) -> None:
    with pytest.raises(SetupError, match=field):
        raw_env(**arguments)


def test_the_state_exists_once_reset() -> None:
    with pytest.raises(SetupError, match="reset"):
        raw_env().game_state  # noqa: B018  # the property is the test


def test_spaces_match_the_core_tables() -> None:
    game = raw_env(ruleset="premium", players=8)
    space = game.action_space("player_3")
    assert space.n == action_table("premium", 8).size  # type: ignore[attr-defined]  # a Discrete
    assert game.metadata["name"] == "loveletter_v0"
    assert game.metadata["is_parallelizable"] is False
