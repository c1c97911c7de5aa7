"""The benchmark's floor (``benchmarks/floor.py``) plays the same rules as
the reference: random games through both, from the same stacked decks (and
online the reference's turn orders) with the same choices, compared after
every command (the legal moves, the zones, who is out or protected, whose
turn, the pending choice, tokens or win counters, the turn order, the
order players went out, the round's ranks and winners and the game's). The
ratio ``make bench`` prints is then against a real engine, not a toy."""

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
    Event,
    GameState,
    IllegalCommand,
    KeepCard,
    LookAtHand,
    PlayCard,
    Redraw,
    RoundStarted,
    StartRound,
    TableSettings,
    decide,
    get_ruleset,
    legal_commands,
    playable_cards,
    push,
    replay,
    start_game,
    step,
)
from loveletter.ranking import adjusted_values, round_ranks
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
    assert list(state.table.order) == game.order, where
    assert list(state.exits) == game.exits, where
    if state.is_over:
        assert list(state.winners) == game.winners, where
        return
    if state.round_over:
        result = state.round_result
        assert result is not None
        assert list(result.winners) == game.round_winners, where
        assert list(result.ranks or ()) == game.ranks, where
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


def _stacked(ruleset: str, players: int, rng: random.Random, decks: int) -> tuple[Card, ...]:
    deck = list(get_ruleset(ruleset).deck_for(players, decks))
    rng.shuffle(deck)
    return tuple(deck)


def _dealt_order(events: tuple[Event, ...]) -> list[int] | None:
    """The turn order the reference drew for the round ``events`` deal
    (online; ``None`` where the edition plays in seat order)."""
    started = next(e for e in events if isinstance(e, RoundStarted))
    return None if started.order is None else list(started.order)


def _play_side_by_side(
    ruleset: str, players: int, rounds: int, seed: int, decks: int = 1
) -> dict[str, int]:
    """``rounds`` random rounds through both engines; counts what happened."""
    rng = random.Random(seed)
    seen = {"rounds": 0, "games": 0, "commands": 0, "ranked": 0, "by the pile": 0, "bonus": 0}
    settings = TableSettings(decks=decks) if get_ruleset(ruleset).online_table else None

    def fresh() -> tuple[GameState, Any]:
        deck = _stacked(ruleset, players, rng, decks)
        first = rng.randrange(players)
        opening = start_game(
            ruleset, players, seed=seed, deck=deck, first_player=first, settings=settings
        )
        game = floor.FloorGame(
            ruleset,
            players,
            deck=_codes(deck),
            first_player=first,
            order=_dealt_order(opening),
            decks=decks,
        )
        return replay(opening), game

    state, game = fresh()
    while True:
        where = f"{ruleset} {players}p seed {seed} round {seen['rounds']} after {seen['commands']}"
        _assert_same(state, game, where)
        if state.round_over:
            _count_round(state, seen)
            seen["rounds"] += 1
            if seen["rounds"] >= rounds:
                return seen
            if state.is_over:
                seen["games"] += 1
                state, game = fresh()
                continue
            deck = _stacked(ruleset, players, rng, decks)
            candidates = game.first_player_candidates()
            for seat in range(players):  # the floor's candidates are the reference's
                if seat not in candidates:
                    with pytest.raises(IllegalCommand):
                        decide(state, StartRound(deck, seat))
            first = rng.choice(candidates)
            state, events = step(state, StartRound(deck, first))
            game.start_round(_codes(deck), first, _dealt_order(events))
            continue
        command = rng.choice(legal_commands(state))
        seen[type(command).__name__] = seen.get(type(command).__name__, 0) + 1
        if isinstance(command, PlayCard):
            seen[command.card.name] = seen.get(command.card.name, 0) + 1
        state = push(state, command)
        game.apply(_action(command))
        seen["commands"] += 1


def _count_round(state: GameState, seen: dict[str, int]) -> None:
    """Tally the ranked rounds' cases: ends by the pile, hand bonuses."""
    result = state.round_result
    if result is None or result.ranks is None:  # not ranked, or a game won mid-round
        return
    seen["ranked"] += 1
    if result.revealed:
        seen["by the pile"] += 1
        ruleset = state.ruleset
        adjusted = adjusted_values(ruleset, result.revealed, state.discards)
        plain = {
            seat: ruleset.values[card] + state.discards[seat].count(Card.COUNT)
            for seat, card in result.revealed
        }
        seen["bonus"] += adjusted != plain


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
    assert seen["rounds"] == rounds and seen["ranked"] == 0
    assert seen["games"] >= 1  # whole games: tokens and the game's end
    if ruleset == "2019":
        assert seen["KeepCard"] > 0 and seen["SPY"] > 0
    if ruleset == "premium" and players >= 5:
        # the pending answers and the added cards are exercised
        assert seen["LookAtHand"] + seen["Decline"] > 0 and seen["Redraw"] > 0
        assert all(seen.get(card, 0) > 0 for card in ("BISHOP", "CARDINAL", "JESTER", "ASSASSIN"))


ONLINE_WORKLOADS = [(3, 1, 200), (5, 1, 200), (8, 1, 200), (6, 2, 100)]


@pytest.mark.parametrize(("players", "decks", "rounds"), ONLINE_WORKLOADS)
def test_the_floor_plays_the_online_match(players: int, decks: int, rounds: int) -> None:
    """Online, a match of ranked rounds that never ends: the reference's
    drawn turn orders, the pile's end with one card left, ranks and win
    counters, partial wins, and the online Baroness and Cardinal."""
    seen = _play_side_by_side("online", players, rounds, seed=players * 31 + decks, decks=decks)
    assert seen["rounds"] == seen["ranked"] == rounds and seen["games"] == 0
    assert seen["by the pile"] > 0  # hands compared, not only a last player left
    if players == 8:
        assert seen["bonus"] > 0  # a hand bonus changed a value at the showdown
    if players >= 5:
        assert seen["Redraw"] > 0  # a right Bishop number: a partial win
        played = ("BISHOP", "CARDINAL", "BARONESS", "JESTER", "ASSASSIN", "CONSTABLE")
        assert all(seen.get(card, 0) > 0 for card in played), seen


def _random_showdown(
    rng: random.Random,
) -> tuple[int, list[int], list[list[int]], list[list[int]], list[int]]:
    """A made-up end of an online round, rich in the hand bonus's cards:
    players, seats left in, hands, discard piles, seats out in order."""
    players = rng.randint(3, 8)
    seats = list(range(players))
    rng.shuffle(seats)
    left = rng.randint(1, players) if rng.random() < 0.2 else rng.randint(2, players)
    live, exits = sorted(seats[:left]), seats[left:]
    pool = [floor.PRINCESS, floor.BISHOP, floor.COUNTESS, floor.DOWAGER_QUEEN]
    pool += [floor.GUARD, floor.KING, floor.COUNT, floor.ASSASSIN]
    hands: list[list[int]] = [[] for _ in range(players)]
    for seat in live:
        hands[seat] = [rng.choice(pool)]
    piles = [
        [rng.choice([floor.COUNT, floor.COUNT, *pool]) for _ in range(rng.randint(0, 4))]
        for _ in range(players)
    ]
    return players, live, hands, piles, exits


def test_the_floor_ranks_a_round_as_the_reference() -> None:
    """The floor's ranks against :func:`loveletter.ranking.round_ranks` on
    made-up round ends: random play seldom reaches a 7 lifted by two Counts
    over a Princess and a Bishop, so the cases are counted too."""
    ruleset = get_ruleset("online")
    rng = random.Random(5)
    cases = {"alone": 0, "princess": 0, "seven": 0, "tied": 0}
    for _ in range(3000):
        players, live, hands, piles, exits = _random_showdown(rng)
        discards = tuple(tuple(Card(c) for c in pile) for pile in piles)
        revealed = tuple((p, Card(hands[p][0])) for p in live) if len(live) > 1 else ()
        wanted = round_ranks(ruleset, players, revealed, live, tuple(exits), discards)
        ranks = floor.rank_round(ruleset.values, live, hands, piles, exits)
        assert ranks == list(wanted), (live, hands, piles, exits)
        adjusted = adjusted_values(ruleset, revealed, discards)
        for seat, card in revealed:
            plain = ruleset.values[card] + discards[seat].count(Card.COUNT)
            if adjusted[seat] != plain:
                cases["princess" if card is Card.PRINCESS else "seven"] += 1
        cases["alone"] += not revealed
        cases["tied"] += sum(rank == 1 for rank in ranks) > 1
    assert all(count >= 20 for count in cases.values()), cases


def test_the_floor_draws_its_own_online_orders() -> None:
    """Alone (as ``make bench`` runs it), the floor draws each round's turn
    order: every seat once, a rank-1 player of the last round first."""
    game = floor.FloorGame("online", 6, seed=11, decks=3)
    assert sorted(game.order) == list(range(6)) and game.current == game.order[0]
    rng = random.Random(11)
    firsts = set()
    for _ in range(60):
        while game.decision != floor.NEXT_ROUND:
            game.apply(rng.choice(game.legal_actions()))
        assert sum(map(len, (game.deck, *game.hands, *game.discards))) == 3 * 32
        winners = list(game.round_winners)
        game.start_round()
        assert sorted(game.order) == list(range(6)) and game.order[0] in winners
        assert game.current == game.order[0] and game.set_aside is None
        firsts.add(game.order[0])
    assert len(firsts) > 1


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
    # online: no count of tokens ends the match (an empty table)
    tokens = {n: ed.tokens_to_win[n] for n in ed.players if n in ed.tokens_to_win}
    assert tokens == spec["tokens_to_win"]
    copies = spec.get("copies", {"min": 1, "max": 1})
    assert ed.max_decks == copies["max"] and copies["min"] == 1
    decks = spec.get("decks") or [{"players": spec["players"], "deck": spec["deck"]}]
    for entry in decks:
        wanted = sorted(
            Card.parse(card).code for card, n in entry["deck"].items() for _ in range(n)
        )
        for players in range(entry["players"]["min"], entry["players"]["max"] + 1):
            for copies_ in range(1, ed.max_decks + 1):
                assert ed.deck(players, copies_) == sorted(wanted * copies_), (name, players)
