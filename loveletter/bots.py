"""Players that are not people: what ``simulate``, ``demo`` and ``play`` seat
at the table.

A bot sees exactly what a person would, a :class:`~loveletter.PlayerView`,
so it cannot cheat by reading the state; the game loop in
:mod:`loveletter.simulation` hands every seat, human or bot, the same view.

Here: the :class:`Agent` protocol and :class:`RandomBot`, the baseline; the
card counter and the search bot live in :mod:`loveletter.heuristic` and
:mod:`loveletter.search`. :func:`make_bot` seats any of the three by name
(``random``, ``counter``, ``search``), as ``loveletter play --bots``,
``simulate --bots`` and :func:`~loveletter.tournament.tournament` do.
"""

from __future__ import annotations

import random
import secrets
from typing import Protocol

from loveletter.commands import Command
from loveletter.errors import ArgumentError
from loveletter.heuristic import CardCounterBot
from loveletter.views import PlayerView


class Agent(Protocol):
    """Anything that can take a seat at :func:`~loveletter.play_game`.

    ``choose`` is called whenever the seat must act, with the seat's
    :class:`~loveletter.PlayerView`: its hand, every discard pile in order,
    who is out or protected, the tokens, what it has been shown, and
    ``view.legal_commands``, one of which it returns.

    An agent may also define ``observe(events)``: it is then handed every
    batch of events as they happen, redacted for its seat
    (:func:`~loveletter.events_for`), which is everything the seat may
    learn, in order. A view is enough for most bots; ``observe`` suits one
    that keeps its own account of the game.
    """

    def choose(self, view: PlayerView) -> Command: ...


class RandomBot:
    """Chooses uniformly among the legal commands.

    Uniform over *commands*, not over cards: a Guard with three targets and
    nine names to guess is 27 options against the Handmaid's one, so the bot
    plays Guards more often than a card-first policy would. That makes it a
    plain, unbiased baseline for statistics, not a good player.

    It acts whenever its seat is the one to act (``state.to_act``), which
    is not always the current player: a Bishop's target is asked whether
    to redraw during the Bishop's player's turn, and its view then lists
    ``Redraw`` and ``Decline``.

    Online it plays on round after round and never leaves a match or times
    out: ``Leave`` and ``TimeOut`` are not among the legal commands (they
    are the person's and the host's, accepted at any moment), and the
    Baroness's and Cardinal's online choices are listed there like any
    other.

    The bot owns its own :class:`random.Random`, so a seat's choices depend
    only on its seed and the views it is shown, never on other code that
    uses the global generator. Without a ``seed`` it takes a fresh 64-bit
    one from the operating system's secure source (``secrets``), so two
    bots never play alike by accident; either way the seed is kept as
    ``bot.seed`` (and shown by ``repr``), and ``RandomBot(bot.seed)`` shown
    the same views makes the same choices again.

    >>> import loveletter as ll
    >>> view = ll.view(ll.new_game("2019", 3, seed=4), 0)
    >>> bot = RandomBot()  # a fresh secret seed
    >>> again = RandomBot(bot.seed)
    >>> [bot.choose(view) for _ in range(9)] == [again.choose(view) for _ in range(9)]
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        #: the seed of this bot's choices: the one given, or a fresh secret one
        self.seed: int = secrets.randbits(64) if seed is None else seed
        self._rng = random.Random(self.seed)

    def choose(self, view: PlayerView) -> Command:
        commands = view.legal_commands
        if not commands:
            raise ValueError(f"player {view.player} has nothing to decide now")
        return self._rng.choice(commands)

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed})"


#: the bots that can be seated by name (``loveletter play --bots``,
#: ``simulate --bots``, :func:`~loveletter.tournament.tournament`): the
#: uniform baseline, the card counter (:mod:`loveletter.heuristic`) and the
#: information-set search (:mod:`loveletter.search`)
BOT_NAMES = ("random", "counter", "search")


def parse_bot(spec: str) -> tuple[str, dict[str, str]]:
    """A bot's name and options from ``name`` or ``name:key=value,...``.

    Only the search bot takes options (``samples``, ``candidates``,
    ``playout``: see :class:`~loveletter.search.SearchBot`); a bad name or
    option raises :class:`~loveletter.errors.ArgumentError` naming it.

    >>> parse_bot("search:samples=8,playout=random")
    ('search', {'samples': '8', 'playout': 'random'})
    """
    if not isinstance(spec, str):
        raise ArgumentError("bot", f"a bot's name, not {type(spec).__name__}")
    name, _, rest = spec.strip().partition(":")
    if name not in BOT_NAMES:
        raise ArgumentError("bot", f"{name!r} is not a bot: {', '.join(BOT_NAMES)}")
    options: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, equals, value = item.partition("=")
        if not equals or not key.strip():
            raise ArgumentError("bot", f"{spec!r}: options are key=value, not {item!r}")
        options[key.strip()] = value.strip()
    if options and name != "search":
        raise ArgumentError("bot", f"{name} takes no options, not {', '.join(options)}")
    return name, options


def make_bot(spec: str, seed: int) -> Agent:
    """A fresh bot named by ``spec`` (see :func:`parse_bot`), seeded with
    ``seed``: ``make_bot("random", s)`` is ``RandomBot(s)``.

    >>> make_bot("counter", 3)
    CardCounterBot(seed=3)
    """
    name, options = parse_bot(spec)
    if name == "random":
        return RandomBot(seed)
    if name == "counter":
        return CardCounterBot(seed)
    # deferred: the search and its sampler load only when a search bot is seated
    from loveletter.search import SearchBot

    return SearchBot.from_options(seed, options)
