"""Twin histories for the no-leak property (ruling 14: hidden information is
a security boundary).

A game is played from stacked decks (one per round), then replayed as a
*twin* for one seat ``P``: the decks are the same except that cards at
positions P never observes in the original are permuted, and the seed may
differ. Which positions P observes is worked out here from the events and
the rules, following each card by its position in the round's deck (its
*id*) through every zone, never from the engine's redaction:

* a card P is dealt or draws (a turn's draw, a Chancellor's, a Prince's or a
  Bishop's redraw, the set-aside card drawn on an empty deck) or receives
  in a trade (King, Cardinal);
* every card played, discarded, knocked out, put face up (two players),
  revealed (the Assassin) or shown at an empty-deck round end;
* the card P looks at (Priest, Baroness, Cardinal's look) and the card of
  the other side of a comparison P takes part in (Baron, Dowager Queen).

Everything else stays hidden from P: the set-aside card, the deck order,
the others' hands (including what two others trade or compare, what
another player looks at, what another's Chancellor draws and returns).

The twin replays the same commands but for the two whose content is
itself hidden from P: each later round is dealt from the twin's deck, and
another player's Chancellor keeps and returns the cards at the same places
of their hand, whatever the twin dealt them.

Online (ruling 53), the histories stack each round's turn order too (it is
public), play with one to three decks, and mix in players leaving (their
hand goes face up) and time-outs; a time-out is replayed as a time-out, so
the twin's engine draws its random move again from the twin's own hand,
seed and state: if that move differs in what P sees, the twin is simply no
longer consistent with P's observations.

The twin is *consistent with what P observed* when every command is
accepted and each event, with the fields P may not see blanked by the
spec oracle :func:`.strategies.hidden_fields`, is the same in both
histories. Up to the first step where that fails, P's observations are
identical, so the engine must give P the same view, the same redacted
events, the same legal commands and the same answer to any command P
gives. A twin consistent to the end is *kept*.

The engine's redaction and views are read through the ``loveletter.views``
module at call time so that a test can monkeypatch a leak into them.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, cast

import attrs

import loveletter as ll
from loveletter import Card, GameState
from loveletter import views as views_module
from loveletter.commands import Command, KeepCard, PlayCard, StartRound
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
    Event,
    HandsCompared,
    HandSeen,
    HandsTraded,
    PlayerEliminated,
    RoundEnded,
    RoundStarted,
)

from .strategies import (
    MAX_STEPS,
    ONLINE,
    Choices,
    allowed_first_players,
    choose_random_command,
    full_deck,
    hidden_fields,
    present_seats,
    swapped_first,
)

# --------------------------------------------------------------------------
# histories


@attrs.frozen
class Step:
    """One command of a history (``None`` for the opening deal), its events
    and the state after them."""

    command: Command | None
    events: tuple[Event, ...]
    state: GameState


@attrs.frozen
class History:
    ruleset: str
    players: int
    seed: int
    first_player: int
    #: the stacked deck of each round, top first
    decks: tuple[tuple[Card, ...], ...]
    #: ``steps[0]`` is the opening (``GameStarted`` and the first deal)
    steps: tuple[Step, ...] = attrs.field(repr=False)
    #: online: the table's settings and the first round's stacked turn order
    settings: ll.TableSettings | None = None
    order: tuple[int, ...] | None = None

    def opening(self, seed: int, deck: tuple[Card, ...]) -> tuple[tuple[Event, ...], GameState]:
        """The opening events and state of this game, or of its twin (another
        seed, another first deck)."""
        arguments: dict[str, Any] = {"seed": seed, "first_player": self.first_player, "deck": deck}
        if self.settings is not None:
            arguments.update(settings=self.settings, order=self.order)
        events = ll.start_game(self.ruleset, self.players, **arguments)
        return events, ll.new_game(self.ruleset, self.players, **arguments)

    def log(self) -> tuple[Event, ...]:
        return tuple(event for step in self.steps for event in step.events)

    def describe(self) -> str:
        """The commands, one a line, for a failure report."""
        return "\n".join(f"  {i}: {step.command}" for i, step in enumerate(self.steps) if i)


class RandomChoices:
    """:class:`.strategies.Choices` from a seeded ``random.Random``: for the
    probes, which need many choices and no shrinking."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def integer(self, low: int, high: int) -> int:
        return self._random.randint(low, high)


def shuffled_deck(choices: Choices, ruleset: str, players: int, decks: int = 1) -> tuple[Card, ...]:
    pool = sorted(full_deck(ruleset, players, decks).elements())
    return tuple(pool.pop(choices.integer(0, len(pool) - 1)) for _ in range(len(pool)))


def choose_play(choices: Choices, legal: Sequence[Command], state: GameState) -> Command:
    """A legal command: first a kind of move (which card to play, keep, or
    which answer), then one of its variants, so that the many Guard
    guesses do not crowd out the other cards. Online, now and then a
    time-out for the player to act, or a player leaving."""
    if state.ruleset.name == ONLINE:
        chance = choices.integer(0, 39)
        if chance == 39:
            present = present_seats(state)
            return ll.Leave(present[choices.integer(0, len(present) - 1)])
        if chance >= 37 and state.to_act is not None:
            return ll.TimeOut(state.to_act)
    groups: dict[tuple[object, ...], list[Command]] = {}
    for command in legal:
        key = (type(command).__name__, getattr(command, "card", None))
        groups.setdefault(key, []).append(command)
    options = list(groups.values())
    group = options[choices.integer(0, len(options) - 1)]
    return group[choices.integer(0, len(group) - 1)]


def play_history(
    choices: Choices,
    ruleset: str,
    players: int,
    seed: int,
    first_player: int,
    rounds: int,
    copies: int = 1,
) -> History:
    """A game of ``rounds`` rounds (fewer if it ends), every deck stacked
    and every deal's first player given (online, its whole turn order, and
    ``copies`` decks), so that a twin can be told apart only by what the
    commands leave hidden."""
    decks = [shuffled_deck(choices, ruleset, players, copies)]
    online = ruleset == ONLINE
    settings = ll.TableSettings(decks=copies) if online else None
    order = None
    if online:
        order = swapped_first(_permutation(choices, range(players)), first_player)
    told = History(ruleset, players, seed, first_player, (), (), settings, order)
    opening, state = told.opening(seed, decks[0])
    steps = [Step(None, opening, state)]
    while not state.is_over and len(steps) < MAX_STEPS:
        command: Command
        if state.decision is ll.Decision.NEXT_ROUND:
            if len(decks) == rounds:
                break
            decks.append(shuffled_deck(choices, ruleset, players, copies))
            starters = allowed_first_players(state)
            first = starters[choices.integer(0, len(starters) - 1)]
            stacked = None
            if online:
                stacked = swapped_first(_permutation(choices, present_seats(state)), first)
            command = StartRound(decks[-1], first, stacked)
        else:
            command = choose_play(choices, ll.legal_commands(state), state)
        state, events = ll.step(state, command)
        steps.append(Step(command, events, state))
    # Stop somewhere in the last round: a history need not end with a
    # round, and secrets still held mid-round are the ones worth varying
    # (by a round's end most cards have been played face up).
    last_deal = max(
        i for i, step in enumerate(steps) if i == 0 or isinstance(step.command, StartRound)
    )
    cut = choices.integer(last_deal, len(steps) - 1)
    return attrs.evolve(told, decks=tuple(decks), steps=tuple(steps[: cut + 1]))


def _permutation(choices: Choices, items: Iterable[int]) -> tuple[int, ...]:
    pool = list(items)
    return tuple(pool.pop(choices.integer(0, len(pool) - 1)) for _ in range(len(pool)))


# --------------------------------------------------------------------------
# the observation oracle


@attrs.frozen
class Secret:
    """Cards (ids) of round ``round`` that only ``knowers`` know, of one
    kind of secret: what the twins aim at so that each kind is varied."""

    kind: str
    round: int
    ids: frozenset[int]
    knowers: frozenset[int]


class Observations:
    """Follows every card of a history by its id (its index in its round's
    stacked deck) and records which seat observes which ids."""

    def __init__(self, history: History) -> None:
        self.history = history
        n = history.players
        #: ``observed[round][seat]``: the ids that seat observes in the round
        self.observed: list[list[set[int]]] = []
        self.secrets: list[Secret] = []
        self._deck: list[int] = []
        self._set_aside: int | None = None
        self._hands: list[list[int]] = [[] for _ in range(n)]
        self._kinds: tuple[Card, ...] = ()
        for step in history.steps:
            for event in step.events:
                self._apply(event)
            self._check(step.state)
        self._end_round()

    # -- bookkeeping

    @property
    def _round(self) -> int:
        return len(self.observed) - 1

    def _see(self, seats: Sequence[int] | range, ids: Sequence[int]) -> None:
        for seat in seats:
            self.observed[self._round][seat].update(ids)

    def _public(self, ids: Sequence[int]) -> None:
        self._see(range(self.history.players), ids)

    def _secret(self, kind: str, ids: Sequence[int], knowers: Sequence[int]) -> None:
        if ids:
            self.secrets.append(Secret(kind, self._round, frozenset(ids), frozenset(knowers)))

    def _receive(self, seat: int, ids: Sequence[int]) -> None:
        self._hands[seat].extend(ids)
        self._see((seat,), ids)
        self._secret("hand", ids, (seat,))

    def _take(self, seat: int, card: Card) -> int:
        """The id of the first ``card`` in ``seat``'s hand, as the engine
        takes the first copy of a kind (which copy is immaterial: copies
        are identical)."""
        hand = self._hands[seat]
        index = next(i for i, c in enumerate(hand) if self._kinds[c] == card)
        return hand.pop(index)

    def _end_round(self) -> None:
        if self.observed:
            self._secret("deck", self._deck, ())

    def _check(self, state: GameState) -> None:
        """The oracle's zones are the engine's, card for card (a bug in the
        oracle shows here rather than as a wrong set of observations)."""
        if not self.observed:
            return
        kinds = self._kinds
        assert tuple(kinds[i] for i in self._deck) == state.deck
        for seat, hand in enumerate(self._hands):
            assert tuple(kinds[i] for i in hand) == state.hands[seat], (seat, hand, state)
        aside = None if self._set_aside is None else kinds[self._set_aside]
        assert aside == state.set_aside

    # -- the rules of who sees what

    def _apply(self, event: Event) -> None:
        n = self.history.players
        if isinstance(event, RoundStarted):
            assert event.deck is not None
            self._end_round()
            self.observed.append([set() for _ in range(n)])
            self._kinds = event.deck
            self._deck = list(range(len(event.deck)))
            self._hands = [[] for _ in range(n)]
            self._set_aside = None
            if Card.ASSASSIN in event.deck:
                self._secret("assassin", (event.deck.index(Card.ASSASSIN),), ())
        elif isinstance(event, CardSetAside):
            self._set_aside = self._deck.pop(0)
            self._secret("set-aside", (self._set_aside,), ())
        elif isinstance(event, CardRemovedFaceUp):
            self._public((self._deck.pop(0),))  # setup.two-player-face-up
        elif isinstance(event, CardDealt):
            self._receive(event.player, (self._deck.pop(0),))
        elif isinstance(event, CardDrawn):
            if event.from_set_aside:  # prince.empty-deck-draws-set-aside
                assert self._set_aside is not None
                drawn, self._set_aside = self._set_aside, None
            else:
                drawn = self._deck.pop(0)
            self._receive(event.player, (drawn,))
        elif isinstance(event, CardPlayed):
            played = self._take(event.player, event.card)
            self._public((played,))  # turn.played-cards-face-up
            target = event.target
            if target is not None and event.card in (Card.GUARD, Card.BISHOP):
                # a Guard's miss or a Bishop's number tells P something
                # about the target's card without showing it
                self._secret(event.card.name.lower(), self._hands[target], (target,))
        elif isinstance(event, CardDiscarded):
            self._public((self._take(event.player, event.card),))
        elif isinstance(event, PlayerEliminated):
            # out.discard-hand: the hand goes face up on the pile
            hand, self._hands[event.player] = self._hands[event.player], []
            assert sorted(self._kinds[i] for i in hand) == sorted(event.discarded)
            self._public(hand)
        elif isinstance(event, HandSeen):
            # priest.look-secretly, baroness.look-one-or-two, cardinal.optional-look
            seen = self._hands[event.owner]
            self._see((event.viewer,), seen)
            self._secret(f"look:{_via(event.via)}", seen, (event.viewer, event.owner))
        elif isinstance(event, HandsCompared):
            # baron.secret-comparison, dowager-queen.secret-comparison
            mine, theirs = self._hands[event.player], self._hands[event.opponent]
            self._see((event.player,), theirs)
            self._see((event.opponent,), mine)
            self._secret(
                f"comparison:{_via(event.via)}", mine + theirs, (event.player, event.opponent)
            )
        elif isinstance(event, HandsTraded):
            # king.trade-hands, cardinal.swap-two-players: each side now
            # holds (and so sees) what the other had
            a, b = event.player, event.opponent
            hands = self._hands
            hands[a], hands[b] = hands[b], hands[a]
            self._see((a,), hands[a])
            self._see((b,), hands[b])
            self._secret(f"trade:{_via(event.via)}", hands[a] + hands[b], (a, b))
        elif isinstance(event, ChancellorDrew):
            drawn_ids = self._deck[: event.count]
            del self._deck[: event.count]
            self._receive(event.player, drawn_ids)
            self._secret("chancellor", drawn_ids, (event.player,))
        elif isinstance(event, CardsReturned):
            # chancellor.return-bottom-any-order: seen by its player alone
            assert event.cards is not None
            returned = [self._take(event.player, card) for card in event.cards]
            self._deck.extend(returned)
            self._secret("chancellor", returned, (event.player,))
        elif isinstance(event, CardRevealed):
            # assassin.guard-player-knocked-out: the reveal is public
            hand = self._hands[event.player]
            self._public([i for i in hand if self._kinds[i] == event.card][:1])
        elif isinstance(event, RoundEnded):
            # round.highest-card-wins: an empty-deck end shows every hand
            for seat, _ in event.revealed:
                self._public(self._hands[seat])

    # -- for one seat

    def unobserved(self, seat: int, round_index: int) -> list[int]:
        seen = self.observed[round_index][seat]
        return [i for i in range(len(self.history.decks[round_index])) if i not in seen]

    def secrets_from(self, seat: int) -> dict[str, list[Secret]]:
        """The secrets kept from ``seat`` that hold a card it never
        observes, by kind."""
        found: dict[str, list[Secret]] = {}
        for secret in self.secrets:
            if seat in secret.knowers:
                continue
            if secret.ids - self.observed[secret.round][seat]:
                found.setdefault(secret.kind, []).append(secret)
        return found


# --------------------------------------------------------------------------
# twins


@attrs.frozen
class TwinPlan:
    seat: int
    decks: tuple[tuple[Card, ...], ...]
    seed: int
    #: how the decks were changed (for the statistics)
    how: str


def plan_twin(
    history: History, seen: Observations, seat: int, choices: Choices, aim: str | None = None
) -> TwinPlan:
    """Decks that differ from the history's only at positions ``seat``
    never observes: usually two such cards of different kinds swapped, one
    of them in a secret chosen by kind (``aim``, when given and kept from
    the seat), so that every kind of secret gets varied; else the
    unobserved cards of one round or of all rounds shuffled. Sometimes the
    seed differs too (it is hidden from everyone)."""
    decks = [list(deck) for deck in history.decks]
    secrets = seen.secrets_from(seat)
    mode = choices.integer(0, 3)
    how = ""
    if aim in secrets or (mode <= 1 and secrets):
        kinds = sorted(secrets)
        kind = aim if aim in secrets else kinds[choices.integer(0, len(kinds) - 1)]
        assert kind is not None
        options = secrets[kind]
        secret = options[choices.integer(0, len(options) - 1)]
        r = secret.round
        free = seen.unobserved(seat, r)
        ids = sorted(secret.ids.intersection(free))
        first = ids[choices.integer(0, len(ids) - 1)]
        partners = [i for i in free if decks[r][i] != decks[r][first]]
        if partners:
            second = partners[choices.integer(0, len(partners) - 1)]
            decks[r][first], decks[r][second] = decks[r][second], decks[r][first]
            how = f"swap {kind}"
    if not how:
        how = "shuffle"
        rounds = range(len(decks))
        if mode != 3:
            only = choices.integer(0, len(decks) - 1)
            rounds = range(only, only + 1)
        for r in rounds:
            free = seen.unobserved(seat, r)
            cards = [decks[r][i] for i in free]
            for i in free:
                decks[r][i] = cards.pop(choices.integer(0, len(cards) - 1))
    if all(map(list.__eq__, decks, map(list, history.decks))):
        # the shuffle left every card in place: swap any two that differ
        for r, deck in enumerate(decks):
            free = seen.unobserved(seat, r)
            pair = next(((i, j) for i in free for j in free if deck[i] != deck[j]), None)
            if pair is not None:
                i, j = pair
                deck[i], deck[j] = deck[j], deck[i]
                break
    unchanged = all(map(list.__eq__, decks, map(list, history.decks)))
    # every card hidden from the seat is of one kind: the seed (hidden from
    # everyone) is then the only secret left to vary
    seed = history.seed + (1 if unchanged else choices.integer(0, 1))
    return TwinPlan(seat, tuple(map(tuple, decks)), seed, how)


@attrs.frozen
class TwinReport:
    seat: int
    how: str
    #: steps (the opening included) whose views and events were compared
    checked: int
    steps: int
    #: why the twin stopped being consistent with what the seat observed
    #: (``None``: kept to the end)
    diverged: str | None
    #: the kinds of secret that differed within the checked steps
    secrets: frozenset[str]
    #: whether the twin differs from the history at all (unredacted)
    differs: bool

    @property
    def kept(self) -> bool:
        return self.diverged is None


def entitled(events: Sequence[Event], seat: int) -> tuple[Event, ...]:
    """What ``seat`` may know of ``events`` by the spec oracle: each event
    with the fields hidden from that seat blanked."""
    return tuple(
        attrs.evolve(event, **dict.fromkeys(hidden))
        if (hidden := hidden_fields(event, seat))
        else event
        for event in events
    )


def _twin_command(
    command: Command, before: GameState, twin: GameState, plan: TwinPlan, round_index: int
) -> Command:
    """The original command as given in the twin: the next round's twin
    deck; another player's Chancellor keeps and returns the cards at the
    same places of their hand (the choice is theirs; the cards are
    whatever the twin dealt them)."""
    if isinstance(command, StartRound):
        return StartRound(plan.decks[round_index + 1], command.first_player, command.order)
    if isinstance(command, KeepCard) and command.player != plan.seat:
        hand = before.hands[command.player]
        # The engine takes each returned card's first copy in hand order and
        # keeps what is left; the same places, so that the same cards (by
        # their place in the deal) go under the deck.
        returned: list[int] = []
        for card in command.bottom:
            returned.append(next(i for i, c in enumerate(hand) if c == card and i not in returned))
        (kept,) = (i for i in range(len(hand)) if i not in returned)
        theirs = twin.hands[command.player]
        if len(theirs) != len(hand):
            return command  # refused: the twin has already parted from the history
        return KeepCard(command.player, theirs[kept], tuple(theirs[i] for i in returned))
    return command


def _answer(state: GameState, command: Command) -> str:
    try:
        ll.decide(state, command)
    except ll.IllegalCommand as error:
        return f"refused {error.kind.value}: {error}"
    return "accepted"


def _probe(choices: Choices, state: GameState, seat: int) -> Command | None:
    """A command from ``seat`` (legal or not): how the engine answers it
    may depend on what the seat knows, never on anything else."""
    command = choose_random_command(choices, state)
    if isinstance(command, StartRound):
        return None  # the dealer's step, not a player's
    return cast(Command, attrs.evolve(cast(Any, command), player=seat))


def _assassin_place(state: GameState) -> object:
    for seat, hand in enumerate(state.hands):
        if Card.ASSASSIN in hand:
            return seat
    if Card.ASSASSIN in state.deck:
        return ("deck", state.deck.index(Card.ASSASSIN))
    return "set-aside" if state.set_aside is Card.ASSASSIN else "gone"


def _via(card: Card) -> str:
    return card.name.lower().replace("_", "-")


def _secrets_differing(
    seat: int,
    command: Command | None,
    before: tuple[GameState, GameState] | None,
    events: tuple[tuple[Event, ...], tuple[Event, ...]],
    after: tuple[GameState, GameState],
) -> set[str]:
    """The kinds of secret kept from ``seat`` in which the two sides of one
    step differ (unredacted)."""
    found: set[str] = set()
    mine, theirs = after
    others = [q for q in range(mine.players) if q != seat]

    def hands_differ(seats: Iterable[int], states: tuple[GameState, GameState]) -> bool:
        return any(sorted(states[0].hands[q]) != sorted(states[1].hands[q]) for q in seats)

    if mine.seed != theirs.seed:
        found.add("seed")
    if mine.deck != theirs.deck:
        found.add("deck-order" if sorted(mine.deck) == sorted(theirs.deck) else "deck-cards")
    if hands_differ(others, after):
        found.add("other-hands")
    if Card.ASSASSIN in mine.ruleset.kinds and _assassin_place(mine) != _assassin_place(theirs):
        found.add("assassin")
    original, twin = events
    if len(original) == len(twin):
        for a, b in zip(original, twin, strict=True):
            if a == b:
                continue
            if isinstance(a, CardSetAside):
                found.add("set-aside")
            elif isinstance(a, ChancellorDrew | CardsReturned) and a.player != seat:
                found.add("chancellor")
            elif isinstance(a, HandSeen) and a.viewer != seat:
                found.add(f"look:{_via(a.via)}")
            elif isinstance(a, HandsCompared) and seat not in (a.player, a.opponent):
                found.add(f"comparison:{_via(a.via)}")
    for event in original:
        if (
            isinstance(event, HandsTraded)
            and seat not in (event.player, event.opponent)
            and hands_differ((event.player, event.opponent), after)
        ):
            found.add(f"trade:{_via(event.via)}")
    if (
        isinstance(command, PlayCard)
        and command.card in (Card.BISHOP, Card.GUARD)
        and command.target is not None
        and command.target != seat
        and before is not None
        and hands_differ((command.target,), before)
    ):
        found.add(_via(command.card))
    return found


def check_twin(history: History, plan: TwinPlan, probe_seed: int = 0) -> TwinReport:
    """Replay ``history`` as the twin ``plan`` and assert that, for as long
    as the twin is consistent with what the seat observed, the seat's
    views, redacted events and legal commands are the same, and so is the
    engine's answer to a random command from the seat at each step."""
    seat = plan.seat
    probes = RandomChoices(probe_seed)
    opening, state = history.opening(plan.seed, plan.decks[0])
    twin_steps = [Step(None, opening, state)]
    secrets: set[str] = set()
    round_index = 0
    before: tuple[GameState, GameState] | None = None
    diverged: str | None = None
    checked = 0
    for index, step in enumerate(history.steps):
        if step.command is not None:
            assert before is not None
            command = _twin_command(step.command, before[0], before[1], plan, round_index)
            if isinstance(command, StartRound):
                round_index += 1
            if getattr(command, "player", None) == seat:
                assert command == step.command, "the seat's own commands never change"
            try:
                state, events = ll.step(state, command)
            except ll.IllegalCommand as error:
                diverged = f"refused {error.kind.value}"
                break
            twin_steps.append(Step(command, events, state))
        twin = twin_steps[index]
        if entitled(step.events, seat) != entitled(twin.events, seat):
            diverged = "observed"
            break
        mine = tuple(views_module.redact(e, seat) for e in step.events)
        theirs = tuple(views_module.redact(e, seat) for e in twin.events)
        assert mine == theirs, (
            f"seat {seat} is shown different events for the same observations at step {index}"
            f" ({step.command}):\n{mine}\n{theirs}"
        )
        view_mine = views_module.view(step.state, seat)
        view_theirs = views_module.view(twin.state, seat)
        assert view_mine == view_theirs, (
            f"seat {seat}'s view depends on what it may not know at step {index}"
            f" ({step.command}):\n{view_mine}\n{view_theirs}"
        )
        if step.state.to_act == seat:
            assert ll.legal_commands(step.state) == ll.legal_commands(twin.state)
        probe = _probe(probes, step.state, seat)
        if probe is not None:
            assert _answer(step.state, probe) == _answer(twin.state, probe), (
                f"the engine answers seat {seat}'s {probe} differently at step {index}"
            )
        secrets |= _secrets_differing(
            seat, step.command, before, (step.events, twin.events), (step.state, twin.state)
        )
        before = (step.state, twin.state)
        checked += 1
    if diverged is None:
        twin_log = tuple(e for s in twin_steps for e in s.events)
        assert views_module.events_for(seat, history.log()) == views_module.events_for(
            seat, twin_log
        )
    differs = plan.seed != history.seed or plan.decks != history.decks
    return TwinReport(
        seat, plan.how, checked, len(history.steps), diverged, frozenset(secrets), differs
    )


def seat_twins(
    history: History, choices: Choices, probe_seed: int = 0, aim: str | None = None
) -> Iterator[TwinReport]:
    """One twin per seat, each checked."""
    seen = Observations(history)
    for seat in range(history.players):
        plan = plan_twin(history, seen, seat, choices, aim)
        yield check_twin(history, plan, probe_seed + seat)


def tally(reports: Sequence[TwinReport]) -> Counter[str]:
    """Counts for a report: twins kept and diverged, and the kinds of
    secret varied in the kept ones."""
    counts: Counter[str] = Counter()
    for report in reports:
        counts["twins"] += 1
        counts["steps"] += report.steps
        counts["steps checked"] += report.checked
        if report.kept:
            counts["kept"] += 1
            counts.update(f"kept {kind}" for kind in report.secrets)
        else:
            counts[f"diverged {report.diverged}"] += 1
    return counts
