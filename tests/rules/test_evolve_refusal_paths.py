"""Every refusal of ``evolve``'s event checks, reached once.

``evolve`` takes events from anywhere, so each is checked against the state
before it is applied (``loveletter/evolution.py``, the ``_check_*``
functions and their helpers). Each case below builds a real state (a
described position, a seeded deal, a command's events applied in part) and
an event that cannot follow it, and asserts the :class:`EventMismatch` and
the field it names (what a caller relies on) and its message (what a person
reads: pinned, so that a check cannot come to give another check's reason).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any, cast

import attrs
import pytest

from loveletter import (
    Card,
    Decision,
    EventMismatch,
    GameState,
    PlayCard,
    TableSettings,
    evolution,
    evolve,
    legal_commands,
    new_game,
    push,
    start_game,
    step,
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
    PlayerLeft,
    PlayerMarked,
    PlayerProtected,
    RedrawOffered,
    RoundEnded,
    RoundEndReason,
    RoundStarted,
    TokenAwarded,
    TokenReason,
    TurnStarted,
    TurnTimedOut,
)
from loveletter.evolution import apply_events, initial_state

from ._helpers import (
    BARON,
    CARDINAL,
    CHANCELLOR,
    GUARD,
    HANDMAID,
    KING,
    PRIEST,
    PRINCE,
    at,
    online,
    premium,
)

PILE = RoundEndReason.DECK_EMPTY
GUESSED = EliminationReason.GUARD_GUESS
ALONE = RoundEndReason.ONE_PLAYER_LEFT


def _until(state: GameState, command: PlayCard, stop: Callable[[Event], bool]) -> GameState:
    """``state`` with ``command``'s events applied up to the first that
    ``stop`` picks (that one excluded)."""
    events = step(state, command)[1]
    cut = next(i for i, event in enumerate(events) if stop(event))
    return apply_events(state, events[:cut])


def _dealt(ruleset: str, players: int, events: int) -> GameState:
    """A seeded game's opening, its first ``events`` events after the
    ``GameStarted`` applied: the deal under way."""
    opening = start_game(ruleset, players, seed=1)
    started = opening[0]
    assert isinstance(started, GameStarted)
    return apply_events(initial_state(started), opening[1 : 1 + events])


def _top(state: GameState) -> Card:
    return state.deck[0]


# --- 2019, three players: seat 0 to play, then mid-effect states


@cache
def turn() -> GameState:
    """Seat 0 holds a Guard and a Priest, its card not played yet."""
    return at(hands=["Guard Priest", "Baron", "King"], deck="Handmaid Prince")


@cache
def waiting() -> GameState:
    """Seat 0's turn, its draw not taken yet."""
    return at(hands=["Guard", "Baron", "King"], deck="Handmaid Prince", drawn=False)


@cache
def guard_played() -> GameState:
    """Seat 0's Guard is played, choosing no one: nothing shows a hand."""
    return evolve(turn(), CardPlayed(0, GUARD))


@cache
def priest_played() -> GameState:
    """Seat 0's Priest is played, seat 2 protected by a Handmaid."""
    state = at(hands=["Priest Guard", "Baron", "King"], protected=[2])
    return evolve(state, CardPlayed(0, PRIEST))


@cache
def baron_played() -> GameState:
    return evolve(at(hands=["Baron Guard", "Priest", "King"]), CardPlayed(0, BARON, 1))


@cache
def king_played() -> GameState:
    return evolve(at(hands=["King Guard", "Priest", "Baron"]), CardPlayed(0, KING, 1))


@cache
def prince_on_self() -> GameState:
    """Seat 0's Prince makes seat 0 discard: their hand is empty until the
    replacement draw."""
    state = at(hands=["Prince Guard", "Priest", "King"])
    return apply_events(state, (CardPlayed(0, PRINCE, 0), CardDiscarded(0, GUARD)))


@cache
def chancellor_played() -> GameState:
    """Seat 0's Chancellor is played; the Baron and the Handmaid top the deck."""
    state = at(hands=["Chancellor Guard", "Priest", "King"], deck="Baron Handmaid")
    return evolve(state, CardPlayed(0, CHANCELLOR))


@cache
def chancellor_choosing() -> GameState:
    """Seat 0 holds the Guard, the Baron and the Handmaid, one to keep."""
    state = at(hands=["Chancellor Guard", "Priest", "King"], deck="Baron Handmaid")
    state = push(state, PlayCard(0, CHANCELLOR))
    assert state.decision is Decision.CHANCELLOR and len(state.hands[0]) == 3
    return state


@cache
def one_left() -> GameState:
    """Two players: seat 0's Guard knocks seat 1 out; the round's end not applied."""
    state = at(hands=["Guard Priest", "Baron"])
    state = _until(state, PlayCard(0, GUARD, 1, BARON), lambda e: type(e) is RoundEnded)
    assert state.out == frozenset({1})
    return state


@cache
def pile_out() -> GameState:
    """Two players: seat 0's Guard is played from an emptied deck; the
    round's end by the pile not applied."""
    state = at(hands=["Guard Priest", "Baron"], deck="", rest=0)
    return evolve(state, CardPlayed(0, GUARD))


@cache
def between_rounds() -> GameState:
    """2019, three players: a round shared by seats 0 and 1, tokens (1, 1, 0)."""
    state = at(hands=["Guard Handmaid", "Handmaid", ""], deck="", rest=2, out=[2])
    state = push(state, PlayCard(0, GUARD, 1, BARON))
    assert state.decision is Decision.NEXT_ROUND and state.tokens == (1, 1, 0)
    return state


@cache
def both_reached() -> GameState:
    """2019: seats 0 and 1 share a round and reach 5 tokens; the game's
    end not applied."""
    state = at(hands=["Guard Handmaid", "Handmaid", ""], deck="", rest=2, out=[2], tokens=[4, 4, 0])
    state = _until(state, PlayCard(0, GUARD, 1, BARON), lambda e: type(e) is GameEnded)
    assert state.tokens == (5, 5, 0)
    return state


# --- Premium: the tie for the game (ruling 31) and the Cardinal's look


@cache
def premium_round_won() -> GameState:
    """Premium, three players at 4 tokens: seat 0 wins a round and reaches
    5; the game's end not applied."""
    state = at(
        "premium",
        hands=["Guard Princess", "Handmaid", ""],
        deck="",
        rest=2,
        out=[2],
        tokens=[4, 4, 4],
    )
    return _until(state, PlayCard(0, GUARD, 1, 2), lambda e: type(e) in (GameEnded, GameTied))


@cache
def premium_all_reached() -> GameState:
    """All three at 5 tokens between rounds (seats 1 and 2 by a card's
    token given there)."""
    state = apply_events(
        premium_round_won(),
        (TokenAwarded(1, TokenReason.JESTER, 5), TokenAwarded(2, TokenReason.JESTER, 5)),
    )
    assert state.decision is Decision.NEXT_ROUND and state.tokens == (5, 5, 5)
    return state


@cache
def premium_tie_break() -> GameState:
    """Seats 0 and 1 tied for the game; then seat 2 reaches 5 too."""
    state = apply_events(
        premium_round_won(),
        (
            TokenAwarded(1, TokenReason.JESTER, 5),
            GameTied((0, 1)),
            TokenAwarded(2, TokenReason.JESTER, 5),
        ),
    )
    assert state.table.contenders == (0, 1) and state.tokens == (5, 5, 5)
    return state


@cache
def cardinal_look() -> GameState:
    """Premium: seat 0's Cardinal swaps seats 1 and 2, a look offered to seat 0."""
    state = premium(hands=["Cardinal Guard", "Princess", "Baron", "Handmaid", "Count"], deck="King")
    state = push(state, PlayCard(0, CARDINAL, 1, None, 2))
    assert state.decision is Decision.LOOK
    return state


# --- online: no set-aside card, a drawn turn order, leaving, time-outs


@cache
def online_turn() -> GameState:
    return new_game("online", 3, seed=1)


@cache
def online_no_random_moves() -> GameState:
    return new_game("online", 3, seed=1, settings=TableSettings(random_moves=False))


def _online_last_turn() -> GameState:
    """Four players online, seat 3 out: seat 0 to play with one card left
    in the deck, which the pile keeps back (online)."""
    return online(
        hands=["Handmaid Priest", "Baron", "King", ""],
        deck="Guard",
        discards=["Guard", "Guard", "Guard", ""],
        rest=2,
        exits=[3],
    )


@cache
def online_pile_out() -> GameState:
    """Seat 0's Handmaid is played: the pile ends the round, three players
    left; its end not applied."""
    return _until(_online_last_turn(), PlayCard(0, HANDMAID), lambda e: type(e) is RoundEnded)


@cache
def online_round_end() -> RoundEnded:
    """The end ``online_pile_out`` really has next."""
    events = step(_online_last_turn(), PlayCard(0, HANDMAID))[1]
    end = next(e for e in events if type(e) is RoundEnded)
    assert isinstance(end, RoundEnded) and end.reason is PILE and end.ranks is not None
    return end


@cache
def online_between() -> GameState:
    """Between two online rounds, four players at the table."""
    state = evolve(online_pile_out(), online_round_end())
    assert state.decision is Decision.NEXT_ROUND and state.out == frozenset({3})
    return state


@cache
def online_left_mid_round() -> GameState:
    """Online, three players: a player other than the one to act leaves
    mid-round; their knock-out not applied."""
    state = online_turn()
    gone = (state.current + 1) % state.players
    return evolve(state, PlayerLeft(gone))


@cache
def online_two_decks_between() -> GameState:
    """Online with two copies of the decks, the first round played out."""
    state = new_game("online", 3, seed=2, settings=TableSettings(decks=2))
    while state.decision is not Decision.NEXT_ROUND:
        state = push(state, legal_commands(state)[0])
    return state


@cache
def online_one_gone() -> GameState:
    return evolve(online_between(), PlayerLeft(1))


@cache
def online_two_left() -> GameState:
    """Seats 1 and 2 left between rounds: two are still at the table."""
    return evolve(online_one_gone(), PlayerLeft(2))


@cache
def online_deserted() -> GameState:
    """Seats 1, 2 and 3 left between rounds; the match's close not applied."""
    return apply_events(online_one_gone(), (PlayerLeft(2), PlayerLeft(3)))


@cache
def online_over() -> GameState:
    return evolve(online_deserted(), GameEnded(()))


def _next_round(
    state: GameState,
    *,
    round_number: int | None = None,
    first_player: int = 0,
    short_deck: bool = False,
    seats: tuple[int, ...] | None = None,
    order: tuple[int, ...] | None = None,
) -> RoundStarted:
    """A ``RoundStarted`` after ``state``: the next round, the edition's
    deck (less a card if ``short_deck``), and the fields given."""
    t = state.table
    deck = tuple(sorted(t.ruleset.deck_for(t.players)))
    number = t.round_number + 1 if round_number is None else round_number
    return RoundStarted(number, first_player, deck[:-1] if short_deck else deck, seats, order)


def _ranked_wrong(state: GameState) -> RoundEnded:
    end = online_round_end()
    assert end.ranks is not None
    return attrs.evolve(end, ranks=tuple(None if r is None else r + 1 for r in end.ranks))


def _non_rank_1_winner(state: GameState) -> RoundEnded:
    end = online_round_end()
    assert end.ranks is not None
    loser = next(p for p, rank in enumerate(end.ranks) if rank is not None and rank > 1)
    return attrs.evolve(end, winners=(loser,))


@cache
def premium_before_tokens() -> GameState:
    """Premium between rounds, seat 0 at 1 token, the others at none."""
    state = at("premium", hands=["Guard Princess", "Handmaid", ""], deck="", rest=2, out=[2])
    state = push(state, PlayCard(0, GUARD, 1, 2))
    assert state.decision is Decision.NEXT_ROUND and state.tokens == (1, 0, 0)
    return state


#: an event, or one built from the state it is to follow
EventFor = Event | Callable[[GameState], Event]

CASES: list[tuple[str, Callable[[], GameState], EventFor, str]] = [
    # helpers shared by the checks
    ("out-of-the-round", one_left, TurnStarted(1), "TurnStarted.player"),
    ("protected-target", priest_played, HandSeen(0, 2, KING, PRIEST), "HandSeen.owner"),
    (
        "protected-target-of-a-play",
        lambda: at(hands=["Guard Priest", "Baron", "King"], protected=[2]),
        CardPlayed(0, GUARD, 2, PRIEST),
        "CardPlayed.target",
    ),
    ("not-their-turn", turn, CardPlayed(1, BARON), "CardPlayed.player"),
    ("seats-not-ascending", turn, RoundEnded(PILE, (1, 0)), "RoundEnded.winners"),
    ("effect-before-the-draw", waiting, PlayerProtected(0), "PlayerProtected"),
    ("effect-before-the-play", turn, PlayerProtected(0), "PlayerProtected"),
    ("shown-via-another-card", priest_played, HandSeen(0, 1, BARON, GUARD), "HandSeen.via"),
    ("shown-via-a-guard", guard_played, HandSeen(0, 1, BARON, GUARD), "HandSeen.via"),
    ("effect-of-another-card", guard_played, PlayerProtected(0), "PlayerProtected"),
    # the shape of a field
    ("target-beyond-the-table", turn, CardPlayed(0, GUARD, 3, PRIEST), "CardPlayed.target"),
    ("target-a-string", turn, CardPlayed(0, GUARD, cast(Any, "1"), PRIEST), "CardPlayed.target"),
    ("card-of-another-edition", turn, CardPlayed(0, Card.BISHOP), "CardPlayed.card"),
    ("card-as-its-number", turn, CardPlayed(0, cast(Any, 1)), "CardPlayed.card"),
    ("winners-beyond-the-table", between_rounds, GameEnded((3,)), "GameEnded.winners"),
    ("winners-as-strings", between_rounds, GameEnded(cast(Any, ("0",))), "GameEnded.winners"),
    ("winners-as-a-list", between_rounds, GameEnded(cast(Any, [0])), "GameEnded.winners"),
    ("winners-twice", turn, RoundEnded(PILE, (0, 0)), "RoundEnded.winners"),
    (
        "drawn-cards-as-a-list",
        chancellor_played,
        ChancellorDrew(0, 2, cast(Any, [BARON, HANDMAID])),
        "ChancellorDrew.cards",
    ),
    (
        "drawn-cards-as-numbers",
        chancellor_played,
        ChancellorDrew(0, 2, cast(Any, (BARON, 4))),
        "ChancellorDrew.cards",
    ),
    # RoundStarted
    ("round-during-a-round", turn, _next_round, "RoundStarted"),
    (
        "round-number",
        between_rounds,
        lambda s: _next_round(s, round_number=5),
        "RoundStarted.round_number",
    ),
    (
        "round-deck-short",
        between_rounds,
        lambda s: _next_round(s, short_deck=True),
        "RoundStarted.deck",
    ),
    (
        "round-seats-outside-a-tie-break",
        between_rounds,
        lambda s: _next_round(s, seats=(0, 1)),
        "RoundStarted.seats",
    ),
    (
        "round-order-in-seat-order-edition",
        between_rounds,
        lambda s: _next_round(s, order=(0, 1, 2)),
        "RoundStarted.order",
    ),
    ("round-order-missing-online", online_between, _next_round, "RoundStarted.order"),
    (
        "round-deck-of-one-copy",
        online_two_decks_between,
        lambda s: _next_round(s, order=(0, 1, 2)),
        "RoundStarted.deck",
    ),
    (
        "round-dealt-to-one",
        online_deserted,
        lambda s: _next_round(s, order=(0,)),
        "RoundStarted",
    ),
    (
        "round-first-player-not-first",
        online_between,
        lambda s: _next_round(s, first_player=1, order=(0, 1, 2, 3)),
        "RoundStarted.first_player",
    ),
    ("tie-break-dealt-to-all", premium_tie_break, _next_round, "RoundStarted.seats"),
    (
        "tie-break-first-player-not-tied",
        premium_tie_break,
        lambda s: _next_round(s, seats=(0, 1), first_player=2),
        "RoundStarted.first_player",
    ),
    # the deal
    (
        "set-aside-online",
        lambda: _dealt("online", 3, 1),
        lambda s: CardSetAside(_top(s)),
        "CardSetAside",
    ),
    (
        "set-aside-after-a-deal",
        lambda: _dealt("2019", 3, 3),
        lambda s: CardSetAside(_top(s)),
        "CardSetAside",
    ),
    (
        "face-up-one-too-many",
        lambda: _dealt("2019", 2, 5),
        lambda s: CardRemovedFaceUp(_top(s)),
        "CardRemovedFaceUp",
    ),
    (
        "face-up-before-the-set-aside",
        lambda: _dealt("2019", 2, 1),
        lambda s: CardRemovedFaceUp(_top(s)),
        "CardRemovedFaceUp",
    ),
    (
        "deal-before-the-set-aside",
        lambda: _dealt("2019", 3, 1),
        lambda s: CardDealt(s.current, _top(s)),
        "CardDealt",
    ),
    (
        "dealt-twice",
        lambda: _dealt("2019", 3, 3),
        lambda s: CardDealt(next(p for p in range(3) if s.hands[p]), _top(s)),
        "CardDealt.player",
    ),
    ("set-aside-mid-round", turn, lambda s: CardSetAside(_top(s)), "CardSetAside"),
    ("face-up-mid-round", turn, lambda s: CardRemovedFaceUp(_top(s)), "CardRemovedFaceUp"),
    ("deal-at-a-turn-s-draw", waiting, lambda s: CardDealt(1, _top(s)), "CardDealt"),
    # TurnStarted
    ("turn-one-player-left", one_left, TurnStarted(0), "TurnStarted"),
    ("turn-empty-deck", pile_out, TurnStarted(1), "TurnStarted"),
    (
        "first-turn-wrong-player",
        lambda: _dealt("2019", 3, 5),
        lambda s: TurnStarted((s.current + 1) % 3),
        "TurnStarted.player",
    ),
    (
        "first-turn-mid-deal",
        lambda: _dealt("2019", 3, 3),
        lambda s: TurnStarted(s.current),
        "TurnStarted",
    ),
    ("turn-before-the-play", turn, TurnStarted(1), "TurnStarted"),
    ("turn-skips-a-player", guard_played, TurnStarted(2), "TurnStarted.player"),
    # CardDrawn
    (
        "draw-before-the-first-turn",
        lambda: _dealt("2019", 3, 5),
        lambda s: CardDrawn(s.current, _top(s)),
        "CardDrawn",
    ),
    (
        "turn-draw-from-set-aside",
        waiting,
        lambda s: CardDrawn(0, _top(s), True),
        "CardDrawn.from_set_aside",
    ),
    # CardPlayed
    ("play-before-the-draw", waiting, CardPlayed(0, GUARD), "CardPlayed"),
    ("play-twice", guard_played, CardPlayed(0, PRIEST), "CardPlayed"),
    (
        "second-target-alone",
        turn,
        CardPlayed(0, GUARD, None, None, 1),
        "CardPlayed.second_target",
    ),
    ("guess-without-target", turn, CardPlayed(0, GUARD, None, PRIEST), "CardPlayed.guess"),
    # CardDrawn as a replacement
    ("replacement-before-the-play", turn, lambda s: CardDrawn(0, _top(s)), "CardDrawn"),
    (
        "replacement-for-a-hand-not-discarded",
        king_played,
        lambda s: CardDrawn(1, _top(s)),
        "CardDrawn.player",
    ),
    # PlayerEliminated
    (
        "knock-out-the-last",
        one_left,
        PlayerEliminated(0, EliminationReason.GUARD_GUESS, ()),
        "PlayerEliminated.player",
    ),
    (
        "left-reason-for-a-player-present",
        turn,
        PlayerEliminated(1, EliminationReason.LEFT, ()),
        "PlayerEliminated.reason",
    ),
    (
        "left-knock-out-between-rounds",
        online_one_gone,
        PlayerEliminated(1, EliminationReason.LEFT, ()),
        "PlayerEliminated",
    ),
    (
        "knock-out-of-a-player-gone",
        online_left_mid_round,
        lambda s: PlayerEliminated(min(s.table.left), GUESSED, ()),
        "PlayerEliminated.reason",
    ),
    (
        "knock-out-before-the-play",
        turn,
        PlayerEliminated(1, GUESSED, (BARON,)),
        "PlayerEliminated",
    ),
    ("token-before-the-play", turn, TokenAwarded(0, TokenReason.SPY, 1), "TokenAwarded"),
    (
        "round-token-mid-effect",
        guard_played,
        TokenAwarded(0, TokenReason.ROUND_WIN, 1),
        "TokenAwarded.reason",
    ),
    # PlayerLeft, TurnTimedOut
    ("leave-offline", turn, PlayerLeft(1), "PlayerLeft"),
    ("leave-after-the-match", online_over, PlayerLeft(0), "PlayerLeft"),
    ("leave-twice", online_one_gone, PlayerLeft(1), "PlayerLeft.player"),
    ("time-out-offline", turn, TurnTimedOut(0), "TurnTimedOut"),
    (
        "time-out-without-random-moves",
        online_no_random_moves,
        lambda s: TurnTimedOut(s.current),
        "TurnTimedOut",
    ),
    (
        "time-out-not-acting",
        online_turn,
        lambda s: TurnTimedOut((s.current + 1) % s.players),
        "TurnTimedOut.player",
    ),
    (
        "time-out-between-rounds",
        online_between,
        lambda s: TurnTimedOut(s.current),
        "TurnTimedOut.player",
    ),
    # cards' effects
    ("seen-card-not-held", priest_played, HandSeen(0, 1, GUARD, PRIEST), "HandSeen.card"),
    ("seen-by-another", priest_played, HandSeen(1, 0, GUARD, PRIEST), "HandSeen.viewer"),
    ("seen-before-the-play", turn, HandSeen(0, 1, BARON, PRIEST), "HandSeen"),
    ("compared-before-the-play", turn, HandsCompared(0, 1, GUARD, BARON, BARON), "HandsCompared"),
    ("discard-before-the-play", turn, CardDiscarded(1, BARON), "CardDiscarded"),
    ("restricted-before-the-play", turn, ChoiceRestricted(0, 1), "ChoiceRestricted"),
    ("restricted-by-a-guard", guard_played, ChoiceRestricted(0, 1), "ChoiceRestricted"),
    (
        "chancellor-draw-after-a-guard",
        guard_played,
        lambda s: ChancellorDrew(0, 1, s.deck[:1]),
        "ChancellorDrew",
    ),
    (
        "compared-with-oneself",
        baron_played,
        HandsCompared(0, 0, GUARD, GUARD, BARON),
        "HandsCompared.opponent",
    ),
    (
        "compared-card-not-held",
        baron_played,
        HandsCompared(0, 1, KING, PRIEST, BARON),
        "HandsCompared.player_card",
    ),
    ("traded-with-oneself", king_played, HandsTraded(0, 0, KING), "HandsTraded.opponent"),
    ("traded-empty-hand", prince_on_self, HandsTraded(0, 1, PRINCE), "HandsTraded.player"),
    (
        "traded-for-an-empty-hand",
        prince_on_self,
        HandsTraded(1, 0, PRINCE),
        "HandsTraded.opponent",
    ),
    ("trade-before-the-play", turn, HandsTraded(0, 1), "HandsTraded"),
    (
        "chancellor-empty-hand",
        prince_on_self,
        ChancellorDrew(0, 1, (BARON,)),
        "ChancellorDrew.player",
    ),
    (
        "chancellor-draw-before-the-play",
        turn,
        lambda s: ChancellorDrew(0, 1, s.deck[:1]),
        "ChancellorDrew",
    ),
    ("chancellor-draws-none", chancellor_played, ChancellorDrew(0, 0, ()), "ChancellorDrew.cards"),
    (
        "chancellor-count",
        chancellor_played,
        ChancellorDrew(0, 1, (BARON, HANDMAID)),
        "ChancellorDrew.count",
    ),
    (
        "chancellor-draws-three",
        chancellor_played,
        lambda s: ChancellorDrew(0, 3, s.deck[:3]),
        "ChancellorDrew.cards",
    ),
    ("returned-outside-a-choice", turn, CardsReturned(0, 1, (GUARD,)), "CardsReturned"),
    (
        "returned-count",
        chancellor_choosing,
        CardsReturned(0, 1, (BARON, HANDMAID)),
        "CardsReturned.count",
    ),
    (
        "returned-keeping-two",
        chancellor_choosing,
        CardsReturned(0, 1, (BARON,)),
        "CardsReturned.cards",
    ),
    ("marks-oneself", guard_played, PlayerMarked(0, 0), "PlayerMarked.marked"),
    ("look-at-no-one", guard_played, LookOffered(0, ()), "LookOffered.owners"),
    ("redraw-to-the-cards-player", guard_played, RedrawOffered(0), "RedrawOffered.player"),
    ("mark-before-the-play", turn, PlayerMarked(0, 1), "PlayerMarked"),
    ("mark-by-a-guard", guard_played, PlayerMarked(0, 1), "PlayerMarked"),
    ("reveal-before-the-play", turn, CardRevealed(1, BARON), "CardRevealed"),
    ("look-offered-before-the-play", turn, LookOffered(0, (1,)), "LookOffered"),
    ("look-at-a-protected-hand", priest_played, LookOffered(0, (2,)), "LookOffered.owners"),
    ("look-offered-by-a-guard", guard_played, LookOffered(0, (1,)), "LookOffered"),
    ("look-offered-by-a-chancellor", chancellor_played, LookOffered(0, (1,)), "LookOffered"),
    ("redraw-offered-before-the-play", turn, RedrawOffered(1), "RedrawOffered"),
    ("redraw-offered-by-a-guard", guard_played, RedrawOffered(1), "RedrawOffered"),
    ("declined-by-another", cardinal_look, OptionDeclined(1), "OptionDeclined.player"),
    # RoundEnded
    ("round-end-between-rounds", between_rounds, RoundEnded(PILE, (0,)), "RoundEnded"),
    ("round-end-no-winner", turn, RoundEnded(PILE, ()), "RoundEnded.winners"),
    ("alone-with-two-left", turn, RoundEnded(ALONE, (0,)), "RoundEnded.reason"),
    (
        "alone-shows-a-card",
        one_left,
        RoundEnded(ALONE, (0,), ((0, PRIEST),)),
        "RoundEnded.revealed",
    ),
    ("pile-with-one-left", one_left, RoundEnded(PILE, (0,)), "RoundEnded.reason"),
    ("pile-mid-turn", turn, RoundEnded(PILE, (0,)), "RoundEnded"),
    ("pile-with-cards-left", guard_played, RoundEnded(PILE, (0,)), "RoundEnded.reason"),
    ("pile-shows-no-hand", pile_out, RoundEnded(PILE, (1,)), "RoundEnded.revealed"),
    # the shape of a field: pairs of a seat and a card
    (
        "revealed-seat-out-of-range",
        pile_out,
        RoundEnded(PILE, (1,), ((7, PRIEST),)),
        "RoundEnded.revealed",
    ),
    (
        "revealed-pair-too-short",
        pile_out,
        RoundEnded(PILE, (1,), cast(Any, ((0,),))),
        "RoundEnded.revealed",
    ),
    (
        "revealed-pair-as-a-list",
        pile_out,
        RoundEnded(PILE, (1,), cast(Any, ([0, PRIEST],))),
        "RoundEnded.revealed",
    ),
    (
        "ranks-offline",
        pile_out,
        RoundEnded(PILE, (0,), ((0, PRIEST), (1, BARON)), (2, 1)),
        "RoundEnded.ranks",
    ),
    ("ranks-wrong", online_pile_out, _ranked_wrong, "RoundEnded.ranks"),
    ("winner-not-rank-1", online_pile_out, _non_rank_1_winner, "RoundEnded.winners"),
    # TokenAwarded
    (
        "token-to-a-player-gone",
        online_one_gone,
        TokenAwarded(1, TokenReason.ROUND_WIN, 1),
        "TokenAwarded.player",
    ),
    (
        "round-token-to-a-loser",
        between_rounds,
        TokenAwarded(2, TokenReason.ROUND_WIN, 1),
        "TokenAwarded.reason",
    ),
    # GameEnded
    ("online-match-winner", online_between, GameEnded((0,)), "GameEnded.winners"),
    ("online-close-with-three", online_between, GameEnded(()), "GameEnded"),
    ("online-close-with-two", online_two_left, GameEnded(()), "GameEnded"),
    ("game-won-before-the-play", turn, GameEnded((0,)), "GameEnded"),
    ("winner-short-of-tokens", between_rounds, GameEnded((0,)), "GameEnded.winners"),
    ("tie-break-won-by-two", premium_tie_break, GameEnded((0, 1)), "GameEnded.winners"),
    ("winners-missing-one", both_reached, GameEnded((0,)), "GameEnded.winners"),
    ("premium-tie-not-played-off", premium_all_reached, GameEnded((0, 1, 2)), "GameEnded.winners"),
    # GameTied
    ("tie-in-a-shared-win-edition", between_rounds, GameTied((0, 1)), "GameTied"),
    ("tie-with-no-token-goal", online_between, GameTied((0, 1)), "GameTied"),
    (
        "tie-mid-round",
        lambda: premium(hands=["Guard Priest", "Baron", "King"]),
        GameTied((0, 1)),
        "GameTied",
    ),
    ("tie-short-of-tokens", premium_before_tokens, GameTied((0, 1)), "GameTied.tied"),
    ("tie-break-ties-another", premium_tie_break, GameTied((0, 2)), "GameTied.tied"),
    ("tie-missing-one", premium_all_reached, GameTied((0, 1)), "GameTied.tied"),
]


#: what each refusal says: the reason a person reads, pinned so that it stays
#: true to the check that gives it (the kind and the field are what code reads)
MESSAGES: dict[str, str] = {
    "out-of-the-round": "player 1 is out of the round",
    "protected-target": "player 2 is protected: no card can choose them",
    "protected-target-of-a-play": "player 2 is protected: no card can choose them",
    "not-their-turn": "it is player 0's turn, not player 1's",
    "seats-not-ascending": "must list distinct seats in ascending order: [1, 0]",
    "effect-before-the-draw": "no card's effect is under way while the game waits for 'draw'",
    "effect-before-the-play": "player 0 has not played this turn's card yet",
    "shown-via-another-card": "the card just played is Priest, not Guard",
    "shown-via-a-guard": "playing Guard shows no one's hand",
    "effect-of-another-card": "the card just played (Guard) does not protect its player",
    "round-during-a-round": "a round is dealt between rounds, not while the game waits for 'play'",
    "round-number": "the next round is round 2, not 5",
    "round-deck-short": "must be the 21 cards of 2019 for 3 players",
    "round-seats-outside-a-tie-break": "every player is dealt in outside a tie-break round",
    "round-order-in-seat-order-edition": "2019 plays in seat order",
    "round-order-missing-online": "must list the players present once each: [0, 1, 2, 3]",
    "round-dealt-to-one": "a round is dealt to two players or more",
    "round-first-player-not-first": "player 1 is not the first of those dealt in",
    "set-aside-online": "online sets no card aside",
    "set-aside-after-a-deal": "the card is set aside before any other leaves the deck",
    "face-up-one-too-many": "a 2-player round puts 3 cards face up",
    "face-up-before-the-set-aside": "cards go face up after the set-aside card, before the deal",
    "deal-before-the-set-aside": "the deal follows the set-aside and face-up cards",
    "dealt-twice": "player 0 has been dealt their card already",
    "turn-one-player-left": "a turn starts only with two players or more in the round",
    "turn-empty-deck": "the round ends instead: no card is left for the turn's draw",
    "first-turn-wrong-player": "player 0 starts the round, not player 1",
    "first-turn-mid-deal": "the first turn starts once every player is dealt a card",
    "turn-before-the-play": "a turn starts once the card of the one before is played",
    "turn-skips-a-player": "player 1's turn follows, not player 2's",
    "draw-before-the-first-turn": "the first turn's draw follows its start",
    "turn-draw-from-set-aside": "the turn's draw takes the top of the deck",
    "play-before-the-draw": "no card is played while the game waits for 'draw'",
    "play-twice": "player 0 has played this turn's card already",
    "second-target-alone": "a second player is chosen after a first",
    "guess-without-target": "a name is a Card given with a target, not Priest",
    "knock-out-the-last": "player 0 is the last player in the round",
    "left-reason-for-a-player-present": "player 1 has not left the match",
    "left-knock-out-between-rounds": "no one is knocked out between rounds",
    "leave-offline": "no one leaves a game of 2019: it is online only",
    "leave-after-the-match": "the match is over",
    "leave-twice": "player 1 has already left",
    "time-out-offline": "2019 has no time-outs: they are online only",
    "time-out-without-random-moves": "this table makes no random moves: it waits",
    "time-out-not-acting": "player 0 has no decision to time out",
    "seen-card-not-held": "player 1 does not hold Guard",
    "compared-with-oneself": "a comparison is with another player",
    "compared-card-not-held": "player 0 does not hold King",
    "traded-with-oneself": "a trade is between two players",
    "traded-empty-hand": "player 0 holds 0 cards, not one",
    "chancellor-empty-hand": "player 0 draws holding one card, not none",
    "chancellor-draws-none": "draws one card or more",
    "chancellor-count": "2 cards are drawn, not 1",
    "chancellor-draws-three": "a Chancellor draws 2 cards at most",
    "returned-outside-a-choice": "no cards are returned while the game waits for 'play'",
    "returned-count": "2 cards are returned, not 1",
    "returned-keeping-two": "player 0 keeps one card and returns the others",
    "marks-oneself": "a player marks another player",
    "look-at-no-one": "a look is offered at hands of players who could be chosen",
    "redraw-to-the-cards-player": "a redraw is offered to another player than the card's",
    "declined-by-another": "the step was offered to player 0, not 1",
    "round-end-between-rounds": "no round is being played: the game waits for 'next-round'",
    "round-end-no-winner": "the round's winners are players left in it",
    "alone-with-two-left": "3 players are left in the round, not one",
    "alone-shows-a-card": "the last player left shows no card (ruling 14)",
    "pile-with-one-left": "a round ended by the pile has two players or more left",
    "pile-mid-turn": "the pile ends a round at the end of a turn",
    "pile-with-cards-left": "16 cards are left to draw",
    "pile-shows-no-hand": "the pile's end shows every hand left, in seat order",
    "ranks-offline": "2019 does not rank the players",
    "ranks-wrong": "the round ranks the players [3, 2, 1, 4]",
    "winner-not-rank-1": "the round's winners are its rank-1 players",
    "token-to-a-player-gone": "player 1 has left the match: they gain nothing",
    "round-token-to-a-loser": "player 2 has not just won a round",
    "online-match-winner": "a match of online has no winner",
    "online-close-with-three": "a match closes between rounds once fewer than two are left",
    "winner-short-of-tokens": "a game is won with 5 tokens or more",
    "tie-break-won-by-two": "a tie-break round is won by one of the tied players",
    "winners-missing-one": "the players with 5 tokens or more win: [0, 1]",
    "premium-tie-not-played-off": "a tie for the game is played off (ruling 31)",
    "tie-in-a-shared-win-edition": "2019 has no tie-break rounds",
    "tie-with-no-token-goal": "no tokens win a match of online: no one ties for it",
    "tie-mid-round": "a tie for the game comes at the end of a round",
    "tie-short-of-tokens": "two players or more tie with 5 tokens or more",
    "tie-break-ties-another": "a tie-break round ties some of its tied players again",
    "tie-missing-one": "every player with 5 tokens or more is tied",
    "tie-break-dealt-to-all": "a tie-break round deals the tied players [0, 1] (ruling 31)",
    "tie-break-first-player-not-tied": "player 2 is not the first of those dealt in",
    "set-aside-mid-round": "cards are set aside, put face up and dealt as a round starts",
    "face-up-mid-round": "cards are set aside, put face up and dealt as a round starts",
    "deal-at-a-turn-s-draw": "cards are set aside, put face up and dealt as a round starts",
    "time-out-between-rounds": "player 0 has no decision to time out",
    "seen-by-another": "it is player 0's turn, not player 1's",
    "traded-for-an-empty-hand": "player 0 holds 0 cards, not one",
    "trade-before-the-play": "player 0 has not played this turn's card yet",
    "mark-before-the-play": "player 0 has not played this turn's card yet",
    "mark-by-a-guard": "the card just played (Guard) does not mark a player",
    "reveal-before-the-play": "player 0 has not played this turn's card yet",
    "look-offered-before-the-play": "player 0 has not played this turn's card yet",
    "look-at-a-protected-hand": "a look is offered at hands of players who could be chosen",
    "look-offered-by-a-guard": "the card just played (Guard) does not leave a look choice pending",
    "redraw-offered-before-the-play": "player 0 has not played this turn's card yet",
    "redraw-offered-by-a-guard": (
        "the card just played (Guard) does not leave a redraw choice pending"
    ),
    "seen-before-the-play": "player 0 has not played this turn's card yet",
    "compared-before-the-play": "player 0 has not played this turn's card yet",
    "discard-before-the-play": "player 0 has not played this turn's card yet",
    "restricted-before-the-play": "player 0 has not played this turn's card yet",
    "restricted-by-a-guard": "the card just played (Guard) does not bind the next card's choice",
    "chancellor-draw-after-a-guard": "the card just played (Guard) does not draw cards to return",
    "look-offered-by-a-chancellor": (
        "the card just played (Chancellor) does not leave a look choice pending"
    ),
    "revealed-seat-out-of-range": "must be a tuple of (seat, card) pairs, not <tuple of 1 items>",
    "revealed-pair-too-short": "must be a tuple of (seat, card) pairs, not <tuple of 1 items>",
    "revealed-pair-as-a-list": "must be a tuple of (seat, card) pairs, not <tuple of 1 items>",
    "online-close-with-two": "a match closes between rounds once fewer than two are left",
    "game-won-before-the-play": "player 0 has not played this turn's card yet",
    "target-beyond-the-table": "must be a seat from 0 to 2 or None, not 3",
    "target-a-string": "must be a seat from 0 to 2 or None, not '1'",
    "card-of-another-edition": "must be a card of this game, not Bishop",
    "card-as-its-number": "must be a card of this game, not 1",
    "winners-beyond-the-table": "must be a tuple of seats from 0 to 2, not <tuple of 1 items>",
    "winners-as-strings": "must be a tuple of seats from 0 to 2, not <tuple of 1 items>",
    "winners-as-a-list": "must be a tuple of seats from 0 to 2, not <list of 1 items>",
    "winners-twice": "must list distinct seats in ascending order: [0, 0]",
    "drawn-cards-as-a-list": "must be a tuple of cards of this game or None, not <list of 2 items>",
    "drawn-cards-as-numbers": (
        "must be a tuple of cards of this game or None, not <tuple of 2 items>"
    ),
    "replacement-before-the-play": "player 0 has not played this turn's card yet",
    "replacement-for-a-hand-not-discarded": (
        "player 1 draws a replacement once their hand is discarded"
    ),
    "knock-out-of-a-player-gone": "player 0 has left the match: out for that reason",
    "knock-out-before-the-play": "player 0 has not played this turn's card yet",
    "token-before-the-play": "player 0 has not played this turn's card yet",
    "round-token-mid-effect": "player 0 has not just won a round",
    "round-deck-of-one-copy": "must be the 32 cards of online for 3 players (2 copies of the deck)",
    "chancellor-draw-before-the-play": "player 0 has not played this turn's card yet",
}


@pytest.mark.parametrize(
    ("state_of", "event", "field", "message"),
    [
        pytest.param(state_of, event, field, MESSAGES[name], id=name)
        for name, state_of, event, field in CASES
    ],
)
def test_an_event_that_cannot_follow_is_refused_naming_its_field(
    state_of: Callable[[], GameState], event: EventFor, field: str, message: str
) -> None:
    state = state_of()
    refused = event(state) if callable(event) else event
    with pytest.raises(EventMismatch) as mismatch:
        evolve(state, refused)
    assert mismatch.value.field == field
    assert str(mismatch.value) == f"{field}: {message}"


def test_every_case_has_its_message() -> None:
    assert sorted(MESSAGES) == sorted(name for name, *_ in CASES)


@pytest.mark.parametrize(
    ("events", "shown"),
    [(5, "5"), ("CardPlayed", "'CardPlayed'"), (b"events", "<bytes>"), (None, "None")],
    ids=repr,
)
def test_apply_events_refuses_what_is_not_a_sequence_of_events(events: object, shown: str) -> None:
    with pytest.raises(EventMismatch) as mismatch:
        apply_events(turn(), events)  # type: ignore[arg-type]  # the wrong type is the test
    assert mismatch.value.field == "events"
    assert str(mismatch.value) == f"events: a sequence of events, not {shown}"


def test_the_field_shapes_built_at_import_test_what_they_say() -> None:
    """``_optional`` and ``_exactly`` build the field shapes when the module
    is imported; built again here, each test passes its arguments through."""
    seen: list[tuple[object, int, tuple[Card, ...]]] = []

    def recording(value: object, n: int, kinds: tuple[Card, ...]) -> bool:
        seen.append((value, n, kinds))
        return value == 1

    what, test = evolution._optional(("one", recording))
    assert what == "one or None"
    assert test(None, 3, (GUARD,)) and not seen
    assert test(1, 3, (GUARD,)) and seen == [(1, 3, (GUARD,))]
    assert not test(2, 4, ()) and seen[-1] == (2, 4, ())
    what, test = evolution._exactly(bool, "true or false")
    assert what == "true or false"
    assert test(True, 3, ()) and test(False, 3, ())
    assert not test(1, 3, ()) and not test(None, 3, ())
