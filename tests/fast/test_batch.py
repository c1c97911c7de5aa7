"""The batch interface: masks, steps, resets, observations, results."""

from __future__ import annotations

import numpy as np
import pytest

import loveletter as ll
from loveletter.fast import (
    DECISIONS,
    FastBatch,
    IllegalAction,
    play_random_rounds,
)


def _play_to_the_end(batch: FastBatch, limit: int = 10_000) -> None:
    for _ in range(limit):
        if batch.done.all():
            return
        batch.step(batch.random_actions())
    raise AssertionError("the games did not end")


def test_masks_match_the_legal_actions_and_random_actions_are_legal() -> None:
    batch = FastBatch("premium", 6, 32, seed=4)
    for _ in range(200):
        mask = batch.legal_mask()
        assert mask.shape == (32, batch.table.size)
        for game in range(32):
            assert np.flatnonzero(mask[game]).tolist() == batch.legal_actions(game).tolist()
        actions = batch.random_actions(card_first=False)
        assert all(a < 0 or mask[g, a] for g, a in enumerate(actions))
        assert ((actions < 0) == batch.done).all()
        batch.step(actions)


def test_an_illegal_action_is_refused_and_nothing_moves() -> None:
    batch = FastBatch("2019-classic", 3, 4, seed=1)
    before = [batch.digest(g) for g in range(4)]
    actions = batch.legal_mask().argmax(axis=1)
    illegal = int(np.flatnonzero(~batch.legal_mask()[2])[0])
    actions[2] = illegal
    with pytest.raises(IllegalAction) as raised:
        batch.step(actions)
    assert raised.value.games == (2,)
    assert [batch.digest(g) for g in range(4)] == before
    actions[2] = batch.table.size  # no such id
    with pytest.raises(IllegalAction):
        batch.step(actions)
    with pytest.raises(ValueError, match="one action per game"):
        batch.step(actions[:3])


def test_minus_one_leaves_a_game_alone() -> None:
    batch = FastBatch("2019", 4, 2, seed=9)
    before = batch.digest(1)
    actions = batch.random_actions()
    actions[1] = -1
    batch.step(actions)
    assert batch.digest(1) == before
    assert batch.snapshot(0)["turn"] == 2


def test_games_end_with_winners_and_reset_starts_them_again() -> None:
    batch = FastBatch("2019-classic", 2, 8, seed=5)
    _play_to_the_end(batch)
    winners = batch.winners
    tokens = batch.tokens
    assert winners.any(axis=1).all()
    assert (tokens[winners] >= 6).all()
    assert (batch.to_act == -1).all()
    assert not batch.legal_mask().any()
    assert (batch.random_actions() == -1).all()
    batch.reset([3])
    assert batch.done.tolist() == [True, True, True, False, True, True, True, True]
    assert batch.tokens[3].tolist() == [0, 0]
    assert batch.snapshot(3)["round"] == 1


def test_the_same_seed_plays_the_same_games() -> None:
    def final(seed: int) -> list[list[int]]:
        batch = FastBatch("online", 5, 6, seed=seed, decks=2)
        for _ in range(300):
            batch.step(batch.random_actions())
        return [batch.digest(g) for g in range(6)]

    assert final(11) == final(11) != final(12)


def test_between_rounds_the_one_action_deals_the_next_round() -> None:
    batch = FastBatch("2019-classic", 4, 1, seed=2)
    while not batch.round_over[0]:
        batch.step(batch.random_actions())
    assert batch.legal_actions(0).tolist() == [batch.table.start_id]
    assert batch.round_reason[0] in (1, 2)
    winners = np.flatnonzero(batch.round_winners[0]).tolist()
    assert winners and all(batch.tokens[0, w] >= 1 for w in winners)
    batch.step([batch.table.start_id])
    snapshot = batch.snapshot(0)
    assert snapshot["round"] == 2 and snapshot["current"] in winners
    assert snapshot["decision"] == "play" and snapshot["round_reason"] is None


def test_a_stacked_deal_is_checked() -> None:
    batch = FastBatch("premium", 3, 1)
    deck = list(ll.get_ruleset("premium").deck_for(3))
    with pytest.raises(ValueError, match="exactly the cards"):
        batch.start_game(0, [ll.Card.PRINCESS, *deck[1:]])
    batch.start_game(0, deck, first_player=2)
    assert batch.snapshot(0)["current"] == 2
    with pytest.raises(ValueError, match="not between rounds"):
        batch.start_round(0, deck, 1)
    while not batch.round_over[0]:
        batch.step(batch.random_actions())
    loser = int(np.flatnonzero(~batch.round_winners[0])[0])
    with pytest.raises(ValueError, match="may not start"):
        batch.start_round(0, deck, loser)
    with pytest.raises(ValueError, match="seat order"):
        batch.start_game(0, deck, order=[0, 1, 2])
    online = FastBatch("online", 4, 1)
    with pytest.raises(ValueError, match="every seat once"):
        online.start_game(0, order=[0, 1, 2, 2])
    with pytest.raises(ValueError, match="starts with player 3"):
        online.start_game(0, first_player=1, order=[3, 1, 2, 0])
    with pytest.raises(ValueError, match="a seed is an integer"):
        online.start_game(0, seed=2**256)


def test_what_a_stacked_deal_leaves_out_is_drawn_as_the_reference_draws_it() -> None:
    # A StartRound stacking only the deck: the online turn order and the
    # first player among tied winners come from the seed, as the engine's.
    settings = ll.TableSettings()
    for seed in range(6):
        state = ll.new_game("online", 5, seed=seed, settings=settings)
        batch = FastBatch("online", 5, 1)
        batch.start_game(0, seed=seed)
        while True:
            command = ll.legal_commands(state)[0]
            if isinstance(command, ll.StartRound):
                break
            state = ll.push(state, command)
            batch.step([batch.table.action_id(command)])
        deck = tuple(reversed(ll.get_ruleset("online").deck_for(5)))
        state = ll.push(state, ll.StartRound(deck=deck))
        batch.start_round(0, deck)
        assert batch.snapshot(0)["order"] == state.table.order
        assert batch.snapshot(0)["hands"] == state.hands


def test_bad_tables_are_refused() -> None:
    with pytest.raises(ValueError, match="2-4 players"):
        FastBatch("2019-classic", 5, 1)
    with pytest.raises(ValueError, match="1 to 1 deck"):
        FastBatch("premium", 5, 1, decks=2)
    with pytest.raises(ValueError, match="unknown ruleset"):
        FastBatch("chess", 2, 1)
    with pytest.raises(ValueError, match="at least one game"):
        FastBatch("2019", 2, 0)


def test_observations_show_the_acting_seat_its_own_hand_only() -> None:
    batch = FastBatch("2019", 3, 16, seed=8)
    names = batch.observation_names()
    for _ in range(40):
        observations = batch.observations()
        assert observations.shape == (16, len(names))
        for game in range(16):
            seat = int(batch.to_act[game])
            row = dict(zip(names, observations[game].tolist(), strict=True))
            if seat < 0:
                assert not any(row.values())
                continue
            snapshot = batch.snapshot(game)
            hand = snapshot["hands"][seat]
            assert sum(v for k, v in row.items() if k.startswith("hand:")) == len(hand)
            for card in set(hand):
                assert row[f"hand:{card}"] == hand.count(card)
            assert row["deck-size"] == len(snapshot["deck"])
            assert row[f"decision:{DECISIONS[int(batch.decision[game])]}"] == 1
            for offset in range(3):
                other = (seat + offset) % 3
                label = "self" if offset == 0 else f"seat+{offset}"
                assert row[f"{label}:tokens"] == snapshot["tokens"][other]
                assert row[f"{label}:in-round"] == (other not in snapshot["out"])
                pile = snapshot["discards"][other]
                assert sum(v for k, v in row.items() if k.startswith(f"{label}:pile:")) == len(pile)
        batch.step(batch.random_actions())


def test_random_rounds_are_counted() -> None:
    result = play_random_rounds("premium", 8, 3000, seed=1, games=128)
    assert result.rounds == 3000
    assert result.one_player_left + result.deck_empty + result.won_mid_round == result.rounds
    assert sum(result.round_wins) >= result.rounds - result.won_mid_round
    assert result.turns > 10 * result.rounds
    assert result.games > 0 and sum(result.game_wins) >= result.games
    assert play_random_rounds("premium", 8, 3000, seed=1, games=128) == result
    uniform = play_random_rounds("premium", 8, 3000, seed=1, games=128, card_first=False)
    assert uniform != result
    online = play_random_rounds("online", 6, 500, seed=2, decks=3, games=16)
    assert online.games == 0 and online.won_mid_round == 0
