"""Love Letter as a PettingZoo AEC environment (the ``[pettingzoo]`` extra).

:func:`env` builds a :class:`raw_env` wrapped as PettingZoo's classic
environments are (an illegal action ends the game with -1 to its player,
actions out of the space are refused, the calls' order is enforced).
Agents are ``"player_0"``, ``"player_1"``, ..., one per seat; the agent
selected is the seat that must act (:attr:`loveletter.state.GameState.to_act`:
a Bishop's target answers out of turn).

**Observations** are dictionaries, as in PettingZoo's classic games:
``"observation"``, the agent's :func:`~loveletter.view` encoded by
:func:`loveletter.encoding.encode_view` (float32, seats rotated so the
agent comes first; :func:`~loveletter.encoding.observation_names` names
the entries), and ``"action_mask"``, int8, 1 at each legal action id
(:mod:`loveletter.actions`), all 0 unless the agent must act. An agent's
observation is made from its own view only: it holds nothing that player
may not know. The Box's bounds: card counts by the number of cards dealt
from, flags by 1, places by the players, and ``2**24`` for the round and
turn numbers, tokens and ages, which no rule bounds.

**Actions** are the ids of :func:`loveletter.actions.action_table`
(``Discrete(table.size)``).

**Chance** is handled inside: :meth:`raw_env.reset` deals a game from its
``seed`` (``reset(seed=s)`` plays ``loveletter.new_game(ruleset, players,
seed=s)``; a later ``reset()`` without a seed takes the next seed derived
from it), and when a round ends the dealer's ``StartRound()`` deals the
next one from the game's seed. Without any seed, games are dealt from a
fresh secret seed, as the engine does.

**Rewards.** Editions with tokens: when the game ends, each winner gets
+1 and every other seat -1 (a shared win gives +1 to each winner).
Online, where a match has no end, each round pays at its end: a seat gets
the share of the other ranked seats it ranked above minus the share that
ranked above it (+1 alone first, -1 alone last, tied seats in between);
each round's rewards sum to 0, and seats not dealt in get 0.

**Ends.** The game's end terminates every agent. ``rounds`` caps the
number of rounds: online (where it is required) the match is those rounds
and reaching them terminates; in an edition with tokens, reaching them
before the game is won truncates (no reward is given).

>>> from loveletter.pettingzoo import env
>>> game = env(ruleset="2019-classic", players=2)
>>> game.reset(seed=7)
>>> observation, reward, terminated, truncated, info = game.last()
>>> game.agent_selection, int(observation["action_mask"].sum()) > 0
('player_0', True)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from loveletter.actions import action_table
from loveletter.commands import StartRound
from loveletter.decisions import Decision
from loveletter.encoding import encode_view, legal_mask, observation_names
from loveletter.engine import new_game, push
from loveletter.errors import SetupError
from loveletter.rulesets import Scoring, get_ruleset
from loveletter.simulation import derive_seed
from loveletter.state import GameState, TableSettings
from loveletter.views import PlayerView, view

__all__ = ["UNBOUNDED", "env", "raw_env", "round_rewards"]

#: an observation: ``"observation"`` and ``"action_mask"`` arrays
Observation = dict[str, Any]

#: the bound of the entries no rule bounds (round and turn numbers, tokens,
#: ages): exact in float32
UNBOUNDED = float(2**24)

_FLAGS = {
    "decision",
    "set-aside",
    "out",
    "protected",
    "current",
    "to-act",
    "seen",
    "bottom-next",
    "required",
    "pending",
    "contender",
    "left",
    "round-winner",
    "game-winner",
}
_PLACES = {"order", "exit", "rank"}
_OPEN_ENDED = {"round", "turn", "tokens", "seen-age"}


def _upper_bounds(ruleset: str, players: int) -> npt.NDArray[np.float32]:
    """Each observation entry's largest value (see the module)."""
    rules = get_ruleset(ruleset)
    cards = float(len(rules.deck_for(players, rules.max_decks)))
    bounds = []
    for name in observation_names(ruleset, players):
        parts = name.split(":")
        if parts[0] == "self" or parts[0].startswith("seat+"):
            parts = parts[1:]
        field = parts[0]
        if field in _FLAGS:
            bounds.append(1.0)
        elif field in _PLACES:
            bounds.append(float(players))
        elif field in _OPEN_ENDED:
            bounds.append(UNBOUNDED)
        elif field == "decks":
            bounds.append(float(rules.max_decks))
        else:  # counts of cards: hand, piles, face up, under the deck, marks
            bounds.append(cards)
    return np.array(bounds, dtype=np.float32)


def round_rewards(ranks: tuple[int | None, ...]) -> list[float]:
    """Each seat's reward for an online round's ``ranks`` (1 first, shared
    ranks for ties, ``None`` for a seat not dealt in): the share of the
    other ranked seats it beat minus the share that beat it.

    >>> round_rewards((2, 1, 3, None))
    [0.0, 1.0, -1.0, 0.0]
    >>> round_rewards((1, 1, 3))
    [0.5, 0.5, -1.0]
    """
    ranked = [rank for rank in ranks if rank is not None]
    others = len(ranked) - 1
    if others < 1:
        return [0.0] * len(ranks)
    rewards = []
    for rank in ranks:
        if rank is None:
            rewards.append(0.0)
            continue
        beaten = sum(1 for other in ranked if other > rank)
        beaten_by = sum(1 for other in ranked if other < rank)
        rewards.append((beaten - beaten_by) / others)
    return rewards


def env(**kwargs: Any) -> AECEnv[str, Observation, Any]:
    """A :class:`raw_env` (same arguments) wrapped as PettingZoo's classic
    environments are: an illegal action ends the game with -1 to its
    player, an action outside the space fails, and calling out of order
    (stepping before ``reset``) fails."""
    environment: AECEnv[str, Observation, Any] = raw_env(**kwargs)
    environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=-1)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    return wrappers.OrderEnforcingWrapper(environment)


class raw_env(AECEnv[str, Observation, Any]):  # PettingZoo names it so
    """A game of Love Letter, one agent per seat (see the module).

    ``ruleset`` is an edition's name or alias; ``players`` defaults to the
    edition's fewest. ``rounds`` caps the rounds played (required online);
    ``decks`` is an online table's copies of the deck (1 to 3). ``seed``
    deals the first game when :meth:`reset` is given none. ``render_mode``
    ``"ansi"`` makes :meth:`render` return the text of the acting agent's
    view, ``"human"`` print it after each step.
    """

    metadata = {  # noqa: RUF012  # PettingZoo reads it from the class
        "name": "loveletter_v0",
        "is_parallelizable": False,
        "render_modes": ["human", "ansi"],
    }

    def __init__(
        self,
        ruleset: str = "2019",
        players: int | None = None,
        seed: int | None = None,
        rounds: int | None = None,
        decks: int = 1,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()  # type: ignore[no-untyped-call]  # AECEnv's __init__ is unannotated
        rules = get_ruleset(ruleset)
        self.ruleset = rules.name
        self.players = rules.min_players if players is None else players
        self.table = action_table(rules, self.players)
        if rounds is not None and (type(rounds) is not int or rounds < 1):
            raise SetupError("rounds", f"a number of rounds from 1, not {rounds!r}")
        if rounds is None and rules.scoring is Scoring.RANKS:
            raise SetupError("rounds", f"{rules.name} matches never end: say how many rounds")
        self.rounds = rounds
        self.ranked = rules.scoring is Scoring.RANKS
        if rules.online_table:
            self.settings: TableSettings | None = TableSettings(decks=decks)
        elif decks != 1:
            raise SetupError("decks", f"{rules.name} is played with one deck")
        else:
            self.settings = None
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise SetupError("render_mode", f"'human', 'ansi' or None, not {render_mode!r}")
        self.render_mode = render_mode

        self.possible_agents = [f"player_{seat}" for seat in range(self.players)]
        self.agents = []
        high = _upper_bounds(self.ruleset, self.players)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (self.table.size,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(self.table.size) for agent in self.possible_agents
        }
        self._seed = seed
        self._resets = 0
        self._state: GameState | None = None

    @property
    def game_state(self) -> GameState:
        """The whole game now, hidden cards included: for analysis, never
        for an agent's policy (its observation is :meth:`observe`)."""
        if self._state is None:
            raise SetupError("reset", "call reset() before reading the state")
        return self._state

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's observation space (the same object every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's action space: the action ids."""
        return self.action_spaces[agent]

    def view(self, agent: str) -> PlayerView:
        """What ``agent``'s seat knows now (:func:`loveletter.view`)."""
        return view(self.game_state, self.possible_agents.index(agent))

    def observe(self, agent: str) -> Observation:
        """The agent's encoded view and legal mask (see the module)."""
        looked = self.view(agent)
        return {
            "observation": np.array(encode_view(looked), dtype=np.float32),
            "action_mask": np.array(legal_mask(looked), dtype=np.int8),
        }

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: from ``seed`` when given, else from the next
        seed derived from the last one given (or from the constructor's),
        else from a fresh secret seed. ``options`` are not used."""
        if seed is not None:
            self._seed, self._resets = seed, 0
        game_seed = self._seed
        if game_seed is not None and self._resets > 0:
            game_seed = derive_seed(game_seed, "reset", self._resets)
        self._resets += 1
        self._state = new_game(self.ruleset, self.players, seed=game_seed, settings=self.settings)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._select(self._state)

    def step(self, action: int | None) -> None:
        """Send the selected agent's action (``None`` once it is done); a
        command the rules refuse raises :class:`loveletter.IllegalCommand`
        (:func:`env` ends the game instead)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise SetupError("action", f"{agent} must act: an action id, not None")
        seat = self.possible_agents.index(agent)
        state = push(self.game_state, self.table.command(action, seat))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        while state.decision is Decision.NEXT_ROUND:
            result = state.round_result
            if self.ranked and result is not None and result.ranks is not None:
                self._reward(round_rewards(result.ranks))
            if self.rounds is not None and state.round_number >= self.rounds:
                break
            state = push(state, StartRound())
        self._state = state
        if state.decision is Decision.GAME_OVER:
            winners = set(state.winners)
            self._reward([1.0 if seat in winners else -1.0 for seat in range(self.players)])
            self.terminations = dict.fromkeys(self.agents, True)
        elif state.decision is Decision.NEXT_ROUND:  # the rounds asked for are played
            if self.ranked:
                self.terminations = dict.fromkeys(self.agents, True)
            else:
                self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self._select(state)
        if self.render_mode == "human":
            self.render()

    def _reward(self, rewards: list[float]) -> None:
        for seat, reward in enumerate(rewards):
            self.rewards[self.possible_agents[seat]] += reward

    def _select(self, state: GameState) -> None:
        # once the game is over, every agent is stepped with None in seat
        # order from the seat that played last
        seat = state.to_act
        self.agent_selection = self.possible_agents[state.current if seat is None else seat]

    def render(self) -> str | None:
        """The text of the acting agent's view (``str(view)``; once the
        game is over, the last player's): returned in ``"ansi"`` mode,
        printed in ``"human"`` mode; nothing without a render mode."""
        if self.render_mode is None or self._state is None:
            return None
        text = str(self.view(self.agent_selection))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the game is plain values."""
