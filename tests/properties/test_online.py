"""Properties of the online edition that compare it with its own rules and
with Premium (docs/online-design.md, rulings 41-53).

* **Isomorphism.** With one deck and three or four players, an online round
  and a Premium round dealt from the same cards are the same game: the
  online pile's last card plays the part of Premium's set-aside card, and
  the online turn order is Premium's seat rotation from the same first
  player. Both then offer the same commands at every step, give the same
  events (but for the set-aside flag of a draw and the ranks of a round's
  end), knock out the same players, and Premium's round winners are the
  online rank-1 players; their tokens and win counters agree, since the
  16-card deck has no card that pays a partial win. Only scoring differs.
* **The decks.** The engine's deck for every table size and number of
  decks is the spec's (ruling 41), and other tables are refused.
* **REQUIRED and IMMUNE at once never happens** (ruling 48): in random
  online games, biased towards Sycophants and Handmaids, no state has its
  required player protected; a position claiming it is refused.
* **Time-outs** (ruling 51): the random move is always one of the legal
  commands of the player to act, the one the oracle draws again from the
  seed, and a log holding time-outs replays.
* **The oracle can fail:** engines broken on purpose in one online rule
  each (the hand bonus, the order of the players who went out, the
  time-out's draw, the first player rotated instead of swapped, a leaver
  paid for a Constable) are caught by the checks of :mod:`.strategies`.
* **Both engine paths** run the online conformance cases
  (``tests/conformance/test_both_paths.py``, loaded from its file).
"""

from __future__ import annotations

import importlib.util
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import attrs
import pytest
from hypothesis import event, given, note, settings
from hypothesis import strategies as st

import loveletter as ll
from loveletter import (
    Card,
    Decision,
    GameState,
    consequences,
    dealing,
    deciding,
    engine,
    fastpath,
    ranking,
)
from loveletter.chance import chance_number
from loveletter.commands import Command, Leave, PlayCard, StartRound, TimeOut
from loveletter.events import CardDrawn, Event, RoundEnded, TurnTimedOut

from .leak_oracle import RandomChoices
from .strategies import (
    CORE_CHECKS,
    ONLINE,
    ONLINE_DECKS,
    PLAYER_COUNTS,
    PREMIUM,
    VALUES,
    Choices,
    GameRun,
    GameSetup,
    adjusted_hand_value,
    check_state,
    check_transition,
    choose_next_command,
    full_deck,
    online_ranks,
    scaled_examples,
    timeout_move,
)

C = Card

# --------------------------------------------------------------------------
# one deck, three or four players: an online round is a Premium round


def _premium_deck(online_deck: Sequence[Card]) -> tuple[Card, ...]:
    """The online pile's last card as Premium's set-aside card (the top of
    a Premium deck), then the same cards in the same order."""
    return (online_deck[-1], *online_deck[:-1])


def _rotation(first: int, players: int) -> tuple[int, ...]:
    """turn.order: Premium's seats from the first player on."""
    return tuple((first + offset) % players for offset in range(players))


def _same_events(event: Event) -> Event:
    """An event as both editions give it: a draw of Premium's set-aside
    card is the online draw of the pile's last card; the ranks are online's."""
    if isinstance(event, CardDrawn):
        return attrs.evolve(event, from_set_aside=False)
    if isinstance(event, RoundEnded):
        return attrs.evolve(event, ranks=None)
    return event


def _check_same_game(online: GameState, premium: GameState) -> None:
    assert ll.legal_commands(online) == ll.legal_commands(premium)
    assert (online.decision, online.current, online.to_act) == (
        premium.decision,
        premium.current,
        premium.to_act,
    )
    assert online.hands == premium.hands and online.discards == premium.discards
    assert online.out == premium.out and online.protected == premium.protected
    aside = () if premium.set_aside is None else (premium.set_aside,)
    assert online.deck == (*premium.deck, *aside), "the online pile is not Premium's deck"
    assert online.tokens == premium.tokens
    assert online.sightings == premium.sightings


@pytest.mark.rule(
    "setup.no-set-aside-online",
    "setup.deck-online",
    "setup.turn-order-online",
    "round.end-pile-online",
    "round.ranks-online",
    "game.win-counter-online",
    "setup.set-aside-face-down",
    "round.end-deck-empty",
    "round.highest-card-wins",
    "round.tie-discard-sum",
)
@pytest.mark.parametrize("players", (3, 4))
@settings(max_examples=scaled_examples(1.0))
@given(data=st.data())
def test_one_deck_online_rounds_are_premium_rounds_but_for_scoring(
    players: int, data: st.DataObject
) -> None:
    """The same commands, events, knock-outs and winners, round after round
    (up to three: no Premium game ends so soon), from the same deals."""
    cards = sorted(full_deck(ONLINE, players).elements())
    seed = data.draw(st.integers(min_value=0, max_value=2**32), label="seed")
    first = data.draw(st.integers(min_value=0, max_value=players - 1), label="first player")
    deck = tuple(data.draw(st.permutations(cards), label="deck"))
    online = ll.new_game(ONLINE, players, seed=seed, deck=deck, order=_rotation(first, players))
    premium = ll.new_game(PREMIUM, players, seed=seed, first_player=first, deck=_premium_deck(deck))
    for round_number in range(1, 4):
        while not premium.round_over:
            _check_same_game(online, premium)
            command = data.draw(st.sampled_from(ll.legal_commands(premium)), label="command")
            online, online_events = ll.step(online, command)
            premium, premium_events = ll.step(premium, command)
            assert tuple(map(_same_events, online_events)) == tuple(
                map(_same_events, premium_events)
            ), f"{command}: the editions part ways"
        assert online.round_over, "the online round goes on where Premium's ended"
        _check_same_game(online, premium)
        online_result, premium_result = online.round_result, premium.round_result
        assert online_result is not None and premium_result is not None
        assert online_result.ranks == online_ranks(online)
        rank_one = tuple(p for p, rank in enumerate(online_result.ranks or ()) if rank == 1)
        assert premium_result.winners == rank_one == online_result.winners
        assert premium_result.reason == online_result.reason
        note(f"round {round_number}: ranks {online_result.ranks}")
        if premium.is_over:
            break
        first = data.draw(st.sampled_from(premium_result.winners), label="next first player")
        deck = tuple(data.draw(st.permutations(cards), label="next deck"))
        online = ll.push(online, StartRound(deck, first, _rotation(first, players)))
        premium = ll.push(premium, StartRound(_premium_deck(deck), first))


# --------------------------------------------------------------------------
# ranks at the end of a round


#: the cards whose hands 004's bonus is about, drawn first for the hands left
_SHOWDOWN_CARDS = (C.PRINCESS, C.BISHOP, C.COUNTESS, C.DOWAGER_QUEEN, C.KING, C.CONSTABLE)


@st.composite
def last_turns(draw: st.DrawFn) -> GameState:
    """Seat 0 about to play a Handmaid with one card left in the pile, so
    that the round ends by the pile: the other players in the round hold a
    card each (mostly the Princess, a Bishop, a Countess, a Dowager Queen,
    a King, a Constable), the others went out in a drawn order, every other
    card of the table's decks (mostly its Counts in the piles of the players
    still in) lies in a pile."""
    players = draw(st.sampled_from(PLAYER_COUNTS[ONLINE]), label="players")
    decks = draw(st.sampled_from(ONLINE_DECKS), label="decks")
    table = ll.TableSettings(decks=decks)
    start = ll.new_game(ONLINE, players, seed=0, settings=table)
    left = full_deck(ONLINE, players, decks)
    others = list(draw(st.permutations(range(1, players)), label="seats"))
    stay = draw(st.integers(min_value=1, max_value=players - 1), label="others still in")
    live, exits = sorted([0, *others[:stay]]), tuple(others[stay:])

    def take(card: Card) -> Card:
        left[card] -= 1
        return card

    def any_card() -> Card:
        kinds = [k for k in _SHOWDOWN_CARDS if left[k]] + sorted(k for k in left if left[k])
        return take(draw(st.sampled_from(kinds), label="card"))

    hands: list[tuple[Card, ...]] = [()] * players
    # half the time with the Extended deck, the second condition's cast:
    # seat 0 keeps a 7 and has every Count, two others hold the Princess
    # and a Bishop (whether the 7 is lifted is then up to the pile totals)
    sevens = players >= 5 and len(live) >= 3 and draw(st.booleans(), label="a 7's case")
    if sevens:
        seven = draw(st.sampled_from((C.COUNTESS, C.DOWAGER_QUEEN)), label="the 7")
        hands[0] = (take(C.HANDMAID), take(seven))
        hands[live[1]], hands[live[2]] = (take(C.PRINCESS),), (take(C.BISHOP),)
    else:
        hands[0] = (take(C.HANDMAID), any_card())
    for seat in live[1:]:
        hands[seat] = hands[seat] or (any_card(),)
    pile = (any_card(),)
    piles: list[list[Card]] = [[] for _ in range(players)]
    # the Counts to the players still in (their +1s), often all to one of
    # them (the +4 of a Countess or a Dowager Queen needs two)
    counted = 0 if sevens else draw(st.sampled_from([*live, None]), label="all the Counts to")
    for card in sorted(left.elements()):
        if card is not C.COUNT:
            seat = draw(st.integers(min_value=0, max_value=players - 1), label="pile")
        elif counted is None:
            seat = draw(st.sampled_from(live), label="a Count's pile")
        else:
            seat = counted
        piles[seat].append(card)
    return attrs.evolve(
        start,
        deck=pile,
        hands=tuple(hands),
        discards=tuple(map(tuple, piles)),
        out=frozenset(exits),
        exits=exits,
        current=0,
        turn_number=30,
        table=attrs.evolve(start.table, order=tuple(range(players))),
    )


@pytest.mark.rule("round.ranks-online", "round.hand-bonus-online", "count.showdown-bonus")
@settings(max_examples=scaled_examples(2.0))
@given(state=last_turns())
def test_a_round_ended_by_the_pile_ranks_by_the_adjusted_hand_value(state: GameState) -> None:
    """Ruling 45, against the engine's round end: random hands and piles at
    the last turn, 004's hand bonus (the lifted Princess, the lifted 7 with
    two Counts, the multi-deck readings), pile totals, shared ranks and the
    players who went out, and the win counters that follow."""
    command = PlayCard(0, C.HANDMAID)
    after, events = ll.step(state, command)
    assert any(isinstance(e, RoundEnded) for e in events)
    check_transition(state, command, events, after)
    assert after.round_result is not None and after.round_result.ranks == online_ranks(after)
    live = [p for p in range(state.players) if p not in after.out]
    for p in live:
        lifted = _lifted(after, p, live)
        event(f"lifted: {after.hands[p][0].name}" if lifted else "not lifted")
    winners = after.round_result.winners
    event(f"rank 1 shared by {len(winners)}" if len(winners) > 1 else "one rank-1 player")


def _lifted(state: GameState, player: int, live: Sequence[int]) -> bool:
    (card,) = state.hands[player]
    printed = VALUES[ONLINE][card] + state.discards[player].count(C.COUNT)
    return adjusted_hand_value(state, player, live) != printed


# --------------------------------------------------------------------------
# the decks


@pytest.mark.rule("setup.player-count-online", "setup.deck-online", "setup.decks-online")
def test_every_online_table_deals_the_spec_deck_in_as_many_copies_as_it_plays() -> None:
    ruleset = ll.get_ruleset(ONLINE)
    for players in PLAYER_COUNTS[ONLINE]:
        for decks in ONLINE_DECKS:
            assert Counter(ruleset.deck_for(players, decks)) == full_deck(ONLINE, players, decks)
            state = ll.new_game(
                ONLINE, players, seed=players, settings=ll.TableSettings(decks=decks)
            )
            assert state.card_count() == full_deck(ONLINE, players, decks).total()
    refused = [(2, 1), (9, 1), (3, 0), (8, 4)]
    for players, decks in refused:
        with pytest.raises(ll.SetupError):
            ll.new_game(ONLINE, players, seed=0, settings=ll.TableSettings(decks=decks))


# --------------------------------------------------------------------------
# REQUIRED and IMMUNE at once


def _sycophants_and_handmaids(choices: Choices, state: GameState) -> Command:
    """Mostly a Sycophant or a Handmaid when one can be played (the two
    cards whose states might meet), else any legal command."""
    legal = ll.legal_commands(state)
    biased = [c for c in legal if isinstance(c, PlayCard) and c.card in (C.SYCOPHANT, C.HANDMAID)]
    if biased and choices.integer(0, 3):
        return biased[choices.integer(0, len(biased) - 1)]
    return legal[choices.integer(0, len(legal) - 1)]


@pytest.mark.rule(
    "targeting.valid-choice-online",
    "sycophant.next-card-must-choose",
    "handmaid.protection-until-next-turn",
)
def test_required_and_immune_at_once_never_happens_in_random_online_games() -> None:
    """Ruling 48: a Sycophant cannot choose a protected player, and
    protection comes only in its player's own turn, after the requirement
    has lapsed; so no state reached has its required player protected
    (while requirements and protections are frequent)."""
    required = protected_then = 0
    for game in range(scaled_examples(0.4)):
        players = 5 + game % 4
        choices = RandomChoices(game)
        state = ll.new_game(
            ONLINE, players, seed=game, settings=ll.TableSettings(decks=1 + game % 3)
        )
        for _ in range(300):
            if state.round_over:
                state = ll.push(state, StartRound())
                continue
            if state.required is not None:
                required += 1
                assert state.required not in state.protected, f"required and immune: {state}"
                protected_then += bool(state.protected)
            state = ll.push(state, _sycophants_and_handmaids(choices, state))
    # not vacuous: many requirements, many of them while someone was protected
    assert required >= 50 and protected_then >= 20, (required, protected_then)


def _a_requirement() -> GameState:
    """A state of a random online game where a Sycophant requires another
    player than the one to play."""
    for game in range(100):
        choices = RandomChoices(game)
        state = ll.new_game(ONLINE, 5 + game % 4, seed=game)
        while not state.round_over:
            if state.required is not None and state.required != state.current:
                return state
            state = ll.push(state, _sycophants_and_handmaids(choices, state))
    raise AssertionError("no Sycophant's requirement in a hundred rounds")


@pytest.mark.rule("targeting.valid-choice-online")
def test_a_position_with_a_required_and_protected_player_is_refused() -> None:
    state = _a_requirement()
    required = state.required
    assert required is not None
    position = ll.to_position(state)
    assert ll.from_position(position) == state
    with pytest.raises(ll.PositionError):
        ll.from_position(attrs.evolve(position, protected=(*position.protected, required)))


# --------------------------------------------------------------------------
# time-outs


@st.composite
def online_logs(draw: st.DrawFn) -> tuple[tuple[Event, ...], GameState]:
    """An online match's log and its state, a few random steps in (players
    leaving and time-outs included), at a moment a player must act."""
    players = draw(st.sampled_from(PLAYER_COUNTS[ONLINE]), label="players")
    decks = draw(st.sampled_from(ONLINE_DECKS), label="decks")
    seed = draw(st.integers(min_value=0, max_value=2**32), label="seed")
    settings_ = ll.TableSettings(decks=decks)
    log = list(ll.start_game(ONLINE, players, seed=seed, settings=settings_))
    state = ll.replay(log)
    choices = RandomChoices(draw(st.integers(min_value=0, max_value=2**16), label="choices"))
    for _ in range(draw(st.integers(min_value=0, max_value=80), label="steps")):
        if state.decision is Decision.NEXT_ROUND:
            command: Command = StartRound()
        else:
            command = choose_next_command(choices, state)
        try:
            state, events = ll.step(state, command)
        except ll.IllegalCommand:
            continue
        log.extend(events)
        if state.is_over:
            break
    while state.to_act is None and not state.is_over:
        state, events = ll.step(state, StartRound())
        log.extend(events)
    return tuple(log), state


@pytest.mark.rule("online.timeout-random-move")
@settings(max_examples=scaled_examples(0.6))
@given(game=online_logs())
def test_a_time_out_makes_a_legal_move_of_the_player_to_act_that_replays(
    game: tuple[tuple[Event, ...], GameState],
) -> None:
    log, state = game
    if state.is_over:
        return
    player = state.to_act
    assert player is not None
    events = ll.decide(state, TimeOut(player))
    move = timeout_move(state)
    assert events[0] == TurnTimedOut(player)
    assert move in ll.legal_commands(state), f"{move} is not a legal command"
    assert getattr(move, "player", player) == player
    assert events[1:] == ll.decide(state, move)
    after = ll.push(state, TimeOut(player))
    assert after == ll.push(state, move), "a time-out leaves more than its move"
    assert ll.replay((*log, *events)) == after
    replayed, commands = engine.replay_commands((*log, *events))
    assert replayed == after and commands[-1] == TimeOut(player)
    # only the player to act times out, at a table with random moves
    for other in range(state.players):
        if other != player:
            with pytest.raises(ll.IllegalCommand) as caught:
                ll.decide(state, TimeOut(other))
            assert caught.value.kind is ll.RejectionKind.NOT_YOUR_TURN
    assert state.table.settings is not None
    off = attrs.evolve(state.table.settings, random_moves=False)
    waiting = attrs.evolve(state, table=attrs.evolve(state.table, settings=off))
    with pytest.raises(ll.IllegalCommand) as caught:
        ll.decide(waiting, TimeOut(player))
    assert caught.value.kind is ll.RejectionKind.RANDOM_MOVES_OFF


# --------------------------------------------------------------------------
# the oracle catches engines broken in one online rule


def _checked_steps(state: GameState, commands: Sequence[Command]) -> GameState:
    """Each command through the engine's definition path, its transition
    and the state reached checked by the oracle."""
    for command in commands:
        after, events = ll.step(state, command)
        check_transition(state, command, events, after)
        check_state(after)
        state = after
    return state


def _last_turn(
    hands: Sequence[tuple[Card, ...]],
    *,
    out: tuple[int, ...] = (4,),
    piles: Sequence[tuple[Card, ...]] = ((), (), (), (), ()),
) -> ll.Position:
    """A five-player online position on seat 0's play with one card (a
    Guard) left in the pile, so that the turn ends the round; ``out`` went
    out in that order; every card not placed lies in a pile."""
    # Turns went round the table from seat 0 (the order's first), so every
    # player still in has played as often: each pile still in gets plain
    # cards under what it shows up to that many, the players out the rest
    # (the cards that act from a pile among them), at most one turn more
    # each and the hand they gave up.
    placed = Counter(c for zone in (*hands, *piles) for c in zone) + Counter({C.GUARD: 1})
    rest = sorted((full_deck(ONLINE, 5) - placed).elements())
    acts = (C.COUNT, C.CONSTABLE, C.JESTER, C.PRINCESS)  # from a pile, or says who went out
    plain = [c for c in rest if c not in acts]
    acting = [c for c in rest if c not in plain]
    live = [seat for seat in range(5) if seat not in out]
    for k in range(32):
        need = sum(k - len(piles[s]) for s in live)
        room = sum(k + 2 - len(piles[s]) for s in out)
        if min(k - len(piles[s]) for s in live) >= 0 and 0 <= len(rest) - need <= room:
            break
    discards = [list(pile) for pile in piles]
    for s in live:
        while len(discards[s]) < k:
            discards[s].insert(0, plain.pop())
    spare = acting + plain
    for s in out:
        while spare and len(discards[s]) < k + 2:
            discards[s].insert(0, spare.pop(0))
    assert not spare, "the cards left fit no turns round the table"
    turn = sum(map(len, hands)) + sum(map(len, discards)) - 5
    return ll.Position(
        ruleset=ONLINE,
        players=5,
        deck=(C.GUARD,),
        set_aside=None,
        face_up=(),
        hands=tuple(hands),
        discards=tuple(map(tuple, discards)),
        current=0,
        drawn=True,
        turn_number=turn,
        order=(0, 1, 2, 3, 4),
        out=out,
        exits=out,
    )


def test_caught_a_hand_bonus_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ranks by printed value and Counts only: the Bishop (9) over the
    Princess (8), who should have 12 beside another player's Bishop."""

    def printed_and_counts(ruleset: Any, revealed: Any, discards: Any) -> dict[int, int]:
        return {p: ruleset.values[c] + discards[p].count(C.COUNT) for p, c in revealed}

    position = _last_turn(((C.HANDMAID, C.PRIEST), (C.PRINCESS,), (C.BISHOP,), (C.GUARD,), ()))
    state = ll.from_position(position)
    _checked_steps(state, [PlayCard(0, C.HANDMAID)])
    monkeypatch.setattr(ranking, "adjusted_values", printed_and_counts)
    with pytest.raises(AssertionError, match="rules give"):
        _checked_steps(state, [PlayCard(0, C.HANDMAID)])


def test_caught_players_who_went_out_ranked_first_out_highest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The players who went out ranked in the wrong order."""
    ranks_of = ranking.round_ranks

    def first_out_highest(*args: Any) -> tuple[int | None, ...]:
        ranks = list(ranks_of(*args))
        exits = args[4]
        for seat, rank in zip(exits, reversed([ranks[p] for p in exits]), strict=True):
            ranks[seat] = rank
        return tuple(ranks)

    position = _last_turn(
        ((C.HANDMAID, C.PRIEST), (C.PRINCESS,), (C.BARON,), (), ()),
        out=(4, 3),
        piles=((), (), (), (C.GUARD,), ()),
    )
    state = ll.from_position(position)
    _checked_steps(state, [PlayCard(0, C.HANDMAID)])
    for module in (consequences, fastpath):  # the round's end on both paths
        if hasattr(module, "round_ranks"):
            monkeypatch.setattr(module, "round_ranks", first_out_highest)
    with pytest.raises(AssertionError, match="rules give"):
        _checked_steps(state, [PlayCard(0, C.HANDMAID)])


def _play_with_time_outs(games: int) -> None:
    """Online matches where every move is a time-out, checked step by step."""
    for game in range(games):
        setup = GameSetup(ONLINE, 4, game, None, settings=ll.TableSettings(), rounds=1)
        run = GameRun(setup, CORE_CHECKS)
        while not run.state.round_over:
            to_act = run.state.to_act
            assert to_act is not None
            assert run.attempt(TimeOut(to_act)) is None
            run.check_now()


def test_caught_a_time_out_drawing_among_all_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    """The random move drawn uniformly among every legal command, not a card
    first (ruling 51)."""
    _play_with_time_outs(3)

    def uniform(state: GameState, command: TimeOut) -> Command:
        purpose = f"timeout/{state.turn_number}/{state.decision.value}"
        moves = ll.legal_commands(state)
        return moves[chance_number(state.seed, state.round_number, purpose) % len(moves)]

    monkeypatch.setattr(deciding, "timed_out", uniform)
    with pytest.raises(AssertionError, match="did not make"):
        _play_with_time_outs(20)


def test_caught_a_first_player_rotated_to_the_front(monkeypatch: pytest.MonkeyPatch) -> None:
    """The named first player rotated into first place instead of swapped
    (ruling 43)."""

    def rotated(order: tuple[int, ...], first: int | None) -> tuple[int, ...]:
        if first is None:
            return order
        at = order.index(first)
        return (*order[at:], *order[:at])

    def first_rounds() -> None:
        for seed in range(10):
            GameRun(GameSetup(ONLINE, 6, seed, seed % 6, settings=ll.TableSettings()), CORE_CHECKS)

    first_rounds()
    monkeypatch.setattr(dealing, "_swapped_first", rotated)
    with pytest.raises(AssertionError, match="ruling 43 gives"):
        first_rounds()


def test_caught_a_leaver_paid_for_a_constable(monkeypatch: pytest.MonkeyPatch) -> None:
    """Leaving pays the Constable in the leaver's pile (ruling 50: it must
    not, or leaving would score)."""
    position = _last_turn(
        ((C.HANDMAID, C.PRIEST), (C.PRINCESS,), (C.BARON,), (C.GUARD,), ()),
        piles=((), (C.CONSTABLE,), (), (), ()),
    )
    state = ll.from_position(position)
    _checked_steps(state, [Leave(1)])
    monkeypatch.setattr(consequences, "present", lambda state, player: True)
    with pytest.raises(AssertionError, match="constable"):
        _checked_steps(state, [Leave(1)])


# --------------------------------------------------------------------------
# both engine paths on the online conformance cases


def _both_paths() -> ModuleType:
    """``tests/conformance/test_both_paths.py``, loaded from its file (the
    test directories are not one package)."""
    path = Path(__file__).resolve().parent.parent / "conformance" / "test_both_paths.py"
    spec = importlib.util.spec_from_file_location("_both_paths_for_online", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_both_engine_paths_run_the_online_conformance_cases() -> None:
    """The walk of ``test_both_paths`` covers the online cases: every online
    case whose start the rules accept has its commands compared through
    ``push`` and ``step``, leaving and time-outs among them."""
    module = _both_paths()
    walk: Callable[[Any], tuple[int, int]] = module._walk
    online = [case for case in module.CASES if case.name.startswith(f"{ONLINE}/")]
    assert online, "no online conformance case"
    compared = refused = 0
    kinds: set[str] = set()
    for case in online:
        done, no = walk(case)
        compared += done
        refused += no
        for step in case.data.get("steps", []):
            if isinstance(step.get("command"), dict):
                kinds.add(step["command"].get("type", ""))
    assert compared > 0 and refused > 0, (compared, refused)
    assert {"Leave", "TimeOut", "PlayCard", "StartRound"} <= kinds, kinds
