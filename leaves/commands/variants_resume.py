"""``leaves variants --out DIR --resume``: continue an interrupted comparison of rule variants.
It has one job, resuming, kept whole: the state, its rebuilding and the designers' files it
keeps are read and checked together, which is why the module is long.

A comparison is several tournaments (one per rule set, DIR/<rules>) and the designers'
measures replayed from each. ``DIR/variants.json`` holds what the comparison was asked (the
field, the rule sets or sweep, the table sizes, games, the seed drawn, the samples replayed,
the ladder, the files loaded), written before any game is played, and, per rule set, the
designers' files written with their checksums and the checksums of the run they were
replayed from. On resuming, every option not given is read from it and every option given
must agree (one line naming the option, both values and what to do); a state missing or not
JSON is made again from the options given again and the runs' manifests (``rebuilt``: the
seed, table sizes, games and --expert read from the runs, each of which must be of a rule set
given; its line names which the options given make it, --rules or a --sweep of their values,
whose runs are alike). Each run then resumes as ``leaves tournament --resume`` does (its
chunks verified against its manifest, a finished run playing nothing, an unfinished one only
what it lacks); the designers' files of a rule set are kept where their checksums and their
run's still match and they are of this version, else replayed; the report is built again from
the runs, so it is the one an uninterrupted comparison writes.

Imports inside functions: start-up. The packages a command runs on load once its options are
checked, so ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import click

from gamekit.errors import shown
from leaves_cli.errors import CLIError

STATE = "variants.json"
FORMAT = 1
SAVED = {
    "specs": "strategies",
    "load": "--load",
    "rules": "--rules",
    "sweep": "--sweep",
    "players": "--players",
    "games": "--games",
    "seed": "--seed",
    "expert": "--expert",
    "trace_games": "--trace-games",
    "restricted_games": "--restricted-games",
    "restrict": "--restrict",
    "ladder": "--ladder",
}
"""The options that decide a comparison's games and measures (option: its flag), kept in
``STATE``; the others (--jobs, --format, --progress) change none of its numbers."""
DEFAULT_FIELD = "the default field, leaves run's built-ins"
"""What a comparison given no strategies plays, as a refusal to resume it names it."""
KINDS: dict[str, tuple[type, ...]] = {
    "specs": (list, str), "load": (list, str), "rules": (list, str), "players": (list, int),
    "sweep": (str, type(None)), "restrict": (str, type(None)), "ladder": (str, type(None)),
    "games": (int,), "seed": (int,), "trace_games": (int,), "restricted_games": (int,),
    "expert": (bool,),
}  # fmt: skip
"""The kind of each kept option's value (a list: then the kind of its items)."""
LEAST = {"games": 1, "seed": 0, "trace_games": 0, "restricted_games": 0}
"""The least value of each kept whole number: the command's own ranges (its options')."""
EARLIER_RUN = hashlib.sha256(b"null").hexdigest()
"""The run checksum an earlier version recorded for every rule set's designers' measures (of
a manifest key that does not exist): it tells no run from another, so they are recomputed."""


def _of_kind(name: str, value: Any) -> bool:
    """True when a kept option's value is of the kind ``KINDS`` gives (a hand-edited or
    damaged state is refused, not read as options)."""
    kind = KINDS[name]
    if kind[0] is list:
        return isinstance(value, list) and all(isinstance(v, kind[1]) for v in value)
    return isinstance(value, kind) and (kind == (bool,) or not isinstance(value, bool))


def resume_command(out: Path, fmt: str = "html") -> str:
    """The command that continues the comparison in ``out``; one whose page is Markdown
    (``fmt``: --format, which ``STATE`` does not keep) asks for it again, so that the resume
    writes the page the comparison would have."""
    from tournaments.run_state import shell_word  # start-up: only when a run stops

    page = "" if fmt == "html" else f" --format {fmt}"
    return f"leaves variants --out {shell_word(out)} --resume{page}"


def settle(ctx: click.Context, opts: dict[str, Any]) -> tuple[dict[str, Any], dict | None]:
    """The options and, with --resume, the comparison's state in --out: the options not
    given read from it, those given checked against it."""
    from leaves_cli.request import draft

    values, given = draft(ctx, opts)
    if not values["resume"]:
        return values, None
    out = Path(values["out"])
    try:
        state, note = read_state(out), ""
    except _Lost as lost:  # the options given, and the runs' own, make it again
        state, note = rebuilt(out, values, given, lost)
    _refuse_in_the_way(out)
    saved = state["options"]
    sweep = saved["sweep"] is not None
    for name, flag in SAVED.items():
        if name == "games" and "games" in given and values["games"] != saved["games"]:
            values["games_asked"] = values["games"]  # checked by what it plays: check_games
        elif name in given and (_plays(name, _kept(name, values[name]), sweep)
                                != _plays(name, saved[name], sweep)):  # fmt: skip
            from leaves_cli.resume_words import disagreement  # start-up: only a refusal needs it

            what = "strategies" if name == "specs" else flag  # the flag in both halves
            none = DEFAULT_FIELD if name == "specs" else f"no {flag}"
            raise disagreement(str(out), flag, _said(name, values[name]), what,
                               _said(name, saved[name]), none)  # fmt: skip
        values[name] = _given(name, saved[name])
    if note:  # said once the options given agree with it
        click.echo(note, err=True)
    return values, state


def _refuse_in_the_way(out: Path) -> None:
    """One line where a directory (or another file that is not a regular one) stands where a
    rule set's designers' files belong: the resume would play on, replay the measures and
    then fail to write them, in the system's words. Said before anything plays."""
    from reports.designer_measures import GAMES_FILE, RESTRICTED_FILE

    for name in (GAMES_FILE, RESTRICTED_FILE):
        for path in sorted(out.glob(f"*/{name}")):
            if not path.is_file():
                kind = "a directory" if path.is_dir() else "not a regular file"
                raise CLIError(f"cannot resume {out}: {path} is {kind}, where the comparison "
                               "writes a rule set's designers' measures: remove it, then resume "
                               "again")  # fmt: skip


def check_games(request: Any, rules: Any, field: list[str], played: int) -> None:
    """A --games given on resuming other than the comparison's own (``settle`` kept it as
    ``games_asked``): refused only where it plays another number of games a rule set than
    the ``played`` ones (both round up to whole duplicate sets: 30 and 40 may ask the same
    40), as the command builds its tournaments (``rules``: today's)."""
    asked = request.get("games_asked")
    if asked is None:
        return
    from leaves_cli.request import Request

    from .variants import _tournaments  # the one way the command builds its tournaments

    again = Request.of({**request.values, "games": asked})
    if _tournaments([rules], field, again)[0].n_games == played:
        return
    from leaves_cli.resume_words import disagreement  # start-up: only a refusal needs it

    raise disagreement(str(request.out), "--games", asked, "--games", request.games)


def _said(name: str, value: Any) -> Any:
    """An option as the refusal words it: the variants each after its own --rules (joined by
    commas they would read as one rule set changing several keys); a text that would break
    the line (a hand-edited state's line break) as an error shows a bad value."""
    if isinstance(value, list | tuple):
        value = [_one_line(v) for v in value]
        if name == "rules":
            return " --rules ".join(str(v) for v in value) if value else None
    return _one_line(value)


def _one_line(value: Any) -> Any:
    """``value``, or ``shown``'s one line where it is text that is not printable as it is."""
    return value if not isinstance(value, str) or value.isprintable() else shown(value, typed=False)


def _plays(name: str, kept: Any, sweep: bool = False) -> Any:
    """A kept option as what it decides: the field and the variants in any order (no result
    depends on it; the comparison keeps its own), each rule set whatever the order or
    spacing of its keys (``Rules``' own words; a text that is no rule set stays as it is, for
    the command's own check to refuse). Under ``sweep`` the --rules are one rule set held
    fixed, the later winning a key given twice: that rule set. The ladder's rungs in any
    order too: the ladder orders them by strength. A sweep as its key and values, in their
    order, however spaced or written (``9..11`` is ``9,10,11``); one that is no sweep, as it
    is."""
    if name == "ladder" and isinstance(kept, str):
        return sorted(r.strip() for r in kept.split(",") if r.strip())
    if name == "sweep" and isinstance(kept, str):
        from .variants_sweep import sweep_values

        try:
            return sweep_values(kept)
        except CLIError:
            return kept
    if not isinstance(kept, list):  # a value, or a state edited by hand: as it is
        return kept
    if name == "specs":
        return sorted(str(spec) for spec in kept)
    if name == "rules":
        from leaves.ruleset import Rules

        texts = [tuple(str(t) for t in kept)] if sweep else [str(t) for t in kept]
        words = []
        for text in texts:
            try:
                words.append(str(Rules.parse(text)))
            except ValueError:
                words.append(str(text))
        return sorted(words)
    return kept


def _given(name: str, kept: Any) -> Any:
    """A kept option as the command line gives it (``_kept`` undone)."""
    if name == "players":
        return (",".join(str(n) for n in kept),)
    return tuple(kept) if isinstance(kept, list) else kept


def _kept(name: str, value: Any) -> Any:
    """An option as the state keeps it (JSON: lists, numbers, text; --players as sizes)."""
    if name == "players":
        from tournaments.schedule import parse_players

        try:
            return [int(n) for n in parse_players(",".join(value))]
        except ValueError as exc:
            raise CLIError.of(exc, usage=True) from None
    return list(value) if isinstance(value, tuple) else value


class _Lost(CLIError):
    """``STATE`` missing (``how`` None) or not JSON (``how``: why): ``rebuilt`` where its
    runs are there."""

    def __init__(self, message: str, how: str | None = None) -> None:
        super().__init__(message, usage=how is None)
        self.how = how


def read_state(out: Path) -> dict[str, Any]:
    """The comparison's state in ``out`` (one-line errors: none there, or not readable;
    ``_Lost`` where it is missing or not JSON)."""
    path = out / STATE
    if not path.is_file() and (path.exists() or path.is_symlink()):  # no resume writes over it
        kind = "a directory" if path.is_dir() else "not a regular file"
        raise CLIError(f"cannot resume {out}: {path} is {kind}, where the comparison keeps its "
                       f"state: {_made_again(out)}")  # fmt: skip
    if not path.is_file():
        raise _Lost(f"cannot resume {out}: it holds no comparison of rule variants (no "
                    f"{STATE}); leave out --resume to start one in an empty --out")  # fmt: skip
    from tournaments import storage  # start-up, as the module says

    try:
        state = storage.load_json(path.read_text(encoding="utf-8"))
    except OSError as exc:  # no permission to read it, an I/O error: the system's words once
        raise CLIError(f"cannot resume {out}: {path} cannot be read ({exc.strerror or exc})"
                       ) from None  # fmt: skip
    except ValueError as exc:  # not JSON, not UTF-8, past what Python reads (``load_json``)
        raise _Lost(f"cannot resume {out}: {path} cannot be read: {exc}",
                    how=f"unreadable ({exc})") from None  # fmt: skip
    ours = isinstance(state, dict) and state.get("format") == FORMAT
    opts = state.get("options") if ours else None
    if (not isinstance(opts, dict) or set(opts) != set(SAVED)
            or not all(_of_kind(n, v) for n, v in opts.items())
            or not isinstance(state.setdefault("designer", {}), dict)):  # fmt: skip
        raise CLIError(f"cannot resume {out}: {path} is not a comparison this version can "
                       f"resume: {_made_again(out)}")  # fmt: skip
    for name, least in LEAST.items():
        if opts[name] < least:
            raise CLIError(f"cannot resume {out}: {path} holds {SAVED[name]} "
                           f"{shown(opts[name], typed=False)}, out "
                           f"of its range (at least {least})")  # fmt: skip
    return state


def _made_again(out: Path) -> str:
    """What mends the comparison in ``out`` whose state file cannot be read as one: removed,
    it is made again from its runs and the options given again (``rebuilt``), or, with no
    run there, a new comparison starts (``_start_over``)."""
    if _run_options(out):
        return ("remove it, then resume with the comparison's options given again (its "
                "strategies, --rules or --sweep, and the others it was played with), which "
                "make it again from its runs")  # fmt: skip
    return _start_over(out, "it")


def _start_over(out: Path, state: str) -> str:
    """Where a new comparison can start, ``out`` holding no run: there, once its ``state``
    file is removed, where nothing else is in it; else in another --out."""
    from tournaments import storage

    if {p.name for p in out.iterdir()} <= {STATE, storage.LOCK}:
        return f"remove {state}, then leave out --resume to start one there"
    return "start a new comparison in another --out"


FROM_RUNS = {"seed": "seed", "players": "players", "games": "games_asked", "expert": "expert"}
"""The options a lost ``STATE`` is made again with from its runs' manifests (option: spec
key): the others are given again."""


def rebuilt(out: Path, values: dict[str, Any], given: set[str], lost: _Lost
            ) -> tuple[dict[str, Any], str]:  # fmt: skip
    """The state of the comparison in ``out`` whose ``STATE`` is ``lost``, made again where
    its runs (OUT/<rules>) are there and the options are given again: those ``FROM_RUNS``
    from the runs' manifests (which must agree), the others as given (or their defaults);
    every run there must be of a rule set given (``_refuse_other_rule_sets``).
    ``settle`` then holds the options given against it, and each run's resume the field and
    the rules against its manifest, before anything is played; its designers' measures are
    replayed (none is recorded). With the line that says so, and what it resumes; else
    ``lost``, or one line saying what to do."""
    runs = _run_options(out)
    if not runs and lost.how is None:  # nothing there: the refusal as it was
        raise lost
    if not runs:  # nothing to make it from: a new comparison, where one can start
        raise CLIError(f"{lost.message}; it holds no run of the comparison to make it again from: "
                       f"{_start_over(out, str(out / STATE))}") from None  # fmt: skip
    how = lost.how or "missing"
    names = ", ".join(sorted(runs))
    first = runs[min(runs)]
    if any(v != first for v in runs.values()) or not all(map(_of_kind, FROM_RUNS, first.values())):
        raise CLIError(f"cannot resume {out}: {out / STATE} is {how}, and its runs ({names}) "
                       "were not played alike (their seeds, table sizes, games or --expert "
                       "differ): start a new comparison in another --out")  # fmt: skip
    if not given & {"rules", "sweep"}:  # the rule sets: its runs' names are no --rules
        raise CLIError(f"cannot resume {out}: {out / STATE} is {how}; its runs ({names}) are "
                       "there: give the comparison's options again with --resume (its "
                       "strategies, --rules or --sweep, and the others it was played with) to "
                       "make it again from them", usage=True)  # fmt: skip
    unplayed = _refuse_other_rule_sets(out, values, first, set(runs), how)
    opts = {n: _kept(n, values[n]) for n in SAVED if n not in FROM_RUNS}
    what = "the --rules given, each against today's rules"  # the runs of both are alike
    if values["sweep"] is not None:
        from .variants_sweep import sweep_values

        key, points = sweep_values(values["sweep"])
        what = f"the --sweep given, {key} at {', '.join(points)}"
    yet = _verb(unplayed, "has no run there yet and is", "have no run there yet and are")
    what += f"; {', '.join(unplayed)} {yet} played now" if unplayed else ""
    note = (f"{out / STATE} {how}: made again from the options given and the manifests of its "
            f"runs ({names}), which do not tell --rules from --sweep: it resumes {what}")  # fmt: skip
    return {"format": FORMAT, "options": {**opts, **first}, "designer": {}}, note


def _refuse_other_rule_sets(out: Path, values: dict[str, Any], played: dict[str, Any],
                            found: set[str], how: str) -> list[str]:  # fmt: skip
    """One line where a run in ``out`` is of no rule set given (--rules or --sweep, as the
    command makes their folders at the runs' table sizes and --expert): made again from
    them, the state would start another comparison and leave that run out unsaid. Returns
    the rule sets given with no run: not begun, where every run there is of one given."""
    from leaves_cli.request import Request

    from .variants import _sets  # the one way the command makes its rule sets
    from .variants_play import folder_name  # and names their runs' folders

    request = Request.of({**values, "expert": played["expert"]})
    taken: set[str] = set()
    names = [folder_name(str(rules), taken) for rules in _sets(request, played["players"])[0]]
    stray = sorted(found - set(names))
    unplayed = [name for name in names if name not in found]
    if not stray:
        return unplayed
    said = f"{', '.join(stray)} {_verb(stray, 'is', 'are')} there but not given"
    if unplayed:
        has = _verb(unplayed, "is given but has", "are given but have")
        said += f"; {', '.join(unplayed)} {has} no run there"
    raise CLIError(f"cannot resume {out}: {out / STATE} is {how}, and its runs are not the "
                   f"rule sets given ({said}): give the comparison's --rules or --sweep again "
                   "as it was played, or start a new comparison in another --out",
                   usage=True)  # fmt: skip


def _verb(names: list[str], one: str, more: str) -> str:
    """The verb that agrees with ``names``: ``one`` for one name, else ``more``."""
    return one if len(names) == 1 else more


def _run_options(out: Path) -> dict[str, dict[str, Any]]:
    """The options ``FROM_RUNS`` each run in ``out`` (OUT/<rules>) was played with, by its
    folder's name, as its manifest holds them (a manifest that cannot be read: no run)."""
    from tournaments import storage

    found = {}
    for path in sorted(out.glob(f"*/{storage.MANIFEST}")):
        try:
            spec = storage.read_manifest(path.parent).get("spec")
        except (ValueError, AttributeError):  # damaged: its resume says how, once it is made
            continue
        if isinstance(spec, dict):
            found[path.parent.name] = {o: spec.get(k) for o, k in FROM_RUNS.items()}
    return found


def new_state(values: dict[str, Any], seed: int, sizes: list[int]) -> dict[str, Any]:
    """The state of a new comparison: its options as played (the seed drawn, the sizes)."""
    opts = {name: _kept(name, values[name]) for name in SAVED}
    opts.update(seed=seed, players=list(sizes))
    return {"format": FORMAT, "options": opts, "designer": {}}


def save(out: Path, state: dict[str, Any]) -> None:
    """Write the state (atomically: an interruption leaves the one before or this one)."""
    from tournaments.storage import atomic_write_bytes

    atomic_write_bytes(out / STATE, (json.dumps(state, indent=1) + "\n").encode())


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _run_digest(where: Path) -> str:
    """The checksums of a run's finished files (its chunks' and its aggregates'), as its
    manifest holds them."""
    from tournaments import storage

    files = storage.read_manifest(where).get("integrity")
    return hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()


def designer_kept(state: dict[str, Any] | None, where: Path) -> bool:
    """True when ``where``'s designers' files are those recorded, from the same run, and of
    this version (``_earlier``)."""
    got = (state or {}).get("designer", {}).get(where.name)
    if not isinstance(got, dict) or got.get("run") != _run_digest(where):
        return False
    files = {} if got.get("files") is None else got["files"]
    if not isinstance(files, dict):  # of another shape (damaged, edited): it vouches for none
        return False
    kept = all((where / n).is_file() and _digest(where / n) == h for n, h in files.items())
    return kept and not _earlier(got, where)


def designer_earlier(state: dict[str, Any] | None, where: Path) -> str:
    """' of an earlier version recomputed' where ``where``'s designers' measures are an earlier
    version's (``_earlier``; words for the line that reports them replayed); else ''."""
    got = (state or {}).get("designer", {}).get(where.name)
    return " of an earlier version recomputed" if _earlier(got, where) else ""


def _earlier(got: Any, where: Path) -> bool:
    """Are ``where``'s designers' measures, recorded as ``got``, an earlier version's: recorded
    with ``EARLIER_RUN``, or a restricted file that does not say which games finished
    (``restricted_before_finished``), whose cost counts every game?"""
    from reports.designer_measures import restricted_before_finished

    recorded = isinstance(got, dict) and got.get("run") == EARLIER_RUN
    return recorded or restricted_before_finished(where)


def record_designer(out: Path, state: dict[str, Any], where: Path) -> None:
    """Record ``where``'s designers' files as written (the state saved at once)."""
    from reports.designer_measures import GAMES_FILE, RESTRICTED_FILE

    files = {n: _digest(where / n) for n in (GAMES_FILE, RESTRICTED_FILE) if (where / n).is_file()}
    state["designer"][where.name] = {"run": _run_digest(where), "files": files}
    save(out, state)


def check_out(out: Path, resume: bool, fmt: str = "html") -> None:
    """A new comparison needs an empty --out (one holding a comparison names --resume, with
    the page ``fmt`` asked for); a resumed one, the folder it was played in (``settle`` read
    it)."""
    from tournaments.storage import holds_files

    if out.exists() and not out.is_dir():
        raise CLIError(f"--out {out} exists and is not a directory", usage=True)
    if not resume and (out / STATE).is_file():
        raise CLIError(f"--out {out} holds a comparison: '{resume_command(out, fmt)}' continues "
                       "it, or choose another --out", usage=True)  # fmt: skip
    if not resume and holds_files(out):  # a lock file alone: a comparison not begun
        raise CLIError(f"--out {out} is not empty: choose another --out (each rule set's run "
                       "and the comparison go there)", usage=True)  # fmt: skip
    from leaves_cli.writable import check_writable

    check_writable(out)
