"""The narrator: every event type told in English, nothing told that the
viewer may not know."""

from __future__ import annotations

import functools
import re

import attrs
import pytest

import loveletter as ll
from loveletter.cards import Card
from loveletter.commands import (
    Decline,
    DrawCard,
    KeepCard,
    LookAtHand,
    PlayCard,
    Redraw,
    StartRound,
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
    PlayerMarked,
    PositionEstablished,
    RedrawOffered,
    RoundEnded,
    RoundEndReason,
    RoundStarted,
    TokenAwarded,
    TokenReason,
    TurnStarted,
)
from loveletter.narrative import Narrator, card_name, default_name, describe_command, narrate
from loveletter.notation import format_command
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


def games() -> tuple[Log, ...]:
    """The whole corpus: the 2019 games, then the Premium ones."""
    return games_2019() + games_premium()


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
    return events_of(kind, games_2019())[:each] + events_of(kind, games_premium())[:each]


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
    assert describe_command(PlayCard(1, Card.PRINCE, 1)) == "Play the Prince on your own hand"
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


def test_premium_guards_name_numbers() -> None:
    right = wrong = revealed = 0
    for log, index, played, lines in premium_plays(Card.GUARD):
        if played.target is None:
            continue
        assert played.guess is not None
        assert f"on Player {played.target}, naming {int(played.guess)}" in lines[0]
        if isinstance(log[index + 1], CardRevealed):
            revealed += 1
            assert lines[0].endswith(f"naming {int(played.guess)}.")
        elif isinstance(log[index + 1], PlayerEliminated):
            right += 1
            assert lines[0].endswith("— right guess!")
        else:
            wrong += 1
            assert lines[0].endswith("— wrong guess.")
    assert right and wrong and revealed


def test_bishop_names_a_number_scores_and_offers_a_redraw() -> None:
    right = wrong = kept = redrawn = 0
    for log, index, played, lines in premium_plays(Card.BISHOP):
        if played.target is None:
            continue
        assert played.guess is not None
        target = f"Player {played.target}"
        assert f" on {target}, naming {int(played.guess)} — " in lines[0]
        if not lines[0].endswith("— right number!"):
            wrong += 1
            assert lines[0].endswith("— wrong number.") and len(lines) == 1
            continue
        right += 1
        assert lines[1].startswith(
            f"Player {played.player} named {target}'s number with the Bishop"
            " and gains a favor token ("
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
            r"Player \d may now look at (their own|Player \d's) or Player \d's hand\.", lines[2]
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
                    assert told[0].endswith(
                        f"requires choosing Player {required}, its own player, which the"
                        f" {told[0].split(' plays the ')[1].split(',')[0]} cannot: no effect."
                    ) or told[0].endswith("who cannot be chosen: no effect.")
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
                r"Player \d bets on Player \d to win round \d+: a favor token if they do\.", line
            )
            is not None
            for line in lines
        )
        paid += sum(
            re.fullmatch(
                r"Player \d won round \d+, as Player \d's Jester bet: Player \d gains"
                r" a favor token \(\d+ in all\)\.",
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
        assert lines[1] == (
            f"{holder} reveals the Assassin: {guard}, who chose them with a Guard, is knocked"
            " out instead."
        )
        assert lines[2].startswith(f"{guard} is struck down by the Assassin")
        checked += 1
    assert checked


def test_token_reasons_are_told() -> None:
    text = _premium_text()
    assert re.search(
        r"Player \d had the Constable in their discard pile when knocked out, and gains a"
        r" favor token for it \(\d in all\)\.",
        text,
    )
    assert re.search(r"named Player \d's number with the Bishop and gains a favor token", text)
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
        "Player 0 and Player 1 reach the favor tokens to win together: the game is tied,"
        " and a tie-break round between them decides it."
    )
    assert tied[1] == (
        "Round 9 begins: a tie-break round for the game, dealt to Player 0 and Player 1 only."
        " Player 1 starts."
    )
    assert "still tied, they play another tie-break round." in tied[2]
    assert tied[3].startswith("Round 10 begins: a tie-break round")
    assert "One card is dealt to each tied player." in narrate(log, viewer=4)
    assert lines[-1] == "Player 1 wins the tie-break and the game with 6 favor tokens!"
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
                r"Player \d wins the game at once, mid-round, with \d favor tokens!", line
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
        "The Princess beats the Bishop: Player 0 wins round 4."
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
        "Player 0 may now look at their own or Player 3's hand."
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
        "Player 1 plays the Guard, but the Sycophant requires choosing Player 1, its own"
        " player, which the Guard cannot: no effect."
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
    assert narrate([CardRevealed(2, Card.ASSASSIN)]) == [
        "Player 2 reveals the Assassin: the Guard's player, who chose them with a Guard, is"
        " knocked out instead."
    ]
    assert narrate([HandSeen(0, 2, None, Card.CARDINAL)]) == [
        "Player 0 looks at Player 2's hand in secret."
    ]


def test_describe_premium_commands() -> None:
    assert describe_command(PlayCard(0, Card.GUARD, 2, 5)) == "Play the Guard on Player 2, naming 5"
    numbers = {5: [Card.PRINCE, Card.COUNT]}.get
    assert describe_command(PlayCard(0, Card.BISHOP, 1, 5), numbers=lambda n: numbers(n) or []) == (
        "Play the Bishop on Player 1, naming 5 (Prince, Count)"
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
    assert describe_command(LookAtHand(0, 0)) == "Look at your own hand"
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
