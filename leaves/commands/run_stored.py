"""``leaves run`` into an --out that holds a run already: what is there, and what to do.

Split from the command (``run``) because telling runs apart is a job of its own: the manifest
in --out read (or refused in one line when it holds something else), the run asked for
compared with it in the words a person would name (strategies, players, games, seed, rules),
and a finished run said with where its report is and how to play another or grow this one.

Imports inside functions: start-up. The packages a command runs on load once its options are
checked, so ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from leaves_cli.errors import CLIError
from leaves_cli.request import Request

__all__ = ["DEFAULT_RULES_RUN", "as_grown", "finished_here", "stored_options", "stored_run"]

DEFAULT_RULES_RUN = "default-rules"
"""Under ``--rules``: the folder in OUT of the same field under today's rules."""


def stored_run(out: Path, resume: bool) -> dict[str, Any] | None:
    """The manifest of the run in --out (None: a new run there), or a one-line error: --out a
    file, a folder holding something else, or --resume where there is no run."""
    from tournaments import storage

    if out.exists() and not out.is_dir():
        raise CLIError(f"--out {out} exists and is not a directory", usage=True)
    try:  # before any advice about the run there, which the lock would refuse
        storage.refuse_if_played(out)
    except ValueError as exc:
        raise CLIError(str(exc)) from None
    lost = storage.lost_manifest(out)  # a run's files without it: not a folder of no run
    if lost is not None:
        raise CLIError.of(lost, usage=True)
    if not (out / storage.MANIFEST).is_file():
        full = storage.holds_files(out)  # a lock file alone: a run that wrote nothing yet
        if resume:
            how = "choose another --out" if full else "leave out --resume to start one there"
            raise CLIError(f"cannot resume {out}: it holds no run (no manifest.json); {how}",
                           usage=True)  # fmt: skip
        if full:
            raise CLIError(f"--out {out} is not empty and holds no run: choose another --out",
                           usage=True)  # fmt: skip
        return None
    try:
        gauntlet = "gauntlet" in (storage.read_manifest(out).get("spec") or {})
    except (ValueError, AttributeError, TypeError):
        gauntlet = False  # an unreadable manifest: read_spec says what is wrong with it
    if gauntlet:
        where = f"cannot resume {out}: it holds" if resume else f"--out {out} holds"
        how = "the same 'leaves gauntlet' command with --resume continues it"
        raise CLIError(f"{where} a gauntlet: {how if resume else 'choose another --out'}",
                       usage=True)  # fmt: skip
    from leaves_cli.resume import read_spec

    return read_spec(str(out))


def stored_options(request: Request, stored: dict[str, Any] | None) -> Request:
    """The options not typed, taken from the run in --out: with --resume its games, players
    and seed (the folder is all a resume needs, as for 'leaves tournament'); without, its
    games alone (a run of this field and settings is this command's whatever its size). The
    options typed stay as given, and ``finished_here`` checks them against the run."""
    if stored is None:
        return request
    from leaves_cli.origins import FLAG, origin

    spec = stored.get("spec") or {}
    found = {"games": spec.get("games_asked") or spec.get("n_games")}  # its first stage
    if request.resume:
        players = spec.get("players")
        found["players"] = players[0] if isinstance(players, list) and len(players) == 1 else None
        found["seed"] = spec.get("seed")
    given = {name for name in found if origin({}, name) == FLAG}  # typed on the command line
    kept = {k: v for k, v in found.items()
            if k not in given and isinstance(v, int) and not isinstance(v, bool) and v >= 0}  # fmt: skip
    return Request.of({**request.values, **kept})


def _words(value: Any, count: bool) -> str:
    """A spec value as a short line names it: a count with separators, a list with slashes."""
    if isinstance(value, list):
        return "/".join(map(str, value))
    return f"{value:,}" if count and isinstance(value, int) else str(value)


def _differences(stored: dict[str, Any], t: Any) -> list[str]:
    """What a person would name that differs between the run stored and the one asked for:
    the strategies (then only they), players, games, seed, rules (no design's internal key)."""
    old, new = stored["spec"], t.spec()
    said = []
    if old.get("strategies") != new["strategies"]:
        names = [str(x) for x in old.get("strategies") or []]
        shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 4 else
                                        "".join(f", {x}" for x in names[3:]))  # fmt: skip
        return [f"a run of other strategies ({shown})"]  # the rest differs with them
    for key, what in (("players", "players"), ("n_games", "games"), ("seed", "seed")):
        if old.get(key) != new[key]:
            there, here = (_words(v, key == "n_games") for v in (old.get(key), new[key]))
            said.append(f"{what} {there} there, {here} here")
    if (old.get("game_config") or {}).get("rules") != (new.get("game_config") or {}).get("rules"):
        said.append("other rules")
    return said


def finished_here(t: Any, out: Path, stored: dict[str, Any], request: Request, asked: int,
                  write: Callable[[], Path]) -> bool:  # fmt: skip
    """Refuse another run in --out (one line); True when --out already holds this one,
    finished, and there is nothing to play (said, with where its report is, written first
    by ``write`` where it is missing or of fewer games, and what else to do); False when the
    run is to be played (resumed). ``asked``: the games the options ask for (fewer than
    ``t``'s where the run was grown since)."""
    from tournaments.run_state import shell_word  # start-up: it loads numpy

    said = _differences(stored, t)
    if said:
        lead = f"cannot resume {out}: it holds" if request.resume else f"--out {out} holds"
        tail = ": choose another --out" if not request.resume else ""
        what = said[0] if said[0].startswith("a run of") else f"another run ({'; '.join(said)})"
        if request.resume and said[0].startswith("a run of"):
            tail = f": 'leaves tournament --resume --out {shell_word(out)}' continues it"
        raise CLIError(f"{lead} {what}{tail}", usage=True)
    try:
        t.check_out(out, resume=True)
    except ValueError as exc:  # the same options, but e.g. an entrant's code changed
        raise CLIError.of(exc, usage=True) from None
    if request.resume:
        return False
    n, done = int(stored["spec"]["n_games"]), int(stored.get("units_done") or 0)
    grown = f", grown from the {asked:,} asked" if n != asked else ""
    unfinished = f"{done:,} of {n:,} games{grown}" if stored.get("status") != "complete" else None
    baseline = out / DEFAULT_RULES_RUN
    if unfinished is None and not (t.game.rules.is_default or _complete(baseline)):
        unfinished = "the same field under today's rules not played yet"
    if unfinished is not None:
        raise CLIError(f"--out {out} holds this run unfinished ({unfinished}): pass --resume to "
                       "continue it, or choose another --out", usage=True)  # fmt: skip
    page = out / "report" / ("report.html" if request.fmt == "html" else "report.md")
    where = _report_said(out, page, write)
    click.echo(f"{out} already holds this run, finished: {n:,} games{grown}, seed {t.seed}; "
               f"{where}")  # fmt: skip
    quoted = shell_word(out)
    click.echo(f"to play another: 'leaves run --out NEW' (with --seed N for other deals); to "
               f"grow this one: 'leaves tournament --resume --out {quoted} --games N', then "
               f"'leaves report {quoted}'")  # fmt: skip
    return True


def _report_said(out: Path, page: Path, write: Callable[[], Path]) -> str:
    """Where the report of the finished run in ``out`` is: ``page`` where it describes the
    run as it is now (its "played" line is the run's), else written first by ``write``: a
    run grown by 'leaves tournament --resume' keeps the report of its games before."""
    from tournaments.run_state import run_state

    before, there = described(page), page.is_file()
    if before == run_state(out).extent():
        return f"its report: {page}"
    page = write()
    if before is None:
        return f"its report, {'written again' if there else 'written now'}: {page}"
    return f"its report, brought up to date (it described {before.split(' (')[0]}): {page}"


_PLAYED = {
    ".html": re.compile(r"<dt>played</dt><dd>([^<]*)</dd>"),
    ".md": re.compile(r"^- \*\*played\*\*: (.*)$", re.MULTILINE),
}
"""The line of a report's page that says how much of its run it describes
(``reports.sections.overview``'s "played", as ``reports.page`` renders it)."""


def described(page: Path) -> str | None:
    """How much of its run the report ``page`` describes ("720 games (finished)", the run's
    ``RunState.extent`` then); None where there is no page, or it does not say."""
    try:
        text = page.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    found = _PLAYED[page.suffix].search(text) if page.suffix in _PLAYED else None
    return html.unescape(found[1]) if found else None


def as_grown(t: Any, stored: dict[str, Any]) -> Any:
    """``t`` grown to the stored run's deal stages where that run is ``t`` grown by
    ``leaves tournament --resume --games N`` (the same run, more deals); else ``t``."""
    from tournaments.stages import grows, with_stages

    spec, there = t.spec(), stored["spec"]
    if there.get("n_games") == spec["n_games"] or not grows(spec, there):
        return t
    return with_stages(t, there["deal_stages"])


def _complete(out: Path) -> bool:
    """True when ``out`` holds a finished run; False where it holds none, or one unfinished;
    one that lost its manifest or has a corrupt one is said in one line (its resume fails)."""
    from gamekit.errors import ParameterError
    from tournaments import storage
    from tournaments.result import checked_manifest

    lost = storage.lost_manifest(out)
    if lost is not None:
        raise CLIError.of(lost, usage=True)
    if not (out / storage.MANIFEST).exists():
        return False
    try:
        return checked_manifest(out).get("status") == "complete"
    except ValueError as exc:  # (a list, not a table: no Python error from deep inside)
        raise CLIError.of(ParameterError(f"{exc}; {storage.NO_MANIFEST}", "out")) from None
