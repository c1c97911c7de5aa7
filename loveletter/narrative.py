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

Each edition's tokens go by its own name (2019's favor tokens, Premium's
Tokens of Affection), and a number a Premium Guard or Bishop names is told
with the cards of the deck in use that carry it ("naming 5 (Prince or
Count)"). A round ended by the empty deck is told with the reason it was
decided by: the narrator judges the hands with the engine's own function
(:func:`loveletter.showdown.judge`), on the discard piles the story has
told, and words that verdict (:func:`tell_verdict`); should the story's
facts ever give other winners than the engine's, it names the winners and
gives no reason rather than a wrong one.

An online match (rulings 41 to 53) is told in its own words: no favor
tokens and no game to win, but a turn order drawn each round, ranks at each
round's end (with the reason of each: the adjusted hand values, the hand
bonus, discard totals, the order the others went out), win counters, partial
wins, players leaving and time-outs. The reasons are worked out from public
facts only and told only when they give the ranks the engine gave; a story
that cannot follow them tells the ranks alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from loveletter import Card, GameState, Ruleset, events_for, evolve, get_ruleset, replay
from loveletter.cards.base import Choice
from loveletter.commands import (
    Command,
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
from loveletter.errors import NotationError
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
    PlayerLeft,
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
    TurnTimedOut,
)
from loveletter.notation import format_command
from loveletter.positions import Position
from loveletter.ranking import round_ranks
from loveletter.rulesets import Scoring
from loveletter.showdown import Criterion, ShownHand, Verdict, beats, judge
from loveletter.state import Decision, TableSettings

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
    Card.CONSTABLE: "if they are knocked out this round, it earns them a {token}",
    Card.COUNT: "it adds 1 to their hand at the showdown",
}
#: the same, online: a partial win instead of a token (ruling 46)
_LATER_ONLINE = {
    Card.CONSTABLE: "if they are knocked out this round, it earns them a partial win",
    Card.COUNT: "it adds 1 to their hand's value if the round ends by the pile",
}

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def _ordinal(rank: int) -> str:
    return _ORDINALS[rank - 1] if 1 <= rank <= len(_ORDINALS) else f"number {rank}"


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
        #: the card a player just revealed (the Assassin), whose discard follows
        self._revealed: tuple[int, Card] | None = None
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
        #: online: the table's seats, the round's drawn order, who went out of
        #: the round in order, who left the match, whose turn it is, the
        #: previous round's rank-1 players, and a time-out's move to come
        self._players: int | None = None
        self._order: tuple[int, ...] = ()
        self._exits: list[int] = []
        self._left: set[int] = set()
        self._turn_player: int | None = None
        self._last_winners: tuple[int, ...] | None = None
        self._random_move = False
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
            PlayerLeft: self._player_left,
            TurnTimedOut: self._turn_timed_out,
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
        """`` [P0 Guard on P2 naming Priest]`` with ``notation``, else "".

        The move a time-out made is not the player's: its line carries no
        move, the time-out's line does."""
        if self._random_move:
            self._random_move = False
            return ""
        if not self.notation:
            return ""
        try:
            return f" [{format_command(command)}]"
        except NotationError:  # a command the notation cannot write yet
            return ""

    @property
    def _online(self) -> bool:
        """Whether rounds are ranked (online): win counters, not tokens."""
        return self._rules is not None and self._rules.scoring is Scoring.RANKS

    def _counter(self, total: int) -> str:
        return f"(win counter: {total})"

    @property
    def _token_names(self) -> tuple[str, str]:
        """What the edition calls a token, singular and plural (2019's
        favor tokens, Premium's Tokens of Affection)."""
        return (
            self._rules.token_names if self._rules is not None else ("favor token", "favor tokens")
        )

    def _tokens_text(self, count: int) -> str:
        singular, plural = self._token_names
        return f"{count} {singular if count == 1 else plural}"

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
                return str(int(guess)) + self._number_hits(rules, int(guess))
            if not isinstance(guess, Card) and guess in set(Card):
                return _the(Card(guess))
        return _named(guess)

    def _number_hits(self, rules: Ruleset, number: int) -> str:
        """`` (Prince or Count)``: the cards of the deck in use that carry
        ``number`` (the 16-card deck of a small Premium game has fewer)."""
        players = self._players
        if players is None or not rules.supports(players):
            return ""
        cards = [card for card in rules.setup(players).kinds if rules.value(card) == number]
        return f" ({' or '.join(map(card_name, cards))})" if cards else ""

    def _whose_hand(self, player: int, seat: int) -> str:
        # Only the Cardinal shows its player their own hand, after the
        # swap: the hand they look at is the one they were just given.
        return "their new hand" if seat == player else f"{self.name(seat)}'s hand"

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
        self._exits = []
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
        self._players = event.players
        self._left = set()
        self._last_winners = None
        seats = self._names(range(event.players))
        seed = f" (Seed {event.seed}.)" if event.seed is not None else ""
        if self._online:
            lines.append(
                f"A match of {title} begins with {event.players} players: {seats}. No one wins"
                " the match: each round ranks the players, every player ranked first gains a"
                " win on their win counter, each round draws a new turn order, and the match"
                f" goes on as long as rounds are dealt to two players or more.{seed}"
            )
            if event.settings is not None:
                lines.append(self._settings_sentence(event.players, event.settings))
            return index + 1
        line = f"A game of {title} begins with {event.players} players: {seats}."
        if self._rules is not None:
            goal = self._rules.tokens_to_win(event.players)
            if goal is not None:
                line += f" The first to {self._rules.tokens(goal)} wins."
        lines.append(line + seed)
        return index + 1

    def _settings_sentence(self, players: int, settings: TableSettings) -> str:
        decks = settings.decks
        copies = "one deck" if decks == 1 else f"{decks} decks shuffled together"
        size = ""
        if self._rules is not None:
            size = f" ({len(self._rules.deck_for(players, decks))} cards)"
        seconds = f"{settings.turn_time_ms / 1000:g}"
        timeout = (
            "a player who runs out of time has a move drawn at random for them"
            if settings.random_moves
            else "no move is ever made at random for a player who runs out of time"
        )
        return f"The table plays with {copies}{size}, {seconds} seconds a turn; {timeout}."

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
        self._players = position.players
        self._order = position.order
        self._exits = list(position.exits)
        self._left = set(position.left)
        self._turn_player = position.current
        self._last_winners = None
        tokens = position.tokens or (0,) * position.players
        self._tokens = dict(enumerate(tokens))
        action = "play" if position.drawn else "draw"
        self._to_draw = None if position.drawn else position.current
        what = "match" if self._online else "game"
        lines.append(
            f"A {what} of {title} with {position.players} players goes on from a described"
            f" position: round {position.round_number}, turn {position.turn_number},"
            f" {self.name(position.current)} to {action}."
        )
        hands = [
            f"{self.name(seat)} has left the match"
            if seat in position.left
            else f"{self.name(seat)} is out"
            if seat in position.out
            else f"{self.name(seat)} holds {_cards(hand)}"
            for seat, hand in enumerate(position.hands)
        ]
        size = len(position.deck)
        lines.append(f"{'; '.join(hands)}. The deck holds {size} card{'' if size == 1 else 's'}.")
        if position.order:
            lines.append(f"The turn order of this round: {self._names(position.order)}.")
        if any(tokens):
            standing = ", ".join(f"{self.name(s)} {n}" for s, n in enumerate(tokens))
            counted = "Win counters" if self._online else _capital(self._token_names[1])
            lines.append(f"{counted} so far: {standing}.")
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
        if event.order is not None:
            self._order = event.order
            lines.append(self._drawn_order(event))
            return index + 1
        starts = f"{self.name(event.first_player)} starts."
        if event.seats is None:
            lines.append(f"Round {event.round_number} begins. {starts}")
        else:
            lines.append(
                f"Round {event.round_number} begins: a tie-break round for the game, dealt to"
                f" {self._names(event.seats)} only. {starts}"
            )
        return index + 1

    def _drawn_order(self, event: RoundStarted) -> str:
        """Online (ruling 43): the order drawn for the round, and why its
        first player is first."""
        assert event.order is not None
        first = self.name(event.first_player)
        line = (
            f"Round {event.round_number} begins. Turn order for this round:"
            f" {self._names(event.order)}."
        )
        if self._left:
            gone = sorted(self._left)
            verb = "sits" if len(gone) == 1 else "sit"
            line += f" ({self._names(gone)}, who left the match, {verb} out.)"
        previous = self._last_winners
        if previous is None or event.round_number == 1:
            return f"{line} {first} starts."
        still = [seat for seat in previous if seat not in self._left]
        last_round = f"round {event.round_number - 1}"
        if event.first_player in still:
            return f"{line} {first}, who ranked first in {last_round}, starts."
        if not still:
            return (
                f"{line} No one who ranked first in {last_round} is still present, so the draw"
                f" alone decides: {first} starts."
            )
        return f"{line} {first} starts."

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
        if self._order and self._left:
            whom = "each player present"
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
        self._turn_player = player
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
                if required == player:
                    why = f"them to choose themselves, which the {card_name(card)} cannot"
                else:
                    why = f"choosing {self.name(required)}, who cannot be chosen"
                line += f", but the Sycophant requires {why}: no effect."
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
            later = _LATER_ONLINE if self._online else _LATER
            line += f": {later[card].format(token=self._token_names[0])}."
        else:
            line += "."
        line += self._move(PlayCard(player, card, target, event.guess, event.second_target))
        lines.append(line)
        return index + 1

    def _choices(self, event: CardPlayed) -> str:
        """Whom a played card chose, as words following "plays the X"."""
        player, card, target, second = event.player, event.card, event.target, event.second_target
        assert target is not None
        if second is not None and self._online:
            if card is Card.CARDINAL:  # ruling 48: an ordered pair
                return (
                    f", choosing {self._them(player, target)} first, then"
                    f" {self._them(player, second)}"
                )
            if target == second:  # the Baroness online: the same hand twice
                return f" on {self.name(target)}, twice"
            return f" on {self.name(target)}, then {self.name(second)}"
        if second is not None:
            if card is Card.CARDINAL:
                if player in (target, second):
                    other = second if target == player else target
                    return f", choosing themselves and {self.name(other)}"
                return f", choosing {self.name(target)} and {self.name(second)}"
            return f" on {self.name(target)} and {self.name(second)}"
        if target == player:
            return " and chooses themselves"
        return f" {_PREPOSITION.get(card, 'on')} {self.name(target)}"

    def _them(self, player: int, seat: int) -> str:
        return "themselves" if seat == player else self.name(seat)

    def _card_discarded(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, CardDiscarded)
        self._pile(event.player, event.card)
        revealed, self._revealed = self._revealed, None
        ending = "!" if event.card is Card.PRINCESS else " without using it."
        line = f"{self.name(event.player)} discards {_the(event.card)}{ending}"
        if revealed == (event.player, event.card):  # it has just acted: not "without using it"
            line = f"{self.name(event.player)} discards the revealed {card_name(event.card)}."
        if self._offered is Decision.REDRAW and self._offered_to == event.player:
            line += self._move(Redraw(event.player))  # the answer to a Bishop's offer
            self._offered = self._offered_to = None
        lines.append(line)
        return index + 1

    def _eliminated(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, PlayerEliminated)
        who = self.name(event.player)
        self._knocked_out(event)
        shown = _cards(event.discarded)
        reason = event.reason
        if reason is EliminationReason.LEFT:
            line = f"{who} is out of the round"
            if event.discarded:
                line += f", and {shown} {'goes' if len(event.discarded) == 1 else 'go'} face up"
                line += " without effect"
            lines.append(line + self._after_leaving(stream, index, event.player) + ".")
            return index + 1
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

    def _knocked_out(self, event: PlayerEliminated) -> None:
        """Remember that ``event``'s player is out, with what they discarded."""
        self._protected.discard(event.player)
        self._pile(event.player, *event.discarded)
        self._exits.append(event.player)

    def _after_leaving(self, stream: list[Event], index: int, player: int) -> str:
        """What a player's leaving did to the turn (ruling 50), read from
        what follows it: the events up to the next turn or round end."""
        following = stream[index + 1] if index + 1 < len(stream) else None
        ended = isinstance(following, TurnStarted | RoundEnded)
        parts: list[str] = []
        offered_to = self._offered_to if self._offered is Decision.REDRAW else None
        if ended and player == self._turn_player:
            parts.append("their turn ends at once")
            if offered_to is not None and offered_to != player:
                parts.append(f"{self.name(offered_to)}'s offer to redraw lapses with it")
            required = self._required
            if required is not None and required != player:
                self._required = None  # it bound the turn that ended
                parts.append(
                    f"the Sycophant's demand to choose {self.name(required)} lapses with it"
                )
        elif ended and offered_to == player and self._turn_player is not None:
            parts.append(
                f"their offer to redraw lapses, and {self.name(self._turn_player)}'s turn ends"
            )
        if ended and offered_to is not None:
            self._offered = self._offered_to = None
        if self._required == player:
            self._required = None
            parts.append("the Sycophant's demand to choose them lapses")
        return f": {_join(parts)}" if parts else ""

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
        hand = "hand"
        previous = stream[index - 1] if index > 0 else None
        if event.via is Card.CARDINAL and self._online and not looking:
            hand = "new hand"  # online: the look that follows the swap (ruling 48)
        elif (
            isinstance(previous, HandSeen)
            and previous.via is Card.BARONESS
            and event.via is Card.BARONESS
            and (previous.viewer, previous.owner) == (event.viewer, event.owner)
        ):
            hand = "hand again"  # online: a Baroness may look at one hand twice
        whose = (
            self._whose_hand(event.viewer, event.owner)
            if event.viewer == event.owner
            else f"{self.name(event.owner)}'s {hand}"
        )
        line = f"{self.name(event.viewer)} looks at {whose}"
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
        if self._online:
            lines.append(
                f"{self.name(event.player)} bets on {self.name(event.marked)} to rank first in"
                f" {self._round_name()}: a partial win if they do, while {self.name(event.player)}"
                " is still at the table."
            )
            return index + 1
        lines.append(
            f"{self.name(event.player)} bets on {self.name(event.marked)} to win"
            f" {self._round_name()}: a {self._token_names[0]} if they do."
        )
        return index + 1

    def _card_revealed(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, CardRevealed)
        who = self.name(event.player)
        line = f"{who} reveals {_the(event.card)}"
        self._revealed = (event.player, event.card)
        following = stream[index + 1] if index + 1 < len(stream) else None
        if (
            event.card is Card.ASSASSIN
            and isinstance(following, PlayerEliminated)
            and following.reason is EliminationReason.ASSASSIN
        ):
            # the knock-out the reveal causes, told in the same sentence once
            self._knocked_out(following)
            guard = self.name(following.player)
            line += f": {guard}, who chose them with a Guard, is knocked out instead"
            line += f", discarding {_cards(following.discarded)}." if following.discarded else "."
            lines.append(line)
            return index + 2
        lines.append(line + ".")
        return index + 1

    def _look_offered(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, LookOffered)
        self._offered, self._offered_to = Decision.LOOK, event.player
        seats = sorted(event.owners, key=lambda seat: (seat != event.player, seat))
        owners = " or ".join(self._whose_hand(event.player, seat) for seat in seats)
        lines.append(f"{self.name(event.player)} may now look at {owners}.")
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
        if event.ranks is not None:
            self._ranked_end(event, lines)
            self._last_winners = event.winners
            return index + 1
        if event.reason is RoundEndReason.ONE_PLAYER_LEFT:
            lines.append(f"Only {winners} is left, and wins {this_round}.")
            return index + 1
        verdict = self._verdict(event.revealed)
        if verdict is not None and verdict.winners != tuple(event.winners):
            verdict = None  # the story's facts are not the engine's: no reason is told
        shown = ", ".join(
            f"{self.name(seat)} {_the(card)}{self._shown_value(seat, card, verdict)}"
            for seat, card in event.revealed
        )
        lines.append(f"The deck is empty, so {this_round} ends. Hands shown: {shown}.")
        if verdict is not None:
            lines.append(tell_verdict(verdict, self.name, this_round))
        else:
            several = len(event.winners) > 1
            lines.append(f"{winners} {'all win' if several else 'wins'} {this_round}.")
        return index + 1

    def _verdict(self, revealed: tuple[tuple[int, Card], ...]) -> Verdict | None:
        """The showdown judged by the engine's own function on the public
        facts the story holds (the edition, every discard pile), or
        ``None`` when it lacks them."""
        rules, piles = self._rules, self._piles
        if rules is None or piles is None or not revealed:
            return None
        seats = 1 + max([seat for seat, _ in revealed] + list(piles) + [(self._players or 0) - 1])
        if min(seat for seat, _ in revealed) < 0:
            return None
        discards = tuple(tuple(piles.get(seat, ())) for seat in range(seats))
        return judge(rules, revealed, discards)

    def _ranked_end(self, event: RoundEnded, lines: list[str]) -> None:
        """Online (rulings 44 and 45): the ranks of the round, and why, when
        the story so far gives the reasons the engine used."""
        assert event.ranks is not None
        this_round = self._round_name()
        ranks = event.ranks
        values = self._adjusted(event.revealed)
        explained = values is not None and self._ranks_agree(event)
        if event.reason is RoundEndReason.ONE_PLAYER_LEFT:
            lines.append(
                f"Only {self._names(event.winners)} is left in {this_round}, and ranks first."
            )
        else:
            shown = ", ".join(
                f"{self.name(seat)} {_the(card)}"
                + (self._adjusted_text(seat, values) if values is not None else self._value(card))
                for seat, card in event.revealed
            )
            lines.append(
                f"The pile is down to one card or none, so {this_round} ends. Hands shown: {shown}."
            )
            lines.append(self._hand_ranks(event, values if explained else None))
        exits = [seat for seat in range(len(ranks)) if ranks[seat] is not None]
        exits = [
            seat for seat in exits if seat not in event.winners and seat not in dict(event.revealed)
        ]
        if exits:
            exits.sort(key=lambda seat: ranks[seat] or 0)
            told = ", ".join(f"{_ordinal(ranks[seat] or 0)} {self.name(seat)}" for seat in exits)
            why = " by the order they went out, the last out highest" if explained else ""
            lines.append(f"The others rank{why}: {told}.")
        unranked = [seat for seat, rank in enumerate(ranks) if rank is None]
        if unranked:
            verb = "has" if len(unranked) == 1 else "have"
            lines.append(f"{self._names(unranked)}, who left the match, {verb} no rank.")
        for jester, marked in self._marks:
            if ranks[marked] == 1 and jester in self._left:
                lines.append(
                    f"{self.name(jester)}'s Jester bet on {self.name(marked)} came true, but"
                    f" {self.name(jester)} has left the match: no partial win."
                )

    def _adjusted(
        self, revealed: tuple[tuple[int, Card], ...]
    ) -> dict[int, tuple[int, int, int, int]] | None:
        """Online: seat -> (printed value, Counts in the pile, hand bonus,
        discard total) of each hand shown, when every pile is known."""
        players = self._players
        if players is None or any(not 0 <= seat < players for seat, _ in revealed):
            return None
        if not revealed and self._rules is not None and self._piles is not None:
            return {}  # one player left: no hand is compared
        verdict = self._verdict(revealed)
        if verdict is None:
            return None
        return {h.seat: (h.value, h.counts, h.bonus, h.total or 0) for h in verdict.hands}

    def _ranks_agree(self, event: RoundEnded) -> bool:
        """Whether the public facts the story holds give the engine's ranks
        (otherwise no reason is told: a reason must never be false)."""
        rules, piles, players = self._rules, self._piles, self._players
        if rules is None or piles is None or players is None or event.ranks is None:
            return False
        if len(event.ranks) != players:
            return False
        discards = tuple(tuple(piles.get(seat, ())) for seat in range(players))
        live = event.winners if not event.revealed else tuple(seat for seat, _ in event.revealed)
        try:
            mine = round_ranks(rules, players, event.revealed, live, tuple(self._exits), discards)
        except (IndexError, KeyError, ValueError):
            return False
        return mine == event.ranks

    def _adjusted_text(self, seat: int, numbers: dict[int, tuple[int, int, int, int]]) -> str:
        value, counts, bonus, _ = numbers[seat]
        if not counts and not bonus:
            return f" ({value})"
        parts = [str(value)]
        if counts:
            parts.append(f"+{counts} for the Count{'s' if counts > 1 else ''}")
        if bonus:
            parts.append(f"+{bonus} hand bonus")
        return f" ({', '.join(parts)}: {value + counts + bonus})"

    def _hand_ranks(
        self, event: RoundEnded, numbers: dict[int, tuple[int, int, int, int]] | None
    ) -> str:
        """The ranks of the hands shown, best first; with ``numbers``, by
        adjusted value and, where those are equal, discard total."""
        assert event.ranks is not None
        ranks = event.ranks
        groups: dict[int, list[int]] = {}
        for seat, _ in event.revealed:
            groups.setdefault(ranks[seat] or 0, []).append(seat)
        parts = []
        for rank in sorted(groups):
            seats = groups[rank]
            part = f"{_ordinal(rank)} {self._names(seats)}"
            if len(seats) > 1:
                part += ", tied"
            if numbers is not None:
                adjusted = numbers[seats[0]][0] + numbers[seats[0]][1] + numbers[seats[0]][2]
                same = [other for other, _ in event.revealed if sum(numbers[other][:3]) == adjusted]
                detail = str(adjusted)
                if len(same) > 1:
                    each = " each" if len(seats) > 1 else ""
                    detail += f", discard total {numbers[seats[0]][3]}{each}"
                part += f" ({detail})"
            parts.append(part)
        why = " by adjusted hand value, then discard total" if numbers is not None else ""
        text = f"Ranks{why}: {'; '.join(parts)}."
        if numbers is not None:
            text += self._bonus_reasons(event, numbers)
        return text

    def _bonus_reasons(
        self, event: RoundEnded, numbers: dict[int, tuple[int, int, int, int]]
    ) -> str:
        """Why a hand bonus was given (ruling 45), for each hand that got one."""
        held = dict(event.revealed)
        reasons = []
        for seat, (_, _, bonus, _) in numbers.items():
            if not bonus:
                continue
            who = self.name(seat)
            if held[seat] is Card.PRINCESS:
                reasons.append(
                    f" {who}'s Princess gets the hand bonus, as another player holds a Bishop."
                )
            else:
                reasons.append(
                    f" {who}'s {card_name(held[seat])} gets the hand bonus: two Counts in their"
                    " pile, the Princess in another hand, and a Bishop in a hand whose discard"
                    " total is lower than theirs."
                )
        return "".join(reasons)

    def _shown_value(self, seat: int, card: Card, verdict: Verdict | None) -> str:
        if verdict is None:
            return self._value(card)
        hand = verdict.hand(seat)
        if not hand.counts:
            return f" ({hand.value})"
        plural = "s" if hand.counts > 1 else ""
        return f" ({hand.value}, +{hand.counts} for the Count{plural}: {hand.number})"

    def _token_awarded(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, TokenAwarded)
        self._tokens[event.player] = event.total
        who = self.name(event.player)
        total = f"({event.total} in all)"
        reason = event.reason
        if self._online:
            lines.append(self._win_counted(event))
            return index + 1
        token = self._token_names[0]
        if reason is TokenReason.SPY:
            lines.append(
                f"{who} is the only player left in the round who played or discarded a Spy,"
                f" and gains a {token} for it {total}."
            )
        elif reason is TokenReason.BISHOP:
            played = self._played
            whose = (
                f"{self.name(played.target)}'s"
                if played is not None and played.card is Card.BISHOP and played.target is not None
                else "the"
            )
            lines.append(f"{who} named {whose} number with the Bishop and gains a {token} {total}.")
        elif reason is TokenReason.CONSTABLE:
            lines.append(
                f"{who} had the Constable in their discard pile when knocked out, and gains"
                f" a {token} for it {total}."
            )
        elif reason is TokenReason.JESTER:
            marked = [m for p, m in self._marks if p == event.player]
            bet = f"{self._names(marked)} won" if marked else "The marked player won"
            lines.append(
                f"{bet} {self._round_name()}, as {who}'s Jester bet: {who} gains a {token} {total}."
            )
        else:
            lines.append(f"{who} gains a {token} {total}.")
        return index + 1

    def _win_counted(self, event: TokenAwarded) -> str:
        """Online (rulings 44 and 46): a win or a partial win, and why."""
        who = self.name(event.player)
        counter = self._counter(event.total)
        reason = event.reason
        if reason is TokenReason.BISHOP:
            played = self._played
            whose = (
                f"{self.name(played.target)}'s"
                if played is not None and played.card is Card.BISHOP and played.target is not None
                else "the"
            )
            return f"{who} named {whose} number with the Bishop: a partial win {counter}."
        if reason is TokenReason.CONSTABLE:
            return (
                f"{who} had the Constable in their discard pile when knocked out: a partial"
                f" win {counter}."
            )
        if reason is TokenReason.JESTER:
            marked = [m for p, m in self._marks if p == event.player]
            bet = (
                f"{self._names(marked)} ranked first"
                if marked
                else "The marked player ranked first"
            )
            return (
                f"{bet} in {self._round_name()}, as {who}'s Jester bet: a partial win for"
                f" {who} {counter}."
            )
        if reason is TokenReason.ROUND_WIN:
            return f"{who} ranked first and gains a win {counter}."
        return f"{who} gains a win ({reason}) {counter}."

    def _game_tied(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, GameTied)
        names = self._names(event.tied)
        if self._contenders:
            lines.append(
                f"{names} gain a {self._token_names[0]} in the same step: still tied, they play"
                " another tie-break round."
            )
        else:
            lines.append(
                f"{names} reach the {self._token_names[1]} to win together: the game is tied, and a"
                " tie-break round between them decides it."
            )
        self._contenders = tuple(event.tied)
        return index + 1

    def _game_ended(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, GameEnded)
        if self._online and not event.winners:
            self._round_open = False
            standing = ", ".join(f"{self.name(s)} {n}" for s, n in sorted(self._tokens.items()))
            lines.append(
                "Fewer than two players are left at the table, so the match closes."
                f" Win counters: {standing}."
            )
            return index + 1
        winners = list(event.winners)
        names = self._names(winners)
        counts = [self._tokens.get(seat) for seat in winners]
        tie_break = " the tie-break and" if self._contenders else ""
        mid_round = " at once, mid-round" if self._round_open else ""
        self._contenders = ()
        self._round_open = False
        if len(winners) == 1:
            tokens = f" with {self._tokens_text(counts[0])}" if counts[0] is not None else ""
            if mid_round and tokens:
                tokens = f",{tokens}"
            lines.append(f"{names} wins{tie_break} the game{mid_round}{tokens}!")
        else:
            known = [str(n) for n in counts if n is not None]
            plural = self._token_names[1]
            tokens = f", with {_join(known)} {plural}" if len(known) == len(counts) else ""
            lines.append(f"{names} win{tie_break} the game together{mid_round}{tokens}!")
        return index + 1

    # ------------------------------------------------------------------
    # online: leaving and time-outs

    def _player_left(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, PlayerLeft)
        player = event.player
        self._left.add(player)
        line = f"{self.name(player)} leaves the match and will be dealt into no later round"
        following = stream[index + 1] if index + 1 < len(stream) else None
        if self._round_open and not (
            isinstance(following, PlayerEliminated) and following.player == player
        ):
            line += " (they were already out of this round)"
        lines.append(line + "." + self._move(Leave(player)))
        return index + 1

    def _turn_timed_out(self, stream: list[Event], index: int, lines: list[str]) -> int:
        event = stream[index]
        assert isinstance(event, TurnTimedOut)
        who = self.name(event.player)
        line = f"{who} runs out of time, so a move is drawn at random for them:"
        line += self._move(TimeOut(event.player))
        self._random_move = True  # the move told next is not the player's own
        lines.append(line)
        return index + 1


def tell_verdict(
    verdict: Verdict, name: Callable[[int], str] = default_name, this_round: str = "the round"
) -> str:
    """Why the winners of a round ended by the empty deck won: the sentence
    the narrator tells, made from the decision itself (see
    :mod:`loveletter.showdown`), never worked out again on its own.

    When every player who lost was beaten by a winner on the numbers, it
    says so in a few words (the highest card or number, the discard totals
    that broke a tie); otherwise it says who beats whom and how, and, in a
    circle where everybody is beaten, which card the rules give it to.

    >>> from loveletter.rulesets import get_ruleset
    >>> from loveletter.showdown import judge
    >>> verdict = judge(
    ...     get_ruleset("premium"),
    ...     ((0, Card.PRINCESS), (1, Card.BISHOP), (2, Card.GUARD)),
    ...     ((), (), ()),
    ... )
    >>> print(tell_verdict(verdict, this_round="round 4"))  # doctest: +NORMALIZE_WHITESPACE
    Player 0 wins round 4, as nobody beats them: Player 0's Princess beats
    Player 1's Bishop whatever the numbers; Player 0's 8 beats Player 2's 1.
    """
    winners = verdict.winners
    names = _join([name(seat) for seat in winners])
    if not winners:  # only a hand-made verdict: a circle with no Princess
        return f"Nobody wins {this_round}."
    several = len(winners) > 1
    win = f"{'all win' if several else 'wins'} {this_round}"
    hands = {hand.seat: hand for hand in verdict.hands}
    top = hands[winners[0]]
    what = "number" if any(hand.counts or hand.bonus for hand in verdict.hands) else "card"
    defeats = verdict.defeats
    if not verdict.cycle and all(
        d.beaten_by in winners and d.criterion is not Criterion.CARD for d in defeats
    ):
        tied = [d.seat for d in defeats if d.criterion is Criterion.DISCARD_TOTAL]
        if tied:
            seats = [
                hand.seat for hand in verdict.hands if hand.seat in winners or hand.seat in tied
            ]
            totals = ", ".join(f"{name(seat)} {hands[seat].total}" for seat in seats)
            return (
                f"{_join([name(seat) for seat in seats])} tie with the highest {what}; the"
                f" highest discard total breaks the tie ({totals}): {names} {win}."
            )
        if not several:
            return f"{names} has the highest {what} and wins {this_round}."
        same = f" and the same discard total ({top.total})" if top.total is not None else ""
        return f"{names} tie with the highest {what}{same}, and all win {this_round}."
    reasons = _defeat_reasons(verdict, name, hands)
    if verdict.cycle:
        card = card_name(top.card)
        return (
            f"Everybody is beaten by someone: {'; '.join(reasons)}. The rules give such a"
            f" circle to the {card} (ruling 28): {names} {win}."
        )
    if several:
        same = f" and the same discard total ({top.total})" if top.total is not None else ""
        win = f"tie at {top.number}{same}, and nobody beats them: they all win {this_round}"
    else:
        win += ", as nobody beats them"
    # Beaten by someone the winners do not beat (the Bishop by the Princess,
    # or a hand by that Bishop), a player may tie a winner exactly: say so,
    # or the reader wonders why they did not share the win.
    for hand in verdict.hands:
        if hand.seat in winners:
            continue
        equal = [
            w
            for w in winners
            if (hands[w].number, hands[w].total) == (hand.number, hand.total)
            and beats(verdict.ruleset, hands[w], hand) is None
        ]
        if equal:
            same = f" with the same discard total ({hand.total})" if hand.total is not None else ""
            reasons.append(
                f"{name(hand.seat)} ties {_join([name(w) for w in equal])} at {hand.number}{same},"
                " so neither beats the other"
            )
    return f"{names} {win}: {'; '.join(reasons)}."


def _defeat_reasons(
    verdict: Verdict, name: Callable[[int], str], hands: dict[int, ShownHand]
) -> list[str]:
    """Every defeat as a clause, "A beats B ...": one per player beating
    others the same way, in the order of the first player they beat."""
    groups: dict[tuple[int, Criterion], list[int]] = {}
    for defeat in verdict.defeats:
        groups.setdefault((defeat.beaten_by, defeat.criterion), []).append(defeat.seat)
    reasons = []
    for (seat, criterion), beaten in groups.items():
        hand = hands[seat]
        if criterion is Criterion.CARD:
            theirs = _join([f"{name(b)}'s {card_name(hands[b].card)}" for b in beaten])
            reasons.append(
                f"{name(seat)}'s {card_name(hand.card)} beats {theirs} whatever the numbers"
            )
        elif criterion is Criterion.NUMBER:
            theirs = _join([f"{name(b)}'s {hands[b].number}" for b in beaten])
            reasons.append(f"{name(seat)}'s {hand.number} beats {theirs}")
        else:
            totals = _join([str(hands[b].total) for b in beaten])
            reasons.append(
                f"{name(seat)} ties {_join([name(b) for b in beaten])} at {hand.number} and"
                f" wins on discard total ({hand.total} against {totals})"
            )
    return reasons


def describe_command(
    command: Command,
    name: Callable[[int], str] = default_name,
    *,
    decision: Decision | None = None,
    numbers: Callable[[int], Sequence[Card]] | None = None,
    ruleset: str | Ruleset | None = None,
) -> str:
    """A command as a menu offers it to the player who would give it (so
    "yourself", and players named by ``name``).

    ``decision`` tells what a ``Decline`` declines (a Cardinal's look or a
    Bishop's redraw); ``numbers`` lists the cards of the deck in use that
    carry a number, to gloss a named number ("naming 5 (Prince or Count)");
    ``ruleset`` tells how a card that chooses two players reads them (online
    the Cardinal's pair is ordered and the Baroness may choose one player
    twice).
    """
    if isinstance(command, PlayCard):
        text = f"Play {_the(command.card)}"
        target, second = command.target, command.second_target
        chooses = get_ruleset(ruleset).choices[command.card] if ruleset is not None else None
        if target is not None and second is not None and chooses is Choice.ORDERED_PAIR:
            me = command.player

            def whom(seat: int) -> str:
                return "yourself" if seat == me else name(seat)

            whose = "your" if target == me else f"{name(target)}'s"
            trade = "you trade hands" if me in (target, second) else "they trade hands"
            text += f" on {whom(target)}, then {whom(second)}: {trade} and you see {whose} new card"
        elif target is not None and second is not None and target == second:
            text += f" on {name(target)}, twice"
        elif target is not None and second is not None:
            if command.card is Card.CARDINAL and command.player in (target, second):
                other = second if target == command.player else target
                text += f": swap your hand with {name(other)}'s"
            elif command.card is Card.CARDINAL:
                text += f": swap the hands of {name(target)} and {name(second)}"
            else:
                text += f" on {name(target)} and {name(second)}"
        elif target is not None:
            if target == command.player:
                text += " on yourself"
            else:
                text += f" {_PREPOSITION.get(command.card, 'on')} {name(target)}"
        elif command.card in _CHOOSES_A_PLAYER:
            text += " (no one can be chosen: no effect)"
        if command.guess is not None:
            text += f", naming {_named(command.guess)}"
            if numbers is not None and not isinstance(command.guess, Card):
                cards = numbers(command.guess)
                if cards:
                    text += f" ({' or '.join(map(card_name, cards))})"
        return text
    if isinstance(command, KeepCard):
        text = f"Keep {_the(command.keep)}"
        if command.bottom:
            order = " and then ".join(_the(card) for card in command.bottom)
            text += f"; put {order} at the bottom of the deck"
        return text
    if isinstance(command, LookAtHand):
        if command.owner == command.player:
            return "Look at your new hand"  # only the Cardinal's look, after the swap
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
