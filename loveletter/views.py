"""What one player may know: :func:`view` of a state, :func:`events_for` of
an event stream.

Hidden information is a security boundary (ruling 14). A player sees their
own hand, every discard pile in order, who is out or protected, the tokens,
how many cards are in the deck and in each hand, the face-up cards of a
two-player round, what their own Priest, Baron, King, Baroness, Dowager
Queen or Cardinal showed them (a Cardinal's swap shows each of the two
players what the other now holds), the cards they put under the deck with a
Chancellor, the Sycophant's requirement and the Jester's marks, the
Assassin's reveal, and the hands revealed at an empty-deck round end. They
never see the deck order, the set-aside card, the seed, or another player's
hand otherwise.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, cast

import attrs

from loveletter.cards import Card
from loveletter.commands import Command
from loveletter.engine import legal_commands
from loveletter.errors import ArgumentError
from loveletter.events import (
    CardDealt,
    CardDrawn,
    CardSetAside,
    CardsReturned,
    ChancellorDrew,
    Event,
    GameStarted,
    HandsCompared,
    HandSeen,
    PositionEstablished,
    RoundStarted,
)
from loveletter.notation import card_text
from loveletter.rules import implements
from loveletter.rulesets import get_ruleset
from loveletter.state import Decision, GameState, RoundResult, Sighting, TableSettings


@attrs.frozen
class PlayerView:
    """One player's knowledge of a game at one moment.

    Seats are numbered from 0, as everywhere. Besides its fields, a view
    answers what bots otherwise work out by hand: :meth:`value` (a card's
    worth in this edition), :meth:`unseen_cards` (the cards this player
    cannot see), :meth:`deck_in_use` and :attr:`to_act`; ``str(view)`` is
    a short text of the whole view:

    >>> import loveletter as ll
    >>> print(ll.view(ll.new_game("2019", 3, seed=42), 1))
    Love Letter (Z-Man Games, 2019) [2019], 3 players: the view of P1
    round 1, turn 1: P0 to play
    your hand: Countess (8)
    P0: 0 favor tokens; 2 cards in hand; discards none
    P1 (you): 0 favor tokens; discards none
    P2: 0 favor tokens; 1 card in hand; discards none
    deck: 16 cards; a card set aside
    """

    #: this view's seat: whose knowledge it is
    player: int
    #: the edition's name (``"2019"``, ``"premium"``, ...): its rules are
    #: ``loveletter.get_ruleset(view.ruleset)``
    ruleset: str
    #: how many seats the game has (the deck in use depends on it)
    players: int
    #: the round being played (or just ended), the first round being 1
    round_number: int
    #: turns started in this round, the first turn being 1; a sighting's
    #: ``turn`` counts the same way
    turn_number: int
    #: each seat's tokens, by seat (online: its win counter); the edition
    #: names them: ``get_ruleset(view.ruleset).tokens(n)``
    tokens: tuple[int, ...]
    #: what the game is waiting for (a play, a Chancellor's keep, a deal...)
    decision: Decision
    #: whose turn it is (between rounds: the seat whose turn ended the
    #: round); a Bishop's target may have to act out of turn: see
    #: :attr:`to_act`
    current: int
    #: this player's own cards (none once out of the round)
    hand: tuple[Card, ...]
    #: how many cards each seat holds, by seat (this player's included)
    hand_sizes: tuple[int, ...]
    #: how many cards are left to draw (their order is never shown)
    deck_size: int
    #: whether the face-down set-aside card is still there (never which it is)
    set_aside_present: bool
    #: two-player rounds: the cards removed face up, seen by all (else empty)
    face_up: tuple[Card, ...]
    #: each seat's played and discarded cards this round, by seat, oldest
    #: first; public to every player
    discards: tuple[tuple[Card, ...], ...]
    #: the seats out of the round, in seat order (a seat not dealt in, in a
    #: tie-break or an online round, counts as out)
    out: tuple[int, ...]
    #: the seats a Handmaid protects until their next turn, in seat order
    protected: tuple[int, ...]
    #: what this player has been shown of other hands this round, oldest
    #: first (cleared at each deal). Each :class:`~loveletter.state.Sighting`
    #: says what ``owner`` held on turn ``turn``, and stays listed after it
    #: stops being true: since then the owner may have played or discarded
    #: that card (their own play, a Prince, a Bishop's redraw, being knocked
    #: out), put it under the deck with a Chancellor, or lost it to a King's
    #: trade or a Cardinal's swap. A trade or swap this player took part in
    #: adds a newer sighting, as does a Cardinal's look; one between others
    #: adds none, and the view does not say whom a card chose (the events,
    #: :func:`events_for`, do). The latest sighting of an owner is the best
    #: guess, not a certainty.
    sightings: tuple[Sighting, ...]
    #: how the last round ended (why, who won, the hands revealed at an
    #: empty-deck end, online the ranks); ``None`` while a round is played
    round_result: RoundResult | None
    #: the game's winners once it is over (empty until then)
    winners: tuple[int, ...]
    #: the commands this player may give now (empty unless they must act)
    legal_commands: tuple[Command, ...]
    #: the bottom of the deck as far as this player put it there with a
    #: Chancellor: top first, ending with the bottom card, ``None`` where a
    #: card is not theirs to know; empty when they know nothing of it
    deck_bottom: tuple[Card | None, ...] = ()
    #: the player a Sycophant requires the next card played to choose
    required: int | None = None
    #: (Jester's player, marked player) pairs of this round
    marks: tuple[tuple[int, int], ...] = ()
    #: the players tied for the game, during a tie-break round
    contenders: tuple[int, ...] = ()
    #: the seats of the optional step pending (a Cardinal's look, a Bishop's redraw)
    pending: tuple[int, ...] = ()
    #: online: the table's settings (decks, time control)
    settings: TableSettings | None = None
    #: online: the round's turn order, first player first
    order: tuple[int, ...] = ()
    #: online: the players out of the round, in the order they went out
    exits: tuple[int, ...] = ()
    #: online: the seats that have left the match
    left: tuple[int, ...] = ()

    @property
    def to_act(self) -> int | None:
        """The seat that must act now: usually :attr:`current`, a Bishop's
        target while they choose whether to redraw, ``None`` between rounds
        and once the game is over (as ``GameState.to_act``)."""
        if self.decision is Decision.REDRAW:
            return self.pending[0]
        if self.decision in (Decision.NEXT_ROUND, Decision.GAME_OVER):
            return None
        return self.current

    def value(self, card: Card) -> int:
        """``card``'s worth in this view's edition: the number to compare,
        sort or sum (``Card`` itself has none: the Princess is worth 9 in
        2019 and 8 in Premium).

        >>> import loveletter as ll
        >>> ll.view(ll.new_game("premium", 3, seed=1), 0).value(ll.Card.PRINCESS)
        8
        """
        return get_ruleset(self.ruleset).value(card)

    def deck_in_use(self) -> tuple[Card, ...]:
        """Every card a round of this game is dealt from, every copy
        included, in card order: the edition's deck for this many players
        (Premium adds cards from 5 players), times the table's decks
        (online: 1 to 3). Not the cards left to draw: that is
        :attr:`deck_size`."""
        decks = 1 if self.settings is None else self.settings.decks
        return get_ruleset(self.ruleset).deck_for(self.players, decks)

    def unseen_cards(self) -> tuple[Card, ...]:
        """The cards this player cannot see, in card order, one entry per
        copy: :meth:`deck_in_use` less their own hand, every discard pile
        and the face-up cards. They are the other hands, the cards left to
        draw and the set-aside card.

        Only what lies open counts as seen: a card known through
        :attr:`sightings` (which may be out of date) or :attr:`deck_bottom`
        is still listed here, for a bot to subtract as it trusts it.
        ``collections.Counter(view.unseen_cards())`` counts the copies.

        >>> import loveletter as ll
        >>> unseen = ll.view(ll.new_game("2019", 2, seed=7), 0).unseen_cards()
        >>> len(unseen), unseen.count(ll.Card.GUARD)
        (16, 6)
        """
        unseen = Counter(self.deck_in_use())
        unseen.subtract(self.hand)
        unseen.subtract(self.face_up)
        for pile in self.discards:
            unseen.subtract(pile)
        return tuple(sorted(unseen.elements()))

    def __str__(self) -> str:
        """A few lines: whose view, the round and who must act, the hand
        with its values, each seat's tokens and discards, the deck, and
        whatever else this player knows."""
        return _describe(self)


_WAITING = {
    Decision.DRAW: "to draw",
    Decision.PLAY: "to play",
    Decision.CHANCELLOR: "to keep a card after a Chancellor",
    Decision.LOOK: "to look at a hand the Cardinal swapped, or decline",
    Decision.REDRAW: "to redraw after the Bishop, or decline",
}


def _describe(view: PlayerView) -> str:
    """The text of ``str(view)``: only what the view holds."""
    rules = get_ruleset(view.ruleset)

    def cards(items: Iterable[Card]) -> str:
        return ", ".join(card_text(card) for card in items) or "none"

    def seat(player: int) -> str:
        return f"P{player} (you)" if player == view.player else f"P{player}"

    lines = [f"{rules.title} [{rules.name}], {view.players} players: the view of P{view.player}"]
    to_act = view.to_act
    if to_act is not None:
        now = f"{seat(to_act)} {_WAITING[view.decision]}"
        if to_act == view.player:
            count = len(view.legal_commands)
            now += f" ({count} legal command{'' if count == 1 else 's'})"
    elif view.decision is Decision.GAME_OVER:
        won = ", ".join(map(seat, view.winners))
        now = f"the game is over, won by {won}" if won else "the game is over, with no winner"
    else:
        now = "the round is over; the next one must be dealt"
    lines.append(f"round {view.round_number}, turn {view.turn_number}: {now}")
    hand = ", ".join(f"{card_text(card)} ({rules.value(card)})" for card in view.hand)
    lines.append(f"your hand: {hand or 'none'}")
    for player, pile in enumerate(view.discards):
        parts = [f"{seat(player)}: {rules.tokens(view.tokens[player])}"]
        if player != view.player and player not in view.out:
            held = view.hand_sizes[player]
            parts.append(f"{held} card{'' if held == 1 else 's'} in hand")
        parts.append(f"discards {cards(pile)}")
        if player in view.left:
            parts.append("left the match")
        elif view.contenders and player not in view.contenders:
            parts.append("sits out the tie-break")
        elif player in view.out:
            parts.append("out")
        if player in view.protected:
            parts.append("protected")
        lines.append("; ".join(parts))
    aside = "; a card set aside" if view.set_aside_present else ""
    lines.append(f"deck: {view.deck_size} card{'' if view.deck_size == 1 else 's'}{aside}")
    if view.face_up:
        lines.append(f"face up: {cards(view.face_up)}")
    if view.order:
        lines.append("turn order: " + ", ".join(map(seat, view.order)))
    if view.contenders:
        lines.append("tie-break round between " + ", ".join(map(seat, view.contenders)))
    for seen in view.sightings:
        lines.append(
            f"seen: {seat(seen.owner)} held {card_text(seen.card)}"
            f" (via {card_text(seen.via)}, turn {seen.turn})"
        )
    if view.deck_bottom:
        bottom = ", ".join("?" if card is None else card_text(card) for card in view.deck_bottom)
        lines.append(f"under the deck, top to bottom: {bottom}")
    if view.required is not None:
        lines.append(f"a Sycophant requires the next card played to choose {seat(view.required)}")
    for jester, marked in view.marks:
        lines.append(f"{seat(jester)}'s Jester marked {seat(marked)}")
    if view.round_result is not None:
        result = view.round_result
        won = ", ".join(map(seat, result.winners))  # a round always has a winner
        lines.append(f"round result: {result.reason.value}, won by {won}")
        if result.revealed:
            shown = ", ".join(f"{seat(p)} {card_text(card)}" for p, card in result.revealed)
            lines.append(f"revealed: {shown}")
        if result.ranks is not None:
            ranked = [(rank, p) for p, rank in enumerate(result.ranks) if rank is not None]
            lines.append("ranks: " + ", ".join(f"{seat(p)} {rank}" for rank, p in sorted(ranked)))
    return "\n".join(lines)


@implements(
    "turn.played-cards-face-up",
    "priest.look-secretly",
    "baron.secret-comparison",
    "countess.hidden-reason",
    "baroness.look-one-or-two",
    "cardinal.optional-look",
    "dowager-queen.secret-comparison",
)
def view(state: GameState, player: int) -> PlayerView:
    """Everything ``player`` may know about ``state``, and nothing more."""
    _check_seat(state, player)
    return PlayerView(
        player=player,
        ruleset=state.ruleset.name,
        players=state.players,
        round_number=state.round_number,
        turn_number=state.turn_number,
        tokens=state.tokens,
        decision=state.decision,
        current=state.current,
        hand=state.hands[player],
        hand_sizes=tuple(map(len, state.hands)),
        deck_size=len(state.deck),
        set_aside_present=state.set_aside is not None,
        face_up=state.face_up,
        discards=state.discards,
        out=tuple(sorted(state.out)),
        protected=tuple(sorted(state.protected)),
        sightings=tuple(s for s in state.sightings if s.viewer == player),
        round_result=state.round_result,
        winners=state.winners,
        legal_commands=legal_commands(state) if state.to_act == player else (),
        deck_bottom=_deck_bottom(state, player),
        required=state.required,
        marks=state.marks,
        contenders=state.contenders,
        pending=state.pending,
        settings=state.table.settings,
        order=state.table.order,
        exits=state.exits,
        left=tuple(sorted(state.table.left)),
    )


@implements("chancellor.return-bottom-any-order")
def _deck_bottom(state: GameState, player: int) -> tuple[Card | None, ...]:
    """The cards ``player`` returned under the deck that are still in it.

    Returned cards go under the deck and draws come from the top, so the
    bottom of the deck is every return of the round, oldest first, less
    whatever draws have eaten into them from above."""
    returns = state.returns
    if not any(owner == player for owner, _ in returns):
        return ()
    owners = [owner for owner, count in returns for _ in range(count)]
    deck = state.deck
    kept = min(len(owners), len(deck))
    if kept == 0:
        return ()
    bottom = zip(owners[len(owners) - kept :], deck[len(deck) - kept :], strict=True)
    known = [card if owner == player else None for owner, card in bottom]
    while known and known[0] is None:
        known.pop(0)
    return tuple(known)


def _hide_all(field: str) -> Callable[[Any, int], Event]:
    def redact(event: Any, player: int) -> Event:
        return cast(Event, attrs.evolve(event, **{field: None}))

    return redact


def _owner_only(owner: str, field: str) -> Callable[[Any, int], Event]:
    def redact(event: Any, player: int) -> Event:
        if getattr(event, owner) == player:
            return cast(Event, event)
        return cast(Event, attrs.evolve(event, **{field: None}))

    return redact


def _compared(event: HandsCompared, player: int) -> Event:
    if player in (event.player, event.opponent):
        return event
    return attrs.evolve(event, player_card=None, opponent_card=None)


_REDACTORS: dict[type[Event], Callable[[Any, int], Event]] = {
    GameStarted: _hide_all("seed"),
    PositionEstablished: _hide_all("position"),
    RoundStarted: _hide_all("deck"),
    CardSetAside: _hide_all("card"),
    CardDealt: _owner_only("player", "card"),
    CardDrawn: _owner_only("player", "card"),
    HandSeen: _owner_only("viewer", "card"),
    HandsCompared: _compared,
    ChancellorDrew: _owner_only("player", "cards"),
    CardsReturned: _owner_only("player", "cards"),
}


def _check_seat(state: object, player: object) -> None:
    if not isinstance(state, GameState):
        raise ArgumentError("state", f"expected a GameState, not {type(state).__name__}")
    if type(player) is not int or not 0 <= player < state.players:
        text = repr(player) if type(player) is not int or abs(player) < 10**9 else "that number"
        raise ArgumentError("player", f"a seat from 0 to {state.players - 1}, not {text[:40]}")


def redact(event: Event, player: int) -> Event:
    """``event`` as ``player`` may see it: hidden fields set to ``None``."""
    redactor = _REDACTORS.get(type(event))
    return event if redactor is None else redactor(event, player)


def events_for(player: int, events: Iterable[Event]) -> tuple[Event, ...]:
    """The event stream as ``player`` may see it."""
    if type(player) is not int or player < 0:
        raise ArgumentError("player", f"a seat from 0, not {str(player)[:40]!r}")
    return tuple(redact(event, player) for event in events)
