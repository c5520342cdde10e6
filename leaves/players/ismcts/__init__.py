"""``ismcts``: information-set Monte Carlo tree search over determinizations.

Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012): one tree, rooted at the searching
player's information set, whose nodes are keyed by the public action history from the root
(own and opponents' actions alike). Each iteration

1. *determinizes*: deals the cards the searcher cannot place (``PlayerView.unseen``) into the
   opponents' hidden slots and the undealt pile, keeping every hand size and every publicly
   known card. Plain deals are uniform (the distribution of ``PlayerView.sample_state``, done in
   numba). With inference on (``infer_tries``/``infer_steps``, the default) deals are drawn
   from the posterior under the *opponent model* "opponents play like the rollout policy":
   every past opponent decision is replayed on its public board with the sampled hand (what
   the seat holds now plus what it played minus what it took since) and a deal under which
   the policy would have decided otherwise counts as a *contradiction*. The first deal of a
   decision comes from rejection sampling (``infer_tries`` draws, keeping the least
   contradicting one); the following ones from a Markov chain that swaps hidden cards between
   holders (``infer_steps`` swaps per iteration) and targets deals weighted by
   ``exp(-infer_lambda * contradictions)``: a swap that adds ``d`` contradictions is kept with
   probability ``exp(-infer_lambda * d)``. This *soft* rejection lets a wrong opponent model
   degrade gracefully: with hard rejection (``infer_lambda >= 1e6``) the chain clings to the
   few deals that best fit the wrong model, which measured worse than no inference at all;
   a position with no past decisions to weigh (a game's first decision, or one set up by
   hand with ``State.from_dict``, which keeps no history, so who played what before is
   unknown) is dealt uniformly, consistent with the public facts only: the hand sizes and
   the undealt pile's, the cards on the table and removed, the cards known to be in a hand
   (taken on a pass and not played since); a history that starts at no deal (such a
   position set up at turn 0, then played on) weighs none either (``evidence.Replay``);
2. *selects* down the tree (by default the whole tree, ``max_depth=0``, widened) with UCB1 over the
   children whose action is legal in this deal, with **availability counts** (a child's
   exploration term uses how often it was available, not the parent's visits), since legal
   moves vary by deal. With ``model_opponents`` (the default)
   opponents' moves inside the tree are played by the rollout policy, not chosen by UCB, and
   the tree records them as branches, so own nodes stay keyed by the whole public history;
3. *expands* one untried legal action, then *plays out* the deal to its end with a fast
   compiled policy (param ``rollout``: any strategy spec whose ``compiled()`` is not None);
4. *backs up* a reward vector: each node adds the reward of the seat that acted into it, so
   every seat maximizes its own outcome (max-n style) in a multi-player game.

Reward of a playout for seat ``i``: ``(1 - shaping) * [i won] + shaping * shed_i`` where
``shed_i = 1 - min(cards left, hand size dealt) / hand size dealt`` (the fraction of a starting
hand shed). The default ``shaping=0`` scores wins only: measured against ``taker``, even
``shaping=0.1`` played worse (holding cards back is often right in 13 Leaves).

*Opponent model selection* (``models``, default ``"all"``: every compiled built-in): before
searching, each candidate policy models every opponent in turn; a deal is fitted to it (the
least contradicting of a few uniform deals, then ``model_steps`` swaps that never add
contradictions) and its contradictions are counted per seat (``fit_models``). Each opponent
seat is then modelled by the candidate with the lowest count, the other opponents' counts
added with weight ``model_pool`` (a table-wide prior that settles ties while a seat has
little history; ties overall keep the rollout policy). That model plays the seat in
inference, in the tree and in playouts; the searcher itself plays the rollout policy in
playouts. Selection uses its own RNG stream, derived from the same seed.

Defaults (1600 iterations, ``max_depth=0``, ``widen=2``, ``rollout="weighted"``,
``infer_lambda=2``, ``models="all"``, ``model_steps=150``) were measured in 4-player games
against three of every other built-in (``benchmarks/bench_ismcts_field.py``, figures in
docs/strength.md). With only the policies it was first tuned against as candidates
(``"weighted,taker"``) the search met ``low`` and ``high`` with a wrong model and won only
45-49% of 4-player games against three of them; with every built-in as a candidate, about
three games in four. ``settings.PRESETS`` names three settings: ``fast`` (the flat search at
300 iterations, about a fifth of the time), ``flat`` (the flat search at 2000 iterations, the
defaults before the widened tree) and ``strong`` (12,800 iterations over a sharper,
more mobile deal chain, for play against a person).

*The widened tree by default* (``max_depth=0``, ``widen=2``): with opponents played by their
models (``model_opponents``) the tree below the searcher's move re-plans its own later moves,
at information sets keyed by the public history. UCB1 there would try every legal move once
before preferring any, so a root move's value would start as the average over every later
move, bad ones included; *progressive widening* makes the mover's policy move a node's first
child and adds another only from ``widen x children**2`` visits on, so values start from the
policy's play and improve on it where the visits allow. At 1600 iterations it takes the flat
search's time at 2000 and wins 4.4 points more against three ``weighted`` on the same deals;
unwidened, the full tree was not shown better (docs/strength.md, with the commands).
``max_depth=1`` is the flat search: the tree holds only the searcher's next move and the rest
of every iteration is a playout; with
``model_opponents`` ``max_depth=2`` searches as ``max_depth=1`` does (the second ply is an
opponent's modelled move), and ``widen`` changes nothing there (it acts below the root).

*Reuse* (``reuse``, on): a game asks the strategy many times, and what one decision learnt
about the hands is a good start for the next. Each candidate's fitted deal and the deal
chain's last deal are kept after a decision and carried to the next position of the same
game (``carry.carry_deal``: every holder keeps its cards moved on by what it played and
took since, the cards seen since are dealt anew), where the carried deal competes with a few
fresh draws instead of twenty, and the chain starts from it instead of rejection sampling.
The store is keyed by the game (seat, the hand it was dealt, the public history so far) and
cleared by ``start_game``: an instance that played other games decides as a new one does.

*Memo*: a deterministic model's contradictions for a seat depend only on the hand the deal
gives it, and the chain's swaps keep returning to the same hands; one search answers them
from a table keyed by (seat, hand) (``inference.memo_count``): the same chain (tested), for
a few percent less time at the defaults, where the playouts take most of it.

With an iteration budget, ``stop_early`` ends the loop once the most visited root move
leads every other by more visits than iterations are left: the move played (the most
visited) cannot change, so it is found sooner. ``stop_margin`` < 1 stops once the lead
exceeds that share of the iterations left: clear decisions end sooner, so a larger budget
goes to the close ones at the same time on average (docs/strength.md measures it).

The whole search loop (deal, select, expand, play out, back up) runs in one compiled kernel
over flat node arrays: the C engine's (``csrc/ismcts.h``, through ``cengine``: nothing to
compile at first use) when it is built, else numba's, the same search draw for draw. Python
only builds the public board and the opponents' decision record, and slices the work into
chunks to honour ``time_ms``. The arrays that travel together reach the kernels as
namedtuples (``Position``, ``Models``, ``Check``, ``Carry``, ``Memo``, ``Tree``,
``SearchState``, ``Config``), which numba unpacks at no cost.

Modules: ``settings`` (every parameter declared once, and the ``Config`` the kernel reads),
``evidence`` (the opponents' past decisions, replayed with the core's kernels),
``inference`` (deals that fit them, model fitting), ``carry`` (deals carried from one
decision to the next), ``tree`` (the search kernel), ``cengine`` (the same kernels in C, and
which set a decision calls) and ``strategy`` (the ``ISMCTS`` class that drives it). All
randomness comes from the ``rng`` passed to ``choose`` (one draw seeds the kernel RNG), so
with an iteration budget (``time_ms=0``) a decision depends only on the view and the seed.
"""

from __future__ import annotations

from .carry import carry_deal
from .evidence import NO_EVIDENCE, Evidence, evidence
from .inference import (
    NO_MEMO,
    Carry,
    Check,
    Memo,
    Models,
    Position,
    determinize,
    draw_deal,
    fit_models,
    memo_count,
    mismatches,
    new_memo,
    refit_models,
    seat_mismatches,
    swap_step,
)
from .settings import SETTINGS, Config
from .strategy import ISMCTS, uniform_models
from .tree import SearchState, Tree, new_tree, playout_rewards, search

__all__ = [
    "Carry",
    "Check",
    "Config",
    "Evidence",
    "ISMCTS",
    "Memo",
    "Models",
    "NO_EVIDENCE",
    "NO_MEMO",
    "Position",
    "SETTINGS",
    "SearchState",
    "Tree",
    "carry_deal",
    "determinize",
    "draw_deal",
    "evidence",
    "fit_models",
    "memo_count",
    "mismatches",
    "new_memo",
    "new_tree",
    "playout_rewards",
    "refit_models",
    "search",
    "seat_mismatches",
    "swap_step",
    "uniform_models",
]
