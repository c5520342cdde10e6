"""Outside agents in our tournaments, and ours in PettingZoo's loop.

* ``ObservationAgent`` (spec ``observation:policy=module.function``, registered through the
  strategies' entry points, so ``strategies`` never imports this package): a 13 Leaves
  strategy that hands any callable the PettingZoo observation of its seat (the dict
  ``{"observation", "action_mask"}`` of ``interop.pettingzoo``) and plays the action id it
  returns. A callable that takes two arguments gets the seat's generator too, the only
  randomness it may use, so games replay from the runner's seeds. Under any rules: the mask
  covers the ids of the game's rules (118 under ``take="nothing"``, 117 otherwise).
* ``pettingzoo_policy(spec, seed)``: any of our strategies as a function ``act(env, agent)``
  for PettingZoo's agent loop (under the environment's rules, as its state holds them).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from leaves import Action, PlayerView
from leaves.actions import ACTIONS_BY_ID, shown
from leaves.deal import check_seed
from strategies import DEFAULT_GAME, Strategy, get, user_code
from strategies.registry import OtherGameStrategy, title

from .hooks import GameSeats
from .observation import encode
from .variants import action_id, n_action_ids

__all__ = ["ObservationAgent", "observation_of", "pettingzoo_policy", "thirteen_leaves_strategy"]


def observation_of(view: PlayerView, legal: tuple[Action, ...]) -> dict[str, np.ndarray]:
    """The seat's PettingZoo observation: its encoded view and the mask of ``legal`` (over the
    action ids of the view's rules: 117, or 118 under ``take="nothing"``)."""
    mask = np.zeros(n_action_ids(view.rules), np.int8)
    mask[[a.id for a in legal]] = 1
    return {"observation": encode(view), "action_mask": mask}


def _load(target: str) -> Callable[..., Any]:
    """The callable ``module.function`` (or ``module:function``, or ``path/to/file.py.function``)
    names."""
    module, sep, name = target.partition(":") if ":" in target else target.rpartition(".")
    if not sep or not module or not name:
        raise ValueError(f"policy must be 'module.function', got {target!r}")
    try:
        if module.endswith(".py"):  # a file: path/to/agent.py.function
            fn = getattr(user_code.load_file(module), name)
        else:
            fn = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"cannot load the policy {target!r}: {exc}") from None
    if not callable(fn):
        raise ValueError(f"the policy {target!r} is not callable")
    return fn


class ObservationAgent(Strategy):
    """Plays what a callable answers to the seat's PettingZoo observation."""

    name = "observation"
    description = "an outside agent: a callable given the PettingZoo observation of its seat"
    classifier = {"stochastic": True}

    def __init__(self, policy: str = "interop.agents.first_legal"):
        self._fn = _load(policy)
        self._takes_rng = _takes_rng(self._fn)

    @property
    def runs_code_of(self) -> str:
        """The module of the policy it plays by (``strategies.global_random.own_code``: a
        user's function may draw from the global random state, which a run then says)."""
        return str(getattr(self._fn, "__module__", None) or type(self).__module__)

    def choose(self, view: PlayerView, legal: tuple[Action, ...], rng: np.random.Generator
               ) -> Action:  # fmt: skip
        obs = observation_of(view, legal)
        answer = self._fn(obs, rng) if self._takes_rng else self._fn(obs)
        action = action_id(answer)  # int() would play 4.5 as 4 and "3" as 3
        # judged on ``legal``, not on the mask the policy was handed (and may have changed)
        if action is None or action not in {a.id for a in legal}:
            raise ValueError(f"the policy answered {shown(answer)}, not a legal action id")
        return ACTIONS_BY_ID[action]


def _takes_rng(fn: Callable[..., Any]) -> bool:
    """Whether ``fn`` has a second positional parameter, the one the seat's generator goes to
    (a keyword-only one is not handed it; a builtin without a signature takes one argument)."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return False
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return sum(p.kind in kinds for p in params) >= 2


def first_legal(observation: dict[str, np.ndarray]) -> int:
    """The lowest legal action id (a default policy, and an example of the protocol)."""
    return int(np.flatnonzero(observation["action_mask"])[0])


def random_legal(observation: dict[str, np.ndarray], rng: np.random.Generator) -> int:
    """A uniformly random legal action, drawn from the seat's generator."""
    return int(rng.choice(np.flatnonzero(observation["action_mask"])))


def thirteen_leaves_strategy(spec: Any, caller: str) -> Strategy:
    """``strategies.get(spec)`` for ``caller``, which plays 13 Leaves only: a strategy of
    another game is refused with whose it is and that, not with the registry's advice to pass
    ``game=``, a parameter ``caller`` does not take."""
    try:
        return get(spec)
    except OtherGameStrategy as exc:
        raise ValueError(f"{exc.head}, and {caller} plays {title(DEFAULT_GAME)} only") from None


def pettingzoo_policy(spec: Any, seed: int | None = None) -> Callable[[Any, str], int]:
    """One of our strategies (a spec, class or instance) as ``act(env, agent) -> action id``
    for PettingZoo's loop over ``interop.pettingzoo.env``: it reads the seat's view from the
    environment's state (what the seat may see, as its observation holds) and draws from a
    generator fixed by ``seed`` (a whole number >= 0, or None). A new game (a reset, whatever
    its turns) gets a fresh strategy a seat and the generator drawn from ``seed`` again, so a
    deal played again is the same game, whatever was played before (as
    ``interop.openspiel.StrategyBot`` restarts); the strategy's hooks run as
    ``interop.hooks`` says (``end_game`` when the environment ends the game); an agent not to
    act (another's turn, or the game over) is refused in one line."""
    # a Generator would be drawn on from game to game, not started again: games would differ
    seed = check_seed(seed, "seed", numpy_forms=False)
    base = thirteen_leaves_strategy(spec, "pettingzoo_policy")
    game: list[Any] = [None, None]  # the game in play (its first state) and its seats

    def act(e: Any, agent: str) -> int:
        env = e.unwrapped
        state = env._started()  # before the first reset: one line
        seat = env._seat(agent)  # an unknown agent: one line naming the agents
        over = state.is_terminal or env._cut_short() is not None  # or ended by an illegal action
        if over or seat != state.current_player:  # its view, another's actions
            now = "the game is over" if over else f"{env.agent_selection} is to act"
            raise ValueError(f"{agent} is not to act here: {now}")
        # a new game is a new start (a turn going back misses a game of one turn dealt again)
        if game[0] is not env.start:
            game[:] = env.start, GameSeats(base, seed)
            env.at_end(game[1].end)  # this game's end, as the environment sees it
        return int(game[1].choose(state, seat).id)

    return act
