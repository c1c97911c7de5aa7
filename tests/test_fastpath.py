"""The fast path covers the whole game, and accepts every legal command.

``tests/conformance/test_both_paths.py`` and ``tests/properties`` hold the
fast path (:mod:`loveletter.fastpath`) equal to the reference; a fast path
that quietly handed more and more to the reference would still pass them.
Here random games of every edition and player count go through it: every
play of every card, every answer to a pending choice and every deal (but a
tie-break round's) must be covered, and every command ``legal_commands``
lists must pass its look at the fields without the reference's check.
"""

from __future__ import annotations

import random
from collections import Counter

import attrs
import pytest

import loveletter as ll
from loveletter import fastpath, legal
from loveletter.commands import Command, Decline, KeepCard, LookAtHand, PlayCard, Redraw, StartRound
from loveletter.state import GameState, Sighting, Table

#: every edition at its smallest and largest table
TABLES = [
    ("2019", 2),
    ("2019", 6),
    ("2019-classic", 2),
    ("2019-classic", 4),
    ("premium", 2),
    ("premium", 8),
    ("online", 3),
    ("online", 8),
]
ANSWERS = (KeepCard, LookAtHand, Decline, Redraw)


def _covered(state: GameState, command: Command) -> bool:
    """Whether the fast path must give the state after ``command`` itself."""
    if type(command) is StartRound:
        return not state.table.contenders  # a tie-break round: the reference deals
    return type(command) is PlayCard or type(command) in ANSWERS


def _games(ruleset: str, players: int, rounds: int, seed: int) -> Counter[str]:
    """Random rounds through the fast path, checked as they go; what was played."""
    rng = random.Random(seed)
    played: Counter[str] = Counter()
    state = ll.new_game(ruleset, players, seed=seed)
    for _ in range(rounds):
        while not state.round_over:
            listed = ll.legal_commands(state)
            assert listed == legal.legal_commands(state)
            for card in set(ll.playable_cards(state)):
                assert fastpath.legal_commands(state, card) == legal.legal_commands(state, card)
            for command in listed:
                if type(command) is PlayCard:
                    assert fastpath._legal_play(state, command), command
                else:
                    assert fastpath._listed_answer(state, command), command
            command = rng.choice(listed)
            pushed = fastpath.push(state, command)
            stepped = fastpath.step(state, command)
            assert pushed is not None and stepped is not None, command
            assert stepped[0] == pushed
            played[str(command.card) if type(command) is PlayCard else type(command).__name__] += 1
            state = pushed
        if state.is_over:
            state = ll.new_game(ruleset, players, seed=rng.randrange(2**32))
            continue
        command = StartRound()
        after = fastpath.push(state, command)
        assert (after is None) is not _covered(state, command)
        dealt = fastpath.step(state, command)
        assert (dealt is None) is (after is None)
        assert dealt is None or dealt[0] == after
        state = after if after is not None else ll.push(state, command)
    return played


@pytest.mark.parametrize(("ruleset", "players"), TABLES, ids=lambda v: str(v))
def test_random_games_go_through_the_fast_path(ruleset: str, players: int) -> None:
    played = _games(ruleset, players, 40, players)
    kinds = ll.get_ruleset(ruleset).setup(players).kinds
    assert {str(card) for card in kinds} <= set(played)  # every kind of the deck


def test_the_check_would_notice_a_play_handed_to_the_reference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A fast path that gives up on the Priest is caught."""
    real = fastpath._Turn.play

    def no_priest(self: fastpath._Turn, command: PlayCard) -> GameState | None:
        return None if command.card is ll.Card.PRIEST else real(self, command)

    monkeypatch.setattr(fastpath._Turn, "play", no_priest)
    with pytest.raises(AssertionError, match="PRIEST"):
        _games("2019-classic", 4, 20, 1)


def test_the_check_would_notice_a_legal_play_checked_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A look at the fields that turns down a legal Guard play is caught."""
    real = fastpath._legal_play

    def fussy(state: GameState, command: PlayCard) -> bool:
        return command.card is not ll.Card.GUARD and real(state, command)

    monkeypatch.setattr(fastpath, "_legal_play", fussy)
    with pytest.raises(AssertionError, match="GUARD"):
        _games("2019-classic", 4, 5, 1)


def test_builders_made_at_import_build_what_the_class_builds() -> None:
    """``_builder`` runs when the module is imported (its constructors of
    sightings, tables and round results); made again here, a constructor
    gives a value equal to the class's own, of that class, every field set."""
    build = fastpath._builder(Sighting)
    built = build(1, 2, ll.Card.GUARD, 3, ll.Card.PRIEST)
    assert type(built) is Sighting
    assert built == Sighting(1, 2, ll.Card.GUARD, 3, ll.Card.PRIEST)
    table = ll.new_game("premium", 5, seed=3).table
    fields = [getattr(table, field.name) for field in attrs.fields(Table)]
    assert fastpath._builder(Table)(*fields) == table


def test_interned_values_are_shared_kept_apart_by_type_and_bounded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``interned`` (also run at import): equal arguments give the very same
    value; ``typed`` keeps a card apart from its equal integer code; the
    cache empties itself at ``LIMIT`` and on :func:`fastpath.forget`; the
    wrapper keeps the factory's name and docstring."""
    made: list[tuple[object, ...]] = []

    def pair(a: object, b: object) -> tuple[object, ...]:
        """Two values."""
        made.append((a, b))
        return (a, b)

    shared = fastpath.interned(pair)
    first = shared(1, 2)
    assert shared(1, 2) is first and made == [(1, 2)]
    assert (shared.__name__, shared.__doc__) == ("pair", "Two values.")
    typed = fastpath.interned(pair, typed=True)
    prince = typed(ll.Card.PRINCE, None)
    assert typed(5, None) is not prince and type(typed(5, None)[0]) is int
    assert typed(ll.Card.PRINCE, None) is prince
    fastpath.forget()
    assert shared(1, 2) is not first and made[-1] == (1, 2)
    monkeypatch.setattr(fastpath, "LIMIT", 2)
    bounded = fastpath.interned(pair)
    kept = bounded(0, 0)
    bounded(0, 1)
    bounded(0, 2)  # the third value clears the two before it
    assert bounded(0, 0) is not kept
