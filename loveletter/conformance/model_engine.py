"""A small Love Letter engine, written from scratch, behind conformance protocol v1.

This file is a **model for implementers**. It plays the Classic version of
the 2019 edition (ruleset ``2019-classic``: sixteen cards, two to four
players) and speaks the suite's protocol, so that you can read, in one place
and in plain Python data, every JSON shape the runner expects: the events a
command causes, what each player is allowed to see of them, the refusals,
the full-information state, the legal commands, a player's view and perft.
It imports nothing from ``loveletter`` (only the standard library), and it
passes the whole ``2019-classic`` suite::

    loveletter conformance run --ruleset 2019-classic \\
        --impl "python -m loveletter.conformance.model_engine"

It also runs on its own, copied anywhere: ``python model_engine.py`` reads
protocol messages on standard input and answers on standard output.

How to read it. The game is one plain dict (``Game``) whose keys are,
for the most part, those of the protocol's ``state`` observation. A command
is the JSON object the runner sends. ``step()`` checks a command against
the rules, refusing it with one of the suite's rejection kinds, and
otherwise applies it to a copy of the game and returns that copy with the
list of events, each event a dict exactly as it goes on the wire. The
sections follow a game:

1. the edition (cards, values, tokens to win);
2. the game state;
3. the deal;
4. commands: reading them, and the order of refusals;
5. the turn;
6. each card;
7. the end of a round and of the game;
8. the next round;
9. legal commands and perft;
10. views and redaction (hidden information);
11. starting a case: a stacked deal or a position;
12. the protocol loop.

Rule IDs in comments (``guard.correct-guess-eliminates``) are those of
``spec/rules/*.yaml``; "README" is ``conformance/README.md``.

What it leaves out. Other editions (a case of another ruleset is answered
``skipped``), and the suite's *seeded chance*: an unstacked deck or a tied
first player is drawn with Python's own ``random``, so the handshake does
not declare ``seeded-chance`` (the runner then judges no shuffle of ours,
and the cases name the first player among tied winners). A
position is checked for what every position must satisfy (each card once,
the hands, who is in, out and protected), not for whether some game could
have reached it.
"""

from __future__ import annotations

import json
import random
import sys
import traceback
from collections.abc import Callable
from typing import Any, TypedDict

#: an event, exactly as reported: {"type": "CardPlayed", "player": 0, ...}
Event = dict[str, Any]
#: a command, as the runner sends it: {"type": "PlayCard", "player": 0, ...}
Command = dict[str, Any]

# ==========================================================================
# 1. The edition
# ==========================================================================

RULESET = "2019-classic"

#: The sixteen cards and their counts (setup.deck-classic), in the suite's
#: card order, which is also the order legal commands are listed in.
DECK = {
    "Guard": 5,
    "Priest": 2,
    "Baron": 2,
    "Handmaid": 2,
    "Prince": 2,
    "King": 1,
    "Countess": 1,
    "Princess": 1,
}
#: The classic version keeps the 2019 values (setup.card-values): there is
#: no card worth 0 or 6 in it.
VALUE = {
    "Guard": 1,
    "Priest": 2,
    "Baron": 3,
    "Handmaid": 4,
    "Prince": 5,
    "King": 7,
    "Countess": 8,
    "Princess": 9,
}
#: favour tokens that win the game, by player count (game.tokens-to-win)
TOKENS_TO_WIN = {2: 6, 3: 5, 4: 4}

#: The kinds of the other editions (2019, Premium), which this one lacks.
#: A command playing, keeping or returning one (a Spy) is as malformed as
#: one naming no card at all (ruling 54); a Guard's *guess* of one is merely
#: not allowed, and a stacked deck holding one is not the deck.
ELSEWHERE = ["Spy", "Chancellor", "Bishop", "DowagerQueen", "Constable", "Count"]
ELSEWHERE += ["Sycophant", "Baroness", "Cardinal", "Jester", "Assassin"]
#: every card name of the protocol (README "Cards")
VOCABULARY = frozenset([*DECK, *ELSEWHERE])

#: cards that choose one other player (targeting.other-player)
CHOOSES_ANOTHER = frozenset({"Guard", "Priest", "Baron", "King"})
#: the Prince may also choose its own player (prince.any-player)
CHOOSES_ANYONE = frozenset({"Prince"})
#: what a Guard may name: the kinds in the deck but the Guard
#: (guard.name-non-guard), in card order
GUARD_NAMES = [card for card in DECK if card != "Guard"]


def full_deck() -> list[str]:
    """The sixteen cards in card order (a deck before any shuffle)."""
    return [card for card, count in DECK.items() for _ in range(count)]


def is_the_deck(cards: list[str]) -> bool:
    """Whether ``cards`` are exactly the edition's sixteen cards."""
    return sorted(cards) == sorted(full_deck())


# ==========================================================================
# 2. The game state
# ==========================================================================


class Game(TypedDict):
    """Everything about a game, hidden cards included: the referee's view.

    Seats are 0 to players - 1, clockwise (ruling 2); card lists are top
    first (the deck) or oldest first (a discard pile)."""

    players: int
    #: what an unstacked deck or a tied first player is drawn from
    seed: int
    round_number: int
    #: counts the TurnStarted events of the round (README "Conventions")
    turn_number: int
    #: draw | play | next-round | game-over (this edition asks nothing else)
    decision: str
    #: whose turn it is, or was when the round ended
    current: int
    deck: list[str]
    #: the face-down card (setup.set-aside-face-down), None once a Prince
    #: has drawn it
    set_aside: str | None
    #: the three face-up cards of a two-player round (setup.two-player-face-up)
    face_up: list[str]
    #: per seat, in the order the cards were taken: held card, then drawn card
    hands: list[list[str]]
    discards: list[list[str]]
    #: seats out of the round, ascending
    out: list[int]
    #: seats a Handmaid protects, ascending
    protected: list[int]
    tokens: list[int]
    #: what players were shown this round, oldest first:
    #: {"viewer", "owner", "card", "turn", "via"}
    sightings: list[dict[str, Any]]
    #: once the round is over: {"reason", "winners", "revealed", "ranks"}
    round_result: dict[str, Any] | None
    #: the game's winners, once it is over
    winners: list[int]


def copy_game(game: Game) -> Game:
    """A copy that can be changed without touching ``game``: a command is
    applied to a copy, so a refusal half-way leaves the game as it was."""
    copy = game.copy()
    copy["deck"] = list(game["deck"])
    copy["face_up"] = list(game["face_up"])
    copy["hands"] = [list(hand) for hand in game["hands"]]
    copy["discards"] = [list(pile) for pile in game["discards"]]
    copy["out"] = list(game["out"])
    copy["protected"] = list(game["protected"])
    copy["tokens"] = list(game["tokens"])
    copy["sightings"] = list(game["sightings"])  # the sightings themselves never change
    copy["winners"] = list(game["winners"])
    return copy


def to_act(game: Game) -> int | None:
    """The seat that must act now: nobody between rounds."""
    return game["current"] if game["decision"] in ("draw", "play") else None


def in_round(game: Game) -> list[int]:
    """The seats still in the round, ascending."""
    return [seat for seat in range(game["players"]) if seat not in game["out"]]


def choosable(game: Game, player: int, card: str) -> list[int]:
    """The seats ``card`` may choose when ``player`` plays it, ascending:
    players in the round and not protected (out.untargetable,
    handmaid.protection-until-next-turn), the Prince's own player included
    (prince.any-player). Empty for a card that chooses no one."""
    if card not in CHOOSES_ANOTHER and card not in CHOOSES_ANYONE:
        return []
    others = [seat for seat in in_round(game) if seat != player and seat not in game["protected"]]
    return sorted([*others, player]) if card in CHOOSES_ANYONE else others


# ==========================================================================
# 3. The deal
# ==========================================================================


def deal(game: Game, round_number: int, first: int, deck: list[str]) -> list[Event]:
    """Start round ``round_number`` from ``deck`` (top first), ``first``
    to play: set one card aside face down, three face up with two players,
    one card to each player from ``first`` clockwise, then the first turn
    (setup.*, round.new-round-setup). Everyone is back in, unprotected,
    with an empty pile; only the tokens carry over."""
    n = game["players"]
    deck = list(deck)
    game["round_number"] = round_number
    game["turn_number"] = 0  # the first TurnStarted makes it 1
    game["hands"] = [[] for _ in range(n)]
    game["discards"] = [[] for _ in range(n)]
    game["out"], game["protected"], game["sightings"] = [], [], []
    game["face_up"], game["round_result"] = [], None
    events: list[Event] = [
        {
            "type": "RoundStarted",
            "round_number": round_number,
            "first_player": first,
            "deck": list(deck),
            "seats": None,  # a Premium tie-break round's
            "order": None,  # an online round's
        }
    ]
    game["set_aside"] = deck.pop(0)
    events.append({"type": "CardSetAside", "card": game["set_aside"]})
    if n == 2:
        for _ in range(3):
            game["face_up"].append(deck.pop(0))
            events.append({"type": "CardRemovedFaceUp", "card": game["face_up"][-1]})
    for offset in range(n):
        seat = (first + offset) % n
        game["hands"][seat].append(deck.pop(0))
        events.append({"type": "CardDealt", "player": seat, "card": game["hands"][seat][0]})
    game["deck"] = deck
    start_turn(game, first, events)
    return events


# ==========================================================================
# 4. Commands: reading them, and the order of refusals
# ==========================================================================


class Refused(Exception):
    """A command the rules refuse. ``kind`` is one of the README's
    rejection kinds; the game is left as it was (game.rules-enforced)."""

    def __init__(self, kind: str, why: str) -> None:
        super().__init__(why)
        self.kind = kind


#: Each command type's fields and what they hold. A field ending in "?"
#: may be left out or null ("absent means none", README "Conventions").
FIELDS: dict[str, dict[str, str]] = {
    "PlayCard": {
        "player": "seat",
        "card": "card",
        "target": "seat?",
        "guess": "guess?",
        "second_target": "seat?",
    },
    "KeepCard": {"player": "seat", "keep": "card", "bottom": "cards"},
    "DrawCard": {"player": "seat"},
    "LookAtHand": {"player": "seat", "owner": "seat"},
    "Redraw": {"player": "seat"},
    "Decline": {"player": "seat"},
    "StartRound": {"deck": "cards?", "first_player": "seat?", "order": "seats?"},
    "Leave": {"player": "seat"},
    "TimeOut": {"player": "seat"},
}


def is_seat(value: object) -> bool:
    # JSON true is not seat 1, and 1.0 is not a seat at all
    return type(value) is int


def fits(kind: str, value: object) -> bool:
    """Whether ``value`` is of the JSON type a field of ``kind`` holds."""
    if kind.endswith("?"):
        return value is None or fits(kind[:-1], value)
    if kind == "seat":
        return is_seat(value)
    if kind == "card":
        return isinstance(value, str) and value in VOCABULARY
    if kind == "guess":  # editions name a card or a number
        return is_seat(value) or fits("card", value)
    if kind == "cards":
        return isinstance(value, list) and all(fits("card", item) for item in value)
    if kind == "seats":
        return isinstance(value, list) and all(is_seat(item) for item in value)
    raise AssertionError(kind)


def read_command(data: object) -> Command:
    """The command with every field present, or ``malformed-command``: not
    an object, an unknown type, a missing or unknown field, a field of the
    wrong JSON type, or a card this edition does not have, played, kept or
    returned. These faults come before everything else, the end of the
    game included (README "Rejection kinds")."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise Refused("malformed-command", "not a command")
    if data["type"] not in FIELDS:
        raise Refused("malformed-command", "not a command")
    fields = FIELDS[data["type"]]
    command: Command = {"type": data["type"]}
    for name in data:
        if name != "type" and name not in fields:
            raise Refused("malformed-command", f"unknown field {name!r}")
    for name, kind in fields.items():
        if name not in data and not kind.endswith("?"):
            raise Refused("malformed-command", f"missing field {name!r}")
        command[name] = data.get(name)
        if not fits(kind, command[name]):
            raise Refused("malformed-command", f"{name} is not a {kind.rstrip('?')}")
    # A card no deck of this edition holds is not a card of this game
    # (ruling 54): playing, keeping or returning one is malformed too.
    named: list[str] = []
    if command["type"] == "PlayCard":
        named = [command["card"]]
    elif command["type"] == "KeepCard":
        named = [command["keep"], *command["bottom"]]
    for card in named:
        if card not in DECK:
            raise Refused("malformed-command", f"{RULESET} has no {card}")
    return command


def expect(game: Game, decision: str, player: int) -> None:
    """Refuse a command unless the game waits for ``decision`` from
    ``player``: the game over first, then the decision, then the turn."""
    if game["decision"] == "game-over":
        raise Refused("game-over", "the game is over")
    if game["decision"] != decision:
        raise Refused("wrong-decision", f"the game waits for {game['decision']}")
    if player != game["current"]:
        raise Refused("not-your-turn", f"player {game['current']} must act")


def step(game: Game, data: object) -> tuple[Game, list[Event]]:
    """Apply one command: the game after it and the events it caused, in
    order. Raises :class:`Refused`, leaving ``game`` untouched."""
    command = read_command(data)
    kind = command["type"]
    if kind in ("Leave", "TimeOut"):
        raise Refused("not-in-edition", f"{kind} belongs to the online edition")
    after = copy_game(game)
    if kind == "PlayCard":
        check_play(after, command)
        return after, play_card(after, command)
    if kind == "DrawCard":
        expect(after, "draw", command["player"])
        return after, [draw(after, command["player"])]
    if kind == "StartRound":
        return after, start_round(after, command)
    # KeepCard answers a Chancellor, LookAtHand, Redraw and Decline answer
    # Premium's optional steps: this edition never waits for any of them.
    if game["decision"] == "game-over":
        raise Refused("game-over", "the game is over")
    raise Refused("wrong-decision", f"the game waits for {game['decision']}, not a {kind}")


def check_play(game: Game, command: Command) -> None:
    """Refuse a ``PlayCard`` the rules do not allow now, naming the first
    fault in the README's order: decision and turn, the card, the Countess,
    the target, the guess."""
    player, card = command["player"], command["card"]
    target, guess = command["target"], command["guess"]
    expect(game, "play", player)
    hand = game["hands"][player]
    if card not in hand:
        raise Refused("card-not-in-hand", f"player {player} holds no {card}")
    if card in ("King", "Prince") and "Countess" in hand:  # countess.forced-by-king-or-prince
        raise Refused("countess-required", f"the Countess must be played, not the {card}")
    if command["second_target"] is not None:  # no card of this edition chooses two
        raise Refused("target-not-allowed", f"the {card} chooses at most one player")
    if card not in CHOOSES_ANOTHER and card not in CHOOSES_ANYONE:
        if target is not None:
            raise Refused("target-not-allowed", f"the {card} chooses no one")
    elif target is not None:
        if not 0 <= target < game["players"]:
            raise Refused("no-such-player", f"there is no seat {target}")
        if target == player and card in CHOOSES_ANOTHER:
            raise Refused("target-not-allowed", f"the {card} must choose another player")
        if target in game["out"]:
            raise Refused("target-out-of-round", f"player {target} is out of the round")
        if target in game["protected"]:
            raise Refused("target-protected", f"player {target} is protected")
    elif choosable(game, player, card):
        # with nobody to choose the card is played without a target (ruling 6)
        raise Refused("target-required", f"the {card} must choose a player")
    if card == "Guard" and target is not None:
        if guess is None:
            raise Refused("guess-required", "the Guard must name a card")
        if guess not in GUARD_NAMES:
            raise Refused("guess-not-allowed", f"the Guard cannot name {guess!r} here")
    elif guess is not None:
        raise Refused("guess-not-allowed", "only a Guard with a target names a card")


# ==========================================================================
# 5. The turn
# ==========================================================================


def start_turn(game: Game, seat: int, events: list[Event]) -> None:
    """``seat``'s turn begins: their Handmaid protection ends
    (handmaid.protection-until-next-turn) and they draw
    (turn.draw-then-play). The deck is never empty here: an empty deck
    ends the round before (round.end-deck-empty)."""
    game["current"] = seat
    game["turn_number"] += 1
    if seat in game["protected"]:
        game["protected"].remove(seat)
    events.append({"type": "TurnStarted", "player": seat})
    game["decision"] = "draw"
    events.append(draw(game, seat))


def draw(game: Game, seat: int) -> Event:
    """The turn's own draw: the top card (a ``DrawCard`` asks for it
    when a position was given before it)."""
    card = game["deck"].pop(0)
    game["hands"][seat].append(card)
    game["decision"] = "play"
    return {"type": "CardDrawn", "player": seat, "card": card, "from_set_aside": False}


def play_card(game: Game, command: Command) -> list[Event]:
    """Play a card (already checked): it goes on its player's pile first
    (turn.played-cards-face-up), then its effect, then the turn ends
    unless a knock-out has ended the round."""
    player, card, target = command["player"], command["card"], command["target"]
    game["hands"][player].remove(card)
    game["discards"][player].append(card)
    events: list[Event] = [
        {
            "type": "CardPlayed",
            "player": player,
            "card": card,
            "target": target,
            "guess": command["guess"],
            "second_target": None,
        }
    ]
    # A card with no one to choose is played without effect (ruling 6).
    if target is not None or card not in CHOOSES_ANOTHER:
        EFFECTS[card](game, command, events)
    if game["decision"] == "play":
        end_turn(game, events)
    return events


def end_turn(game: Game, events: list[Event]) -> None:
    """The round ends once a turn leaves the deck empty
    (round.end-deck-empty); otherwise the next player clockwise who is
    still in the round takes a turn (turn.order, out.turn-skipped)."""
    if not game["deck"]:
        end_round(game, "deck-empty", events)
        return
    n = game["players"]
    following = [(game["current"] + offset) % n for offset in range(1, n)]
    start_turn(game, next(s for s in following if s not in game["out"]), events)


def knock_out(game: Game, seat: int, reason: str, events: list[Event]) -> None:
    """``seat`` is out of the round: their hand goes face up onto their
    pile without effect (out.discard-hand). One player left ends the round
    at once (round.end-one-player-left)."""
    hand = game["hands"][seat]
    game["hands"][seat] = []
    game["discards"][seat].extend(hand)
    game["out"] = sorted([*game["out"], seat])
    if seat in game["protected"]:
        game["protected"].remove(seat)
    events.append({"type": "PlayerEliminated", "player": seat, "reason": reason, "discarded": hand})
    if len(in_round(game)) == 1:
        end_round(game, "one-player-left", events)


def saw(game: Game, viewer: int, owner: int, card: str, via: str) -> None:
    """Record that ``viewer`` was shown ``owner``'s ``card``: a view lists
    it among the viewer's sightings for the rest of the round, even once
    the card has moved on (README "Conventions", *Sightings*)."""
    game["sightings"].append(
        {"viewer": viewer, "owner": owner, "card": card, "turn": game["turn_number"], "via": via}
    )


# ==========================================================================
# 6. Each card
#
# An effect gets the game after the card went onto the pile, the command
# (its target is never null for a card that must choose another: those are
# played without effect when nobody can be chosen), and the list of events
# to add to.
# ==========================================================================


def guard(game: Game, command: Command, events: list[Event]) -> None:
    """Naming the target's card knocks them out; anything else does
    nothing (guard.correct-guess-eliminates)."""
    target: int = command["target"]
    if game["hands"][target] == [command["guess"]]:
        knock_out(game, target, "guard-guess", events)


def priest(game: Game, command: Command, events: list[Event]) -> None:
    """The player alone sees the target's card (priest.look-secretly)."""
    player, target = command["player"], command["target"]
    card = game["hands"][target][0]
    events.append(
        {"type": "HandSeen", "viewer": player, "owner": target, "card": card, "via": "Priest"}
    )
    saw(game, player, target, card, "Priest")


def baron(game: Game, command: Command, events: list[Event]) -> None:
    """The lower hand is knocked out, whoever holds it; equal hands change
    nothing (baron.compare-lower-out, baron.tie-no-effect). Each of the two
    sees the other's card (baron.secret-comparison)."""
    player, target = command["player"], command["target"]
    mine, theirs = game["hands"][player][0], game["hands"][target][0]
    events.append(
        {
            "type": "HandsCompared",
            "player": player,
            "opponent": target,
            "player_card": mine,
            "opponent_card": theirs,
            "via": "Baron",
        }
    )
    saw(game, player, target, theirs, "Baron")
    saw(game, target, player, mine, "Baron")
    if VALUE[mine] != VALUE[theirs]:
        loser = player if VALUE[mine] < VALUE[theirs] else target
        knock_out(game, loser, "baron-comparison", events)


def handmaid(game: Game, command: Command, events: list[Event]) -> None:
    """Nobody may choose the player until their next turn begins
    (handmaid.protection-until-next-turn)."""
    player = command["player"]
    game["protected"] = sorted([*game["protected"], player])
    events.append({"type": "PlayerProtected", "player": player})


def prince(game: Game, command: Command, events: list[Event]) -> None:
    """The chosen player, perhaps the Prince's own, discards their card
    without effect and draws another (prince.discard-and-draw): from the
    set-aside card when the deck is empty, never a face-up one
    (prince.empty-deck-draws-set-aside). Discarding the Princess knocks
    them out instead, with nothing drawn (prince.princess-discard-eliminates)."""
    target: int = command["target"]
    card = game["hands"][target].pop()
    game["discards"][target].append(card)
    events.append({"type": "CardDiscarded", "player": target, "card": card})
    if card == "Princess":
        # already on the pile: the knock-out puts nothing more there
        knock_out(game, target, "princess-discarded", events)
        return
    from_set_aside = not game["deck"]
    new = game["set_aside"] if from_set_aside else game["deck"].pop(0)
    # An empty deck ends the round with the turn that emptied it, so one
    # Prince at most meets it: the set-aside card is still there.
    assert new is not None
    if from_set_aside:
        game["set_aside"] = None
    game["hands"][target].append(new)
    events.append(
        {"type": "CardDrawn", "player": target, "card": new, "from_set_aside": from_set_aside}
    )


def king(game: Game, command: Command, events: list[Event]) -> None:
    """The two trade hands; no card is discarded, so handing over the
    Princess knocks no one out (king.trade-hands). Each now knows the card
    they gave away, held by the other."""
    player, target = command["player"], command["target"]
    mine, theirs = game["hands"][player], game["hands"][target]
    game["hands"][player], game["hands"][target] = theirs, mine
    events.append({"type": "HandsTraded", "player": player, "opponent": target, "via": "King"})
    for card in mine:
        saw(game, player, target, card, "King")
    for card in theirs:
        saw(game, target, player, card, "King")


def countess(game: Game, command: Command, events: list[Event]) -> None:
    """No effect (countess.no-effect); the lock is in :func:`check_play`."""


def princess(game: Game, command: Command, events: list[Event]) -> None:
    """Playing her knocks her player out, the other card going face up
    (princess.eliminated-when-played-or-discarded)."""
    player = command["player"]
    knock_out(game, player, "princess-discarded", events)


EFFECTS: dict[str, Callable[[Game, Command, list[Event]], None]] = {
    "Guard": guard,
    "Priest": priest,
    "Baron": baron,
    "Handmaid": handmaid,
    "Prince": prince,
    "King": king,
    "Countess": countess,
    "Princess": princess,
}


# ==========================================================================
# 7. The end of a round and of the game
# ==========================================================================


def end_round(game: Game, reason: str, events: list[Event]) -> None:
    """Decide the round's winners, give each a token
    (round.winner-token), and end the game when someone has enough.

    On an empty deck the players still in reveal their hands and the
    highest value wins, every tied player with it, with no tie-break
    (round.highest-card-wins, round.tie-all-win). Otherwise the last
    player in wins, and their hand stays hidden."""
    live = in_round(game)
    revealed: list[list[Any]] = []
    winners = live
    if reason == "deck-empty":
        revealed = [[seat, game["hands"][seat][0]] for seat in live]
        best = max(VALUE[card] for _, card in revealed)
        winners = [seat for seat, card in revealed if VALUE[card] == best]
    result = {
        "reason": reason,
        "winners": winners,
        "revealed": revealed,
        "ranks": None,  # the online edition ranks every player
    }
    game["round_result"] = result
    game["decision"] = "next-round"
    game["protected"] = []  # protection lasts no longer than the round
    events.append({"type": "RoundEnded", **result})
    for seat in winners:
        game["tokens"][seat] += 1
        events.append(
            {
                "type": "TokenAwarded",
                "player": seat,
                "reason": "round-win",
                "total": game["tokens"][seat],
            }
        )
    # Every player at the threshold wins, however many (game.simultaneous-winners).
    needed = TOKENS_TO_WIN[game["players"]]
    champions = [seat for seat, count in enumerate(game["tokens"]) if count >= needed]
    if champions:
        game["decision"] = "game-over"
        game["winners"] = champions
        events.append({"type": "GameEnded", "winners": champions})


# ==========================================================================
# 8. The next round
# ==========================================================================


def start_round(game: Game, command: Command) -> list[Event]:
    """The dealer's step between rounds (a ``StartRound``, which is no
    player's). The last round's winner starts, or one of its tied winners
    (round.next-first-player, round.next-first-player-tie-random): the
    command's ``first_player`` picks one, else chance does. A stacked
    ``deck`` must be exactly the sixteen cards; without one the deck is
    shuffled (setup.shuffle)."""
    if game["decision"] == "game-over":
        raise Refused("game-over", "the game is over")
    if game["decision"] != "next-round":
        raise Refused("wrong-decision", "the round is still being played")
    assert game["round_result"] is not None  # a round has ended
    candidates: list[int] = game["round_result"]["winners"]
    first = command["first_player"]
    if first is not None and first not in candidates:
        raise Refused("invalid-choice", f"the first player must be one of {candidates}")
    if command["order"] is not None:
        raise Refused("not-in-edition", "only the online edition draws a turn order")
    round_number = game["round_number"] + 1
    # Our own chance, not the suite's *seeded chance*: hence no seeded-chance
    # in the handshake, and the runner judges nothing drawn here.
    chance = random.Random(f"{game['seed']}/{round_number}")
    deck = command["deck"]
    if deck is None:
        deck = full_deck()
        chance.shuffle(deck)
    elif not is_the_deck(deck):
        raise Refused("invalid-deck", f"a deck holds exactly the {RULESET} cards")
    if first is None:
        first = chance.choice(candidates)
    return deal(game, round_number, first, deck)


# ==========================================================================
# 9. Legal commands and perft
# ==========================================================================


def legal_commands(game: Game) -> list[Command]:
    """The distinct commands the player to act may give, in the README's
    order: by card (card order), then target (null first, ascending), then
    guess (card order). Two Guards in hand give each command once."""
    player = to_act(game)
    if player is None:
        return []  # between rounds the dealer acts, not a player
    if game["decision"] == "draw":
        return [{"type": "DrawCard", "player": player}]
    hand = game["hands"][player]
    cards = [card for card in DECK if card in hand]
    if "Countess" in hand and ("King" in hand or "Prince" in hand):
        cards = ["Countess"]
    commands: list[Command] = []
    for card in cards:
        targets: list[int | None] = [*choosable(game, player, card)] or [None]
        for target in targets:
            names: list[str | None] = [None]
            if card == "Guard" and target is not None:
                names = [*GUARD_NAMES]
            for guess in names:
                commands.append(
                    {
                        "type": "PlayCard",
                        "player": player,
                        "card": card,
                        "target": target,
                        "guess": guess,
                        "second_target": None,
                    }
                )
    return commands


def is_legal(game: Game, command: object) -> bool:
    """Whether ``command`` would be accepted now (``game`` is not changed:
    :func:`step` works on a copy)."""
    try:
        step(game, command)
    except Refused:
        return False
    return True


def perft(game: Game, depth: int) -> list[int]:
    """How many distinct sequences of 1, 2, ... ``depth`` player commands
    there are from here (README "Perft"). The draws the rules make are not
    commands, and a finished round has none, so it ends a sequence."""
    counts = [0] * depth

    def walk(node: Game, level: int) -> None:
        commands = legal_commands(node)
        counts[level] += len(commands)
        if level + 1 < depth:
            for command in commands:
                walk(step(node, command)[0], level + 1)

    if depth > 0:
        walk(game, 0)
    return counts


# ==========================================================================
# 10. Views and redaction: what one player may know
# ==========================================================================


#: fields hidden from every player (README "Hidden information")
HIDDEN = {"GameStarted": "seed", "RoundStarted": "deck", "CardSetAside": "card"}
#: fields only one player sees: event type -> (that player's field, the field)
OWN = {
    "CardDealt": ("player", "card"),
    "CardDrawn": ("player", "card"),
    "HandSeen": ("viewer", "card"),
}


def redact(event: Event, player: int) -> Event:
    """``event`` as ``player`` sees it: hidden fields become null, and no
    field is added or dropped. A Baron's two cards are seen by the two
    players compared only."""
    seen = dict(event)
    kind = seen["type"]
    if kind in HIDDEN:
        seen[HIDDEN[kind]] = None
    if kind in OWN and seen[OWN[kind][0]] != player:
        seen[OWN[kind][1]] = None
    if kind == "HandsCompared" and player not in (seen["player"], seen["opponent"]):
        seen["player_card"] = seen["opponent_card"] = None
    return seen


def view(game: Game, player: int) -> dict[str, Any]:
    """What ``player`` may know: their own hand, everyone's hand size, the
    piles, the face-up cards, who is out or protected, the tokens, what
    they were shown, and never the deck order, the set-aside card or
    another hand. Exactly the fields of a view, no more: a view carrying
    anything else fails its check."""
    return {
        "player": player,
        "ruleset": RULESET,
        "players": game["players"],
        "round_number": game["round_number"],
        "turn_number": game["turn_number"],
        "tokens": list(game["tokens"]),
        "decision": game["decision"],
        "current": game["current"],
        "hand": list(game["hands"][player]),
        "hand_sizes": [len(hand) for hand in game["hands"]],
        "deck_size": len(game["deck"]),
        "set_aside_present": game["set_aside"] is not None,
        "face_up": list(game["face_up"]),
        "discards": [list(pile) for pile in game["discards"]],
        "out": list(game["out"]),
        "protected": list(game["protected"]),
        "sightings": [s for s in game["sightings"] if s["viewer"] == player],
        "round_result": game["round_result"],
        "winners": list(game["winners"]),
        "legal_commands": legal_commands(game) if to_act(game) == player else [],
        # the fields of other editions, empty here
        "deck_bottom": [],  # a Chancellor's returns
        "required": None,  # Premium's Sycophant
        "marks": [],  # Premium's Jester
        "contenders": [],  # Premium's tie-break round
        "pending": [],  # Premium's optional steps
        "settings": None,  # online
        "order": [],
        "exits": [],
        "left": [],
    }


def observe_state(game: Game) -> dict[str, Any]:
    """The full-information ``state`` observation (README "Protocol")."""
    return {
        "decision": game["decision"],
        "to_act": to_act(game),
        "current": game["current"],
        "round_number": game["round_number"],
        "turn_number": game["turn_number"],
        "deck": list(game["deck"]),
        "set_aside": game["set_aside"],
        "face_up": list(game["face_up"]),
        "hands": [list(hand) for hand in game["hands"]],
        "discards": [list(pile) for pile in game["discards"]],
        "out": list(game["out"]),
        "protected": list(game["protected"]),
        "tokens": list(game["tokens"]),
        "round_result": game["round_result"],
        "winners": list(game["winners"]),
        # the fields of other editions, empty here
        "required": None,
        "marks": [],
        "contenders": [],
        "pending": [],
        "order": [],
        "exits": [],
        "left": [],
    }


# ==========================================================================
# 11. Starting a case: a stacked deal or a position
# ==========================================================================


class StartRefused(Exception):
    """A start the rules refuse (the case expects ``start_rejected``)."""


def require(condition: bool, why: str) -> None:
    if not condition:
        raise StartRefused(why)


def new_game(players: object, seed: object) -> Game:
    require(players in TOKENS_TO_WIN and is_seat(players), f"{RULESET} is for 2-4 players")
    assert isinstance(players, int)
    require(is_seat(seed) or (isinstance(seed, str) and seed.isdigit()), "a seed is decimal digits")
    assert isinstance(seed, int | str)
    return Game(
        players=players,
        seed=int(seed),
        round_number=1,
        turn_number=0,
        decision="play",
        current=0,
        deck=[],
        set_aside=None,
        face_up=[],
        hands=[[] for _ in range(players)],
        discards=[[] for _ in range(players)],
        out=[],
        protected=[],
        tokens=[0] * players,
        sightings=[],
        round_result=None,
        winners=[],
    )


def start(script: dict[str, Any]) -> tuple[Game, list[Event]]:
    """The game a case script starts from, and the start's events."""
    require("settings" not in script, "table settings belong to the online edition")
    if "deal" in script["start"]:
        return start_from_deal(script["players"], script["start"]["deal"])
    return start_from_position(script["players"], script["start"]["position"]), []


def check_tokens(game: Game, tokens: object, round_number: object) -> None:
    """Tokens fit a game in round ``round_number`` that is not over: each
    ended round gave one token or more, at most one to each player, and no
    one has reached the tokens to win."""
    n = game["players"]
    require(is_seat(round_number), "a round number is an integer")
    assert isinstance(round_number, int)
    require(isinstance(tokens, list) and len(tokens) == n, "tokens are a count per player")
    assert isinstance(tokens, list)
    require(all(is_seat(count) and count >= 0 for count in tokens), "tokens are counts")
    ended = round_number - 1
    require(
        0 <= max(tokens) <= ended <= sum(tokens), f"tokens that do not fit round {round_number}"
    )
    require(max(tokens) < TOKENS_TO_WIN[n], "someone already has the tokens to win")
    game["tokens"], game["round_number"] = list(tokens), round_number


def start_from_deal(players: object, spec: dict[str, Any]) -> tuple[Game, list[Event]]:
    """A stacked deal: a new game's first round, or a later round's deal
    when ``tokens`` or ``round_number`` say so (then the events are the
    deal alone, without ``GameStarted``)."""
    game = new_game(players, spec.get("seed", 0))
    n = game["players"]
    deck, first = spec["deck"], spec.get("first_player", 0)
    if first is None:
        first = 0
    require(isinstance(deck, list) and is_the_deck(deck), f"the deck must be the {RULESET} cards")
    require(is_seat(first) and 0 <= first < n, f"no seat {first!r} to start")
    require("order" not in spec, "only the online edition stacks a turn order")
    later = "tokens" in spec or "round_number" in spec
    if later:
        check_tokens(game, spec.get("tokens", [0] * n), spec.get("round_number", 1))
    events = deal(game, game["round_number"], first, deck)
    if later:
        return game, events
    started: Event = {
        "type": "GameStarted",
        "ruleset": RULESET,
        "players": n,
        "seed": str(game["seed"]),  # written as digits: exact beyond 2**53
        "first_player": first,
        "settings": None,  # the online edition's table settings
    }
    return game, [started, *events]


def start_from_position(players: object, spec: dict[str, Any]) -> Game:
    """A moment in a round, described zone by zone (README "Start: a
    position"), checked so that the cards, hands and players fit a real
    round of this edition."""
    game = new_game(players, spec.get("seed", 0))
    n = game["players"]
    for key in ("required",):
        require(spec.get(key) is None, f"{key} belongs to another edition")
    for key in ("marks", "contenders", "returns", "order", "exits", "left"):
        require(not spec.get(key), f"{key} belongs to another edition")

    def cards(value: object, what: str) -> list[str]:
        require(
            isinstance(value, list) and all(isinstance(c, str) and c in DECK for c in value),
            f"{what}: not cards of {RULESET}",
        )
        assert isinstance(value, list)
        return list(value)

    def seats(value: object, what: str) -> list[int]:
        require(
            isinstance(value, list) and all(is_seat(s) and 0 <= s < n for s in value),
            f"{what}: not seats",
        )
        assert isinstance(value, list)
        require(len(set(value)) == len(value), f"{what}: a seat twice")
        return sorted(value)

    def per_seat(value: object, what: str) -> list[list[str]]:
        require(isinstance(value, list) and len(value) == n, f"{what}: one per seat")
        assert isinstance(value, list)
        return [cards(item, what) for item in value]

    game["deck"] = cards(spec["deck"], "deck")
    game["set_aside"] = spec["set_aside"]
    require(game["set_aside"] in DECK, "a card is set aside face down (ruling 9)")
    game["face_up"] = cards(spec.get("face_up", []), "face_up")
    require(len(game["face_up"]) == (3 if n == 2 else 0), "three face-up cards with 2 players")
    game["hands"] = per_seat(spec["hands"], "hands")
    game["discards"] = per_seat(spec["discards"], "discards")
    everything = game["deck"] + [spec["set_aside"]] + game["face_up"]
    for zone in game["hands"] + game["discards"]:
        everything += zone
    require(is_the_deck(everything), f"every card of {RULESET} is somewhere, once")

    current, drawn = spec["current"], spec["drawn"]
    require(is_seat(current) and 0 <= current < n, "current is a seat")
    require(isinstance(drawn, bool), "drawn is true or false")
    game["current"] = current
    game["decision"] = "play" if drawn else "draw"
    game["out"] = seats(spec.get("out", []), "out")
    game["protected"] = seats(spec.get("protected", []), "protected")
    require(len(in_round(game)) >= 2, "two players or more are in the round")
    require(current not in game["out"] + game["protected"], "the current player is in, unprotected")
    require(drawn or bool(game["deck"]), "a turn starts with a card to draw")
    for seat in range(n):
        held = len(game["hands"][seat])
        if seat in game["out"]:
            # a knock-out puts the hand onto the pile
            require(
                held == 0 and bool(game["discards"][seat]), f"out player {seat}: no hand, a pile"
            )
        else:
            wanted = 1 + (seat == current and drawn)
            require(held == wanted, f"player {seat} holds {wanted} card(s)")
        if seat in game["protected"]:
            # nothing reaches a protected player's pile after their Handmaid
            require(game["discards"][seat][-1:] == ["Handmaid"], f"player {seat}: no Handmaid")
            require(seat not in game["out"], f"player {seat} is out, not protected")

    check_tokens(game, spec.get("tokens", [0] * n), spec.get("round_number", 1))
    turn = spec.get("turn_number", 1)
    require(is_seat(turn) and turn >= 1, "a turn number is 1 or more")
    game["turn_number"] = turn
    for sighting in spec.get("sightings", []):
        require(
            isinstance(sighting, dict)
            and set(sighting) == {"viewer", "owner", "card", "turn", "via"}
            and sighting["viewer"] != sighting["owner"]
            and sighting["card"] in DECK
            and sighting["via"] in ("Priest", "Baron", "King")
            and is_seat(sighting["turn"])
            and 1 <= sighting["turn"] <= turn,
            f"not a sighting of {RULESET}: {sighting!r}",
        )
        seats([sighting["viewer"], sighting["owner"]], "sighting")
        game["sightings"].append(dict(sighting))
    return game


# ==========================================================================
# 12. The protocol loop
# ==========================================================================

PROTOCOL = 1
CAPABILITIES = [
    "positions",
    "sightings",
    "events",
    "redacted-events",
    "state",
    "legal-commands",
    "views",
    "rejection-kinds",
    "perft",
    "try",
]


def handshake() -> dict[str, Any]:
    """The answer to ``start``: who we are, what we play, what we offer."""
    return {
        "type": "started",
        "protocol": PROTOCOL,
        "implementation": {
            "name": "loveletter-model-engine",
            "version": "1",
            "language": "python",
        },
        "rulesets": [RULESET],
        "capabilities": CAPABILITIES,
    }


def run(script: dict[str, Any]) -> dict[str, Any]:
    """Play one case script: the start's events and one result per step."""
    try:
        game, start_events = start(script)
    except StartRefused as why:
        return {"start_rejected": str(why), "start_events": [], "steps": []}
    results: list[dict[str, Any]] = []
    for item in script["steps"]:
        if "command" in item:
            try:
                game, events = step(game, item["command"])
            except Refused as refusal:
                results.append({"rejected": refusal.kind})
                continue
            result: dict[str, Any] = {"events": events}
            if item.get("seen_by"):
                result["seen_by"] = [
                    {"player": seat, "events": [redact(event, seat) for event in events]}
                    for seat in item["seen_by"]
                ]
            results.append(result)
        else:
            results.append({"observation": observe(game, item["observe"])})
    return {"start_events": start_events, "steps": results}


def observe(game: Game, request: dict[str, Any]) -> dict[str, Any]:
    """Answer exactly what an ``observe`` step asks for."""
    observation: dict[str, Any] = {}
    if request.get("state"):
        observation["state"] = observe_state(game)
    if request.get("legal_commands"):
        observation["legal_commands"] = legal_commands(game)
    if "views" in request:
        for seat in request["views"]:
            if not (is_seat(seat) and 0 <= seat < game["players"]):
                raise ValueError(f"no seat {seat!r} to view")
        observation["views"] = [view(game, seat) for seat in request["views"]]
    if "perft" in request:
        observation["perft"] = perft(game, request["perft"])
    if "try" in request:
        # whether each command would be accepted now; none is applied
        observation["tried"] = [is_legal(game, command) for command in request["try"]]
    return observation


def handle(message: dict[str, Any]) -> dict[str, Any]:
    """The reply to one ``start`` or ``run`` message."""
    if message.get("type") == "start":
        if message.get("protocol") != PROTOCOL:
            raise ValueError(f"this engine speaks protocol {PROTOCOL} only")
        return handshake()
    if message.get("type") != "run":
        raise ValueError(f"expected start, run or stop, not {message.get('type')!r}")
    seq, script = message["seq"], message["case"]
    if not isinstance(script, dict):
        raise ValueError("a run message's case is a JSON object")
    if script.get("ruleset") != RULESET:
        return {"type": "skipped", "seq": seq, "reason": f"this engine plays {RULESET} only"}
    try:
        return {"type": "result", "seq": seq, **run(script)}
    except Exception as error:  # report it against this case and serve the next one
        context = {"traceback": traceback.format_exc(limit=-3)}
        return {"type": "errored", "seq": seq, "message": repr(error), "context": context}


def main() -> int:
    """Serve the protocol: one JSON message per line in, one reply per line
    out, until ``stop``."""
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
            if not isinstance(message, dict):
                raise ValueError("a message is a JSON object")
            if message.get("type") == "stop":
                return 0
            reply = handle(message)
        except (ValueError, KeyError) as error:
            # Nothing sensible can follow a message we cannot read.
            print(f"model engine: {error!r}", file=sys.stderr)
            return 2
        sys.stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
