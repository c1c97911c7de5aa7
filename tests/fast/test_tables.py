"""The fast simulator's facts and its fixed action ids."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
import yaml

import loveletter as ll
from loveletter.fast import action_table
from loveletter.fast.tables import ACT_PLAY, EDITIONS, edition
from loveletter.resources import spec_root

TABLES = [
    (name, players)
    for name, ed in sorted(EDITIONS.items())
    for players in range(ed.min_players, ed.max_players + 1)
]


def _spec_editions() -> dict[str, Any]:
    text = (spec_root() / "editions.yaml").read_text(encoding="utf-8")
    return {e["id"]: e for e in yaml.safe_load(text)["editions"]}


@pytest.mark.parametrize("name", sorted(EDITIONS))
def test_the_simulator_s_facts_are_the_spec_s(name: str) -> None:
    spec = _spec_editions()[name]
    ed = edition(name)
    assert (ed.min_players, ed.max_players) == (spec["players"]["min"], spec["players"]["max"])
    values = {ll.Card.parse(card).code: value for card, value in spec["values"].items()}
    assert {card: ed.values[card] for card in values} == values
    assert ed.tokens_to_win == spec["tokens_to_win"]
    decks = spec.get("decks") or [{"players": spec["players"], "deck": spec["deck"]}]
    for entry in decks:
        counts = {ll.Card.parse(card).code: n for card, n in entry["deck"].items()}
        for players in range(entry["players"]["min"], entry["players"]["max"] + 1):
            assert ed.deck_counts(players) == counts


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_every_id_round_trips_through_its_command(name: str, players: int) -> None:
    table = action_table(name, players)
    for action in range(table.size):
        command = table.command(action, players - 1)
        assert table.action_id(command) == action
    assert len({table.describe(a) for a in range(table.size)}) == table.size


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_legal_ids_sorted_are_the_reference_order(name: str, players: int) -> None:
    # Ascending ids list the commands in legal_commands order: the order
    # random moves, time-outs (ruling 51) and the notation's lists use.
    table = action_table(name, players)
    settings = ll.TableSettings() if edition(name).ranked else None
    for seed in range(8):
        state = ll.new_game(name, players, seed=seed, settings=settings)
        for _ in range(6):
            legal = ll.legal_commands(state)
            ids = [table.action_id(c) for c in legal]
            assert ids == sorted(ids) and len(set(ids)) == len(ids)
            state = ll.push(state, legal[len(legal) // 2])
            if not ll.legal_commands(state) or state.round_over:
                break


def test_an_id_names_no_player() -> None:
    table = action_table("premium", 5)
    guard_on_3 = ll.PlayCard(0, ll.Card.GUARD, 3, 7)
    same_from_another_seat = ll.PlayCard(4, ll.Card.GUARD, 3, 7)
    assert table.action_id(guard_on_3) == table.action_id(same_from_another_seat)
    assert table.command(table.action_id(guard_on_3), 4) == same_from_another_seat


def test_commands_without_an_id_are_refused() -> None:
    table = action_table("2019-classic", 3)
    for command in (
        ll.PlayCard(0, ll.Card.GUARD, 1, 5),  # 2019 names cards, not numbers
        ll.PlayCard(0, ll.Card.GUARD, 1, ll.Card.GUARD),  # never the Guard itself
        ll.PlayCard(0, ll.Card.SPY),  # no Spy in the classic deck
        ll.PlayCard(0, ll.Card.PRIEST, 3),  # no seat 3
        ll.StartRound(first_player=1),
        ll.Redraw(0),
    ):
        with pytest.raises(KeyError):
            table.action_id(command)


# The ids are an interface (reinforcement-learning code stores policies
# over them): a change to any table must be deliberate, and shows here.
PINNED = {
    ("2019-classic", 4): "e2189cc8f0917086",
    ("2019", 6): "a81977263da33679",
    ("premium", 8): "b3a2c262e4b67740",
    ("online", 8): "0b2fafc02c1e927e",
}


@pytest.mark.parametrize(("name", "players"), sorted(PINNED))
def test_the_ids_are_stable(name: str, players: int) -> None:
    table = action_table(name, players)
    text = "\n".join(table.describe(a) for a in range(table.size))
    assert hashlib.sha256(text.encode()).hexdigest()[:16] == PINNED[name, players]


def test_the_tables_sizes() -> None:
    sizes = {key: action_table(*key).size for key in PINNED}
    assert sizes == {
        ("2019-classic", 4): 53,
        ("2019", 6): 1096,
        ("premium", 8): 300,
        ("online", 8): 320,
    }
    plays = [e for e in action_table("2019-classic", 4).entries if e[0] == ACT_PLAY]
    assert len(plays) == action_table("2019-classic", 4).size - 1


def test_every_supported_table_is_a_table_of_the_simulator() -> None:
    from loveletter.fast import SUPPORTED

    assert sorted(SUPPORTED) == sorted(EDITIONS)
    for name, counts in SUPPORTED.items():
        ed = edition(name)
        assert counts == range(ed.min_players, ed.max_players + 1)
