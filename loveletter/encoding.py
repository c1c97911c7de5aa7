"""A player's view as a fixed-length vector of numbers, and its legal mask.

:func:`encode_view` turns a :class:`~loveletter.PlayerView` into a list of
floats whose length, :func:`observation_size`, depends on the edition and
the player count alone; :func:`observation_names` names every entry. It
reads the view and nothing else, so it can hold no more than that player
may know: hidden information stays hidden by construction. Adapters for
learning frameworks turn the lists into arrays (:mod:`loveletter.pettingzoo`).

**Seats are rotated**: the view's own seat comes first (``self``), then the
next seat up (``seat+1``), and so on, wrapping round; a policy sees the same
layout from every chair. Cards are counted by kind, over the kinds of the
deck in use at that count, in card-code order (:class:`loveletter.Card`):
Premium from five players and online from five have more kinds than below.
Numbers are raw counts (not scaled) and never negative. In the names below,
``<kind>`` is a card's code name (``str(Card.DOWAGER_QUEEN)`` is
``DowagerQueen``) and ``<decision>`` a decision's value (``play``).

The layout, in order (``K`` is the number of kinds;
entries marked *when* exist only in editions and counts where they can
be other than 0):

``hand:<kind>`` (``K``)
    copies of each kind in the view's own hand.
``decision:<decision>`` (one per :class:`~loveletter.state.Decision`)
    one-hot: what the game waits for.
``round``, ``turn``
    the round number (online matches run on: unbounded) and the turn number
    within it.
``deck-size``
    the cards left to draw.
``set-aside``, *when* a card is set aside each round (not online)
    1 while the face-down set-aside card is still there.
``face-up:<kind>`` (``K``), *when* cards are laid face up (two players)
    the face-up cards, counted by kind.
``bottom:<kind>``, ``bottom-size``, ``bottom-next:<kind>``, *when* the deck has a Chancellor
    (``K``, 1 and ``K`` entries) what the view's player put under the
    deck and is still in it (:attr:`~loveletter.views.PlayerView.deck_bottom`):
    the known cards counted by kind, how many places that stretch of the
    deck spans (cards others returned in between included), and one-hot
    the known card nearest the top. Their order is not kept otherwise.
``decks``, *when* online
    copies of the deck shuffled together.

Then, for each seat from ``self`` on (``self:``, ``seat+1:``, ...):

``in-hand``
    how many cards the seat holds.
``tokens``
    its tokens (online: its win counter).
``out``, ``protected``, ``current``, ``to-act``
    1 when the seat is out of the round, protected by a Handmaid, the
    current player, the seat that must act now.
``pile:<kind>`` (``K``)
    its discard pile this round, counted by kind (the order is not kept).
``seen:<kind>`` (``K``), ``seen-age``
    the latest sighting of that seat the view still lists
    (:attr:`~loveletter.views.PlayerView.sightings`), one-hot (all 0 without
    one), and how many turns ago it was made. Whether it still holds is
    not known: since then the seat may have played the card, lost it to a
    trade or swap between others, put it under the deck, and so on; the
    age is the only hint of staleness the encoding gives.
``required``, *when* the deck has a Sycophant
    1 when a Sycophant requires the next card played to choose this seat.
``pending``, *when* the deck has a Cardinal whose look is optional or a Bishop
    1 when the seat is part of the optional step pending (a Cardinal's
    two players, a Bishop's target).
``marks-made``, ``marked``, ``marked-by-self``, *when* the deck has a Jester
    how many Jester marks this seat's Jesters made, how many are on this
    seat, and how many of those the view's own player made.
``contender``, *when* players tied for the game play a tie-break (Premium)
    1 when the seat plays the tie-break round.
``order``, ``exit``, ``left``, ``rank``, *when* online
    the seat's place in the round's turn order (1 first, 0 not dealt in),
    its place among the players out of the round (1 first out, 0 still
    in), 1 when it has left the match, and its rank in the last round
    while it is shown (0 otherwise or not ranked).
``round-winner``, ``game-winner``
    1 when the seat won the round just ended (while its result is shown),
    when it won the game.

Not encoded: why the last round ended and the hands it revealed (the
view's ``round_result`` holds both), the table's clock settings, and the
card a sighting was made through. Whom a card chose is not in the view.

>>> import loveletter as ll
>>> view = ll.view(ll.new_game("2019-classic", 2, seed=3), 0)
>>> vector = encode_view(view)
>>> len(vector) == observation_size("2019-classic", 2)
True
>>> observation_names("2019-classic", 2)[:3]
('hand:Guard', 'hand:Priest', 'hand:Baron')
>>> sum(legal_mask(view)) == len(view.legal_commands)
True
"""

from __future__ import annotations

from functools import cache

import attrs

from loveletter.actions import action_table
from loveletter.cards.base import Shows
from loveletter.decisions import Decision
from loveletter.errors import ArgumentError
from loveletter.kinds import Card
from loveletter.rulesets import GameTie, Ruleset, Scoring, get_ruleset
from loveletter.views import PlayerView

__all__ = ["encode_view", "legal_mask", "observation_names", "observation_size"]

_DECISIONS = tuple(Decision)


@attrs.frozen
class _Layout:
    """What the vector of one edition and count holds (see the module)."""

    players: int
    kinds: tuple[Card, ...]
    sets_aside: bool
    face_up: bool
    bottom: bool
    online: bool
    sightings: bool
    required: bool
    pending: bool
    marks: bool
    contenders: bool

    def names(self) -> tuple[str, ...]:
        kinds = [str(card) for card in self.kinds]
        names = [f"hand:{k}" for k in kinds]
        names += [f"decision:{d.value}" for d in _DECISIONS]
        names += ["round", "turn", "deck-size"]
        if self.sets_aside:
            names.append("set-aside")
        if self.face_up:
            names += [f"face-up:{k}" for k in kinds]
        if self.bottom:
            names += [f"bottom:{k}" for k in kinds]
            names.append("bottom-size")
            names += [f"bottom-next:{k}" for k in kinds]
        if self.online:
            names.append("decks")
        for seat in range(self.players):
            label = "self" if seat == 0 else f"seat+{seat}"
            entries = ["in-hand", "tokens", "out", "protected", "current", "to-act"]
            entries += [f"pile:{k}" for k in kinds]
            if self.sightings:
                entries += [f"seen:{k}" for k in kinds]
                entries.append("seen-age")
            if self.required:
                entries.append("required")
            if self.pending:
                entries.append("pending")
            if self.marks:
                entries += ["marks-made", "marked", "marked-by-self"]
            if self.contenders:
                entries.append("contender")
            if self.online:
                entries += ["order", "exit", "left", "rank"]
            entries += ["round-winner", "game-winner"]
            names += [f"{label}:{entry}" for entry in entries]
        return tuple(names)


@cache
def _layout(ruleset: str, players: int) -> _Layout:
    rules = get_ruleset(ruleset)
    kinds = rules.setup(players).kinds
    card_rules = [rules.rules[card] for card in kinds]
    pending = {r.pending for r in card_rules}
    return _Layout(
        players=players,
        kinds=kinds,
        sets_aside=rules.sets_aside,
        face_up=rules.face_up_count(players) > 0,
        bottom=Decision.CHANCELLOR in pending,
        online=rules.online_table,
        sightings=any(r.shows is not Shows.NOBODY for r in card_rules),
        required=any(r.restricts_next for r in card_rules),
        pending=bool(pending & {Decision.LOOK, Decision.REDRAW}),
        marks=any(r.marks for r in card_rules),
        contenders=rules.scoring is Scoring.TOKENS and rules.game_tie is GameTie.TIE_BREAK_ROUND,
    )


def _checked_layout(ruleset: str | Ruleset, players: int) -> _Layout:
    # action_table checks the edition and the count, and says why not
    action_table(ruleset, players)
    return _layout(get_ruleset(ruleset).name, players)


def observation_size(ruleset: str | Ruleset, players: int) -> int:
    """How many numbers :func:`encode_view` gives for a game of ``ruleset``
    (a name or an alias) with ``players`` seats.

    >>> observation_size("2019", 2), observation_size("premium", 8)
    (110, 420)
    """
    return len(observation_names(ruleset, players))


def observation_names(ruleset: str | Ruleset, players: int) -> tuple[str, ...]:
    """The name of every entry of :func:`encode_view`'s vector, in order
    (the module lists them)."""
    return _names(get_ruleset(ruleset).name, players)


@cache
def _names(ruleset: str, players: int) -> tuple[str, ...]:
    return _checked_layout(ruleset, players).names()


def _counts(cards: tuple[Card | None, ...] | list[Card], index: dict[Card, int]) -> list[float]:
    counted = [0.0] * len(index)
    for card in cards:
        if card is not None:
            counted[index[card]] += 1.0
    return counted


def _one_hot(card: Card | None, index: dict[Card, int]) -> list[float]:
    hot = [0.0] * len(index)
    if card is not None:
        hot[index[card]] = 1.0
    return hot


def encode_view(view: PlayerView) -> list[float]:
    """``view`` as :func:`observation_size` numbers, laid out as the module
    says, seen from the view's own seat. A function of the view alone:
    equal views give equal vectors."""
    if not isinstance(view, PlayerView):
        raise ArgumentError("view", f"a PlayerView, not {type(view).__name__}")
    layout = _checked_layout(view.ruleset, view.players)
    index = {card: i for i, card in enumerate(layout.kinds)}
    players = view.players

    out: list[float] = _counts(list(view.hand), index)
    out += [1.0 if view.decision is d else 0.0 for d in _DECISIONS]
    out += [float(view.round_number), float(view.turn_number), float(view.deck_size)]
    if layout.sets_aside:
        out.append(1.0 if view.set_aside_present else 0.0)
    if layout.face_up:
        out += _counts(list(view.face_up), index)
    if layout.bottom:
        out += _counts(view.deck_bottom, index)
        out.append(float(len(view.deck_bottom)))
        out += _one_hot(view.deck_bottom[0] if view.deck_bottom else None, index)
    if layout.online:
        out.append(float(1 if view.settings is None else view.settings.decks))

    latest = {seen.owner: seen for seen in view.sightings}
    result = view.round_result
    for offset in range(players):
        seat = (view.player + offset) % players
        out += [
            float(view.hand_sizes[seat]),
            float(view.tokens[seat]),
            1.0 if seat in view.out else 0.0,
            1.0 if seat in view.protected else 0.0,
            1.0 if seat == view.current else 0.0,
            1.0 if seat == view.to_act else 0.0,
        ]
        out += _counts(list(view.discards[seat]), index)
        if layout.sightings:
            seen = latest.get(seat)
            out += _one_hot(None if seen is None else seen.card, index)
            out.append(0.0 if seen is None else float(view.turn_number - seen.turn))
        if layout.required:
            out.append(1.0 if view.required == seat else 0.0)
        if layout.pending:
            out.append(1.0 if seat in view.pending else 0.0)
        if layout.marks:
            out.append(float(sum(1 for jester, _ in view.marks if jester == seat)))
            out.append(float(sum(1 for _, marked in view.marks if marked == seat)))
            out.append(float(view.marks.count((view.player, seat))))
        if layout.contenders:
            out.append(1.0 if seat in view.contenders else 0.0)
        if layout.online:
            out.append(float(view.order.index(seat) + 1) if seat in view.order else 0.0)
            out.append(float(view.exits.index(seat) + 1) if seat in view.exits else 0.0)
            out.append(1.0 if seat in view.left else 0.0)
            rank = None if result is None or result.ranks is None else result.ranks[seat]
            out.append(0.0 if rank is None else float(rank))
        out.append(1.0 if result is not None and seat in result.winners else 0.0)
        out.append(1.0 if seat in view.winners else 0.0)
    return out


def legal_mask(view: PlayerView) -> list[int]:
    """1 at the action id (:mod:`loveletter.actions`) of every command
    the view's player may give now, 0 elsewhere: all 0 unless they must
    act."""
    if not isinstance(view, PlayerView):
        raise ArgumentError("view", f"a PlayerView, not {type(view).__name__}")
    table = action_table(view.ruleset, view.players)
    mask = [0] * table.size
    for action in table.legal_actions(view):
        mask[action] = 1
    return mask
