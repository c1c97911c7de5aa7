"""The narrator: every event type told in English, nothing told that the
viewer may not know."""

from __future__ import annotations

import functools
import re

import attrs
import pytest

import loveletter as ll
from loveletter.cards import Card
from loveletter.commands import DrawCard, KeepCard, PlayCard, StartRound
from loveletter.events import (
    EVENT_TYPES,
    CardDealt,
    CardDrawn,
    CardPlayed,
    CardSetAside,
    CardsReturned,
    ChancellorDrew,
    Event,
    GameEnded,
    GameStarted,
    HandsCompared,
    HandSeen,
    HandsTraded,
    PlayerEliminated,
    PositionEstablished,
    RoundEnded,
    RoundStarted,
)
from loveletter.narrative import Narrator, describe_command, narrate
from loveletter.simulation import play_game, random_bots

Log = tuple[Event, ...]


@functools.cache
def games() -> tuple[Log, ...]:
    """Real games: two- and four-player 2019 games between random bots.
    Between them they hold every event type a game can produce (a Prince
    taking the set-aside card, a Baron tie, a Chancellor on an empty deck)."""
    logs = []
    for seed in range(8):
        for players in (2, 4):
            _, log = play_game("2019", players, random_bots(players, seed), seed=seed)
            logs.append(log)
    return tuple(logs)


def position_event() -> PositionEstablished:
    state = ll.new_game("2019", 3, seed=4)
    return PositionEstablished(ll.to_position(state))


def events_of(kind: type[Event]) -> list[tuple[Log, int]]:
    """Where events of ``kind`` occur in the corpus: (log, index) pairs."""
    return [
        (log, index)
        for log in games()
        for index, event in enumerate(log)
        if isinstance(event, kind)
    ]


def test_every_event_type_has_a_sentence() -> None:
    assert set(EVENT_TYPES.values()) <= Narrator().narrated_types


@pytest.mark.parametrize("name", sorted(EVENT_TYPES))
def test_every_event_type_is_told(name: str) -> None:
    kind = EVENT_TYPES[name]
    if kind is PositionEstablished:
        samples: list[Event] = [position_event()]
    else:
        samples = [log[index] for log, index in events_of(kind)][:20]
    assert samples, f"the corpus holds no {name}"
    for event in samples:
        for viewer in (None, 0, 1):
            lines = narrate([event], viewer=viewer)
            assert lines and all(lines), (event, viewer)
            assert not any(line.startswith("(") for line in lines), lines  # no generic fallback


def test_a_whole_game_reads_in_order() -> None:
    log = games()[1]
    lines = narrate(log)
    assert lines[0].startswith("A game of Love Letter (Z-Man Games, 2019) begins with 4 players")
    assert "(Seed 0.)" in lines[0]
    assert lines[1] == "Round 1 begins. Player 1 starts."
    assert re.fullmatch(r"The \w+ is set aside face down\.", lines[2])
    assert lines[3].startswith("One card is dealt to each player: Player 1 the ")
    assert lines[4].startswith("Turn 1: Player 1 draws the ")
    assert "wins the game" in lines[-1]
    rounds = sum(isinstance(event, RoundEnded) for event in log)
    assert sum(line.startswith("Round ") and "begins" in line for line in lines) == rounds


def test_names_replace_player_numbers() -> None:
    lines = narrate(games()[0], names=["Ann", "Bob"])
    text = "\n".join(lines)
    assert "Ann" in text and "Bob" in text
    assert "Player 1" not in text and "Player 2" not in text


def test_narrating_batch_by_batch_equals_narrating_the_whole_log() -> None:
    for viewer in (None, 2):
        told, log = _told_step_by_step(viewer)
        assert told == narrate(log, viewer=viewer)


def _told_step_by_step(viewer: int | None) -> tuple[list[str], Log]:
    """Narrate a game as ``loveletter play`` does, one step at a time."""
    narrator = Narrator(viewer=viewer)
    told: list[str] = []

    def tell(events: Log, state: ll.GameState) -> None:
        told.extend(narrator.narrate(events))

    _, log = play_game("2019", 3, random_bots(3, 5), seed=5, observer=tell)
    return told, log


# --------------------------------------------------------------------------
# what the absence of a follow-up means


def test_guard_guesses_are_called_right_or_wrong() -> None:
    right = wrong = 0
    for log, index in events_of(CardPlayed):
        played = log[index]
        assert isinstance(played, CardPlayed)
        if played.card is not Card.GUARD or played.target is None:
            continue
        eliminated = isinstance(log[index + 1], PlayerEliminated)
        line = narrate(log[index : index + 2])[0]
        assert f"naming the {played.guess}" in line
        if eliminated:
            right += 1
            assert line.endswith("— right guess!")
        else:
            wrong += 1
            assert line.endswith("— wrong guess.")
    assert right and wrong


def test_a_card_with_no_one_to_choose_has_no_effect() -> None:
    seen = set()
    for log, index in events_of(CardPlayed):
        played = log[index]
        assert isinstance(played, CardPlayed)
        if played.target is None and played.card in (Card.GUARD, Card.PRIEST, Card.BARON):
            seen.add(played.card)
            line = narrate([played])[0]
            assert line.endswith("but no other player can be chosen: no effect.")
    assert seen
    king = CardPlayed(0, Card.KING)
    assert narrate([king]) == [
        "Player 1 plays the King, but no other player can be chosen: no effect."
    ]


def test_baron_tie_and_loss() -> None:
    ties = losses = 0
    for log, index in events_of(HandsCompared):
        line = narrate(log[index : index + 2])[0]
        if isinstance(log[index + 1], PlayerEliminated):
            losses += 1
            assert "tie" not in line
        else:
            ties += 1
            assert line.endswith("It is a tie: no one is out.")
    assert ties and losses


def test_chancellor_on_an_empty_deck() -> None:
    empty = 0
    for log, index in events_of(CardPlayed):
        played = log[index]
        assert isinstance(played, CardPlayed)
        if played.card is Card.CHANCELLOR and not isinstance(log[index + 1], ChancellorDrew):
            empty += 1
            assert narrate(log[index : index + 2])[0].endswith("the deck is empty: no effect.")
    assert empty


def test_omniscient_narrative_follows_hands_through_trades_and_chancellors() -> None:
    traded = returned = 0
    for log in games():
        lines = narrate(log)
        traded += sum("trade hands. Player" in line and "now holds the" in line for line in lines)
        returned += sum(re.search(r"keeps the \w+ and puts", line) is not None for line in lines)
    assert traded and returned


def test_set_aside_draw_and_spy_token() -> None:
    text = "\n".join(line for log in games() for line in narrate(log))
    assert re.search(r"takes the set-aside card, the \w+, as the deck is empty", text)
    assert "played or discarded a Spy" in text


def test_position_is_told_to_spectators_only() -> None:
    event = position_event()
    told = narrate([event])
    assert "described position: round 1, turn 1, Player 1 to play" in told[0]
    assert "Player 1 holds the " in told[1]
    assert narrate([event], viewer=1) == ["The game goes on from a described position."]


# --------------------------------------------------------------------------
# hidden information


def _card_names(text: str) -> set[str]:
    return {str(card) for card in Card if re.search(rf"\b{card}\b", text)}


def test_a_priest_reveal_is_told_only_to_the_priest() -> None:
    checked = 0
    for log, index in events_of(HandSeen)[:10]:
        seen = log[index]
        assert isinstance(seen, HandSeen) and seen.card is not None
        so_far = log[: index + 1]  # the reveal is the last line told
        omniscient = narrate(so_far)
        assert omniscient[-1].endswith(f"hand and sees the {seen.card}.")
        for viewer in range(ll.replay(log).players):
            told = narrate(so_far, viewer=viewer)
            assert len(told) == len(omniscient)
            if viewer == seen.viewer:
                assert told[-1] == omniscient[-1]
            else:
                assert told[-1].endswith("hand in secret.")
                assert str(seen.card) not in told[-1]
            checked += 1
    assert checked


HIDING: tuple[type[Event], ...] = (
    GameStarted,
    RoundStarted,
    CardSetAside,
    CardDealt,
    CardDrawn,
    HandSeen,
    HandsCompared,
    ChancellorDrew,
    CardsReturned,
)


@pytest.mark.parametrize("kind", HIDING, ids=lambda kind: kind.__name__)
def test_hidden_fields_never_reach_the_text(kind: type[Event]) -> None:
    """A viewer's line for an event does not change when the cards (or the
    seed) they may not see are changed: the text cannot depend on them."""
    checked = 0
    for log, index in events_of(kind)[:50]:
        event = log[index]
        for viewer in range(ll.replay(log).players):
            if ll.redact(event, viewer) == event:
                continue  # nothing hidden from this viewer
            scrambled = _scrambled(event)
            if kind is not RoundStarted:  # the deck is told card by card, even to spectators
                assert narrate([scrambled]) != narrate([event])
            assert narrate([scrambled], viewer=viewer) == narrate([event], viewer=viewer)
            checked += 1
    assert checked


#: the fields that :func:`loveletter.redact` may hide
HIDDEN_FIELDS = {"seed", "deck", "card", "cards", "player_card", "opponent_card"}


def _scrambled(event: Event) -> Event:
    """``event`` with every hidden card swapped for another, and another seed."""

    def swap(value: object) -> object:
        if isinstance(value, Card):
            return Card.PRINCESS if value is not Card.PRINCESS else Card.GUARD
        if isinstance(value, tuple):
            return tuple(swap(v) for v in value)
        if isinstance(value, int):  # the seed
            return value + 1
        return value

    changes = {
        field.name: swap(getattr(event, field.name))
        for field in attrs.fields(type(event))
        if field.name in HIDDEN_FIELDS
    }
    return attrs.evolve(event, **changes)


def test_a_players_narrative_hides_other_hands() -> None:
    for log in games()[:6]:
        players = ll.replay(log).players
        for viewer in range(players):
            text = "\n".join(narrate(log, viewer=viewer))
            assert "(Seed" not in text
            assert "set aside face down, unseen" in text
            for other in range(players):
                if other == viewer:
                    continue
                name = f"Player {other + 1}"
                assert not re.search(rf"{name} draws the (?!last card of the deck)", text)
                assert not re.search(rf"dealt to each player: .*{name} the ", text)
                assert not re.search(rf"{name} draws \d cards for the Chancellor:", text)


def test_a_players_narrative_keeps_public_facts() -> None:
    log = games()[1]
    omniscient = narrate(log)
    told = narrate(log, viewer=0)
    shared = [line for line in omniscient if line in told]
    assert any("plays the" in line for line in shared)
    assert any("wins the game" in line for line in shared)
    assert sum(a != b for a, b in zip(omniscient, told, strict=True)) > 0


# --------------------------------------------------------------------------
# commands as menu entries


def test_describe_commands() -> None:
    assert describe_command(PlayCard(0, Card.GUARD, 2, Card.PRIEST)) == (
        "Play the Guard on Player 3, naming the Priest"
    )
    assert describe_command(PlayCard(1, Card.PRINCE, 1)) == "Play the Prince on your own hand"
    assert describe_command(PlayCard(1, Card.BARON, 0)) == "Play the Baron against Player 1"
    assert describe_command(PlayCard(1, Card.BARON)) == (
        "Play the Baron (no one can be chosen: no effect)"
    )
    assert describe_command(PlayCard(1, Card.HANDMAID)) == "Play the Handmaid"
    keep = KeepCard(0, Card.KING, (Card.GUARD, Card.SPY))
    assert describe_command(keep) == (
        "Keep the King; put the Guard and then the Spy at the bottom of the deck"
    )
    assert describe_command(DrawCard(0)) == "Draw a card"
    assert describe_command(StartRound()) == "Deal the next round"
    assert describe_command(PlayCard(0, Card.KING, 1), ["Ann", "Bob"].__getitem__) == (
        "Play the King with Bob"
    )


def test_game_end_names_every_winner() -> None:
    narrator = Narrator()
    narrator.narrate([GameStarted("2019", 3, 0, 0)])
    lines = narrator.narrate([GameEnded((0, 2))])
    assert lines == ["Player 1 and Player 3 win the game together, with 0 and 0 favor tokens!"]
    assert narrate([HandsTraded(0, 1)]) == ["Player 1 and Player 2 trade hands."]
    assert narrate([CardDrawn(1, None)]) == ["Player 2 draws a card."]
