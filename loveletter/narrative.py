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

Seats are "Player 0", "Player 1", ...: numbered from 0, as in the engine,
the JSON, the move notation (``P0``) and the command line. With
``notation=True`` each move's line ends with the move in the notation of
:mod:`loveletter.notation`, e.g. ``[P0 Guard on P2 naming Priest]``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from loveletter import Card, GameState, Ruleset, events_for, evolve, get_ruleset, replay
from loveletter.commands import (
    Command,
    Decline,
    DrawCard,
    KeepCard,
    LookAtHand,
    PlayCard,
    Redraw,
    StartRound,
)
from loveletter.events import (
    CardDealt,
    CardDiscarded,
    CardDrawn,
    CardPlayed,
    CardRemovedFaceUp,
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
    PlayerProtected,
    PositionEstablished,
    RedrawOffered,
    RoundEnded,
    RoundEndReason,
    RoundStarted,
    TokenAwarded,
    TokenReason,
    TurnStarted,
)
from loveletter.notation import format_command
from loveletter.positions import Position
from loveletter.rulesets import RoundTie
from loveletter.state import Decision

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
    """A seat's name as people read it: "Player 0" for seat 0. Seats are
    numbered from 0 everywhere (the library, JSON, the move notation's
    ``P0``, the command line's ``--seat 0``, screens and messages)."""
    return f"Player {seat}"


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
    events: Iterable[Event],
    viewer: int | None = None,
    names: Sequence[str] | None = None,
    *,
    notation: bool = False,
) -> list[str]:
    """The whole stream as lines of English.

    ``viewer=None`` tells everything, hidden cards included (a spectator
    after the game); a seat tells only what that player may know.
    ``names`` replaces "Player 0", "Player 1", ... seat by seat.
    ``notation=True`` ends each move's line with the move in the command
    notation (``[P0 Guard on P2 naming Priest]``), where the stream tells
    the whole move: a Chancellor's return only when the kept card is known.
    """
    return Narrator(viewer, names, notation=notation).narrate(events)


class Narrator:
    """Narrates a game batch by batch, remembering what it needs between
    batches (the ruleset for card values, the round and turn numbers, who
    is protected, the tokens, the discard piles, a Sycophant's requirement,
    the Jester's marks, a pending option, a tie for the game) so that an
    interactive front end can narrate each step as it happens.

    A batch should hold a played card together with the events it caused,
    as :func:`~loveletter.step` returns them; otherwise a missing follow-up
    is read as "no effect". Everything remembered is public: a player's
    narrator never learns more than the redacted stream tells it.
    """

    def __init__(
        self,
        viewer: int | None = None,
        names: Sequence[str] | None = None,
        *,
        notation: bool = False,
    ) -> None:
        self.viewer = viewer
        self.names = tuple(names) if names is not None else None
        #: whether each move's line ends with the move in the notation
        self.notation = notation
        self._rules: Ruleset | None = None
        self._round: int | None = None
        self._turn: int | None = None
        self._protected: set[int] = set()
        self._tokens: dict[int, int] = {}
        #: each seat's played and discarded cards this round (public), or
        #: ``None`` when the story joined a round it cannot follow
        self._piles: dict[int, list[Card]] | None = None
        #: the seats dealt in this round, when not everyone (a tie-break)
        self._seats: tuple[int, ...] | None = None
        #: whether a round is being played (a game won now is won mid-round)
        self._round_open = False
        #: the last card played, for what follows from it
        self._played: CardPlayed | None = None
        #: the player a Sycophant requires the next card played to choose
        self._required: int | None = None
        #: (Jester's player, marked player) pairs of this round
        self._marks: list[tuple[int, int]] = []
        #: the optional step offered and not yet answered, and to whom
        self._offered: Decision | None = None
        self._offered_to: int | None = None
        #: the player of a described position who has yet to take the draw
        self._to_draw: int | None = None
        #: the players tied for the game, during tie-break rounds
        self._contenders: tuple[int, ...] = ()
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
            ChoiceRestricted: self._choice_restricted,
            PlayerMarked: self._player_marked,
            CardRevealed: self._card_revealed,
            LookOffered: self._look_offered,
            RedrawOffered: self._redraw_offered,
            OptionDeclined: self._option_declined,
            RoundEnded: self._round_ended,
            TokenAwarded: self._token_awarded,
            GameEnded: self._game_ended,
            GameTied: self._game_tied,
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

    def join(self, position: Position) -> None:
        """Take up the story at a described position, remembering only its
        public part (the edition, round and turn, protection, discard piles,
        tokens, marks, a Sycophant's requirement), as a narrator that had
        followed the game would. Nothing is told. A seat's narrator needs
        this: the position it would be given is redacted for that seat, and
        redaction also hides what is public but not derivable from it."""
        self._position_established([PositionEstablished(position)], 0, [])

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

    def _move(self, command: Command) -> str:
        """`` [P0 Guard on P2 naming Priest]`` with ``notation``, else ""."""
        return f" [{format_command(command)}]" if self.notation else ""

    def _value(self, card: Card) -> str:
        return f" ({self._rules.value(card)})" if self._rules is not None else ""

    def _round_name(self) -> str:
        return f"round {self._round}" if self._round is not None else "the round"

    def _names(self, seats: Iterable[int]) -> str:
        return _join([self.name(seat) for seat in seats])

    def _named(self, guess: Card | int) -> str:
        """What a Guard or a Bishop named, as its edition names things (a
        number in Premium, a card in 2019), whichever type the event holds:
        a card and its code compare equal, so a value shared between
        editions may arrive as either."""
        rules = self._rules
        if rules is not None:
            if rules.names_numbers:
                return str(int(guess))
            if not isinstance(guess, Card) and guess in set(Card):
                return _the(Card(guess))
        return _named(guess)

    def _whose(self, player: int, seat: int) -> str:
        return "their own" if seat == player else f"{self.name(seat)}'s"

    def _set_ruleset(self, name: str) -> str:
        """Remember the ruleset (for card values); return its title."""
        try:
            self._rules = get_ruleset(name)
        except ValueError:
            self._rules = None
            return name
        return self._rules.title

    def _pile(self, seat: int, *cards: Card) -> None:
        if self._piles is not None:
            self._piles.setdefault(seat, []).extend(cards)

    def _new_round(self) -> None:
        self._protected.clear()
        self._piles = {}
        self._played = None
        self._required = None
        self._marks = []
        self._offered = None
        self._to_draw = None
        self._round_open = True

    # ------------------------------------------------------------------
    # setting up

    def _game_started(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, GameStarted)
        title = self._set_ruleset(event.ruleset)
        self._tokens = dict.fromkeys(range(event.players), 0)
        self._contenders = ()
        seats = self._names(range(event.players))
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
        self._new_round()
        if position is None:
            self._round = self._turn = None
            self._piles = None  # joined mid-round: the piles so far are untold
            lines.append("The game goes on from a described position.")
            return index + 1
        title = self._set_ruleset(position.ruleset)
        self._round = position.round_number
        self._turn = position.turn_number
        self._protected = set(position.protected)
        self._piles = {seat: list(pile) for seat, pile in enumerate(position.discards)}
        self._required = position.required
        self._marks = list(position.marks)
        self._contenders = position.contenders
        tokens = position.tokens or (0,) * position.players
        self._tokens = dict(enumerate(tokens))
        action = "play" if position.drawn else "draw"
        self._to_draw = None if position.drawn else position.current
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
        self._seats = event.seats
        self._new_round()
        starts = f"{self.name(event.first_player)} starts."
        if event.seats is None:
            lines.append(f"Round {event.round_number} begins. {starts}")
        else:
            lines.append(
                f"Round {event.round_number} begins: a tie-break round for the game, dealt to"
                f" {self._names(event.seats)} only. {starts}"
            )
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
        whom = "each player" if self._seats is None else "each tied player"
        if known:
            lines.append(f"One card is dealt to {whom}: {', '.join(known)}.")
        else:
            lines.append(f"One card is dealt to {whom}.")
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
        line = self._draw_sentence(event)
        if self._to_draw == event.player:  # a described position's draw
            line += self._move(DrawCard(event.player))
        self._to_draw = None
        lines.append(line)
        return index + 1

    def _card_played(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, CardPlayed)
        player, card, target = event.player, event.card, event.target
        # The requirement binds this card, whether or not it chooses anyone.
        required, self._required = self._required, None
        self._played = event
        self._pile(player, card)
        after = self._consequences(stream, index)
        line = f"{self.name(player)} plays {_the(card)}"
        if target is not None:
            line += self._choices(event)
        if target is None and card in _CHOOSES_A_PLAYER:
            if required is not None:
                who = self.name(required)
                if required == player:
                    why = f"{who}, its own player, which the {card_name(card)} cannot"
                else:
                    why = f"{who}, who cannot be chosen"
                line += f", but the Sycophant requires choosing {why}: no effect."
            elif card is Card.CARDINAL:
                line += ", but fewer than two players can be chosen: no effect."
            else:
                line += ", but no other player can be chosen: no effect."
        elif card is Card.GUARD:
            guess = f", naming {self._named(event.guess)}" if event.guess is not None else ""
            if any(isinstance(e, CardRevealed) for e in after):
                line += f"{guess}."  # the Assassin answers: told next
            elif any(
                isinstance(e, PlayerEliminated)
                and e.player == target
                and e.reason is EliminationReason.GUARD_GUESS
                for e in after
            ):
                line += f"{guess} — right guess!"
            else:
                line += f"{guess} — wrong guess."
        elif card is Card.BISHOP:
            guess = f", naming {self._named(event.guess)}" if event.guess is not None else ""
            right = any(
                isinstance(e, TokenAwarded) and e.reason is TokenReason.BISHOP for e in after
            )
            line += f"{guess} — right number!" if right else f"{guess} — wrong number."
        elif card is Card.CHANCELLOR and not any(isinstance(e, ChancellorDrew) for e in after):
            line += ", but the deck is empty: no effect."
        elif card in _LATER:
            line += f": {_LATER[card]}."
        else:
            line += "."
        line += self._move(PlayCard(player, card, target, event.guess, event.second_target))
        lines.append(line)
        return index + 1

    def _choices(self, event: CardPlayed) -> str:
        """Whom a played card chose, as words following "plays the X"."""
        player, card, target, second = event.player, event.card, event.target, event.second_target
        assert target is not None
        if second is not None:
            if card is Card.CARDINAL:
                if player in (target, second):
                    other = second if target == player else target
                    return f", choosing themselves and {self.name(other)}"
                return f", choosing {self.name(target)} and {self.name(second)}"
            return f" on {self.name(target)} and {self.name(second)}"
        if target == player:
            return (
                " and chooses themselves"
                if card is Card.SYCOPHANT
                else (" and chooses their own hand")
            )
        return f" {_PREPOSITION.get(card, 'on')} {self.name(target)}"

    def _card_discarded(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, CardDiscarded)
        self._pile(event.player, event.card)
        ending = "!" if event.card is Card.PRINCESS else " without using it."
        line = f"{self.name(event.player)} discards {_the(event.card)}{ending}"
        if self._offered is Decision.REDRAW and self._offered_to == event.player:
            line += self._move(Redraw(event.player))  # the answer to a Bishop's offer
            self._offered = self._offered_to = None
        lines.append(line)
        return index + 1

    def _eliminated(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, PlayerEliminated)
        who = self.name(event.player)
        self._protected.discard(event.player)
        self._pile(event.player, *event.discarded)
        shown = _cards(event.discarded)
        reason = event.reason
        if reason is EliminationReason.GUARD_GUESS:
            line = f"{who} is out of the round and discards {shown}."
        elif reason is EliminationReason.BARON_COMPARISON:
            line = f"{who} has the lower card and is out of the round, discarding {shown}."
        elif reason is EliminationReason.DOWAGER_COMPARISON:
            line = f"{who} has the higher card and is out of the round, discarding {shown}."
        elif reason is EliminationReason.ASSASSIN:
            line = f"{who} is struck down by the Assassin and is out of the round"
            line += f", discarding {shown}." if event.discarded else "."
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
        looking = self._offered is Decision.LOOK and self._offered_to == event.viewer
        self._offered = self._offered_to = None
        line = f"{self.name(event.viewer)} looks at {self._whose(event.viewer, event.owner)} hand"
        line += f" and sees {_the(event.card)}." if event.card is not None else " in secret."
        if looking:  # a Cardinal's optional look, taken
            line += self._move(LookAtHand(event.viewer, event.owner))
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
            isinstance(e, PlayerEliminated)
            and e.reason
            in (EliminationReason.BARON_COMPARISON, EliminationReason.DOWAGER_COMPARISON)
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
        line = f"{who} keeps {keeps} and puts {what} at the bottom of the deck."
        if event.cards is not None and kept is not None and len(kept) == 1:
            line += self._move(KeepCard(event.player, kept[0], event.cards))
        lines.append(line)
        return index + 1

    # ------------------------------------------------------------------
    # Premium: requirements, marks, reveals and optional steps

    def _choice_restricted(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, ChoiceRestricted)
        self._required = event.required
        lines.append(
            f"The next card played, if it chooses players, must choose {self.name(event.required)}."
        )
        return index + 1

    def _player_marked(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, PlayerMarked)
        self._marks.append((event.player, event.marked))
        lines.append(
            f"{self.name(event.player)} bets on {self.name(event.marked)} to win"
            f" {self._round_name()}: a favor token if they do."
        )
        return index + 1

    def _card_revealed(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, CardRevealed)
        who = self.name(event.player)
        line = f"{who} reveals {_the(event.card)}"
        if event.card is Card.ASSASSIN:
            played = self._played
            guard = self.name(played.player) if played is not None else "the Guard's player"
            line += f": {guard}, who chose them with a Guard, is knocked out instead."
        else:
            line += "."
        lines.append(line)
        return index + 1

    def _look_offered(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, LookOffered)
        self._offered, self._offered_to = Decision.LOOK, event.player
        seats = sorted(event.owners, key=lambda seat: (seat != event.player, seat))
        owners = " or ".join(self._whose(event.player, seat) for seat in seats)
        lines.append(f"{self.name(event.player)} may now look at {owners} hand.")
        return index + 1

    def _redraw_offered(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, RedrawOffered)
        self._offered, self._offered_to = Decision.REDRAW, event.player
        lines.append(
            f"{self.name(event.player)} may discard their card and draw a new one, or keep it."
        )
        return index + 1

    def _option_declined(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, OptionDeclined)
        who = self.name(event.player)
        offered, self._offered, self._offered_to = self._offered, None, None
        if offered is Decision.LOOK:
            line = f"{who} looks at neither hand."
        elif offered is Decision.REDRAW:
            line = f"{who} keeps their card."
        else:
            line = f"{who} declines."
        lines.append(line + self._move(Decline(event.player)))
        return index + 1

    # ------------------------------------------------------------------
    # the end of a round and of the game

    def _round_ended(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, RoundEnded)
        self._round_open = False
        self._offered = self._offered_to = None
        winners = self._names(event.winners)
        this_round = self._round_name()
        if event.reason is RoundEndReason.ONE_PLAYER_LEFT:
            lines.append(f"Only {winners} is left, and wins {this_round}.")
            return index + 1
        numbers = self._showdown_numbers(event.revealed)
        shown = ", ".join(
            f"{self.name(seat)} {_the(card)}{self._shown_value(seat, card, numbers)}"
            for seat, card in event.revealed
        )
        lines.append(f"The deck is empty, so {this_round} ends. Hands shown: {shown}.")
        lines.append(self._showdown_verdict(event, numbers))
        return index + 1

    def _showdown_numbers(
        self, revealed: tuple[tuple[int, Card], ...]
    ) -> dict[int, tuple[int, int, int]] | None:
        """Seat -> (card value, showdown bonus, discard total), when the
        ruleset and every pile are known (ruling 28: the Count's bonus; the
        discard total breaks ties in Premium)."""
        rules, piles = self._rules, self._piles
        if rules is None or piles is None:
            return None
        numbers: dict[int, tuple[int, int, int]] = {}
        for seat, card in revealed:
            pile = piles.get(seat, [])
            bonus = sum(rules.showdown_bonus[c] for c in pile)
            numbers[seat] = (rules.value(card), bonus, sum(rules.value(c) for c in pile))
        return numbers

    def _shown_value(
        self, seat: int, card: Card, numbers: dict[int, tuple[int, int, int]] | None
    ) -> str:
        if numbers is None:
            return self._value(card)
        value, bonus, _ = numbers[seat]
        if not bonus:
            return f" ({value})"
        return f" ({value}, +{bonus} for the Count{'s' if bonus > 1 else ''}: {value + bonus})"

    def _showdown_verdict(
        self, event: RoundEnded, numbers: dict[int, tuple[int, int, int]] | None
    ) -> str:
        """Why the winners of an empty-deck round end won."""
        winners = self._names(event.winners)
        this_round = self._round_name()
        several = len(event.winners) > 1
        if numbers is None or self._rules is None:
            if several:
                return f"{winners} tie with the highest card and all win {this_round}."
            return f"{winners} has the highest card and wins {this_round}."
        number = {seat: value + bonus for seat, (value, bonus, _) in numbers.items()}
        top = max(number.values())
        tops = tuple(seat for seat, _ in event.revealed if number[seat] == top)
        what = "card" if not any(bonus for _, bonus, _ in numbers.values()) else "number"
        held = dict(event.revealed)
        if set(tops) == set(event.winners):
            if not several:
                return f"{winners} has the highest {what} and wins {this_round}."
            same = ""
            if self._rules.round_tie is RoundTie.DISCARD_TOTAL:
                same = f" and the same discard total ({numbers[tops[0]][2]})"
            return f"{winners} tie with the highest {what}{same}, and all win {this_round}."
        if set(event.winners) < set(tops):
            totals = ", ".join(f"{self.name(seat)} {numbers[seat][2]}" for seat in tops)
            verb = "wins" if not several else "all win"
            return (
                f"{self._names(tops)} tie with the highest {what}; the highest discard total"
                f" breaks the tie ({totals}): {winners} {verb} {this_round}."
            )
        if any(held[seat] is Card.PRINCESS for seat in event.winners) and any(
            card is Card.BISHOP for _, card in event.revealed
        ):
            verb = "wins" if not several else "all win"
            return f"The Princess beats the Bishop: {winners} {verb} {this_round}."
        return f"{winners} {'all win' if several else 'wins'} {this_round}."

    def _token_awarded(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, TokenAwarded)
        self._tokens[event.player] = event.total
        who = self.name(event.player)
        total = f"({event.total} in all)"
        reason = event.reason
        if reason is TokenReason.SPY:
            lines.append(
                f"{who} is the only player left in the round who played or discarded a Spy,"
                f" and gains a favor token for it {total}."
            )
        elif reason is TokenReason.BISHOP:
            played = self._played
            whose = (
                f"{self.name(played.target)}'s"
                if played is not None and played.card is Card.BISHOP and played.target is not None
                else "the"
            )
            lines.append(
                f"{who} named {whose} number with the Bishop and gains a favor token {total}."
            )
        elif reason is TokenReason.CONSTABLE:
            lines.append(
                f"{who} had the Constable in their discard pile when knocked out, and gains"
                f" a favor token for it {total}."
            )
        elif reason is TokenReason.JESTER:
            marked = [m for p, m in self._marks if p == event.player]
            bet = f"{self._names(marked)} won" if marked else "The marked player won"
            lines.append(
                f"{bet} {self._round_name()}, as {who}'s Jester bet: {who} gains a favor"
                f" token {total}."
            )
        else:
            lines.append(f"{who} gains a favor token {total}.")
        return index + 1

    def _game_tied(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, GameTied)
        names = self._names(event.tied)
        if self._contenders:
            lines.append(
                f"{names} gain a favor token in the same step: still tied, they play"
                " another tie-break round."
            )
        else:
            lines.append(
                f"{names} reach the favor tokens to win together: the game is tied, and a"
                " tie-break round between them decides it."
            )
        self._contenders = tuple(event.tied)
        return index + 1

    def _game_ended(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, GameEnded)
        winners = list(event.winners)
        names = self._names(winners)
        counts = [self._tokens.get(seat) for seat in winners]
        tie_break = " the tie-break and" if self._contenders else ""
        mid_round = " at once, mid-round" if self._round_open else ""
        self._contenders = ()
        self._round_open = False
        if len(winners) == 1:
            tokens = f" with {counts[0]} favor tokens" if counts[0] is not None else ""
            if mid_round and tokens:
                tokens = f",{tokens}"
            lines.append(f"{names} wins{tie_break} the game{mid_round}{tokens}!")
        else:
            known = [str(n) for n in counts if n is not None]
            tokens = f", with {_join(known)} favor tokens" if len(known) == len(counts) else ""
            lines.append(f"{names} win{tie_break} the game together{mid_round}{tokens}!")
        return index + 1


def describe_command(
    command: Command,
    name: Callable[[int], str] = default_name,
    *,
    decision: Decision | None = None,
    numbers: Callable[[int], Sequence[Card]] | None = None,
) -> str:
    """A command as a menu offers it to the player who would give it (so
    "your own hand", and players named by ``name``).

    ``decision`` tells what a ``Decline`` declines (a Cardinal's look or a
    Bishop's redraw); ``numbers`` lists the cards of the deck in use that
    carry a number, to gloss a named number ("naming 5 (Prince, Count)").
    """
    if isinstance(command, PlayCard):
        text = f"Play {_the(command.card)}"
        target, second = command.target, command.second_target
        if target is not None and second is not None:
            if command.card is Card.CARDINAL and command.player in (target, second):
                other = second if target == command.player else target
                text += f": swap your hand with {name(other)}'s"
            elif command.card is Card.CARDINAL:
                text += f": swap the hands of {name(target)} and {name(second)}"
            else:
                text += f" on {name(target)} and {name(second)}"
        elif target is not None:
            if target == command.player:
                text += " on your own hand"
            else:
                text += f" {_PREPOSITION.get(command.card, 'on')} {name(target)}"
        elif command.card in _CHOOSES_A_PLAYER:
            text += " (no one can be chosen: no effect)"
        if command.guess is not None:
            text += f", naming {_named(command.guess)}"
            if numbers is not None and not isinstance(command.guess, Card):
                cards = numbers(command.guess)
                if cards:
                    text += f" ({', '.join(map(card_name, cards))})"
        return text
    if isinstance(command, KeepCard):
        text = f"Keep {_the(command.keep)}"
        if command.bottom:
            order = " and then ".join(_the(card) for card in command.bottom)
            text += f"; put {order} at the bottom of the deck"
        return text
    if isinstance(command, LookAtHand):
        if command.owner == command.player:
            return "Look at your own hand"
        return f"Look at {name(command.owner)}'s hand"
    if isinstance(command, Redraw):
        return "Discard your card and draw a new one"
    if isinstance(command, Decline):
        if decision is Decision.LOOK:
            return "Look at neither hand"
        if decision is Decision.REDRAW:
            return "Keep your card"
        return "Decline"
    if isinstance(command, DrawCard):
        return "Draw a card"
    if isinstance(command, StartRound):
        return "Deal the next round"
    return repr(command)
