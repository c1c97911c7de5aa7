"""The reason a story gives for a showdown is the one that decided it (issue
20, "Narration that never lies").

Every showdown of the conformance suite (found by playing each case through
our engine) and a few thousand random ones (2019, 2019-classic, Premium at 5
to 8 players with its Counts, Bishop and Princess, online) are checked
three ways:

- the verdict (:func:`loveletter.showdown.judge`) agrees with the engine's
  winners and with ruling 28 restated here from scratch: every defeat it
  names holds, by the criterion that decides that pair;
- the line the narrator tells is the one rendered from the verdict judged
  on the engine's own state (so the story's facts are the engine's);
- the line, read back with regular expressions, states only true things:
  each "A beats B" claim holds by the criterion it names, every player who
  did not win is accounted for, and a circle is called one.

The last tests show the checks catch a narrator that works out its reason
on its own, as the narrator did before this issue.
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Iterator, Sequence

import attrs
import pytest

import loveletter as ll
from loveletter.cards import Card
from loveletter.commands import Command, PlayCard
from loveletter.conformance.cases import Case
from loveletter.conformance.execute import ScriptError, start_state
from loveletter.errors import IllegalCommand, SerializationError
from loveletter.events import RoundEnded, RoundEndReason
from loveletter.narrative import Narrator, default_name, tell_verdict
from loveletter.positions import to_position
from loveletter.ranking import adjusted_values
from loveletter.reference.catalog import catalog
from loveletter.reference.stories import tell
from loveletter.resources import suite_root
from loveletter.rulesets import RoundTie, Ruleset, Scoring, get_ruleset
from loveletter.serialization import from_data
from loveletter.showdown import Criterion, Verdict, judge
from loveletter.state import Decision, GameState

CASES = suite_root() / "cases"
Piles = tuple[tuple[Card, ...], ...]
Revealed = tuple[tuple[int, Card], ...]


@attrs.frozen
class Found:
    """A round ended by the deck, as the engine ended it."""

    where: str
    before: GameState  # the state the RoundEnded event applies to
    ended: RoundEnded

    @property
    def rules(self) -> Ruleset:
        return self.before.ruleset

    @property
    def round_name(self) -> str:
        return f"round {self.before.round_number}"


# --------------------------------------------------------------------------
# ruling 28 (and online's ruling 45), restated without the library's tables


def number(rules: Ruleset, seat: int, revealed: Revealed, piles: Piles) -> int:
    """A hand's number: its value, plus one per Count in its pile (ruling
    28); online, the engine's adjusted value (ruling 45)."""
    if rules.scoring is Scoring.RANKS:
        return adjusted_values(rules, revealed, piles)[seat]
    card = dict(revealed)[seat]
    counts = piles[seat].count(Card.COUNT) if Card.COUNT in rules.deck else 0
    return rules.value(card) + counts


def total(rules: Ruleset, pile: Sequence[Card]) -> int | None:
    """A pile's total where the edition breaks ties by it (Premium, online)."""
    if rules.scoring is Scoring.RANKS or rules.round_tie is RoundTie.DISCARD_TOTAL:
        return sum(rules.value(card) for card in pile)
    return None


def how_beaten(rules: Ruleset, a: int, b: int, revealed: Revealed, piles: Piles) -> str | None:
    """How ``a`` beats ``b``: "card", "number", "discard total", or None."""
    cards = dict(revealed)
    if rules.scoring is not Scoring.RANKS and {cards[a], cards[b]} == {
        Card.PRINCESS,
        Card.BISHOP,
    }:
        return "card" if cards[a] is Card.PRINCESS else None
    na, nb = number(rules, a, revealed, piles), number(rules, b, revealed, piles)
    if na != nb:
        return "number" if na > nb else None
    ta, tb = total(rules, piles[a]), total(rules, piles[b])
    if ta is not None and tb is not None and ta > tb:
        return "discard total"
    return None


def unbeaten(rules: Ruleset, revealed: Revealed, piles: Piles) -> list[int]:
    seats = [seat for seat, _ in revealed]
    return [s for s in seats if not any(how_beaten(rules, o, s, revealed, piles) for o in seats)]


# --------------------------------------------------------------------------
# the checks


def check_verdict(found: Found) -> Verdict:
    """The verdict judged on the engine's state agrees with the engine and
    with ruling 28; returns it."""
    rules, ended, piles = found.rules, found.ended, found.before.discards
    revealed = ended.revealed
    verdict = judge(rules, revealed, piles)
    where = found.where
    assert verdict.winners == ended.winners, where
    if ended.ranks is not None:
        assert verdict.winners == tuple(s for s, _ in revealed if ended.ranks[s] == 1), where
    free = unbeaten(rules, revealed, piles)
    assert verdict.cycle is (not free), where
    if free:
        assert list(verdict.winners) == free, where
    else:  # ruling 28: the circle goes to the Princess
        assert [dict(revealed)[s] for s in verdict.winners] == [Card.PRINCESS], where
    for hand in verdict.hands:
        assert hand.number == number(rules, hand.seat, revealed, piles), where
        assert hand.total == total(rules, piles[hand.seat]), where
    beaten = [d.seat for d in verdict.defeats]
    losers = [s for s, _ in revealed if verdict.cycle or s not in verdict.winners]
    assert beaten == losers, where
    for defeat in verdict.defeats:
        how = how_beaten(rules, defeat.beaten_by, defeat.seat, revealed, piles)
        assert how == defeat.criterion.value, where
        # a reason names a winner wherever one beats the player
        if any(how_beaten(rules, w, defeat.seat, revealed, piles) for w in verdict.winners):
            assert defeat.beaten_by in verdict.winners, where
    return verdict


SEATS = r"Player \d(?:(?:, | and )Player \d)*"


def seats_in(text: str) -> list[int]:
    return [int(seat) for seat in re.findall(r"Player (\d)", text)]


def check_line(found: Found, line: str) -> None:
    """``line`` (the narrated reason) states only true things, and accounts
    for every player who did not win. Read back independently of how the
    narrator words it, beyond the phrases matched here."""
    rules, ended, piles = found.rules, found.ended, found.before.discards
    revealed, winners = ended.revealed, ended.winners
    where = f"{found.where}: {line}"

    def beats(a: int, b: int) -> str | None:
        return how_beaten(rules, a, b, revealed, piles)

    def num(seat: int) -> int:
        return number(rules, seat, revealed, piles)

    others = [s for s, _ in revealed if s not in winners]
    short = re.fullmatch(
        rf"({SEATS}) has the highest (card|number) and wins {found.round_name}\.", line
    )
    if short:
        (winner,) = winners
        assert seats_in(short[1]) == [winner], where
        assert all(beats(winner, s) == "number" for s in others), where
        return
    tie = re.fullmatch(
        rf"({SEATS}) tie with the highest (card|number)( and the same discard total \((\d+)\))?,"
        rf" and all win {found.round_name}\.",
        line,
    )
    if tie:
        assert seats_in(tie[1]) == list(winners) and len(winners) > 1, where
        assert all(any(beats(w, s) == "number" for w in winners) for s in others), where
        assert len({num(w) for w in winners}) == 1, where
        if tie[3]:
            assert {total(rules, piles[w]) for w in winners} == {int(tie[4])}, where
        return
    broken = re.fullmatch(
        rf"({SEATS}) tie with the highest (card|number); the highest discard total breaks the"
        rf" tie \(([^)]*)\): ({SEATS}) (wins|all win) {found.round_name}\.",
        line,
    )
    if broken:
        tied = seats_in(broken[1])
        assert seats_in(broken[4]) == list(winners), where
        assert len({num(s) for s in tied}) == 1, where
        for seat, told_total in re.findall(r"Player (\d) (\d+)", broken[3]):
            assert total(rules, piles[int(seat)]) == int(told_total), where
        for s in others:
            how = [beats(w, s) for w in winners]
            assert ("discard total" if s in tied else "number") in how, where
        return
    # the detailed form: "W wins round N, as nobody beats them: claim; claim."
    # or, in a circle, "Everybody is beaten by someone: claims. The rules give
    # such a circle to the Princess (ruling 28): W wins round N."
    circle = re.fullmatch(
        rf"Everybody is beaten by someone: (.+)\. The rules give such a circle to the"
        rf" Princess \(ruling 28\): ({SEATS}) wins {found.round_name}\.",
        line,
    )
    detailed = re.fullmatch(
        rf"({SEATS}) (?:wins {found.round_name}, as nobody beats them|tie at (\d+)"
        rf"(?: and the same discard total \(\d+\))?, and nobody beats them: they all win"
        rf" {found.round_name}): (.+)\.",
        line,
    )
    assert circle or detailed, where
    if circle:
        assert not unbeaten(rules, revealed, piles), where
        assert seats_in(circle[2]) == list(winners), where
        claims = circle[1]
    else:
        assert detailed is not None
        assert seats_in(detailed[1]) == list(winners), where
        assert set(unbeaten(rules, revealed, piles)) == set(winners), where
        claims = detailed[3]
    accounted: set[int] = set()
    for claim in claims.split("; "):
        by_number = re.fullmatch(r"Player (\d)'s (\d+) beats (.+)", claim)
        by_card = re.fullmatch(r"Player (\d)'s (\w+) beats (.+) whatever the numbers", claim)
        by_total = re.fullmatch(
            rf"Player (\d) ties ({SEATS}) at (\d+) and wins on discard total \((\d+) against"
            r" ([\d, and]+)\)",
            claim,
        )
        ties = re.fullmatch(
            rf"Player (\d) ties ({SEATS}) at (\d+)( with the same discard total \((\d+)\))?,"
            " so neither beats the other",
            claim,
        )
        if by_card:
            a = int(by_card[1])
            assert dict(revealed)[a].name.title() == by_card[2], where
            for b, card in re.findall(r"Player (\d)'s (\w+)", by_card[3]):
                assert dict(revealed)[int(b)].name.title() == card, where
                assert beats(a, int(b)) == "card", where
                accounted.add(int(b))
        elif by_number:
            a = int(by_number[1])
            assert num(a) == int(by_number[2]), where
            for b, told in re.findall(r"Player (\d)'s (\d+)", by_number[3]):
                assert num(int(b)) == int(told), where
                assert beats(a, int(b)) == "number", where
                accounted.add(int(b))
        elif by_total:
            a, beaten = int(by_total[1]), seats_in(by_total[2])
            assert total(rules, piles[a]) == int(by_total[4]), where
            told_totals = [int(t) for t in re.findall(r"\d+", by_total[5])]
            assert told_totals == [total(rules, piles[b]) for b in beaten], where
            for b in beaten:
                assert num(a) == num(b) == int(by_total[3]), where
                assert beats(a, b) == "discard total", where
                accounted.add(b)
        elif ties:
            a = int(ties[1])
            for b in seats_in(ties[2]):
                assert num(a) == num(b) == int(ties[3]), where
                if ties[4]:
                    assert total(rules, piles[a]) == total(rules, piles[b]) == int(ties[5]), where
                assert beats(a, b) is None and beats(b, a) is None, where
        else:
            raise AssertionError(f"a claim the checks cannot read: {claim!r} in {where}")
    expected = {s for s, _ in revealed} if circle else set(others)
    assert accounted == expected, where


def check_told(found: Found, lines: Sequence[str]) -> None:
    """The story's lines for the round's end: the hands, then the reason."""
    verdict = check_verdict(found)
    where = found.where
    if found.ended.ranks is not None:
        # online: the hands with their adjusted values, then the ranks
        head = lines[0]
        assert head.startswith("The pile is down to one card or none"), where
        for hand in verdict.hands:
            shown = re.search(rf"Player {hand.seat} the [\w ]+ \(([^)]+)\)", head)
            assert shown is not None and shown[1].split(": ")[-1] == str(hand.number), where
        first = re.search(r"first (Player \d(?:(?: and |, )Player \d)*)", lines[1])
        assert first is not None and seats_in(first[1]) == list(verdict.winners), where
        return
    assert lines[0].startswith(f"The deck is empty, so {found.round_name} ends."), where
    for hand in verdict.hands:  # the numbers shown are the ones compared
        shown = re.search(rf"Player {hand.seat} the [\w ]+ \(([^)]+)\)", lines[0])
        assert shown is not None and shown[1].split(": ")[-1] == str(hand.number), where
    assert lines[1] == tell_verdict(verdict, default_name, found.round_name), where
    check_line(found, lines[1])


# --------------------------------------------------------------------------
# the suite's showdowns


def ends_by_the_deck(state: GameState, events: Sequence[ll.Event], where: str) -> Iterator[Found]:
    for event in events:
        if isinstance(event, RoundEnded) and event.reason is RoundEndReason.DECK_EMPTY:
            yield Found(where, state, event)
        state = ll.evolve(state, event)


@functools.cache
def suite_showdowns() -> tuple[tuple[Case, int, Found], ...]:
    """(case, step index, showdown) for every round the deck ends in the
    suite, as our engine plays the cases."""
    found = []
    for case in catalog().cases:
        try:
            state, _ = start_state(case.data)
        except ScriptError:
            continue
        for number, item in enumerate(case.data["steps"]):
            if "command" not in item:
                continue
            try:
                command = from_data(item["command"], Command)
                after, events = ll.step(state, command)
            except (SerializationError, IllegalCommand):
                continue
            where = f"{case.name} step {number + 1}"
            found += [(case, number, f) for f in ends_by_the_deck(state, events, where)]
            state = after
    return tuple(found)


def story_lines(case: Case, step: int) -> list[str]:
    happens = list(tell(case).steps[step].happens)
    start = next(
        i
        for i, line in enumerate(happens)
        if line.startswith(("The deck is empty, so", "The pile is down to one card"))
    )
    return happens[start : start + 2]


def test_every_showdown_of_the_suite_is_told_with_the_reason_that_decided() -> None:
    showdowns = suite_showdowns()
    for case, step, found in showdowns:
        check_told(found, story_lines(case, step))
    editions = {found.rules.name for _, _, found in showdowns}
    assert editions == {"2019", "2019-classic", "premium", "online"}
    verdicts = [judge(f.rules, f.ended.revealed, f.before.discards) for _, _, f in showdowns]
    criteria = {d.criterion for v in verdicts for d in v.defeats}
    assert criteria == set(Criterion) and any(v.cycle for v in verdicts)
    assert len(showdowns) > 100


def test_the_case_whose_story_gave_a_false_reason() -> None:
    (found,) = [
        (case, step, f)
        for case, step, f in suite_showdowns()
        if case.name == "premium/round/showdown-seven-with-two-counts-ties-bishop-and-wins"
    ]
    assert story_lines(found[0], found[1])[1] == (
        "Player 2 wins round 6, as nobody beats them: Player 2's 9 beats Player 0's 8; Player"
        " 0's Princess beats Player 1's Bishop whatever the numbers; Player 1 ties Player 2 at"
        " 9 with the same discard total (16), so neither beats the other."
    )


# --------------------------------------------------------------------------
# random showdowns

#: cards a player can play with the deck empty to no effect on anyone else
QUIET = (Card.HANDMAID, Card.CONSTABLE, Card.SPY, Card.ASSASSIN)


def random_showdown(rng: random.Random, name: str, players: int) -> tuple[GameState, PlayCard]:
    """A state with an empty deck where the current player is to play a
    quiet card, ending the round: random hands and piles, Premium's Princess,
    Bishop and Counts often together among the players still in."""
    rules = get_ruleset(name)
    state = ll.new_game(name, players, seed=rng.randrange(1 << 30))
    cards = list(rules.deck_for(players))
    rng.shuffle(cards)
    live = sorted(rng.sample(range(players), rng.randint(2, players)))
    current = rng.choice(live)
    quiet = rng.choice([c for c in QUIET if c in cards])
    cards.remove(quiet)
    hands: dict[int, list[Card]] = {}
    piles: dict[int, list[Card]] = {seat: [] for seat in range(players)}
    special = rules.scoring is not Scoring.RANKS or rng.random() < 0.5
    if Card.BISHOP in cards and special and rng.random() < 0.7:
        for card, seat in zip((Card.PRINCESS, Card.BISHOP), rng.sample(live, 2), strict=True):
            cards.remove(card)
            hands[seat] = [card]
        if rng.random() < 0.7:  # a 7 raised by the Counts
            seat = rng.choice(live)
            for _ in range(rng.randint(1, 2)):
                cards.remove(Card.COUNT)
                piles[seat].append(Card.COUNT)
            if seat not in hands and rng.random() < 0.7:
                seven = rng.choice([c for c in (Card.COUNTESS, Card.DOWAGER_QUEEN) if c in cards])
                cards.remove(seven)
                hands[seat] = [seven]
    for seat in live:
        if seat not in hands:
            hands[seat] = [cards.pop()]
    hands[current].append(quiet)
    for seat in range(players):
        if seat not in live:  # a player out has discarded their hand at least
            piles[seat].append(cards.pop())
    for seat in range(players):
        for _ in range(rng.randint(0, min(5, len(cards)))):
            piles[seat].append(cards.pop())
        rng.shuffle(piles[seat])
    out = frozenset(seat for seat in range(players) if seat not in live)
    table = state.table
    if table.order:  # online: the round's order holds everyone dealt in
        table = attrs.evolve(table, order=tuple(range(players)))
    state = attrs.evolve(
        state,
        table=table,
        decision=Decision.PLAY,
        current=current,
        turn_number=20,
        deck=(),
        hands=tuple(tuple(hands.get(seat, ())) for seat in range(players)),
        discards=tuple(tuple(piles[seat]) for seat in range(players)),
        out=out,
        protected=frozenset(),
        sightings=(),
        exits=tuple(sorted(out)) if rules.scoring is Scoring.RANKS else (),
    )
    return state, PlayCard(current, quiet)


RANDOM = (
    ("2019", 4),
    ("2019-classic", 4),
    ("premium", 5),
    ("premium", 6),
    ("premium", 7),
    ("premium", 8),
    ("online", 6),
)


@pytest.mark.parametrize(("name", "players"), RANDOM)
def test_random_showdowns_are_told_with_the_reason_that_decided(name: str, players: int) -> None:
    rng = random.Random(f"{name} {players}")
    criteria: set[Criterion] = set()
    cycles = 0
    for trial in range(400):
        state, command = random_showdown(rng, name, players)
        _, events = ll.step(state, command)
        narrator = Narrator(viewer=players)  # what the whole table is told
        narrator.join(to_position(state))
        told = narrator.narrate(events)
        (found,) = ends_by_the_deck(state, events, f"{name} {players}, trial {trial}")
        start = next(i for i, line in enumerate(told) if " ends. Hands shown: " in line)
        check_told(found, told[start : start + 2])
        verdict = judge(found.rules, found.ended.revealed, found.before.discards)
        criteria |= {d.criterion for d in verdict.defeats}
        cycles += verdict.cycle
    ranked = get_ruleset(name).scoring is Scoring.RANKS
    if name == "premium":
        assert criteria == set(Criterion) and cycles
    elif ranked:
        assert criteria == {Criterion.NUMBER, Criterion.DISCARD_TOTAL}
    else:
        assert criteria == {Criterion.NUMBER}


# --------------------------------------------------------------------------
# the checks can fail


def showdown_at(name: str) -> tuple[Case, int, Found]:
    return next(item for item in suite_showdowns() if item[0].name == name)


def test_the_old_narration_is_caught() -> None:
    """The narrator before issue 20 worked its reason out on its own: the
    checks reject what it said of a tie no discard total broke, and of a
    circle it called "the Princess beats the Bishop"."""
    found = showdown_at("premium/round/showdown-seven-with-two-counts-ties-bishop-and-wins")[2]
    old = (
        "Player 1 and Player 2 tie with the highest number; the highest discard total breaks"
        " the tie (Player 1 16, Player 2 16): Player 2 wins round 6."
    )
    with pytest.raises(AssertionError):
        check_line(found, old)
    cycles = [
        f
        for _, _, f in suite_showdowns()
        if unbeaten(f.rules, f.ended.revealed, f.before.discards) == []
    ]
    assert cycles
    for found in cycles:
        (winner,) = found.ended.winners
        old = f"The Princess beats the Bishop: Player {winner} wins {found.round_name}."
        with pytest.raises(AssertionError):
            check_line(found, old)


def test_a_narrator_reasoning_on_its_own_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """A narrator whose verdict is not the engine's (here: Counts ignored)
    tells another reason, and the check of every suite showdown fails."""
    import loveletter.narrative as narrative

    def without_counts(rules: Ruleset, revealed: Revealed, piles: Piles) -> Verdict:
        bare = tuple(tuple(c for c in pile if c is not Card.COUNT) for pile in piles)
        return judge(rules, revealed, bare)

    monkeypatch.setattr(narrative, "judge", without_counts)
    with pytest.raises(AssertionError):
        for case, step, found in suite_showdowns():
            check_told(found, story_lines(case, step))


def test_a_verdict_naming_a_criterion_that_did_not_decide_is_caught() -> None:
    found = showdown_at("premium/round/showdown-seven-with-two-counts-ties-bishop-and-wins")[2]
    # the Bishop does not lose to the Countess on discard total: they tie
    false = (
        "Player 2 wins round 6, as nobody beats them: Player 2's 9 beats Player 0's 8; Player 2"
        " ties Player 1 at 9 and wins on discard total (16 against 16)."
    )
    with pytest.raises(AssertionError):
        check_line(found, false)
