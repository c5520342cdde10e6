"""Mutation testing of the rules core and the statistics: would the tests notice a wrong rule?

    python benchmarks/bench_mutation.py                      # every module below, hours
    python benchmarks/bench_mutation.py leaves/state.py      # one module, seconds to over half an hour
    python benchmarks/bench_mutation.py leaves/legal.py --match ends_miss   # some mutants
    python benchmarks/bench_mutation.py --list leaves/moves.py             # only list them

Each *mutant* is the module with one small change of the kinds a slip of the pen makes: a
comparison flipped (``<`` and ``<=``, ``>`` and ``>=``, ``==`` and ``!=``, ``is``/``is not``,
``in``/``not in``), ``and`` and ``or`` swapped, ``+`` and ``-`` swapped, a number moved by
one either way. The tests that cover the module (``MODULES``: module -> test files) run
against every mutant; a mutant is *killed* when a test fails (or the module no longer
imports, or the tests run past a timeout), and *survives* when they all pass. Printed per
module: killed / total, the survivors listed in ``docs/mutation.md`` as equivalent (they
change no behaviour: a cache one entry larger, a bound no input reaches), and every other
survivor with its line: each is a rule or a formula the tests would let go wrong.

Why a runner of our own: mutmut (3.x) mutates neither properties (``State.unfinished``,
``is_terminal``, ``winner``) nor module-level code (``leaves.legal``'s tables, dataclass
defaults), by design: its trampolines replace plain functions only; cosmic-ray mutates
everything but runs every mutant as a fresh test process (numpy, pandas and numba imported
anew: about 4 s each, and its operators give 668 mutants of ``leaves/state.py`` alone). Here
the parent process imports the third-party packages once and forks a child per mutant; the
child forgets the project's modules, imports them again with the mutated module compiled from
a changed syntax tree in memory (nothing is written to the checkout; the tests run in a
temporary folder) and runs the selected tests with pytest, stopping at the first failure.

Compiled kernels: the mutants of ``leaves/kernels.py``, ``leaves/deal_kernels.py`` and
``leaves/fastplay.py`` (``JIT_OFF``) run with numba's JIT disabled in the child, so ``njit``
hands back the mutated Python function and a mutant costs no compile; their tests
(``tests/test_boundaries_kernels.py``, ``..._deal_kernels.py``, ``..._fastplay.py``) compare
the kernels with the ``State`` API position by position, the deal with a plain Fisher-Yates
and ``new_game``, fastplay's games with ``kernels.random_games`` (its bit intrinsics, which
pure Python cannot call, compiled from their code generators with llvmlite by its test). Elsewhere a mutant of a ``@njit`` function reaches its
Python function (``py_func``, which the numpy paths of ``gamekit.seeding`` run) and its own
compiled form, never a kernel that inlines it (their cached machine code is keyed by their
own bytecode); the children never write numba's cache.

This is a benchmark, not part of the test suite: ``tests/test_mutation_tool.py`` checks the
runner itself on a toy module.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import copy
import importlib.abc
import importlib.machinery
import io
import os
import re
import signal
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROJECT = ("gamekit", "interop", "leaves", "leaves_cli", "ligretto", "strategies",
           "tournaments", "reports", "tuning", "tests")  # fmt: skip
"""Top-level packages a child forgets and imports again (the tests' modules too)."""

_RULES = ("tests/test_boundaries_reference.py", "tests/test_rules.py")
_RECORDS = (
    "tests/test_boundaries_record.py",
    "tests/test_properties.py",
    "tests/test_cli_replay.py",
    "tests/test_audit3_api.py",
    "tests/test_api_edges62.py",
    "tests/test_api_edges62b.py",
    "tests/test_mutation_record62.py",
    "tests/test_records63.py",
    "tests/test_mutation65_record.py",
    "tests/test_edge65_records.py",
    "tests/test_edge66_records.py",
    "tests/test_edge66_records_view.py",
    "tests/test_edge66_core.py",
)
"""The tests of a game record, its replay and its checks (``leaves/record.py`` and
``leaves/record_checks.py``, one module until they were split)."""
MODULES: dict[str, tuple[str, ...]] = {
    "leaves/state.py": (
        "tests/test_boundaries_state.py",
        *_RULES,
        "tests/test_audit3_api.py",
        "tests/test_edge70_rules_core.py",
        "tests/test_edge71_initial_hands.py",
    ),
    "leaves/legal.py": ("tests/test_boundaries_legal.py", *_RULES),
    "leaves/moves.py": ("tests/test_boundaries_moves.py", *_RULES),
    "leaves/ruleset.py": (
        "tests/test_boundaries_ruleset.py",
        "tests/test_audit3_api.py",
        "tests/test_bad_input_rules.py",
        "tests/test_variants63.py",
        "tests/test_edge66_core.py",
    ),
    "leaves/rule_text.py": (
        "tests/test_boundaries_ruleset.py",
        "tests/test_audit3_api.py",
        "tests/test_bad_input_rules.py",
        "tests/test_variants63.py",
    ),
    "tournaments/sequential.py": (
        "tests/test_boundaries_sequential.py",
        "tests/test_edge71_sequential_bounds.py",
    ),
    "reports/student_t.py": ("tests/test_boundaries_student_t.py",),
    "reports/clusters.py": (
        "tests/test_boundaries_clusters.py",
        "tests/test_mutation_clusters61.py",
        "tests/test_edge67_clusters_sets.py",
        "tests/test_edge68_mutation_clusters_no_spread.py",
    ),
    "reports/significance.py": (
        "tests/test_boundaries_significance.py",
        "tests/test_edge67_standardised_rates.py",
        "tests/test_edge67_significance_edges.py",
    ),
    "reports/numbers.py": (
        "tests/test_boundaries_numbers.py",
        "tests/test_numbers64_digits.py",
        "tests/test_edge65_signs.py",
        "tests/test_edge65_bounds.py",
        "tests/test_edge65_bounds_cells.py",
        "tests/test_mutation65_numbers.py",
    ),
    "gamekit/seeding.py": ("tests/test_boundaries_seeding.py",),
    "tournaments/seating.py": ("tests/test_boundaries_seating.py",),
    "leaves/kernels.py": ("tests/test_boundaries_kernels.py",),
    "leaves/deal_kernels.py": ("tests/test_boundaries_deal_kernels.py",),
    "leaves/fastplay.py": ("tests/test_boundaries_fastplay.py",),
    "leaves/validate.py": (
        "tests/test_boundaries_validate.py",
        "tests/test_rules.py",
        "tests/test_audit3_api.py",
        "tests/test_edge70_rules_core.py",
        "tests/test_edge71_round_bound.py",
    ),
    "leaves/expert.py": (
        "tests/test_expert.py",
        "tests/test_audit3_api.py",
        "tests/test_edge70_rules_core.py",
    ),
    "leaves/view.py": (
        "tests/test_boundaries_view.py",
        "tests/test_properties.py",
        "tests/test_audit3_api.py",
    ),
    "ligretto/engine.py": (
        "tests/test_boundaries_ligretto.py",
        "tests/test_ligretto_rules.py",
        "tests/test_ligretto_properties.py",
        "tests/test_ligretto_api_edges.py",
        "tests/test_audit_ligretto.py",
    ),
    "ligretto/state.py": (
        "tests/test_boundaries_ligretto.py",
        "tests/test_ligretto_rules.py",
        "tests/test_ligretto_api_edges.py",
    ),
    "ligretto/rules.py": (
        "tests/test_boundaries_ligretto.py",
        "tests/test_ligretto_rules.py",
        "tests/test_ligretto_api_edges.py",
    ),
    "leaves/actions.py": (
        "tests/test_boundaries_actions.py",
        *_RULES,
        "tests/test_api_edges_core.py",
        "tests/test_audit3_api.py",
        "tests/test_edge66_core.py",
        "tests/test_mutation66b_actions.py",
    ),
    "leaves/record.py": _RECORDS,
    "leaves/record_checks.py": _RECORDS,
    "gamekit/seed_check.py": ("tests/test_edges_review.py", "tests/test_ligretto_api_edges.py"),
    "tournaments/labels.py": (
        "tests/test_boundaries_labels.py",
        "tests/test_audit_forfeit_edges.py",
    ),
    "leaves/board.py": ("tests/test_boundaries_board.py",),
    "leaves/deal.py": ("tests/test_boundaries_deal.py",),
    "leaves/packed.py": ("tests/test_boundaries_deal.py",),
    "strategies/spec_values.py": ("tests/test_boundaries_spec_values.py",),
    "strategies/policy/params.py": ("tests/test_boundaries_params.py",),
    "strategies/base.py": ("tests/test_boundaries_base.py",),
    "tournaments/aggregates.py": ("tests/test_boundaries_aggregates.py",),
    "tournaments/match_aggregates.py": (
        "tests/test_boundaries_aggregates.py",
        "tests/test_runner61.py",
    ),
    "reports/expert.py": ("tests/test_boundaries_expert_report.py", "tests/test_reports.py"),
    "reports/compare.py": (
        "tests/test_mutation_gauntlet60.py",
        "tests/test_compare.py",
        "tests/test_audit4_compare.py",
        "tests/test_mutation_record62.py",
        "tests/test_edge71_compare_args.py",
    ),
    "tournaments/gauntlet.py": ("tests/test_mutation_gauntlet60.py", "tests/test_gauntlet.py"),
    "reports/gauntlet.py": ("tests/test_mutation_gauntlet60.py", "tests/test_gauntlet.py"),
    "reports/compare_deals.py": (
        "tests/test_mutation_compare_deals61.py",
        "tests/test_compare.py",
        "tests/test_audit4_compare.py",
    ),
    "reports/rating.py": (
        "tests/test_mutation_metagame62.py",
        "tests/test_reports.py",
        "tests/test_reports_declared.py",
    ),
    "reports/metagame_rank.py": ("tests/test_mutation_metagame62.py",),
    "reports/metagame_bootstrap.py": ("tests/test_mutation_metagame62.py",),
    "reports/stats.py": (
        "tests/test_boundaries_significance.py",
        "tests/test_boundaries_clusters.py",
        "tests/test_reports.py",
        "tests/test_mutation_stats63.py",
    ),
    "reports/neighbours.py": (
        "tests/test_reports.py",
        "tests/test_seating.py",
        "tests/test_mutation_neighbours63.py",
        "tests/test_edge68_neighbours_estimand.py",
        "tests/test_edge67_charts_neighbours.py",
        "tests/test_edge68_mutation_neighbours.py",
    ),
    "tournaments/arguments.py": (
        "tests/test_mutation64_arguments.py",
        "tests/test_api61.py",
        "tests/test_unknown59.py",
    ),
    "tournaments/manifest_fields.py": (
        "tests/test_mutation64_manifest.py",
        "tests/test_entrant64_manifest.py",
        "tests/test_manifest64_versions.py",
        "tests/test_resume64_manifest.py",
        "tests/test_edges_runstate.py",
        "tests/test_edge66_damaged.py",
        "tests/test_edge66_damaged_values.py",
        "tests/test_edge66_manifest.py",
        "tests/test_mutation66b_manifest.py",
    ),
    "tournaments/schedule.py": (
        "tests/test_mutation65_schedule.py",
        "tests/test_tournaments.py",
        "tests/test_edges_runstate.py",
        "tests/test_api_edges_runs.py",
    ),
    "reports/findings_best.py": (
        "tests/test_mutation66_best.py",
        "tests/test_reports_findings.py",
        "tests/test_rank64_fair_share.py",
        "tests/test_designer64_best_par.py",
        "tests/test_edge65_last_p.py",
        "tests/test_small64_nobody_won.py",
        "tests/test_edge67_findings_shown.py",
        "tests/test_edge68_findings_best_own_rate.py",
        "tests/test_edge71_unranked_matches.py",
    ),
    "reports/findings.py": (
        "tests/test_edge67_findings_words.py",
        "tests/test_edge67_findings_shown.py",
        "tests/test_reports_findings.py",
        "tests/test_limits64_sentences.py",
        "tests/test_edge68_findings_pick_sentences.py",
        "tests/test_edge68_mutation_findings_neighbours.py",
        "tests/test_edge68_ligretto_words_findings.py",
        "tests/test_edge68_mutation_findings_shares.py",
    ),
    "reports/findings_metagame.py": (
        "tests/test_edge67_findings_metagame.py",
        "tests/test_metagame_findings.py",
    ),
}
"""Each module mutated, and the test files that run against its mutants (the fast tests
aimed at it: the whole suite per mutant would take hours)."""

JIT_OFF = frozenset({"leaves/kernels.py", "leaves/deal_kernels.py", "leaves/fastplay.py"})
"""Modules of numba kernels whose mutants run as Python (numba's JIT disabled in the child):
compiling every mutant would cost tens of seconds each, and the Python source is what numba
compiles, so a test that tells a mutant apart does so in either form."""

EQUIVALENTS = ROOT / "docs" / "mutation.md"

_FLIP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
         ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
         ast.In: ast.NotIn, ast.NotIn: ast.In}  # fmt: skip
_SWAP = {ast.And: ast.Or, ast.Or: ast.And, ast.Add: ast.Sub, ast.Sub: ast.Add}


@dataclass(frozen=True)
class Mutant:
    """One change of one module: where (line, enclosing function), what (``before`` and
    ``after``: the smallest expression that shows it) and its ``key``, which names it across
    edits of other lines (``docs/mutation.md`` lists equivalent mutants by key)."""

    module: str
    site: int  # index of the changed node in ``_sites`` order
    variant: int
    line: int
    scope: str
    before: str
    after: str
    key: str


# ---------------------------------------------------------------------- the mutants
def _number(node: ast.AST) -> float | None:
    """The value of a number literal (``-1`` included), else None (bools are not numbers)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _number(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return node.value
    return None


def _variants(node: ast.AST) -> list[tuple]:
    """The changes of one node: ("op", index, new operator) or ("num", new value)."""
    if isinstance(node, ast.Compare):
        return [("op", j, _FLIP[type(op)]) for j, op in enumerate(node.ops) if type(op) in _FLIP]
    if isinstance(node, ast.BoolOp | ast.BinOp) and type(node.op) in _SWAP:
        return [("op", -1, _SWAP[type(node.op)])]
    value = _number(node)
    if value is not None:
        return [("num", value + 1), ("num", value - 1)]
    return []


_CONTAINERS = (ast.List, ast.Tuple, ast.Set, ast.Dict)
_STATEMENTS = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return)


def _sites(tree: ast.Module) -> Iterator[tuple[ast.AST, ast.AST, str]]:
    """(node, the expression that shows it, enclosing scope) for every node that has
    variants, in a fixed order. A number shows in its innermost enclosing expression that is
    not a container (or a dict's entry, a keyword argument, a simple statement), or in a
    narrower one where that one is long. Left out: f-strings (messages), annotations,
    decorators, ``if TYPE_CHECKING`` blocks."""
    entries: set[int] = set()  # ids of the one-entry dicts that stand for a dict's entries

    def shown(node: ast.AST, path: tuple[ast.AST, ...]) -> ast.AST:
        if _number(node) is None:
            return node
        plain = [
            i for i, a in enumerate(path) if id(a) in entries or not isinstance(a, _CONTAINERS)
        ]
        if not plain:
            return node
        inner = [*path[plain[-1] :], node]
        return next((a for a in inner if len(_text(a, 1000)) <= 90), node)

    def walk(node: ast.AST, scope: str, path: tuple[ast.AST, ...]) -> Iterator:
        if isinstance(node, ast.JoinedStr):
            return
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            return
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            scope = node.name if scope == "<module>" else f"{scope}.{node.name}"
        if _variants(node):
            yield node, shown(node, path), scope
            if _number(node) is not None:
                return  # -1 is one literal, not a minus and a 1
        if isinstance(node, ast.stmt):
            path = (node,) if isinstance(node, _STATEMENTS) else ()
        elif isinstance(node, ast.keyword | ast.expr):
            path = (*path, node)
        if isinstance(node, ast.Dict):
            for k, v in zip(node.keys, node.values, strict=True):
                entry = ast.Dict(keys=[k], values=[v])
                entries.add(id(entry))
                for child in (k, v):
                    if child is not None:
                        yield from walk(child, scope, (*path, entry))
            return
        for name, value in ast.iter_fields(node):
            if name in ("annotation", "returns", "decorator_list", "type_comment"):
                continue
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, ast.AST):
                    yield from walk(child, scope, path)

    yield from walk(tree, "<module>", ())


def _apply(node: ast.AST, variant: tuple) -> None:
    if variant[0] == "op":
        _, j, op = variant
        if j < 0:
            node.op = op()
        else:
            node.ops[j] = op()
        return
    value = variant[1]
    if isinstance(node, ast.UnaryOp):
        node.operand.value = type(node.operand.value)(-value)
    else:
        node.value = type(node.value)(value)


def _text(node: ast.AST, width: int = 110) -> str:
    s = " ".join(ast.unparse(node).split())
    return s if len(s) <= width else s[: width - 1] + "…"


def mutants(source: str, module: str) -> list[Mutant]:
    """Every mutant of ``source`` (the text of ``module``, a path like ``leaves/state.py``)."""
    tree = ast.parse(source)
    out: list[Mutant] = []
    seen: dict[str, int] = {}
    for site, (node, shown, scope) in enumerate(_sites(tree)):
        for v, variant in enumerate(_variants(node)):
            before = _text(shown)
            clone = copy.deepcopy(shown)
            target = clone if shown is node else _find(clone, node, shown)
            _apply(target, variant)
            after = _text(clone)
            key = f"{scope}: {before} -> {after}"
            seen[key] = seen.get(key, 0) + 1
            if seen[key] > 1:
                key += f" [{seen[key]}]"
            out.append(Mutant(module, site, v, node.lineno, scope, before, after, key))
    return out


def _find(clone: ast.AST, node: ast.AST, shown: ast.AST) -> ast.AST:
    """``node``'s counterpart in ``clone``, a deep copy of ``shown``."""
    for a, b in zip(ast.walk(shown), ast.walk(clone), strict=True):
        if a is node:
            return b
    raise LookupError(node)


def mutated_code(source: str, path: str, mutant: Mutant):
    """The module's code object with ``mutant`` applied (compiled from its syntax tree, so
    every line keeps its number)."""
    tree = ast.parse(source)
    for site, (node, _, _) in enumerate(_sites(tree)):
        if site == mutant.site:
            _apply(node, _variants(node)[mutant.variant])
            return compile(tree, path, "exec", dont_inherit=True)
    raise LookupError(mutant.key)


def equivalents(text: str) -> dict[str, dict[str, str]]:
    """{module: {key: why}} from ``docs/mutation.md``: under a heading ``### <module>``, one
    line ``- `key`: why`` per mutant judged equivalent."""
    out: dict[str, dict[str, str]] = {}
    module = None
    for line in text.splitlines():
        if line.startswith("### "):
            module = line[4:].strip().strip("`")
            out.setdefault(module, {})
        elif module and (m := re.match(r"^- `([^`]+)`:? *(.*)$", line)):
            out[module][m.group(1)] = m.group(2)
    return out


# ---------------------------------------------------------------------- running them
class _Serve(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports module ``name`` from a code object (the mutant) instead of its file."""

    def __init__(self, name: str, path: str, code) -> None:
        self.name, self.path, self.code = name, path, code

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.name:
            return None
        spec = importlib.machinery.ModuleSpec(fullname, self, origin=self.path)
        spec.has_location = True
        return spec

    def create_module(self, spec):
        return None

    def exec_module(self, module) -> None:
        exec(self.code, module.__dict__)


@dataclass
class Runner:
    """Runs ``tests`` (paths under ``root``) in a forked child, with a module replaced."""

    root: Path
    tests: Sequence[str]
    prefixes: Sequence[str] = PROJECT
    workdir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="mutation-")))
    timeout: float = 60.0
    min_timeout: float = 10.0
    jit: bool = True  # False: numba's JIT disabled in the child (``JIT_OFF``)

    def args(self) -> list[str]:
        config = self.root / "pyproject.toml"
        # every selected test, the long ones (marked slow) included
        return [*(str(self.root / t) for t in self.tests), "-x", "-q", "-p", "no:cacheprovider",
                "-m", "slow or not slow", "--rootdir", str(self.root),
                *(["-c", str(config)] if config.exists() else [])]  # fmt: skip

    def warm(self) -> None:
        """Import pytest, the tests and what they import once, in this process, so that each
        child only imports the project's own modules again."""
        import pytest

        sys.dont_write_bytecode = True  # nothing of a run lands in the checkout
        with contextlib.redirect_stdout(io.StringIO()):
            pytest.main([*self.args(), "--collect-only"])
        with contextlib.suppress(ImportError):
            import numba.core.caching  # noqa: F401  (each child makes it read-only)

    def run(self, serve: _Serve | None = None) -> tuple[str, float]:
        """("survived" | "killed" | "timeout" | "crashed" | "error", seconds)."""
        start = time.perf_counter()
        log = self.workdir / "last.log"
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child
            rc = 3
            try:
                os.setpgid(0, 0)
                out = open(log, "w", buffering=1)  # noqa: SIM115 - the child's own output
                os.dup2(out.fileno(), 1)
                os.dup2(out.fileno(), 2)
                sys.stdout = sys.stderr = out
                os.chdir(self.workdir)
                if "numba.core.caching" in sys.modules:  # a mutant's machine code stays here
                    sys.modules["numba.core.caching"].Cache.save_overload = lambda *a: None
                if not self.jit:
                    _disable_jit()
                for name in list(sys.modules):
                    if name.partition(".")[0] in self.prefixes:
                        del sys.modules[name]
                if serve is not None:
                    sys.meta_path.insert(0, serve)
                import pytest

                rc = int(pytest.main(self.args()))
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(rc)
        deadline = start + self.timeout
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.perf_counter() > deadline:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return "timeout", time.perf_counter() - start
            time.sleep(0.01)
        seconds = time.perf_counter() - start
        if os.WIFSIGNALED(status):
            return "crashed", seconds
        rc = os.WEXITSTATUS(status)
        return {0: "survived", 1: "killed", 2: "killed"}.get(rc, "error"), seconds


def _disable_jit() -> None:
    """From now on ``numba.njit`` returns the function itself: the kernels, imported again,
    run as Python (numba reads the variable at import, the decorator the config at each
    call, so both are set)."""
    os.environ["NUMBA_DISABLE_JIT"] = "1"
    if "numba.core.config" in sys.modules:
        sys.modules["numba.core.config"].DISABLE_JIT = True


@dataclass
class Result:
    module: str
    results: list[tuple[Mutant, str]]
    known: dict[str, str]
    seconds: float

    @property
    def killed(self) -> list[Mutant]:
        return [m for m, s in self.results if s != "survived" and s != "error"]

    @property
    def equivalent(self) -> list[Mutant]:
        return [m for m, s in self.results if s == "survived" and m.key in self.known]

    @property
    def survivors(self) -> list[Mutant]:
        return [m for m, s in self.results if s == "survived" and m.key not in self.known]

    @property
    def errors(self) -> list[Mutant]:
        return [m for m, s in self.results if s == "error"]

    def share(self) -> float:
        """Killed over the mutants that change behaviour (all but the equivalent ones)."""
        changing = len(self.results) - len(self.equivalent)
        return len(self.killed) / changing if changing else 1.0


def module_name(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def run_module(runner: Runner, module: str, chosen: list[Mutant], known: dict[str, str],
               echo=print, warm: bool = True) -> Result:  # fmt: skip
    """Every mutant of ``chosen`` (all of one module) against the runner's tests; the
    timeout of each is four times the unmutated run, at least ``min_timeout``."""
    path = str(runner.root / module)
    source = Path(path).read_text(encoding="utf-8")
    start = time.perf_counter()
    if warm:
        runner.warm()
    status, base = runner.run()
    if status != "survived":
        past = f" past {runner.timeout:g} s: --baseline-timeout" if status == "timeout" else ""
        raise SystemExit(f"{module}: the tests fail without a mutant ({status}{past}); see "
                         f"{runner.workdir / 'last.log'}")  # fmt: skip
    runner.timeout = max(runner.min_timeout, 4 * base)
    echo(f"{module}: {len(chosen)} mutants against {' '.join(runner.tests)} "
         f"({base:.1f} s unmutated)")  # fmt: skip
    results = []
    for i, m in enumerate(chosen, 1):
        serve = _Serve(module_name(module), path, mutated_code(source, path, m))
        status, _ = runner.run(serve)
        results.append((m, status))
        if i % 20 == 0 and sys.stderr.isatty():
            print(f"  {i}/{len(chosen)}", file=sys.stderr)
    return Result(module, results, known, time.perf_counter() - start)


def report(r: Result, echo=print) -> None:
    echo(f"{r.module}: killed {len(r.killed)}/{len(r.results)}, equivalent "
         f"{len(r.equivalent)}, new survivors {len(r.survivors)}, "
         f"{100 * r.share():.1f}% of the behaviour-changing killed ({r.seconds:.0f} s)")  # fmt: skip
    for m in r.survivors:
        echo(f"  survived  line {m.line}  {m.key}")
    for m in r.errors:
        echo(f"  error     line {m.line}  {m.key} (pytest could not run the tests)")
    live = {m.key for m, _ in r.results}
    killed = {m.key for m in r.killed}
    for key in r.known:
        if key in killed:
            echo(f"  listed as equivalent in docs/mutation.md but killed: {key}")
        elif key not in live:
            echo(f"  listed in docs/mutation.md but no longer a mutant: {key}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("modules", nargs="*", help=f"modules to mutate (default: {', '.join(MODULES)})")
    ap.add_argument("--match", help="only the mutants whose key contains this text")
    ap.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    ap.add_argument("--tests", nargs="+", help="test files instead of the module's own")
    ap.add_argument("--baseline-timeout", type=float, default=Runner.timeout, metavar="SECONDS",
                    help="limit of the unmutated run (default %(default)s; raise it on a busy "
                         "machine or a cold numba cache)")  # fmt: skip
    a = ap.parse_args(argv)
    os.environ.setdefault("LEAVES_ENGINE", "numba")  # the mutated Python, not the C engine
    os.environ["HYPOTHESIS_PROFILE"] = "ci"  # derandomized: the same verdicts every run
    unknown = [m for m in a.modules if m not in MODULES]
    if unknown:
        ap.error(f"not a mutated module: {', '.join(unknown)} (choose from {', '.join(MODULES)})")
    docs = equivalents(EQUIVALENTS.read_text(encoding="utf-8")) if EQUIVALENTS.exists() else {}
    rows = []
    for module in a.modules or list(MODULES):
        chosen = mutants((ROOT / module).read_text(encoding="utf-8"), module)
        if a.match:
            chosen = [m for m in chosen if a.match in m.key]
        if a.list:
            for m in chosen:
                print(f"{module}:{m.line}  {m.key}")
            continue
        known = {k: why for k, why in docs.get(module, {}).items() if (a.match or "") in k}
        runner = Runner(ROOT, a.tests or MODULES[module], jit=module not in JIT_OFF,
                        timeout=a.baseline_timeout)  # fmt: skip
        r = run_module(runner, module, chosen, known)
        report(r)
        rows.append(r)
    if len(rows) > 1:
        print("\n| module | killed / total | equivalent | new survivors | killed of the changing |")
        print("|---|---|---|---|---|")
        for r in rows:
            print(f"| {r.module} | {len(r.killed)} / {len(r.results)} | {len(r.equivalent)} | "
                  f"{len(r.survivors)} | {100 * r.share():.1f}% |")  # fmt: skip
    return 1 if any(r.survivors or r.errors for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
