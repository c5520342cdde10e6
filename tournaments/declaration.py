"""What a game declares, as a run's manifest keeps it (``Declaration``), and the word helper
the reports use: a module of its own, with no import of the runner or the strategies, so that
reading a run's declaration (every report does) loads neither."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any

from gamekit.errors import shown

__all__ = [
    "DECLARED",
    "MAX_SEATS",
    "OPTIONAL",
    "REQUIRED",
    "Declaration",
    "check_columns",
    "check_kinds",
    "check_present",
    "declared",
    "plural",
]

MAX_SEATS = 12
"""The most seats a game may declare (``max_players``): a win tied among up to this many seats
is split into whole units (``aggregates.SHARE_UNITS``), so win shares sum exactly whatever the
order of the games."""

DECLARED = (
    "name", "title", "min_players", "max_players", "seat_columns", "game_columns", "rank_value",
    "higher_is_better", "ahead_means", "length_value", "length_columns", "share_columns",
    "mean_columns", "parameters", "has_first_player", "turn_order", "shared_wins", "unit",
    "match_unit", "match_name", "match_title", "match_label", "match_score", "match_target",
    "limits", "limit_columns",
)  # fmt: skip
"""The attributes of a plug-in that make its declaration (see ``Declaration``)."""

OPTIONAL: dict[str, Any] = {"limits": None, "limit_columns": None}
"""The declared fields a plug-in may leave out, with what it then declares (a manifest
without them, written before they were declared, reads back the same way)."""


_TEXT = (lambda x: isinstance(x, str), "text")
_KINDS = {
    **dict.fromkeys(("seat_columns", "game_columns", "length_columns", "mean_columns"), (
        lambda x: isinstance(x, list | tuple) and all(isinstance(c, str) for c in x),
        "a list of column names")),
    **dict.fromkeys(("higher_is_better", "has_first_player", "turn_order", "shared_wins"), (
        lambda x: isinstance(x, bool), "true or false")),
    **dict.fromkeys(("min_players", "max_players", "match_target"), (
        lambda x: isinstance(x, Integral) and not isinstance(x, bool), "a whole number")),
    "share_columns": (lambda x: isinstance(x, Mapping), "a table of column names to words"),
    "parameters": (lambda x: isinstance(x, Mapping) and all(isinstance(p, Real) for p in x.values()),
                   "a table of parameter names to numbers"),
    "limits": (lambda x: x is None or isinstance(x, str) and x.strip() != "",
               "text or null"),
    "limit_columns": (lambda x: x is None or _limit_table(x),
                      "null or a table of each limit's words to [column, least value], "
                      "the last limit's null"),
}  # fmt: skip
"""Each declared field's kind (a check, and its words), text where none is named."""


@dataclass(frozen=True)
class Declaration:
    """What a game declares, as the manifest keeps it: the runner, matches and reports read this
    and nothing else about the game.

    - ``seat_columns`` / ``game_columns``: result columns per seat (rows hold ``<name>_i``)
      and per game. ``rank_value`` (a seat column) orders the players at a table,
      ``higher_is_better`` its direction, ``ahead_means`` says it in words ("fewer cards
      left"). ``length_columns``: per-game lengths (histograms, percentiles, charts; the
      first one, ``length_value``, is the one the runner histograms). ``share_columns``: yes/no
      per-game columns reported as shares, mapped to what they mean ("ended by blockade").
      ``mean_columns``: seat columns whose mean per strategy is reported with 95% intervals.
      ``parameters``: strategy parameters (name: default value, e.g. a ``speed``)
      by which the rank value is tabled ("is it better to be faster or to play smarter?").
    - ``has_first_player``: seat positions count from a first player (the seat table);
      ``turn_order``: the seat before one matters (the neighbours table); ``shared_wins``:
      players tied for the best rank value all win.
    - ``unit``: what one row is ("game", "round"); a match is several of them, a
      ``match_unit`` ("match", "game") to ``match_target`` points of ``match_score``;
      ``match_name`` (file stems), ``match_title`` and ``match_label`` name it in reports.
    - ``limits``: the limits at which a unit stops unfinished, in words ("10 minutes of game
      time or 2,000,000 actions a round"), for the reports to say what stopped the unfinished
      ones; None (a game that declares none) says "the game's limit on <unit> length".
      ``limit_columns``: how the rows tell the limits apart, where a game has several: each
      limit's words ("10 minutes of game time"), in order, to ``[column, least value]`` (a
      unit stopped unfinished whose game column is at least that stopped at that limit, the
      first that holds), the last one's to None (every other unit stopped unfinished: the
      limit no column shows, e.g. a count of actions the rows do not keep). None: the rows
      cannot tell, and the reports name ``limits`` together.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    seat_columns: tuple[str, ...]
    game_columns: tuple[str, ...]
    rank_value: str
    higher_is_better: bool
    ahead_means: str
    length_value: str
    length_columns: tuple[str, ...]
    share_columns: dict[str, str]
    mean_columns: tuple[str, ...]
    parameters: dict[str, float]
    has_first_player: bool
    turn_order: bool
    shared_wins: bool
    unit: str
    match_unit: str
    match_name: str
    match_title: str
    match_label: str
    match_score: str
    match_target: int
    limits: str | None = None
    limit_columns: dict | None = None

    @classmethod
    def of(cls, game: Any) -> Declaration:
        """The declaration of a plug-in (its class attributes named in ``DECLARED``; an
        ``OPTIONAL`` one it lacks takes its default)."""
        return cls.from_dict(
            {k: getattr(game, k) for k in DECLARED if k not in OPTIONAL or hasattr(game, k)}
        )

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Declaration:
        """From the manifest's ``game_declaration`` (an ``OPTIONAL`` field it lacks takes its
        default); ValueError names what is missing."""
        check_present(d, [k for k in DECLARED if k not in OPTIONAL])
        v = {k: d.get(k, OPTIONAL.get(k)) for k in DECLARED}
        check_kinds(v)
        for k in ("seat_columns", "game_columns", "length_columns", "mean_columns"):
            v[k] = tuple(v[k])
        v["share_columns"] = dict(v["share_columns"])
        v["parameters"] = {k: float(x) for k, x in dict(v["parameters"]).items()}
        if v["limit_columns"] is not None:  # JSON's lists, a plug-in's tuples: one form
            v["limit_columns"] = {str(k): None if t is None else [str(t[0]), int(t[1])]
                                  for k, t in dict(v["limit_columns"]).items()}  # fmt: skip
        for k in ("higher_is_better", "has_first_player", "turn_order", "shared_wins"):
            v[k] = bool(v[k])
        for k in ("min_players", "max_players", "match_target"):
            v[k] = int(v[k])
        return cls(**v)

    def to_dict(self) -> dict[str, Any]:
        out = {k: getattr(self, k) for k in DECLARED}
        for k in ("seat_columns", "game_columns", "length_columns", "mean_columns"):
            out[k] = list(out[k])
        return out

    def units(self, n: int | None = None) -> str:
        """The row unit in the plural ("games", "rounds"), or singular for ``n == 1``."""
        return self.unit if n == 1 else plural(self.unit)

    @property
    def better(self) -> str:
        return "higher" if self.higher_is_better else "lower"


REQUIRED = ("name",)
"""The declared fields a run's declaration holds whatever its age: the game's name, by which
the installed game fills in a field declared after the run was written
(``reports.data.run_declaration``)."""


def check_present(d: Mapping[str, Any], fields: Iterable[str] = REQUIRED) -> None:
    """ValueError in one line naming each of ``fields`` that the declaration ``d`` lacks
    (default: the ``REQUIRED`` ones, which a manifest's check asks for)."""
    missing = [k for k in fields if k not in d]
    if missing:
        raise ValueError(f"the game declaration lacks {', '.join(missing)}")


def check_kinds(d: Mapping[str, Any]) -> None:
    """ValueError in one line unless each declared field that ``d`` holds is of its kind
    (bool("false") is True, int("6") 6: each of its kind, or said); a field ``d`` lacks is
    not asked for (a run written before it was declared)."""
    for k in DECLARED:
        if k not in d:
            continue
        good, expected = _KINDS.get(k, _TEXT)
        if not good(d[k]):
            said = shown(d[k], typed=False)  # the line says what it should be
            raise ValueError(f"the game declaration's {k} is {said}, expected {expected}")


def declared(game: Any) -> Declaration:
    """The declaration of the plug-in ``game``, checked whole as a run reads it (each field of
    its kind, each column it names among those it declares): a command refuses a bad one in one
    line before it announces or creates anything, not after. ValueError in one line."""
    try:
        d = Declaration.of(game)
    except AttributeError as exc:  # a field the plug-in does not set
        raise ValueError(f"the game declaration lacks {exc.name or exc}") from None
    check_columns(d)
    return d


def check_columns(d: Declaration) -> None:
    """ValueError in one line unless the columns ``d`` names are among those it declares (the
    runner looks each one up in every batch), ``length_columns`` starts with ``length_value``
    (the one histogrammed) and its tables seat 1 to ``MAX_SEATS``: the one check of these, a
    command's on the plug-in it plays (``declared``) and ``check_game``'s."""
    seats, games = ("seat_columns", d.seat_columns), ("game_columns", d.game_columns)
    named = [("rank_value", (d.rank_value,), seats), ("match_score", (d.match_score,), seats),
             ("mean_columns", d.mean_columns, seats), ("length_value", (d.length_value,), games),
             ("length_columns", d.length_columns, games),
             ("share_columns", tuple(d.share_columns), games),
             ("limit_columns", tuple(t[0] for t in (d.limit_columns or {}).values()
                                     if t is not None), games)]  # fmt: skip
    for key, names, (where, columns) in named:
        if not columns:
            raise ValueError(f"the game declaration's {where} is empty")
        missing = [n for n in names if n not in columns]
        if missing:
            raise ValueError(f"the game declaration's {key} names "
                             f"{shown(missing[0], typed=False)}, not one of its {where} "
                             f"{shown(columns, typed=False)}")  # fmt: skip
    if d.length_columns[:1] != (d.length_value,):
        raise ValueError(f"the game declaration's length_columns "
                         f"{shown(d.length_columns, typed=False)} do not start with its "
                         f"length_value {shown(d.length_value, typed=False)}")  # fmt: skip
    if not 1 <= d.min_players <= d.max_players <= MAX_SEATS:  # a count past the digits: shown
        raise ValueError(
            f"the game declaration's min_players {shown(d.min_players, typed=False)} and "
            f"max_players {shown(d.max_players, typed=False)} are not in 1..{MAX_SEATS}"
        )


def _limit_table(x: Any) -> bool:
    """A ``limit_columns`` table: limits in words, each but the last to ``[column, least
    value]`` (text, a whole number), the last to None."""
    if not isinstance(x, Mapping) or not x or not all(isinstance(k, str) and k.strip()
                                                      for k in x):  # fmt: skip
        return False
    *tested, rest = x.values()

    def test(t: Any) -> bool:
        return (isinstance(t, list | tuple) and len(t) == 2 and isinstance(t[0], str)
                and t[0].strip() != "" and isinstance(t[1], Integral)
                and not isinstance(t[1], bool))  # fmt: skip

    return rest is None and all(test(t) for t in tested)


def plural(word: str) -> str:
    """English plural of a unit name: match -> matches, round -> rounds, strategy -> strategies
    (a -y after a consonant; play -> plays keeps its y)."""
    if len(word) > 1 and word.endswith("y") and word[-2].lower() not in "aeiou":
        return word[:-1] + "ies"
    return word + ("es" if word.endswith(("ch", "sh", "s", "x")) else "s")
