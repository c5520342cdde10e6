"""A tuning's saved state: what ``tune(..., resume=True)`` continues from.

After every finished generation (and every finalist of the selection) the tuning writes
``tune-state.pkl`` in its output folder: the settings that made it, the CMA-ES optimiser (the
``cma`` object pickled, with the generator its Gaussian draws come from, so the next
generation's candidates are the ones an uninterrupted run would draw), every evaluation so
far, the search path and the SHA-256 of every user's strategy file it plays (a resume refuses
one edited since: the saved generations played the code it held then). The file is written to
a temporary name, flushed to disk and renamed into place; the one it replaces is kept as
``tune-state.prev.pkl``, which a resume falls back to when the latest is damaged (a digest of
its contents is checked before it is read). A finished tuning (``tune.json`` written) removes
both. A Ctrl-C or SIGTERM during a save acts once the save is done.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import pickle
import shutil
import signal
import threading
import time
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from gamekit.errors import ParameterError
from reports.numbers import counted
from tournaments.storage import (
    MANIFEST,
    atomic_write_bytes,
    clean_temporaries,
    done_chunks,
    holds_files,
    lost_manifest,
)

from .evaluate import FileEdited

__all__ = ["STATE", "PREVIOUS", "VERIFY", "Gauss", "State", "StateError", "arguments",
           "begun", "derived", "game_setting", "finished", "load", "mismatch", "edited", "unchecked",
           "save", "clear", "saved_words", "searched", "timed", "unverified"]  # fmt: skip

STATE = "tune-state.pkl"
PREVIOUS = "tune-state.prev.pkl"
RESULT = "tune.json"
VERIFY = "verify"
"""The folder of the verification's runs, one an arm: ``verify/tuned``, ``verify/start``."""
_MAGIC = b"leaves-tune-state 1\n"


class StateError(ValueError):
    """A saved tuning that cannot be read (damaged, or written by an incompatible version)."""


class Gauss:
    """The optimiser's N(0, 1) draws (cma's ``randn`` option) from a generator of its own:
    never numpy's global state, and pickled with the optimiser, so a resumed search draws
    what the uninterrupted one would."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def __call__(self, *shape: int) -> np.ndarray:
        return self.rng.standard_normal(shape)


@dataclass
class State:
    """A tuning's progress: its ``arguments`` (``arguments(plan)``), the optimiser ``es``
    after ``generation`` finished generations, the evaluation ``rows`` (candidates, starts,
    finalists), the ``search`` path, the wall time of the sessions so far and ``files``: the
    SHA-256 of each user's strategy file the tuning plays, by path (``Field.files``)."""

    arguments: dict[str, Any]
    es: Any
    generations: int
    rows: list[dict[str, Any]] = field(default_factory=list)
    search: list[dict[str, Any]] = field(default_factory=list)
    generation: int = 0
    wall_s: float = 0.0
    files: dict[str, str] | None = None
    """None in a state saved before the files were recorded (read from the class: its pickle
    holds no such attribute), which a resume cannot check."""
    notices: tuple[str, ...] = ()
    """The warnings its play gave so far that tune.json keeps (``cautions.noticed``): a resume
    may not play again what gave them. Empty in a state saved before they were kept."""

    def words(self) -> str:
        """What is saved, in words: the generations, then the finalists replayed."""
        done = f"{self.generation} of {self.generations} generations"
        if self.generation < self.generations:
            return done
        finalists = sum(1 for r in self.rows if r["kind"] == "finalist")
        return f"{done} and {counted(finalists, 'finalist')} of the selection"


def game_setting(game: Any) -> dict[str, Any]:
    """The game a tuning was played as, when one was given: its id, the settings that rebuild
    it (``config()``) and their words (``settings_words()``, which the summary prints)."""
    if game is None:
        return {}
    return {"game": game.name, "game_config": game.config(),
            "game_settings": game.settings_words()}  # fmt: skip


def searched(plan: Any) -> dict[str, Any]:
    """What a tuning searched, with what and how hard: the strategy, its field, the table
    sizes, the budget, the seed, the population and the games per candidate (kept in a saved
    state and in tune.json: the one list of the settings the two share by name)."""
    return {
        "spec": plan.spec,
        "against": list(plan.field.against),
        "players": list(plan.field.players),
        "budget": plan.budget,
        "seed": plan.seed,
        "popsize": plan.popsize,
        "candidate_games": plan.games,
    }


def arguments(plan: Any) -> dict[str, Any]:
    """What makes a tuning's games and draws: a resume must be given the same (and run the
    same optimiser: another version of ``cma`` may step otherwise from the saved state). With
    them, the sizes its first session worked out rather than was given (``derived``: what
    its warnings advise to raise), which a resume may give as numbers and not change."""
    import cma  # start-up: cma loads to search

    return {
        **searched(plan),
        "sigma": plan.sigma,
        "verify_games": plan.verify_games,
        "game": game_setting(plan.field.game),
        "start": plan.start,
        "ranges": {p.name: [p.low, p.high] for p in plan.params},
        "cma": cma.__version__,
        "derived": sorted(plan.derived),
    }


def derived(state: State, plan: Any) -> frozenset[str]:
    """The sizes the tuning of ``state`` worked out in its first session (``arguments``), so
    that a resume ends as the uninterrupted tuning would; this session's (``plan.derived``)
    for a state saved before they were kept."""
    return frozenset(state.arguments.get("derived", plan.derived))


_WHAT = {
    "spec": ("the strategy", ()),
    "against": ("{against}", ("against",)),
    "players": ("{players}", ("players",)),
    "budget": ("{budget}", ("budget",)),
    "seed": ("{seed}", ("seed",)),
    "popsize": ("{popsize}", ("popsize",)),
    "sigma": ("{sigma}", ("sigma",)),
    "candidate_games": ("the games per candidate ({candidate_games})", ("candidate_games",)),
    "verify_games": ("the games per verification arm ({verify_games})", ("verify_games",)),
    "game": ("the game", ()),
    "start": ("the starting parameters", ()),
    "ranges": ("the parameters' ranges", ()),
    "cma": ("the optimiser (the cma package's version)", ()),
}
"""How a resume's one line names each argument (``{name}``: a parameter, which the command
line names by its flag)."""


def _words(value: Any) -> str:
    if isinstance(value, dict) and "game_settings" in value:  # a game by its settings' words
        words = "; ".join(f"{k} {v}" for k, v in value["game_settings"].items())
        return f"{value['game']} ({words})" if words else str(value["game"])
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True) if value else "none given"
    return str(value)


def _plays(key: str, value: Any) -> Any:
    """An argument as what it decides: the field in any order (a tournament's results never
    depend on the order its strategies are listed in)."""
    return sorted(value) if key == "against" and isinstance(value, list) else value


def _as_game(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """``arguments`` with no game given (``{}``: ``tune`` without ``game``) as the default
    game it plays, by the settings that name it, so that a tuning the Python API began
    resumes on the command line and the other way round."""
    if arguments.get("game") != {}:
        return dict(arguments)
    from tournaments.games import get_game  # start-up: the game registry reads entry points

    return {**arguments, "game": game_setting(get_game())}


def mismatch(out: Path, saved: dict[str, Any], given: dict[str, Any],
             derived: Collection[str] = (), typed: Mapping[str, int] | None = None
             ) -> ParameterError | None:  # fmt: skip
    """The one-line error naming every argument ``given`` differs from the tuning ``saved``
    in ``out``; None when they agree. ``derived``: the arguments worked out rather than given
    (``Plan.derived``), named only where none given differs (they follow from those), and
    then as not given; ``typed``: games given that were rounded up to whole duplicate sets
    (``Plan.typed``), named as typed beside what they became."""
    typed = typed or {}
    saved, given = _as_game(saved), _as_game(given)
    differ = [k for k in _WHAT if _plays(k, saved.get(k)) != _plays(k, given[k])]
    if any(k not in derived for k in differ):
        differ = [k for k in differ if k not in derived]
    parts, params = [], []
    for key in differ:
        what, names = _WHAT[key]
        here = _words(given[key])
        if key in typed:
            here = f"{typed[key]}, rounded up to {here}"
        here = f"not given here (worked out as {here})" if key in derived else f"{here} here"
        parts.append(f"{what} {here}, {_words(saved.get(key))} in the tuning")
        params.extend(names)
    if not parts:
        return None
    return ParameterError(f"cannot resume {out}: {'; '.join(parts)} (resume with its own "
                          "settings, or pick a new {out})", *params, "out")  # fmt: skip


def edited(out: Path, saved: dict[str, str] | None, files: dict[str, str]) -> FileEdited | None:
    """The one-line refusal of a resume where a user's strategy file the tuning in ``out``
    played (``saved``: by path, the SHA-256 it recorded) holds other bytes as this session
    loads it (``files``): its saved generations played other code than the rest would, and
    the result would belong to neither. None where every file is as it was (or ``saved`` is
    None: an older state, ``unchecked``)."""
    for path, before in (saved or {}).items():
        now = files.get(path)
        if now is not None and now != before:  # a file no longer played: another strategy
            return FileEdited.advised(
                f"cannot resume {out}: strategy file {path} changed since the tuning started "
                f"(SHA-256 {before[:12]} when it started, {now[:12]} now): its saved "
                "generations played the old code"
            )
    return None


def unchecked(state: State, files: dict[str, str]) -> str | None:
    """The line a resume says where ``state`` (saved by an older version) records no SHA-256
    of the users' strategy files that this session plays (``files``); None otherwise."""
    if state.files is not None or not files:
        return None
    named = ", ".join(sorted(files))
    which, them = (f"strategy file {named} is", "it") if len(files) == 1 else (
        f"strategy files {named} are", "them")  # fmt: skip
    return (f"cannot check that {which} unchanged since the tuning started: its saved state, "
            f"from an earlier version, records no SHA-256 of {them}")  # fmt: skip


def save(out: Path, state: State) -> None:
    """Write ``state`` durably to ``out``/``STATE``, keeping the one it replaces as
    ``PREVIOUS`` (a crash between the two renames leaves ``PREVIOUS``, which ``load`` reads).
    Ctrl-C and SIGTERM wait for the save to end: a finished generation is never lost to one."""
    blob = _blob(state)
    with _signals_held():
        if (out / STATE).is_file():
            os.replace(out / STATE, out / PREVIOUS)
        atomic_write_bytes(out / STATE, blob)


def _blob(state: State) -> bytes:
    """``state`` as a state file holds it: the magic line, the digest of the pickle, the
    pickle."""
    data = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
    return _MAGIC + hashlib.sha256(data).hexdigest().encode() + b"\n" + data


@contextlib.contextmanager
def timed(out: Path, since: float) -> Iterator[None]:
    """A session of the tuning in ``out`` that began at ``since`` (a ``time.perf_counter()``
    value, less the wall time of the sessions before it): stopped by Ctrl-C, SIGTERM or an
    error, the saved tuning's wall time becomes all it has spent, this session's whole time
    included, as a tournament counts each of its sessions whole. The saved progress itself
    is left as it was (only what finished is kept)."""
    try:
        yield
    except BaseException:
        _keep_time(out, time.perf_counter() - since)
        raise


def _keep_time(out: Path, wall_s: float) -> None:
    """The saved tuning in ``out`` rewritten with the wall time ``wall_s``, in place (the
    state before it stays the fallback); nothing where none can be read (finished, damaged)."""
    try:
        state = load(out)[0]
    except ValueError:
        return
    state.wall_s = wall_s
    with _signals_held():
        atomic_write_bytes(out / STATE, _blob(state))


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """SIGINT, SIGTERM and SIGHUP held back: one that arrives is acted on as it would have been (its
    handler called, or its default action) once the block ends. Outside the main thread,
    where handlers cannot be set, nothing is held."""
    hup = [signal.SIGHUP] if hasattr(signal, "SIGHUP") else []  # a closed terminal's
    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, *hup)}
    if threading.current_thread() is not threading.main_thread() or None in before.values():
        yield  # a handler set outside Python could not be put back
        return
    held: list[int] = []
    for s in before:
        signal.signal(s, lambda signum, frame: held.append(signum))
    try:
        yield
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)
        for signum in held[:1]:
            handler = before[signum]
            if callable(handler):
                handler(signum, None)
            elif handler == signal.SIG_DFL:
                signal.raise_signal(signum)


def _read(path: Path) -> State:
    """The state in ``path``; StateError saying why it cannot be read."""
    try:
        blob = path.read_bytes()
    except OSError as exc:
        raise StateError(f"unreadable: {exc.strerror or exc}") from None
    head, _, data = blob[len(_MAGIC) :].partition(b"\n")
    if not blob.startswith(_MAGIC) or hashlib.sha256(data).hexdigest().encode() != head:
        raise StateError("damaged: its contents do not match their digest")
    try:
        state = pickle.loads(data)  # noqa: S301 - the tuning's own file, checked by its digest
    except Exception as exc:  # a class gone or changed since it was written
        raise StateError(f"written by another version ({type(exc).__name__}: {exc})") from None
    if not isinstance(state, State):
        raise StateError("it holds no tuning state")
    return state


def load(out: str | Path | None) -> tuple[State, str]:
    """The saved tuning in ``out`` and a line saying what a resume continues from. One-line
    errors: no ``out``, a finished tuning, none saved, or every state file damaged."""
    if out is None:
        raise ParameterError("{resume} needs {out}: the folder of the tuning to continue",
                             "resume", "out")  # fmt: skip
    out = Path(out)
    done = finished(out)
    if done is not None:
        raise ParameterError(f"{out} holds a finished tuning, nothing to resume: {done}")
    _refuse_in_the_way(out)
    files = [out / name for name in (STATE, PREVIOUS) if (out / name).is_file()]
    if not files:  # a tuning starts only in a folder holding nothing: say where one can
        where = " in a new {out}" if holds_files(out) else ""
        raise ParameterError(f"cannot resume {out}: it holds no saved tuning (no {STATE}); "
                             f"leave out {{resume}} to start one{where}", "resume",
                             "out")  # fmt: skip
    problems = []
    for path in files:
        try:
            state = _read(path)
        except StateError as exc:
            problems.append(f"{path} is {exc}")
            continue
        note = f"resuming {out}: {state.words()} saved"
        if problems:
            note += f" ({problems[0]}: resumed from the one before)"
        return state, note
    raise StateError(f"cannot resume {out}: {'; '.join(problems)}; start again in a new folder")


def _refuse_in_the_way(out: Path) -> None:
    """StateError where a directory (or another file that is not a regular one) stands where
    a state file belongs: every save renames the latest state to ``PREVIOUS`` and writes
    ``STATE``, so the resume would play a generation and then fail to save it (naming the
    wrong file where ``PREVIOUS`` is in the way), its work lost. Said before anything plays."""
    for name in (STATE, PREVIOUS):
        path = out / name
        if path.is_file() or not (path.exists() or path.is_symlink()):
            continue
        kind = "a directory" if path.is_dir() else "not a regular file"
        raise StateError(f"cannot resume {out}: {path} is {kind}, where the tuning saves its "
                         "state: remove it, then resume again")  # fmt: skip


def finished(out: str | Path) -> str | None:
    """Where the result of the finished tuning in ``out`` is, in words ('its result is in
    OUT/tune.json (best spec in OUT/best.txt)'); None where ``out`` holds none."""
    out = Path(out)
    if not (out / RESULT).is_file():
        return None
    return f"its result is in {out / RESULT} (best spec in {out / 'best.txt'})"


def saved_words(out: str | Path) -> str | None:
    """What a resume of ``out`` would continue from (``State.words``, and the verification's
    games played so far), or None when nothing there can be resumed."""
    try:
        words = load(out)[0].words()
    except ValueError:
        return None
    if any(done_chunks(Path(out) / VERIFY / arm) for arm in ("tuned", "start")):
        words += " (and the verification's finished games, in verify/)"
    return words


def clear(out: Path) -> None:
    """Remove the state files of a finished tuning (its result files hold everything)."""
    for name in (STATE, PREVIOUS):
        (out / name).unlink(missing_ok=True)


def begun(arm: Path) -> bool:
    """Does the verification arm's folder hold a run that a resumed tuning continues? A run
    stopped before its manifest was written left at most the temporary files its writes
    began: they are removed, and the arm is played afresh. An arm's games without their
    manifest are refused with what works for a tuning: the arm's folder removed, the resume
    plays it again (its seed is the tuning's, so its games are the same)."""
    if (arm / MANIFEST).is_file():
        return True
    if lost_manifest(arm) is not None:
        raise StateError(
            f"{arm} holds a verification arm's games but not its {MANIFEST} (missing): nothing "
            f"vouches for them; restore it, or remove {arm} and resume the tuning, which plays "
            "that arm again (on the tuning's seed: the same games)"
        )
    clean_temporaries(arm)
    return False


def unverified(out: Path) -> str | None:
    """Remove the ``VERIFY`` folder of a tuning in ``out`` that verifies nothing (its tuned
    parameters are the start's), which only an earlier version, which played the start
    against itself there, can have left (a resume of one stopped in that verification): no
    result file names it, and its games compare nothing. The line saying so; None where there
    is no such folder."""
    folder = out / VERIFY
    if not (folder.exists() or folder.is_symlink()):
        return None
    if folder.is_dir() and not folder.is_symlink():
        shutil.rmtree(folder)
    else:
        folder.unlink()
    return (f"removed {folder}: an earlier version's verification of the start against "
            "itself, which this one does not play (the same games in both arms, nothing to "
            "verify)")  # fmt: skip
