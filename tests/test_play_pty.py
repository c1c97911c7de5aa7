"""``loveletter play`` as a person meets it: the installed program, run in a
pseudo-terminal, read and answered prompt by prompt.

Standard library only (``os.openpty``, ``select``, ``subprocess``). Every
read has a deadline, so a program that hangs or stops asking fails the test
within seconds instead of blocking the run; every program is killed at the
end of its test, whatever happened.
"""

from __future__ import annotations

import codecs
import os
import re
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import loveletter as ll
from loveletter.narrative import card_name
from loveletter.notation import format_command
from loveletter.spec import load_spec

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")

#: the installed command, next to the interpreter running the tests
PROGRAM = Path(sys.executable).with_name("loveletter")

#: the prompts ``play`` waits at
CHOICE = re.compile(r"Your choice \(1-(\d+)(, b to go back)?, \? for help, q to quit\): ")
#: the same, online: ``l`` leaves the match
CHOICE_ONLINE = re.compile(
    r"Your choice \(1-(\d+)(, b to go back)?, \? for help, l to leave, q to quit\): "
)
PROMPT = re.compile(
    r"(?P<choice>Your choice \(1-(?P<count>\d+)[^)]*\): )"
    r"|(?P<enter>Press Enter to [^(]*\(\? for help, (?:l to leave, )?q to quit\): )"
    r"|(?P<end>(?:You win!|You lose\.|Your win counter: [^\n]*?) \(Seed (?P<seed>\d+):"
    r" play this deal again with --seed (?P=seed)\.\))"
    r"|(?P<abandoned>Game abandoned\.)"
    r"|(?P<confirm>Really make this move\? \(y/N\): )"
)


class Terminal:
    """``loveletter ARGS`` with a pseudo-terminal for its stdin, stdout and
    stderr, as a person at a terminal runs it."""

    def __init__(self, *args: str) -> None:
        master, slave = os.openpty()
        env = {**os.environ, "TERM": "dumb", "PYTHONIOENCODING": "utf-8"}
        self.process = subprocess.Popen(
            [str(PROGRAM), *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            start_new_session=True,
            close_fds=True,
            env=env,
        )
        os.close(slave)
        self.master = master
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        #: everything the program wrote (and the terminal echoed), newlines as "\n"
        self.text = ""
        #: where the next ``expect`` starts looking
        self.position = 0
        self.closed = False

    def _read(self, deadline: float, wanted: object) -> None:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise AssertionError(
                f"timed out waiting for {wanted!r}; the screen ends:\n{self.tail()}"
            )
        ready, _, _ = select.select([self.master], [], [], remaining)
        if not ready:
            return
        try:
            data = os.read(self.master, 65536)
        except OSError:  # EIO: the program closed the terminal (it ended)
            data = b""
        if not data:
            self.closed = True
            raise AssertionError(f"the program ended before {wanted!r}; it ended:\n{self.tail()}")
        self.text += self._decoder.decode(data).replace("\r\n", "\n")

    def tail(self, size: int = 3000) -> str:
        return self.text[-size:]

    def expect(self, pattern: str | re.Pattern[str], timeout: float = 10) -> re.Match[str]:
        """Wait for ``pattern`` after what was already expected; move past it."""
        regex = re.compile(re.escape(pattern)) if isinstance(pattern, str) else pattern
        deadline = time.monotonic() + timeout
        while True:
            match = regex.search(self.text, self.position)
            if match:
                self.position = match.end()
                return match
            self._read(deadline, regex.pattern)

    def quiet(self, seconds: float = 0.3) -> str:
        """Whatever the program writes within ``seconds`` (nothing, when it
        is waiting for input)."""
        before = len(self.text)
        deadline = time.monotonic() + seconds
        while (remaining := deadline - time.monotonic()) > 0:
            ready, _, _ = select.select([self.master], [], [], remaining)
            if ready:
                try:
                    data = os.read(self.master, 65536)
                except OSError:
                    break
                if not data:
                    break
                self.text += self._decoder.decode(data).replace("\r\n", "\n")
        return self.text[before:]

    def send(self, line: str) -> None:
        os.write(self.master, (line + "\n").encode())

    def wait(self, timeout: float = 10) -> int:
        """Read to the end of the output; the exit status."""
        deadline = time.monotonic() + timeout
        while not self.closed:
            try:
                self._read(deadline, "the end of the output")
            except AssertionError:
                if not self.closed:
                    raise
        return self.process.wait(max(0.1, deadline - time.monotonic()))

    def close(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(5)
        os.close(self.master)


@pytest.fixture
def run() -> Iterator[type[Terminal]]:
    """``run(*args)`` starts the program; every one is ended after the test."""
    started: list[Terminal] = []

    class Started(Terminal):
        def __init__(self, *args: str) -> None:
            super().__init__(*args)
            started.append(self)

    yield Started
    for terminal in started:
        terminal.close()


def _seed_with_a_guard(players: int) -> tuple[int, ll.PlayerView, str]:
    """A 2019 seed whose first move gives seat 0 a Guard and another card
    to choose from, its view, and the Guard's number in the card menu."""
    for seed in range(1000):
        seen = ll.view(ll.new_game("2019", players, seed=seed), 0)
        cards = list(
            dict.fromkeys(c.card for c in seen.legal_commands if isinstance(c, ll.PlayCard))
        )
        if ll.Card.GUARD in cards and len(cards) == 2:
            return seed, seen, str(cards.index(ll.Card.GUARD) + 1)
    raise AssertionError("no such seed")


def _answer_until(terminal: Terminal, wanted: str) -> None:
    """Take the first option of every menu and Enter at every pause until
    the program writes ``wanted``."""
    regex = re.compile(rf"(?P<wanted>{re.escape(wanted)})|{PROMPT.pattern}")
    while not (match := terminal.expect(regex))["wanted"]:
        assert not match["end"] and not match["abandoned"], terminal.tail()
        terminal.send("1" if match["choice"] else "y" if match["confirm"] else "")


def _answer_every_prompt(terminal: Terminal, menus: list[int]) -> re.Match[str]:
    """Take the first option of every menu, Enter at every pause and yes to
    a move that knocks the player out, to the game's end; the sizes of the
    menus go to ``menus``."""
    while True:
        match = terminal.expect(PROMPT)
        if match["choice"]:
            menus.append(int(match["count"]))
            terminal.send("1")
        elif match["confirm"]:
            terminal.send("y")
        elif match["enter"]:
            terminal.send("")
        else:
            return match


def test_a_whole_game_by_menu_saved_and_replayed(run: type[Terminal], tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    terminal = run("play", "--players", "4", "--seed", "11", "--save", str(path))
    menus: list[int] = []
    end = _answer_every_prompt(terminal, menus)
    assert end["end"], terminal.tail()
    assert terminal.wait() == 0
    text = terminal.text
    assert menus and max(menus) <= 9  # short menus: at most the Guard's nine names
    assert "Press Enter to deal round 2" in text
    # the seed is told once, at the end
    assert text.count("Seed 11") == 1 and text.index("Seed 11") > text.index("=== Round 1 ")
    assert "Traceback" not in text
    # the record replays to the tokens the final screen shows
    record = ll.load_record(path)
    outcome = record.outcome()
    assert outcome is not None and record.seed == 11
    final = text[text.rindex("===") :]
    for seat, tokens in enumerate(outcome.tokens):
        counted = ll.get_ruleset("2019").tokens(tokens)  # "1 favor token", "3 favor tokens"
        you = " (you)" if seat == 0 else "      "
        assert re.search(rf"\n  Player {seat}{re.escape(you)}  {counted} ", final), final
    assert ll.replay(record.events).tokens == outcome.tokens
    assert f"The game is saved in {path}" in text


def test_the_guard_is_asked_in_three_short_steps_and_b_goes_back(run: type[Terminal]) -> None:
    seed, first, guard = _seed_with_a_guard(3)
    guards = [
        c for c in first.legal_commands if isinstance(c, ll.PlayCard) and c.card is ll.Card.GUARD
    ]
    terminal = run("play", "--players", "3", "--seed", str(seed))
    terminal.expect("Which card will you play?")
    assert terminal.expect(CHOICE)[1] == "2"  # the two cards in hand
    terminal.send(guard)
    terminal.expect("Whom does the Guard choose?\n   1. Player 1\n   2. Player 2\n")
    choice = terminal.expect(CHOICE)
    assert choice[1] == "2" and choice[2]  # two players; "b" is offered
    terminal.send("b")
    terminal.expect("Which card will you play?")  # back to the card
    terminal.expect(CHOICE)
    terminal.send(guard)
    terminal.expect("Whom does the Guard choose?")
    terminal.expect(CHOICE)
    terminal.send("2")
    terminal.expect("Which card does the Guard name?\n")
    names = {c.guess for c in guards if c.target == 2}
    assert terminal.expect(CHOICE)[1] == str(len(names)) == "9"
    menu = terminal.text[terminal.text.rindex("Which card does the Guard name?") :]
    assert re.search(r"   2\. Priest \(2\) +P0 Guard on P2 naming Priest\n", menu)
    terminal.send("2")
    terminal.expect(re.compile(r"Player 0 plays the Guard on Player 2, naming the Priest — "))
    terminal.expect(CHOICE)
    terminal.send("q")
    terminal.expect("Game abandoned.")
    assert terminal.wait() == 0


def test_help_shows_the_cards_rules_from_the_spec(run: type[Terminal]) -> None:
    spec = load_spec()
    statement = spec.rules["guard.correct-guess-eliminates"].statement
    seed, _, _ = _seed_with_a_guard(3)
    terminal = run("play", "--players", "3", "--seed", str(seed))
    terminal.expect(CHOICE)
    terminal.send("? Guard")
    terminal.expect("Guard (1): 6 in the deck\n")
    shown = terminal.expect(CHOICE)
    told = " ".join(terminal.text[shown.start() - 2000 : shown.start()].split())
    assert statement in told
    assert "Which card will you play?" in told  # the menu is shown again
    terminal.send("?")  # the topics, in a few lines
    terminal.expect("Help topics: ")
    listed = terminal.expect(CHOICE)
    topics = terminal.text[terminal.text.rindex("Help topics: ") : listed.start()]
    assert topics.count("\n  ? ") == 6 and "Which card will you play?" in topics
    terminal.send("? commands")
    terminal.expect("How to answer:")
    terminal.expect(CHOICE)
    terminal.send("help notation")
    terminal.expect("move notation")
    terminal.expect("Seats are numbered from 0: you are Player 0, written P0.")
    terminal.expect(CHOICE)
    terminal.send("? cards")
    for card in ("Spy (0): 2", "Priest (2): 2", "Chancellor (6): 2", "Princess (9): 1"):
        terminal.expect(f"{card} in the deck\n")
    terminal.expect(CHOICE)
    terminal.send("q")
    assert terminal.wait() == 0


def test_a_move_typed_in_the_notation(run: type[Terminal]) -> None:
    seed, first, _ = _seed_with_a_guard(3)
    terminal = run("play", "--players", "3", "--seed", str(seed))
    terminal.expect(CHOICE)
    terminal.send("P0 Guard on P1 naming Guard")
    terminal.expect("P0 Guard on P1 naming Guard: not allowed now, the Guard can name only Spy,")
    terminal.expect(CHOICE)
    terminal.send("P0 Guard on")
    terminal.expect("That is not a move in the notation: ")
    terminal.expect(CHOICE)
    terminal.send("P1 Guard on P0 naming Priest")
    terminal.expect("not allowed now, you are P0, not P1.")
    terminal.expect(CHOICE)
    move = ll.PlayCard(0, ll.Card.GUARD, 1, ll.Card.PRIEST)
    assert move in first.legal_commands
    terminal.send(format_command(move).lower())
    terminal.expect("Player 0 plays the Guard on Player 1, naming the Priest — ")
    terminal.expect(CHOICE)
    terminal.send("q")
    assert terminal.wait() == 0


def test_the_round_end_waits_for_enter(run: type[Terminal]) -> None:
    terminal = run("play", "--players", "3", "--seed", "2")
    while not (match := terminal.expect(PROMPT))["enter"]:
        terminal.send("y" if match["confirm"] else "1")
    assert match[0] == "Press Enter to deal round 2 (? for help, q to quit): "
    block = terminal.text[terminal.text.rindex("=== Round 1 is over ===") :]
    assert re.search(r"wins round 1\.", block)
    assert re.search(r"gains a favor token \(1 in all\)\.", block)
    assert "Players: favor tokens, and discard piles (oldest first):" in block
    assert terminal.quiet() == ""  # waiting: the next round is not dealt
    assert "Round 2 begins" not in terminal.text
    terminal.send("")
    terminal.expect("Round 2 begins.")
    terminal.expect(CHOICE)
    terminal.send("q")
    assert terminal.wait() == 0


def test_seats_are_numbered_from_zero_on_the_flag_screen_and_messages(
    run: type[Terminal],
) -> None:
    terminal = run("play", "--players", "3", "--seat", "2", "--seed", "4")
    terminal.expect("You are Player 2 (P2 in the move notation; seats are numbered from 0).")
    terminal.expect("Round 1 begins. Player 0 starts.")
    terminal.expect(re.compile(r"--- Round 1, turn \d: your move, Player 2 ---"))
    terminal.expect("  Player 2 (you)  0 favor tokens")
    terminal.expect(PROMPT)
    terminal.send("P0 Guard on P1 naming Priest")
    terminal.expect("P0 Guard on P1 naming Priest: not allowed now, you are P2, not P0.")
    _answer_until(terminal, "Player 2 plays the ")
    screens = terminal.text[terminal.text.index("your move, Player 2") :]
    assert re.search(r"\n   1\. .+   P2 ", screens)  # the menus' moves are P2's
    terminal.expect(PROMPT)
    terminal.send("q")
    assert terminal.wait() == 0

    wrong = run("play", "--players", "3", "--seat", "3")
    wrong.expect("loveletter play: error: --seat must be from 0 to 2, not 3")
    assert wrong.wait() == 2


def test_q_quits_cleanly_and_saves_the_game_so_far(run: type[Terminal], tmp_path: Path) -> None:
    path = tmp_path / "so-far.json"
    terminal = run("play", "--players", "3", "--seed", "3", "--save", str(path))
    _answer_until(terminal, "Player 0 plays the ")
    terminal.expect(PROMPT)
    terminal.send("q")
    terminal.expect("Game abandoned.")
    terminal.expect(f"The game so far is saved in {path}")
    assert terminal.wait() == 0
    assert "Traceback" not in terminal.text and "Seed 3" not in terminal.text
    record = ll.load_record(path)
    assert not record.is_over and record.seed == 3
    played = [c for c in record.commands() if isinstance(c, ll.PlayCard) and c.player == 0]
    assert len(played) == 1
    assert f"Player 0 plays the {card_name(played[0].card)}" in terminal.text


def test_an_online_match_of_two_rounds_with_its_scoreboard(
    run: type[Terminal], tmp_path: Path
) -> None:
    path = tmp_path / "match.json"
    terminal = run(
        "play", "--ruleset", "online", "--players", "5", "--seed", "11", "--rounds", "2",
        "--decks", "2", "--save", str(path),
    )  # fmt: skip
    terminal.expect("An online match of 2 rounds; l leaves the match at any prompt.")
    menus: list[int] = []
    end = _answer_every_prompt(terminal, menus)
    assert end["end"] and end[0].startswith("Your win counter: "), terminal.tail()
    assert terminal.wait() == 0
    text = terminal.text
    assert "Press Enter to deal round 2 (? for help, l to leave, q to quit): " in text
    assert "=== 2 rounds played: the match stops here. ===" in text
    assert text.count("Seed 11") == 1 and "Traceback" not in text
    assert "favor token" not in text
    record = ll.load_record(path)
    assert record.state.round_number == 2 and record.state.table.decks == 2
    board = text[text.rindex("Scoreboard: ") :]
    for number, ranks in enumerate(
        (e.ranks for e in record.events if isinstance(e, ll.RoundEnded)), 1
    ):
        assert ranks is not None
        row = " +".join([str(number), *("-" if r is None else str(r) for r in ranks)])
        assert re.search(rf"\n +{row} ", board), board


def test_leaving_an_online_match_from_the_terminal(run: type[Terminal], tmp_path: Path) -> None:
    path = tmp_path / "left.json"
    terminal = run(
        "play", "--ruleset", "online", "--players", "3", "--seed", "4", "--save", str(path)
    )  # fmt: skip
    terminal.expect(re.compile(r"Your choice \(1-\d+, \? for help, l to leave, q to quit\): "))
    terminal.send("? commands")
    terminal.expect("  l          leave the match: out of this round, dealt into no later one")
    terminal.expect(CHOICE_ONLINE)
    terminal.send("l")
    terminal.expect("Leave the match for good? ")
    terminal.send("n")
    terminal.expect("You stay in the match.")
    terminal.expect(CHOICE_ONLINE)
    terminal.send("l")
    terminal.expect("(y/n): ")
    terminal.send("y")
    terminal.expect("Player 0 leaves the match and will be dealt into no later round.")
    terminal.expect("=== You have left the match; the others would play on without you. ===")
    terminal.expect(re.compile(r"Your win counter: 0 .*\(Seed 4: play this deal again"))
    terminal.expect(f"The game so far is saved in {path}")
    assert terminal.wait() == 0
    record = ll.load_record(path)
    assert record.commands()[-1] == ll.Leave(0)
    assert record.state.table.left == frozenset({0})
