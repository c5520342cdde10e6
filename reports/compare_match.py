"""What two runs compare: which strategy of A is which of B, and whether they compare at all.

A strategy whose parameters changed between the runs has another label (``taker`` became
``taker(harm_weight=0.5)``); matching labels only would leave out the one strategy the user
changed. So labels are matched in three steps: the pairs the user names (``--pair A=B``), then
equal labels, then, of the labels still unmatched, the two that share a base name (the label
before its parameters) when that base is unmatched exactly once on each side. Runs of other
games, other table sizes, or a gauntlet against a tournament count different things: their
win rates are not compared (``NotComparable``). Runs under other rules are, and say so.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from gamekit.errors import ParameterError, shown

from .data import ReportError, Run

__all__ = ["Match", "NotComparable", "check_comparable", "checked_pairs", "match_labels",
           "parse_pair", "settings_lines"]  # fmt: skip


class NotComparable(ReportError, ParameterError):
    """Two runs, or a pairing of their strategies, that cannot be compared (bad usage); a
    pairing's errors name the parameter (``pairs``) that gave it."""


@dataclass(frozen=True)
class Match:
    """Strategy ``a`` of run A compared with ``b`` of run B; ``how``: ``"same"`` (one label),
    ``"base"`` (the same strategy under other parameters) or ``"pair"`` (named by the user)."""

    a: str
    b: str
    how: str

    @property
    def name(self) -> str:
        """The row's name: the label, or both when they differ."""
        return self.a if self.a == self.b else f"{self.a} -> {self.b}"

    def sentence(self) -> str:
        """How the pairing came about, in words (empty for one label)."""
        why = {"base": "the same strategy, other parameters", "pair": "--pair"}.get(self.how)
        return "" if why is None else f"{self.a} in A compared with {self.b} in B ({why})"


def parse_pair(text: str) -> tuple[str, str]:
    """``A_LABEL=B_LABEL`` split at its first ``=`` outside parentheses (labels hold ``=``
    inside theirs: ``taker(harm_weight=0.5)``)."""
    depth = 0
    for i, ch in enumerate(text):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "=" and depth == 0:
            a, b = text[:i].strip(), text[i + 1 :].strip()
            if a and b:
                return a, b
            break
    raise NotComparable(f"{{pairs}} expects A_LABEL=B_LABEL, got {text!r}", "pairs")


def checked_pairs(pairs: Any) -> list[tuple[str, str]]:
    """``pairs`` (None: none) as a list of (A's label, B's label); a TypeError naming it for
    anything else, which would otherwise be unpacked letter by letter ('x': "not enough values
    to unpack")."""
    if pairs is None:
        return []
    what = "a list of (A_LABEL, B_LABEL) pairs of strategy labels"
    if isinstance(pairs, str | bytes) or not isinstance(pairs, Iterable):
        raise TypeError(f"pairs takes {what} or None, got {shown(pairs, typed=False)}")
    out = list(pairs)
    for i, pair in enumerate(out):
        if not (isinstance(pair, tuple | list) and len(pair) == 2
                and all(isinstance(x, str) for x in pair)):  # fmt: skip
            raise TypeError(f"pairs[{i}] takes an (A_LABEL, B_LABEL) pair of strategy labels, "
                            f"got {shown(pair, typed=False)}")  # fmt: skip
    return [(a, b) for a, b in out]


def _base(label: str) -> str:
    return label.split("(", 1)[0].strip()


def _named_pairs(pairs: list[tuple[str, str]], la: tuple[str, ...],
                 lb: tuple[str, ...]) -> list[Match]:  # fmt: skip
    out: list[Match] = []
    for a, b in pairs:
        for label, labels, side in ((a, la, "A"), (b, lb, "B")):
            if label not in labels:
                raise NotComparable(f"{{pairs}} {a}={b}: run {side} has no strategy {label!r} "
                                    f"(its strategies: {', '.join(labels)})", "pairs")  # fmt: skip
        if any(m.a == a or m.b == b for m in out):
            raise NotComparable(f"{{pairs}} {a}={b}: {a} or {b} is already paired", "pairs")
        out.append(Match(a, b, "pair"))
    return out


def match_labels(la: tuple[str, ...], lb: tuple[str, ...],
                 pairs: list[tuple[str, str]] | None = None
                 ) -> tuple[list[Match], list[str], list[str]]:  # fmt: skip
    """(matches, labels only in A, labels only in B): the named pairs, equal labels, then one
    unmatched label a side with the same base name."""
    matches = _named_pairs(checked_pairs(pairs), la, lb)
    left_a = [x for x in la if x not in {m.a for m in matches}]
    left_b = [x for x in lb if x not in {m.b for m in matches}]
    matches += [Match(x, x, "same") for x in left_a if x in left_b]
    left_a = [x for x in left_a if x not in {m.a for m in matches}]
    left_b = [x for x in left_b if x not in {m.b for m in matches}]
    for base in sorted({_base(x) for x in left_a}):
        ca = [x for x in left_a if _base(x) == base]
        cb = [x for x in left_b if _base(x) == base]
        if len(ca) == 1 and len(cb) == 1:
            matches.append(Match(ca[0], cb[0], "base"))
    only_a = sorted(x for x in left_a if x not in {m.a for m in matches})
    only_b = sorted(x for x in left_b if x not in {m.b for m in matches})
    return sorted(matches, key=lambda m: m.name), only_a, only_b


def _spec(run: Run) -> dict[str, Any]:
    spec = run.manifest.get("spec") if isinstance(run.manifest, dict) else None
    return spec if isinstance(spec, dict) else {}


def _sizes(run: Run) -> str:
    sizes = [str(n) for n in np.unique(run.games.n_players)]
    return " or ".join(sizes) if len(sizes) < 3 else f"{', '.join(sizes[:-1])} or {sizes[-1]}"


def _kind(run: Run) -> str:
    g = _spec(run).get("gauntlet")
    if not isinstance(g, dict):
        return "a tournament"
    field = ", ".join(g.get("field", []))
    return f"a gauntlet ({g.get('strategy')} against {field})"


def check_comparable(ra: Run, rb: Run, name_a: str, name_b: str) -> None:
    """Raise NotComparable (one line) for runs whose win rates count different things: other
    games, other table sizes, a gauntlet against a tournament."""
    head = f"cannot compare {name_a} and {name_b}:"
    da, db = ra.declaration, rb.declaration
    if da.name != db.name:
        raise NotComparable(f"{head} A is a run of {da.title}, B of {db.title}")
    sa, sb = _sizes(ra), _sizes(rb)
    if sa != sb:
        raise NotComparable(f"{head} A's {da.units()} were played by {sa} players, B's by {sb} "
                            "(a win rate depends on the table size)")  # fmt: skip
    ka, kb = _kind(ra), _kind(rb)
    if ka.split(" (")[0] != kb.split(" (")[0]:
        raise NotComparable(f"{head} A is {ka}, B is {kb} (their win rates count other tables)")


def settings_lines(ra: Run, rb: Run) -> list[str]:
    """The game settings (e.g. the rules) the runs differ in, both named."""

    def words(run: Run) -> dict[str, str]:
        w = run.manifest.get("game_settings") if isinstance(run.manifest, dict) else None
        return {str(k): str(v) for k, v in w.items()} if isinstance(w, dict) else {}

    wa, wb = words(ra), words(rb)
    lines = []
    for key in sorted(set(wa) | set(wb)):
        a, b = wa.get(key), wb.get(key)
        if a is None or b is None:  # unknown, not different
            side, known = ("A", f"B {b}") if a is None else ("B", f"A {a}")
            lines.append(f"run {side} does not record its {key} ({known}): they may differ")
        elif a != b:
            lines.append(f"the runs were played under different {key}: A {a}; B {b}")
    ma, mb = _matches(ra), _matches(rb)
    if ma != mb:
        lines.append(f"the runs play differently: A {ma}; B {mb}")
    return lines


def _matches(run: Run) -> str:
    """What a run plays: single games, or matches to their target."""
    d = run.declaration
    if not run.expert:
        return f"single {d.units()}"
    target = _spec(run).get("target")
    return f"{d.match_label.lower()}" + ("" if target is None else f" to {target}")
