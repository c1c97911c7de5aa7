"""The suite's move-generation claims, recomputed by an independent oracle.

``perft_oracle.py`` implements the rules again without importing
``loveletter``. Here it replays every case that claims a ``perft``, a
``legal_command_count`` or an exact ``legal_commands`` set, and must reach
the same numbers and the same sets: a wrong case, or a case written to fit
an engine bug, fails here even though the engine passes it.

For the online edition it is also run in lockstep with the engine itself
(section "online" below): random matches at 3, 4, 5 and 8 players and with
1, 2 and 3 decks, the host's ``Leave`` and ``TimeOut`` and seeded deals mixed
in, the legal command sets, the zones, the ranks and the win counters
compared after every step, and perft counts compared at positions along
the way.

No perft depth is capped: the deepest case (``2019/perft/perft-deal-5p-stacked``,
119046 sequences at depth 4) takes about a second in the oracle.
"""

from __future__ import annotations

import ast
import contextlib
import itertools
import random
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final

import pytest

import loveletter as ll
from loveletter import commands as engine_commands
from loveletter.cards import Card
from loveletter.conformance import Case
from loveletter.conformance.execute import perft as engine_perft

from ._support import suite
from .perft_oracle import (
    Checkpoint,
    Command,
    Decline,
    DrawCard,
    Leave,
    LookAtHand,
    OracleError,
    OutOfReach,
    PlayCard,
    Redraw,
    State,
    TimeOut,
    apply,
    canonical_deck,
    deal,
    deck_cards,
    from_position,
    from_start,
    legal_commands,
    parse_command,
    perft,
    replay,
    shuffle,
    start_round,
    tokens_to_win,
)

#: Cases the oracle cannot replay, by name, with the reason. None today: the
#: only shape beyond it (a StartRound with no stacked deck, or with tied
#: winners and no first_player, both random) appears in no case with checks.
#: A ``start_rejected`` case has no steps, hence no checks to recompute.
OUT_OF_REACH: Final[Mapping[str, str]] = {}


def _has_check(case: Case, *keys: str) -> bool:
    return any(key in step.get("checks", {}) for step in case.data["steps"] for key in keys)


PERFT_CASES: Final = tuple(c for c in suite() if _has_check(c, "perft", "legal_command_count"))
LEGAL_SET_CASES: Final = tuple(c for c in suite() if _has_check(c, "legal_commands"))


def _checkpoints(case: Case) -> list[Checkpoint]:
    """Every checks step of the case with the oracle's state there."""
    if case.start_rejected:
        pytest.skip(f"{case.name}: start_rejected, there is no state to replay")
    if case.name in OUT_OF_REACH:
        pytest.skip(f"{case.name}: {OUT_OF_REACH[case.name]}")
    try:
        return list(replay(case.data))
    except OutOfReach as reason:
        pytest.fail(f"{case.name}: {reason}; teach the oracle, or list it in OUT_OF_REACH")


def _expected_set(case: Case, step: int, commands: Iterable[Mapping[str, Any]]) -> set[Command]:
    """A case's ``legal_commands``; an absent target or guess is null."""
    expected: set[Command] = set()
    for data in commands:
        command = parse_command(data)
        assert command is not None, f"{case.name} steps[{step}]: cannot read {data}"
        expected.add(command)
    return expected


def test_the_oracle_is_independent_of_the_engine() -> None:
    tree = ast.parse(Path(__file__).with_name("perft_oracle.py").read_text(encoding="utf-8"))
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.add("." if node.level else (node.module or "").split(".")[0])
    stdlib = {
        "__future__",
        "collections",
        "dataclasses",
        "hashlib",
        "itertools",
        "math",
        "sys",
        "typing",
    }
    assert imported <= stdlib | {"yaml"}, imported


def test_the_oracle_covers_the_whole_perft_topic() -> None:
    perft_topic = {c.name for c in suite() if c.name.split("/")[1] == "perft"}
    assert len(perft_topic) >= 16
    assert perft_topic <= {c.name for c in PERFT_CASES}
    assert set(OUT_OF_REACH) <= {c.name for c in suite()}


@pytest.mark.parametrize("case", PERFT_CASES, ids=lambda case: case.name)
def test_oracle_perft_and_legal_command_count_match_the_case(case: Case) -> None:
    for step, checks, state in _checkpoints(case):
        if "perft" in checks:
            expected = checks["perft"]
            assert perft(state, len(expected)) == expected, f"steps[{step}] perft"
        if "legal_command_count" in checks:
            count = len(legal_commands(state))
            assert count == checks["legal_command_count"], f"steps[{step}] legal_command_count"


def test_oracle_legal_command_sets_match_every_case() -> None:
    """Every checks step with an exact ``legal_commands``, in every case."""
    checked, mismatches = 0, []
    for case in LEGAL_SET_CASES:
        if case.name in OUT_OF_REACH:
            continue  # skipped, with its reason, in OUT_OF_REACH
        for step, checks, state in replay(case.data):
            if "legal_commands" not in checks:
                continue
            expected = _expected_set(case, step, checks["legal_commands"])
            got = legal_commands(state)
            checked += 1
            if got != expected:
                missing = sorted(map(repr, expected - got))
                extra = sorted(map(repr, got - expected))
                mismatches.append(f"{case.name} steps[{step}]: missing {missing}, extra {extra}")
    assert not mismatches, "\n".join(mismatches)
    assert checked >= len(LEGAL_SET_CASES) - len(OUT_OF_REACH)


def test_oracle_judges_every_command_of_every_case_as_the_case_does() -> None:
    """Beyond the counts: every case replays in the oracle, each command
    the case accepts legal for it (the host's ``Leave`` and ``TimeOut`` and
    every ``StartRound`` valid) and each one it rejects refused."""
    played, failures = 0, []
    for case in suite():
        if case.start_rejected or case.name in OUT_OF_REACH:
            continue
        try:
            for _ in replay(case.data):
                pass
        except (OracleError, OutOfReach) as error:
            failures.append(f"{case.name}: {error}")
        played += 1
    assert not failures, "\n".join(failures)
    assert played >= 400


def test_oracle_refuses_every_start_the_suite_refuses() -> None:
    refused = [c for c in suite() if c.start_rejected]
    assert refused
    for case in refused:
        with pytest.raises(OracleError):
            from_start(case.data)


# ------------------------------------------------------------------ premium
#
# The numbers below are counted by hand from the rules (001, docs/premium-design.md),
# each with its arithmetic, before the oracle ran: they test the oracle itself.


def _premium(
    players: int,
    hands: list[list[str]],
    discards: list[list[str]],
    deck: list[str],
    set_aside: str,
    **position: Any,
) -> State:
    """A Premium position; the cards not listed go to the first out player's pile
    (an out player's pile matters to nothing), or, with ``rest_to_deck``, under
    the deck."""
    rest_to_deck = position.pop("rest_to_deck", False)
    listed = Counter([*itertools.chain(*hands, *discards), *deck, set_aside])
    rest = sorted((Counter(deck_cards("premium", players)) - listed).elements())
    piles = [list(pile) for pile in discards]
    if rest_to_deck:
        deck = [*deck, *rest]
    elif rest:
        piles[min(position["out"])].extend(rest)
    face_up: list[str] = []
    return from_position(
        "premium",
        players,
        {
            "deck": deck,
            "set_aside": set_aside,
            "face_up": face_up,
            "hands": hands,
            "discards": piles,
            "current": position.pop("current", 0),
            "drawn": position.pop("drawn", True),
            **position,
        },
    )


def _cards(text: str) -> list[str]:
    return text.split()


def _piles(text: str) -> list[list[str]]:
    """One pile (or hand) per seat, separated by ``|``."""
    return [pile.split() for pile in text.split("|")]


def _eight_players(required: int | None) -> State:
    """Round one went 0 to 7 (seat 7 played a Sycophant); seat 0 has drawn again."""
    return from_position(
        "premium",
        8,
        {
            "deck": _cards(
                "Guard Guard Guard Handmaid Handmaid Prince Prince Bishop DowagerQueen"
                " Sycophant Baroness Baroness Cardinal Jester"
            ),
            "set_aside": "Assassin",
            "face_up": [],
            "hands": _piles("Guard Cardinal|Priest|Baron|King|Count|Princess|Countess|Constable"),
            "discards": _piles("Guard|Guard|Priest|Baron|Guard|Count|Guard|Sycophant"),
            "current": 0,
            "drawn": True,
            "required": required,
        },
    )


@pytest.mark.parametrize(
    ("required", "count"),
    [
        # Guard: 7 others x 9 numbers (0, 2..9) = 63; Cardinal: C(8, 2) = 28 pairs.
        (None, 63 + 28),
        # Guard: only seat 5, 9 numbers; Cardinal: the 7 pairs holding seat 5.
        (5, 9 + 7),
        # Required is the Guard's own player: no legal target, played with none
        # (1); Cardinal: the 7 pairs holding seat 0.
        (0, 1 + 7),
    ],
)
def test_premium_sycophant_requirement_eight_players(required: int | None, count: int) -> None:
    state = _eight_players(required)
    commands = legal_commands(state)
    assert len(commands) == count
    if required == 0:
        assert PlayCard(0, "Guard") in commands
    if required == 5:
        assert PlayCard(0, "Cardinal", 1, second_target=5) in commands
        assert PlayCard(0, "Cardinal", 5, second_target=1) not in commands  # ascending only
        assert PlayCard(0, "Guard", 5, 0) in commands
        assert PlayCard(0, "Guard", 5, 1) not in commands  # never 1


def _baroness_prince(required: int | None) -> State:
    """8 players: seat 7 knocked out by seat 0's Guard, seat 5 under a Handmaid,
    seat 6 played a Sycophant; seat 0 holds a Baroness and a Prince."""
    return from_position(
        "premium",
        8,
        {
            "deck": _cards(
                "Guard Guard Guard Guard Baron Handmaid Prince Bishop DowagerQueen Sycophant"
                " Baroness Cardinal Cardinal Jester Assassin"
            ),
            "set_aside": "Guard",
            "face_up": [],
            "hands": _piles("Baroness Prince|King|Baron|Count|Princess|Countess|Constable|"),
            "discards": _piles("Guard|Guard|Priest|Count|Guard|Handmaid|Sycophant|Priest"),
            "current": 0,
            "drawn": True,
            "out": [7],
            "protected": [5],
            "required": required,
        },
    )


@pytest.mark.parametrize(
    ("required", "count"),
    [
        # Others choosable: 1, 2, 3, 4, 6 (5 protected, 7 out). Baroness: 5 singles
        # + C(5, 2) = 10 pairs = 15; Prince: those 5 or seat 0 = 6.
        (None, 15 + 6),
        # Baroness: {3} and {3, y} for y in 1, 2, 4, 6 = 5; Prince: seat 3 only = 1.
        (3, 5 + 1),
        # Baroness by the required player: no effect (1); Prince: itself (1).
        (0, 1 + 1),
    ],
)
def test_premium_baroness_and_prince(required: int | None, count: int) -> None:
    state = _baroness_prince(required)
    commands = legal_commands(state)
    assert len(commands) == count
    if required is None:
        assert PlayCard(0, "Baroness", 2) in commands
        assert PlayCard(0, "Baroness", 2, second_target=6) in commands
        assert not any(  # seat 5 is protected
            isinstance(c, PlayCard) and 5 in (c.target, c.second_target) for c in commands
        )
    if required == 3:
        assert PlayCard(0, "Baroness", 1, second_target=3) in commands
        assert PlayCard(0, "Prince", 3) in commands


def test_premium_required_player_out_or_protected_is_refused() -> None:
    for required in (5, 7):  # protected, out: a Sycophant could not have chosen them
        with pytest.raises(OracleError):
            _baroness_prince(required)


def test_premium_countess_lock_by_name_only() -> None:
    # ruling 26: the King or the Prince forces the Countess; the Dowager Queen,
    # the Count and the Constable do not. 5 players, 4 others choosable.
    def hand(*cards: str) -> int:
        state = _premium(
            5,
            [list(cards), ["Guard"], ["Guard"], ["Guard"], ["Guard"]],
            [[], [], [], [], []],
            ["Priest"],
            "Princess",
            rest_to_deck=True,
        )
        return len(legal_commands(state))

    assert hand("Countess", "King") == 1
    assert hand("Countess", "Prince") == 1
    assert hand("Countess", "DowagerQueen") == 1 + 4  # Countess, Dowager x 4 others
    assert hand("Countess", "Count") == 2
    assert hand("Countess", "Constable") == 2


def test_premium_cardinal_then_the_look() -> None:
    state = _eight_players(None)
    after = apply(state, PlayCard(0, "Cardinal", 2, second_target=5))
    # cardinal.swap-two-players: seats 2 and 5 trade (Baron <-> Princess).
    assert after.hands[2] == ["Princess"] and after.hands[5] == ["Baron"]
    assert after.decision == "look" and after.current == 0
    assert legal_commands(after) == {LookAtHand(0, 2), LookAtHand(0, 5), Decline(0)}
    for answer in (LookAtHand(0, 5), Decline(0)):
        nxt = apply(after, answer)
        assert (nxt.decision, nxt.current, nxt.hands[1]) == ("play", 1, ["Priest", "Guard"])
    # The Cardinal's own player among the pair: looking at one's new hand is an option.
    mine = apply(state, PlayCard(0, "Cardinal", 0, second_target=3))
    assert mine.hands[0] == ["King"] and mine.hands[3] == ["Guard"]
    assert legal_commands(mine) == {LookAtHand(0, 0), LookAtHand(0, 3), Decline(0)}


def _bishop_duel(tokens: list[int]) -> State:
    """5 players, seats 2-4 out; seat 0 holds a Bishop and a Priest, seat 1 a Guard."""
    return _premium(
        5,
        [["Bishop", "Priest"], ["Guard"], [], [], []],
        [["Guard"], ["Guard"], ["Guard"], ["Guard"], ["Guard"]],
        ["Countess", "King"],
        "Count",
        out=[2, 3, 4],
        tokens=tokens,
    )


def test_premium_bishop_redraw_is_the_targets_decision() -> None:
    state = _bishop_duel([0, 0, 0, 0, 0])
    # Bishop: 1 other x 10 numbers (0..9, 1 included); Priest: 1.
    assert len(legal_commands(state)) == 10 + 1
    hit = apply(state, PlayCard(0, "Bishop", 1, 1))  # seat 1 holds a Guard: value 1
    assert hit.tokens[0] == 1
    assert (hit.decision, hit.current) == ("redraw", 0)
    assert legal_commands(hit) == {Redraw(1), Decline(1)}  # seat 1 answers, not seat 0
    redrawn = apply(hit, Redraw(1))
    assert redrawn.discards[1][-1] == "Guard" and redrawn.current == 1
    assert redrawn.hands[1] == ["Countess", "King"]  # the redraw, then the turn's draw
    kept = apply(hit, Decline(1))
    assert kept.hands[1] == ["Guard", "Countess"]
    miss = apply(state, PlayCard(0, "Bishop", 1, 2))
    assert miss.tokens[0] == 0 and miss.current == 1
    # bishop.correct-number-token, game.immediate-win: the fourth token ends the game.
    won = apply(_bishop_duel([3, 0, 0, 0, 0]), PlayCard(0, "Bishop", 1, 1))
    assert won.decision == "game-over" and legal_commands(won) == frozenset()


@pytest.mark.parametrize(
    ("tokens", "expected"),
    [
        # 1: Bishop x 10 numbers + Priest = 11.
        # 2: the hit (number 1): Redraw or Decline = 2; the 9 misses: seat 1 draws
        #    the Countess, Guard -> 0 x 9 numbers + Countess = 10 each, 90; the
        #    Priest: the same 10. 2 + 90 + 10 = 102.
        # 3: after Redraw, seat 1 holds Countess + King: the Countess only (1);
        #    after Decline, Guard + Countess: 10. After a miss (seat 0 holds the
        #    Priest): the Guard's number 2 ends the round, the 8 others and the
        #    Countess let seat 0 draw the King, Priest or King -> 1: (8 + 1) x 2 =
        #    18, x 9 misses = 162. After the Priest (seat 0 holds the Bishop): 8
        #    Guard numbers + the Countess, then Bishop x 10 + King = 11: 9 x 11 = 99.
        #    11 + 162 + 99 = 272.
        ([0, 0, 0, 0, 0], [11, 102, 272]),
        # With 3 tokens the hit wins the game at once: no redraw (2 - 2, 11 - 11).
        ([3, 0, 0, 0, 0], [11, 100, 261]),
    ],
)
def test_premium_perft_bishop_duel(tokens: list[int], expected: list[int]) -> None:
    assert perft(_bishop_duel(tokens), 3) == expected


def test_premium_perft_sycophant_and_cardinal() -> None:
    """5 players, seats 2-4 out, one card left in the deck."""
    state = _premium(
        5,
        [["Sycophant", "Cardinal"], ["Guard"], [], [], []],
        [["Guard"], ["Guard"], ["Guard"], ["Guard"], ["Guard"]],
        ["Baroness"],
        "Count",
        out=[2, 3, 4],
    )
    # 1: Sycophant -> 0 or 1; Cardinal: the pair (0, 1). 3.
    # 2: Sycophant -> 0: seat 1 draws the Baroness; Guard -> 0 x 9 numbers,
    #    Baroness -> {0} (no pair: one other player): 10. Sycophant -> 1: the
    #    requirement is seat 1's own: Guard and Baroness without effect: 2.
    #    Cardinal: LookAtHand 0, LookAtHand 1, Decline: 3. 10 + 2 + 3 = 15.
    # 3: the Sycophant lines emptied the deck: over. After the look (seat 1 holds
    #    the Sycophant, draws the Baroness): Sycophant -> 0 or 1, Baroness -> {0}:
    #    3 x 3 = 9.
    # 4: the deck is empty after seat 1's card: 0.
    assert perft(state, 4) == [3, 15, 9, 0]


def test_premium_perft_two_players() -> None:
    """The 16 cards, three face up; seat 1 to play, two cards left to draw."""
    state = from_position(
        "premium",
        2,
        {
            "deck": ["Handmaid", "Countess"],
            "set_aside": "Princess",
            "face_up": ["Prince", "Prince", "King"],
            "hands": [["Priest"], ["Guard", "Baron"]],
            "discards": [["Guard", "Handmaid", "Guard", "Priest"], ["Guard", "Guard", "Baron"]],
            "current": 1,
            "drawn": True,
        },
    )
    # 1: Guard -> 0 x 7 numbers (2..8) + Baron = 8.
    # 2: the Guard's 2 hits the Priest, the Baron loses (Guard 1 < Priest 2): both
    #    end the round; the 6 other numbers: seat 0 draws the Handmaid, Priest -> 1
    #    or Handmaid: 6 x 2 = 12.
    # 3: seat 1 draws the Countess: Baron -> 0 (or, behind a Handmaid, with no
    #    target) or Countess: 12 x 2 = 24.
    assert perft(state, 4) == [8, 12, 24, 0]
    assert PlayCard(1, "Guard", 0, 8) in legal_commands(state)
    assert PlayCard(1, "Guard", 0, "Priest") not in legal_commands(state)


def test_premium_showdown_tie_for_the_game_is_a_tie_break() -> None:
    """2 players at 6 tokens (7 to win), the last card drawn."""
    state = from_position(
        "premium",
        2,
        {
            "deck": [],
            "set_aside": "Princess",
            "face_up": ["Prince", "Prince", "King"],
            "hands": [["Handmaid", "Priest"], ["Priest"]],
            "discards": [
                ["Guard", "Handmaid", "Baron", "Guard"],
                ["Guard", "Baron", "Guard", "Countess", "Guard"],
            ],
            "current": 0,
            "drawn": True,
            "tokens": [6, 6],
        },
    )
    assert perft(state, 2) == [2, 0]
    # Handmaid: Priest against Priest, piles 1+4+3+1+4 = 13 and 1+3+1+7+1 = 13:
    # both win the round, both reach 7 in one award step: a tie, not a win.
    tied = apply(state, PlayCard(0, "Handmaid"))
    assert tied.tokens == [7, 7]
    assert (tied.decision, tied.tied) == ("next-round", (0, 1))
    # Priest: Handmaid 4 beats Priest 2: seat 0 alone reaches 7.
    won = apply(state, PlayCard(0, "Priest", 1))
    assert (won.tokens, won.decision) == ([7, 6], "game-over")
    # The tie-break round: both won the last round, so the caller names the first player.
    deck = ["Guard"] * 5 + ["Priest", "Priest", "Baron", "Baron", "Handmaid", "Handmaid"]
    deck += ["Prince", "Prince", "King", "Countess", "Princess"]
    with pytest.raises(OutOfReach):
        start_round(tied, deck, None)
    again = start_round(tied, deck, 1)
    assert again.contenders == (0, 1) and again.current == 1 and again.face_up


def _three_left(hands: list[list[str]], discards: list[list[str]], **position: Any) -> State:
    """8 players, seats 3-7 out, the deck empty: seat 0 plays the last card."""
    return _premium(8, hands, discards, [], "Guard", out=[3, 4, 5, 6, 7], **position)


def test_premium_showdown_cycle_goes_to_the_princess() -> None:
    # Seat 0 keeps the Countess: 7 + 1 Count = 8, pile 5 + 4 = 9; seat 1 the
    # Princess, 8, pile 1; seat 2 the Bishop, 9. 0 beats 1 (8 = 8, 9 > 1), 2 beats
    # 0 (9 > 8), 1 beats 2 (the Princess beats the Bishop): a cycle, the Princess wins.
    state = _three_left(
        [["Handmaid", "Countess"], ["Princess"], ["Bishop"], [], [], [], [], []],
        [["Count"], ["Guard"], ["Guard"], [], [], [], [], []],
        tokens=[3, 2, 3, 0, 0, 0, 0, 0],
    )
    after = apply(state, PlayCard(0, "Handmaid"))
    assert after.tokens[:3] == [3, 3, 3] and after.decision == "next-round"


def test_premium_showdown_countess_with_two_counts() -> None:
    # Seat 0 keeps the Countess with both Counts: 9, pile 5 + 5 + 4 = 14; the
    # Bishop 9 with pile 14 ties it; the Princess 8 loses to it. Nobody beats seat
    # 0; the Princess beats the Bishop: seat 0 alone wins (ruling 28, pairwise).
    state = _three_left(
        [["Handmaid", "Countess"], ["Princess"], ["Bishop"], [], [], [], [], []],
        [["Count", "Count"], ["Guard"], ["DowagerQueen", "King", "Guard"], [], [], [], [], []],
    )
    after = apply(state, PlayCard(0, "Handmaid"))
    assert after.tokens[:3] == [1, 0, 0] and after.round_winners == (0,)


def test_premium_dowager_queen_knocks_out_the_higher() -> None:
    # ruling 37: printed values; the Bishop (9) is higher than the Princess (8).
    state = _three_left(
        [["DowagerQueen", "Princess"], ["Bishop"], ["Guard"], [], [], [], [], []],
        [[], [], [], [], [], [], [], []],
        rest_to_deck=True,
    )
    after = apply(state, PlayCard(0, "DowagerQueen", 1))
    assert after.out >= {1} and 0 not in after.out and after.current == 2


def test_premium_assassin() -> None:
    def duel(seats_in: int, tokens: list[int], pile: list[str]) -> State:
        out = list(range(seats_in, 5))
        return _premium(
            5,
            [["Guard", "King"], ["Assassin"], *[["Priest"]] * (seats_in - 2), *[[]] * len(out)],
            [pile, [], *[[]] * (seats_in - 2), *[["Guard"]] * len(out)],
            ["Countess", "Baron"],
            "Count",
            out=out,
            tokens=tokens,
        )

    # Three in the round: seat 0's Guard on the Assassin (any number) knocks seat 0
    # out; seat 1 discards the Assassin, draws the Countess, then its turn's Baron.
    after = apply(duel(3, [0] * 5, []), PlayCard(0, "Guard", 1, 0))
    assert 0 in after.out and after.discards[0] == ["Guard", "King"]
    assert after.discards[1] == ["Assassin"] and after.hands[1] == ["Countess", "Baron"]
    assert (after.decision, after.current) == ("play", 1)
    # Two in the round: the knock-out ends the round; seat 1 keeps the Assassin.
    over = apply(duel(2, [0] * 5, []), PlayCard(0, "Guard", 1, 5))
    assert over.hands[1] == ["Assassin"] and over.tokens[:2] == [0, 1]
    # A Constable in seat 0's pile: its token (the fourth) wins the game at once.
    won = apply(duel(3, [3, 0, 0, 0, 0], ["Constable"]), PlayCard(0, "Guard", 1, 0))
    assert won.decision == "game-over" and won.hands[1] == ["Assassin"]


def test_premium_constable_token_and_round_win_tie() -> None:
    # The rulebook's Bob and Susan: both at 3 of 4; seat 0's Guard knocks out seat 1,
    # who has a Constable in their pile. The round win and the Constable token
    # form one award step: both reach 4, a tie for the game.
    state = _premium(
        5,
        [["Guard", "Priest"], ["King"], [], [], []],
        [[], ["Constable"], ["Guard"], ["Guard"], ["Guard"]],
        ["Countess"],
        "Count",
        out=[2, 3, 4],
        tokens=[3, 3, 0, 0, 0],
    )
    after = apply(state, PlayCard(0, "Guard", 1, 6))
    assert after.tokens[:2] == [4, 4]
    assert (after.decision, after.tied) == ("next-round", (0, 1))
    # A Constable in hand, discarded by the knock-out itself, gives nothing.
    state.discards[1], state.hands[1] = [], ["Constable"]
    assert apply(state, PlayCard(0, "Guard", 1, 6)).tokens[:2] == [4, 3]


def test_premium_jester_token_for_a_correct_mark() -> None:
    # Seat 2 marked seat 0 earlier and is out now; seat 0 wins the round.
    state = _premium(
        5,
        [["Guard", "Priest"], ["King"], [], [], []],
        [[], [], ["Jester", "Baron"], ["Guard"], ["Guard"]],
        ["Countess"],
        "Count",
        out=[2, 3, 4],
        marks=[[2, 0]],
    )
    after = apply(state, PlayCard(0, "Guard", 1, 6))
    assert after.tokens[:3] == [1, 0, 1]


def test_premium_tie_break_round() -> None:
    # Seats 0 and 2 tied at 4 tokens (5 players); the others sit out.
    state = _premium(
        5,
        [["Guard", "Priest"], [], ["Baron"], [], []],
        [[], [], [], [], []],
        [],
        "Count",
        contenders=[0, 2],
        tokens=[4, 3, 4, 3, 1],
        rest_to_deck=True,
    )
    assert state.out == {1, 3, 4}
    # Guard: seat 2 x 9 numbers; Priest: seat 2.
    assert len(legal_commands(state)) == 9 + 1
    # The first award step with a token decides: seat 0 wins the round alone.
    assert apply(state, PlayCard(0, "Guard", 2, 3)).decision == "game-over"
    # Contenders under the threshold, or a normal round with a player over it,
    # cannot occur.
    with pytest.raises(OracleError):
        _premium(
            5,
            [["Guard", "Priest"], [], ["Baron"], [], []],
            [[], [], [], [], []],
            [],
            "Count",
            contenders=[0, 2],
            tokens=[4, 3, 3, 3, 1],
            rest_to_deck=True,
        )
    with pytest.raises(OracleError):
        _bishop_duel([4, 0, 0, 0, 0])


def test_premium_parse_command() -> None:
    assert parse_command(
        {"type": "PlayCard", "player": 0, "card": "Cardinal", "target": 1, "second_target": 3}
    ) == PlayCard(0, "Cardinal", 1, None, 3)
    assert parse_command(
        {"type": "PlayCard", "player": 0, "card": "Guard", "target": 1, "guess": 0}
    )
    assert parse_command({"type": "LookAtHand", "player": 2, "owner": 4}) == LookAtHand(2, 4)
    assert parse_command({"type": "Redraw", "player": 1}) == Redraw(1)
    assert parse_command({"type": "Decline", "player": 1}) == Decline(1)
    assert parse_command({"type": "PlayCard", "player": 0, "card": "Guard", "guess": True}) is None
    assert parse_command({"type": "LookAtHand", "player": 2}) is None


@pytest.mark.parametrize("players", range(2, 9))
def test_premium_random_games_keep_the_oracle_consistent(players: int) -> None:
    """Whole games of random legal commands, tie-break rounds included: every
    card stays somewhere, hands have their sizes, and only a finished round or
    game has no command."""
    rng = random.Random(players)
    cards = sorted(Counter(deck_cards("premium", players)).elements())
    games = tie_breaks = 0
    while games < 30:
        deck = rng.sample(cards, len(cards))
        # Half the games start one token short everywhere: ties for the game.
        goal = tokens_to_win("premium", players)
        assert goal is not None
        tokens = [goal - 1] * players if games % 2 else None
        state = deal("premium", players, deck, rng.randrange(players), tokens)
        for _ in range(200):  # rounds; a game ends long before
            while state.decision not in ("next-round", "game-over"):
                _check_invariants(state, cards)
                commands = sorted(legal_commands(state), key=repr)
                assert commands, state
                state = apply(state, rng.choice(commands))
            assert legal_commands(state) == frozenset()
            if state.decision == "game-over":
                break
            tied = state.tied
            tie_breaks += bool(tied)
            deck = rng.sample(cards, len(cards))
            starts = []
            for seat in range(players):
                with contextlib.suppress(OracleError):  # not a seat that may start
                    starts.append(start_round(state, deck, seat))
            state = rng.choice(starts)
            assert state.contenders == tied
            assert state.in_round() == list(tied or range(players))
        assert state.decision == "game-over"
        games += 1
    if players >= 5:  # Constable and Jester tokens make ties for the game common enough
        assert tie_breaks


def _check_invariants(state: State, cards: list[str]) -> None:
    held = [*state.deck, *state.face_up, *itertools.chain(*state.hands, *state.discards)]
    if state.set_aside is not None:
        held.append(state.set_aside)
    else:
        assert not state.deck  # ruling 38: only an empty-deck draw takes it
    assert sorted(held) == cards
    alive = state.in_round()
    assert len(alive) >= 2 and state.current in alive
    for seat, hand in enumerate(state.hands):
        drawn = seat == state.current and state.decision == "play"
        assert len(hand) == (0 if seat in state.out else 2 if drawn else 1), state
    assert state.required is None or state.required in alive
    if state.contenders:
        assert set(alive) <= set(state.contenders)


# ------------------------------------------------------------------- online
#
# Counted by hand from the rules (004, docs/online-design.md), as above.


def _online(
    players: int,
    hands: list[list[str]],
    discards: list[list[str]] | None = None,
    deck_size: int | None = None,
    decks: int = 1,
    spare: int | None = None,
    **position: Any,
) -> State:
    """An online position whose cards not listed make up the deck (the
    first ``deck_size`` of them, sorted; the rest go to the pile of seat
    ``spare``, by default the first out player's: a pile matters to move
    generation only through its Counts and totals at a round's end)."""
    piles = [list(pile) for pile in discards or [[] for _ in hands]]
    listed = Counter(itertools.chain(*hands, *piles))
    rest = sorted((Counter(deck_cards("online", players, decks)) - listed).elements())
    if deck_size is not None:
        piles[min(position["out"]) if spare is None else spare].extend(rest[deck_size:])
        rest = rest[:deck_size]
    return from_position(
        "online",
        players,
        {
            "deck": rest,
            "set_aside": None,
            "hands": hands,
            "discards": piles,
            "current": position.pop("current", 0),
            "drawn": position.pop("drawn", True),
            **position,
        },
        {"decks": decks},
    )


@pytest.mark.parametrize(
    ("required", "count"),
    [
        # Others choosable: 1, 2, 3 (4 protected). Baroness: C(3, 2) + 3 doubles
        # = 6; Cardinal: ordered pairs of 0-3, 4 x 3 = 12.
        (None, 6 + 12),
        # Baroness: {1, 2}, {1, 3}, {1, 1} = 3; Cardinal: pairs holding 1, in
        # either order: 3 x 2 = 6.
        (1, 3 + 6),
        # Required is the player: the Baroness has no effect (1); the Cardinal
        # pairs seat 0 with one of 1-3, in either order (6).
        (0, 1 + 6),
    ],
)
def test_online_baroness_and_cardinal_choices(required: int | None, count: int) -> None:
    state = _online(
        5,
        [["Baroness", "Cardinal"], ["Guard"], ["Priest"], ["Baron"], ["King"]],
        [[], [], [], [], ["Handmaid"]],
        protected=[4],
        required=required,
        order=[0, 1, 2, 3, 4],
    )
    commands = legal_commands(state)
    assert len(commands) == count
    if required is None:
        assert PlayCard(0, "Baroness", 2, second_target=2) in commands  # one twice
        assert PlayCard(0, "Baroness", 3, second_target=1) not in commands  # lower first
        assert PlayCard(0, "Cardinal", 3, second_target=0) in commands  # either order
        assert PlayCard(0, "Cardinal", 2, second_target=2) not in commands
    if required == 0:
        assert PlayCard(0, "Baroness") in commands


def test_online_round_ends_with_the_last_card_in_the_pile() -> None:
    """round.end-pile-online, ruling 42: 3 players, one card left after the
    turn's draw. Any card ends the round; a Prince's replacement draw may
    take that last card (it stands for the set-aside card)."""
    state = _online(
        3,
        [["Prince", "Priest"], ["Guard"], ["Baron"]],
        [[], ["Guard"], ["Guard"]],
        deck_size=1,
        spare=1,
        order=[0, 1, 2],
    )
    # Prince: 0, 1 or 2 (3); Priest: 1 or 2 (2). Nothing follows: the round is over.
    assert perft(state, 2) == [5, 0]
    prince = apply(state, PlayCard(0, "Prince", 1))
    assert prince.deck == [] and len(prince.hands[1]) == 1 and prince.decision == "next-round"
    assert prince.set_aside is None


def test_online_turns_follow_the_drawn_order() -> None:
    """setup.turn-order-online: seat 2 then seat 0 then seat 1."""
    state = _online(
        3,
        [["Guard"], ["Baron"], ["Handmaid", "Priest"]],
        current=2,
        order=[2, 0, 1],
    )
    after = apply(state, PlayCard(2, "Handmaid"))
    assert after.current == 0 and after.turn_number == 2 and after.protected == {2}
    again = apply(after, PlayCard(0, "Guard", 1, 2))  # misses the Baron
    assert again.current == 1


def test_online_ranks_and_win_counters() -> None:
    """round.ranks-online, round.hand-bonus-online, game.win-counter-online,
    jester.partial-win-online (rulings 44-46)."""
    # 5 players, two decks (two Jesters): seat 4 went out first, seat 3
    # second; seats 0-2 remain. Seat 0 holds the Princess beside seat 1's
    # Bishop: 8 + 4 = 12 over 9. Seat 2's Guard, 1. Ranks 1, 2, 3, then seat
    # 3 (4 were in: 4), seat 4 (5).
    state = _online(
        5,
        [["Handmaid", "Princess"], ["Bishop"], ["Guard"], [], []],
        [["Jester"], ["Priest"], ["Priest"], ["Guard"], ["Jester"]],
        deck_size=1,
        decks=2,
        out=[3, 4],
        exits=[4, 3],
        marks=[[0, 2], [4, 0]],
        order=[0, 1, 2, 3, 4],
    )
    over = apply(state, PlayCard(0, "Handmaid"))
    assert over.ranks == (1, 2, 3, 4, 5) and over.round_winners == (0,)
    # seat 0 wins the round; seat 4's Jester marked seat 0: a partial win.
    assert over.tokens == [1, 0, 0, 0, 1]
    # The Countess with both Counts beside the Princess and a Bishop whose pile
    # (8) is lower than hers (14 with the Handmaid): 7 + 2 + 4 = 13 beats the
    # Princess's 8 + 4; the Bishop 9 is third.
    seven = _online(
        5,
        [["Handmaid", "Countess"], ["Princess"], ["Bishop"], [], []],
        [["Count", "Count"], ["Guard"], ["Priest", "Guard", "Guard", "Baron", "Guard"], [], []],
        deck_size=1,
        out=[3, 4],
        exits=[3, 4],
    )
    assert apply(seven, PlayCard(0, "Handmaid")).ranks == (1, 2, 3, 5, 4)


def test_online_leave_and_time_out() -> None:
    """online.leave-any-time, online.timeout-random-move (rulings 50, 51)."""
    state = _online(
        4,
        [["Guard", "Priest"], ["Baron"], ["Handmaid"], ["King"]],
        order=[0, 1, 2, 3],
        seed=5,
    )
    # The current player leaves: out, hand discarded, the next turn starts.
    gone = apply(state, Leave(0))
    assert gone.left == {0} and 0 in gone.out and gone.exits == (0,)
    assert gone.discards[0] == ["Guard", "Priest"] and gone.current == 1
    # Another player leaves: the turn stays, and a second leave is refused.
    other = apply(state, Leave(2))
    assert other.current == 0 and other.decision == "play" and 2 in other.out
    with pytest.raises(OracleError):
        apply(other, Leave(2))
    # Three leaves of four: the one player left ends the round, ranked first,
    # the leavers below by the order they left; one present closes the match.
    alone = apply(apply(other, Leave(3)), Leave(1))
    assert alone.decision == "game-over" and alone.ranks == (1, 2, 4, 3)
    with pytest.raises(OracleError):
        apply(alone, Leave(0))
    # A time-out makes one of the listed moves, from the seed; not another's.
    timed = apply(state, TimeOut(0))
    assert any(timed.discards == apply(state, c).discards for c in legal_commands(state))
    with pytest.raises(OracleError):
        apply(state, TimeOut(1))
    with pytest.raises(OracleError):
        apply(attrs_replace(state, random_moves=False), TimeOut(0))


def attrs_replace(state: State, **changes: Any) -> State:
    copy = state.copy()
    for name, value in changes.items():
        setattr(copy, name, value)
    return copy


def test_online_seeded_chance_follows_the_documented_shuffle() -> None:
    """The example of ``loveletter.chance`` (a documented value): four seats
    shuffled for round 1 of seed 1 with the purpose ``order``."""
    assert tuple(shuffle(range(4), 1, 1, "order")) == (2, 3, 1, 0)


# The lockstep with the engine: the oracle's own states and moves, the
# engine's, compared after every step.


def _oracle_command(command: engine_commands.Command) -> Command:
    """An engine's command as the oracle writes it (cards by name)."""
    if isinstance(command, engine_commands.PlayCard):
        return PlayCard(
            command.player, command.card.title, command.target, command.guess, command.second_target
        )
    if isinstance(command, engine_commands.Redraw):
        return Redraw(command.player)
    if isinstance(command, engine_commands.Decline):
        return Decline(command.player)
    assert isinstance(command, engine_commands.DrawCard), command
    return DrawCard(command.player)


def _differences(oracle: State, engine: Any) -> list[str]:
    """The fields in which the oracle's state and the engine's differ."""
    titles = [[card.title for card in zone] for zone in (engine.deck, *engine.hands)]
    in_round = oracle.decision not in ("next-round", "game-over")
    pairs = {
        "deck": (oracle.deck, titles[0]),
        "hands": (oracle.hands, titles[1:]),
        "discards": (oracle.discards, [[c.title for c in pile] for pile in engine.discards]),
        "out": (oracle.out, set(engine.out)),
        "protected": (oracle.protected, set(engine.protected)),
        "decision": (oracle.decision, engine.decision.value),
        "current": (oracle.current if in_round else None, engine.current if in_round else None),
        "tokens": (oracle.tokens, list(engine.tokens)),
        "required": (oracle.required, engine.required),
        "marks": (oracle.marks, engine.marks),
        "pending": (oracle.pending, engine.pending),
        "order": (oracle.order, engine.table.order),
        "exits": (oracle.exits, engine.exits),
        "left": (oracle.left, engine.table.left),
        "round": (oracle.round_number, engine.round_number),
        "turn": (
            oracle.turn_number if in_round else None,
            engine.turn_number if in_round else None,
        ),
        "set_aside": (oracle.set_aside, engine.set_aside),
    }
    if not in_round and engine.round_result is not None:
        pairs["ranks"] = (oracle.ranks, engine.round_result.ranks)
        pairs["winners"] = (oracle.round_winners, engine.round_result.winners)
    return [f"{name}: oracle {a!r}, engine {b!r}" for name, (a, b) in pairs.items() if a != b]


#: (players, decks): 3, 4, 5 and 8 players, each with 1, 2 or 3 decks
LOCKSTEP = ((3, 1), (3, 3), (4, 2), (5, 1), (5, 3), (8, 1), (8, 2), (8, 3))
#: matches per (players, decks), each of at least four rounds before its
#: players start to leave
MATCHES = 8


@pytest.mark.parametrize(("players", "decks"), LOCKSTEP)
def test_online_oracle_and_engine_agree_step_by_step(players: int, decks: int) -> None:
    ELeave, ETimeOut = engine_commands.Leave, engine_commands.TimeOut
    EStartRound = engine_commands.StartRound
    rng = random.Random(players * 10 + decks)
    perfts = steps = leaves = timeouts = deals = 0
    for match in range(MATCHES):
        seed = rng.randrange(2**64)
        first = rng.randrange(players)
        settings = ll.TableSettings(decks=decks)
        engine = ll.new_game("online", players, seed=seed, first_player=first, settings=settings)
        # the oracle shuffles the same deck from the seed itself
        deck = shuffle(canonical_deck("online", players, decks), seed, 1, "deck")
        oracle = deal("online", players, deck, first, decks=decks, seed=seed)
        assert not _differences(oracle, engine)
        rounds = 0
        while engine.decision is not ll.Decision.GAME_OVER:
            if engine.decision is ll.Decision.NEXT_ROUND:
                rounds += 1
                if rounds >= 4 and rng.random() < 0.5:
                    seat = rng.choice(oracle.present())
                    engine, oracle = ll.push(engine, ELeave(seat)), apply(oracle, Leave(seat))
                    leaves += 1
                elif rng.random() < 0.5:
                    # seeded: the oracle's own shuffles and choice of first player
                    engine = ll.push(engine, EStartRound())
                    oracle = start_round(oracle, None, None)
                else:
                    stacked = rng.sample(deck, len(deck))
                    present = oracle.present()
                    candidates = [s for s in oracle.round_winners if s in present] or present
                    order = [rng.choice(candidates)]
                    order += rng.sample([s for s in present if s not in order], len(present) - 1)
                    engine = ll.push(
                        engine,
                        EStartRound(tuple(Card.parse(c) for c in stacked), None, tuple(order)),
                    )
                    oracle = start_round(oracle, stacked, None, order)
                deals += 1
            else:
                listed = [c for c in ll.legal_commands(engine) if not isinstance(c, EStartRound)]
                assert frozenset(map(_oracle_command, listed)) == legal_commands(oracle)
                if steps % 7 == 0 and perfts < 20:
                    depth = 3 if players * decks <= 8 else 2
                    assert perft(oracle, depth) == engine_perft(engine, depth)
                    perfts += 1
                draw = rng.random()
                if draw < 0.003 or (rounds >= 4 and draw < 0.1):
                    seat = rng.choice(oracle.present())
                    engine, oracle = ll.push(engine, ELeave(seat)), apply(oracle, Leave(seat))
                    leaves += 1
                elif draw < 0.1:
                    actor = oracle.to_act()
                    engine = ll.push(engine, ETimeOut(actor))
                    oracle = apply(oracle, TimeOut(actor))
                    timeouts += 1
                else:
                    command = rng.choice(listed)
                    engine, oracle = (
                        ll.push(engine, command),
                        apply(oracle, _oracle_command(command)),
                    )
            steps += 1
            assert not _differences(oracle, engine), (match, steps)
    assert leaves >= MATCHES * (players - 1) and timeouts >= MATCHES
    assert deals >= 3 * MATCHES and perfts == 20
