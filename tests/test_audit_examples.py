"""What the examples and docs/architecture.md state, checked against what the code does: the
figures an example's docstring promises, the statistics it prints, and the structure the
architecture page describes (the board's shape, a declaration it quotes, what an import loads).
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
import scipy.stats

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
ARCHITECTURE = ROOT / "docs" / "architecture.md"


def _example(name: str, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """An example imported afresh with its default sizes (no LEAVES_EXAMPLE_* variable set)."""
    for var in [v for v in os.environ if v.startswith("LEAVES_EXAMPLE_")]:
        monkeypatch.delenv(var)
    spec = importlib.util.spec_from_file_location(f"audit_{name}", EXAMPLES / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_train_reinforce_plays_the_games_its_docstring_says(monkeypatch, tmp_path):
    """`python examples/train_reinforce.py  # N training games, then M a side`: main() trains on
    N games and plays a gauntlet of M games (the agent's, and as many for its baseline)."""
    pytest.importorskip("pettingzoo")
    mod = _example("train_reinforce", monkeypatch)
    said = re.search(r"# ([\d,]+) training games, then ([\d,]+) a side", mod.__doc__ or "")
    assert said, "the docstring no longer says how many games it plays"
    trained, side = (int(x.replace(",", "")) for x in said.groups())

    # the function `tournaments.gauntlet` reads (the package's name for it cannot be set)
    runner = importlib.import_module("tournaments.gauntlet")
    seen: dict[str, int] = {}

    class Stop(Exception):
        pass

    def train(games: int, seed: int = 1, rate: float = 0.05) -> np.ndarray:
        seen["train"] = games
        return np.zeros((mod.N_ACTIONS, mod.SIZE + 1))

    def gauntlet(*args: object, games: int, **kwargs: object) -> None:
        seen["gauntlet"] = games
        raise Stop

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(mod, "OUT", tmp_path / "run")
    monkeypatch.setattr(mod, "WEIGHTS", tmp_path / "run" / "weights.npz")
    monkeypatch.setattr(mod, "train", train)
    monkeypatch.setattr(runner, "gauntlet", gauntlet)
    monkeypatch.setenv("REINFORCE_WEIGHTS", "")  # main() sets it; restored afterwards
    with pytest.raises(Stop):
        mod.main()
    assert seen == {"train": trained, "gauntlet": side}


@pytest.mark.slow
def test_rule_variants_pairs_each_difference_by_seed(tmp_path):
    """Every rule set plays the same seeds, so the two samples are not independent: the
    difference's interval is the paired one, over the per-seed differences, as the docstring
    says (the independent-samples interval differs at 1,000 games for take=ends)."""
    import strategies
    from leaves import Rules

    games = 1000
    env = {**os.environ, "LEAVES_EXAMPLE_GAMES": str(games), "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, str(EXAMPLES / "rule_variants.py")], cwd=tmp_path,
                         env=env, capture_output=True, text=True, timeout=300)  # fmt: skip
    assert out.returncode == 0, out.stderr[-3000:]
    doc = (EXAMPLES / "rule_variants.py").read_text(encoding="utf-8")
    assert "paired seed by seed" in doc and "(independent\nsamples)" not in doc
    words = np.random.SeedSequence(2026).generate_state(2 * games, np.uint64)

    def turns(text: str) -> np.ndarray:
        res = strategies.play_batch(["weighted"] * 4, words[:games], words[games:],
                                    rules=Rules.parse(text))  # fmt: skip
        return np.asarray(res.turns, float)

    base = turns("default")
    lines = {line.split()[0]: line for line in out.stdout.splitlines() if line[:1].isalpha()}
    for text in ("hand_size=9", "take=ends", "min_count=off"):
        d = turns(text) - base
        q = scipy.stats.t.ppf(0.975, games - 1)  # Student's t, as the reports' intervals
        m, h = d.mean(), q * d.std(ddof=1) / np.sqrt(games)
        assert f"{m:+.1f} [{m - h:+.1f}, {m + h:+.1f}]" in lines[text], (text, out.stdout)


def test_the_board_is_the_shape_architecture_md_says():
    """docs/architecture.md names the board's shape and rows; leaves/board.py is the truth."""
    from leaves import board
    from leaves.rules import N_VALUES

    text = ARCHITECTURE.read_text(encoding="utf-8")
    shape = re.search(r"One `int32\[(\d+), (\d+)\]` array \(`leaves/board.py`\)", text)
    assert shape, "docs/architecture.md no longer gives the board's shape"
    assert (int(shape[1]), int(shape[2])) == (board.BOARD_ROWS, N_VALUES)
    para = text[shape.start() : text.index("\n* ", shape.end())]
    assert board.DECK_ROW < board.BOARD_ROWS and "deck" in para  # the rules travel on the board
    assert board.M_RULES >= 0 and "rules" in para


def test_the_counter_declaration_architecture_md_quotes_is_the_code():
    """The page's example of a declaration is counter's: each Param line it quotes says the
    default and range the code declares."""
    from leaves.players.builtin.counter import COUNTER_PARAMS

    text = ARCHITECTURE.read_text(encoding="utf-8")
    block = text[text.index("COUNTER_PARAMS = declare(") :].split("```", 1)[0]
    quoted = re.findall(r'Param\("(\w+)", ([-\d.]+), \(([-\d.]+), ([-\d.]+)\)', block)
    assert quoted, "no Param line quoted"
    declared = {p.name: p for p in COUNTER_PARAMS.params}
    for name, default, low, high in quoted:
        p = declared[name]
        assert float(default) == p.default and (float(low), float(high)) == tuple(p.range), name


def test_what_import_leaves_loads_is_what_architecture_md_says():
    """`import leaves` loads no other package of the project but gamekit, the layer below, and
    the page says so (it said 'no other package' while gamekit came with it)."""
    project = {p.parent.name for p in ROOT.glob("*/__init__.py")} - {"tests", "leaves"}
    code = (f"import sys, leaves\nprint(' '.join(sorted({{m.split('.')[0] for m in "
            f"sys.modules}} & set({sorted(project)!r}))))")  # fmt: skip
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, check=True)  # fmt: skip
    loaded = done.stdout.split()
    text = " ".join(ARCHITECTURE.read_text(encoding="utf-8").split())
    said = re.search(r"`import leaves` imports no other package of the project([^.;]*)", text)
    assert said, "the page no longer says what `import leaves` imports"
    named = set(re.findall(r"`(\w+)`", said[1]))
    assert named == set(loaded), (loaded, said[0])


def test_architecture_md_lists_every_guide_in_docs():
    """The docs/ row of the package table names every page in docs/."""
    row = next(line for line in ARCHITECTURE.read_text(encoding="utf-8").splitlines()
               if line.startswith("| `docs/` |"))  # fmt: skip
    missing = sorted(p.name for p in (ROOT / "docs").glob("*.md") if f"`{p.name}`" not in row)
    assert not missing, f"the docs/ row of docs/architecture.md leaves out {missing}"


PRODUCT = ["gamekit", "leaves", "ligretto", "strategies", "tournaments", "reports", "tuning",
           "interop", "leaves_cli"]  # fmt: skip


def test_every_module_that_reaches_into_numba_core_is_named_on_the_page():
    """'numba's private APIs' in docs/architecture.md: each product module that imports or looks
    up `numba.core` (numba's internals) is named there; it once said 'none' outright."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    para = text[text.index("**numba's private APIs**") :].split("\n\n", 1)[0]
    users = sorted(
        str(path.relative_to(ROOT))
        for package in PRODUCT
        for path in (ROOT / package).rglob("*.py")
        if "numba.core" in path.read_text(encoding="utf-8")
    )
    assert users, "no module reads numba.core: say so on the page"
    unnamed = [u for u in users if f"`{u}`" not in para]
    assert not unnamed, f"docs/architecture.md does not name {unnamed}"
    count = re.search(r"(\w+) modules? still use", " ".join(para.split()))
    words = ["none", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
    assert count and words.index(count[1]) == len(users), (count, users)


# The notebook's code cells in order, as a Jupyter kernel runs them, with a stand-in for the
# kernel's `get_ipython()` that records the line magics asked for: a cell whose value is a
# matplotlib Figure prints whether `%matplotlib inline` had been asked for by then. A kernel
# shows a bare Figure (one that pyplot never made, as every chart of reports is) as an image only
# once that magic has registered the PNG formatter; before, it shows '<Figure size ...>'.
KERNEL_STANDIN = """
import ast, json, sys
from matplotlib.figure import Figure
magics = []
class Shell:
    def run_line_magic(self, name, line):
        magics.append(f"{name} {line}")
cells = json.load(open(sys.argv[1], encoding="utf-8"))["cells"]
ns = {"__name__": "__main__", "get_ipython": Shell}
for i, cell in enumerate(c for c in cells if c["cell_type"] == "code"):
    tree = ast.parse("".join(cell["source"]))
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    exec(compile(tree, f"cell {i}", "exec"), ns)
    if last is not None:
        value = eval(compile(ast.Expression(last.value), f"cell {i}", "eval"), ns)
        if isinstance(value, Figure):
            print(f"figure in cell {i}: {'image' if 'matplotlib inline' in magics else 'text'}")
"""


def _notebook_env() -> dict[str, str]:
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    return {**os.environ, "LEAVES_EXAMPLE_GAMES": "400", "MPLBACKEND": "Agg", "PYTHONPATH": path}


@pytest.mark.slow
def test_the_notebook_asks_a_kernel_to_show_its_charts_as_images(tmp_path):
    """'every chart is one call that returns the matplotlib figure': the figure a chart cell
    returns must show as a chart in Jupyter, not as the text '<Figure size 850x260 ...>'."""
    proc = subprocess.run(
        [sys.executable, "-c", KERNEL_STANDIN, str(EXAMPLES / "notebook.ipynb")],
        cwd=tmp_path, env=_notebook_env(), capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    shown = [line for line in proc.stdout.splitlines() if line.startswith("figure in cell")]
    assert shown, "the notebook shows no figure"
    assert all(line.endswith(": image") for line in shown), shown


@pytest.mark.slow
def test_the_notebook_in_a_real_kernel_shows_its_chart_as_a_png(tmp_path):
    """The same in Jupyter itself, where nbclient and ipykernel are installed."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    nb = nbformat.read(EXAMPLES / "notebook.ipynb", as_version=4)
    nbformat.validate(nb)
    env = {k: v for k, v in _notebook_env().items() if k != "MPLBACKEND"}  # the kernel's own
    with pytest.MonkeyPatch.context() as mp:
        for key, value in env.items():
            mp.setenv(key, value)
        mp.delenv("MPLBACKEND", raising=False)
        client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                         resources={"metadata": {"path": str(tmp_path)}})  # fmt: skip
        client.execute()
    results = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
               if o.output_type == "execute_result"]  # fmt: skip
    figures = [o for o in results if o.data.get("text/plain", "").startswith("<Figure")]
    assert figures and all("image/png" in o.data for o in figures)


@pytest.mark.slow
def test_win_rate_chart_of_a_run_too_small_for_intervals(monkeypatch, tmp_path):
    """The docstring: with no interval (NaN bounds) the chart still draws each win-rate bar,
    with no error bar; the script says so and writes the chart."""
    from matplotlib.figure import Figure

    monkeypatch.setenv("LEAVES_EXAMPLE_GAMES", "24")  # one deal: no interval
    monkeypatch.setenv("LEAVES_EXAMPLE_OUT", str(tmp_path / "run"))
    spec = importlib.util.spec_from_file_location("audit_chart", EXAMPLES / "win_rate_chart.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    saved: list[Figure] = []
    real = Figure.savefig
    monkeypatch.setattr(Figure, "savefig", lambda self, *a, **k: (saved.append(self),
                                                                   real(self, *a, **k)))  # fmt: skip
    monkeypatch.chdir(tmp_path)
    mod.main()
    (ax,) = saved[0].axes
    bars = [p for p in ax.patches if p.get_width() > 0]
    assert len(bars) >= 3  # the win rates of all but a strategy that never won
    segments = [s for c in ax.collections for s in c.get_segments()]
    assert segments and all(np.allclose(s[0], s[-1]) for s in segments)  # no error bar drawn
    assert (tmp_path / "win_rates.png").is_file()


def test_findings_py_plays_the_round_robin_docs_findings_md_reports(monkeypatch, tmp_path):
    """docs/findings.md says 'the same command gives the same numbers': the command's round
    robin must seat the very strategies the page's round-robin tables list."""
    from .helpers import load_benchmark

    findings = load_benchmark("findings")
    seen: list[str] = []

    class Stop(Exception):
        pass

    def run(*args: object, strategies: list[str], **kwargs: object) -> None:
        seen.extend(strategies)
        raise Stop

    monkeypatch.setattr(findings, "_run", run)
    with pytest.raises(Stop):
        findings.round_robin(tmp_path, tmp_path, 1.0, 1, (3,))
    page = (ROOT / "docs" / "findings.md").read_text(encoding="utf-8")
    table = page[page.index("### 3 players") :].split("\n\n![", 1)[0]
    listed = re.findall(r"^\| `(\w+)` \|", table, flags=re.M)
    assert listed and sorted(seen) == sorted(listed), (seen, listed)
