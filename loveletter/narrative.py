"""Event streams as English: what a spectator, or one player, would be told.

Events record what happened, not what it meant: a wrong Guard guess, a Baron
tie and a card played when every other player was protected leave no event
of their own. The narrator reads each played card together with the events
it caused (up to the next card, turn or round end) and says what the
*absence* of a follow-up means.

With a ``viewer`` the narrator first passes the stream through
:func:`~loveletter.events_for`, so it can only ever phrase what that player
may know: hidden information is withheld by construction, not by care taken
in each sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from loveletter import Card, GameState, Ruleset, events_for, evolve, get_ruleset, replay
from loveletter.commands import (
    Command,
    DrawCard,
    KeepCard,
    PlayCard,
    StartRound,
)
from loveletter.events import (
    CardDealt,
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardRemovedFaceUp,
    CardSetAside,
    CardsReturned,
    ChancellorDrew,
    EliminationReason,
    Event,
    GameEnded,
    GameStarted,
    GameTied,
    HandsCompared,
    HandSeen,
    HandsTraded,
    PlayerEliminated,
    PlayerProtected,
    PositionEstablished,
    RoundEnded,
    RoundEndReason,
    RoundStarted,
    TokenAwarded,
    TokenReason,
    TurnStarted,
)

#: Cards whose player chooses someone, in every edition. Hard-coded rather
#: than read from the ruleset because a viewer joining from a described
#: position is never told which ruleset the stream belongs to.
_CHOOSES_A_PLAYER = frozenset(
    {
        Card.GUARD,
        Card.PRIEST,
        Card.BARON,
        Card.PRINCE,
        Card.KING,
        Card.BISHOP,
        Card.DOWAGER_QUEEN,
        Card.SYCOPHANT,
        Card.BARONESS,
        Card.CARDINAL,
        Card.JESTER,
    }
)

#: Events that start the next step of the story: a played card's
#: consequences are the events between it and the first of these.
_BOUNDARIES = (
    CardPlayed,
    TurnStarted,
    RoundEnded,
    RoundStarted,
    GameEnded,
    GameTied,
    CardsReturned,
)

_PREPOSITION = {Card.BARON: "against", Card.DOWAGER_QUEEN: "against", Card.KING: "with"}

#: What a card played to no effect *now* keeps for later, told to spectators
#: and players alike (the cards' rules are public).
_LATER = {
    Card.CONSTABLE: "if they are knocked out this round, it earns them a favor token",
    Card.COUNT: "it adds 1 to their hand at the showdown",
}


def default_name(seat: int) -> str:
    """Seats are numbered from 0 in the engine but from 1 at a table."""
    return f"Player {seat + 1}"


def card_name(card: Card) -> str:
    """A card's name as printed: "Dowager Queen", where ``str(card)`` (the
    JSON name) is "DowagerQueen"."""
    return _DISPLAY[card]


_DISPLAY = {card: card.name.replace("_", " ").title() for card in Card}


def _the(card: Card) -> str:
    return f"the {card_name(card)}"


def _named(guess: Card | int) -> str:
    """What a Guard or a Bishop named: a card (2019) or a number (Premium)."""
    return _the(guess) if isinstance(guess, Card) else str(guess)


def _capital(text: str) -> str:
    # str.capitalize would also lower-case the card names.
    return text[:1].upper() + text[1:]


def _join(words: Sequence[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def _cards(cards: Iterable[Card]) -> str:
    return _join([_the(card) for card in cards])


def narrate(
    events: Iterable[Event], viewer: int | None = None, names: Sequence[str] | None = None
) -> list[str]:
    """The whole stream as lines of English.

    ``viewer=None`` tells everything, hidden cards included (a spectator
    after the game); a seat tells only what that player may know.
    ``names`` replaces "Player 1", "Player 2", ... seat by seat.
    """
    return Narrator(viewer, names).narrate(events)


class Narrator:
    """Narrates a game batch by batch, remembering what it needs between
    batches (the ruleset for card values, the round and turn numbers, who
    is protected, the tokens) so that an interactive front end can narrate
    each step as it happens.

    A batch should hold a played card together with the events it caused,
    as :func:`~loveletter.step` returns them; otherwise a missing follow-up
    is read as "no effect".
    """

    def __init__(self, viewer: int | None = None, names: Sequence[str] | None = None) -> None:
        self.viewer = viewer
        self.names = tuple(names) if names is not None else None
        self._rules: Ruleset | None = None
        self._round: int | None = None
        self._turn: int | None = None
        self._protected: set[int] = set()
        self._tokens: dict[int, int] = {}
        #: omniscient only: the game so far, to tell whose hand holds what
        #: where no event says it (after a King trade or a Chancellor)
        self._state: GameState | None = None
        self._after: list[GameState | None] = []
        self._handlers: dict[type[Event], Callable[[list[Event], int, list[str]], int]] = {
            GameStarted: self._game_started,
            PositionEstablished: self._position_established,
            RoundStarted: self._round_started,
            CardSetAside: self._card_set_aside,
            CardRemovedFaceUp: self._removed_face_up,
            CardDealt: self._dealt,
            TurnStarted: self._turn_started,
            CardDrawn: self._card_drawn,
            CardPlayed: self._card_played,
            CardDiscarded: self._card_discarded,
            PlayerEliminated: self._eliminated,
            PlayerProtected: self._protected_event,
            HandSeen: self._hand_seen,
            HandsCompared: self._hands_compared,
            HandsTraded: self._hands_traded,
            ChancellorDrew: self._chancellor_drew,
            CardsReturned: self._cards_returned,
            RoundEnded: self._round_ended,
            TokenAwarded: self._token_awarded,
            GameEnded: self._game_ended,
        }

    @property
    def narrated_types(self) -> frozenset[type[Event]]:
        """The event types with a sentence of their own (others get a
        generic line, so a new event type never breaks narration)."""
        return frozenset(self._handlers)

    def name(self, seat: int) -> str:
        if self.names is not None and 0 <= seat < len(self.names):
            return self.names[seat]
        return default_name(seat)

    def narrate(self, events: Iterable[Event]) -> list[str]:
        """Lines for one batch of events, continuing the story so far."""
        stream = list(events if self.viewer is None else events_for(self.viewer, events))
        self._after = self._fold(stream) if self.viewer is None else [None] * len(stream)
        lines: list[str] = []
        index = 0
        while index < len(stream):
            handler = self._handlers.get(type(stream[index]))
            if handler is None:
                lines.append(f"({type(stream[index]).__name__}: {stream[index]!r})")
                index += 1
            else:
                index = handler(stream, index, lines)
        return lines

    # ------------------------------------------------------------------
    # helpers

    def _fold(self, stream: list[Event]) -> list[GameState | None]:
        """The state after each event, where the stream allows it.

        Only an omniscient narrator may do this (it needs every hidden
        card). A stream that does not start a game, or that the engine
        rejects, is still narrated, only without the hands events omit.
        """
        after: list[GameState | None] = []
        for event in stream:
            try:
                if isinstance(event, GameStarted | PositionEstablished):
                    self._state = replay([event])
                elif self._state is not None:
                    self._state = evolve(self._state, event)
            except ValueError:
                self._state = None
            after.append(self._state)
        return after

    def _hand_after(self, index: int, seat: int) -> tuple[Card, ...] | None:
        state = self._after[index] if index < len(self._after) else None
        return state.hands[seat] if state is not None else None

    @staticmethod
    def _consequences(stream: list[Event], index: int) -> list[Event]:
        """The events caused by ``stream[index]``: up to the next step."""
        found: list[Event] = []
        for event in stream[index + 1 :]:
            if isinstance(event, _BOUNDARIES):
                break
            found.append(event)
        return found

    def _value(self, card: Card) -> str:
        return f" ({self._rules.value(card)})" if self._rules is not None else ""

    def _round_name(self) -> str:
        return f"round {self._round}" if self._round is not None else "the round"

    def _set_ruleset(self, name: str) -> str:
        """Remember the ruleset (for card values); return its title."""
        try:
            self._rules = get_ruleset(name)
        except ValueError:
            self._rules = None
            return name
        return self._rules.title

    # ------------------------------------------------------------------
    # setting up

    def _game_started(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, GameStarted)
        title = self._set_ruleset(event.ruleset)
        self._tokens = dict.fromkeys(range(event.players), 0)
        seats = _join([self.name(seat) for seat in range(event.players)])
        line = f"A game of {title} begins with {event.players} players: {seats}."
        if self._rules is not None:
            line += f" The first to {self._rules.tokens_to_win(event.players)} favor tokens wins."
        if event.seed is not None:
            line += f" (Seed {event.seed}.)"
        lines.append(line)
        return index + 1

    def _position_established(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, PositionEstablished)
        position = event.position
        if position is None:
            self._round = self._turn = None
            lines.append("The game goes on from a described position.")
            return index + 1
        title = self._set_ruleset(position.ruleset)
        self._round = position.round_number
        self._turn = position.turn_number
        self._protected = set(position.protected)
        tokens = position.tokens or (0,) * position.players
        self._tokens = dict(enumerate(tokens))
        action = "play" if position.drawn else "draw"
        lines.append(
            f"A game of {title} with {position.players} players goes on from a described"
            f" position: round {position.round_number}, turn {position.turn_number},"
            f" {self.name(position.current)} to {action}."
        )
        hands = [
            f"{self.name(seat)} is out"
            if seat in position.out
            else f"{self.name(seat)} holds {_cards(hand)}"
            for seat, hand in enumerate(position.hands)
        ]
        lines.append(f"{'; '.join(hands)}. The deck holds {len(position.deck)} cards.")
        if any(tokens):
            standing = ", ".join(f"{self.name(s)} {n}" for s, n in enumerate(tokens))
            lines.append(f"Favor tokens so far: {standing}.")
        return index + 1

    def _round_started(self, stream: list[Event], index: int, lines: list[str]) -> int:
        # The deck order is not narrated even to spectators: it is told card
        # by card as the cards are drawn, which is easier to follow.
        event = stream[index]
        assert isinstance(event, RoundStarted)
        self._round = event.round_number
        self._turn = 0
        self._protected.clear()
        lines.append(f"Round {event.round_number} begins. {self.name(event.first_player)} starts.")
        return index + 1

    def _card_set_aside(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, CardSetAside)
        if event.card is None:
            lines.append("One card is set aside face down, unseen.")
        else:
            lines.append(f"{_capital(_the(event.card))} is set aside face down.")
        return index + 1

    def _removed_face_up(self, stream: list[Event], index: int, lines: list[str]) -> int:
        cards: list[Card] = []
        while index < len(stream) and isinstance(stream[index], CardRemovedFaceUp):
            event = stream[index]
            assert isinstance(event, CardRemovedFaceUp)
            cards.append(event.card)
            index += 1
        verb = "is" if len(cards) == 1 else "are"
        lines.append(f"{_capital(_cards(cards))} {verb} removed face up, out of play.")
        return index

    def _dealt(self, stream: list[Event], index: int, lines: list[str]) -> int:
        # One line for the whole deal: a line per player would drown the
        # play in bookkeeping.
        known: list[str] = []
        while index < len(stream) and isinstance(stream[index], CardDealt):
            event = stream[index]
            assert isinstance(event, CardDealt)
            if event.card is not None:
                known.append(f"{self.name(event.player)} {_the(event.card)}")
            index += 1
        if known:
            lines.append(f"One card is dealt to each player: {', '.join(known)}.")
        else:
            lines.append("One card is dealt to each player.")
        return index

    # ------------------------------------------------------------------
    # turns

    def _turn_started(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, TurnStarted)
        player = event.player
        if self._turn is not None:
            self._turn += 1
        words = [f"Turn {self._turn}:"] if self._turn is not None else []
        if player in self._protected:
            self._protected.discard(player)
            words.append(f"{self.name(player)}'s Handmaid protection ends.")
        following = stream[index + 1] if index + 1 < len(stream) else None
        if isinstance(following, CardDrawn) and following.player == player:
            words.append(self._draw_sentence(following))
            index += 1
        else:
            words.append(f"{self.name(player)}'s turn.")
        lines.append(" ".join(words))
        return index + 1

    def _draw_sentence(self, event: CardDrawn) -> str:
        who = self.name(event.player)
        if event.from_set_aside:
            what = f", {_the(event.card)}" if event.card is not None else ""
            return f"{who} takes the set-aside card{what}, as the deck is empty."
        if event.card is None:
            return f"{who} draws a card."
        return f"{who} draws {_the(event.card)}."

    def _card_drawn(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, CardDrawn)
        lines.append(self._draw_sentence(event))
        return index + 1

    def _card_played(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, CardPlayed)
        player, card, target = event.player, event.card, event.target
        after = self._consequences(stream, index)
        line = f"{self.name(player)} plays {_the(card)}"
        if target is not None:
            if target == player:
                line += " and chooses their own hand"
            else:
                line += f" {_PREPOSITION.get(card, 'on')} {self.name(target)}"
        if card is Card.GUARD and target is not None:
            right = any(
                isinstance(e, PlayerEliminated)
                and e.player == target
                and e.reason is EliminationReason.GUARD_GUESS
                for e in after
            )
            guess = f", naming {_the(event.guess)}" if event.guess is not None else ""
            line += f"{guess} — right guess!" if right else f"{guess} — wrong guess."
        elif target is None and card in _CHOOSES_A_PLAYER:
            line += ", but no other player can be chosen: no effect."
        elif card is Card.CHANCELLOR and not any(isinstance(e, ChancellorDrew) for e in after):
            line += ", but the deck is empty: no effect."
        else:
            line += "."
        lines.append(line)
        return index + 1

    def _card_discarded(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, CardDiscarded)
        ending = "!" if event.card is Card.PRINCESS else " without using it."
        lines.append(f"{self.name(event.player)} discards {_the(event.card)}{ending}")
        return index + 1

    def _eliminated(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, PlayerEliminated)
        who = self.name(event.player)
        self._protected.discard(event.player)
        shown = _cards(event.discarded)
        if event.reason is EliminationReason.GUARD_GUESS:
            line = f"{who} is out of the round and discards {shown}."
        elif event.reason is EliminationReason.BARON_COMPARISON:
            line = f"{who} has the lower card and is out of the round, discarding {shown}."
        else:
            line = f"{who} is out of the round for discarding the Princess"
            line += f", and also discards {shown}." if event.discarded else "."
        lines.append(line)
        return index + 1

    def _protected_event(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, PlayerProtected)
        self._protected.add(event.player)
        lines.append(f"{self.name(event.player)} is protected until their next turn.")
        return index + 1

    def _hand_seen(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, HandSeen)
        line = f"{self.name(event.viewer)} looks at {self.name(event.owner)}'s hand"
        line += f" and sees {_the(event.card)}." if event.card is not None else " in secret."
        lines.append(line)
        return index + 1

    def _hands_compared(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, HandsCompared)
        first, second = self.name(event.player), self.name(event.opponent)
        line = f"{first} and {second} compare hands in secret"
        if event.player_card is not None and event.opponent_card is not None:
            line += (
                f": {first} has {_the(event.player_card)}{self._value(event.player_card)},"
                f" {second} {_the(event.opponent_card)}{self._value(event.opponent_card)}."
            )
        else:
            line += "."
        someone_out = any(
            isinstance(e, PlayerEliminated) and e.reason is EliminationReason.BARON_COMPARISON
            for e in self._consequences(stream, index)
        )
        if not someone_out:
            line += " It is a tie: no one is out."
        lines.append(line)
        return index + 1

    def _hands_traded(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, HandsTraded)
        first, second = self.name(event.player), self.name(event.opponent)
        line = f"{first} and {second} trade hands."
        mine, theirs = (
            self._hand_after(index, event.player),
            self._hand_after(index, event.opponent),
        )
        if mine and theirs:
            line += f" {first} now holds {_cards(mine)}, {second} {_cards(theirs)}."
        lines.append(line)
        return index + 1

    def _chancellor_drew(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, ChancellorDrew)
        who = self.name(event.player)
        what = "the last card of the deck" if event.count == 1 else f"{event.count} cards"
        seen = f": {_cards(event.cards)}" if event.cards is not None else ""
        lines.append(f"{who} draws {what} for the Chancellor{seen}.")
        return index + 1

    def _cards_returned(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, CardsReturned)
        who = self.name(event.player)
        if event.cards is not None:
            what = " and then ".join(_the(card) for card in event.cards)
        else:
            what = "a card" if event.count == 1 else f"{event.count} cards"
        kept = self._hand_after(index, event.player)
        keeps = _cards(kept) if kept else "one card"
        lines.append(f"{who} keeps {keeps} and puts {what} at the bottom of the deck.")
        return index + 1

    # ------------------------------------------------------------------
    # the end of a round and of the game

    def _round_ended(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, RoundEnded)
        winners = _join([self.name(seat) for seat in event.winners])
        this_round = self._round_name()
        if event.reason is RoundEndReason.ONE_PLAYER_LEFT:
            lines.append(f"Only {winners} is left, and wins {this_round}.")
            return index + 1
        shown = ", ".join(
            f"{self.name(seat)} {_the(card)}{self._value(card)}" for seat, card in event.revealed
        )
        lines.append(f"The deck is empty, so {this_round} ends. Hands shown: {shown}.")
        if len(event.winners) == 1:
            lines.append(f"{winners} has the highest card and wins {this_round}.")
        else:
            lines.append(f"{winners} tie with the highest card and all win {this_round}.")
        return index + 1

    def _token_awarded(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, TokenAwarded)
        self._tokens[event.player] = event.total
        who = self.name(event.player)
        if event.reason is TokenReason.SPY:
            lines.append(
                f"{who} is the only player left in the round who played or discarded a Spy,"
                f" and gains a favor token for it ({event.total} in all)."
            )
        else:
            lines.append(f"{who} gains a favor token ({event.total} in all).")
        return index + 1

    def _game_ended(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, GameEnded)
        winners = list(event.winners)
        names = _join([self.name(seat) for seat in winners])
        counts = [self._tokens.get(seat) for seat in winners]
        if len(winners) == 1:
            tokens = f" with {counts[0]} favor tokens" if counts[0] is not None else ""
            lines.append(f"{names} wins the game{tokens}!")
        else:
            known = [str(n) for n in counts if n is not None]
            tokens = f", with {_join(known)} favor tokens" if len(known) == len(counts) else ""
            lines.append(f"{names} win the game together{tokens}!")
        return index + 1


def describe_command(command: Command, name: Callable[[int], str] = default_name) -> str:
    """A command as a menu offers it to the player who would give it (so
    "your own hand", and players named by ``name``)."""
    if isinstance(command, PlayCard):
        text = f"Play {_the(command.card)}"
        if command.target is not None:
            if command.target == command.player:
                text += " on your own hand"
            else:
                text += f" {_PREPOSITION.get(command.card, 'on')} {name(command.target)}"
            if command.guess is not None:
                text += f", naming {_the(command.guess)}"
        elif command.card in _CHOOSES_A_PLAYER:
            text += " (no one can be chosen: no effect)"
        return text
    if isinstance(command, KeepCard):
        text = f"Keep {_the(command.keep)}"
        if command.bottom:
            order = " and then ".join(_the(card) for card in command.bottom)
            text += f"; put {order} at the bottom of the deck"
        return text
    if isinstance(command, DrawCard):
        return "Draw a card"
    if isinstance(command, StartRound):
        return "Deal the next round"
    return repr(command)
