"""The narrator: every event type told in English, nothing told that the
viewer may not know."""

from __future__ import annotations

import functools
import random
import re

import attrs
import pytest

import loveletter as ll
from loveletter.cards import Card
from loveletter.commands import (
    Decline,
    DrawCard,
    KeepCard,
    Leave,
    LookAtHand,
    PlayCard,
    Redraw,
    StartRound,
    TimeOut,
)
from loveletter.events import (
    EVENT_TYPES,
    CardDealt,
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardRevealed,
    CardSetAside,
    CardsReturned,
    ChancellorDrew,
    ChoiceRestricted,
    EliminationReason,
    Event,
    GameEnded,
    GameStarted,
    GameTied,
    HandsCompared,
    HandSeen,
    HandsTraded,
    LookOffered,
    OptionDeclined,
    PlayerEliminated,
    PlayerLeft,
    PlayerMarked,
    PositionEstablished,
    RedrawOffered,
    RoundEnded,
    RoundEndReason,
    RoundStarted,
    TokenAwarded,
    TokenReason,
    TurnStarted,
    TurnTimedOut,
)
from loveletter.narrative import Narrator, card_name, default_name, describe_command, narrate
from loveletter.notation import format_command
from loveletter.ranking import adjusted_values
from loveletter.simulation import play_game, random_bots
from loveletter.state import Decision

Log = tuple[Event, ...]

#: Premium games (players, seed) that between them hold every Premium event:
#: a tie for the game with two tie-break rounds (5 players, seed 48), a game
#: won mid-round, Bishop redraws, Assassin reveals, Cardinal looks.
PREMIUM_GAMES = ((2, 0), (4, 0), (5, 48), (8, 0), (8, 1), (8, 2))


@functools.cache
def games_2019() -> tuple[Log, ...]:
    """Real games: two- and four-player 2019 games between random bots.
    Between them they hold every event type a 2019 game can produce (a
    Prince taking the set-aside card, a Baron tie, a Chancellor on an empty
    deck)."""
    logs = []
    for seed in range(8):
        for players in (2, 4):
            record = play_game("2019", players, random_bots(players, seed), seed=seed)
            log = record.events
            logs.append(log)
    return tuple(logs)


@functools.cache
def games_premium() -> tuple[Log, ...]:
    logs = []
    for players, seed in PREMIUM_GAMES:
        record = play_game("premium", players, random_bots(players, seed), seed=seed)
        log = record.events
        logs.append(log)
    return tuple(logs)


#: online matches (players, seed, decks) that between them hold players
#: leaving (in their turn, in another's, while a Sycophant requires them,
#: as a Bishop's target deciding to redraw, already out, between rounds),
#: time-outs (of a turn and of a redraw offer), matches closing, partial
#: wins of every kind, Baronesses looking twice at one hand
ONLINE_MATCHES = ((4, 2, 3), (6, 4, 1), (7, 22, 2), (7, 28, 2), (6, 12, 2), (3, 7, 1))


def online_match(players: int, seed: int, decks: int, rounds: int = 4) -> ll.GameRecord:
    """A match between random moves, bounded by ``rounds`` (it never ends by
    itself), where now and then a player leaves or a host times out the
    player who must act."""
    rng = random.Random(seed)
    settings = ll.TableSettings(decks=decks)
    record = ll.GameRecord.new("online", players, seed=seed, settings=settings)
    while not record.is_over:
        state = record.state
        if state.round_over and state.round_number >= rounds:
            break
        roll = rng.random()
        # leaving and time-outs are likelier where they are rarer in play:
        # between rounds and at a Bishop's redraw offer
        leave, timeout = (0.25, 0.6) if state.decision is Decision.REDRAW else (0.03, 0.15)
        if state.round_over:
            leave = 0.08
        command: ll.Command
        if roll < leave:
            command = Leave(rng.choice(state.present()))
        elif roll < timeout and state.to_act is not None:
            command = TimeOut(state.to_act)
        else:
            command = rng.choice(ll.legal_commands(state))
        record = record.push(command)
    return record


@functools.cache
def games_online() -> tuple[Log, ...]:
    return tuple(online_match(*match).events for match in ONLINE_MATCHES)


def games() -> tuple[Log, ...]:
    """The whole corpus: the 2019 games, the Premium ones, the online ones."""
    return games_2019() + games_premium() + games_online()


def position_event() -> PositionEstablished:
    state = ll.new_game("2019", 3, seed=4)
    return PositionEstablished(ll.to_position(state))


def events_of(kind: type[Event], logs: tuple[Log, ...] | None = None) -> list[tuple[Log, int]]:
    """Where events of ``kind`` occur in the corpus (or in ``logs``): (log,
    index) pairs."""
    return [
        (log, index)
        for log in (games() if logs is None else logs)
        for index, event in enumerate(log)
        if isinstance(event, kind)
    ]


def sampled(kind: type[Event], each: int) -> list[tuple[Log, int]]:
    """Up to ``each`` occurrences of ``kind`` from each edition's games."""
    return (
        events_of(kind, games_2019())[:each]
        + events_of(kind, games_premium())[:each]
        + events_of(kind, games_online())[:each]
    )


def test_every_event_type_has_a_sentence() -> None:
    assert set(EVENT_TYPES.values()) <= Narrator().narrated_types


@pytest.mark.parametrize("name", sorted(EVENT_TYPES))
def test_every_event_type_is_told(name: str) -> None:
    kind = EVENT_TYPES[name]
    if kind is PositionEstablished:
        samples: list[Event] = [position_event()]
    else:
        samples = [log[index] for log, index in sampled(kind, 20)]
    assert samples, f"the corpus holds no {name}"
    for event in samples:
        for viewer in (None, 0, 1):
            lines = narrate([event], viewer=viewer)
            assert lines and all(lines), (event, viewer)
            assert not any(line.startswith("(") for line in lines), lines  # no generic fallback


def test_a_whole_game_reads_in_order() -> None:
    log = games_2019()[1]
    lines = narrate(log)
    assert lines[0].startswith("A game of Love Letter (Z-Man Games, 2019) begins with 4 players")
    assert "(Seed 0.)" in lines[0]
    assert lines[1] == "Round 1 begins. Player 0 starts."
    assert re.fullmatch(r"The \w+ is set aside face down\.", lines[2])
    assert lines[3].startswith("One card is dealt to each player: Player 0 the ")
    assert lines[4].startswith("Turn 1: Player 0 draws the ")
    assert "wins the game" in lines[-1]
    rounds = sum(isinstance(event, RoundEnded) for event in log)
    assert sum(line.startswith("Round ") and "begins" in line for line in lines) == rounds


def test_names_replace_player_numbers() -> None:
    lines = narrate(games_2019()[0], names=["Ann", "Bob"])
    text = "\n".join(lines)
    assert "Ann" in text and "Bob" in text
    assert "Player 0" not in text and "Player 1" not in text


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

    record = play_game("2019", 3, random_bots(3, 5), seed=5, observer=tell)
    log = record.events
    return told, log


# --------------------------------------------------------------------------
# what the absence of a follow-up means


def test_guard_guesses_are_called_right_or_wrong() -> None:
    right = wrong = 0
    for log, index, played, lines in plays(Card.GUARD, batches_2019()):
        if played.target is None:
            continue
        assert played.guess is not None
        eliminated = isinstance(log[index + 1], PlayerEliminated)
        # told as the edition names things: a card in 2019
        assert f"naming the {ll.Card(played.guess)}" in lines[0]
        if eliminated:
            right += 1
            assert lines[0].endswith("— right guess!")
        else:
            wrong += 1
            assert lines[0].endswith("— wrong guess.")
    assert right and wrong


def test_a_card_with_no_one_to_choose_has_no_effect() -> None:
    seen = set()
    for log in games_2019():
        for played in log:
            if not isinstance(played, CardPlayed):
                continue
            if played.target is None and played.card in (Card.GUARD, Card.PRIEST, Card.BARON):
                seen.add(played.card)
                line = narrate([played])[0]
                assert line.endswith("but no other player can be chosen: no effect.")
    assert seen
    king = CardPlayed(0, Card.KING)
    assert narrate([king]) == [
        "Player 0 plays the King, but no other player can be chosen: no effect."
    ]
    cardinal = CardPlayed(2, Card.CARDINAL)
    assert narrate([cardinal]) == [
        "Player 2 plays the Cardinal, but fewer than two players can be chosen: no effect."
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
    for log in games_2019():
        lines = narrate(log)
        traded += sum("trade hands. Player" in line and "now holds the" in line for line in lines)
        returned += sum(re.search(r"keeps the \w+ and puts", line) is not None for line in lines)
    assert traded and returned


def test_set_aside_draw_and_spy_token() -> None:
    text = "\n".join(line for log in games_2019() for line in narrate(log))
    assert re.search(r"takes the set-aside card, the \w+, as the deck is empty", text)
    assert "played or discarded a Spy" in text


def test_position_is_told_to_spectators_only() -> None:
    event = position_event()
    told = narrate([event])
    assert "described position: round 1, turn 1, Player 0 to play" in told[0]
    assert "Player 0 holds the " in told[1]
    assert narrate([event], viewer=1) == ["The game goes on from a described position."]


# --------------------------------------------------------------------------
# hidden information


def test_a_look_is_told_only_to_the_one_who_looks() -> None:
    """Priest, Baroness and Cardinal looks alike."""
    checked = 0
    vias = set()
    for log, index in sampled(HandSeen, 10) + events_of(HandSeen, games_premium())[-10:]:
        seen = log[index]
        assert isinstance(seen, HandSeen) and seen.card is not None
        vias.add(seen.via)
        so_far = log[: index + 1]  # the reveal is the last line told
        omniscient = narrate(so_far)
        assert omniscient[-1].endswith(f"hand and sees the {card_name(seen.card)}.")
        for viewer in range(ll.replay(log).players):
            told = narrate(so_far, viewer=viewer)
            assert len(told) == len(omniscient)
            if viewer == seen.viewer:
                assert told[-1] == omniscient[-1]
            else:
                assert told[-1].endswith("hand in secret.")
                assert card_name(seen.card) not in told[-1]
            checked += 1
    assert checked
    assert {Card.PRIEST, Card.BARONESS, Card.CARDINAL} <= vias


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
    for log, index in sampled(kind, 50):
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
    for log in games_2019()[:6] + games_premium():
        players = ll.replay(log).players
        for viewer in range(players):
            text = "\n".join(narrate(log, viewer=viewer))
            assert "(Seed" not in text
            assert "set aside face down, unseen" in text
            me = f"Player {viewer}"
            for other in range(players):
                if other == viewer:
                    continue
                name = f"Player {other}"
                assert not re.search(rf"{name} draws the (?!last card of the deck)", text)
                assert not re.search(rf"dealt to each (tied )?player: .*{name} the ", text)
                assert not re.search(rf"{name} draws \d cards for the Chancellor:", text)
                assert not re.search(rf"{name} looks at .* and sees", text)
            for line in re.findall(r".* compare hands in secret: .*", text):
                assert line.startswith(me) or f"and {me} compare" in line
            # Trades are told without their cards: only the folded game knows them.
            assert "now holds" not in text


def test_a_players_narrative_keeps_public_facts() -> None:
    log = games_2019()[1]
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
        "Play the Guard on Player 2, naming the Priest"
    )
    assert describe_command(PlayCard(1, Card.PRINCE, 1)) == "Play the Prince on yourself"
    assert describe_command(PlayCard(1, Card.BARON, 0)) == "Play the Baron against Player 0"
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
    assert lines == ["Player 0 and Player 2 win the game together, with 0 and 0 favor tokens!"]
    assert narrate([HandsTraded(0, 1)]) == ["Player 0 and Player 1 trade hands."]
    assert narrate([CardDrawn(1, None)]) == ["Player 1 draws a card."]


# --------------------------------------------------------------------------
# Premium plays

#: the events that start a batch: a step of the story with its consequences
STEPS = (CardPlayed, TurnStarted, RoundEnded, RoundStarted, GameEnded, GameTied)


def told_by_step(log: Log) -> dict[int, list[str]]:
    """``log`` told step by step: the lines of the step that starts at each
    index (a played card and what it caused, a Bishop's redraw or a
    Cardinal's look included), the story so far known to the narrator."""
    narrator = Narrator()
    starts = [i for i, event in enumerate(log) if i == 0 or isinstance(event, STEPS)]
    return {
        start: narrator.narrate(log[start:stop])
        for start, stop in zip(starts, [*starts[1:], len(log)], strict=True)
    }


@functools.cache
def premium_batches() -> tuple[tuple[Log, dict[int, list[str]]], ...]:
    return tuple((log, told_by_step(log)) for log in games_premium())


@functools.cache
def batches_2019() -> tuple[tuple[Log, dict[int, list[str]]], ...]:
    return tuple((log, told_by_step(log)) for log in games_2019())


def plays(
    card: Card, batches: tuple[tuple[Log, dict[int, list[str]]], ...]
) -> list[tuple[Log, int, CardPlayed, list[str]]]:
    """Every play of ``card`` in the games, with the lines told for it and
    its consequences."""
    found = []
    for log, lines in batches:
        for index, told in lines.items():
            played = log[index]
            if isinstance(played, CardPlayed) and played.card is card:
                found.append((log, index, played, told))
    return found


def premium_plays(card: Card) -> list[tuple[Log, int, CardPlayed, list[str]]]:
    return plays(card, premium_batches())


def _premium_text(viewer: int | None = None) -> str:
    return "\n".join(line for log in games_premium() for line in narrate(log, viewer=viewer))


def test_display_names_have_spaces() -> None:
    assert card_name(Card.DOWAGER_QUEEN) == "Dowager Queen"
    assert card_name(Card.GUARD) == "Guard"
    for viewer in (None, 0):
        assert "DowagerQueen" not in _premium_text(viewer)
    assert "Dowager Queen" in _premium_text()


def hits(log: Log, number: int) -> str:
    """The cards a named number hits in the deck of ``log``'s game, as the
    narrator glosses them: "Prince or Count"."""
    start = log[0]
    assert isinstance(start, GameStarted)
    rules = ll.get_ruleset(start.ruleset)
    kinds = rules.setup(start.players).kinds
    return " or ".join(card_name(card) for card in kinds if rules.value(card) == number)


def test_premium_guards_name_numbers() -> None:
    right = wrong = revealed = 0
    small_deck = False
    for log, index, played, lines in premium_plays(Card.GUARD):
        if played.target is None:
            continue
        assert played.guess is not None
        named = f"naming {int(played.guess)} ({hits(log, int(played.guess))})"
        assert f"on Player {played.target}, {named}" in lines[0]
        start = log[0]
        assert isinstance(start, GameStarted)
        if start.players <= 4:
            small_deck = True  # the 16-card deck: a 5 is the Prince alone
            assert "Count)" not in lines[0] and "Jester" not in lines[0]
        if isinstance(log[index + 1], CardRevealed):
            revealed += 1
            assert lines[0].endswith(f"{named}.")
        elif isinstance(log[index + 1], PlayerEliminated):
            right += 1
            assert lines[0].endswith("— right guess!")
        else:
            wrong += 1
            assert lines[0].endswith("— wrong guess.")
    assert right and wrong and revealed and small_deck
    narrator = Narrator()
    narrator.narrate([GameStarted("premium", 6, None, 0), RoundStarted(1, 0, None)])
    assert narrator.narrate([CardPlayed(0, Card.GUARD, 1, 0)]) == [
        "Player 0 plays the Guard on Player 1, naming 0 (Jester or Assassin) — wrong guess."
    ]


def test_bishop_names_a_number_scores_and_offers_a_redraw() -> None:
    right = wrong = kept = redrawn = 0
    for log, index, played, lines in premium_plays(Card.BISHOP):
        if played.target is None:
            continue
        assert played.guess is not None
        target = f"Player {played.target}"
        named = f"naming {int(played.guess)} ({hits(log, int(played.guess))})"
        assert f" on {target}, {named} — " in lines[0]
        if not lines[0].endswith("— right number!"):
            wrong += 1
            assert lines[0].endswith("— wrong number.") and len(lines) == 1
            continue
        right += 1
        assert lines[1].startswith(
            f"Player {played.player} named {target}'s number with the Bishop"
            " and gains a Token of Affection ("
        )
        if not isinstance(log[index + 2], RedrawOffered):
            continue  # the token won the game
        assert lines[2] == f"{target} may discard their card and draw a new one, or keep it."
        answer = log[index + 3]
        if isinstance(answer, OptionDeclined):
            kept += 1
            assert lines[3] == f"{target} keeps their card."
        else:
            redrawn += 1
            assert isinstance(answer, CardDiscarded) and answer.player == played.target
            assert lines[3].startswith(f"{target} discards the {card_name(answer.card)}")
    assert right and wrong and kept and redrawn


def test_cardinal_swaps_then_offers_a_look() -> None:
    looked = declined = 0
    for log, index, played, lines in premium_plays(Card.CARDINAL):
        if played.target is None:
            continue
        assert re.fullmatch(
            r"Player \d plays the Cardinal, choosing (themselves|Player \d) and Player \d\.",
            lines[0],
        )
        traded = log[index + 1]
        assert isinstance(traded, HandsTraded) and traded.via is Card.CARDINAL
        assert lines[1].startswith(
            f"Player {traded.player} and Player {traded.opponent} trade hands."
        )
        assert re.fullmatch(
            r"Player \d may now look at (their new hand|Player \d's hand) or Player \d's hand\.",
            lines[2],
        )
        if isinstance(log[index + 3], OptionDeclined):
            declined += 1
            assert lines[3] == f"Player {played.player} looks at neither hand."
        else:
            looked += 1
            assert " hand and sees the " in lines[3]
    assert looked and declined


def test_baroness_looks_at_one_or_two_hands() -> None:
    counts = set()
    for _, _, played, lines in premium_plays(Card.BARONESS):
        if played.target is None:
            continue
        chosen = [s for s in (played.target, played.second_target) if s is not None]
        counts.add(len(chosen))
        names = " and ".join(f"Player {s}" for s in chosen)
        assert lines[0] == f"Player {played.player} plays the Baroness on {names}."
        assert len(lines) == 1 + len(chosen)
        for seat, line in zip(chosen, lines[1:], strict=True):
            assert f"looks at Player {seat}'s hand and sees the " in line
    assert counts == {1, 2}


#: cards that choose players and can be left with no one by a Sycophant
BLOCKABLE = frozenset(
    {
        Card.GUARD,
        Card.PRIEST,
        Card.BARON,
        Card.KING,
        Card.BISHOP,
        Card.DOWAGER_QUEEN,
        Card.JESTER,
        Card.BARONESS,
    }
)


def test_sycophant_requirement_is_told_and_explains_no_effect() -> None:
    blocked = 0
    for _, lines in premium_batches():
        required: int | None = None
        for told in lines.values():
            if required is not None and " plays the " in told[0]:
                if "Sycophant requires" in told[0]:
                    blocked += 1
                    card = told[0].split(" plays the ")[1].split(",")[0]
                    player = told[0].split(" plays the ")[0]
                    if player == f"Player {required}":
                        assert told[0].endswith(
                            f"requires them to choose themselves, which the {card} cannot:"
                            " no effect."
                        )
                    else:
                        assert told[0].endswith(
                            f"requires choosing Player {required}, who cannot be chosen: no effect."
                        )
                required = None
            for line in told:
                match = re.fullmatch(
                    r"The next card played, if it chooses players, must choose Player (\d)\.",
                    line,
                )
                if match:
                    required = int(match.group(1))
    assert blocked
    syco = premium_plays(Card.SYCOPHANT)
    assert syco
    for _, _, played, told in syco:
        assert played.target is not None
        assert told[1] == (
            f"The next card played, if it chooses players, must choose Player {played.target}."
        )


def test_jester_marks_and_pays() -> None:
    marks = paid = 0
    for log in games_premium():
        lines = narrate(log)
        marks += sum(
            re.fullmatch(
                r"Player \d bets on Player \d to win round \d+: a Token of Affection if they do\.",
                line,
            )
            is not None
            for line in lines
        )
        paid += sum(
            re.fullmatch(
                r"Player \d won round \d+, as Player \d's Jester bet: Player \d gains"
                r" a Token of Affection \(\d+ in all\)\.",
                line,
            )
            is not None
            for line in lines
        )
    assert marks == len(events_of(PlayerMarked, games_premium()))
    jester_tokens = sum(
        isinstance(e, TokenAwarded) and e.reason is TokenReason.JESTER
        for log in games_premium()
        for e in log
    )
    assert paid and paid == jester_tokens


def test_assassin_reveal_knocks_out_the_guards_player() -> None:
    checked = 0
    for log, index, played, lines in premium_plays(Card.GUARD):
        revealed = log[index + 1]
        if not isinstance(revealed, CardRevealed):
            continue
        guard, holder = f"Player {played.player}", f"Player {revealed.player}"
        out = log[index + 2]
        assert isinstance(out, PlayerEliminated) and out.reason is EliminationReason.ASSASSIN
        discarding = f", discarding the {card_name(out.discarded[0])}" if out.discarded else ""
        assert lines[1] == (
            f"{holder} reveals the Assassin: {guard}, who chose them with a Guard, is knocked"
            f" out instead{discarding}."
        )
        # the knock-out is told once, and the Assassin did act
        assert not any(
            "struck down" in line or line.startswith(f"{guard} is out") for line in lines[2:]
        )
        discarded = any(
            isinstance(e, CardDiscarded) and e.card is Card.ASSASSIN for e in log[index + 2 :]
        )  # unless the Guard's player's Constable token won the game
        assert (f"{holder} discards the revealed Assassin." in lines[2:]) is discarded
        checked += 1
    assert checked


def test_token_reasons_are_told() -> None:
    text = _premium_text()
    assert re.search(
        r"Player \d had the Constable in their discard pile when knocked out, and gains a"
        r" Token of Affection for it \(\d in all\)\.",
        text,
    )
    assert re.search(
        r"named Player \d's number with the Bishop and gains a Token of Affection", text
    )
    assert "favor token" not in text  # Premium's own name for them
    assert "Jester bet: " in text


def test_dowager_queen_comparisons() -> None:
    higher = tie = 0
    for log, index, played, lines in premium_plays(Card.DOWAGER_QUEEN):
        if played.target is None:
            continue
        assert lines[0].startswith(f"Player {played.player} plays the Dowager Queen against Player")
        out = log[index + 2]
        if isinstance(out, PlayerEliminated):
            higher += 1
            assert out.reason is EliminationReason.DOWAGER_COMPARISON
            assert lines[2].startswith(f"Player {out.player} has the higher card and is out")
            assert "tie" not in lines[1]
        else:
            tie += 1
            assert lines[1].endswith("It is a tie: no one is out.")
    assert higher and tie


def test_tied_game_and_tie_break_rounds() -> None:
    log = games_premium()[PREMIUM_GAMES.index((5, 48))]
    lines = narrate(log)
    tied = [line for line in lines if "tie-break" in line]
    assert tied[0] == (
        "Player 0 and Player 1 reach the Tokens of Affection to win together: the game is"
        " tied, and a tie-break round between them decides it."
    )
    assert tied[1] == (
        "Round 9 begins: a tie-break round for the game, dealt to Player 0 and Player 1 only."
        " Player 1 starts."
    )
    assert "still tied, they play another tie-break round." in tied[2]
    assert tied[3].startswith("Round 10 begins: a tie-break round")
    assert "One card is dealt to each tied player." in narrate(log, viewer=4)
    assert lines[-1] == "Player 1 wins the tie-break and the game with 6 Tokens of Affection!"
    assert sum(isinstance(e, GameTied) for e in log) == 2


def test_a_game_won_mid_round() -> None:
    mid = 0
    for log in games_premium():
        ended = next(i for i, e in enumerate(log) if isinstance(e, GameEnded))
        line = narrate(log)[-1]
        if isinstance(log[ended - 1], RoundEnded) or any(
            isinstance(e, RoundEnded) for e in log[ended - 3 : ended]
        ):
            assert "mid-round" not in line
        else:
            mid += 1
            assert re.fullmatch(
                r"Player \d wins the game at once, mid-round, with \d Tokens of Affection!",
                line,
            )
    assert mid


def test_showdowns_explain_counts_discard_totals_and_the_princess() -> None:
    narrator = Narrator(viewer=0)  # a player's narrator: no folding of forged events
    narrator.narrate([GameStarted("premium", 3, None, 0), RoundStarted(2, 0, None)])
    narrator.narrate(
        [TurnStarted(0), CardPlayed(0, Card.COUNT), TurnStarted(1), CardPlayed(1, Card.KING)]
    )
    assert narrator.narrate(
        [RoundEnded(RoundEndReason.DECK_EMPTY, (0,), ((0, Card.PRINCE), (1, Card.PRINCE)))]
    ) == [
        "The deck is empty, so round 2 ends. Hands shown: Player 0 the Prince (5, +1 for the"
        " Count: 6), Player 1 the Prince (5).",
        "Player 0 has the highest number and wins round 2.",
    ]
    narrator.narrate([RoundStarted(3, 0, None), CardPlayed(0, Card.KING)])
    narrator.narrate([CardPlayed(1, Card.PRIEST), CardPlayed(2, Card.BARON)])
    revealed: tuple[tuple[int, Card], ...] = ((0, Card.GUARD), (1, Card.GUARD), (2, Card.GUARD))
    assert narrator.narrate([RoundEnded(RoundEndReason.DECK_EMPTY, (0,), revealed)])[1] == (
        "Player 0, Player 1 and Player 2 tie with the highest card; the highest discard"
        " total breaks the tie (Player 0 6, Player 1 2, Player 2 3): Player 0 wins round 3."
    )
    narrator.narrate([RoundStarted(4, 0, None)])
    revealed = ((0, Card.PRINCESS), (1, Card.BISHOP))
    assert narrator.narrate([RoundEnded(RoundEndReason.DECK_EMPTY, (0,), revealed)])[1] == (
        "Player 0 wins round 4, as nobody beats them: Player 0's Princess beats Player 1's"
        " Bishop whatever the numbers."
    )
    narrator.narrate([RoundStarted(5, 0, None)])
    revealed = ((0, Card.GUARD), (2, Card.GUARD))
    assert narrator.narrate([RoundEnded(RoundEndReason.DECK_EMPTY, (0, 2), revealed)])[1] == (
        "Player 0 and Player 2 tie with the highest card and the same discard total (0),"
        " and all win round 5."
    )


def test_premium_sentences() -> None:
    assert narrate([ChoiceRestricted(0, 2)]) == [
        "The next card played, if it chooses players, must choose Player 2."
    ]
    assert narrate([PlayerMarked(1, 0)]) == [
        "Player 1 bets on Player 0 to win the round: a favor token if they do."
    ]
    assert narrate([LookOffered(0, (0, 3))]) == [
        "Player 0 may now look at their new hand or Player 3's hand."
    ]
    assert narrate([RedrawOffered(2)]) == [
        "Player 2 may discard their card and draw a new one, or keep it."
    ]
    assert narrate([OptionDeclined(2)]) == ["Player 2 declines."]
    assert narrate([LookOffered(0, (1, 2)), OptionDeclined(0)])[-1] == (
        "Player 0 looks at neither hand."
    )
    assert narrate([CardPlayed(0, Card.SYCOPHANT, 0)]) == [
        "Player 0 plays the Sycophant and chooses themselves."
    ]
    assert narrate([CardPlayed(0, Card.CONSTABLE)]) == [
        "Player 0 plays the Constable: if they are knocked out this round, it earns them a"
        " favor token."
    ]
    assert narrate([ChoiceRestricted(0, 1), CardPlayed(1, Card.GUARD)])[-1] == (
        "Player 1 plays the Guard, but the Sycophant requires them to choose themselves,"
        " which the Guard cannot: no effect."
    )
    assert narrate([GameTied((0, 3))]) == [
        "Player 0 and Player 3 reach the favor tokens to win together: the game is tied, and"
        " a tie-break round between them decides it."
    ]
    assert narrate([TokenAwarded(0, TokenReason.JESTER, 2)]) == [
        "The marked player won the round, as Player 0's Jester bet: Player 0 gains a favor"
        " token (2 in all)."
    ]
    eliminated = PlayerEliminated(1, EliminationReason.DOWAGER_COMPARISON, (Card.DOWAGER_QUEEN,))
    assert narrate([eliminated]) == [
        "Player 1 has the higher card and is out of the round, discarding the Dowager Queen."
    ]
    # alone, the reveal says no more: the knock-out is told by its own event
    assert narrate([CardRevealed(2, Card.ASSASSIN)]) == ["Player 2 reveals the Assassin."]
    struck = PlayerEliminated(0, EliminationReason.ASSASSIN, (Card.PRIEST,))
    assert narrate([CardRevealed(2, Card.ASSASSIN), struck, CardDiscarded(2, Card.ASSASSIN)]) == [
        "Player 2 reveals the Assassin: Player 0, who chose them with a Guard, is knocked out"
        " instead, discarding the Priest.",
        "Player 2 discards the revealed Assassin.",
    ]
    assert narrate([HandSeen(0, 2, None, Card.CARDINAL)]) == [
        "Player 0 looks at Player 2's hand in secret."
    ]


def test_describe_premium_commands() -> None:
    assert describe_command(PlayCard(0, Card.GUARD, 2, 5)) == "Play the Guard on Player 2, naming 5"
    numbers = {5: [Card.PRINCE, Card.COUNT]}.get
    assert describe_command(PlayCard(0, Card.BISHOP, 1, 5), numbers=lambda n: numbers(n) or []) == (
        "Play the Bishop on Player 1, naming 5 (Prince or Count)"
    )
    assert describe_command(PlayCard(2, Card.CARDINAL, 0, second_target=2)) == (
        "Play the Cardinal: swap your hand with Player 0's"
    )
    assert describe_command(PlayCard(0, Card.CARDINAL, 1, second_target=2)) == (
        "Play the Cardinal: swap the hands of Player 1 and Player 2"
    )
    assert describe_command(PlayCard(0, Card.BARONESS, 1, second_target=3)) == (
        "Play the Baroness on Player 1 and Player 3"
    )
    assert describe_command(PlayCard(0, Card.JESTER)) == (
        "Play the Jester (no one can be chosen: no effect)"
    )
    assert describe_command(PlayCard(0, Card.DOWAGER_QUEEN, 1)) == (
        "Play the Dowager Queen against Player 1"
    )
    assert describe_command(LookAtHand(0, 2)) == "Look at Player 2's hand"
    assert describe_command(LookAtHand(0, 0)) == "Look at your new hand"
    assert describe_command(Redraw(1)) == "Discard your card and draw a new one"
    assert describe_command(Decline(1), decision=Decision.REDRAW) == "Keep your card"
    assert describe_command(Decline(0), decision=Decision.LOOK) == "Look at neither hand"


# --------------------------------------------------------------------------
# seat names and the move notation


def test_seats_are_named_from_zero() -> None:
    assert default_name(0) == "Player 0"
    assert narrate([CardDrawn(0, None)]) == ["Player 0 draws a card."]


def _moves_told(lines: list[str]) -> list[str]:
    return [match.group(1) for line in lines if (match := re.search(r" \[(P\d.*)\]$", line))]


def test_notation_follows_each_move_in_order() -> None:
    """Every move of the game (the deals aside), in the notation, at the end
    of its line, in order: a card play is its CardPlayed's fields."""
    for log in games():
        moves = [c for c in ll.GameRecord(log).commands() if not isinstance(c, StartRound)]
        told = narrate(log, notation=True)
        assert _moves_told(told) == [format_command(c) for c in moves]
        assert not _moves_told(narrate(log))  # off by default
        assert [re.sub(r" \[P\d.*\]$", "", line) for line in told] == narrate(log)


def test_notation_for_a_player_tells_only_what_they_know() -> None:
    """A player's story gives every move but the Chancellor's keeps, whose
    kept card its events do not tell (not even to the one who kept it)."""
    for log in games_2019()[:4] + games_premium()[:3]:
        moves = [
            format_command(c)
            for c in ll.GameRecord(log).commands()
            if not isinstance(c, StartRound | KeepCard)
        ]
        for viewer in range(ll.replay(log).players):
            assert _moves_told(narrate(log, viewer=viewer, notation=True)) == moves


def test_notation_of_optional_steps() -> None:
    offered = [LookOffered(0, (1, 2)), HandSeen(0, 2, Card.GUARD, Card.CARDINAL)]
    assert narrate(offered, notation=True)[-1].endswith(" [P0 look at P2]")
    assert narrate([RedrawOffered(2), OptionDeclined(2)], notation=True)[-1].endswith(
        " [P2 decline]"
    )
    redraw = [RedrawOffered(2), CardDiscarded(2, Card.GUARD), CardDrawn(2, None)]
    told = narrate(redraw, notation=True)
    assert told[1] == "Player 2 discards the Guard without using it. [P2 redraw]"
    # a Priest's look is part of its card's move, not a move of its own
    assert not narrate([HandSeen(0, 1, Card.GUARD, Card.PRIEST)], notation=True)[0].endswith("]")
    played = narrate([CardPlayed(0, Card.GUARD, 2, Card.PRIEST)], notation=True)
    assert played == [
        "Player 0 plays the Guard on Player 2, naming the Priest — wrong guess."
        " [P0 Guard on P2 naming Priest]"
    ]


# --------------------------------------------------------------------------
# online


ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"]


def _names(seats: list[int]) -> str:
    names = [f"Player {seat}" for seat in seats]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _seats_in(text: str) -> tuple[int, ...]:
    """The seats of "Player 1, Player 0 and Player 2"."""
    return tuple(int(seat) for seat in re.findall(r"Player (\d)", text))


def _before_each(log: Log) -> list[ll.GameState | None]:
    """The state each event of ``log`` applies to (``None`` for the first)."""
    states: list[ll.GameState | None] = [None]
    state = ll.replay(log[:1])
    for event in log[1:]:
        states.append(state)
        state = ll.evolve(state, event)
    return states


def told_by_command(log: Log, viewer: int | None = None) -> dict[int, list[str]]:
    """``log`` told as ``loveletter play`` tells it: each command's events
    in one batch, keyed by the index of the batch's first event."""
    record = ll.GameRecord(log[:1])
    narrator = Narrator(viewer=viewer)
    told = {0: narrator.narrate(record.events)}
    for command in ll.GameRecord(log).commands():
        start = len(record.events)
        record = record.push(command)
        told[start] = narrator.narrate(record.events[start:])
    assert record.events == log
    return told


@functools.cache
def online_batches() -> tuple[tuple[Log, dict[int, list[str]]], ...]:
    return tuple((log, told_by_command(log)) for log in games_online())


def _online_text(viewer: int | None = None) -> str:
    return "\n".join(line for log in games_online() for line in narrate(log, viewer=viewer))


def test_an_online_match_is_told_in_its_own_words() -> None:
    for log in games_online():
        started = log[0]
        assert isinstance(started, GameStarted) and started.settings is not None
        for viewer in (None, 0, started.players - 1):
            lines = narrate(log, viewer=viewer)
            assert lines[0].startswith(
                f"A match of Love Letter online, perpetual variant (ranks and win counters)"
                f" begins with {started.players} players: Player 0, "
            )
            assert "No one wins the match: each round ranks the players" in lines[0]
            assert ("(Seed " in lines[0]) is (viewer is None)
            decks = started.settings.decks
            copies = "one deck" if decks == 1 else f"{decks} decks shuffled together"
            size = len(ll.get_ruleset("online").deck_for(started.players, decks))
            assert lines[1] == (
                f"The table plays with {copies} ({size} cards), 20 seconds a turn; a player who"
                " runs out of time has a move drawn at random for them."
            )
            text = "\n".join(lines)
            assert "favor token" not in text and "wins the game" not in text
            assert "set aside" not in text  # no card is set aside online
            assert not any(line.startswith("(") for line in lines)  # no generic fallback


def test_each_round_tells_its_drawn_turn_order_and_why_its_first_player_starts() -> None:
    rounds = swapped = 0
    for log in games_online():
        lines = [line for line in narrate(log) if re.match(r"Round \d+ begins\.", line)]
        starts = [e for e in log if isinstance(e, RoundStarted)]
        ends = [e for e in log if isinstance(e, RoundEnded)]
        left: set[int] = set()
        assert len(lines) == len(starts)
        for event, line in zip(starts, lines, strict=True):
            assert event.order is not None
            rounds += 1
            told = re.fullmatch(
                rf"Round {event.round_number} begins\. Turn order for this round: ([^.]+)\."
                r"( \(([^)]+), who left the match, sits? out\.\))?"
                r" (.+)",
                line,
            )
            assert told is not None, line
            assert _seats_in(told[1]) == event.order
            left = {e.player for e in log[: log.index(event)] if isinstance(e, PlayerLeft)}
            assert (_seats_in(told[3]) if told[3] else ()) == tuple(sorted(left))
            first = f"Player {event.first_player}"
            if event.round_number == 1:
                assert told[4] == f"{first} starts."
                continue
            previous = ends[event.round_number - 2].winners
            if event.first_player in previous:
                swapped += 1
                assert told[4] == (
                    f"{first}, who ranked first in round {event.round_number - 1}, starts."
                )
            else:
                assert not set(previous) - left  # every previous winner has left
                assert told[4].endswith(f"so the draw alone decides: {first} starts.")
    assert rounds > len(games_online()) and swapped


def test_online_ranks_are_told_with_their_true_reasons() -> None:
    """Each ranked end: the hands with their adjusted values, the ranks by
    value then discard total, the others by the order they went out, all
    read back and checked against the engine's ranks and a fold of the game."""
    pile_ends = survivor_ends = exits_told = 0
    for log in games_online():
        told = told_by_step(log)  # a round's end starts a step
        before = _before_each(log)
        for index, lines in told.items():
            event = log[index]
            if not isinstance(event, RoundEnded):
                continue
            state = before[index]
            assert state is not None and event.ranks is not None
            ranks = event.ranks
            rules = state.ruleset
            number = state.round_number
            rest = lines[1:]
            if event.revealed:
                pile_ends += 1
                adjusted = adjusted_values(rules, event.revealed, state.discards)
                head = re.fullmatch(
                    rf"The pile is down to one card or none, so round {number} ends\."
                    r" Hands shown: (.+)\.",
                    lines[0],
                )
                assert head is not None, lines[0]
                for seat, card in event.revealed:
                    shown = re.search(rf"Player {seat} the {card_name(card)} \(([^)]+)\)", head[1])
                    assert shown is not None
                    assert shown[1].split(": ")[-1] == str(adjusted[seat])
                ranked = re.fullmatch(
                    r"Ranks by adjusted hand value, then discard total: ([^.]+)\.( .+)?", rest[0]
                )
                assert ranked is not None, rest[0]
                for part in ranked[1].split("; "):
                    which = re.fullmatch(
                        r"(\w+) (.+?)(, tied)? \((\d+)(, discard total (\d+)( each)?)?\)", part
                    )
                    assert which is not None, part
                    seats = _seats_in(which[2])
                    assert (len(seats) > 1) is bool(which[3])
                    for seat in seats:
                        assert ranks[seat] == ORDINALS.index(which[1]) + 1
                        assert adjusted[seat] == int(which[4])
                        if which[6] is not None:
                            assert sum(map(rules.value, state.discards[seat])) == int(which[6])
                    same = [s for s, _ in event.revealed if adjusted[s] == int(which[4])]
                    assert (which[6] is not None) is (len(same) > 1)
                rest = rest[1:]
            else:
                survivor_ends += 1
                (winner,) = event.winners
                assert (
                    lines[0] == f"Only Player {winner} is left in round {number}, and ranks first."
                )
            others = [
                s
                for s, r in enumerate(ranks)
                if r is not None and r > len(event.revealed or event.winners)
            ]
            if others:
                exits_told += 1
                below = re.fullmatch(
                    r"The others rank by the order they went out, the last out highest: (.+)\.",
                    rest[0],
                )
                assert below is not None, rest[0]
                pairs = [item.split(" Player ") for item in below[1].split(", ")]
                assert [(ORDINALS.index(o) + 1, int(s)) for o, s in pairs] == sorted(
                    (ranks[s] or 0, s) for s in others
                )
                # the last to go out ranks highest
                after = ll.evolve(state, event)
                assert [int(s) for _, s in pairs] == list(reversed(after.exits))
                rest = rest[1:]
            unranked = [s for s, r in enumerate(ranks) if r is None]
            if unranked:
                verb = "has" if len(unranked) == 1 else "have"
                assert rest[0] == f"{_names(unranked)}, who left the match, {verb} no rank."
    assert pile_ends and survivor_ends and exits_told


def test_leaving_is_told_with_what_it_does_to_the_turn() -> None:
    """Each leave, checked against the state it left: out of the round or
    not, the turn ended or not, a redraw offer or a Sycophant's demand
    lapsing or not."""
    seen: set[str] = set()
    for log, told in online_batches():
        before = _before_each(log)
        for index, event in enumerate(log):
            if not isinstance(event, PlayerLeft):
                continue
            state = before[index]
            assert state is not None
            player = event.player
            lines = told[index]
            at = 0
            line = lines[at]
            was_in = not state.round_over and player not in state.out
            assert line.startswith(
                f"Player {player} leaves the match and will be dealt into no later round"
            )
            if state.round_over:
                seen.add("between rounds")
                assert line.endswith("round.")
            elif not was_in:
                seen.add("already out")
                assert line.endswith("(they were already out of this round).")
            if not was_in:
                continue
            out = lines[at + 1]
            assert out.startswith(f"Player {player} is out of the round")
            eliminated = log[index + 1]
            assert isinstance(eliminated, PlayerEliminated)
            assert eliminated.reason is EliminationReason.LEFT
            if eliminated.discarded:
                assert f", and {_cards_text(eliminated.discarded)} go" in out
                assert "face up without effect" in out
            turn_ends = player == state.current
            redraw = state.decision is Decision.REDRAW
            assert ("their turn ends at once" in out) is turn_ends
            if turn_ends:
                seen.add("in their turn")
                assert isinstance(log[index + 2], TurnStarted | RoundEnded)
            if redraw and player == state.pending[0]:
                seen.add("a redraw offer lapses")
                assert (
                    f"their offer to redraw lapses, and Player {state.current}'s turn ends" in out
                )
            elif redraw and turn_ends:
                assert f"Player {state.pending[0]}'s offer to redraw lapses with it" in out
            if state.required is not None and (state.required == player or turn_ends):
                seen.add("a demand lapses")
                assert "the Sycophant's demand to choose " in out
                after = _before_each(log)[index + 2]
                assert after is not None and after.required is None
            elif not turn_ends and not redraw:
                seen.add("in another's turn")
                assert out.endswith("without effect.") or out.endswith("round.")
    assert seen == {
        "between rounds",
        "already out",
        "in their turn",
        "in another's turn",
        "a redraw offer lapses",
        "a demand lapses",
    }


def _cards_text(cards: tuple[Card, ...]) -> str:
    return _names_of([f"the {card_name(card)}" for card in cards])


def _names_of(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def test_a_time_out_is_told_with_the_random_move_it_made() -> None:
    timed = redraws = 0
    for log, told in online_batches():
        for index, event in enumerate(log):
            if not isinstance(event, TurnTimedOut):
                continue
            lines = told[index]
            line = f"Player {event.player} runs out of time, so a move is drawn at random for them:"
            at = lines.index(line)
            move = log[index + 1]
            following = lines[at + 1]
            if isinstance(move, CardPlayed):
                timed += 1
                assert following.startswith(
                    f"Player {event.player} plays the {card_name(move.card)}"
                )
            else:
                redraws += 1
                assert following in (
                    f"Player {event.player} keeps their card.",
                    f"Player {event.player} discards the {card_name(move.card)} without using it."
                    if isinstance(move, CardDiscarded)
                    else "",
                )
    assert timed and redraws


def test_online_notation_gives_leaves_and_time_outs_not_the_random_moves() -> None:
    for log in games_online():
        moves = [c for c in ll.GameRecord(log).commands() if not isinstance(c, StartRound)]
        assert any(isinstance(c, Leave) for c in moves) or log is games_online()[-1]
        told = narrate(log, notation=True)
        assert _moves_told(told) == [format_command(c) for c in moves]
        timed = [line for line in told if re.match(r"Player \d runs out of time", line)]
        assert timed and all(re.search(r"for them: \[P\d timeout\]$", line) for line in timed)
        # the line after a time-out tells the random move with no move of its own
        for line in timed:
            assert not told[told.index(line) + 1].endswith("]")
        assert [re.sub(r" \[P\d.*\]$", "", line) for line in told] == narrate(log)


def test_online_baroness_looks_twice_in_order() -> None:
    twice = two = 0
    for _, _, played, lines in plays(Card.BARONESS, online_batches()):
        if played.target is None:
            continue
        first, second = played.target, played.second_target
        assert second is not None and first <= second
        if first == second:
            twice += 1
            assert (
                lines[0] == f"Player {played.player} plays the Baroness on Player {first}, twice."
            )
            assert f"looks at Player {first}'s hand and sees the " in lines[1]
            assert f"looks at Player {first}'s hand again and sees the " in lines[2]
        else:
            two += 1
            assert lines[0] == (
                f"Player {played.player} plays the Baroness on Player {first},"
                f" then Player {second}."
            )
            assert f"looks at Player {first}'s hand and sees the " in lines[1]
            assert f"looks at Player {second}'s hand and sees the " in lines[2]
    assert twice and two


def test_online_cardinal_swaps_an_ordered_pair_and_shows_the_first_new_hand() -> None:
    checked = own_first = 0
    for log, index, played, lines in plays(Card.CARDINAL, online_batches()):
        if played.target is None:
            continue
        first, second = played.target, played.second_target
        assert second is not None
        who = f"Player {played.player}"

        def them(seat: int, player: int = played.player) -> str:
            return "themselves" if seat == player else f"Player {seat}"

        assert (
            lines[0]
            == f"{who} plays the Cardinal, choosing {them(first)} first, then {them(second)}."
        )
        assert lines[1].startswith(f"Player {first} and Player {second} trade hands.")
        seen = log[index + 2]
        assert isinstance(seen, HandSeen) and seen.owner == first and seen.card is not None
        whose = "their" if first == played.player else f"Player {first}'s"
        assert lines[2] == f"{who} looks at {whose} new hand and sees the {card_name(seen.card)}."
        after = _before_each(log)[index + 3]
        assert after is not None
        (card,) = after.hands[first]
        assert card is seen.card
        own_first += first == played.player
        checked += 1
        # told to the others as a secret
        other = next(s for s in range(ll.replay(log[:1]).players) if s != played.player)
        assert narrate(log[: index + 3], viewer=other)[-1] == (
            f"{who} looks at {whose} new hand in secret."
        )
    assert checked and own_first


def test_online_partial_wins_are_called_partial_wins() -> None:
    text = _online_text()
    awards = [e for log in games_online() for e in log if isinstance(e, TokenAwarded)]
    partial = [e for e in awards if e.reason is not TokenReason.ROUND_WIN]
    assert {e.reason for e in partial} == {
        TokenReason.BISHOP,
        TokenReason.CONSTABLE,
        TokenReason.JESTER,
    }
    assert text.count(": a partial win (win counter: ") + text.count(
        "a partial win for Player"
    ) == len(partial)
    assert re.search(
        r"Player \d named Player \d's number with the Bishop: a partial win \(win counter: \d+\)\.",
        text,
    )
    assert re.search(
        r"Player \d had the Constable in their discard pile when knocked out: a partial win"
        r" \(win counter: \d+\)\.",
        text,
    )
    assert re.search(
        r"Player \d ranked first in round \d+, as Player \d's Jester bet: a partial win for"
        r" Player \d \(win counter: \d+\)\.",
        text,
    )
    wins = [e for e in awards if e.reason is TokenReason.ROUND_WIN]
    assert len(
        re.findall(r"Player \d ranked first and gains a win \(win counter: \d+\)\.", text)
    ) == len(wins)
    assert (
        "Player 0 plays the Constable: if they are knocked out this round, it earns them a"
        " partial win."
        in narrate([GameStarted("online", 5, None, 0), CardPlayed(0, Card.CONSTABLE)])
    )


def test_an_online_match_closes_when_fewer_than_two_are_present() -> None:
    closed = 0
    for log in games_online():
        if not isinstance(log[-1], GameEnded):
            continue
        closed += 1
        tokens = ll.replay(log).tokens
        counters = ", ".join(f"Player {s} {n}" for s, n in enumerate(tokens))
        for viewer in (None, 0):
            assert narrate(log, viewer=viewer)[-1] == (
                "Fewer than two players are left at the table, so the match closes."
                f" Win counters: {counters}."
            )
    assert closed


def test_online_narrating_batch_by_batch_equals_narrating_the_whole_log() -> None:
    for viewer in (None, 1):
        for log in games_online()[:3]:
            told = told_by_command(log, viewer)
            assert [line for start in sorted(told) for line in told[start]] == narrate(
                log, viewer=viewer
            )


def test_an_online_players_story_hides_other_hands() -> None:
    for log in games_online():
        players = ll.replay(log[:1]).players

        def ranked(lines: list[str]) -> list[str]:
            return [line for line in lines if line.startswith(("Ranks", "The others rank"))]

        everything = ranked(narrate(log))
        for viewer in range(players):
            # the ranks and their reasons are public: every player is told them
            assert ranked(narrate(log, viewer=viewer)) == everything
            text = "\n".join(narrate(log, viewer=viewer))
            assert "(Seed" not in text
            for other in set(range(players)) - {viewer}:
                name = f"Player {other}"
                assert not re.search(rf"{name} draws the ", text)
                assert not re.search(rf"dealt to each player( present)?: .*{name} the ", text)
                assert not re.search(rf"{name} looks at .* and sees", text)
            assert "now holds" not in text


def _bonus_position() -> ll.Position:
    """Five players, the pile down to its last card once Player 0 plays:
    the Princess beside a Bishop, a Countess with both Counts in her pile
    beside them (the Bishop's pile adds up to less), Player 4 out."""
    g = Card.GUARD
    return ll.Position(
        ruleset="online",
        players=5,
        deck=(Card.KING,),
        set_aside=None,
        face_up=(),
        hands=((Card.HANDMAID, g), (Card.PRINCESS,), (Card.BISHOP,), (Card.COUNTESS,), ()),
        # five turns each round the table from seat 0, Player 4 out after five
        discards=(
            (Card.BARONESS, g, g, Card.PRIEST, Card.BARON),
            (g, g, Card.PRIEST, Card.BARON, Card.PRINCE),
            (Card.BARONESS, Card.CARDINAL, g, g, Card.HANDMAID),
            (Card.CARDINAL, Card.COUNT, Card.COUNT, Card.SYCOPHANT, Card.SYCOPHANT),
            (g, Card.PRINCE, Card.DOWAGER_QUEEN, Card.CONSTABLE, Card.JESTER, Card.ASSASSIN),
        ),
        current=0,
        drawn=True,
        out=(4,),
        turn_number=26,
        order=(0, 1, 2, 3, 4),
        exits=(4,),
    )


def test_the_hand_bonus_is_told_with_its_reason() -> None:
    record = ll.GameRecord.from_position(_bonus_position()).push(PlayCard(0, Card.HANDMAID))
    ended = record.events[-2]
    assert isinstance(ended, RoundEnded) and ended.ranks == (4, 2, 3, 1, 5)
    for viewer in (None, 2):
        narrator = Narrator(viewer=viewer)
        narrator.join(_bonus_position())  # a player joins knowing the public part
        lines = narrator.narrate(record.events[1:])
        assert lines[-4:] == [
            "The pile is down to one card or none, so round 1 ends. Hands shown: Player 0 the"
            " Guard (1), Player 1 the Princess (8, +4 hand bonus: 12), Player 2 the Bishop (9),"
            " Player 3 the Countess (7, +2 for the Counts, +4 hand bonus: 13).",
            "Ranks by adjusted hand value, then discard total: first Player 3 (13); second"
            " Player 1 (12); third Player 2 (9); fourth Player 0 (1). Player 1's Princess gets"
            " the hand bonus, as another player holds a Bishop. Player 3's Countess gets the"
            " hand bonus: two Counts in their pile, the Princess in another hand, and a Bishop"
            " in a hand whose discard total is lower than theirs.",
            "The others rank by the order they went out, the last out highest: fifth Player 4.",
            "Player 3 ranked first and gains a win (win counter: 1).",
        ]


def _ranked_narrator() -> Narrator:
    """A player's narrator (forged events are not folded) at round 2 of a
    four-player match: Player 3 went out; piles Player 0 Priest (2),
    Player 1 Baron (3), Player 2 Guard and Guard (2)."""
    narrator = Narrator(viewer=0)
    narrator.narrate(
        [
            GameStarted("online", 4, None, 0, ll.TableSettings()),
            RoundStarted(2, 0, None, None, (0, 1, 2, 3)),
        ]
    )
    narrator.narrate(
        [
            CardPlayed(0, Card.PRIEST, 3),
            CardPlayed(1, Card.BARON, 2),
            CardPlayed(2, Card.GUARD, 3, 8),
            CardPlayed(3, Card.GUARD, 2, 3),
            CardPlayed(2, Card.GUARD, 3, 5),
            PlayerEliminated(3, EliminationReason.GUARD_GUESS, (Card.PRINCE,)),
        ]
    )
    return narrator


def test_tied_ranks_and_discard_totals() -> None:
    revealed = ((0, Card.GUARD), (1, Card.PRIEST), (2, Card.PRIEST))
    ended = RoundEnded(RoundEndReason.DECK_EMPTY, (1,), revealed, (3, 1, 2, 4))
    # Player 1 and Player 2 hold the Priest (2): Player 1's pile (3) beats Player 2's (2)
    assert _ranked_narrator().narrate([ended])[1] == (
        "Ranks by adjusted hand value, then discard total: first Player 1 (2, discard total 3);"
        " second Player 2 (2, discard total 2); third Player 0 (1)."
    )
    revealed = ((0, Card.PRIEST), (1, Card.GUARD), (2, Card.PRIEST))
    tied = RoundEnded(RoundEndReason.DECK_EMPTY, (0, 2), revealed, (1, 3, 1, 4))
    assert _ranked_narrator().narrate([tied])[1] == (
        "Ranks by adjusted hand value, then discard total: first Player 0 and Player 2, tied"
        " (2, discard total 2 each); third Player 1 (1)."
    )


def test_ranks_the_story_cannot_explain_are_told_without_a_reason() -> None:
    """Ranks that the public facts do not give (a forged or misread stream)
    are told as the engine gave them, with no reason: never a false one."""
    revealed = ((0, Card.PRIEST), (1, Card.GUARD), (2, Card.PRIEST))
    wrong = RoundEnded(RoundEndReason.DECK_EMPTY, (1,), revealed, (2, 1, 3, 4))
    lines = _ranked_narrator().narrate([wrong])
    assert lines[1] == "Ranks: first Player 1; second Player 0; third Player 2."
    assert lines[2] == "The others rank: fourth Player 3."
    assert "discard total" not in "\n".join(lines) and "order they went out" not in lines[2]


def test_a_jester_bet_that_came_true_pays_only_a_player_still_present() -> None:
    narrator = _ranked_narrator()
    narrator.narrate([CardPlayed(2, Card.JESTER, 1), PlayerMarked(2, 1)])
    narrator.narrate([PlayerLeft(2), PlayerEliminated(2, EliminationReason.LEFT, (Card.GUARD,))])
    ended = RoundEnded(
        RoundEndReason.DECK_EMPTY, (1,), ((0, Card.PRIEST), (1, Card.BARON)), (2, 1, 3, 4)
    )
    lines = narrator.narrate([ended, TokenAwarded(1, TokenReason.ROUND_WIN, 1)])
    assert lines[-2:] == [
        "Player 2's Jester bet on Player 1 came true, but Player 2 has left the match: no partial"
        " win.",
        "Player 1 ranked first and gains a win (win counter: 1).",
    ]


def test_online_table_settings_are_told() -> None:
    settings = ll.TableSettings(decks=2, turn_time_ms=7500, random_moves=False)
    lines = narrate([GameStarted("online", 6, None, 0, settings)])
    assert lines[1] == (
        "The table plays with 2 decks shuffled together (64 cards), 7.5 seconds a turn; no move"
        " is ever made at random for a player who runs out of time."
    )
    assert narrate([PlayerMarked(1, 0)]) == [
        "Player 1 bets on Player 0 to win the round: a favor token if they do."
    ]
    online = narrate([GameStarted("online", 6, None, 0, settings), PlayerMarked(1, 0)])
    assert online[-1] == (
        "Player 1 bets on Player 0 to rank first in the round: a partial win if they do, while"
        " Player 1 is still at the table."
    )
