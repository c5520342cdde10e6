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

__all__ = [
    "DEFAULT_RULES_RUN", "VARIANTS_REPORT", "as_grown", "compared", "current", "finished_here",
    "grown", "stored_options", "stored_run",
]  # fmt: skip

DEFAULT_RULES_RUN = "default-rules"
"""Under ``--rules``: the folder in OUT of the same field under today's rules."""
VARIANTS_REPORT = "variants"
"""Under ``--rules``: the folder in OUT of the comparison of the rules with today's."""


def stored_run(out: Path, resume: bool) -> dict[str, Any] | None:
    """The manifest of the run in --out (None: a new run there), or a one-line error: --out a
    file, a folder holding something else, or --resume where there is no run."""
    from leaves_cli.writable import check_writable
    from tournaments import storage

    if not out.is_dir():  # a file at it or above it: said as every command's --out says it
        check_writable(out)
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
    options typed stay as given, and ``finished_here`` checks them against the run; --games
    typed is read as growing the run from its first ask with --resume, and without it where
    they are the games of a run grown since (``_grown_to``): the same games, as a finished
    run asked for them at once is this run."""
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
    grow = "games" in given and _count(found["games"])
    grow = grow and (request.resume or _grown_to(spec, request.games))
    if grow:  # built at its first ask, then grown to the games typed (``grown``)
        given.discard("games")
    kept = {k: v for k, v in found.items() if k not in given and _count(v)}
    return Request.of({**request.values, **kept,
                       "grow_to": request.games if grow else None})  # fmt: skip


def _grown_to(spec: dict[str, Any], games: Any) -> bool:
    """True when the run ``spec`` was grown by stages of deals and ``games`` rounds up to the
    deals it holds now: the run a fresh one of ``games`` plays, its chunks laid out from its
    first ask (built at that ask and grown, it is the run there, not another)."""
    from tournaments.schedule import deals_for  # start-up: it loads numpy

    stages, n = spec.get("deal_stages"), spec.get("n_games")
    if not isinstance(stages, list) or len(stages) < 2 or not all(map(_count, [n, *stages])):
        return False
    return _count(games) and stages[-1] > 0 and deals_for(games, n // stages[-1]) == stages[-1]


def _count(value: Any) -> bool:
    """True for a whole number of at least 0 as a manifest holds one (no bool)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def grown(t: Any, out: Path, request: Request) -> Any:
    """``t`` (the run in --out as it is) grown to the ``--games`` given with ``--resume``, as
    ``leaves tournament --resume --games N`` grows a run: one new stage of deals, every game
    played kept, the run a fresh one of N games with this seed would be. Fewer games than the
    run holds are refused in one line (a run grows, it never shrinks); ``t`` where none is
    asked or it already holds them."""
    from tournaments.schedule import deals_for
    from tournaments.stages import grown_stages

    games = request.get("grow_to")
    if games is None:
        return t
    stages, per = list(t.schedule.stages), t.schedule.seats_per_set
    if deals_for(games, per) < stages[-1] and games != t.games_asked:
        raise CLIError(f"cannot resume {out}: --games {games:,} is fewer than the "
                       f"{t.n_games:,} {t.units} this run holds already (asked {t.games_asked:,}): "
                       f"a run grows, it never shrinks: resume with --games {t.n_games} or more, "
                       "or drop --games", usage=True)  # fmt: skip
    try:  # more than a run may hold: said as 'leaves tournament --resume' says it
        wanted = grown_stages(stages, per, t.games_asked, games, units=t.units)
    except ValueError as exc:
        raise CLIError(f"cannot resume {out}: {CLIError.of(exc).message}", usage=True) from None
    return t if wanted == stages else t.with_stages(wanted)


def _words(value: Any, count: bool) -> str:
    """A spec value as a short line names it: a count with separators, a list with slashes."""
    if isinstance(value, list):
        return "/".join(map(str, value))
    return f"{value:,}" if count and isinstance(value, int) else str(value)


_FLAGS = {"players": "--players", "games": "--games", "seed": "--seed", "other": "--rules"}
"""The flag of each difference ``_differences`` names (by its first word)."""


def _differences(stored: dict[str, Any], t: Any, games: bool) -> list[str]:
    """What a person would name that differs between the run stored and the one asked for:
    the strategies (then only they), players, games, seed, rules (no design's internal key).
    The games only where ``games``: --games typed, not to grow the run (with --resume it
    grows it; not typed, the run's own first ask stands in for it, ``stored_options``): never
    a count no one typed."""
    old, new = stored["spec"], t.spec()
    said = []
    if old.get("strategies") != new["strategies"]:
        names = [str(x) for x in old.get("strategies") or []]
        shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 4 else
                                        "".join(f", {x}" for x in names[3:]))  # fmt: skip
        return [f"a run of other strategies ({shown})"]  # the rest differs with them
    from tournaments.stages import extends

    for key, what in (("players", "players"), ("n_games", "games"), ("seed", "seed")):
        if key == "n_games" and (not games or extends(old, new)):
            continue  # not asked, or grown to the --games given: its deals are kept
        if old.get(key) != new[key]:
            there, here = (_words(v, key == "n_games") for v in (old.get(key), new[key]))
            said.append(f"{what} {there} there, {here} here")
    if (old.get("game_config") or {}).get("rules") != (new.get("game_config") or {}).get("rules"):
        said.append("other rules")
    return said


def finished_here(t: Any, out: Path, stored: dict[str, Any], request: Request, asked: int,
                  write: Callable[[], Path], compare: Callable[[], Path | None]) -> bool:  # fmt: skip
    """Refuse another run in --out (one line); True when --out already holds this one,
    finished, and there is nothing to play (said, with where its report is, written first
    by ``write`` where it is missing or of fewer games, the comparison under --rules by
    ``compare`` alike, and what else to do); False when the run is to be played (resumed).
    A finished run whose files (its run under today's rules' too) are not all there at the
    sizes its manifest records is refused, naming --resume, which writes them again.
    ``asked``: the games the options ask for (fewer than ``t``'s where the run was grown
    since)."""
    from leaves_cli.origins import FLAG, origin
    from tournaments.run_state import shell_word  # start-up: it loads numpy

    said = _differences(stored, t, not request.resume and origin({}, "games") == FLAG)
    if said:
        lead = f"cannot resume {out}: it holds" if request.resume else f"--out {out} holds"
        tail = ": choose another --out" if not request.resume else ""
        what = said[0] if said[0].startswith("a run of") else f"another run ({'; '.join(said)})"
        if request.resume and said[0].startswith("a run of"):
            tail = f": 'leaves tournament --resume --out {shell_word(out)}' continues it"
        elif request.resume:
            flags = " and ".join(_FLAGS[d.split(" ")[0]] for d in said)
            tail = f": drop {flags} to resume it, or choose another --out"
        elif not request.resume and _more_games(said, t, stored):
            what = f"this run with fewer games ({said[0]})"
            tail = (
                f": '{_grow_command(out, request, str(request.games))}' grows it, or choose "
                "another --out"
            )
        raise CLIError(f"{lead} {what}{tail}", usage=True)
    try:
        t.check_out(out, resume=True)
    except ValueError as exc:  # the same options, but e.g. an entrant's code changed
        raise CLIError.of(exc, usage=True) from None
    if request.resume:
        return False
    n, done = int(stored["spec"]["n_games"]), int(stored.get("units_done") or 0)
    grown = f", {_grown_from(stored['spec'], n)}" if n != asked else ""
    unfinished = f"{done:,} of {n:,} games{grown}" if stored.get("status") != "complete" else None
    if unfinished is None and compared(t):
        unfinished = _baseline_behind(out / DEFAULT_RULES_RUN, n)
    if unfinished is not None:
        raise CLIError(f"--out {out} holds this run unfinished ({unfinished}): pass --resume to "
                       "continue it, or choose another --out", usage=True)  # fmt: skip
    runs = [out, *([out / DEFAULT_RULES_RUN] if compared(t) else [])]
    gone = next(filter(None, map(_files_gone, runs)), None)
    if gone is not None:  # finished once: a resume writes them again
        raise CLIError(f"--out {out} holds this run, but {gone}, or choose another --out",
                       usage=True)  # fmt: skip
    page = out / "report" / ("report.html" if request.fmt == "html" else "report.md")
    where = _report_said(out, page, write)
    click.echo(f"{out} already holds this run, finished: {n:,} games{grown}, seed {t.seed}; "
               f"{where}")  # fmt: skip
    _comparison_said(t, out, request.fmt, compare)
    click.echo(f"to play another: 'leaves run --out NEW' (with --seed N for other deals); to "
               f"grow this one: '{_grow_command(out, request, 'N')}'")  # fmt: skip
    return True


def _grown_from(spec: dict[str, Any], n: int) -> str:
    """How the run grew to its ``n`` games, in the words of its own header
    (``Tournament.rounded_note``): the games first typed, the stages of deals added."""
    from tournaments.stages import asked_note

    first = spec.get("games_asked") or spec.get("n_games")  # as ``stored_options`` reads it
    return asked_note(int(first), len(spec.get("deal_stages") or [0]) - 1, n, "stage")


def compared(t: Any) -> bool:
    """Whether ``leaves run`` compares the run ``t`` with the same field under today's rules:
    under --rules, at a table size today's rules deal (else the run stands alone)."""
    if t.game.rules.is_default:
        return False
    from leaves_cli.tournament_parts import load_game

    return set(t.spec()["players"]) <= set(load_game("leaves", {}).rules.players)


def _more_games(said: list[str], t: Any, stored: dict[str, Any]) -> bool:
    """True when the games alone differ (``_differences``), more asked than the run holds:
    this run, which ``--resume`` grows."""
    return (
        len(said) == 1
        and said[0].startswith("games ")
        and t.n_games > int(stored["spec"]["n_games"])
    )


def _grow_command(out: Path, request: Request, games: str) -> str:
    """The command that grows the run in ``out`` to ``games`` and brings its report (and
    under --rules the same field under today's rules and the comparison) up to date."""
    from tournaments.run_state import shell_word  # start-up: it loads numpy

    flags = "" if request.fmt == "html" else f" --format {request.fmt}"
    return f"leaves run --resume --out {shell_word(out)} --games {games}{flags}"


def _baseline_behind(baseline: Path, n: int) -> str | None:
    """What the same field under today's rules (``leaves run --rules``) lacks beside the
    run's ``n`` games, which ``--resume`` plays (the run grown by 'leaves tournament
    --resume' leaves it behind); None when it holds them all, finished."""
    if not _complete(baseline):
        return "the same field under today's rules not played yet"
    from tournaments import storage

    held = int(storage.read_manifest(baseline)["spec"]["n_games"])
    if held != n:
        return f"the same field under today's rules holds {held:,} games, the run {n:,}"
    return None


def _files_gone(run: Path) -> str | None:
    """The files the manifest of the finished ``run`` records that a look finds missing or of
    another size (``sizes_differ``: no checksum read), the first named, and what plays them
    again; None where none."""
    from tournaments import storage
    from tournaments.checked_files import sizes_differ

    gone = sizes_differ(run, storage.read_manifest(run))
    if not gone:
        return None
    if len(gone) == 1:  # a chunk's file: its chunk played again; a merged one: from the chunks
        return f"{run / gone[0]} is missing or changed: pass --resume to write it again"
    return (f"{run / gone[0]} and {len(gone) - 1:,} more of its files are missing or changed: "
            "pass --resume to write them again")  # fmt: skip


def _report_said(out: Path, page: Path, write: Callable[[], Path]) -> str:
    """Where the report of the finished run in ``out`` is: ``page`` where it describes the
    run as it is now (its "played" line is the run's), else written first by ``write``: a
    run grown by 'leaves tournament --resume' keeps the report of its games before."""
    before, there = described(page) if _whole(page) else None, page.is_file()
    if current(out, page):
        return f"its report: {page}"
    page = write()
    if before is None:
        return f"its report, {'written again' if there else 'written now'}: {page}"
    return f"its report, brought up to date (it described {before.split(' (')[0]}): {page}"


def current(out: Path, page: Path) -> bool:
    """True when the report ``page`` describes the run in ``out`` as it is now (its "played"
    line is the run's ``RunState.extent``): a run grown since needs it written again."""
    from tournaments.run_state import run_state

    return _whole(page) and described(page) == run_state(out).extent()


def _whole(page: Path) -> bool:
    """Was ``page`` written to its end? An HTML page closes its document; one cut short (a
    full disk, a kill) is written again, never named as the run's report."""
    if page.suffix != ".html":
        return True
    try:
        return page.read_bytes().rstrip().endswith(b"</html>")
    except OSError:
        return False


_ITEM = {
    ".html": r"<dt>{}</dt><dd>([^<]*)</dd>",
    ".md": r"^- \*\*{}\*\*: (.*)$",
}
"""An item of a page's overview as ``reports.page`` renders it: the report's "played"
(``reports.sections.overview``: how much of its run it describes), the comparison's
"games" (``reports.variants_page``: each rule set's games)."""


def described(page: Path, item: str = "played") -> str | None:
    """How much of its run the report ``page`` describes ("720 games (finished)", the run's
    ``RunState.extent`` then), or the comparison page's ``item`` "games" ("default 720,
    take=ends 720"); None where there is no page, or it does not say."""
    try:
        text = page.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    pattern = _ITEM.get(page.suffix)
    found = re.search(pattern.format(item), text, re.MULTILINE) if pattern else None
    return html.unescape(found[1]) if found else None


def _comparison_said(t: Any, out: Path, fmt: str, compare: Callable[[], Path | None]) -> None:
    """Under --rules, the comparison with today's rules of a finished run whose two runs
    hold the same games: said where ``compare`` had to write it first, as it was missing
    or described other games (written before the runs grew); nothing where it is current."""
    if not compared(t):
        return
    page = out / VARIANTS_REPORT / ("report.html" if fmt == "html" else "report.md")
    before, games = described(page, "games"), f"{t.n_games:,}"
    if before == f"default {games}, {t.game.rules} {games}":
        return
    written = compare()
    if written is None:  # no comparison here (``reports.variants`` not installed)
        return
    how = "written now" if before is None else f"brought up to date (it described {before})"
    click.echo(f"rules compared with today's, {how}: {written}")


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
