"""The rules of a game of 13 Leaves as one validated, named object: ``Rules``.

Today's rules (``docs/rules.md``) are ``Rules()``, ``DEFAULT_RULES``. A designer changes a
few keys (``Rules(hand_size=9)``, ``Rules.parse("take=ends,min_count=off")``) and every part
of the project (the ``State`` API, views, the compiled loops and the built-in policies, the
search, tournaments, records, reports) plays and reads games under them. A ``Rules`` is
frozen and hashable, checks itself when built (an impossible combination raises ValueError in
one sentence) and prints as the keys it changes (``str(Rules(hand_size=9))`` is
``"hand_size=9"``), so a run, a record or a report can name its rules in words.
``Rules.of`` is the one place rules are read, in every form a caller names them (a ``Rules``,
text, plain data, None); the turn limit is a key like any other, and ``Rules.of_options``
joins one an interface takes apart (``--turn-limit``) to the rest. It has one job, the rules as an
object (built, checked, read in every form and written in words), which is why this module is
longer than most; the text form itself (the items a ``key=value`` text names, each value
written back) is ``leaves.rule_text``'s.

Keys (``leaves rules`` lists them, ``KEYS`` holds their help):

- ``hand_size``: cards dealt to each player at the table's player count; one number for every
  count, or a mapping ``{players: cards}`` (``"3:12/4:11"`` in text).
- ``deck``: copies of each value 1..13 (0..8 each; ``"2/3/4/5/6/7/8/7/6/5/4/3/2"`` in text).
- ``players``: the player counts allowed (2..6; ``"3-6"`` or ``"3/5"``). Left unset, every
  count 3..6 the deck and hand size allow.
- ``min_count``: whether a play onto an end needs at least as many cards as the end's stack.
- ``take``: what a pass takes: ``any`` stack (today), only an ``ends`` stack, or ``nothing``.
- ``expert_target``: the match total that ends an expert match.
- ``turn_limit``: turns after which a game ends unfinished (E1).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, fields, replace
from numbers import Integral, Real
from typing import Any, ClassVar, NamedTuple

from gamekit.errors import ParameterError, refuse_unknown_keys, shown
from gamekit.whole import other_form, other_spelling

from .rule_text import counts_text, named_value, parse_texts, rule_items, texts_of, value_text
from .rules import (
    DECK,
    EXPERT_TARGET,
    HAND_SIZES,
    MAX_COPIES,
    MAX_DECK,
    MAX_PLAYERS,
    MIN_PLAYERS,
    N_VALUES,
    TURN_LIMIT,
)

__all__ = ["DEFAULT_RULES", "KEYS", "RuleKey", "Rules", "TAKE_MODES", "counts_text", "value_text"]

TAKE_MODES = ("any", "ends", "nothing")
"""What a pass takes, by index (the compiled kernels' ``take`` code): any stack, an end stack
only, or no card at all (then a pass is the action ``Action.pass_()``, id 117)."""

FEWEST_PLAYERS = 2  # a round needs someone to pass and someone to stay
MOST_PLAYERS = MAX_PLAYERS  # the board has a row per seat for 6
MOST_COPIES = MAX_COPIES  # the action encoding plays at most 8 cards of a value
MOST_CARDS = MAX_DECK // FEWEST_PLAYERS  # 52: a hand of the fullest deck split between two
TARGETS = (1, 1000)
"""The expert targets a rule set takes (least, most)."""
TURN_LIMITS = (1, 1_000_000)
"""The turn limits a rule set takes (least, most)."""
_ON = {"on": True, "off": False}
"""A switch's words, exactly as ``leaves rules`` lists them (a bool is taken as it is)."""


class RuleKey(NamedTuple):
    """One key of ``Rules``: its name, today's value in words, the values it takes, what it
    changes."""

    name: str
    default: str
    values: str
    meaning: str


KEYS: tuple[RuleKey, ...] = (
    RuleKey("hand_size", value_text("hand_size", {str(n): h for n, h in HAND_SIZES.items()}),
            f"1..{MOST_CARDS} cards, or players:cards/...",
            "cards dealt to each player at the table's player count"),
    RuleKey("deck", value_text("deck", DECK), f"{N_VALUES} counts 0..{MOST_COPIES}, value 1 first",
            "copies of each card value in the deck"),
    RuleKey("players", f"{MIN_PLAYERS}-{MAX_PLAYERS}",
            f"counts {FEWEST_PLAYERS}..{MOST_PLAYERS}: 3-6 or 3/5",
            f"player counts allowed (unset: every count {MIN_PLAYERS}..{MAX_PLAYERS} the deck "
            "can deal)"),
    RuleKey("min_count", "on", "on, off",
            "a play onto an end needs at least as many cards as that end's stack"),
    RuleKey("take", "any", "any, ends, nothing",
            "what a pass takes: a card of any stack, of an end stack only, or nothing"),
    RuleKey("expert_target", str(EXPERT_TARGET), "{}..{}".format(*TARGETS),
            "expert match: ends after the game in which a total reaches this"),
    RuleKey("turn_limit", str(TURN_LIMIT), "{}..{}".format(*TURN_LIMITS),
            "a game reaching this many turns ends unfinished, with no winner (E1)"),
)  # fmt: skip


@dataclass(frozen=True)
class Rules:
    """The rules of 13 Leaves, today's by default; see the module docstring for the keys.

    ``hand_size`` is kept as a tuple of (players, cards) pairs and ``players`` as a tuple of
    counts, so a ``Rules`` is hashable; both accept the friendlier forms when built.
    """

    hand_size: Any = tuple(HAND_SIZES.items())
    deck: tuple[int, ...] = DECK
    players: Any = None
    min_count: bool = True
    take: str = "any"
    expert_target: int = EXPERT_TARGET
    turn_limit: int = TURN_LIMIT

    def __post_init__(self) -> None:
        deck = _deck(self.deck)
        sizes = _hand_sizes(self.hand_size)
        players = _players(self.players, sizes, sum(deck))
        set_ = object.__setattr__
        set_(self, "deck", deck)
        set_(self, "hand_size", sizes)
        set_(self, "players", players)
        set_(self, "min_count", _switch("min_count", self.min_count))
        set_(self, "take", _choice("take", self.take, TAKE_MODES))
        set_(self, "expert_target", _integer("expert_target", self.expert_target, *TARGETS))
        set_(self, "turn_limit", _integer("turn_limit", self.turn_limit, *TURN_LIMITS))
        # derived once: the kernels' flags (read on every pass) and the hash (read whenever
        # a state is a dictionary key)
        set_(self, "flags", (0 if self.min_count else 1) | TAKE_MODES.index(self.take) << 1)
        set_(self, "_hash", hash(tuple(getattr(self, f.name) for f in fields(self))))

    flags: ClassVar[int]
    """The play and pass rules as the kernels' one int (0 for today's): bit 0 set when
    ``min_count`` is off, bits 1-2 the ``take`` code (its index in ``TAKE_MODES``). Deck, hand
    size, target and turn limit do not change what is legal, so they are not in it."""

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[Any, ...]:
        # rebuilt from its fields: the hash derived from them is the process's own (a string's
        # hash differs from one process to the next, so a pickled one would be another's)
        return (Rules, tuple(getattr(self, f.name) for f in fields(self)))

    def __copy__(self) -> Rules:
        return self  # immutable

    def __deepcopy__(self, memo: dict) -> Rules:
        return self

    # ------------------------------------------------------------------ reading
    def hand_size_for(self, n_players: int) -> int:
        """Cards per hand at ``n_players``; ValueError naming the allowed counts otherwise."""
        if n_players in self.players:
            for n, h in self.hand_size:
                if n == n_players or n == 0:
                    return h
        whole = isinstance(n_players, Integral) and not isinstance(n_players, bool)
        said = shown(int(n_players) if whole else n_players, typed=False)  # np.int64(7): 7
        raise ValueError(
            f"13 Leaves{self.under()} is played by {counts_text(self.players)} players, got {said}"
        )

    @property
    def deck_size(self) -> int:
        return sum(self.deck)

    @property
    def is_default(self) -> bool:
        return self == DEFAULT_RULES

    def changes(self) -> dict[str, Any]:
        """The keys that differ from today's rules, in plain data (``to_dict``'s form)."""
        full, base = self.to_dict(), DEFAULT_RULES.to_dict()
        if self.players == _derived(self.hand_size, self.deck_size):
            del full["players"]  # the counts follow from the hand size and the deck
        return {k: v for k, v in full.items() if v != base[k]}

    def to_dict(self) -> dict[str, Any]:
        """Every key in plain data (JSON and TOML friendly); ``Rules.from_dict`` reads it."""
        sizes = self.hand_size
        return {
            "hand_size": sizes[0][1] if sizes[0][0] == 0 else {str(n): h for n, h in sizes},
            "deck": list(self.deck),
            "players": list(self.players),
            "min_count": self.min_count,
            "take": self.take,
            "expert_target": self.expert_target,
            "turn_limit": self.turn_limit,
        }

    def __str__(self) -> str:
        """The changed keys as ``key=value`` text ``Rules.parse`` reads back; ``default``
        for today's rules."""
        parts = [f"{k}={value_text(k, v)}" for k, v in self.changes().items()]
        return ", ".join(parts) if parts else "default"

    def under(self) -> str:
        """`` under <rules>`` for a message; nothing under today's rules."""
        return "" if self.is_default else f" under {self}"

    # ------------------------------------------------------------------ building
    def replace(self, **changes: Any) -> Rules:
        """These rules with some keys changed (checked again). Changing ``hand_size`` or
        ``deck`` without ``players`` lets the allowed counts follow them."""
        derived = self.players == _derived(self.hand_size, self.deck_size)
        if changes.keys() & {"hand_size", "deck"} and "players" not in changes and derived:
            changes["players"] = None
        return replace(self, **changes)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any] | None) -> Rules:
        """Rules from plain data (a ``[rules]`` table, a manifest): unknown keys refused."""
        if not isinstance(d, Mapping | None):  # false or "" is no table, nor today's rules
            raise ValueError(f"rules must be a table of key = value, got {shown(d, typed=False)}")
        if not d:
            return DEFAULT_RULES
        refuse_unknown_keys(d, [f.name for f in fields(cls)], noun="rule")
        return DEFAULT_RULES.replace(**d)

    @classmethod
    def of(cls, rules: Any = None) -> Rules:
        """The rules a caller names in any of the forms the project takes: a ``Rules``, its
        ``key=value`` text (one string or several, the later winning), its plain data, or
        None for today's. The one place rules are read; ValueError in one line otherwise."""
        if rules is None:
            return DEFAULT_RULES
        if isinstance(rules, Rules):
            return rules
        if isinstance(rules, Mapping):
            return cls.from_dict(rules)
        texts = texts_of(rules)
        if texts is not None:
            return cls.parse(texts)
        raise ValueError(
            f"rules must be a leaves.Rules, its key=value text or a dict, "
            f"got {shown(rules, typed=False)}"
        )

    @classmethod
    def of_options(cls, rules: Any, turn_limit: int | None = None) -> Rules:
        """``Rules.of(rules)`` for an interface that also takes the turn limit on its own
        (``--turn-limit``, OpenSpiel's ``turn_limit`` parameter), so that sugar joins the
        rules in one place: ``turn_limit``, when given, sets that key, and text naming another
        limit is refused (the two would disagree). Its errors are ``ParameterError``s naming
        ``rules`` and ``turn_limit`` (a command line says its flags); a text's own error is
        prefixed with ``rules``."""
        texts = texts_of(rules)
        try:
            out = cls.of(rules)
        except ValueError as exc:
            if texts is None:
                raise
            raise ParameterError(f"{{rules}}: {exc}", "rules") from None
        if turn_limit is None or out.turn_limit == turn_limit:
            return out
        named = named_value(texts or (), "turn_limit")
        if named is not None:
            raise ParameterError(
                f"{{turn_limit}} {shown(turn_limit, typed=False)} and {{rules}} "
                f"turn_limit={named} disagree: give one",
                "turn_limit", "rules",
            )  # fmt: skip
        try:
            return out.replace(turn_limit=turn_limit)
        except ValueError as exc:  # the rule's words, the value named as the caller gave it
            raise ParameterError(f"{{turn_limit}}{str(exc).removeprefix('turn_limit')}",
                                 "turn_limit") from None  # fmt: skip

    @classmethod
    def parse(cls, text: str | Iterable[str] | None, base: Rules | None = None) -> Rules:
        """Rules from ``key=value[,key=value...]`` text (one string or several, the later
        winning), on top of ``base`` (today's rules by default)."""
        texts = parse_texts(text)
        if base is not None and not isinstance(base, Rules):
            raise TypeError(f"base must be a leaves.Rules or None, got {shown(base)}")
        merged = {**(base or DEFAULT_RULES).changes(), **dict(rule_items(texts))}
        return cls.from_dict(merged)


# ---------------------------------------------------------------------- checks
def _integer(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool):
        raise ValueError(f"{name} must be a whole number {low}..{high}, got {value!r}")
    try:
        n = int(value)
        if n != value and str(n) != str(value).strip():
            raise ValueError
    except (TypeError, ValueError, OverflowError):  # OverflowError: inf, which TOML writes
        raise ValueError(_not_whole(name, value, low, high)) from None
    if not low <= n <= high:
        raise ValueError(f"{name} must be {low}..{high}, got {shown(n, typed=False)}")
    return n


def _not_whole(name: str, value: Any, low: int, high: int) -> str:
    """The line refusing ``value``, no whole number of the digits 0-9 in its own form; a
    spelling Python reads as a number (``９``, ``1_000``, ``-٣``) is said why in the number
    flags' words (``gamekit.whole.other_spelling``), and another form (``09``, ``+9``) with
    the one to write where it is in ``low..high`` (``other_form``)."""
    why = other_spelling(value) or other_form(value, (low, high))
    return f"{name} must be a whole number {low}..{high}, got {shown(value, typed=False)}" + (
        why and f", {why}"
    )


def _switch(name: str, value: Any) -> bool:
    if isinstance(value, bool) or getattr(getattr(value, "dtype", None), "kind", "") == "b":
        return bool(value)  # a bool, numpy's too
    flag = _ON.get(str(value).strip())
    if flag is None:
        raise ValueError(f"{name} must be on or off, got {shown(value, typed=False)}")
    return flag


def _choice(name: str, value: Any, choices: tuple[str, ...]) -> str:
    v = str(value).strip()
    if v not in choices:
        said = shown(value, typed=False)
        raise ValueError(f"{name} must be one of {', '.join(choices)}, got {said}")
    return v


def _deck(value: Any) -> tuple[int, ...]:
    if isinstance(value, Mapping | AbstractSet):  # unordered, or keyed: not value 1 first
        said = shown(value, typed=False)
        raise ValueError(f"deck must list {N_VALUES} counts (value 1 first), got {said}")
    items = value.split("/") if isinstance(value, str) else value
    try:
        deck = tuple(_integer("copies of one value", c, 0, MOST_COPIES) for c in items)
    except TypeError:
        said = shown(value, typed=False)
        raise ValueError(f"deck must list {N_VALUES} counts, got {said}") from None
    except ValueError as exc:  # 'deck: copies of one value must be 0..8, got 9'
        raise ValueError(f"deck: {exc}") from None
    if len(deck) != N_VALUES:
        raise ValueError(f"deck must list {N_VALUES} counts (value 1 first), got {len(deck)}")
    if sum(deck) < FEWEST_PLAYERS:
        raise ValueError(f"the deck must hold at least {FEWEST_PLAYERS} cards")
    return deck


def _hand_sizes(value: Any) -> tuple[tuple[int, int], ...]:
    """(players, cards) pairs, players ascending; ``((0, h),)`` for one size at every count."""
    given = value
    if isinstance(value, str):
        text = value.strip()
        if ":" not in text:
            return ((0, _integer("hand_size", text, 1, MOST_CARDS)),)
        value = [part.split(":", 1) for part in text.split("/")]
    elif isinstance(value, Real):  # numpy's numbers too: 9, np.int64(9) and 9.0 alike
        return ((0, _integer("hand_size", value, 1, MOST_CARDS)),)
    elif isinstance(value, tuple) and len(value) == 1 and value[0][:1] == (0,):
        one = _integer("hand_size", value[0][1], 1, MOST_CARDS)
        return ((0, one),)  # the kept form of one size
    pairs = value.items() if isinstance(value, Mapping) else value
    try:
        read = [
            (_integer("hand_size's player count", n, FEWEST_PLAYERS, MOST_PLAYERS),
             _integer("hand_size", h, 1, MOST_CARDS))
            for n, h in pairs
        ]  # fmt: skip
    except (TypeError, ValueError) as exc:
        if isinstance(exc, ValueError) and "must" in str(exc):
            raise
        raise ValueError(
            f"hand_size must be a number or players:cards/..., got {shown(given, typed=False)}"
        ) from None
    _once("hand_size", [n for n, _ in read], given)
    out = dict(read)
    if not out:
        raise ValueError("hand_size must name at least one player count")
    return tuple(sorted(out.items()))


def _once(name: str, counts: list[int], given: Any) -> None:
    """Refuse a player count named twice (``3:12/3:9``, ``3/3/5``): one would be dropped."""
    twice = next((n for i, n in enumerate(counts) if n in counts[:i]), None)
    if twice is not None:
        what = f"{twice} players" if name == "hand_size" else str(twice)
        raise ValueError(f"{name} names {what} twice ({_as_written(given)}): give each count once")


def _as_written(given: Any) -> str:
    """``given`` in an error: text as the user wrote it (``3/3/5``, no quotes) where ``shown``
    would write it whole on the line, else (a list, long text, a line break) ``shown``'s."""
    said = shown(given, typed=False)
    plain = isinstance(given, str) and given.isprintable() and said == repr(given)
    return given if plain else said


def _size(sizes: tuple[tuple[int, int], ...], n: int) -> int | None:
    return next((h for m, h in sizes if m in (n, 0)), None)


def _derived(sizes: tuple[tuple[int, int], ...], cards: int) -> tuple[int, ...]:
    """Every count 3..6 with a hand size the deck can deal (maybe none)."""
    return tuple(
        n for n in range(MIN_PLAYERS, MAX_PLAYERS + 1) if (h := _size(sizes, n)) and n * h <= cards
    )


def _none_dealt(sizes: tuple[tuple[int, int], ...], cards: int) -> str:
    """Why no count 3..6 can be dealt: the count with a hand size that needs the fewest cards
    (it needs more than the deck), or no count with a hand size at all."""
    sized = [(n * h, n, h) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1) if (h := _size(sizes, n))]
    fewer = [(n, h) for n in range(FEWEST_PLAYERS, MIN_PLAYERS) if (h := _size(sizes, n))]
    hint = next(
        (f" (players={n} deals {n} hands of {h}: a count below {MIN_PLAYERS} is dealt only when"
         f" named)" for n, h in fewer if n * h <= cards),
        "",
    )  # fmt: skip
    if not sized:
        given = ", ".join(str(m) for m, _ in sizes)
        return (f"no player count {MIN_PLAYERS}..{MAX_PLAYERS} can be dealt: hand_size gives "
                f"hands for {given} players only{hint}")  # fmt: skip
    need, n, h = min(sized)
    return (
        f"no player count {MIN_PLAYERS}..{MAX_PLAYERS} can be dealt: {n} hands of {h} need "
        f"{need} cards, the deck holds {cards}{hint}"
    )


def _players(value: Any, sizes: tuple[tuple[int, int], ...], cards: int) -> tuple[int, ...]:
    """The allowed counts: as given (each checked against the deck), or every count 3..6 with
    a hand size the deck can deal."""

    if value is None:
        counts = _derived(sizes, cards)
        if not counts:
            raise ValueError(_none_dealt(sizes, cards))
        return counts
    counts = _counts_read(value)
    for n in counts:
        h = _size(sizes, n)
        if h is None:
            raise ValueError(f"players allows {n} but hand_size gives no hand for {n} players")
        if n * h > cards:
            raise ValueError(
                f"cannot deal {n} hands of {h} cards: {n * h} cards, the deck holds {cards}"
            )
    return counts


def _counts_read(value: Any) -> tuple[int, ...]:
    name, given = "players", value
    if isinstance(value, Real):  # one count, numpy's too: read as _integer reads it
        value = [value]
    elif isinstance(value, Mapping) or not isinstance(value, str | Iterable):
        # a table's keys are no list of counts ({3 = true, 4 = false} is not 3 and 4)
        raise ValueError(
            f"players must be counts {FEWEST_PLAYERS}..{MOST_PLAYERS} (4, 3-6, 3/5 or a list "
            f"of counts), got {shown(value, typed=False)}"
        )
    if isinstance(value, str):
        text = value.strip()
        low, dash, high = text.partition("-")
        value = [low, high] if dash else text.split("/")
        if not all(part.strip() for part in value):  # '-3', '3-', '3/': a count left out
            raise ValueError(f"players must be counts {FEWEST_PLAYERS}..{MOST_PLAYERS} (4, 3-6 "
                             f"or 3/5), got {shown(given, typed=False)}")  # fmt: skip
        if dash:
            a, b = (_integer(name, n, FEWEST_PLAYERS, MOST_PLAYERS) for n in value)
            if b < a:
                raise ValueError(f"players {text} is an empty range: write LO-HI with LO <= HI "
                                 f"({b}-{a})")  # fmt: skip
            value = range(a, b + 1)
    read = [_integer(name, n, FEWEST_PLAYERS, MOST_PLAYERS) for n in value]
    _once(name, read, given)
    counts = tuple(sorted(set(read)))
    if not counts:
        raise ValueError("players must allow at least one player count")
    return counts


DEFAULT_RULES = Rules()
"""Today's rules (``docs/rules.md``)."""
