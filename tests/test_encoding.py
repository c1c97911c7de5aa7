"""Observation vectors (:mod:`loveletter.encoding`): a fixed length per
edition and count, a function of the view alone, seats rotated so the
viewer comes first, and a legal mask matching the action ids."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from typing import TypeVar

import attrs
import pytest

import loveletter as ll
from loveletter.actions import action_table
from loveletter.encoding import encode_view, legal_mask, observation_names, observation_size
from loveletter.errors import ArgumentError
from loveletter.rulesets import Scoring
from loveletter.state import RoundResult, Sighting

T = TypeVar("T")

EDITIONS_AND_COUNTS = [
    (rules.name, players)
    for rules in ll.RULESETS.values()
    for players in range(rules.min_players, rules.max_players + 1)
]


def random_states(ruleset: str, players: int, seed: int) -> Iterator[ll.GameState]:
    """Every state of a game of random legal commands to its end (online:
    three rounds)."""
    chooser = random.Random(seed)
    state = ll.new_game(ruleset, players, seed=seed)
    online = ll.get_ruleset(ruleset).scoring is Scoring.RANKS
    while True:
        yield state
        if state.is_over or (online and state.round_over and state.round_number >= 3):
            return
        state = ll.push(state, chooser.choice(ll.legal_commands(state)))


def named(view: ll.PlayerView) -> dict[str, float]:
    """The view's vector, each entry by its name."""
    names = observation_names(view.ruleset, view.players)
    vector = encode_view(view)
    assert len(names) == len(set(names)) == len(vector)
    return dict(zip(names, vector, strict=True))


def renumbered(view: ll.PlayerView, shift: int) -> ll.PlayerView:
    """The same knowledge with every seat ``s`` renamed ``(s - shift) % n``:
    the view of the seat that is now 0 when ``shift`` is ``view.player``."""
    n = view.players

    def seat(s: int) -> int:
        return (s - shift) % n

    def seats(items: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(seat(s) for s in items)

    def by_seat(items: tuple[T, ...]) -> tuple[T, ...]:
        return tuple(items[(s + shift) % n] for s in range(n))

    result = view.round_result
    if result is not None:
        result = RoundResult(
            result.reason,
            seats(result.winners),
            tuple((seat(p), card) for p, card in result.revealed),
            None if result.ranks is None else by_seat(result.ranks),
        )
    return attrs.evolve(
        view,
        player=seat(view.player),
        tokens=by_seat(view.tokens),
        current=seat(view.current),
        hand_sizes=by_seat(view.hand_sizes),
        discards=by_seat(view.discards),
        out=seats(view.out),
        protected=seats(view.protected),
        sightings=tuple(
            Sighting(seat(s.viewer), seat(s.owner), s.card, s.turn, s.via) for s in view.sightings
        ),
        round_result=result,
        winners=seats(view.winners),
        legal_commands=(),
        required=None if view.required is None else seat(view.required),
        marks=tuple((seat(j), seat(m)) for j, m in view.marks),
        contenders=seats(view.contenders),
        pending=seats(view.pending),
        order=seats(view.order),
        exits=seats(view.exits),
        left=seats(view.left),
    )


@pytest.mark.parametrize(("ruleset", "players"), EDITIONS_AND_COUNTS)
def test_vectors_have_the_documented_size_and_stay_seat_relative(
    ruleset: str, players: int
) -> None:
    size = observation_size(ruleset, players)
    assert size == len(observation_names(ruleset, players))
    for state in random_states(ruleset, players, seed=players):
        for player in range(players):
            looked = ll.view(state, player)
            vector = encode_view(looked)
            assert len(vector) == size
            assert all(math.isfinite(x) and x >= 0 for x in vector)
            # the same knowledge from seat 0: the same vector
            assert encode_view(renumbered(looked, player)) == vector


@pytest.mark.parametrize(("ruleset", "players"), EDITIONS_AND_COUNTS)
def test_entries_say_what_their_names_say(ruleset: str, players: int) -> None:
    rules = ll.get_ruleset(ruleset)
    for state in random_states(ruleset, players, seed=10 + players):
        player = state.current
        looked = ll.view(state, player)
        entries = named(looked)
        for card in rules.setup(players).kinds:
            assert entries[f"hand:{card}"] == looked.hand.count(card)
            for offset in range(players):
                label = "self" if offset == 0 else f"seat+{offset}"
                pile = looked.discards[(player + offset) % players]
                assert entries[f"{label}:pile:{card}"] == pile.count(card)
        assert entries[f"decision:{looked.decision.value}"] == 1
        assert entries["deck-size"] == len(state.deck)
        assert entries["turn"] == state.turn_number
        for offset in range(players):
            label = "self" if offset == 0 else f"seat+{offset}"
            other = (player + offset) % players
            assert entries[f"{label}:tokens"] == state.tokens[other]
            assert entries[f"{label}:in-hand"] == len(state.hands[other])
            assert entries[f"{label}:out"] == (other in state.out)
            assert entries[f"{label}:current"] == (other == state.current)
            assert entries[f"{label}:to-act"] == (other == state.to_act)
        if rules.sets_aside:
            assert entries["set-aside"] == (state.set_aside is not None)


def test_a_sighting_shows_the_latest_card_seen_and_its_age() -> None:
    found = replaced = 0
    kinds = ll.get_ruleset("2019").setup(4).kinds
    for seed in range(30):
        for state in random_states("2019", 4, seed):
            for player in range(4):
                looked = ll.view(state, player)
                entries = named(looked)
                for owner in {s.owner for s in looked.sightings}:
                    of_owner = [s for s in looked.sightings if s.owner == owner]
                    latest = of_owner[-1]
                    label = "self" if owner == player else f"seat+{(owner - player) % 4}"
                    seen = {card: entries[f"{label}:seen:{card}"] for card in kinds}
                    assert seen[latest.card] == 1 and sum(seen.values()) == 1
                    assert entries[f"{label}:seen-age"] == looked.turn_number - latest.turn
                    found += 1
                    replaced += of_owner[0].card != latest.card
    assert found > 100 and replaced > 0


def test_the_vector_is_a_function_of_the_view_alone() -> None:
    """Twin states differing only in what a player cannot see (the deck's
    order, another's hand, the set-aside card) give that player equal
    views, hence equal vectors; the player who holds the changed hand
    sees the difference."""
    compared = 0
    for seed in range(20):
        state = ll.new_game("2019", 3, seed=seed)
        chooser = random.Random(seed)
        for _ in range(chooser.randrange(6)):
            if state.round_over or state.is_over:
                break
            state = ll.push(state, chooser.choice(ll.legal_commands(state)))
        if state.round_over or state.is_over or not state.deck:
            continue
        holder = (state.current + 1) % 3
        if not state.hands[holder]:
            continue
        hands = list(state.hands)
        hands[holder] = (state.deck[0],)
        twin = attrs.evolve(
            state,
            deck=(state.hands[holder][0], *state.deck[1:][::-1]),
            hands=tuple(hands),
        )
        for player in range(3):
            if player == holder:
                continue
            seen = {s.owner for s in state.sightings if s.viewer == player}
            if holder in seen:
                continue  # that player's knowledge is now untrue in the twin, not hidden
            assert ll.view(twin, player) == ll.view(state, player)
            assert encode_view(ll.view(twin, player)) == encode_view(ll.view(state, player))
            compared += 1
        if state.hands[holder] != hands[holder]:
            assert encode_view(ll.view(twin, holder)) != encode_view(ll.view(state, holder))
    assert compared > 15


@pytest.mark.parametrize(("ruleset", "players"), [("2019", 2), ("premium", 6), ("online", 4)])
def test_views_at_different_moments_usually_encode_differently(ruleset: str, players: int) -> None:
    differing = changed = 0
    for seed in range(4):
        before: dict[int, ll.PlayerView] = {}
        for state in random_states(ruleset, players, seed):
            for player in range(players):
                looked = ll.view(state, player)
                last = before.get(player)
                if last is not None and last != looked:
                    changed += 1
                    differing += encode_view(last) != encode_view(looked)
                before[player] = looked
    assert changed > 0
    assert differing >= 0.95 * changed


@pytest.mark.parametrize(("ruleset", "players"), EDITIONS_AND_COUNTS)
def test_the_legal_mask_marks_the_legal_ids(ruleset: str, players: int) -> None:
    table = action_table(ruleset, players)
    for state in random_states(ruleset, players, seed=20 + players):
        for player in range(players):
            looked = ll.view(state, player)
            mask = legal_mask(looked)
            assert len(mask) == table.size
            assert set(mask) <= {0, 1}
            marked = tuple(i for i, bit in enumerate(mask) if bit)
            assert marked == table.legal_actions(looked)
            assert len(marked) == len(looked.legal_commands)
            assert bool(marked) == (player == state.to_act)


def test_premium_and_online_fields() -> None:
    """The fields only some editions have are there, and filled in."""
    premium = observation_names("premium", 5)
    assert "self:required" in premium and "seat+4:marked-by-self" in premium
    assert "self:contender" in premium and "self:order" not in premium
    online = observation_names("online", 5)
    assert {"decks", "self:order", "self:exit", "self:left", "self:rank"} <= set(online)
    assert "self:contender" not in online and "set-aside" not in online
    classic = observation_names("2019-classic", 4)
    assert not any(name.startswith(("bottom", "face-up")) for name in classic)
    assert "face-up:Guard" in observation_names("2019-classic", 2)
    assert "bottom-next:Chancellor" in observation_names("2019", 3)

    required = marks = ranked = ordered = 0
    for seed in range(6):
        for state in random_states("online", 6, seed):
            entries = named(ll.view(state, 0))
            if state.required is not None:
                label = "self" if state.required == 0 else f"seat+{state.required}"
                assert entries[f"{label}:required"] == 1
                required += 1
            for jester, marked in state.marks:
                label = "self" if marked == 0 else f"seat+{marked}"
                assert entries[f"{label}:marked"] >= 1
                if jester == 0:
                    assert entries[f"{label}:marked-by-self"] >= 1
                marks += 1
            if state.round_result is not None and state.round_result.ranks is not None:
                for seat, rank in enumerate(state.round_result.ranks):
                    label = "self" if seat == 0 else f"seat+{seat}"
                    assert entries[f"{label}:rank"] == (rank or 0)
                ranked += 1
            for place, seat in enumerate(state.table.order, 1):
                label = "self" if seat == 0 else f"seat+{seat}"
                assert entries[f"{label}:order"] == place
                ordered += 1
    assert required and marks and ranked and ordered


def test_the_chancellors_returns_are_encoded() -> None:
    found = 0
    for seed in range(40):
        for state in random_states("2019", 2, seed):
            looked = ll.view(state, 0)
            if not looked.deck_bottom:
                continue
            entries = named(looked)
            assert entries["bottom-size"] == len(looked.deck_bottom)
            first = looked.deck_bottom[0]
            assert first is not None
            assert entries[f"bottom-next:{first}"] == 1
            known = [card for card in looked.deck_bottom if card is not None]
            assert sum(v for k, v in entries.items() if k.startswith("bottom:")) == len(known)
            found += 1
    assert found > 5


def test_only_views_are_encoded() -> None:
    state = ll.new_game("2019", 2, seed=1)
    with pytest.raises(ArgumentError, match="view"):
        encode_view(state)  # type: ignore[arg-type]  # a state holds what the player may not see
    with pytest.raises(ArgumentError, match="view"):
        legal_mask(state)  # type: ignore[arg-type]  # as above


def test_sizes_are_checked_like_the_action_table() -> None:
    with pytest.raises(ll.SetupError):
        observation_size("2019-classic", 5)
    assert observation_size("premium-2016", 3) == observation_size("premium", 3)
