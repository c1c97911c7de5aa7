"""The benchmark's floor (``benchmarks/floor.py``) plays the same rules as
the reference: random games through both, from the same stacked decks with
the same choices, compared after every command (the legal moves, the zones,
who is out or protected, whose turn, the pending choice, tokens, the
round's and the game's winners). The ratio ``make bench`` prints is then
against a real engine, not a toy."""

from __future__ import annotations

import doctest
import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

from loveletter import (
    Card,
    Command,
    Decision,
    Decline,
    GameState,
    IllegalCommand,
    KeepCard,
    LookAtHand,
    PlayCard,
    Redraw,
    StartRound,
    decide,
    get_ruleset,
    legal_commands,
    new_game,
    playable_cards,
    push,
)
from loveletter.resources import spec_root

FLOOR = Path(__file__).resolve().parent.parent / "benchmarks" / "floor.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("floor", FLOOR)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("floor", module)
    spec.loader.exec_module(module)
    return module


floor = _load()

_DECISIONS = {
    Decision.PLAY: floor.PLAY,
    Decision.CHANCELLOR: floor.KEEP,
    Decision.LOOK: floor.LOOK,
    Decision.REDRAW: floor.REDRAW,
    Decision.NEXT_ROUND: floor.NEXT_ROUND,
    Decision.GAME_OVER: floor.GAME_OVER,
}


def _action(command: Command) -> tuple[Any, ...]:
    """The floor's action for a reference command."""
    if isinstance(command, PlayCard):
        guess = command.guess.code if isinstance(command.guess, Card) else command.guess
        return (floor.PLAY_CARD, command.card.code, command.target, command.second_target, guess)
    if isinstance(command, KeepCard):
        return (floor.KEEP_CARD, command.keep.code, tuple(c.code for c in command.bottom))
    if isinstance(command, LookAtHand):
        return (floor.LOOK_AT, command.owner)
    if isinstance(command, Redraw):
        return (floor.REDRAW_CARD,)
    assert isinstance(command, Decline), command
    return (floor.DECLINE,)


def _codes(cards: tuple[Card, ...]) -> list[int]:
    return [card.code for card in cards]


def _assert_same(state: GameState, game: Any, where: str) -> None:
    assert _DECISIONS[state.decision] == game.decision, where
    assert list(state.tokens) == game.tokens, where
    assert [_codes(hand) for hand in state.hands] == game.hands, where
    assert [_codes(pile) for pile in state.discards] == game.discards, where
    assert _codes(state.deck) == game.deck[::-1], where
    set_aside = state.set_aside
    assert (None if set_aside is None else set_aside.code) == game.set_aside, where
    assert _codes(state.face_up) == game.face_up, where
    assert sorted(state.out) == [p for p, out in enumerate(game.out) if out], where
    assert list(state.contenders) == game.contenders, where
    if state.is_over:
        assert list(state.winners) == game.winners, where
        return
    if state.round_over:
        assert state.round_result is not None
        assert list(state.round_result.winners) == game.round_winners, where
        return
    assert state.current == game.current and state.to_act == game.to_act, where
    assert sorted(state.protected) == [p for p, safe in enumerate(game.protected) if safe], where
    assert state.required == game.required, where
    assert list(state.marks) == game.marks, where
    assert state.pending == game.pending, where
    assert _codes(playable_cards(state)) == game.playable_cards(), where
    legal = sorted(map(_action, legal_commands(state)), key=repr)
    assert legal == sorted(game.legal_actions(), key=repr), where
    for card in playable_cards(state):
        plays = sorted(map(_action, legal_commands(state, card)), key=repr)
        assert plays == sorted(game.legal_actions(card.code), key=repr), where


def _stacked(ruleset: str, players: int, rng: random.Random) -> tuple[Card, ...]:
    deck = list(get_ruleset(ruleset).deck_for(players))
    rng.shuffle(deck)
    return tuple(deck)


def _play_side_by_side(ruleset: str, players: int, rounds: int, seed: int) -> dict[str, int]:
    """``rounds`` random rounds through both engines; counts what happened."""
    rng = random.Random(seed)
    seen = {"rounds": 0, "games": 0, "commands": 0}

    def fresh() -> tuple[GameState, Any]:
        deck = _stacked(ruleset, players, rng)
        first = rng.randrange(players)
        state = new_game(ruleset, players, seed=seed, deck=deck, first_player=first)
        return state, floor.FloorGame(ruleset, players, deck=_codes(deck), first_player=first)

    state, game = fresh()
    while True:
        where = f"{ruleset} {players}p seed {seed} round {seen['rounds']} after {seen['commands']}"
        _assert_same(state, game, where)
        if state.round_over:
            seen["rounds"] += 1
            if seen["rounds"] >= rounds:
                return seen
            if state.is_over:
                seen["games"] += 1
                state, game = fresh()
                continue
            deck = _stacked(ruleset, players, rng)
            candidates = game.first_player_candidates()
            for seat in range(players):  # the floor's candidates are the reference's
                if seat not in candidates:
                    with pytest.raises(IllegalCommand):
                        decide(state, StartRound(deck, seat))
            first = rng.choice(candidates)
            state = push(state, StartRound(deck, first))
            game.start_round(_codes(deck), first)
            continue
        command = rng.choice(legal_commands(state))
        seen[type(command).__name__] = seen.get(type(command).__name__, 0) + 1
        if isinstance(command, PlayCard):
            seen[command.card.name] = seen.get(command.card.name, 0) + 1
        state = push(state, command)
        game.apply(_action(command))
        seen["commands"] += 1


WORKLOADS = [
    ("2019-classic", 2, 120),
    ("2019-classic", 3, 120),
    ("2019-classic", 4, 150),
    ("2019", 2, 80),
    ("2019", 4, 80),
    ("2019", 6, 80),
    ("premium", 2, 80),
    ("premium", 4, 80),
    ("premium", 5, 120),
    ("premium", 6, 120),
    ("premium", 8, 200),
]


@pytest.mark.parametrize(("ruleset", "players", "rounds"), WORKLOADS)
def test_the_floor_plays_the_reference_rules(ruleset: str, players: int, rounds: int) -> None:
    seen = _play_side_by_side(ruleset, players, rounds, seed=players * 101 + len(ruleset))
    assert seen["rounds"] == rounds
    assert seen["games"] >= 1  # whole games: tokens and the game's end
    if ruleset == "2019":
        assert seen["KeepCard"] > 0 and seen["SPY"] > 0
    if ruleset == "premium" and players >= 5:
        # the pending answers and the added cards are exercised
        assert seen["LookAtHand"] + seen["Decline"] > 0 and seen["Redraw"] > 0
        assert all(seen.get(card, 0) > 0 for card in ("BISHOP", "CARDINAL", "JESTER", "ASSASSIN"))


def test_the_floor_documents_itself() -> None:
    failed, tried = doctest.testmod(floor, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failed == 0


@pytest.mark.parametrize("name", sorted(floor.EDITIONS))
def test_the_floor_s_edition_facts_are_the_spec_s(name: str) -> None:
    """The floor copies each edition's facts by hand (it is a second
    implementation, like loveletter.fast): checked here against spec/."""
    text = (spec_root() / "editions.yaml").read_text(encoding="utf-8")
    spec = {e["id"]: e for e in yaml.safe_load(text)["editions"]}[name]
    ed = floor.EDITIONS[name]
    assert (ed.players.start, ed.players.stop - 1) == (
        spec["players"]["min"],
        spec["players"]["max"],
    )
    values = {Card.parse(card).code: value for card, value in spec["values"].items()}
    assert {card: ed.values[card] for card in values} == values
    assert {n: ed.tokens_to_win[n] for n in ed.players} == spec["tokens_to_win"]
    decks = spec.get("decks") or [{"players": spec["players"], "deck": spec["deck"]}]
    for entry in decks:
        wanted = sorted(
            Card.parse(card).code for card, n in entry["deck"].items() for _ in range(n)
        )
        for players in range(entry["players"]["min"], entry["players"]["max"] + 1):
            assert ed.deck(players) == wanted, (name, players)
