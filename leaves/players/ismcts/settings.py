"""The settings of ``ismcts``: each declared once (default, validity, tuning range), and the
named record the search kernel reads.

``SETTINGS`` gives the constructor its signature and validation; ``Config`` carries the
numeric settings into numba as named fields (a namedtuple: numba passes it by value).
"""

from __future__ import annotations

from collections import namedtuple

from strategies.policy.params import Param, declare

EVAL_BETA = 0.4
"""A playout cut after ``rollout_depth`` turns scores seat ``i`` by ``exp(-EVAL_BETA * left_i)``
over the sum for every seat: the chance of winning given the cards left, a logit fitted by
maximum likelihood to the hand sizes and winners of 1,500 four-player ``weighted`` games (every
third turn). The fit is 0.40 with at most ten turns left, 0.10 with 10-25, 0 before: the cards
left tell little about the winner until late, so ``rollout_depth`` is off by default."""

MAX_DEPTH = 1100
"""Deepest path the search walks (the turn limit's worth of plies, plus the root)."""

MAX_ITERATIONS = 10_000_000
"""The most ``iterations`` a decision takes: the tree is sized for them up front, four nodes an
iteration at 56 bytes a node (2.2 GB at the bound; past numpy's sizes an array cannot be made:
"Maximum allowed dimension exceeded"), and a search runs about 10 µs an iteration (minutes a
decision at the bound; the ``strong`` preset takes 12,800)."""

MAX_WORK = 10_000
"""The most ``playouts``, ``infer_tries`` and ``infer_steps``: each multiplies the work of every
iteration (1,600 iterations of 10,000 playouts each take about half a minute a decision);
their tuning ranges end at 200 or below."""

MAX_STEPS = 1_000_000
"""The most ``model_steps`` (swaps fitting a deal to each candidate model; its tuning range ends
at 2,000), and the most of the counts that only a game's length bounds (``rollout_depth``,
``max_depth``, ``model_min``: a game ends by its turn limit, at most 1,000,000 turns): each is
carried to the compiled search as a 64-bit integer, which would wrap a larger one."""


SETTINGS = declare(
    Param("iterations", 1600, (100, 5000), "search iterations per decision (0: no cap)",
          integer=True, low=0, high=MAX_ITERATIONS),
    Param("time_ms", 0.0, None, "wall-clock budget per decision in ms (0: none)", low=0),
    Param("c", 0.7, (0.1, 2.0), "UCB1 exploration constant (rewards lie in [0, 1])", low=0),
    Param("rollout", "weighted", None, "compiled policy of playouts and the default model"),
    Param("own", "", None, "compiled policy of the seat's own playouts (empty: the rollout)"),
    Param("playouts", 1, None, "playouts per iteration from one leaf, averaged",
          integer=True, low=1, high=MAX_WORK),
    Param("shaping", 0.0, (0.0, 0.5), "weight of the cards-shed reward", low=0, high=1),
    Param("rollout_depth", 0, (0, 200), "playout turns before the cards left decide (0: to the end)",
          integer=True, low=0, high=MAX_STEPS),
    Param("max_depth", 0, None, "tree plies below the root (0: unlimited; 1: flat Monte Carlo)",
          integer=True, low=0, high=MAX_STEPS),
    Param("model_opponents", True, None, "opponents' tree moves by their model, not UCB"),
    Param("widen", 2.0, (0.0, 64.0),
          "below the root: the mover's policy move first, another from widen x children**2 "
          "visits on (0: every move at once)", low=0),
    Param("infer_tries", 50, (1, 200), "rejection draws of the first deal",
          integer=True, low=0, high=MAX_WORK),
    Param("infer_steps", 4, (0, 16), "card swaps of the deal chain per iteration",
          integer=True, low=0, high=MAX_WORK),
    Param("infer_lambda", 2.0, (0.0, 8.0), "weight of a contradiction (>= 1e6: hard)", low=0),
    Param("models", "all", None, "candidate opponent models ('all': every compiled built-in)"),
    Param("model_min", 3, (1, 20), "opponent decisions needed before selecting a model",
          integer=True, low=0, high=MAX_STEPS),
    Param("model_steps", 150, (0, 2000), "card swaps fitting a deal to each candidate",
          integer=True, low=0, high=MAX_STEPS),
    Param("model_pool", 0.5, (0.0, 2.0), "weight of the other opponents' contradictions", low=0),
    Param("stop_early", True, None, "stop once more iterations cannot change the move"),
    Param("stop_margin", 1.0, (0.1, 1.0),
          "stop_early once the lead exceeds stop_margin x the iterations left (1: the move "
          "cannot change; less: clear decisions stop sooner)", low=0),
    Param("prior", 0.0, (0.0, 2.0), "head start of the own playout policy's move, x iterations",
          low=0),
    Param("preset", "", None,
          "named setting (fast, flat, strong): values of parameters left at default"),
    Param("reuse", True, None, "start from the previous decision's fitted deals (same game)"),
)  # fmt: skip

PRESETS: dict[str, dict[str, object]] = {
    "fast": {
        "max_depth": 1,
        "widen": 0.0,
        "iterations": 300,
        "model_steps": 10,
        "infer_tries": 20,
        "prior": 0.25,
    },
    "flat": {
        "max_depth": 1,
        "widen": 0.0,
        "iterations": 2000,
    },
    "strong": {
        "iterations": 12_800,
        "infer_lambda": 4.0,
        "infer_steps": 16,
    },
}
"""Named settings a user can ask for (``ismcts:preset=fast``): ``fast`` for long runs (the flat
search, about a fifth of the defaults' time a decision), ``flat`` (the flat search at 2,000
iterations, the defaults before the widened tree: the same time a decision, fewer wins),
``strong`` for play against a person (8 times the defaults' iterations over deals that weigh
the opponents' past play twice as hard, with four times the chain's swaps to keep it moving:
well under 0.2 s a decision; ``leaves play --level hard``). docs/strength.md measures each against the defaults
on the same deals. A preset gives the value of every parameter it names that is left at its
default; a parameter set to another value wins
(``ismcts:preset=fast,iterations=500``)."""


def resolve_preset(strategy: str, values: dict[str, object]) -> dict[str, object]:
    """``values`` with the named preset's settings filled in (ValueError: no such preset)."""
    name = values.get("preset", "")
    if not name:
        return dict(values)
    if name not in PRESETS:
        known = ", ".join(sorted(PRESETS))
        raise ValueError(f"{strategy}: unknown preset {name!r} (presets: {known})")
    defaults = SETTINGS.defaults()
    out = dict(values)
    for key, value in PRESETS[name].items():
        if values.get(key, defaults[key]) == defaults[key]:
            out[key] = value
    return out


Config = namedtuple(
    "Config",
    [
        "c",  # float: UCB1 exploration constant
        "shaping",  # float: weight of the cards-shed reward
        "rollout_depth",  # int: playout turns before the cards left decide (0: to the end)
        "dealt",  # float: cards dealt per hand (the shaping reward's scale)
        "infer_lambda",  # float: weight of one contradiction (>= HARD: hard rejection)
        "playouts",  # int: playouts per iteration
        "max_depth",  # int: tree plies below the root
        "model_opponents",  # bool: opponents' tree moves by their model
        "infer_tries",  # int: rejection draws of the first deal
        "infer_steps",  # int: swaps of the deal chain per iteration
        "stop_early",  # bool: end once the root's most visited child cannot be overtaken
        "prior_action",  # int: the own playout policy's move at the root (-1: no prior)
        "prior_visits",  # float: its head start in the final choice, in visits
        "warm_deal",  # bool: the deal chain starts from the deal the caller gives
        "widen",  # float: a node below the root adds a child from widen x children**2 visits
        "stop_margin",  # float: stop_early once the lead exceeds stop_margin x iterations left
    ],
)
"""The search kernel's settings, by name."""
