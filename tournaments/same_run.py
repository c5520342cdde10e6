"""Whether an output directory may take a tournament: empty, or holding this same run to resume.

Split from the runner (``runner.Tournament.check_out``) so that the rules of what counts as
the same run live in one place beside the spec they compare: a run grown by stages is the same
run (``stages.extends``), a game's former name is its name, entrants recorded by label alone
are described now, and an entrant whose code changed, or a game whose version or declaration
did, is named as the difference.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gamekit.errors import ParameterError

from . import storage
from .game import declaration, play_key
from .games import game_class, load_spec, names_game, run_game
from .labels import listed_in_order
from .manifest_fields import (
    RESUME_READS,
    NotThisVersion,
    check_entrant_params,
    check_fields,
    check_game,
    check_manifest,
    check_seating,
    check_seats,
)
from .result import corrupt_manifest
from .seating_record import patterns, played_under
from .session import spec_difference
from .stages import GROWN_KEYS, described_since, extends

__all__ = ["OtherRun", "Unusable", "check_out", "entrant_change", "game_change", "resume_refusal"]


class Unusable(ParameterError):
    """A run whose manifest cannot be used, refused with what to do (``storage.NO_MANIFEST``):
    the folder is at fault, not the command (exit 1). ``said`` (the folder's name, what is
    wrong) leads ``template``, whose markers alone are named: a folder 'a{out}b' stays so."""

    usage_error = False

    def __init__(self, said: str, template: str = "", *params: str) -> None:
        self.said = said
        super().__init__(template, *params)

    def worded(self, names: Mapping[str, str]) -> str:
        return self.said + super().worded(names)


class OtherRun(ParameterError):
    """A resume refused because ``out`` holds another tournament than the one asked for (its
    spec, an entrant's code, its seatings, or this run's games in other chunks): nothing there
    is a part of it. A caller whose own work keeps such a run as a part of it (a tuning's
    verification arm) says what to do with it."""


def check_out(t: Any, out: str | Path, resume: bool = False) -> dict[str, Any] | None:
    """Refuse a non-empty ``out`` without ``resume``, or one holding another tournament than
    ``t`` (a ``runner.Tournament``). Returns the manifest found there (None for a new run),
    with how its game loads again where an older version did not record it (``game_spec``).
    Raises ValueError (one line)."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise ValueError(f"{out} exists and is not a directory")
    if not storage.holds_files(out):  # a lock file alone: a run that wrote nothing yet
        return None
    storage.refuse_if_played(out)  # not "pass --resume", which the lock would refuse
    if not resume and not (out / storage.MANIFEST).is_file():  # no run: --resume fails too
        raise ParameterError(f"{out} is not empty and holds no run: pick a new {{out}}", "out")
    if not resume:
        raise ParameterError(
            f"{out} is not empty: pass {{resume}} to continue the run there, or pick a new "
            "{out}", "resume", "out",
        )  # fmt: skip
    old = storage.read_manifest(out)
    if old.get("format") != storage.FORMAT:
        raise ValueError(f"{out} does not hold a tournament run this version can resume")
    try:  # one missing is damage, not a difference, or an older version's run (``ADDED_SINCE``)
        check_fields(old, spec=RESUME_READS)
        check_seating(old["spec"])  # a newer version's run: said so, not "a different one"
        if same_game(t, old["spec"]):  # the run's own game seats its tables, or it is newer
            check_seats(t.game, old["spec"])
        check_entrant_params(old["spec"].get("entrants"))
    except ValueError as exc:
        raise _unusable(out, exc) from None
    _refuse_by_order(out, t.labels)
    spec = t.spec()
    diff = [k for k in spec if old["spec"].get(k) != spec[k]]
    if extends(old["spec"], spec):  # grown by more stages: its chunks are kept
        diff = [k for k in diff if k not in GROWN_KEYS]
    if "game" in diff and names_game(type(t.game), old["spec"].get("game")):
        diff.remove("game")  # the game's former name (a run recorded before its id changed)
    if diff == ["entrants"]:
        before = old["spec"].get("entrants")
        change = entrant_change(t, before, old.get("versions"))
        if change:
            raise OtherRun(f"cannot resume {out}: an entrant changed ({change})")
        if isinstance(before, list) and len(before) == len(spec["entrants"]):
            diff = []  # recorded by label only, described now (``described_since``)
    if diff:
        said = "; ".join(spec_difference(k, old["spec"].get(k), spec[k]) for k in diff)
        raise _grown_apart(out, old["spec"], spec, diff) or OtherRun(
            f"cannot resume {out}: it holds a different tournament (differs in {said})"
        )
    change = game_change(t.game, old)
    if change:
        raise OtherRun(
            f"cannot resume {out}: the game changed ({change}): resume it with the version "
            "that played it, or play the run in a new {out}", "out",
        )  # fmt: skip
    if not played_under(old.get("seating_design"), patterns(t.tables, t.seatings)):
        raise OtherRun(f"cannot resume {out}: it was played under other seatings than this "
                       f"version's {t.seating} design gives")  # fmt: skip
    old.setdefault("game_spec", load_spec(t.game))  # an older run's: a later resume loads it
    return old


def _unusable(out: Path, why: ValueError) -> ValueError:
    """The refusal of a resume whose manifest holds ``why``: damage, with what to do, as every
    other corrupt manifest is refused (``runner.usable``: ``storage.NO_MANIFEST``); a run
    another version played is not corrupt (``Tournament.check_out`` adds its own advice)."""
    said = corrupt_manifest(out, why, f"cannot resume {out}: ")
    if isinstance(said, NotThisVersion):
        return said
    return Unusable(f"{said}; ", storage.NO_MANIFEST, "out")


def _refuse_by_order(out: Path, labels: Any) -> None:
    """Refuse to resume a run whose entrants are told apart only by their listing order
    (``labels.listed_in_order``): the same listing in another order, or classes made again
    otherwise, would add one strategy's games to another's under one label."""
    ordered = listed_in_order(list(labels))
    if ordered:
        raise ParameterError(
            f"cannot resume {out}: {' and '.join(ordered)} are told apart only by the order "
            "they are listed in (classes of one qualified name made in a function), which a "
            "resume cannot check: give each class a name of its own, or play the run in a new "
            "{out}", "out",
        )  # fmt: skip


def _grown_apart(out: Path, old: dict[str, Any], new: dict[str, Any],
                 diff: list[str]) -> OtherRun | None:  # fmt: skip
    """The refusal of ``new`` where ``out`` holds that tournament grown by stages of deals but
    ``new`` does not extend them (asked for its games at once, or not grown): in the words a
    caller gives (``{games}``), not the spec's keys (``games_asked``, ``deal_stages``,
    ``n_chunks``). None where more than the games differ, or the run was never grown."""
    stages = old.get("deal_stages")
    if not set(diff) <= GROWN_KEYS or not isinstance(stages, list) or len(stages) < 2:
        return None
    asked, given, more = int(old["games_asked"]), int(new["games_asked"]), len(stages) - 1
    at_once = f", not asked for {{games}} {given:,} at once" if given != asked else ""
    return OtherRun(
        f"cannot resume {out}: it holds this run asked for {{games}} {asked:,} and grown since "
        f"by {more} more {'stage' if more == 1 else 'stages'} of deals to "
        f"{int(old['n_games']):,} games{at_once} (its games lie in other chunks): resume it as "
        f"it was asked ({{games}} {asked:,}) and grown",
        "games",
    )  # fmt: skip


def same_game(t: Any, spec: dict[str, Any]) -> bool:
    """Whether ``t`` plays the run's own game: the same game under the same settings (its
    rules). Only then does a table size ``t.game`` does not seat say a newer version played
    the run; under other rules it is another tournament, which the spec's difference says."""
    return names_game(type(t.game), spec["game"]) and spec.get("game_config") == t.spec().get(
        "game_config"
    )


def entrant_change(t: Any, old: list[dict[str, Any]] | None,
                   versions: Any = None) -> str | None:  # fmt: skip
    """How the first entrant of ``t`` that differs from its description ``old`` (as a run's
    spec recorded them) changed, in the game's words; None when none did, or ``old`` cannot
    be compared entrant by entrant. ``versions``: the run's (its manifest's), where the
    rules core's play version, which covers its built-in strategies, is compared instead of
    their package's version (``_built_in_alike``)."""
    new = t.entrants()
    if not isinstance(old, list) or len(old) != len(new):
        return None
    explain = getattr(t.game, "describe_change", None)
    core = _play_compared_core(t.game, versions)
    for before, after in zip(old, new, strict=True):
        if before != after and not described_since(before, after):
            if _built_in_alike(before, after, core):
                continue
            phrase = explain(before, after) if explain is not None else None
            return phrase or f"{after.get('label', '?')} changed"
    return None


def _play_compared_core(game: Any, versions: Any) -> str | None:
    """The rules core of ``game`` where both the run (its recorded ``versions``) and the game
    now record the core's play version, which ``game_change`` compares; None otherwise."""
    core = getattr(game, "rules_core", None)
    if not isinstance(core, str) or not isinstance(versions, dict):
        return None
    return core if play_key(core) in versions and play_key(core) in game.versions() else None


def _built_in_alike(before: Any, after: dict[str, Any], core: str | None) -> bool:
    """Whether two descriptions of an entrant differ only in the version of the package that
    provides it, where it is a built-in strategy of the rules core ``core`` (its class lives
    in that package): the core's play version covers it, and is compared instead."""
    if core is None or not isinstance(before, dict):
        return False
    module = str(after.get("class", "")).partition(":")[0]
    if module != core and not module.startswith(f"{core}."):
        return False
    rest = [{k: v for k, v in d.items() if k != "package"} for d in (before, after)]
    names = [str(d.get("package")).rpartition(" ")[0] for d in (before, after)]
    return rest[0] == rest[1] and names[0] == names[1] != ""


def game_change(game: Any, old: dict[str, Any]) -> str | None:
    """How ``game`` differs from the game that played the run whose manifest is ``old``: its
    own versions (``versions()``, e.g. its rules core's play version) and its declaration,
    each compared where the run recorded it (an older run's may lack a field). New chunks
    played by changed rules or columns would be summed with the run's under its old version
    and declaration. The declared name aside: a game's former name is its name
    (``names_game``). None: the same game."""
    said = []
    stored = old.get("versions")
    if isinstance(stored, dict):
        now = {key: str(value) for key, value in game.versions().items()}
        # a package whose play version both record: that says whether play changed, so a
        # release that plays alike resumes; a run recorded before keeps the package's alone
        said += [f"{key}: {value} here, {stored[key]} in the run"
                 for key, value in now.items()
                 if key in stored and str(stored[key]) != value
                 and not (play_key(key) in now and play_key(key) in stored)]  # fmt: skip
    before = old.get("game_declaration")
    if isinstance(before, dict):  # as the manifest keeps it: JSON's lists, floats, nulls
        now = json.loads(json.dumps(declaration(game)))
        fields = [k for k in now if k != "name" and k in before and before[k] != now[k]]
        if fields:
            said.append(f"its declaration differs in {', '.join(fields)}")
    return "; ".join(said) or None


def resume_refusal(manifest: dict[str, Any]) -> NotThisVersion | None:
    """Why this version's resume refuses the run of ``manifest``, in which nothing is damaged:
    an older version's manifest (``NotThisVersion``), or a game whose version or declaration
    changed since (``game_change``, as ``check_out`` refuses it); None where it resumes, and
    where the resume alone can tell (a damaged manifest, said where it is read; a game not
    installed, or given as ``module:Class``, code that reading a run never runs)."""
    try:
        check_manifest(manifest, required=RESUME_READS, resume=True)
    except NotThisVersion as exc:
        return exc
    except ValueError:
        return None
    if ":" in str(manifest.get("game_spec", "")) or ":" in str(manifest["spec"]["game"]):
        return None
    try:
        game = check_game(game_class(run_game(manifest)), manifest["spec"])
    except NotThisVersion as exc:
        return exc
    except ValueError:
        return None
    change = game_change(game, manifest)
    return NotThisVersion(f"the game changed ({change})") if change else None
