"""``tune``: CMA-ES over a strategy's tunable parameters, scored by focused tournaments.

Each generation, every candidate and the starting parameters play the same focused tournament
(same seed: the same deals and seatings), so they are compared on common random numbers; the
seeds change from one generation to the next, so the search cannot fit one set of deals.
CMA-ES (the ``cma`` package) maximises the win rate against the field; its Gaussian draws come
from a generator derived from the tuning seed. Noisy scores can carry the search mean away from
where the best candidates were, so a selection stage (a tenth of the budget) replays a few
finalists (the final search mean and the candidates that beat the starting parameters by the
most on their generation's deals) on new common deals and keeps the best. A verification
tournament on fresh seeds then compares it with the starting parameters, paired game by game
(none where it is the start itself: both arms would play the same games, nothing to verify).
Every finished generation and finalist is saved (``tuning.checkpoint``), so an interrupted
tuning resumes to the result it would have reached uninterrupted.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

import strategies
from reports.numbers import TOO_FEW, counted, p_text
from tournaments import derive_seeds
from tournaments.notices import runs_as_one
from tournaments.progress import RunProgress
from tournaments.same_run import OtherRun
from tournaments.storage import refuse_if_played, run_lock

from . import checkpoint, effect
from .advice import headline, recommends_tuned
from .cautions import MIN_VERIFY_UNITS, WIDE_VERIFY, coarse_search, forfeit_warnings, noticed
from .cautions import warnings as _warnings
from .checkpoint import State, game_setting
from .evaluate import Score
from .output import played_as, write
from .plan import FINALISTS, TARGET_GENERATIONS, Plan, as_played, checked, units_of
from .space import Space
from .verify import Verification, compare

__all__ = ["TuneResult", "tune", "TUNE_SEED_KEYS", "TARGET_GENERATIONS", "SIGMA0",
           "MIN_VERIFY_UNITS", "WIDE_VERIFY"]  # fmt: skip

TUNE_SEED_KEYS = {"cma": 100, "generation": 101, "verify": 102, "select": 103}
"""SeedSequence spawn-key prefixes under the tuning seed: the optimiser's draws, generation g's
tournament seed (101, g), the verification tournament's seed (102, 0) and the selection
stage's (103, 0)."""

SIGMA0 = 0.05
"""Initial step size, as a fraction of every parameter's range: small, because the defaults of a
built-in are already a good (and sharp) optimum; a wide first generation (0.2) lost 20
percentage points of win rate against the field and spent the whole budget of the acceptance run
finding its way back."""


@dataclass
class TuneResult:
    """What ``tune`` found; the same is written to ``out``. ``best_spec``/``best``: what the
    verification recommends (the tuned parameters where they proved better than the start,
    the start otherwise: what ``best.txt`` holds); ``tuned_spec``/``tuned``: the parameters the
    search found and the verification played (default: ``best_spec``/``best``);
    ``verification``: None where they are the start's (nothing to verify); ``files``: the
    SHA-256 of each user's strategy file the tuning played, by path; ``shown``: the
    ``warnings`` this session showed as they came (``cautions.noticed``), which ``lines`` does
    not repeat."""

    out: Path
    spec: str
    best_spec: str
    best: dict[str, Any]
    start: dict[str, Any]
    candidates: pd.DataFrame
    search: pd.DataFrame
    verification: Verification | None
    settings: dict[str, Any]
    warnings: list[str] = field(default_factory=list)
    tuned_spec: str = ""
    tuned: dict[str, Any] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)
    shown: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.tuned_spec = self.tuned_spec or self.best_spec
        self.tuned = self.tuned or dict(self.best)

    def headline(self) -> str:
        """What was found and what ``best.txt`` holds (``tuning.advice``): the tuned spec
        only where the verification found it better than the start."""
        return headline(self)

    def lines(self) -> list[str]:
        """A short account of the result, for a terminal."""
        s = self.settings
        return [
            self.headline(),
            f"search: {counted(s['generations_run'], 'generation')} x "
            f"{counted(s['popsize'], 'candidate')} (+ start) x "
            f"{counted(s['candidate_games'], 'game')}, then {counted(s['finalists'], 'finalist')}"
            f" x {counted(s['finalist_games'], 'game')}: {counted(s['games_used'], 'game')} of "
            f"the budget's {s['budget']:,}",
            *(f"{name}: {words}" for name, words in s.get("game_settings", {}).items()),
            *_verified(self.verification, self.spec),
            f"results in {self.out} ({s['wall_s']:.1f} s)",
            *(f"warning: {w}" for w in self.warnings if w not in self.shown),
        ]


def _verified(v: Verification | None, spec: str) -> list[str]:
    """The verification's lines: both arms' win rates and their paired difference, or why
    none was played (the search came back to the start ``spec``)."""
    if v is None:
        return [f"no verification: the tuned parameters are the start's ({spec}), which would "
                "play the same games in both arms; nothing to verify"]  # fmt: skip
    t, st = v.tuned, v.start
    return [
        f"verification on fresh seeds ({t.games:,} games each, seed {v.seed}):",
        f"  tuned  {t.win_rate:.2%} {_rate_interval(t.ci_low, t.ci_high)}",
        f"  start  {st.win_rate:.2%} {_rate_interval(st.ci_low, st.ci_high)}",
        f"  paired difference {_paired(v)} over {counted(v.units, 'deal')}: {v.verdict}",
        *([f"  both arms together: {v.unfinished}"] if v.unfinished else []),
    ]


def _rate_interval(low: float, high: float) -> str:
    """A win rate's 95% interval in percent, or in words where the run gives none."""
    if not (np.isfinite(low) and np.isfinite(high)):
        return f"({TOO_FEW})"
    return f"[{low:.2%}, {high:.2%}]"


def _paired(v: Verification) -> str:
    """The paired difference of the two win rates, in percentage points, with its interval
    and p-value; where the deals give no interval, that in words and no p-value (no test)."""
    diff = v.difference(2)
    return diff if not np.isfinite(v.p_value) else f"{diff}, {p_text(v.p_value)}"


def _optimizer(space: Space, popsize: int, seed: int, sigma: float) -> Any:
    import cma  # start-up: cma loads to search

    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(TUNE_SEED_KEYS["cma"],)))
    # the draws never touch numpy's global state; they come from the tuning seed, through an
    # object that pickles with the optimiser (a resumed search draws what this one would)
    options = {
        "bounds": [0.0, 1.0],
        "popsize": popsize,
        "seed": np.nan,
        "randn": checkpoint.Gauss(rng),
        "verbose": -9,
        "verb_log": 0,
        "verb_disp": 0,
        "tolfun": 0.0,
        "tolfunhist": 0.0,
        "tolflatfitness": 10**9,  # equal noisy scores are no reason to stop
    }
    x0 = np.clip(space.start(), 0.0, 1.0)
    if space.dim == 1:  # cma needs two coordinates; a dummy one is ignored by decode
        x0 = np.append(x0, 0.5)
    return cma.CMAEvolutionStrategy(list(x0), sigma, options)


def tune(
    spec: str,
    against: str | Sequence[str],
    players: int | str | Sequence[int] = 4,
    budget: int = 200_000,
    seed: int | None = None,
    n_jobs: int = 1,
    out: str | Path | None = None,
    *,
    popsize: int | None = None,
    candidate_games: int | None = None,
    verify_games: int | None = None,
    sigma: float = SIGMA0,
    progress: bool = False,
    game: Any = None,
    resume: bool = False,
    log: Callable[[str], None] | None = None,
    ready: Callable[[Path], None] | None = None,
) -> TuneResult:
    """Tune the ``tunable`` parameters of ``spec`` against the field ``against``.

    ``budget`` is the number of games the search may play (candidates and the start, each
    generation, and the finalists' replay; never more, the verification aside);
    ``candidate_games`` fixes the games per evaluation (default: about
    ``TARGET_GENERATIONS`` generations). ``verify_games`` is the size of each arm of the
    verification (default: half the budget). ``popsize`` defaults to CMA-ES's 4 + 3 ln(dim),
    rounded down, dim at least 2 (one parameter is searched beside an ignored coordinate: 6);
    ``sigma`` is the initial step as a fraction of each range. ``game`` (a game plug-in, e.g.
    one under a rule variant, or a game id) is what every game is played as, and whose
    strategies the specs name (None: the runner's default game); ``tune.json`` records its id,
    settings and their words.
    Results depend only on the arguments and ``seed`` (None: fresh entropy, saved), never on
    ``n_jobs``. Writes to ``out`` (a new temporary directory when None).
    Every finished generation is saved in ``out`` (``tuning.checkpoint``): ``resume=True``
    continues an interrupted tuning there, given the same arguments (``seed`` None: the
    saved one), and ends as the uninterrupted tuning would; ``log`` receives the line that
    says what it continues from (and the one that says it removed a verification of the
    start against itself that an earlier version began: ``checkpoint.unverified``). ``ready``
    (e.g. a check that files can be written there) is called with the folder once every
    argument is checked, before anything is written there (a given ``out`` not made yet).
    """
    t0 = time.perf_counter()
    if out is not None:  # not "resume it", which the lock would refuse
        refuse_if_played(out)
    saved, note = checkpoint.load(out) if resume else (None, "")
    if saved is not None and seed is None:
        seed = saved.arguments["seed"]
    plan = checked(spec, against, players, budget, seed, n_jobs, out, popsize=popsize,
                    candidate_games=candidate_games, verify_games=verify_games, sigma=sigma,
                    game=game, resume=resume, ready=ready)  # fmt: skip
    with run_lock(plan.out):  # a second process tuning into this folder is refused
        return _tuned(plan, saved, (note, log), progress, t0)


def _tuned(plan: Plan, saved: State | None, said: tuple[str, Callable[[str], None] | None],
           progress: bool, t0: float) -> TuneResult:  # fmt: skip
    """The tuning ``plan`` asks for, continued from ``saved`` where given (``said``: the line
    saying so, and where to say it), written to its folder (``tune``)."""
    note, log = said
    state = _state(plan, saved)
    if saved is not None and log is not None:
        log(note)
        caution = checkpoint.unchecked(saved, plan.field.files)
        if caution is not None:
            log(caution)
    t0 -= state.wall_s  # the sessions before this one count
    with checkpoint.timed(plan.out, t0), runs_as_one(), noticed(state) as shown:  # each class once
        return _played(plan, state, (progress, log, shown), t0)


def _played(plan: Plan, state: State,
            session: tuple[bool, Callable[[str], None] | None, list[str]],
            t0: float) -> TuneResult:  # fmt: skip
    """The search, the selection and the verification that ``state`` leaves to play, then
    the result, written (``_tuned``; ``session``: its progress flag, the resume's log and the
    warnings it showed; ``t0``: when the tuning began, its sessions together)."""
    progress, log, shown = session
    spec = plan.spec
    finalists = _searched(plan, state, progress, t0)
    rows, search = state.rows, state.search
    with _bar(plan, state, len(finalists), progress) as bar:
        best = _select(plan, finalists, state, bar, t0)
    best_spec = strategies.spec_with(spec, best, plan.field.registry)
    no_effect, untried = effect.no_effect(rows), effect.untried(rows, plan.start)
    tiny = not untried and effect.tiny_steps(rows, plan.start, plan.space.units())
    if no_effect:  # every candidate played as the start did: nothing to call "best"
        best, best_spec = plan.start, spec
    tuned_spec, verification = _verify(plan, best_spec, progress)
    stale = checkpoint.unverified(plan.out) if verification is None else None
    if stale is not None and log is not None:  # only a resume can find one
        log(stale)
    tuned = best  # kept apart: best.txt holds it only where it proved better than the start
    better = verification is not None and recommends_tuned(verification)
    best_spec, best = (tuned_spec, tuned) if better else (spec, plan.start)
    candidates = pd.DataFrame(rows)
    settings = _settings(plan, candidates, len(search), len(finalists), verification)
    settings["no_effect"], settings["untried"] = no_effect, untried
    settings["tiny_steps"] = tiny
    settings["no_win"] = no_win = effect.no_win(rows)
    settings["wall_s"] = round(time.perf_counter() - t0, 3)
    derived = checkpoint.derived(state, plan)  # the first session's: its words, resumed or not
    said = _warnings(verification, no_effect and not (untried or no_win or tiny),
                     [p.name for p in plan.params], "verify_games" in derived)  # fmt: skip
    if not (no_effect or untried or no_win):  # candidates that played alike: none to rank
        said = coarse_search(rows, plan.games, "candidate_games" in derived) + said
    result = TuneResult(
        out=plan.out,
        spec=spec,
        best_spec=best_spec,
        best=best,
        start=plan.start,
        candidates=candidates,
        search=pd.DataFrame(search),
        verification=verification,
        settings=settings,
        warnings=[*forfeit_warnings(plan.out, rows), *said, *state.notices],
        tuned_spec=tuned_spec,
        tuned=tuned,
        files=dict(plan.field.files),
        shown=shown,
    )
    write(result, plan.space, plan.field.game)
    checkpoint.clear(plan.out)
    return result


def _state(plan: Plan, saved: State | None) -> State:
    """The saved tuning, refused in one line where a user's strategy file it played was
    edited since or the arguments differ from its own; a new one (saved at once, so that a
    tuning stopped in its first generation resumes) otherwise."""
    given = checkpoint.arguments(plan)
    if saved is not None:  # an edited file first: it explains other starting parameters
        error = checkpoint.edited(plan.out, saved.files, plan.field.files) or checkpoint.mismatch(
            plan.out, as_played(plan, saved.arguments), given, plan.derived, dict(plan.typed)
        )
        if error is not None:
            raise error
        return saved
    es = _optimizer(plan.space, plan.popsize, plan.seed, plan.sigma)
    state = State(given, es, plan.generations, files=dict(plan.field.files))
    checkpoint.save(plan.out, state)
    return state


def _searched(plan: Plan, state: State, progress: bool, t0: float) -> list[str]:
    """The search (what ``state`` holds of it is not played again), with a progress bar of
    its games: the finalists it leaves (``_finalists``)."""
    total = plan.generations * (plan.popsize + 1) * plan.games
    done = sum(int(r["games"]) for r in state.rows if r["kind"] != "finalist")
    with RunProgress(total, done, progress, units_of(plan.field)) as bar:
        mean_values = _search(plan, state, bar, t0)
    return _finalists(state.rows, _distinct(plan, mean_values))


def _bar(plan: Plan, state: State, finalists: int, progress: bool) -> RunProgress:
    """The progress bar of the ``finalists``' replays (those in ``state`` done); the
    verification, played only where the tuned parameters are not the start's, has its own."""
    total = finalists * plan.select_games
    done = sum(int(r["games"]) for r in state.rows if r["kind"] == "finalist")
    return RunProgress(total, done, progress, units_of(plan.field))


def _keep(plan: Plan, state: State, t0: float) -> None:
    """Save what is finished, with the wall time of the sessions so far."""
    state.wall_s = time.perf_counter() - t0
    checkpoint.save(plan.out, state)


def _search(plan: Plan, state: State, bar: RunProgress, t0: float) -> dict[str, Any]:
    """The CMA-ES generations not yet in ``state``: each candidate and the start on the
    generation's common deals (rows appended to ``state.rows``, the search path to
    ``state.search``), saved after each. Returns the final mean's values."""
    es = state.es
    gen_seeds = derive_seeds(plan.seed, (TUNE_SEED_KEYS["generation"],),
                             np.arange(plan.generations))  # fmt: skip
    dim = plan.space.dim
    for g in range(state.generation, plan.generations):
        gseed = int(gen_seeds[g])
        xs = es.ask()
        rows = [_row(g, -1, "start", plan.spec, plan.start,
                     plan.field.score(plan.spec, plan.games, gseed), gseed)]  # fmt: skip
        bar.advance(plan.games)
        fitness = []
        for i, x in enumerate(xs):
            values = plan.space.decode(x[:dim])
            cand = _distinct(plan, values)
            score = plan.field.score(cand, plan.games, gseed)
            bar.advance(plan.games)
            rows.append(_row(g, i, "candidate", cand, values, score, gseed))
            fitness.append(-score.win_rate)
        es.tell(xs, fitness)
        state.rows.extend(rows)
        state.search.append(
            {"generation": g, "sigma": float(es.sigma), **plan.space.decode(es.mean[:dim])}
        )
        state.generation = g + 1
        _keep(plan, state, t0)
    return plan.space.decode(es.mean[:dim])


def _select(plan: Plan, finalists: list[str], state: State, bar: RunProgress, t0: float
            ) -> dict[str, Any]:  # fmt: skip
    """The finalists not yet in ``state`` replayed on new common deals (each saved): the
    values of the best of them all (the first, on a tie)."""
    sseed = int(derive_seeds(plan.seed, (TUNE_SEED_KEYS["select"],), np.arange(1))[0])
    done = sum(1 for r in state.rows if r["kind"] == "finalist")
    for i, cand in enumerate(finalists[done:], start=done):
        score = plan.field.score(cand, plan.select_games, sseed)
        bar.advance(plan.select_games)
        values = plan.field.lookup(cand).params
        values = {p.name: values[p.name] for p in plan.params}
        state.rows.append(_row(plan.generations, i, "finalist", cand, values, score, sseed))
        _keep(plan, state, t0)
    played = [r for r in state.rows if r["kind"] == "finalist"]
    best = max(played, key=lambda r: (r["win_rate"], -r["candidate"]))  # the final mean first
    return {p.name: best[p.name] for p in plan.params}


def _settings(plan: Plan, candidates: pd.DataFrame, generations_run: int, finalists: int,
              verification: Verification | None) -> dict[str, Any]:  # fmt: skip
    """What tune.json's ``settings`` records of a run (no verification: 0 games, no seed)."""
    return {
        **checkpoint.searched(plan),
        "sigma0": plan.sigma,
        "generations_planned": plan.generations,
        "generations_run": generations_run,
        "finalists": finalists,
        "finalist_games": plan.select_games,
        "games_used": int(candidates["games"].sum()),
        "verify_games": verification.tuned.games if verification else 0,
        "verify_seed": verification.seed if verification else None,
        "parameters": {p.name: [p.low, p.high] for p in plan.params},
        "seed_keys": TUNE_SEED_KEYS,
        "jobs": int(plan.field.n_jobs),
        **game_setting(played_as(plan.field.game)),  # the default game's too: as the CLI's
    }


def _verify(plan: Plan, best_spec: str, progress: bool) -> tuple[str, Verification | None]:
    """The tuned and the starting parameters on the same fresh seeds, paired game by game
    (``tuning.verify``), with a progress bar of both arms' games. Where the search came back
    to the start, the tuned spec becomes the start's and nothing is played (None): the same
    spec on the same seeds plays the same games, so no number of them could tell it apart."""
    spec, out = plan.spec, plan.out
    if plan.field.lookup(best_spec).label == plan.field.lookup(spec).label:
        return spec, None
    vseed = int(derive_seeds(plan.seed, (TUNE_SEED_KEYS["verify"],), np.arange(1))[0])
    arm_games = plan.verify_games  # whole duplicate sets, as each arm plays them
    arms = []
    with RunProgress(2 * arm_games, 0, progress, "games") as bar:
        for name, arm_spec in (("tuned", best_spec), ("start", spec)):
            result = _arm(plan, arm_spec, vseed, out / checkpoint.VERIFY / name)
            bar.advance(arm_games)
            arms.append((arm_spec, plan.field.lookup(arm_spec).label, result))
    return best_spec, compare(arms[0], arms[1], vseed)


def _arm(plan: Plan, spec: str, seed: int, arm: Path) -> Any:
    """The verification arm of ``spec`` played into its folder ``arm`` (continued where it
    began). A run there that is not this arm (``same_run.OtherRun``: one an earlier version
    seated otherwise, say) is refused with what works for a tuning: the arm's folder removed,
    the resume plays that arm again."""
    try:
        return plan.field.play(spec, plan.verify_games, seed, arm, resume=checkpoint.begun(arm))
    except OtherRun as exc:
        raise checkpoint.StateError(
            f"{exc}; remove {arm} and resume the tuning, which plays that arm again (on the "
            "tuning's seed)"
        ) from None


def _finalists(rows: list[dict[str, Any]], mean_spec: str) -> list[str]:
    """The search mean, then the candidates that beat the start by most on their own deals."""
    df = pd.DataFrame(rows)
    start = df[df["kind"] == "start"].set_index("generation")["win_rate"]
    cand = df[df["kind"] == "candidate"].copy()
    cand["gain"] = cand["win_rate"].to_numpy() - start.loc[cand["generation"]].to_numpy()
    ranked = cand.sort_values(["gain", "generation", "candidate"], ascending=[False, True, True])
    out = [mean_spec]
    for spec in ranked["spec"]:
        if len(out) == FINALISTS:
            break
        if spec not in out:
            out.append(spec)
    return out


def _distinct(plan: Plan, values: dict[str, Any]) -> str:
    """The candidate's spec; nudged by one rounding step when it would equal an opponent."""
    game, space = plan.field.registry, plan.space
    cand = strategies.spec_with(plan.spec, values, game)
    step = 1
    while plan.field.lookup(cand).label in plan.opponents:
        x = space.encode(values)
        x[0] = x[0] + step / 1000 if x[0] < 0.5 else x[0] - step / 1000
        values.update(space.decode(x))
        cand = strategies.spec_with(plan.spec, values, game)
        step += 1
    return cand


def _row(
    generation: int,
    index: int,
    kind: str,
    spec: str,
    values: dict[str, Any],
    score: Score,
    seed: int,
) -> dict[str, Any]:
    return {
        "generation": generation,
        "candidate": index,
        "kind": kind,
        **values,
        "games": score.games,
        "wins": score.wins,
        "forfeits": score.forfeits,
        "win_rate": score.win_rate,
        "seed": seed,
        "spec": spec,
    }
