"""``leaves variants --sweep KEY=V1,V2,...`` (or ``KEY=LO..HI`` for a key that takes a whole
number): the rule sets of a sweep over one key, every other ``--rules`` held fixed, and which
of them plays as today's rules (that point is the default run, played once).

Imports inside functions: start-up. The packages a command runs on load once its options are
checked, so ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

import re
from typing import Any

from gamekit.errors import shown
from gamekit.whole import read_whole
from leaves_cli.errors import CLIError

MAX_POINTS = 16
"""Most values one sweep plays (each is a tournament of its own)."""
INTEGER_KEYS = ("hand_size", "expert_target", "turn_limit")
"""The keys a range LO..HI can sweep (they take one whole number)."""

ENDS_A_MATCH = "ends a match, never a game"
"""Why ``expert_target`` means nothing to a command that plays single games: the one wording
of the refusals of ``play``, ``tune`` and ``variants``."""


def _values(key: str, text: str) -> range | list[str]:
    """The values ``text`` lists, or the whole numbers of its range (not written out: a range
    is counted before its values are)."""
    if ".." in text:
        if key not in INTEGER_KEYS:
            raise CLIError(f"--sweep {key}={text}: a range LO..HI sweeps a key that takes one "
                           f"whole number ({', '.join(INTEGER_KEYS)}); list the values of "
                           f"{key} instead: {key}=V1,V2,...", usage=True)  # fmt: skip
        ends = [end.strip() for end in text.partition("..")[::2]]
        a, b = (read_whole(end) if re.fullmatch("-?[0-9]+", end) else None for end in ends)
        if a is None or b is None:  # as a value is written; of any length (past int()'s 4,300)
            raise CLIError(f"--sweep {key}={text}: write LO..HI with whole numbers (digits 0-9)",
                           usage=True)  # fmt: skip
        if b < a:
            raise CLIError(f"--sweep {key}={text}: the range is empty (LO > HI)", usage=True)
        return range(a, b + 1)
    values = [v.strip() for v in text.split(",")]
    if any(not v for v in values):
        raise CLIError(f"--sweep {key}={text}: an empty value", usage=True)
    return values


def _rules_of(key: str, value: str, base: Any) -> Any:
    """The rules of one point of the sweep: ``base`` with ``key`` set to ``value``; a usage
    error that names the value when it is not one ``key`` takes."""
    from leaves.ruleset import Rules

    try:
        return Rules.parse(f"{key}={value}", base=base)
    except ValueError as exc:
        raise CLIError(f"--sweep {key}={value}: {exc}", usage=True) from None


def plays_as(a: Any, b: Any, sizes: list[int], expert: bool = True) -> bool:
    """True when rules ``a`` and ``b`` deal and play alike at the table sizes ``sizes``
    (hand_size=11 is today's rule at 4 players); without ``expert`` matches, whatever their
    match target (it ends a match, never a game)."""
    try:
        same_hands = all(a.hand_size_for(n) == b.hand_size_for(n) for n in sizes)
    except ValueError:
        return False
    keys = ("deck", "min_count", "take", "turn_limit") + (("expert_target",) if expert else ())
    return same_hands and all(getattr(a, k) == getattr(b, k) for k in keys)


def refuse_todays(rules: Any, texts: tuple[str, ...], players: int) -> None:
    """Refuse ``leaves run --rules`` (``texts``, making ``rules``) other than today's that
    deal and play as today's at the run's tables (``expert_target``: it ends a match, and the
    run plays games): the run and the same field under today's rules would be the same games
    twice, their comparison empty."""
    from leaves.ruleset import DEFAULT_RULES

    if rules.is_default or not plays_as(rules, DEFAULT_RULES, [players], expert=False):
        return
    why = ""
    if rules.expert_target != DEFAULT_RULES.expert_target:
        why = f" (expert_target {ENDS_A_MATCH}, and this command plays games)"
    raise CLIError(
        f"{' '.join(f'--rules {t}' for t in texts)} plays as today's rules at {players} "
        f"players{why}: the run would play "
        "the same games twice; give a rule that changes them",
        usage=True,
    )


def only_matches(a: Any, b: Any, expert: bool) -> str:
    """Where rules ``a`` play as ``b`` only for want of matches, what would tell them apart
    (words to add to the refusal); else ''."""
    if expert or a.expert_target == b.expert_target:
        return ""
    return f" (expert_target {ENDS_A_MATCH}: --expert plays matches)"


def sweep_sets(text: str, fixed: tuple[str, ...], sizes: list[int], expert: bool = True
               ) -> tuple[list[Any], list[tuple[str, int]]]:  # fmt: skip
    """(rule sets, today's first, then numbers from the smallest up (``_in_order``); the
    sweep's points as (value, index of its rule set)).
    A value that plays as today's rules at ``sizes`` (with ``expert`` matches or not) is
    today's run."""
    from leaves.ruleset import DEFAULT_RULES

    key, values, parsed = point_rules(text, fixed)
    values_text = text.partition("=")[2]
    _refuse_idle(fixed, (key, values, parsed), sizes, expert)
    sets, points, twice = [DEFAULT_RULES], [], None
    for value, rules in zip(values, parsed, strict=True):
        if plays_as(rules, DEFAULT_RULES, sizes, expert):
            rules = DEFAULT_RULES
        if rules in sets[1:] or any(v == value for v, _ in points):
            raise CLIError(f"--sweep {key}: the value {value} is given twice", usage=True)
        alike = next(((v, i) for v, i in points if plays_as(rules, sets[i], sizes, expert)),
                     None)  # fmt: skip
        if alike is not None:  # the same games as an earlier value's
            twice = twice or (value, *alike)
            if alike[1]:  # a variant's; today's twice is said after 'every value' is
                break
        if rules not in sets:
            sets.append(rules)
        points.append((value, sets.index(rules)))
    if len(sets) < 2:  # refused before a game is played, not by the report after all of them
        why = next(filter(None, (only_matches(r, DEFAULT_RULES, expert) for r in parsed)), "")
        raise CLIError(f"every value of --sweep {key}={values_text.strip()} plays as today's "
                       f"rules at {sizes_text(sizes)}{why}: nothing to compare; sweep values "
                       "that change the game", usage=True)  # fmt: skip
    if twice is not None:  # two values, one run: the same games twice (two of today's too)
        value, other, i = twice
        why = only_matches(parsed[values.index(value)], sets[i], expert)
        raise CLIError(f"--sweep {key}: the value {value} plays as {other} at "
                       f"{sizes_text(sizes)}{why}: the same games twice", usage=True)  # fmt: skip
    return _in_order(sets, points)


def _in_order(sets: list[Any], points: list[tuple[str, int]]
              ) -> tuple[list[Any], list[tuple[str, int]]]:  # fmt: skip
    """The variants' rule sets from the smallest value up where every value is a number
    (``10,8,9`` plays 8, 9, 10: the runs and the findings read along the axis), today's
    first; the points as given, each naming its rule set anew. Other values: as given."""
    try:
        at = {i: float(v) for v, i in points if i}  # one value per variant: a twice is refused
    except ValueError:
        return sets, points
    order = [0, *sorted(at, key=lambda i: at[i])]
    new = {old: k for k, old in enumerate(order)}
    return [sets[i] for i in order], [(v, new[i]) for v, i in points]


def _refuse_idle(fixed: tuple[str, ...], points: tuple[str, list[str], list[Any]],
                 sizes: list[int], expert: bool) -> None:  # fmt: skip
    """Refuse ``--rules`` held ``fixed`` under which every value of the sweep (``points``:
    key, values, their rules) plays as it does without them (``plays_as``, as a lone
    ``--rules`` that plays as today's is refused): each rule set would bear a rule its games
    lack."""
    from leaves.ruleset import Rules

    key, values, parsed = points
    why = ""
    for value, rules in zip(values, parsed, strict=True):
        try:
            alone = Rules.parse(f"{key}={value}")
        except ValueError:  # the value is one the key takes only under the fixed rules
            return
        if not fixed or not plays_as(rules, alone, sizes, expert):
            return
        why = why or only_matches(rules, alone, expert)
    raise CLIError(f"--rules {', '.join(fixed)} changes no game of --sweep {key} at "
                   f"{sizes_text(sizes)}{why}: every value plays as it does without it; give "
                   "a rule that changes them", usage=True)  # fmt: skip


def point_rules(text: str, fixed: tuple[str, ...]) -> tuple[str, list[str], list[Any]]:
    """The key ``--sweep`` ``text`` varies, its values, and the rules of each value (``fixed``,
    the ``--rules`` held, with the key set to it); a usage error for a sweep that cannot be
    read, a bad value first, then too few values."""
    from leaves.rule_text import rule_items
    from leaves.ruleset import Rules

    key, values = sweep_values(text)
    try:
        base = Rules.parse(fixed)
    except ValueError as exc:
        raise CLIError(f"--rules {', '.join(fixed)}: {exc}", usage=True) from None
    if any(k == key for k, _ in rule_items(fixed)):
        raise CLIError(f"--rules sets {key}, which --sweep varies: drop one of them", usage=True)
    parsed = [_rules_of(key, v, base) for v in values]  # a bad value before too few
    if len(values) < 2:
        raise _count_refused(text, len(values))
    return key, values, parsed


def sweep_values(text: str) -> tuple[str, list[str]]:
    """The key ``--sweep KEY=V1,V2,...`` (or ``KEY=LO..HI``) varies and its values, each
    stripped (a range written out); a usage error where it names no rule key or no values."""
    from leaves.ruleset import KEYS

    key, eq, values_text = text.partition("=")
    key = key.strip()
    if not eq or not key or not values_text.strip():
        raise CLIError(f"--sweep {text!r}: write KEY=V1,V2,... or KEY=LO..HI", usage=True)
    names = [k.name for k in KEYS]
    if key not in names:
        raise CLIError(f"--sweep {text!r}: unknown rule {key!r}; the rules are "
                       f"{', '.join(names)}", usage=True)  # fmt: skip
    values = _values(key, values_text.strip())
    # counted, not len(): a range of 2**63 values or more is past what len() can say
    count = values.stop - values.start if isinstance(values, range) else len(values)
    if count > MAX_POINTS:
        raise _count_refused(text, count)
    return key, [str(v) for v in values]


def _count_refused(text: str, n: int) -> CLIError:
    """The one line refusing a sweep of ``n`` values; a count past the line's width said by
    its digits, as ``shown`` says a number."""
    said = shown(n, typed=False)
    got = f"{n:,}" if said.isdigit() else said
    return CLIError(f"--sweep {shown(text, typed=False)}: give 2 to {MAX_POINTS} values, got "
                    f"{got}", usage=True)  # fmt: skip


def sizes_text(sizes: list[int]) -> str:
    """'4 players', '3 and 4 players', '3, 4 and 5 players': a sweep value plays as today's
    rules only where it does at every size."""
    names = [str(n) for n in sizes]
    head = ", ".join(names[:-1])
    return f"{head + ' and ' if head else ''}{names[-1]} players"
