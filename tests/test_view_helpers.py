"""What a view answers for a bot besides its fields: the cards out of the
player's sight, a card's worth, who must act and a readable text; and the
two traps of the library a bot writer meets first: a ``RandomBot`` without
a seed, and a move given to ``push`` as text."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

import loveletter as ll
from loveletter import Card, GameState, RejectionKind
from loveletter.notation import card_text

#: (ruleset, players, decks): every way the deck in use is made up
GAMES = [
    ("2019", 2, 1),
    ("2019", 6, 1),
    ("2019-classic", 4, 1),
    ("premium", 4, 1),
    ("premium", 7, 1),
    ("online", 5, 2),
    ("online", 3, 3),
]


def random_states(ruleset: str, players: int, decks: int, seed: int) -> Iterator[GameState]:
    """Every state of a game played at random, some way into its second
    round or further; online seats sometimes leave."""
    rng = random.Random(seed)
    settings = ll.TableSettings(decks=decks) if ruleset == "online" else None
    state = ll.new_game(ruleset, players, seed=seed, settings=settings)
    yield state
    for _ in range(250):
        commands = ll.legal_commands(state)
        if not commands:
            return
        if settings is not None and rng.random() < 0.01:
            seat = rng.randrange(players)
            if seat not in state.table.left and len(state.table.left) < players - 2:
                state = ll.push(state, ll.Leave(seat))
                yield state
                continue
        state = ll.push(state, rng.choice(commands))
        yield state


def views_to_act(ruleset: str, players: int, seed: int) -> list[ll.PlayerView]:
    """The view of the seat to act, at every step of a random game."""
    return [
        ll.view(state, state.to_act)
        for state in random_states(ruleset, players, 1, seed)
        if state.to_act is not None
    ]


def hidden_from(state: GameState, player: int) -> Counter[Card]:
    """The truth: the other hands, the cards left to draw, the set-aside card."""
    cards = Counter(state.deck)
    if state.set_aside is not None:
        cards[state.set_aside] += 1
    for seat, hand in enumerate(state.hands):
        if seat != player:
            cards.update(hand)
    return cards


@pytest.mark.parametrize(("ruleset", "players", "decks"), GAMES)
def test_unseen_cards_are_exactly_the_other_hands_the_deck_and_the_set_aside_card(
    ruleset: str, players: int, decks: int
) -> None:
    stale = 0
    for state in random_states(ruleset, players, decks, seed=players * 10 + decks):
        for player in range(players):
            view = ll.view(state, player)
            unseen = view.unseen_cards()
            assert Counter(unseen) == hidden_from(state, player), (player, str(state))
            assert list(unseen) == sorted(unseen)
            assert view.to_act == state.to_act
            # a sighting still true is not subtracted: its card is still counted
            for seen in view.sightings:
                if seen.card in state.hands[seen.owner]:
                    assert seen.card in unseen
                else:
                    stale += 1
    assert ruleset == "2019-classic" or stale  # out-of-date sightings do happen


def test_unseen_cards_count_every_copy_of_the_deck_in_use() -> None:
    # online: three copies of Premium's deck for that count (16 cards to 4
    # players, 32 from 5)
    for players, size in ((4, 16), (6, 32)):
        online = ll.new_game("online", players, seed=1, settings=ll.TableSettings(decks=3))
        view = ll.view(online, 0)
        assert len(view.deck_in_use()) == 3 * size
        assert Counter(view.unseen_cards())[Card.PRINCESS] + view.hand.count(Card.PRINCESS) == 3
        assert len(view.unseen_cards()) == 3 * size - len(view.hand)
    # Premium's deck grows from 16 to 32 cards at 5 players
    assert len(ll.view(ll.new_game("premium", 4, seed=1), 1).deck_in_use()) == 16
    assert len(ll.view(ll.new_game("premium", 5, seed=1), 1).unseen_cards()) == 32 - 1
    # two players: the three face-up cards are in sight
    two = ll.view(ll.new_game("2019", 2, seed=1), 1)
    assert len(two.face_up) == 3 and len(two.unseen_cards()) == 21 - 3 - 1


@pytest.mark.parametrize(
    ("ruleset", "tokens"),
    [("2019", "favor tokens"), ("premium", "Tokens of Affection"), ("online", "wins")],
)
def test_a_view_reads_as_a_few_lines_in_the_editions_words(ruleset: str, tokens: str) -> None:
    state = ll.new_game(ruleset, 4, seed=3)
    rules = ll.get_ruleset(ruleset)
    for player in range(4):
        view = ll.view(state, player)
        text = str(view).splitlines()
        assert text[0].endswith(f"[{ruleset}], 4 players: the view of P{player}")
        hand = ", ".join(f"{card_text(c)} ({rules.value(c)})" for c in view.hand)
        assert f"your hand: {hand}" in text
        assert sum(line.startswith(f"P{seat}") for seat in range(4) for line in text) == 4
        assert all(f"0 {tokens}" in line for line in text if line[:1] == "P")
        acting = "(you) to play (" if player == state.to_act else f"P{state.to_act} to play"
        assert acting in text[1]


def test_every_view_of_random_games_reads_without_error() -> None:
    for ruleset, players, decks in GAMES:
        for state in random_states(ruleset, players, decks, seed=5):
            for player in range(players):
                view = ll.view(state, player)
                text = str(view).splitlines()
                assert text[0].endswith(f"the view of P{player}")
                assert len(text) >= 3 + players


def test_a_cards_worth_is_the_views_edition() -> None:
    premium = ll.view(ll.new_game("premium", 3, seed=1), 0)
    classic = ll.view(ll.new_game("2019", 3, seed=1), 0)
    online = ll.view(ll.new_game("online", 3, seed=1), 0)
    assert premium.value(Card.PRINCESS) == 8 and online.value(Card.PRINCESS) == 8
    assert classic.value(Card.PRINCESS) == 9
    assert premium.value(Card.BISHOP) == 9 and premium.value(Card.ASSASSIN) == 0


def test_a_random_bot_without_a_seed_takes_a_fresh_one_it_keeps() -> None:
    first, second = ll.RandomBot(), ll.RandomBot()
    assert first.seed != second.seed  # 64 secret bits: equal once in 2**64
    assert 0 <= first.seed < 2**64 and repr(first) == f"RandomBot(seed={first.seed})"
    views = views_to_act("2019", 4, seed=2)
    again = ll.RandomBot(first.seed)
    assert [first.choose(v) for v in views] == [again.choose(v) for v in views]


def test_a_seeded_random_bot_chooses_as_before() -> None:
    views = views_to_act("premium", 5, seed=4)
    bot, rng = ll.RandomBot(11), random.Random(11)
    assert [bot.choose(v) for v in views] == [rng.choice(v.legal_commands) for v in views]


def test_a_move_given_as_text_points_to_parse_command() -> None:
    state = ll.new_game("2019", 3, seed=42)
    text = ll.format_command(ll.legal_commands(state)[0])
    record = ll.GameRecord.new("2019", 3, seed=42)
    for verb in (
        lambda: ll.push(state, text),  # type: ignore[arg-type]
        lambda: ll.decide(state, text),  # type: ignore[arg-type]
        lambda: ll.step(state, text),  # type: ignore[arg-type]
        lambda: record.push(text),  # type: ignore[arg-type]
    ):
        with pytest.raises(ll.IllegalCommand) as refused:
            verb()
        assert refused.value.kind is RejectionKind.MALFORMED_COMMAND
        assert "parse_command" in str(refused.value) and "\n" not in str(refused.value)
    assert ll.push(state, ll.parse_command(text)) == ll.push(state, ll.legal_commands(state)[0])
    assert record.push(ll.parse_command(text)).state == ll.push(state, ll.parse_command(text))
