"""``loveletter rules``: each form of the question answers with the spec's
own text (statements, rulings, case titles), and a question about nothing
says so with suggestions."""

from __future__ import annotations

import pytest

from loveletter.cli import main
from loveletter.narrative import card_name
from loveletter.reference.catalog import catalog
from loveletter.reference.sources import HASHED_NAME
from loveletter.rulesets import RULESETS
from loveletter.spec import load_spec

SPEC = load_spec()


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["rules", *argv, "--width", "100"])
    out, err = capsys.readouterr()
    return status, out, err


def _flat(text: str) -> str:
    """The output with its wrapping undone, to find sentences in it."""
    return " ".join(text.split())


def test_a_card_gives_its_rules_in_every_edition_with_rulings_and_case_titles(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = _run(capsys, "prince")
    assert status == 0, err
    assert out.startswith("Prince\n======\n")
    flat = _flat(out)
    prince_rules = [r for r in SPEC.rules.values() if r.topic == "prince"]
    assert len(prince_rules) >= 4
    for rule in prince_rules:
        assert f"\n{rule.id}\n" in out
        assert _flat(rule.statement) in flat
        for number in rule.rulings:
            assert f"Ruling {number}: {SPEC.rulings[number].title}" in flat
    for edition in ("2019", "2019 Classic", "Premium"):
        assert f"- {edition} " in out  # a case of each edition, by title
    for case in catalog().cases_by_rule["prince.any-player"]:
        assert _flat(case.title) in flat
    assert "Step 1." not in out  # titles only, unless --stories
    assert "Spanish name: Príncipe" in out


def test_a_rule_id_gives_that_rule_with_its_cases_told(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rule = SPEC.rules["prince.empty-deck-draws-set-aside"]
    status, out, err = _run(capsys, rule.id)
    assert status == 0, err
    assert out.startswith(f"{rule.id}\n{'=' * len(rule.id)}\n")
    flat = _flat(out)
    assert _flat(rule.statement) in flat
    assert "Ruling 9: The set-aside card is needed at most once" in flat
    cases = catalog().cases_by_rule[rule.id]
    implemented = flat.split("Implemented by: ")[1].split(f" * {len(cases)} cases")[0]
    assert "loveletter.cards.prince.prince" in implemented.split(", ")
    assert "Love Letter, Z-Man Games 2019, “Card Effects › (5) Prince”" in flat
    assert f"\n* {len(cases)} cases pin this rule\n" in out
    assert out.count("Step 1.") >= len(cases) - sum(c.start_rejected for c in cases)
    assert "Only Player" in out  # what one player alone learns is told apart


@pytest.mark.parametrize(
    "argv",
    [
        ["prince"],
        ["prince", "--stories"],
        ["round.end-deck-empty"],
        ["--edition", "2019"],
        ["--edition", "online"],
        ["setup"],
        ["empty", "deck"],
    ],
)
def test_no_answer_names_a_rulebook_by_its_file(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    status, out, err = _run(capsys, *argv)
    assert status == 0, err
    assert not HASHED_NAME.search(out), HASHED_NAME.search(out)


def test_no_ruling_names_a_rulebook_by_its_file(capsys: pytest.CaptureFixture[str]) -> None:
    """The rulings cite the rulebooks most: every one of them, in full."""
    for number in SPEC.rulings:
        status, out, err = _run(capsys, "--ruling", str(number), "--no-stories")
        assert status == 0, err
        assert not HASHED_NAME.search(out), (number, HASHED_NAME.search(out))
        assert "Love Letter" in out or "online" in out, number  # a book is named


def test_a_ruling_gives_question_sources_decision_reasoning_and_cases(
    capsys: pytest.CaptureFixture[str],
) -> None:
    ruling = SPEC.rulings[9]
    status, out, err = _run(capsys, "--ruling", "9")
    assert status == 0, err
    assert out.startswith(f"Ruling 9: {ruling.title}\n")
    flat = _flat(out)
    for heading in ("Question", "What the rulebooks say", "Decision", "Reasoning", "Cases"):
        assert f"\n{heading}\n" in out
    assert _flat(ruling.question) in flat
    assert _flat(ruling.decision) in flat
    for source in ruling.sources:
        assert _flat(source.says) in flat
    for case in catalog().cases_by_ruling[9]:
        assert _flat(case.title) in flat


def test_an_edition_gives_its_cards_tokens_rules_and_rulings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = _run(capsys, "--edition", "premium")
    assert status == 0, err
    assert out.startswith("Love Letter Premium Edition (AEG, 2016)\n")
    flat = _flat(out)
    premium = RULESETS["premium"]
    for card in premium.kinds:
        assert f"Card: {card_name(card)};" in flat, card
    for players, tokens in premium.tokens_to_win_table:
        assert f"Players: {players}; Tokens: {tokens}" in flat
    for rule in SPEC.rules_for("premium"):
        assert rule.id in flat
    assert "Ruling 31:" in flat and "Ruling 9:" not in flat


def test_an_alias_names_the_edition(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "--edition", "premium-2016")
    assert status == 0 and out.startswith("Love Letter Premium Edition")
    status, out, _ = _run(capsys, "--edition", "perpetual")
    assert status == 0 and out.startswith("Love Letter online")


def test_the_online_edition_gives_its_decks_settings_rules_and_rulings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = _run(capsys, "--edition", "online")
    assert status == 0, err
    online = RULESETS["online"]
    assert out.startswith(f"{online.title}\n")
    flat = _flat(out)
    # the players it seats, its two decks and the copies a table may play
    assert "Players: 3–8" in flat
    assert "16 cards per deck for 3–4 players" in flat and "2–4 players" not in flat
    assert "32 cards per deck for 5–8 players" in flat and "1 to 3 copies" in flat
    for card in online.kinds:
        info = SPEC.cards[card.title]
        effect = info.effect_in("online")
        assert effect is not None, card
        assert f"Card: {card_name(card)};" in flat, card
        assert _flat(effect.summary) in flat, card
    guards = (
        "Copies per deck, 3–4 players (standard): 5; Copies per deck, 5–8 players (Extended): 8"
    )
    assert guards in flat
    # no tokens to win, but the table's settings with their defaults
    assert "Favor tokens to win" not in out
    assert "Setting: decks; Default: 1" in flat and "Setting: random_moves; Default: true" in flat
    for rule in SPEC.rules_for("online"):
        assert rule.id in flat
    for number in range(41, 54):
        assert f"Ruling {number}: {SPEC.rulings[number].title}" in flat
    assert "Ruling 31:" not in flat and "Ruling 9:" not in flat
    # its column of the comparison, with the one showdown where it parts from Premium
    for aspect in SPEC.comparison:
        assert _flat(aspect.cells["online"].text) in flat, aspect.title


def test_a_card_in_the_online_edition_keeps_its_online_rules(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = _run(capsys, "baroness", "--edition", "online")
    assert status == 0, err
    assert "baroness.two-looks-online" in out and "baroness.look-one-or-two" not in out
    assert "- Premium " not in out
    status, out, err = _run(capsys, "chancellor", "--edition", "online")
    assert status == 1 and "no rules about chancellor" in err


def test_a_card_in_one_edition_keeps_that_editions_rules_and_cases(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = _run(capsys, "prince", "--edition", "premium")
    assert status == 0, err
    case_lines = [line for line in out.splitlines() if line.startswith("- 20")]
    assert not case_lines, case_lines  # no 2019 case
    assert "- Premium " in out
    status, out, err = _run(capsys, "spy", "--edition", "premium")
    assert status == 1 and "no rules about spy" in err


def test_a_rule_in_one_edition_keeps_that_editions_cases(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = _run(capsys, "prince.discard-and-draw", "--edition", "2019", "--no-stories")
    assert status == 0
    assert "- 2019 " in out and "- Premium " not in out and "- 2019 Classic " not in out
    status, _, err = _run(capsys, "spy.sole-spy-token", "--edition", "premium")
    assert status == 1 and "does not apply to the premium edition" in err


@pytest.mark.parametrize(
    "name", ["Dowager Queen", "DowagerQueen", "dowager-queen", "DOWAGER_QUEEN"]
)
def test_a_card_is_found_by_any_spelling_of_its_name(
    capsys: pytest.CaptureFixture[str], name: str
) -> None:
    status, out, _ = _run(capsys, name)
    assert status == 0 and out.startswith("Dowager Queen\n")


def test_a_card_is_found_by_its_spanish_name(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "Príncipe")
    assert status == 0 and out.startswith("Prince\n")
    status, out, _ = _run(capsys, "condesa")
    assert status == 0 and out.startswith("Countess\n")


def test_a_general_topic_and_a_case_are_answered(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "setup")
    assert status == 0 and "setup.first-player" in out
    case = catalog().cases_by_rule["prince.empty-deck-draws-set-aside"][0]
    status, out, _ = _run(capsys, case.name)
    assert status == 0
    assert _flat(case.title) in _flat(out) and "The case file:" in out


def test_words_list_the_rules_that_hold_them(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "set-aside", "empty")
    assert status == 0
    assert "prince.empty-deck-draws-set-aside —" in out
    assert out.startswith("Rules mentioning “set-aside empty”")


def test_no_query_lists_the_topics(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys)
    assert status == 0 and out.startswith("Rules reference\n")
    for title in ("Prince", "Setup and the start of each round", "Dowager Queen"):
        assert title in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["prnce"], "did you mean prince"),
        (["zzzz qqqq"], "nothing in the rules matches"),
        (["--ruling", "99"], "no ruling 99"),
        (["--ruling", "9", "prince"], "not both"),
        (["--edition", "online-2030"], "no edition 'online-2030'"),
    ],
)
def test_a_question_about_nothing_says_so(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = _run(capsys, *argv)
    assert status == 1
    assert out == ""
    assert message in err and err.startswith("loveletter rules: ")
