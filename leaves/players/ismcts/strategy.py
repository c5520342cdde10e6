"""The ``ismcts`` strategy: settings, opponent models and the Python driver of the search:
one job (long, as the settings are checked and read where the driver uses them)."""

from __future__ import annotations

import time
import warnings
from typing import Any

import numpy as np

from gamekit.seeding import MODEL_SALT
from leaves import Action, PlayerView
from leaves.board import SEAT_SLOTS, public_board
from leaves.players.base import Strategy
from leaves.players.builtin._base import CompiledBuiltin
from leaves.players.compiled.bridge import decide_board
from leaves.rules import N_VALUES
from strategies.policy.params import N_PARAMS
from strategies.registry import filtered, get

from . import cengine
from .evidence import NO_EVIDENCE, Replay
from .inference import (
    N_STATS,
    S_ITERS,
    S_NODES,
    S_REJECTS,
    Carry,
    Models,
    Position,
    memo_bits,
    new_memo,
)
from .settings import MAX_DEPTH, SETTINGS, Config, resolve_preset
from .tree import SearchState, new_tree, root_visits

_CHUNK = 16  # iterations per kernel call when a time budget is set
_NODE_CAP = 200_000  # node capacity with a time budget only (about 8 MB of arrays)
_MODEL_TRIES = 20  # uniform deals drawn per candidate model before the swaps of ``fit_models``
_WARM_TRIES = 4  # fresh deals competing with a candidate's carried one (``reuse``)
ALL_MODELS = "all"
"""``models="all"``: every registered compiled built-in is a candidate opponent model."""


class ISMCTS(Strategy):
    """Information-set MCTS with compiled playouts (see ``leaves.players.ismcts``).

    Parameters (declared once, with their defaults and checks, in ``settings.SETTINGS``):
    ``iterations`` (search iterations per decision; 0 = no cap, then ``time_ms`` must be set),
    ``time_ms`` (wall-clock budget per decision in milliseconds; 0 = none; with both set,
    whichever runs out first stops the search), ``c`` (UCB1 exploration constant, rewards lie in
    [0, 1]), ``rollout`` (spec of the playout policy and opponent model; it must be a compiled
    strategy), ``own`` (the seat's own playout policy and widened first move, compiled; empty:
    the rollout policy; the opponents' default model stays the rollout), ``playouts``
    (playouts per iteration from the same leaf, averaged; only useful with a stochastic
    rollout), ``shaping`` (weight of the cards-shed reward, 0..1),
    ``max_depth`` (tree plies below the root, 0 = unlimited; 1 = flat Monte Carlo at the root),
    ``model_opponents`` (opponents' moves in the tree by their model; False: chosen by UCB from
    their own rewards, plain SO-ISMCTS), ``widen`` (progressive widening below the root: a
    node's first child is the mover's policy move, and it takes another only from ``widen`` x
    children**2 visits on; 0 = every legal move at once), ``infer_tries`` (rejection draws of
    the first deal against the opponents' past decisions; 0 or 1 with ``infer_steps=0``: uniform
    deals), ``infer_steps`` (card swaps of the deal chain per iteration), ``infer_lambda`` (how
    hard a contradiction of the opponent model weighs on a deal: a swap adding ``d``
    contradictions is kept with probability ``exp(-lambda * d)``; 0 = ignore the model,
    ``>= 1e6`` = hard rejection), ``models`` (candidate opponent models: specs separated by
    ``+``, or by commas when none has parameters; each opponent seat is modelled, in inference,
    tree moves and playouts, by the candidate that contradicts its past decisions least; ``""``:
    the rollout policy for every seat), ``model_min`` (opponent decisions needed before
    selecting; fewer: the rollout policy), ``model_steps`` (card swaps spent fitting a deal to
    each candidate), ``model_pool`` (weight of the other opponents' contradictions in a seat's
    choice: 0 = each seat on its own evidence), ``stop_early`` (with an iteration budget, stop
    once the most visited root move leads by more visits than iterations are left: the same
    move, sooner), ``stop_margin`` (with ``stop_early``: stop once the lead exceeds
    ``stop_margin`` x the iterations left; 1 = only when the move cannot change), ``prior``
    (the move of the seat's own playout policy, ``own`` or else the rollout, starts the final
    choice ahead by ``prior`` x the iteration budget in visits, or x the iterations run with a
    time budget only: 0 = none), ``preset``
    (a named setting from ``settings.PRESETS``, e.g. ``"fast"``: it sets the parameters it
    names that are left at their defaults), ``reuse`` (start from the fitted deals of this
    game's previous decision, carried to this position; False: fit from fresh draws every
    decision). The move played is the root child with the most visits (ties: the first in
    ``legal``). A decision with one legal action skips the search. A position set up by hand
    (``State.from_dict``: no history) is dealt from the public facts alone, as a first decision.
    """

    name = "ismcts"
    description = "information-set Monte Carlo tree search with compiled heuristic playouts"
    classifier = {
        "stochastic": True,
        "uses_card_counting": True,
        "search": True,
        "compiled": False,
    }
    tunable = SETTINGS.tunable()

    def _configure(self, v: dict[str, Any]) -> None:
        """The search's state from its checked settings ``v`` (a preset's values filled in)."""
        if v["iterations"] == 0 and v["time_ms"] == 0:
            raise ValueError(f"{self.name}: set iterations or time_ms (both are 0: no budget)")
        self.settings = v
        """Every setting as the search uses it (a preset's values filled in)."""
        self.iterations = v["iterations"]
        self.time_ms = v["time_ms"]
        self.kind, self.policy_params = _rollout_policy(v["rollout"])
        self.prior = v["prior"]
        own = v["own"] or v["rollout"]
        # the head start is the move the seat's own playouts would make (as the widened tree's)
        self._prior_policy = _rollout_strategy(own) if self.prior > 0 else None
        self._candidates = _candidates(v["rollout"], v["models"], self.kind, self.policy_params)
        self._cands = Models(
            np.array([k for k, _, _ in self._candidates], np.int64),
            np.array([p for _, p, _ in self._candidates], np.float64),
        )
        """The candidates' (kinds, params) as the model fit reads them, built once."""
        self._uniform = uniform_models(self.kind, self.policy_params)
        """Every seat modelled by the rollout policy: each decision edits a copy."""
        self.own_kind, self.own_params = _rollout_policy(own, what="own playout policy")
        self._kinds = np.array(
            [self.kind, self.own_kind, *(k for k, _, _ in self._candidates)], np.int64
        )
        """Every policy kind the search plays: C's kernels serve it when they have them all."""
        self.model_min = max(v["model_min"], 1)
        self.model_steps = v["model_steps"]
        self.model_pool = v["model_pool"]
        self.infer = (v["infer_tries"] > 1 or v["infer_steps"] > 0) and v["infer_lambda"] > 0
        self.reuse = v["reuse"]
        self._memory: list[tuple[tuple, Any, Any]] = []
        """(game key, fitted deals, chain deal) after this game's recent decisions (``reuse``)."""
        self._replay = Replay()
        """The game's public history replayed so far, for the evidence of the next decision."""
        self.config = Config(
            c=v["c"],
            shaping=v["shaping"],
            rollout_depth=v["rollout_depth"],
            dealt=1.0,  # set per decision from the player count
            infer_lambda=v["infer_lambda"],
            playouts=v["playouts"],
            max_depth=min(v["max_depth"] or MAX_DEPTH - 1, MAX_DEPTH - 1),
            model_opponents=v["model_opponents"],
            infer_tries=v["infer_tries"],
            infer_steps=v["infer_steps"],
            # only an iteration budget knows how many iterations are left
            stop_early=v["stop_early"] and v["time_ms"] == 0,
            prior_action=-1,  # set per decision when ``prior`` > 0
            prior_visits=0.0,
            warm_deal=False,  # set per decision when a deal carries over (``reuse``)
            widen=v["widen"],
            stop_margin=v["stop_margin"],
        )
        self.last_models: dict[int, str] = {}
        """Policy that modelled each opponent seat in the last ``choose`` (seat -> label)."""
        self.last_iterations = 0
        """Iterations the last ``choose`` ran (0 when it had a single legal action)."""
        self.last_nodes = 0
        """Tree nodes the last ``choose`` built, the root included."""
        self.last_visits: dict[Action, int] = {}
        """Visits of each root action searched by the last ``choose`` (for analysis)."""
        self.last_rejects = 0
        """Deals the last ``choose`` redrew because they contradicted a pass."""

    __init__ = SETTINGS.constructor(_configure, prepare=resolve_preset)

    def choose(
        self, view: PlayerView, legal: tuple[Action, ...], rng: np.random.Generator
    ) -> Action:
        if len(legal) == 1:
            self.last_iterations = 0
            self.last_nodes = 0
            self.last_visits = {}
            self.last_models = {}
            return legal[0]
        start = time.perf_counter()
        pub, sizes = public_board(view)
        seat = view.player
        kseed = int(rng.integers(2**63))
        kern = cengine.kernels(self._kinds)  # C when the engine plays them, else numba
        krng = kern.rng_new(np.uint64(kseed))
        cap = 4 * self.iterations + 1 if self.iterations else _NODE_CAP
        tree = new_tree(cap)
        stats = np.zeros(N_STATS, np.int64)
        stats[S_NODES] = 1
        n = view.n_players
        dealt = float(view.rules.hand_size_for(n)) if n in view.rules.players else 1.0
        cfg = self.config._replace(dealt=max(dealt, 1.0))
        if self.prior > 0:
            # The own playout policy's move starts ahead by prior x the iteration budget: a
            # short search overrides it only when another move is clearly better.
            # (With a time budget only, the head start is prior x the iterations run.)
            head = self._prior_move(view, legal, rng, pub, sizes)
            cfg = cfg._replace(prior_action=head, prior_visits=self.prior * self.iterations)
        select = len(self._candidates) > 1
        ev = self._replay.evidence(view) if self.infer or select else NO_EVIDENCE
        key = _game_key(view) if self.reuse else None
        fitted, chain, since = self._recall(key)
        if select:
            kinds, params, fitted = self._seat_models(view, pub, sizes, ev, kseed, fitted, since)
        else:
            kinds, params = (a.copy() for a in self._uniform)
            rollout = self._candidates[0][2]
            self.last_models = {p: rollout for p in range(n) if p != seat}
        kinds[seat] = self.own_kind
        params[seat] = self.own_params
        if not self.infer:
            ev = NO_EVIDENCE
        deal = np.empty_like(pub)
        # the deal chain's answers (two counts a swap), for these models and this evidence
        swaps = (self.iterations or 1000) * cfg.infer_steps if len(ev.seats) else 0
        memo = new_memo(memo_bits(2 * swaps) if swaps else 0)
        warm = chain is not None and cfg.infer_steps > 0 and len(ev.seats) > 0
        if warm:
            kern.carry_deal(chain, since, pub, seat, sizes, krng, deal)
            cfg = cfg._replace(warm_deal=True)
        pos = Position(pub, seat, sizes)
        models = Models(kinds, params)
        state = SearchState(tree, stats, deal, memo)
        run = kern.searcher(pos, cfg, models, ev, krng, state)  # run(n): n more iterations
        if self.time_ms <= 0:
            run(self.iterations)
        else:
            deadline = start + self.time_ms / 1000.0
            left = self.iterations if self.iterations else -1
            while left != 0 and time.perf_counter() < deadline:
                step = _CHUNK if left < 0 else min(_CHUNK, left)
                run(step)
                if left > 0:
                    left -= step
                if stats[S_NODES] >= cap and self.iterations == 0:
                    break  # a full tree cannot grow: stop rather than spin on leaf playouts
        if key is not None:
            chained = cfg.infer_steps > 0 and len(ev.seats) > 0 and stats[S_ITERS] > 0
            self._remember(key, fitted, deal.copy() if chained else None)
        self.last_rejects = int(stats[S_REJECTS])
        self.last_iterations = int(stats[S_ITERS])
        self.last_nodes = int(stats[S_NODES])
        counts = root_visits(tree)
        self.last_visits = {a: counts[a.id] for a in legal if a.id in counts}
        if cfg.prior_action >= 0:
            bonus = cfg.prior_visits if self.iterations else self.prior * self.last_iterations
            counts[cfg.prior_action] = counts.get(cfg.prior_action, 0) + bonus
        return _most_visited(legal, counts)

    def _prior_move(
        self, view: PlayerView, legal: tuple[Action, ...], rng: np.random.Generator,
        pub: np.ndarray, sizes: np.ndarray,
    ) -> int:  # fmt: skip
        """The id of the own playout policy's move (``prior``). A built-in whose ``choose``
        draws nothing decides on this decision's public board, which that ``choose`` would
        build again from the view; any other strategy chooses from the view."""
        policy = self._prior_policy
        if type(policy).choose is CompiledBuiltin.choose and not policy.classifier["stochastic"]:
            return decide_board(*policy.compiled(), pub, view.player, sizes, 0)
        return policy.choose(view, legal, rng).id

    def start_game(self, view: PlayerView, rng: np.random.Generator) -> None:
        self._memory = []  # nothing of another game carries over
        self._replay = Replay()

    def _recall(self, key: tuple | None) -> tuple[Any, Any, Any]:
        """(fitted deals, chain deal, since) of the latest earlier decision of the game
        ``key`` names, ``since[p]`` what seat ``p`` played minus took from then to now; or
        (None, None, None). Asked again at a position it has decided, the strategy starts
        from the decision before, so the answer is the same."""
        if key is None:
            return None, None, None
        n, seat, hand, history = key
        for (n2, seat2, hand2, past), fitted, chain in reversed(self._memory):
            same_game = (n2, seat2, hand2) == (n, seat, hand)
            if same_game and len(past) < len(history) and history[: len(past)] == past:
                since = np.zeros((SEAT_SLOTS, N_VALUES), np.int64)
                for who, act in history[len(past) :]:
                    if act.value:  # a pass taking nothing (take=nothing) moves no card
                        since[who, act.value - 1] += -1 if act.is_pass else act.count
                return fitted, chain, since
        return None, None, None

    def _remember(self, key: tuple, fitted: Any, chain: Any) -> None:
        """Keep this decision's deals for the next one (and the one before, for a repeat)."""
        self._memory = [m for m in self._memory if len(m[0][3]) < len(key[3])][-1:]
        self._memory.append((key, fitted, chain))

    def _seat_models(
        self, view: PlayerView, pub: np.ndarray, sizes: np.ndarray, ev: Any, kseed: int,
        fitted: Any = None, since: Any = None,
    ) -> tuple[np.ndarray, np.ndarray, Any]:  # fmt: skip
        """Per-seat (kinds, params, fitted deals): each opponent with at least ``model_min``
        past decisions gets the candidate that best explains them (``refit_models``; ties:
        the rollout policy). ``fitted``: each candidate's fitted deal of an earlier decision
        of this game, to start from (None: fit from fresh draws).

        Uses its own kernel RNG stream derived from ``kseed`` (``MODEL_SALT``), so the
        search's stream is the same as without model selection.
        """
        kinds, params = (a.copy() for a in self._uniform)
        seat = view.player
        self.last_models = {p: self._candidates[0][2] for p in range(view.n_players) if p != seat}
        if len(ev.seats) == 0 or len(ev.seats) < self.model_min:
            return kinds, params, None
        cand_kinds, cand_params = self._cands
        fit = np.zeros((len(cand_kinds), SEAT_SLOTS), np.int64)
        kern = cengine.kernels(self._kinds)
        mrng = kern.rng_new(np.uint64(kseed) ^ MODEL_SALT)
        warm = fitted is not None
        deals = fitted.copy() if warm else np.empty((len(cand_kinds), *pub.shape), pub.dtype)
        carry = Carry(deals, since if warm else np.zeros((SEAT_SLOTS, N_VALUES), np.int64), warm)
        tries = _WARM_TRIES if warm else _MODEL_TRIES
        kern.refit_models(
            Position(pub, seat, sizes), mrng, ev, self._cands, tries, self.model_steps, fit, carry
        )
        others = fit.sum(axis=1)[:, None] - fit  # the other opponents' contradictions
        best = np.argmin(fit + self.model_pool * others, axis=0).tolist()  # one call, all seats
        for p in range(view.n_players):
            if p == seat:
                continue
            m = best[p]  # first minimum: the rollout policy on ties
            kinds[p] = cand_kinds[m]
            params[p] = cand_params[m]
            self.last_models[p] = self._candidates[m][2]
        return kinds, params, deals


def _game_key(view: PlayerView) -> tuple:
    """What names the game and the position of a decision: player count, seat, the hand the
    seat was dealt (its hand now, plus what it played, minus what it took) and the public
    history. A decision may start from an earlier one's deals only if this key extends it."""
    hand = list(view.hand)
    history = view.history  # built anew at each read
    for who, act in history:
        if who == view.player and act.value:
            hand[act.value - 1] += -1 if act.is_pass else act.count
    return view.n_players, view.player, tuple(hand), history


def uniform_models(kind: int, params: np.ndarray) -> Models:
    """Per-seat ``Models`` (``kinds`` int64[SEAT_SLOTS], ``params`` float64[SEAT_SLOTS,
    N_PARAMS]) with one policy for every seat, as the kernels take them."""
    return Models(
        np.full(SEAT_SLOTS, kind, np.int64),
        np.tile(np.asarray(params, np.float64), (SEAT_SLOTS, 1)),
    )


def _candidates(rollout: Any, models: Any, kind: int, params: np.ndarray) -> list[tuple]:
    """(kind, params, label) of the candidate opponent models, the rollout policy first.

    ``models``: specs separated by ``+`` (or by commas when none has parameters), or a
    sequence of specs; ``"all"``: every registered compiled built-in (so no opponent meets a
    search that never considered its way of playing); empty: the rollout policy only (no
    selection). Duplicates are dropped.
    """
    if isinstance(models, str):
        text = models.strip()
        if text == ALL_MODELS:
            specs = _compiled_policies()
        else:
            specs = [] if not text else text.split("+") if "+" in text else text.split(",")
    elif isinstance(models, list | tuple):
        specs = list(models)
    else:
        raise ValueError(f"ismcts: models must be a text like 'weighted,taker', got {models!r}")
    label = rollout if isinstance(rollout, str) else get(rollout).label
    out = [(kind, params, label)]
    for spec in specs:
        if isinstance(spec, str) and not spec.strip():
            raise ValueError(f"ismcts: empty policy name in models {models!r}")
        k, p = _rollout_policy(spec, what="opponent model")
        if all(k != k2 or not np.array_equal(p, p2) for k2, p2, _ in out):
            out.append((k, p, spec.strip() if isinstance(spec, str) else get(spec).label))
    return out


_SCANNED = [False]
"""Whether this process has loaded the installed strategies (``_compiled_policies``)."""


def _compiled_policies() -> list[str]:
    """Every registered compiled strategy but the searches: the ``"all"`` models.

    The installed packages' strategies (entry points) are loaded into the registry at the
    first call of a process only: reading them costs about 4 ms, more than a fast search's
    decision, and a gauntlet builds an instance a game. A strategy registered at run time
    is a candidate at once; one installed while the process runs, from the next process.
    """
    with warnings.catch_warnings():  # an entry point that cannot load is no compiled model:
        warnings.simplefilter("ignore")  # a search never names it (research extra missing)
        names = filtered(compiled=True, search=False, installed=not _SCANNED[0])
    _SCANNED[0] = True
    return names


def _rollout_strategy(spec: Any) -> Strategy:
    """A compiled playout policy as a strategy (``own``'s move is the ``prior``)."""
    return get(spec)


def _most_visited(legal: tuple[Action, ...], counts: dict[int, float]) -> Action:
    """The legal action with the most root visits (ties and unvisited: the lowest id)."""
    best = legal[0]
    best_n = counts.get(best.id, 0)
    for a in legal[1:]:
        n = counts.get(a.id, 0)
        if n > best_n:
            best, best_n = a, n
    return best


def _rollout_policy(spec: Any, what: str = "rollout policy") -> tuple[int, np.ndarray]:
    """(kind, params) of the compiled playout policy named by ``spec``."""
    try:
        strat = get(spec)
    except ValueError as exc:
        raise ValueError(f"ismcts: bad {what}: {exc}") from None
    compiled = strat.compiled()
    if compiled is None:
        raise ValueError(
            f"ismcts: {what} {strat.label!r} has no compiled form; "
            "use a built-in such as 'taker' or 'random'"
        )
    kind, params = compiled
    vec = np.zeros(N_PARAMS, np.float64)
    p = np.asarray(params, np.float64).ravel()
    vec[: len(p)] = p[:N_PARAMS]
    return int(kind), vec
