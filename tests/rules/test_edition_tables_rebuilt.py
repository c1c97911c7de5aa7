"""Every edition, built again from its definition, has the decks, values,
thresholds and derived tables the spec gives it.

The registry (``loveletter.rulesets.RULESETS``) is built once, when the
module is imported, and the other tests read that one object. These tests
call the builders again, so the definitions themselves are checked each time
the tests run, not only what the import left behind. That matters to
mutation testing (``verification/mutation.py``): mutmut changes a function
after the import, so a broken builder is only seen by a test that calls it.

The expected decks, values, thresholds and player ranges are read from
``spec/editions.yaml``; the rest are the values the rules state.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import attrs
import pytest
import yaml

from loveletter.cards import Card
from loveletter.cards.base import Naming
from loveletter.events import TokenReason
from loveletter.resources import spec_root
from loveletter.rulesets import (
    RULESETS,
    GameTie,
    RoundTie,
    Ruleset,
    Setup,
    _adding,
    _aeg_premium,
    _online,
    _per_card,
    _removing,
    _zman_2019,
    _zman_2019_classic,
)

BUILDERS: dict[str, Callable[[], Ruleset]] = {
    "2019": _zman_2019,
    "2019-classic": lambda: _zman_2019_classic(_zman_2019()),
    "premium": _aeg_premium,
    "online": lambda: _online(_aeg_premium()),
}
#: the editions built on Premium's cards, values and names
PREMIUM_BASED = ("premium", "online")


def spec_editions() -> dict[str, dict[str, Any]]:
    data = yaml.safe_load((spec_root() / "editions.yaml").read_text(encoding="utf-8"))
    return {str(edition["id"]): edition for edition in data["editions"]}


def spec_deck(edition: dict[str, Any], players: int) -> Counter[Card]:
    if "deck" in edition:
        deck = edition["deck"]
    else:
        (deck,) = (
            entry["deck"]
            for entry in edition["decks"]
            if entry["players"]["min"] <= players <= entry["players"]["max"]
        )
    return Counter({Card.parse(name): count for name, count in deck.items()})


def counts(edition: str) -> range:
    players = spec_editions()[edition]["players"]
    return range(players["min"], players["max"] + 1)


def setup_fields(setup: Setup) -> dict[str, object]:
    return {field.name: getattr(setup, field.name) for field in attrs.fields(Setup)}


@pytest.fixture(params=sorted(BUILDERS))
def edition(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.mark.rule(
    "setup.deck-2019",
    "setup.deck-classic",
    "setup.deck-premium",
    "setup.player-count",
    "setup.player-count-premium",
)
def test_rebuilt_edition_decks_match_the_spec_at_every_player_count(edition: str) -> None:
    spec = spec_editions()[edition]
    ruleset = BUILDERS[edition]()
    assert ruleset.name == edition
    assert ruleset.title == spec["title"]
    assert (ruleset.min_players, ruleset.max_players) == (
        spec["players"]["min"],
        spec["players"]["max"],
    )
    for players in range(ruleset.max_players + 2):
        assert ruleset.supports(players) == (players in counts(edition))
    for players in counts(edition):
        expected = spec_deck(spec, players)
        setup = ruleset.setup(players)
        assert setup.players == players
        assert Counter(setup.deck) == expected, players
        assert setup.deck == tuple(sorted(setup.deck))
        assert setup.kinds == tuple(sorted(expected))
        assert ruleset.deck_for(players) == setup.deck
    largest = spec_deck(spec, ruleset.max_players)
    assert Counter(ruleset.deck) == largest
    assert ruleset.kinds == tuple(sorted(largest))
    for players in (0, 1, ruleset.max_players + 1):
        with pytest.raises(ValueError, match=f"{ruleset.min_players}-{ruleset.max_players}"):
            ruleset.setup(players)


@pytest.mark.rule("setup.card-values", "setup.card-values-premium")
def test_rebuilt_edition_values_match_the_spec(edition: str) -> None:
    ruleset = BUILDERS[edition]()
    values = spec_editions()[edition]["values"]
    assert {kind: ruleset.value(kind) for kind in ruleset.kinds} == {
        Card.parse(name): value for name, value in values.items()
    }
    assert len(ruleset.values) == len(Card)


@pytest.mark.rule("game.tokens-to-win", "game.tokens-to-win-premium")
def test_rebuilt_edition_token_thresholds_match_the_spec(edition: str) -> None:
    ruleset = BUILDERS[edition]()
    # online: no count of tokens wins a match (ruling 44)
    thresholds = spec_editions()[edition].get("tokens_to_win") or {}
    for players in counts(edition):
        assert ruleset.tokens_to_win(players) == thresholds.get(players)
        assert ruleset.setup(players).tokens_to_win == thresholds.get(players)
    # the table holds the edition's counts only (the Classic Version's not 5 or 6)
    assert ruleset.tokens_to_win_table == tuple(sorted(thresholds.items()))


@pytest.mark.rule("setup.two-player-face-up")
def test_rebuilt_edition_removes_three_cards_face_up_with_two_players_only(edition: str) -> None:
    ruleset = BUILDERS[edition]()
    for players in counts(edition):
        assert ruleset.face_up_count(players) == (3 if players == 2 else 0)


@pytest.mark.rule(
    "round.tie-all-win",
    "round.tie-discard-sum",
    "game.simultaneous-winners",
    "game.tie-break-round",
)
def test_rebuilt_edition_ties_are_broken_as_its_rules_say(edition: str) -> None:
    ruleset = BUILDERS[edition]()
    if edition in PREMIUM_BASED:
        assert (ruleset.round_tie, ruleset.game_tie) == (
            RoundTie.DISCARD_TOTAL,
            GameTie.TIE_BREAK_ROUND,
        )
    else:
        assert (ruleset.round_tie, ruleset.game_tie) == (RoundTie.ALL_TIED_WIN, GameTie.SHARED_WIN)


def test_rebuilt_edition_is_the_registered_one_field_for_field(edition: str) -> None:
    """Whatever a builder sets (titles, token words, limits, card rules),
    built again it equals the edition the registry holds. (The tables it
    derives from them are compared per player count below.)"""
    rebuilt = BUILDERS[edition]()
    registered = RULESETS[edition]
    for field in attrs.fields(Ruleset):
        if field.init:
            assert getattr(rebuilt, field.name) == getattr(registered, field.name), field.name


#: each edition's word for what a round earns, as its rulebook says it
TOKEN_WORDS = {
    "2019": ("1 favor token", "2 favor tokens"),
    "2019-classic": ("1 favor token", "2 favor tokens"),
    "premium": ("1 Token of Affection", "2 Tokens of Affection"),
    "online": ("1 win", "2 wins"),
}


def test_rebuilt_edition_counts_tokens_in_its_own_words(edition: str) -> None:
    ruleset = BUILDERS[edition]()
    assert (ruleset.tokens(1), ruleset.tokens(2)) == TOKEN_WORDS[edition]
    assert ruleset.tokens(0) == TOKEN_WORDS[edition][1].replace("2", "0", 1)


def test_rebuilt_edition_keeps_its_names_and_aliases(edition: str) -> None:
    ruleset = BUILDERS[edition]()
    registered = RULESETS[edition]
    assert ruleset.aliases == registered.aliases
    assert set(spec_editions()[edition].get("aliases", ())) <= set(ruleset.aliases)


@pytest.mark.rule("guard.name-non-guard", "guard.name-number", "bishop.name-number-and-player")
def test_rebuilt_edition_names_what_its_deck_holds(edition: str) -> None:
    """2019 editions name kinds, Premium names numbers; either way only
    what the deck in use holds, and the Guard never names itself (ruling 5,
    23 and 27); the Bishop may name the Guard's number."""
    ruleset = BUILDERS[edition]()
    assert ruleset.names_numbers == (edition in PREMIUM_BASED)
    for players in counts(edition):
        setup = ruleset.setup(players)
        names = setup.names
        if edition in PREMIUM_BASED:
            numbers = sorted({ruleset.values[kind] for kind in setup.kinds})
            assert names[Card.BISHOP] == tuple(numbers)
            assert names[Card.GUARD] == tuple(n for n in numbers if n != 1)
        else:
            assert names[Card.BISHOP] == setup.kinds
            assert names[Card.GUARD] == tuple(k for k in setup.kinds if k is not Card.GUARD)
        for card in Card:
            if ruleset.rules[card].names is Naming.NOTHING:
                assert names[card] == (), card


@pytest.mark.rule(
    "countess.forced-by-king-or-prince",
    "count.showdown-bonus",
    "assassin.guard-player-knocked-out",
    "constable.knocked-out-token",
    "spy.sole-spy-token",
    "jester.mark-expected-winner",
)
def test_rebuilt_edition_derives_every_card_table_as_the_registry_does(edition: str) -> None:
    """The per-card tables (choices, forbidden plays, showdown bonuses, the
    cards that react or score) come from the cards' rules; a rebuilt edition
    derives exactly the registered tables, and the ones the rules name."""
    ruleset = BUILDERS[edition]()
    registered = RULESETS[edition]
    for field in ("deck", "kinds", "choices", "forbids", "showdown_bonus", "values"):
        assert getattr(ruleset, field) == getattr(registered, field), field
    for players in counts(edition):
        assert setup_fields(ruleset.setup(players)) == setup_fields(registered.setup(players))
    assert ruleset.forbids[Card.COUNTESS] == {Card.KING, Card.PRINCE}
    assert {
        card: bonus for card, bonus in zip(Card, ruleset.showdown_bonus, strict=False) if bonus
    } == {Card.COUNT: 1}
    largest = ruleset.setup(ruleset.max_players)
    if edition in PREMIUM_BASED:
        assert largest.reacting == {Card.ASSASSIN}
        assert largest.knocked_out_tokens == ((Card.CONSTABLE, TokenReason.CONSTABLE),)
        assert [b.reason for b in largest.round_end_bonuses] == [TokenReason.JESTER]
        assert ruleset.setup(4).reacting == frozenset()
    else:
        assert largest.reacting == frozenset()
        assert largest.knocked_out_tokens == ()
        spy_bonus = [TokenReason.SPY] if edition == "2019" else []
        assert [b.reason for b in largest.round_end_bonuses] == spy_bonus


@pytest.mark.rule("guard.name-non-guard")
def test_a_kind_listed_with_no_copies_is_not_in_the_deck() -> None:
    """Only what the deck holds can be named (ruling 5): a composition that
    lists a kind with no copies does not make it a kind of the edition."""
    composition = ((Card.GUARD, 5), (Card.PRIEST, 2), (Card.SPY, 0), (Card.PRINCESS, 1))
    ruleset = attrs.evolve(RULESETS["2019-classic"], decks=((2, composition),))
    assert ruleset.kinds == (Card.GUARD, Card.PRIEST, Card.PRINCESS)
    assert ruleset.setup(2).names[Card.GUARD] == (Card.PRIEST, Card.PRINCESS)


@pytest.mark.rule("setup.deck-classic")
def test_removing_cards_drops_kinds_left_with_none_and_keeps_the_order() -> None:
    composition = ((Card.SPY, 2), (Card.GUARD, 6), (Card.KING, 1))
    assert _removing(composition, {Card.SPY: 2, Card.GUARD: 1}) == ((Card.GUARD, 5), (Card.KING, 1))
    assert _removing(composition, {}) == composition
    with pytest.raises(ValueError, match="cannot remove 3 Spy: the deck holds 2"):
        _removing(composition, {Card.SPY: 3})
    with pytest.raises(ValueError, match="cannot remove 1 Princess: the deck holds 0"):
        _removing(composition, {Card.PRINCESS: 1})


@pytest.mark.rule("setup.deck-premium")
def test_adding_cards_adds_copies_and_puts_new_kinds_last() -> None:
    composition = ((Card.GUARD, 5), (Card.KING, 1))
    assert _adding(composition, {Card.GUARD: 3, Card.BISHOP: 1}) == (
        (Card.GUARD, 8),
        (Card.KING, 1),
        (Card.BISHOP, 1),
    )
    assert _adding(composition, {}) == composition


@pytest.mark.rule("setup.card-values", "setup.card-values-premium")
def test_value_tables_give_every_card_a_slot_and_the_default_to_the_unnamed() -> None:
    table = _per_card(0, GUARD=1, PRINCESS=9)
    assert len(table) == len(Card)
    assert table[Card.GUARD] == 1
    assert table[Card.PRINCESS] == 9
    assert {
        v for card, v in zip(Card, table, strict=False) if card not in (Card.GUARD, Card.PRINCESS)
    } == {0}
    assert set(_per_card(7)) == {7}


def test_a_setup_beyond_the_edition_s_decks_is_refused() -> None:
    online = RULESETS["online"]
    assert online.setup(3, 3).deck == tuple(sorted(online.deck_for(3, 1) * 3))
    for decks in (0, 4):
        with pytest.raises(ValueError, match=r"^online plays with 1 to 3 deck\(s\)$"):
            online.setup(3, decks)
