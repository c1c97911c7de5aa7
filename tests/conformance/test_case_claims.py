"""A case that says the tied discard piles add up equally has them so.

Many showdown cases give the tied players equal discard-pile totals, so
that a tie-break by total has nothing to break, and say so in their title
or description; an implementer reads that and trusts it. Suite 1.3 shipped
two cases (``2019/round/*three-way*-v2``) whose description said 13 each
while the step's own Handmaid took one pile to 17. Here every case whose
words claim equal totals is found by its wording, played through our
engine to the first round that ends in a showdown, and the players the
claim is about must share their hand number and their discard total there.

The claim is about the round's winners when they are several (a shared
win); the few cases whose equal totals are between other players name
them in :data:`CLAIMED_SEATS`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import attrs
import pytest

from loveletter.cards import Card
from loveletter.commands import Command
from loveletter.conformance import SUITE_ROOT, Case, load_case
from loveletter.conformance.execute import start_state
from loveletter.engine import step
from loveletter.errors import IllegalCommand, SerializationError
from loveletter.events import RoundEnded
from loveletter.serialization import from_data
from loveletter.state import GameState

from ._support import suite

#: the wordings by which a case claims that piles add up to the same total
_PILE = r"(?:discard[- ](?:pile )?)?"
CLAIM_WORDINGS = tuple(
    re.compile(pattern, re.IGNORECASE)
    for pattern in (
        rf"\bequal {_PILE}totals?\b",  # "equal discard totals", "equal total"
        r"\btotals? (?:are|is) (?:equal|the same)\b",
        r"\b(?:both|each|all)\b[^.;:]{0,40}\badds? up to\b",  # "both piles add up to 14"
        rf"\bboth {_PILE}totals are \d+",
        rf"\bsame {_PILE}totals?\b",
        r"\btotal equals\b",
        # "ties the Princess in number and discard total", "equal Barons and totals"
        rf"\b(?:equal|same|ties?|tied)\b[^.;]{{0,30}}\band {_PILE}totals?\b",
        rf"\bstill tied after (?:the )?{_PILE}totals?\b",
        r"\bnothing to break\b",
        r"\bcould separate them\b",
    )
)

#: the wordings that also state the equal total: its digits are group 1
STATED_TOTAL_WORDINGS = tuple(
    re.compile(pattern, re.IGNORECASE)
    for pattern in (
        r"\b(?:both|each|all)\b[^.;:]{0,40}\badds? up to (\d+)",
        rf"\bboth {_PILE}totals are (\d+)",
        rf"\bequal {_PILE}totals \((\d+)(?: each| and \1)\)",  # "(14 each)", "(14 and 14)"
    )
)

#: claims about players other than the round's shared winners: the seats
#: whose piles the case says add up equally
CLAIMED_SEATS: dict[str, tuple[int, ...]] = {
    # the Bishop and the unlifted Countess share rank 2 below the Princess
    "online/scoring/seven-with-two-counts-equal-total-to-bishop-is-not-lifted"
    "-princess-ranks-first": (1, 2),
    # the Countess with two Counts ties the Bishop, whom the Princess beats
    "premium/round/showdown-seven-with-two-counts-ties-bishop-and-wins": (1, 2),
    # the Princess and the Countess with one Count tie; the Bishop beats her
    "premium/round/showdown-tied-with-the-princess-but-beaten-by-the-bishop-does-not-share": (0, 2),
}

WITHDRAWN = SUITE_ROOT / "withdrawn"


def _words(case: Case) -> str:
    """``case``'s title and description, on one line."""
    return re.sub(r"\s+", " ", " ".join((case.title, str(case.data.get("description", "")))))


def claims_equal_totals(case: Case) -> list[str]:
    """The phrases of ``case``'s title and description that claim equal
    discard totals (empty: it claims none)."""
    text = _words(case)
    return [match.group(0) for wording in CLAIM_WORDINGS for match in wording.finditer(text)]


def stated_totals(case: Case) -> set[int]:
    """The totals ``case``'s words give the equal piles (empty: none)."""
    text = _words(case)
    return {int(m.group(1)) for wording in STATED_TOTAL_WORDINGS for m in wording.finditer(text)}


@attrs.frozen
class Showdown:
    """The end of a round by comparison: the state just after it, and who
    was compared."""

    state: GameState
    winners: tuple[int, ...]
    revealed: tuple[tuple[int, Card], ...]

    def hand_number(self, seat: int) -> int:
        """The seat's printed hand value plus its pile's Count bonuses
        (``count.showdown-bonus``); no pairwise or online lift."""
        ruleset = self.state.table.ruleset
        card = dict(self.revealed)[seat]
        bonus = sum(ruleset.showdown_bonus[c] for c in self.state.discards[seat])
        return ruleset.values[card] + bonus

    def discard_total(self, seat: int) -> int:
        """The printed values of the seat's own pile added up (ruling 40)."""
        values = self.state.table.ruleset.values
        return sum(values[card] for card in self.state.discards[seat])


def showdowns(case: Case) -> Iterator[Showdown]:
    """Every round of ``case`` that ends by a comparison of hands, played
    through our engine (a refused command leaves the game as it was)."""
    state, _ = start_state(case.data)
    result = state.round_result
    if result is not None and result.revealed:
        yield Showdown(state, result.winners, result.revealed)
    for item in case.data["steps"]:
        if "command" not in item:
            continue
        try:
            state, events = step(state, from_data(item["command"], Command))
        except (SerializationError, IllegalCommand):
            continue
        for event in events:
            if isinstance(event, RoundEnded) and event.revealed:
                yield Showdown(state, event.winners, event.revealed)


def claim_problems(case: Case) -> list[str]:
    """Why ``case``'s claim of equal totals does not hold at its first
    showdown (empty: it holds)."""
    first = next(showdowns(case), None)
    if first is None:
        return ["no round of it ends in a showdown"]
    seats = CLAIMED_SEATS.get(case.name, first.winners)
    if len(seats) < 2:
        return [
            f"one winner ({list(seats)}): name in CLAIMED_SEATS the players whose totals "
            "it says are equal"
        ]
    compared = dict(first.revealed)
    missing = [seat for seat in seats if seat not in compared]
    if missing:
        return [f"seats {missing} are not compared at the showdown"]
    numbers = {seat: first.hand_number(seat) for seat in seats}
    totals = {seat: first.discard_total(seat) for seat in seats}
    problems = []
    if len(set(numbers.values())) > 1:
        problems.append(f"seats {list(seats)} do not tie: hand numbers {numbers}")
    if len(set(totals.values())) > 1:
        problems.append(f"the discard totals differ when the round ends: {totals}")
    for stated in sorted(stated_totals(case)):
        if set(totals.values()) != {stated}:
            problems.append(f"it says they add up to {stated}, but they are {totals}")
    return problems


CLAIMING = [case for case in suite() if claims_equal_totals(case)]


@pytest.mark.parametrize("case", CLAIMING, ids=lambda case: case.name)
def test_a_claim_of_equal_discard_totals_holds_at_the_showdown(case: Case) -> None:
    problems = claim_problems(case)
    assert not problems, f"{case.name} claims {claims_equal_totals(case)}: {problems}"


def test_the_claims_are_found_in_every_edition() -> None:
    """The wordings find the claims the suite is known to make (a wording
    that stopped matching would leave its cases unchecked)."""
    names = {case.name for case in CLAIMING}
    assert {case.ruleset for case in CLAIMING} == {"2019", "2019-classic", "premium", "online"}
    assert {
        "2019/round/deck-empty-three-way-tie-equal-discard-totals-all-win-v3",
        "2019/round/three-way-tie-next-round-first-player-among-the-three-v3",
        "2019/round/deck-empty-tie-equal-discard-totals-both-win-v2",
        "premium/game/two-players-still-tied-showdown-ties-the-game",
        "online/turn-order/next-round-order-must-start-with-a-previous-rank-one-player",
    } <= names
    assert set(CLAIMED_SEATS) <= names, "CLAIMED_SEATS names a case that claims nothing"
    # the stated totals are read too: 13 in a classic shared win, 14 in a
    # 2019 pair, 15 in the Premium game that ends tied
    by_name = {case.name: case for case in CLAIMING}
    for name, total in (
        ("2019-classic/round/equal-totals-tie-shares-win-and-tied-winner-starts-next", 13),
        ("2019/round/equal-totals-tie-next-round-refuses-non-winner-accepts-tied-winner-v2", 14),
        ("premium/game/two-players-still-tied-showdown-ties-the-game", 15),
    ):
        assert stated_totals(by_name[name]) == {total}, name


def test_totals_that_differ_or_decide_are_not_claims() -> None:
    """Cases that say the totals differ, or that a tie goes to the larger
    one, are not taken for claims of equal totals."""
    names = {case.name for case in CLAIMING}
    assert names.isdisjoint(
        {
            "2019/round/deck-empty-tie-all-win-no-tiebreak-v2",
            "premium/round/showdown-count-tie-won-on-discard-total",
            "premium/scenarios/tied-showdown-goes-to-the-higher-discard-total",
        }
    )


@pytest.mark.parametrize(
    "relative",
    [
        "2019/round/deck-empty-three-way-tie-equal-discard-totals-all-win-v2.yaml",
        "2019/round/three-way-tie-next-round-first-player-among-the-three-v2.yaml",
    ],
)
def test_the_withdrawn_three_way_ties_fail_the_check(relative: str) -> None:
    """The two cases withdrawn for this claim: their piles end 13, 17, 13."""
    case = load_case(WITHDRAWN / relative)
    assert claims_equal_totals(case)
    assert claim_problems(case) == [
        "the discard totals differ when the round ends: {0: 13, 1: 17, 2: 13}",
        "it says they add up to 13, but they are {0: 13, 1: 17, 2: 13}",
    ]
