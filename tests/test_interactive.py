"""``loveletter play``'s player, driven with scripted input: the moves that
knock their own player out asked again, the cards played for nothing said,
the help by topic, the sightings of players since out, the tokens in each
edition's words."""

from __future__ import annotations

import io
import re
from collections import Counter
from collections.abc import Sequence

import attrs
import pytest

import loveletter as ll
from loveletter.cards import Card
from loveletter.commands import Command, Decline, LookAtHand, PlayCard, Redraw, StartRound
from loveletter.engine import step
from loveletter.events import PlayerEliminated
from loveletter.interactive import HumanPlayer, card_help, self_knockout
from loveletter.positions import Position, from_position
from loveletter.simulation import random_bots
from loveletter.state import Decision, Sighting

PRINCESS_OUT = "Playing the Princess knocks you out of the round."
REALLY = "Really make this move? (y/N): "
NOBODY = "every other player is protected or out of the round"


def _view(
    hand: Sequence[Card],
    others: Sequence[Card],
    discards: Sequence[Sequence[Card]] | None = None,
    *,
    ruleset: str = "2019",
    **fields: object,
) -> ll.PlayerView:
    """Seat 0's view at its move holding ``hand``, the other seats holding
    ``others`` (one card each) and the piles ``discards`` (as many cards
    each, so that the turns add up); the rest of the deck in order."""
    players = len(others) + 1
    piles = [tuple(pile) for pile in discards] if discards else [()] * players
    left = Counter(ll.get_ruleset(ruleset).deck_for(players))
    for group in (hand, *[(card,) for card in others], *piles):
        left.subtract(group)
    rest = sorted(left.elements())
    position = Position(
        ruleset=ruleset,
        players=players,
        deck=tuple(rest[1:]),
        set_aside=rest[0],
        face_up=(),
        hands=(tuple(hand), *[(card,) for card in others]),
        discards=tuple(piles),
        current=0,
        drawn=True,
        turn_number=1 + sum(map(len, piles)),
        **fields,  # type: ignore[arg-type]  # the Position fields a test sets
    )
    return ll.view(from_position(position), 0)


def _choose(view: ll.PlayerView, script: str) -> tuple[Command, str]:
    out = io.StringIO()
    names = [f"Player {seat}" for seat in range(view.players)]
    command = HumanPlayer(names, io.StringIO(script), out).choose(view)
    return command, out.getvalue()


def _show(view: ll.PlayerView) -> str:
    out = io.StringIO()
    HumanPlayer([f"Player {seat}" for seat in range(view.players)], io.StringIO(), out).show(view)
    return out.getvalue()


# --------------------------------------------------------------------------
# moves that knock their own player out


def test_playing_the_princess_is_asked_again_and_no_is_the_default() -> None:
    view = _view((Card.GUARD, Card.PRINCESS), (Card.KING, Card.PRIEST))
    # the Princess (2), Enter (no), then the Princess again and "y"
    command, out = _choose(view, "2\n\n2\ny\n")
    assert command == PlayCard(0, Card.PRINCESS)
    assert "   2. Princess (9): knocks you out   P0 Princess\n" in out
    assert out.count(f"{PRINCESS_OUT}\n{REALLY}") == 2
    assert out.count("Then choose again.\nWhich card will you play?") == 1
    # "n" and anything but yes is no: the Guard is played instead
    command, out = _choose(view, "2\nn\n1\n1\n1\n")
    assert command == PlayCard(0, Card.GUARD, 1, Card.SPY)
    # a move typed in the notation is asked again too
    command, out = _choose(view, "P0 Princess\nno\nP0 Princess\nyes\n")
    assert command == PlayCard(0, Card.PRINCESS) and out.count(REALLY) == 2


def test_a_prince_on_yourself_beside_the_princess_is_asked_again() -> None:
    view = _view((Card.PRINCE, Card.PRINCESS), (Card.KING, Card.PRIEST))
    command, out = _choose(view, "1\n1\nn\n1\n2\n")
    assert command == PlayCard(0, Card.PRINCE, 1)
    assert "   1. yourself (Player 0): knocks you out   P0 Prince on P0\n" in out
    assert (
        "The Prince on yourself discards your Princess, which knocks you out of the round.\n"
        + REALLY
    ) in out
    assert "Prince (5): knocks you out" not in out  # on another player it does not


def test_a_redraw_of_the_princess_is_asked_again() -> None:
    base = _view((Card.GUARD, Card.PRINCESS), (Card.KING, Card.PRIEST))
    view = attrs.evolve(
        base,
        decision=Decision.REDRAW,
        current=1,
        hand=(Card.PRINCESS,),
        pending=(0,),
        legal_commands=(Redraw(0), Decline(0)),
    )
    command, out = _choose(view, "1\nn\n1\ny\n")
    assert command == Redraw(0)
    assert out.count("Discarding the Princess knocks you out of the round.\n" + REALLY) == 2
    command, _ = _choose(attrs.evolve(view, hand=(Card.KING,)), "1\n")
    assert command == Redraw(0)  # any other card: no question


def test_when_every_move_knocks_you_out_none_is_asked_again() -> None:
    view = _view(
        (Card.PRINCE, Card.PRINCESS),
        (Card.KING, Card.PRIEST),
        [(Card.GUARD,), (Card.HANDMAID,), (Card.HANDMAID,)],
        protected=(1, 2),
    )
    command, out = _choose(view, "1\n")
    assert command == PlayCard(0, Card.PRINCE, 0)
    assert "Every move you can make knocks you out of the round.\n" in out
    assert f"The Prince can choose only yourself: {NOBODY}.\n" in out
    assert REALLY not in out


def test_a_comparison_that_cannot_be_won_is_asked_again() -> None:
    # Every Spy and every other Guard is in sight: the Guard kept beside
    # the Baron is lower than anything either other player may hold.
    piles = [
        (Card.SPY, Card.GUARD, Card.GUARD),
        (Card.SPY, Card.GUARD, Card.PRIEST),
        (Card.GUARD, Card.GUARD, Card.PRINCE),
    ]
    view = _view((Card.BARON, Card.GUARD), (Card.KING, Card.PRIEST), piles)
    command, out = _choose(view, "2\n1\n\n1\n1\n1\n")
    assert command == PlayCard(0, Card.GUARD, 1, Card.SPY)
    assert "   2. Baron (3): knocks you out\n" in out
    assert (
        "Your Guard (1) is lower than any card Player 1 can hold: the Baron knocks you out of"
        " the round.\n" + REALLY
    ) in out
    # one Spy out of sight and the Baron may tie or win: no question
    piles[0] = (Card.PRIEST, Card.GUARD, Card.GUARD)
    view = _view((Card.BARON, Card.GUARD), (Card.KING, Card.SPY), piles)
    command, out = _choose(view, "2\n1\n")
    assert command == PlayCard(0, Card.BARON, 1) and REALLY not in out


def test_a_dowager_queen_beside_the_only_bishop_is_asked_again() -> None:
    others = (Card.KING, Card.PRIEST, Card.GUARD, Card.GUARD)
    view = _view((Card.DOWAGER_QUEEN, Card.BISHOP), others, ruleset="premium")
    card = [
        c for c in dict.fromkeys(c.card for c in view.legal_commands if isinstance(c, PlayCard))
    ]
    command, out = _choose(view, f"{card.index(Card.DOWAGER_QUEEN) + 1}\n2\ny\n")
    assert command == PlayCard(0, Card.DOWAGER_QUEEN, 2)
    assert "Your Bishop (9) is higher than any card Player 2 can hold" in out


@pytest.mark.parametrize("ruleset", ["2019", "premium", "online"])
def test_a_move_said_to_knock_you_out_does(ruleset: str) -> None:
    """Over random games, every legal command ``self_knockout`` calls
    certain knocks its player out when the engine plays it; the Princess
    played and a Baron comparison are among them."""
    players = 5
    flagged: Counter[Card] = Counter()
    for seed in range(12):
        state = ll.new_game(ruleset, players, seed=seed)
        bots = random_bots(players, seed)
        for _ in range(300):
            if state.is_over:
                break
            actor = state.to_act
            if actor is None:
                state = ll.push(state, StartRound())
                continue
            seen = ll.view(state, actor)
            for command in seen.legal_commands:
                if self_knockout(seen, command) is None:
                    continue
                assert isinstance(command, PlayCard | Redraw)
                flagged[command.card if isinstance(command, PlayCard) else Card.PRINCESS] += 1
                _, events = step(state, command)
                knocked = [e.player for e in events if isinstance(e, PlayerEliminated)]
                assert actor in knocked, (seed, command, events)
            state = ll.push(state, bots[actor].choose(seen))
    assert flagged[Card.PRINCESS] > 0 and flagged[Card.BARON] > 0


def test_self_knockout_reads_no_sighting() -> None:
    """A sighting may be out of date: a Guard on a player once seen with the
    Assassin is not called certain."""
    others = (Card.ASSASSIN, Card.PRIEST, Card.GUARD, Card.GUARD)
    seen = Sighting(viewer=0, owner=1, card=Card.ASSASSIN, turn=1, via=Card.PRIEST)
    view = attrs.evolve(
        _view((Card.GUARD, Card.KING), others, ruleset="premium"), sightings=(seen,)
    )
    guards = [c for c in view.legal_commands if isinstance(c, PlayCard) and c.target == 1]
    assert guards and all(self_knockout(view, c) is None for c in guards)


# --------------------------------------------------------------------------
# cards played for nothing


def test_a_card_with_no_one_to_choose_says_it_has_no_effect() -> None:
    view = _view(
        (Card.GUARD, Card.PRINCE),
        (Card.KING, Card.PRIEST),
        [(Card.PRIEST,), (Card.HANDMAID,), (Card.HANDMAID,)],
        protected=(1, 2),
    )
    command, out = _choose(view, "1\n")
    assert command == PlayCard(0, Card.GUARD)
    assert re.search(rf"   1\. Guard \(1\): no effect, {NOBODY} +P0 Guard\n", out)
    assert re.search(rf"   2\. Prince \(5\): only on yourself, {NOBODY} +P0 Prince on P0\n", out)
    assert f"The Guard will have no effect: {NOBODY}.\n" in out
    command, out = _choose(view, "2\n")
    assert command == PlayCard(0, Card.PRINCE, 0)
    assert f"The Prince can choose only yourself: {NOBODY}.\n" in out
    # the one possible move says it too
    two_guards = _view(
        (Card.GUARD, Card.GUARD),
        (Card.KING, Card.PRIEST),
        [(Card.PRIEST,), (Card.HANDMAID,), (Card.HANDMAID,)],
        protected=(1, 2),
    )
    command, out = _choose(two_guards, "\n")
    assert command == PlayCard(0, Card.GUARD)
    assert f"The Guard has no effect: {NOBODY}.\n" in out


def test_a_sycophant_requirement_that_leaves_no_one_is_said() -> None:
    others = (Card.KING, Card.PRIEST, Card.COUNTESS, Card.BARON)
    # Player 4 played the Sycophant last, on Player 0
    piles = [(Card.GUARD,), (Card.GUARD,), (Card.GUARD,), (Card.GUARD,), (Card.SYCOPHANT,)]
    view = _view((Card.GUARD, Card.PRIEST), others, piles, ruleset="premium", required=0)
    command, out = _choose(view, "1\n")
    assert command == PlayCard(0, Card.GUARD)
    reason = "a Sycophant requires it to choose yourself, and it cannot"
    assert f"   1. Guard (1): no effect, {reason}" in out
    assert f"The Guard will have no effect: {reason}.\n" in out


# --------------------------------------------------------------------------
# the help, by topic


def _help(view: ll.PlayerView, *asked: str) -> list[str]:
    """What each ``? TOPIC`` prints, one string each."""
    script = "".join(f"{line}\n" for line in asked) + "q\n"
    out = io.StringIO()
    names = [f"Player {seat}" for seat in range(view.players)]
    with pytest.raises(ll.interactive.Quit):
        HumanPlayer(names, io.StringIO(script), out).choose(view)
    told = out.getvalue()
    shown = []
    for line in asked:
        start = told.index(f"): {line}\n") + len(line) + 4
        shown.append(told[start : told.index("Which card will you play?", start)])
    return shown


def test_help_lists_short_topics_and_shows_one_at_a_time() -> None:
    view = _view((Card.GUARD, Card.PRIEST), (Card.KING, Card.BARON))
    topics, commands, notation, cards, guard, rules, scoring, round_, spoken = _help(
        view, "?", "? commands", "? notation", "? cards", "? guard", "? rules", "? scoring",
        "? round", "help scoring",
    )  # fmt: skip
    listed = topics.strip().splitlines()
    assert len(listed) <= 8
    for topic in ("commands", "notation", "cards", "Guard", "rules", "scoring"):
        assert any(line.startswith(f"  ? {topic} ") for line in listed), topic
    assert "How to answer" in commands and "q          quit the game" in commands
    assert "b          go back to the previous question" in commands
    assert "move notation" in notation and "you are Player 0, written P0." in notation
    for card in ll.get_ruleset("2019").kinds:
        assert "\n".join(card_help("2019", 3, card)) in cards
    assert cards.index("Spy (0)") < cards.index("Guard (1)") < cards.index("Princess (9)")
    assert guard.strip() == "\n".join(card_help("2019", 3, Card.GUARD))
    assert "21 cards of 10 kinds, worth 0 to 9." in " ".join(rules.split())
    assert "  ? round      Ending a round and starting the next one\n" in rules
    assert "the first to 5 favor tokens wins the game" in " ".join(scoring.split())
    assert "The Spy can also give a favor token (? Spy)." in " ".join(scoring.split())
    assert spoken == scoring
    assert round_.startswith("\nEnding a round and starting the next one:\n  - ")
    assert len(max(topics.splitlines(), key=len)) <= 80


def test_help_of_an_unknown_topic_names_the_cards() -> None:
    view = _view((Card.GUARD, Card.PRIEST), (Card.KING, Card.BARON))
    out = io.StringIO()
    with pytest.raises(ll.interactive.Quit):
        HumanPlayer(["a", "b", "c"], io.StringIO("? dragon\nq\n"), out).choose(view)
    assert "No help topic or card 'dragon' in this game (? lists the topics)." in out.getvalue()


def test_help_in_premium_and_online_names_their_tokens_and_decks() -> None:
    others = (Card.KING, Card.PRIEST, Card.GUARD, Card.GUARD)
    premium = _view((Card.GUARD, Card.BARON), others, ruleset="premium")
    topics, scoring = _help(premium, "?", "? scoring")
    assert "(Tokens of Affection)" in topics
    said = " ".join(scoring.split())
    assert "the first to 4 Tokens of Affection wins the game" in said
    assert "play a tie-break round among themselves" in said
    state = ll.new_game("online", 5, seed=1, settings=ll.TableSettings(decks=2))
    state = ll.push(state, StartRound()) if state.to_act is None else state
    seat = state.to_act
    assert seat is not None
    online = ll.view(state, seat)
    copies = ll.get_ruleset("online").deck_for(5, 2).count(Card.BARONESS)
    out = io.StringIO()
    names = [f"Player {n}" for n in range(5)]
    with pytest.raises(ll.interactive.Quit):
        HumanPlayer(names, io.StringIO("? scoring\n? baroness\n? online\nq\n"), out).choose(online)
    told = " ".join(out.getvalue().split())
    assert "adds a win to their win counter" in told and "Tokens" not in told
    assert copies > 1 and f"Baroness (3): {copies} in the deck" in told  # two decks
    assert "The Bishop, Constable and Jester can each add a partial win too" in told
    assert "Online, the Baroness looks at two hands" in told
    assert "The online table: leaving and time:" in told


# --------------------------------------------------------------------------
# the screen


def test_a_sighting_of_a_player_since_out_is_marked() -> None:
    seen = (
        Sighting(viewer=0, owner=1, card=Card.KING, turn=1, via=Card.PRIEST),
        Sighting(viewer=0, owner=2, card=Card.BARON, turn=2, via=Card.PRIEST),
    )
    view = attrs.evolve(
        _view((Card.GUARD, Card.PRIEST), (Card.KING, Card.BARON)), sightings=seen, out=(2,)
    )
    text = _show(view)
    assert "Seen on turn 1 with your Priest: Player 1 had the King.\n" in text
    assert "Seen on turn 2 with your Priest: Player 2 (out) had the Baron.\n" in text


@pytest.mark.parametrize(
    ("ruleset", "others", "goal", "row"),
    [
        ("2019", (Card.KING, Card.BARON), "The first to 5 favor tokens wins.", "1 favor token "),
        (
            "premium",
            (Card.KING, Card.BARON, Card.GUARD, Card.GUARD),
            "The first to 4 Tokens of Affection wins.",
            "1 Token of Affection ",
        ),
    ],
)
def test_tokens_are_named_as_the_edition_names_them(
    ruleset: str, others: tuple[Card, ...], goal: str, row: str
) -> None:
    tokens = (1,) * (len(others) + 1)
    view = _view((Card.GUARD, Card.PRIEST), others, ruleset=ruleset, tokens=tokens, round_number=2)
    text = _show(view)
    assert goal in text and f"  Player 0 (you)  {row}" in text
    assert ("favor token" in text) is (ruleset == "2019")


def test_a_cardinal_look_at_your_own_hand_says_yourself_not_your_own() -> None:
    others = (Card.KING, Card.BARON, Card.GUARD, Card.GUARD)
    base = _view((Card.GUARD, Card.PRIEST), others, ruleset="premium")
    view = attrs.evolve(
        base,
        decision=Decision.LOOK,
        hand=(Card.KING,),
        pending=(0, 2),
        legal_commands=(LookAtHand(0, 0), LookAtHand(0, 2), Decline(0)),
    )
    text = _show(view)
    assert "Your Cardinal swapped your hand with Player 2's: you may look at one of them." in text
    assert "your own" not in text
    assert re.search(r"Your Cardinal swapped Player 1's and Player 2's hands", _show(
        attrs.evolve(view, pending=(1, 2))
    ))  # fmt: skip
