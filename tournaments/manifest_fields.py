"""What each field of a run's manifest holds, checked when a manifest is read.

A manifest edited by hand or damaged on disk (``"players": "four"``) would otherwise fail far
from where it was read, with an error about a conversion (``invalid literal for int()``) or
about an option nobody gave. ``check_manifest`` names the first bad field, the value it holds
and what it should hold, in one line; a field that is absent is not checked unless the
caller needs it (older runs lack some). The runner writes every field below
(``Tournament.spec``, ``session.new_manifest``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from functools import partial
from itertools import chain, pairwise
from typing import Any

from gamekit.errors import shown
from gamekit.text import printable
from strategies.provenance import entrant_params

from .declaration import DECLARED, OPTIONAL, check_kinds, check_present

__all__ = [
    "ADDED_SINCE",
    "CHECK_READS",
    "RESUME_READS",
    "TEST_SETTINGS",
    "NotThisVersion",
    "check_game",
    "check_fields",
    "check_manifest",
    "chunks_laid_out",
    "check_seating",
    "check_seats",
    "filling_game",
]

Check = tuple[Callable[[Any], bool], str]


class NotThisVersion(ValueError):
    """A manifest with nothing damaged in it that this version cannot take: an older
    version's, without a field this one resumes by (``ADDED_SINCE``), or a newer one's, played
    under a seating design this version does not know or at a table size its game does not
    seat. Not "corrupt" (``result.corrupt_manifest`` says it so): the version that played
    the run can resume it."""

    advice = "resume it with the version that played it"


def _whole(low: int) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= low


def _list_of(item: Callable[[Any], bool], empty: bool = True) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, list) and (empty or bool(v)) and all(item(x) for x in v)


def _all_whole(values: list[Any], low: int) -> bool:
    """Does every item of ``values`` pass ``_whole(low)``? In a few passes in C where every
    one is a plain ``int`` (a manifest's always are), not a call per item: a run's tables and
    deal streams number one per table, 134,596 of them at 24 strategies and 6 seats."""
    if set(map(type, values)) <= {int}:
        return not values or min(values) >= low
    return all(map(_whole(low), values))


def _wholes(low: int, empty: bool = True) -> Callable[[Any], bool]:
    """``_list_of(_whole(low), empty)``, as ``_all_whole`` checks it."""
    return lambda v: isinstance(v, list) and (empty or bool(v)) and _all_whole(v, low)


def _tables(v: Any) -> bool:
    """``_list_of(_list_of(_whole(0)))``: a list of lists of entrant numbers, all of them
    checked at once (``_all_whole``)."""
    if not isinstance(v, list):
        return False
    if not set(map(type, v)) <= {list} and not all(isinstance(t, list) for t in v):
        return False
    return _all_whole(list(chain.from_iterable(v)), 0)


def _or_none(check: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda v: v is None or check(v)


def _text(v: Any) -> bool:
    return isinstance(v, str) and bool(v)


def _flag(v: Any) -> bool:
    return isinstance(v, bool)


def _table(v: Any) -> bool:
    return isinstance(v, dict)


def _session(v: Any) -> bool:
    """A session's entry: a table, its ``versions`` (where it records them) a table too (the
    report names those that differ from the run's: ``reports.run_overview``)."""
    return _table(v) and ("versions" not in v or _table(v["versions"]))


_COUNT = "a whole number of at least 0"
SPEC_FIELDS: dict[str, Check] = {
    "game": (_text, "a game id"),
    "game_config": (_table, "a table of the game's settings"),
    "strategies": (_list_of(_text, empty=False), "a list of strategy labels"),
    "players": (_wholes(1, empty=False), "a list of player counts (whole numbers)"),
    "games_asked": (_whole(1), "a whole number of at least 1 (a run plays a game or more)"),
    "n_games": (_whole(1), "a whole number of at least 1"),
    "deals_per_table": (_whole(0), _COUNT),
    "deal_stages": (_wholes(0), "a list of deal counts (whole numbers)"),
    "deal_streams": (_wholes(0), "a list of deal streams (whole numbers)"),
    "seed": (_whole(0), _COUNT),
    "expert": (_flag, "true or false"),
    "target": (_or_none(_whole(1)), "a whole number of at least 1, or null"),
    "rounds": (_or_none(_whole(1)), "a whole number of at least 1, or null"),
    "repeats": (_flag, "true or false"),
    "seating": (_text, "a seating design's name"),
    "focus": (_or_none(_text), "a strategy label, or null"),
    "rows": (_flag, "true or false"),
    "record_stride": (_whole(0), _COUNT),
    "record_rule": (_whole(1), "a whole number of at least 1 (the rule of a record sample)"),
    "chunk_games": (_whole(1), "a whole number of at least 1"),
    "n_chunks": (_whole(0), _COUNT),
    "seed_keys": (
        lambda v: isinstance(v, dict) and all(_whole(0)(x) for x in v.values()),
        "a table of whole numbers",
    ),
    "entrants": (
        _list_of(lambda e: _table(e) and _text(e.get("label"))),
        "a list of tables (one per strategy, each with its label)",
    ),
    "gauntlet": (_table, "a table"),
}
"""The spec's fields: (what a good value passes, what it should be in words)."""


def _seconds(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and v >= 0


TOP_FIELDS: dict[str, Check] = {
    "format": (_text, "a format's name"),
    "game_spec": (_text, "a game's id or module:Class"),
    "seed": (_whole(0), _COUNT),
    "labels": (_list_of(_text), "a list of strategy labels"),
    "tables": (_tables, "a list of tables (lists of entrant numbers)"),
    "seating_design": (_table, "a table"),
    "rank_value": (_text, "a column's name"),
    "length_value": (_text, "a column's name"),
    "game_declaration": (_table, "a table"),
    "game_settings": (_table, "a table"),
    "versions": (_table, "a table"),
    "created": (_text, "a time"),
    "wall_time_s": (_seconds, "a number of seconds of at least 0"),
    "sessions": (
        _list_of(_session),
        "a list of tables (one per session), each one's versions a table where it has them",
    ),
    "status": (_text, "a word"),
    "record_file": (_or_none(_text), "a file name, or null"),
    "n_chunks_done": (_whole(0), _COUNT),
    "units_done": (_whole(0), _COUNT),
    "finished": (_text, "a time"),
    "sequential": (_table, "a table (the sequential test's record)"),
}
"""The top-level fields (every one the runner writes but ``integrity``, which
``tournaments.verify`` reads, and ``chunks_done``, which nothing reads: the chunks' files
tell which are done; and a sequential gauntlet's record of its test)."""


def _number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _figure(v: Any) -> bool:  # JSON has no infinity or NaN (``tournaments.sequential.finite``)
    return v is None or v in ("inf", "-inf") or _number(v)


_FIGURE = 'a number, "inf", "-inf" or null'
SEQUENTIAL_FIELDS: dict[str, Check] = {
    "decision": (_text, "a decision in words"),
    "games_per_side": (_whole(0), _COUNT),
    "llr": (_figure, _FIGURE),
    **{key: (_number, "a number") for key in ("lower", "upper", "margin", "alpha", "beta")},
    "batches": (_whole(0), _COUNT),
    "finished": (_flag, "true or false"),
    **{key: (_figure, _FIGURE) for key in ("difference", "ci_low", "ci_high")},
    "sentence": (_text, "a sentence"),
}
"""A sequential gauntlet's record of its test (``manifest["sequential"]``, which the report
and a resume read); every version wrote the fields up to ``batches`` (``TEST_RECORD``)."""
TEST_RECORD = tuple(SEQUENTIAL_FIELDS)[:9]

TEST_SETTINGS = ("margin", "alpha", "beta", "max_games")
"""A sequential gauntlet's test, as its spec keeps it (``spec.gauntlet.sequential``)."""

_shown = partial(shown, typed=False)
"""A field's value in an error line, without its type: the line says what it should hold."""


def _check(where: str, fields: dict[str, Check], data: dict[str, Any],
           required: Iterable[str]) -> None:  # fmt: skip
    needed = set(required)
    for name, (good, expected) in fields.items():
        if name not in data:
            if name in needed and f"{where}{name}" in ADDED_SINCE:
                raise NotThisVersion(f"the run was played by an older version (its manifest has "
                                     f"no {where}{name}, which this version resumes by)")  # fmt: skip
            if name in needed:
                raise ValueError(f"{where}{name} is missing, expected {expected}")
            continue
        if not good(data[name]):
            raise ValueError(f"{where}{name} is {_shown(data[name])}, expected {expected}")


ADDED_SINCE = ("spec.deal_stages",)
"""The fields a resume reads that the first version writing runs (format
``leaves-tournament/1``) did not write: one missing is an older version's run
(``NotThisVersion``), not a damaged manifest."""

CHECK_READS = ("n_chunks",)
"""The spec fields a check of the run's files cannot do without (which chunks it has)."""

RESUME_READS = ("game", "game_config", "strategies", "players", "games_asked", "n_games",
                "deal_stages", "seed", "expert", "target", "repeats", "rows", "record_stride",
                "chunk_games", *CHECK_READS)  # fmt: skip
"""The spec fields a resume cannot do without (it reads them; every version wrote them but
those in ``ADDED_SINCE``: one of the others missing is a damaged manifest, said so, not a run
that differs; the fields not named here have defaults, or are compared as they stand)."""


def check_fields(manifest: dict[str, Any], spec: Iterable[str] = (),
                 top: Iterable[str] = ()) -> None:  # fmt: skip
    """``check_manifest``'s check of a few fields only: each of ``spec`` (the spec's, which
    must be there) and of ``top`` (top-level ones, where present) holds what the runner
    writes; else ValueError in its words (``spec.game is missing, expected a game id``)."""
    needed = tuple(spec)
    _check("", {k: TOP_FIELDS[k] for k in top}, manifest, ())
    _check("spec.", {k: SPEC_FIELDS[k] for k in needed}, manifest["spec"], needed)


def _check_top(manifest: dict[str, Any]) -> None:
    """The top-level fields, and each field of the game declaration that it holds of its kind
    (``Declaration.from_dict``'s check, here before a resume verifies or plays anything; a
    field an older run's declaration lacks is not asked for: the report fills it in from
    the installed game its ``name`` names, which it must hold, and which must be installed
    where a field without a default is lacking: ``filling_game``)."""
    _check("", TOP_FIELDS, manifest, ())
    if isinstance(manifest.get("game_declaration"), dict):
        check_present(manifest["game_declaration"])
        check_kinds(manifest["game_declaration"])
        filling_game(manifest["game_declaration"])


def filling_game(d: dict[str, Any]) -> type | None:
    """The installed game whose ``name`` is the declaration ``d``'s, which fills in the
    fields an older run's declaration lacks (``reports.data.run_declaration``); None where
    ``d`` lacks none, or none is installed and it lacks only fields with a default;
    ValueError where it lacks another. The game registry is read only for a declaration
    that lacks a field."""
    if all(k in d for k in DECLARED):
        return None
    from .games import game_class, game_names  # start-up, and ``games`` imports this module

    for entry in game_names():
        try:
            cls = game_class(entry)
        except ValueError:
            continue
        if getattr(cls, "name", None) == d.get("name"):
            return cls
    missing = [k for k in DECLARED if k not in OPTIONAL and k not in d]
    if missing:
        raise ValueError(f"the game declaration lacks {', '.join(missing)}, which no installed "
                         f"game fills in (none is named {_shown(d.get('name'))})")  # fmt: skip
    return None


def check_entrant_params(entrants: Any) -> None:
    """Each stored entrant's params a table (``entrant_params``), else ValueError naming the
    entrant: damage to the manifest, not an entrant that changed."""
    for entrant in entrants if isinstance(entrants, list) else ():
        if isinstance(entrant, dict):
            try:
                entrant_params(entrant)
            except ValueError as exc:
                who = printable(str(entrant.get("label", "?")))  # a line break escaped
                raise ValueError(f"{who}: {exc}") from None


def _check_agreement(manifest: dict[str, Any]) -> None:
    """The fields that name the entrants must agree: ``labels`` are the spec's strategies (the
    rows number entrants in that order), each table seats entrants the run has, and
    ``spec.entrants`` describes each strategy once; the seed, stated twice, is one (a spec
    edited to another seed would grow the run with games of that seed). Each field alone
    may be well formed and the run still unreadable (``"labels": []`` fails on the first
    row read)."""
    spec = manifest["spec"]
    strategies = spec.get("strategies")
    if strategies is None:
        return
    labels = manifest.get("labels")
    if labels is not None and labels != strategies:
        raise ValueError(f"labels is {_shown(labels)}, expected the spec's strategies "
                         f"{_shown(strategies)}")  # fmt: skip
    tables = manifest.get("tables") or []
    beyond = max(chain.from_iterable(tables), default=-1) >= len(strategies)  # one pass in C
    for table in tables if beyond else ():  # the first table naming one
        if any(e >= len(strategies) for e in table):
            raise ValueError(f"tables holds {_shown(table)}, expected entrant numbers below "
                             f"{len(strategies)} (the run's strategies)")  # fmt: skip
    if "seed" in manifest and "seed" in spec and manifest["seed"] != spec["seed"]:
        raise ValueError(f"spec.seed is {_shown(spec['seed'])}, expected {_shown(manifest['seed'])} "
                         "(the run's seed, which the spec's must be)")  # fmt: skip
    entrants = spec.get("entrants")
    if entrants is not None and len(entrants) != len(strategies):
        n = len(entrants)
        raise ValueError(f"spec.entrants describes {n} {'strategy' if n == 1 else 'strategies'}"
                         f", expected {len(strategies)} (one per strategy)")  # fmt: skip
    check_entrant_params(entrants)


def check_manifest(manifest: Any, required: Iterable[str] = (), spec: bool = True,
                   resume: bool = False) -> None:  # fmt: skip
    """ValueError in one line (``spec.players is 'four', expected a list of player counts
    (whole numbers)``) unless every field of ``manifest`` present holds what the runner
    writes there, the fields naming the entrants agree, and a gauntlet's part names them
    (with its test's settings, to ``resume`` it, and its seating design one this version
    knows); ``required`` names spec fields that must be present. ``spec=False`` accepts a manifest without a spec (runs written by
    other tools, e.g. ``reports.synthetic``, which a report reads), but not the runner's own
    (it has a ``format``): without its spec nothing of the run can be trusted."""
    if not isinstance(manifest, dict):
        raise ValueError(f"the manifest is {_shown(manifest)}, expected a JSON object")
    if "spec" not in manifest and not spec and "format" not in manifest:
        _check_top(manifest)
        return
    if not isinstance(manifest.get("spec"), dict):
        what = "missing" if "spec" not in manifest else f"{_shown(manifest['spec'])}"
        raise ValueError(f"spec is {what}, expected a table of the run's settings")
    _check_top(manifest)
    _check("spec.", SPEC_FIELDS, manifest["spec"], required)
    _check_agreement(manifest)
    if isinstance(manifest.get("sequential"), dict):
        _check("sequential.", SEQUENTIAL_FIELDS, manifest["sequential"], TEST_RECORD)
    if isinstance(manifest["spec"].get("gauntlet"), dict):
        _check_gauntlet(manifest["spec"], resume)
        _check_test_record(manifest)
    if resume:
        check_seating(manifest["spec"])
        _check_records(manifest)


def chunks_laid_out(manifest: dict[str, Any]) -> int | None:
    """How many chunks the schedule of the run lays out, from its manifest alone, as
    ``Schedule`` lays them out (stage by stage, table by table, each table's chunk a whole
    number of its seatings per deal), in a few steps per table size: what its
    ``spec.n_chunks`` must be, which a check of the files can hold a count edited large (with
    ``n_games`` to match) against before it walks every chunk named. None where the manifest
    does not tell the layout (an older version's, without ``deal_stages`` or the seatings per
    deal). Its fields are taken as ``check_manifest`` passed them."""
    spec, tables = manifest["spec"], manifest.get("tables")
    stages, size = spec.get("deal_stages"), spec.get("chunk_games")
    per_deal = (manifest.get("seating_design") or {}).get("seatings_per_deal")
    if not (stages and size and tables is not None and isinstance(per_deal, dict)
            and _all_whole(list(per_deal.values()), 1)):  # fmt: skip
        return None
    tables_of: dict[int, int] = {}  # seatings per deal -> tables with that many
    for k, count in Counter(map(len, tables)).items():
        kinds = {n for key, n in per_deal.items() if key.count(",") == k - 1}
        if len(kinds) == 1:  # every table of k seats has as many seatings (the usual case)
            n = kinds.pop()
            tables_of[n] = tables_of.get(n, 0) + count
            continue
        for table in (t for t in tables if len(t) == k):  # patterns of repeats differ
            distinct = sorted(set(table))
            n = per_deal.get(",".join(str(distinct.index(e)) for e in table))
            if n is None:
                return None
            tables_of[n] = tables_of.get(n, 0) + 1
    bounds = list(pairwise([0, *stages]))
    return sum(count * len(range(lo, hi, max(1, size // n)))
               for n, count in tables_of.items() for lo, hi in bounds)  # fmt: skip


def _check_records(manifest: dict[str, Any]) -> None:
    """A run that names a ``--record`` file kept records in its chunks to gather into it
    (``spec.record_stride`` above 0): a resume that plays none would end on a chunk's records
    that are not there, and cannot tell which games the run recorded."""
    named, stride = manifest.get("record_file"), manifest["spec"].get("record_stride")
    if isinstance(named, str) and stride == 0:
        raise ValueError(f"record_file is {_shown(named)}, but spec.record_stride is 0: the run "
                         "kept no records to gather into it")  # fmt: skip


def check_seating(spec: dict[str, Any]) -> None:
    """A seating design a resume plays by is one this version knows, else ``NotThisVersion``
    (a newer version's design: a report only names it, so it is no fault there); one that is
    no name is damage (ValueError)."""
    from .seating import SEATINGS  # start-up: it loads numpy, which checking needs not

    _check("spec.", {"seating": SPEC_FIELDS["seating"]}, spec, ())  # a name, else damaged
    if "seating" in spec and spec["seating"] not in SEATINGS:
        raise NotThisVersion(f"the run was played under seating {_shown(spec['seating'])}, "
                             f"which this version does not know (it knows "
                             f"{', '.join(SEATINGS)})")  # fmt: skip


def _check_gauntlet(spec: dict[str, Any], resume: bool) -> None:
    """The gauntlet part of a spec (``spec.gauntlet``, a table): the strategy, the baseline
    and each of the field are among the run's strategies, and, for a ``resume``, a
    sequential test keeps each of its settings (reading the run needs none of them)."""
    part, strategies = spec["gauntlet"], spec.get("strategies") or []
    ours = "the run's strategies"
    field = part.get("field")
    test = part.get("sequential") if resume else None
    for key, good, expected in [
        ("strategy", part.get("strategy") in strategies, f"one of {ours}"),
        ("baseline", part.get("baseline") in strategies, f"one of {ours}"),
        ("field", isinstance(field, list) and field and all(f in strategies for f in field),
         f"a list of {ours}"),
        ("sequential", test is None or isinstance(test, dict)
         and all(n in test for n in TEST_SETTINGS),
         f"a table of {', '.join(TEST_SETTINGS[:-1])} and {TEST_SETTINGS[-1]}"),
    ]:  # fmt: skip
        if not good:
            said = "missing" if key not in part else _shown(part[key])
            raise ValueError(f"spec.gauntlet.{key} is {said}, expected {expected}")


def _check_test_record(manifest: dict[str, Any]) -> None:
    """A sequential gauntlet (its spec keeps the test's settings) grown past its first batch
    keeps its test's record, written as each batch ends: without it a report reads it as a
    gauntlet of fixed size, its decision left out, and a resume cannot tell its batch."""
    test = manifest["spec"]["gauntlet"].get("sequential")
    stages = manifest["spec"].get("deal_stages")
    if isinstance(test, dict) and "sequential" not in manifest and isinstance(stages, list) \
            and len(stages) > 1:  # fmt: skip
        raise ValueError(f"sequential is missing, expected a table (the sequential test's "
                         f"record; the run holds {len(stages)} batches)")  # fmt: skip


_KINDS = {
    int: (lambda v: _number(v) and isinstance(v, int), "a whole number"),
    float: (_number, "a number"),
    str: (lambda v: isinstance(v, str), "text"),
}
"""A setting's declared type (``GameOption.type``): what a value of it passes, in words."""


def check_game(cls: type, spec: dict[str, Any]) -> Any:
    """The game ``cls`` built from a run's stored settings (``spec.game_config``), seating the
    run's player counts (``spec.players``); else ValueError in one line, in the manifest's
    words (its keys, not flags never typed): a setting of another kind than the game
    declares for it (``game_config.turn_limit is 'abc', expected a whole number``: the game
    would say so in Python's), one the game refuses, or a player count it does not seat
    (``NotThisVersion``: a newer version's game may). A
    setting kept in a shape of the game's own (repeated, or read by ``from_config``), or none
    (null), is the game's to check."""
    config = dict(spec.get("game_config") or {})
    for opt in getattr(cls, "options", ()):
        kind = _KINDS.get(opt.type)
        value = config.get(opt.name)
        if kind is None or value is None or opt.multiple or opt.from_config is not None:
            continue
        good, expected = kind
        if not good(value):
            raise ValueError(f"game_config.{opt.name} is {_shown(value)}, expected {expected}")
    try:
        game = cls(**config)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"game_config cannot make the run's game: {exc}") from None
    check_seats(game, spec)
    return game


def check_seats(game: Any, spec: dict[str, Any]) -> None:
    """``NotThisVersion`` where ``game`` (the run's, built) does not seat one of the run's
    player counts (``spec.players``): a newer version's game may seat more."""
    low, high = game.min_players, game.max_players  # every game declares them
    for k in spec.get("players") or ():
        if not low <= k <= high:
            raise NotThisVersion(f"the run was played with {k} players, which this version's "
                                 f"{game.title} does not seat ({low} to {high})")  # fmt: skip
