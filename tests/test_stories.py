"""Conformance cases told as stories: every case can be told, each step in
its place, and a secret reaches only the player who may know it."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from loveletter.conformance.cases import Case, load_case
from loveletter.reference.catalog import catalog
from loveletter.reference.stories import CaseStory, StepStory, tell
from loveletter.resources import suite_root

CASES = suite_root() / "cases"

#: phrases the narrator uses only for what one player may know: a look, a
#: comparison's cards, a drawn or dealt card, the Chancellor's cards
SECRET = re.compile(
    r" sees the "
    r"|compare hands in secret: "
    r"| draws the (?!last card)"
    r"|for the Chancellor: "
    r"|dealt to each (tied )?player: "
    r"|takes the set-aside card, the "
    r"| puts the "
)


@functools.cache
def suite() -> tuple[Case, ...]:
    # read once by the catalog (test_case_format runs the strict reader)
    return tuple(catalog().cases)


@functools.cache
def story(name: str) -> CaseStory:
    return tell(load_case(CASES / f"{name}.yaml"))


def learned(step: StepStory, seat: int) -> tuple[str, ...]:
    return dict(step.learns).get(seat, ())


def text(lines: tuple[str, ...]) -> str:
    return "\n".join(lines)


def test_every_case_is_told_step_by_step() -> None:
    secrets_told = 0
    for case in suite():
        told = tell(case)
        where = case.name
        assert (told.name, told.title) == (case.name, case.title), where
        assert told.setup and all(line.strip() for line in told.setup), where
        if case.start_rejected:
            assert told.steps == (), where
            assert told.setup[-1].startswith("The rules refuse this start"), where
            continue
        assert len(told.steps) == len(case.data["steps"]), where
        for number, (step, item) in enumerate(zip(told.steps, case.data["steps"], strict=True)):
            at = f"{where} step {number + 1}"
            if "checks" in item:
                assert step.move is None, at
                assert len(step.checks) >= len(item["checks"]) > 0, at
                assert (step.happens, step.learns) == ((), ()), at
            elif "rejected" in item:
                assert step.move is not None, at
                assert step.move.endswith(f": refused ({item['rejected']})."), at
                assert (step.happens, step.learns, step.checks) == ((), (), ()), at
            else:
                assert step.move is not None and "refused" not in step.move, at
                assert step.happens, at
                seats = [seat for seat, _ in step.learns]
                assert seats == sorted(set(seats)), at
                assert all(0 <= seat < case.players and lines for seat, lines in step.learns), at
                assert not any(SECRET.search(line) for line in step.happens), at
                secrets_told += sum(
                    1 for _, lines in step.learns for line in lines if SECRET.search(line)
                )
            lines = [step.move or "", *step.happens, *step.checks]
            lines += [line for _, told_to in step.learns for line in told_to]
            assert all("None" not in line and "<" not in line for line in lines), at
    # the check above is not vacuous: the secrets are told, to their players
    assert secrets_told > 300


def test_refused_moves_and_a_forced_self_target() -> None:
    told = story("2019/prince/prince-all-others-protected-must-choose-self")
    assert "Protected: Player 1, Player 2." in told.setup
    assert told.setup[-1] == "Player 0 is to play (has drawn)."
    assert "Hands: Player 0 holds the Prince and the Guard; Player 1 holds the Baron;" in text(
        told.setup
    )
    checks, to_one, to_two, untargeted, prince, after = told.steps
    assert checks.move is None
    assert checks.checks == ("The legal commands are: P0 Prince on P0; P0 Guard.",)
    assert (
        to_one.move == "Player 0 tries to play the Prince on Player 1: refused (target-protected)."
    )
    assert (
        to_two.move == "Player 0 tries to play the Prince on Player 2: refused (target-protected)."
    )
    assert untargeted.move == (
        "Player 0 tries to play the Prince with no target: refused (target-required)."
    )
    assert prince.move == "Player 0 plays the Prince on Player 0."
    assert "Player 0 discards the Guard without using it." in prince.happens
    # the new cards are seen by their drawers only
    assert learned(prince, 0) == ("Player 0 draws the Guard.",)
    assert learned(prince, 1) == ("Player 1 draws the King.",)
    assert learned(prince, 2) == ()
    assert "King" not in text(prince.happens)
    assert "Player 2 is protected." in after.checks
    assert "Player 1 is to act." in after.checks
    assert "Hands: Player 0 holds the Guard; Player 1 holds the Baron and the King;" in text(
        after.checks
    )


def test_a_priest_look_is_learned_by_its_player_alone() -> None:
    (priest, checks) = story("2019/priest/priest-only-the-viewer-sees-the-card").steps
    assert priest.move == "Player 0 plays the Priest on Player 1."
    assert "Player 0 looks at Player 1's hand in secret." in priest.happens
    assert "King" not in text(priest.happens)
    assert learned(priest, 0) == ("Player 0 looks at Player 1's hand and sees the King.",)
    assert "King" not in text(learned(priest, 1) + learned(priest, 2))
    assert (
        "Player 0's view shows: hand the Guard; shown Player 1's King (via the Priest, turn 1)."
        in checks.checks
    )


def test_a_baron_comparison_is_learned_by_the_two_compared() -> None:
    (baron, _) = story("2019/baron/baron-tie-knocks-out-nobody").steps
    assert baron.move == "Player 0 plays the Baron against Player 1."
    assert "Player 0 and Player 1 compare hands in secret. It is a tie: no one is out." in (
        baron.happens
    )
    shown = "compare hands in secret: Player 0 has the Guard (1), Player 1 the Guard (1)."
    assert any(shown in line for line in learned(baron, 0))
    assert any(shown in line for line in learned(baron, 1))
    assert learned(baron, 2) == ()
    assert "Guard" not in text(baron.happens)


def test_a_dowager_queen_reveals_only_the_loser_to_the_table() -> None:
    refused, queen, _ = story(
        "premium/dowager-queen/dowager-queen-higher-card-is-knocked-out-secretly"
    ).steps
    assert refused.move == (
        "Player 0 tries to play the Dowager Queen against Player 0: refused (target-not-allowed)."
    )
    # the knocked-out Prince is discarded face up; Player 0's Guard stays secret
    assert any("discarding the Prince" in line for line in queen.happens)
    assert "Guard" not in text(queen.happens)
    shown = "Player 0 has the Guard (1), Player 2 the Prince (5)."
    assert any(shown in line for line in learned(queen, 0))
    assert any(shown in line for line in learned(queen, 2))
    for seat in (1, 3, 4):
        assert "Guard (1)" not in text(learned(queen, seat))


def test_a_king_trade_tells_each_trader_the_card_they_gave() -> None:
    king, _ = story("2019/king/king-trades-hands-only-the-two-players-learn-the-cards").steps
    assert "Player 0 and Player 1 trade hands." in king.happens
    assert "Baron" not in text(king.happens)
    assert "Player 1 now holds the Guard, the card Player 0 gave them." in learned(king, 0)
    assert "Player 0 now holds the Baron, the card Player 1 gave them." in learned(king, 1)
    assert learned(king, 2) == ()


def test_a_cardinal_swap_and_look() -> None:
    cardinal, waiting, look, _ = story(
        "premium/cardinal/cardinal-swaps-two-other-players-and-its-player-looks-at-one"
    ).steps
    assert cardinal.move == "Player 0 plays the Cardinal on Player 2 and Player 4."
    assert "Princess" not in text(cardinal.happens)
    assert learned(cardinal, 2) == (
        "Player 4 now holds the Princess, the card Player 2 gave them.",
    )
    assert learned(cardinal, 4) == ("Player 2 now holds the Priest, the card Player 4 gave them.",)
    assert learned(cardinal, 0) == ()
    assert "The legal commands are: P0 look at P2; P0 look at P4; P0 decline." in waiting.checks
    assert look.move == "Player 0 looks at Player 4's hand."
    assert "Player 0 looks at Player 4's hand in secret." in look.happens
    assert "Princess" not in text(look.happens)
    assert "Player 0 looks at Player 4's hand and sees the Princess." in learned(look, 0)
    for seat in (2, 3, 4):
        assert "sees" not in text(learned(look, seat))


def test_a_chancellor_s_cards_are_its_player_s_alone() -> None:
    told = story("2019/chancellor/chancellor-returns-cards-under-deck-in-listed-order-v2")
    shown = "Shown earlier this round: Player 2 saw Player 0's Chancellor (via the Priest, turn 3)."
    assert shown in told.setup
    drew, kept, after = told.steps
    assert drew.move == "Player 0 plays the Chancellor."
    assert drew.happens == (
        "Player 0 plays the Chancellor.",
        "Player 0 draws 2 cards for the Chancellor.",
    )
    assert learned(drew, 0) == (
        "Player 0 draws 2 cards for the Chancellor: the Priest and the Baron.",
    )
    assert kept.move == (
        "Player 0 keeps the Guard and puts the Priest and then the Baron at the bottom of the deck."
    )
    assert "Player 0 keeps one card and puts 2 cards at the bottom of the deck." in kept.happens
    assert "Priest" not in text(kept.happens)
    assert "It is turn 5." in after.checks


def test_a_deal_says_who_starts_and_what_each_holds() -> None:
    told = story("2019/setup/deal-two-players-three-face-up")
    assert "First player: Player 0." in told.setup
    assert "Removed face up: the King, the Princess and the Spy." in told.setup
    assert "Hands: Player 0 holds the Guard and the Countess; Player 1 holds the Priest." in (
        told.setup
    )


def test_a_start_the_rules_refuse() -> None:
    told = story("2019/positions/position-without-set-aside-card-refused")
    assert told.steps == ()
    assert "No card is set aside." in told.setup
    assert told.setup[-1].startswith("The rules refuse this start (set_aside): ")
    told = story("2019/setup/one-player-game-refused")
    assert told.setup[0].endswith(", 1 player.")
    assert told.setup[-1].startswith("The rules refuse this start (players): ")


def test_a_malformed_command_is_told_from_its_fields() -> None:
    steps = story("2019/commands/malformed-commands-are-rejected-as-malformed-command").steps
    assert steps[0].move == (
        'Player 0 tries to give a command that is not well formed (type "PassTurn", player 0):'
        " refused (malformed-command)."
    )
    assert steps[3].move is not None and steps[3].move.startswith("A player tries")


@pytest.mark.parametrize(
    ("name", "check"),
    [
        ("2019/baron/baron-tie-knocks-out-nobody", "There are 18 legal commands."),
        (
            "2019/baron/baron-tie-knocks-out-nobody",
            "Legal command sequences from here: 18 of length 1, 332 of length 2.",
        ),
        ("2019/setup/later-round-deal-reports-its-round-number", "It is round 4."),
        (
            "2019/setup/later-round-deal-reports-its-round-number",
            "Favor tokens: Player 0 has 1, Player 1 has 0, Player 2 has 2.",
        ),
    ],
)
def test_checks_in_words(name: str, check: str) -> None:
    assert any(check in step.checks for step in story(name).steps)


# -- online: the table's settings, the drawn order, leaving, time-outs, ranks

ONLINE_CASE = """\
format: 1.3
id: online-story-sample
title: An online round told from a position, with leaving and a time-out
rules: [online.leave-any-time, online.timeout-random-move]
ruleset: online
players: 3
settings: {decks: 1, turn_time_ms: 5000, random_moves: true, intermission_ms: 0}
start:
  position:
    deck: [Guard, Priest, Baron, Guard, Guard, Guard, Priest, Baron, Handmaid, Prince, Prince,
           Countess]
    set_aside: null
    hands: [[Guard, Handmaid], [Princess], [King]]
    discards: [[], [], []]
    current: 0
    drawn: true
    order: [0, 2, 1]
    seed: 7
    round_number: 3
    tokens: [1, 0, 2]
steps:
  - checks:
      order: [0, 2, 1]
      exits: []
      left: []
      win_counters: [1, 0, 2]
  - command: {type: Leave, player: 1}
    accepted: true
  - command: {type: TimeOut, player: 0}
    accepted: true
  - checks:
      ranks: [1, 3, 2]
      exits: [1, 2]
      left: [1]
      round_result: {reason: one-player-left, winners: [0], ranks: [1, 3, 2]}
      views:
        - {player: 2, order: [0, 2, 1], left: [1], exits: [1, 2], tokens: [2, 0, 2]}
"""


@pytest.fixture
def online(tmp_path: Path) -> CaseStory:
    # a case of its own, so the words do not hang on the suite's cases
    path = tmp_path / "online" / "leave" / "online-story-sample.yaml"
    path.parent.mkdir(parents=True)
    path.write_text(ONLINE_CASE, encoding="utf-8")
    return tell(load_case(path))


def test_an_online_start_tells_its_settings_order_counters_and_seed(online: CaseStory) -> None:
    assert online.setup[1] == (
        "Table settings: 1 deck, a turn time of 5 s, random moves on, 0 s between rounds."
    )
    assert "Win counters: Player 0 has 1, Player 1 has 0, Player 2 has 2." in online.setup
    assert "Turn order: Player 0, Player 2, Player 1." in online.setup
    assert "No card is set aside." in online.setup
    assert "The game's seed is 7." in online.setup
    assert not any("Favor" in line for line in online.setup)
    checks = online.steps[0].checks
    assert checks == (
        "The turn order is Player 0, Player 2 and Player 1.",
        "No one has gone out of the round.",
        "No one has left the table.",
        "Win counters: Player 0 has 1, Player 1 has 0, Player 2 has 2.",
    )


def test_leaving_and_a_time_out_are_told_as_moves(online: CaseStory) -> None:
    _, leave, timeout, _ = online.steps
    assert leave.move == "Player 1 leaves the table."
    assert any("Princess" in line for line in leave.happens)  # the hand goes face up
    assert timeout.move == "The host says Player 0's time is up."
    assert timeout.happens  # the random move's events, told by the narrator


def test_an_online_round_end_is_told_with_its_ranks(online: CaseStory) -> None:
    checks = online.steps[-1].checks
    assert checks[0] == "Ranks: Player 0 rank 1, Player 1 rank 3, Player 2 rank 2."
    assert checks[1] == "Gone out of the round, in this order: Player 1, Player 2."
    assert checks[2] == "Player 1 has left the table."
    assert checks[3] == (
        "The round ended with one player left, won by Player 0;"
        " ranks: Player 0 rank 1, Player 1 rank 3, Player 2 rank 2."
    )
    assert checks[4] == (
        "Player 2's view shows: turn order Player 0, Player 2, Player 1; left the table"
        " Player 1; gone out, in order, Player 1 and Player 2; win counters (Player 0: 2,"
        " Player 1: 0, Player 2: 2)."
    )


def test_an_online_deal_tells_its_turn_order_and_no_set_aside_card() -> None:
    told = story("online/setup/deal-three-players-in-the-drawn-order")
    assert "The turn order is stacked: Player 2, Player 0, Player 1." in told.setup
    assert "No card is set aside." in told.setup
    assert not any(line.startswith(("First player", "Turn order")) for line in told.setup)
    # an order drawn from the seed is told once the deal has drawn it
    told = story("online/setup/first-round-named-first-player-swapped-into-the-drawn-order")
    drawn = "The turn order is drawn from the game's seed, Player 1 swapped to its head."
    assert drawn in told.setup
    assert "Turn order: Player 1, Player 3, Player 2, Player 0." in told.setup
