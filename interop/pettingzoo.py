"""13 Leaves as a PettingZoo AEC environment, following PettingZoo's classic card games.

``env(n_players=4, rules=None, render_mode=None, **rule_keys)`` (wrapped as PettingZoo's
classic environments are: an illegal action ends the game with -1 for its player) and
``raw_env(...)`` with the same parameters. Games are dealt and played under ``rules`` (a
``leaves.Rules``, its ``key=value,...`` text or its plain data; today's by default, e.g.
``rules="turn_limit=200"``) with the rule keys given as keyword arguments on top
(``env(n_players=4, take="ends", hand_size=9)``); an unknown key, an impossible combination or
a player count the rules do not allow is refused with a one-line ValueError. Agents
``player_0`` .. ``player_{n-1}`` are the seats; the one to act is ``agent_selection``. Each
observation is a dict: ``observation``, the seat's fixed-size view (``interop.observation``:
145 int16, int32 past a turn limit of 32,766; nothing the seat may not see, bounded by the
rules' deck), and ``action_mask`` over the action ids (all zero for a seat not to act). The
action space is ``Discrete(117)``, the pinned ids of ``leaves.ALL_ACTIONS``, under rules whose
passes take a card, and ``Discrete(118)`` under ``take="nothing"``, where id 117 is the pass
taking nothing (``Action.pass_()``). Rewards come at the end: the winner +1, every other seat
-1; a game stopped at the turn limit is truncated with 0 for all. ``render()`` is text
(``"ansi"`` returns it, ``"human"`` prints it). ``state()`` is PettingZoo's global state, the
whole position with every hidden card (``interop.observation.encode_state``, in
``state_space``); the game in play is ``game``, a ``leaves.State`` (``e.game.turn``).

A reset's ``seed`` fixes the deal and so the game given the actions; resets without one draw
the next deal of the stream the last seed started (or of fresh entropy).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from gamekit.requirement import import_failure

try:
    from gymnasium import logger, spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import AgentSelector, wrappers  # AgentSelector: PettingZoo 1.25
except ImportError as exc:  # one line for the user, whichever command needed it
    raise ImportError(import_failure(exc, "pettingzoo", "PettingZoo")) from exc

import leaves
from leaves.deal import check_seed
from leaves.ruleset import counts_text

from .observation import (
    LAYOUT,
    SIZE,
    STATE_LAYOUT,
    bounds,
    encode,
    encode_state,
    part,
    state_bounds,
)
from .variants import action_id, n_action_ids, rules_of

__all__ = ["env", "raw_env"]

_TO_PLAY, _STATE_TO_PLAY = part(LAYOUT, "to_play"), part(STATE_LAYOUT, "to_play")
"""Who is to play in an observation and in the global state: no one once a game is over."""


def env(n_players: int = 4, rules: Any = None, render_mode: str | None = None,
        **rule_keys: Any) -> AECEnv:  # fmt: skip
    """The environment wrapped as PettingZoo's classic games are (illegal actions end the game
    with -1 for their player, actions out of range are refused, calls must come in order)."""
    e = raw_env(n_players, rules, render_mode, **rule_keys)
    e = _TerminateIllegal(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return _OrderEnforcing(e)


class _TerminateIllegal(wrappers.TerminateIllegalWrapper):
    """PettingZoo's ending of a game on an illegal action, told to ``raw_env`` (whose game,
    left where the action was refused, knows no end) so that its ``at_end`` hooks run."""

    def step(self, action: int | None) -> None:
        ended = self._terminated
        super().step(action)
        if self._terminated and not ended:
            self.unwrapped._ended()


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order checks, with ``raw_env``'s one line for a ``last()`` before the first
    reset or once a finished game's agents are all gone (PettingZoo's reads a gone agent's
    reward: a bare KeyError)."""

    def last(self, observe: bool = True) -> tuple:
        self.unwrapped._in_play()
        return super().last(observe)

    def step(self, action: int | None) -> None:
        """``raw_env``'s one line for an action that is no whole number (``True``, ``4.5``),
        before PettingZoo's wrappers read it (``Discrete`` takes a bool, and the illegal-move
        wrapper then indexes the mask with it: a numpy error)."""
        if action is not None:
            self.unwrapped._action_id(action)
        super().step(action)

    def __str__(self) -> str:  # as PettingZoo's own order wrapper names the environment
        return str(self.env)


class raw_env(AECEnv):  # noqa: N801 - PettingZoo's name for the unwrapped environment
    """13 Leaves for ``n_players`` seats (3 to 6 today; the counts the rules allow)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "thirteen_leaves_v0",
                "is_parallelizable": False}  # fmt: skip

    def __init__(self, n_players: int = 4, rules: Any = None, render_mode: str | None = None,
                 **rule_keys: Any):  # fmt: skip
        super().__init__()
        self.rules = rules_of(rules, **rule_keys)
        n = action_id(n_players)  # a whole number: int() would take 4.5 for 4 and "4" for 4
        if n is None or n not in self.rules.players:
            raise ValueError(
                f"n_players must be {counts_text(self.rules.players)}{self.rules.under()}, "
                f"got {n_players!r}"
            )
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', got {render_mode!r}")
        self.n_players = n
        self.render_mode = render_mode
        self.n_actions = n_action_ids(self.rules)
        self.possible_agents = [f"player_{i}" for i in range(self.n_players)]
        self.agents = self.possible_agents[:]
        high = bounds(self.rules)
        obs = spaces.Dict({
            "observation": spaces.Box(low=0, high=high, shape=(SIZE,), dtype=high.dtype),
            "action_mask": spaces.Box(low=0, high=1, shape=(self.n_actions,), dtype=np.int8),
        })  # fmt: skip
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.n_actions) for a in self.possible_agents}
        top = state_bounds(self.rules)
        self.state_space = spaces.Box(low=0, high=top, shape=top.shape, dtype=top.dtype)
        self._seeds = np.random.SeedSequence()
        self.game: leaves.State | None = None  # the game in play
        self.start: leaves.State | None = None
        self._end_hooks: list[Callable[..., None]] = []  # the game in play's (``at_end``)

    def state(self) -> np.ndarray:
        """PettingZoo's global state: the whole position, every hidden card included
        (``encode_state``, in ``state_space``); the game itself is ``game``."""
        state = encode_state(self._started())
        if self._cut_short() is not None:  # nobody is to play: the game is over
            state[_STATE_TO_PLAY] = 0
        return state

    def at_end(self, hook: Callable[[leaves.State, int, int | None], None]) -> None:
        """Call ``hook(final state, first player, forfeit seat or None)`` once, when the game
        in play ends (at its last move, or on an illegal action under ``env()``); a reset
        drops the hooks of the game it leaves."""
        self._end_hooks.append(hook)

    def _ended(self) -> None:
        """The game in play is over: its ``at_end`` hooks run."""
        forfeit = self._cut_short()
        for hook in self._end_hooks:
            hook(self.game, self.start.current_player, forfeit)

    def _cut_short(self) -> int | None:
        """The seat whose illegal action ended the game under ``env()`` (PettingZoo's wrapper
        ends it from outside, every agent done or gone, the game left unfinished where the
        action was refused); None while it goes on or once it ended by the rules."""
        game = self.game
        if game is None or game.is_terminal:
            return None
        if self.agents and not all(
            self.terminations[a] or self.truncations[a] for a in self.agents
        ):
            return None
        return game.current_player

    def observation_space(self, agent: str) -> spaces.Space:
        self._seat(agent)  # an unknown agent: one line naming the agents, not a KeyError
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        self._seat(agent)
        return self.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        if agent not in self.possible_agents:
            raise ValueError(f"unknown agent {agent!r}; the agents are {self._names()}")
        return self.possible_agents.index(agent)

    def _action_id(self, action: Any) -> int:
        """``action`` as an action id; one line for anything but a whole number (4.5 and "3"
        refused rather than played as 4 or 3, True rather than as 1)."""
        move = action_id(action)
        if move is None:
            raise ValueError(
                f"{action!r} is not an action id (a whole number 0..{self.n_actions - 1})"
            )
        return move

    def _names(self) -> str:
        return f"player_0 .. player_{self.n_players - 1}"

    def _started(self) -> leaves.State:
        """The game in play; a clear error (not an AttributeError) before the first reset."""
        if self.game is None:
            raise ValueError("no game yet: call reset() first")
        return self.game

    def _in_play(self) -> None:
        """One clear line before the first reset and once a finished game's agents are all
        gone (every dead agent has stepped)."""
        self._started()
        if not self.agents:
            raise ValueError("the game is over: reset() first")

    def last(self, observe: bool = True) -> tuple:
        """PettingZoo's ``last``, refused in one line before the first reset and once the game
        is over (where PettingZoo's raises a bare KeyError)."""
        self._in_play()
        return super().last(observe)

    def agent_iter(self, max_iter: int = 2**63):
        self._started()  # PettingZoo's would fail on a missing attribute before the first reset
        return super().agent_iter(max_iter)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        self._started()
        seat = self._seat(agent)
        mask = np.zeros(self.n_actions, np.int8)
        observation = encode(self.game.view(seat))
        if self._cut_short() is not None:  # nobody is to play: the game is over
            observation[_TO_PLAY] = 0
        elif not self.game.is_terminal and seat == self.game.current_player:
            mask[list(self.game.legal_action_ids())] = 1
        return {"observation": observation, "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seeds = np.random.SeedSequence(check_seed(seed, "seed", numpy_forms=False))
        (deal,) = self._seeds.spawn(1)  # the next deal of the stream
        self.game = leaves.new_game(self.n_players, seed=np.random.default_rng(deal),
                                    rules=self.rules)  # fmt: skip
        self.start = self.game  # the game's first state: a new object at every reset
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._agent_selector = AgentSelector(self.agents)
        self.agent_selection = self.possible_agents[self.game.current_player]
        self._end_hooks = []

    def step(self, action: int | None) -> None:
        self._in_play()  # once every dead agent has stepped: PettingZoo's wrapper only warns
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        move = self._action_id(action)
        if move not in self.game.legal_action_ids():
            raise ValueError(f"action {move} is not legal for {agent} here")
        self._cumulative_rewards[agent] = 0
        self.game = self.game.apply(move)
        self.rewards = dict.fromkeys(self.agents, 0)
        if self.game.is_terminal:
            winner = self.game.winner
            if winner is None:  # stopped at the turn limit
                self.truncations = dict.fromkeys(self.agents, True)
            else:
                self.terminations = dict.fromkeys(self.agents, True)
                for a in self.agents:
                    self.rewards[a] = 1 if self._seat(a) == winner else -1
        else:
            self.agent_selection = self.possible_agents[self.game.current_player]
        self._accumulate_rewards()
        if self.game.is_terminal:
            self._ended()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The position as text: the table, every seat's hand size, who is to play
        (``"ansi"`` returns it, ``"human"`` prints it and returns None; without a render mode,
        a warning and None)."""
        s = self._started()
        if self.render_mode is None:  # said, as PettingZoo's classic games say it
            logger.warn("You are calling render method without specifying any render mode.")
            return None
        ends = (s.ends[0][0], s.ends[1][0]) if s.ends else ("-", "-")
        cut = self._cut_short()
        lines = [
            f"turn {s.turn}, round {s.round}; table {list(s.table)} (ends {ends[0]}, {ends[1]})",
            "hands: " + ", ".join(f"player_{i}: {n}" for i, n in enumerate(s.hand_sizes)),
            "passed: " + (", ".join(f"player_{i}" for i, p in enumerate(s.passed) if p)
                          or "nobody"),
            (f"winner: player_{s.winner}" if s.winner is not None else
             f"stopped at the turn limit ({s.rules.turn_limit} turns)" if s.is_terminal else
             f"ended by an illegal action of player_{cut}" if cut is not None else
             f"to play: player_{s.current_player}"),
        ]  # fmt: skip
        text = "\n".join(lines)
        if self.render_mode == "human":  # printed; returned only by "ansi", as Gymnasium asks
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
