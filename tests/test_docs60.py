"""The guides' quotes of what the tool prints are what it prints now: a quoted sentence, its
numbers masked, is a sentence a small run of the same command prints; what the guides say of
a run's files, of the import circles left and of the examples' tests is true; their snippets
run as written, their anchors are headings, and the files and dotted names they give exist."""

from __future__ import annotations

import re
from pathlib import Path

from tests.helpers import cli

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
NUMBER = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?")


def _flat(text: str) -> str:
    """The text on one line, every number replaced by '#'."""
    return NUMBER.sub("#", " ".join(text.split()))


def _page(page: str) -> str:
    """A page of docs/."""
    return (DOCS / page).read_text(encoding="utf-8")


def _text(page: str) -> str:
    """A page of docs/ on one line."""
    return " ".join(_page(page).split())


def _quotes(page: str, start: str) -> list[str]:
    """The double-quoted passages of ``page`` that begin with ``start``."""
    return re.findall(rf'"({re.escape(start)}[^"]*)"', _text(page))


def test_the_variants_findings_quoted_in_reports_md_are_printed(tmp_path, capsys):
    """docs/reports.md quoted "the best strategy beats the worst by 46.8 points [45.8, 47.8]
    of win rate (weighted - random)": the sentence says "percentage points" and names the
    duplicate sets it is paired over."""
    quotes = _quotes("reports.md", "With min_count=off, skill") + _quotes(
        "reports.md", "With hand_size=9, games are"
    )
    assert len(quotes) == 2, quotes
    args = ["random", "low", "greedy", "counter", "weighted", "--rules", "hand_size=9", "--rules",
            "min_count=off", "--players", "4", "--games", "960", "--seed", "1", "--jobs", "1",
            "--trace-games", "0", "--restricted-games", "0", "--out", str(tmp_path / "v")]  # fmt: skip
    code, out, _ = cli(capsys, "variants", *args)
    assert code == 0, out
    for quote in quotes:
        assert _flat(quote) in _flat(out), quote


def _columns(listing: str) -> list[str]:
    """The columns a page lists, 'seat_0..5' spelt out."""
    names = []
    for item in (x.strip() for x in listing.split(",")):
        if m := re.fullmatch(r"(\w+_)(\d+)\.\.(\d+)", item):
            names += [f"{m[1]}{i}" for i in range(int(m[2]), int(m[3]) + 1)]
        else:
            names.append(item)
    return names


def test_the_row_columns_tournaments_md_lists_are_the_runs_columns(tmp_path):
    """docs/tournaments.md said expert runs add `match, game_in_match, score_0..5` to a game's
    row; their rows also hold the match's seeds, `match_seed` and `match_play_seed`."""
    import pyarrow.parquet as pq

    from tournaments import Tournament

    text = _text("tournaments.md")
    plain = _columns(re.search(r"one row per game: `([^`]+)`", text)[1])
    added = _columns(re.search(r"expert runs add `([^`]+)`", text)[1])
    for expert in (False, True):
        out = tmp_path / f"expert{expert}"
        Tournament(["greedy", "low", "high"], players=3, games=6, seed=1, expert=expert).run(
            n_jobs=1, out=out
        )
        got = pq.read_schema(next((out / "games").glob("*.parquet"))).names
        assert sorted(got) == sorted(plain + added * expert), got


def _anchors(page: Path) -> set[str]:
    """The anchors of a page's headings, as GitHub makes them."""
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    heads = re.findall(r"^#+\s+(.*)$", text, flags=re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in heads}


def test_every_anchor_a_page_links_is_a_heading_there():
    pages = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted(DOCS.glob("*.md"))]
    broken = []
    for page in pages:
        for target in re.findall(r"\[[^\]]*\]\(([^)\s]+)\)", page.read_text(encoding="utf-8")):
            if re.match(r"^[a-z]+:", target) or "#" not in target:
                continue
            name, anchor = target.split("#", 1)
            linked = (page.parent / name).resolve() if name else page
            if linked.suffix == ".md" and anchor not in _anchors(linked):
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert not broken, broken


def test_the_sequential_benchmark_quoted_in_tournaments_md_is_its_output():
    """The block docs/tournaments.md quotes from `python benchmarks/bench_sequential.py` (its
    words and columns, numbers masked) is what the script prints, at a few tests a line."""
    import subprocess
    import sys

    text = (DOCS / "tournaments.md").read_text(encoding="utf-8")
    block = re.search(r"```text\n(GSPRT .*?)```", text, flags=re.S)[1].splitlines()
    quoted = [_flat(line) for line in block if not line.startswith("real engine")]
    script = str(ROOT / "benchmarks" / "bench_sequential.py")
    args = [sys.executable, script, "--reps", "20", "--real", "0"]
    out = subprocess.run(args, capture_output=True, text=True, timeout=120, check=True)
    out = out.stdout.splitlines()
    assert [_flat(line) for line in out[: len(quoted)]] == quoted


def test_the_resume_line_tournaments_md_quotes_adds_up(tmp_path, capsys):
    """docs/tournaments.md quoted `resume: 17 of 20 chunks verified, 2 replayed (...)` for a
    run with bad chunks: 17 and 2 leave a chunk of 20 unsaid, which the line would give as
    'still to play'. Of a whole run, the verified and the replayed chunks are all of them."""
    quote = re.search(r"`(resume: \d+ of \d+ chunks verified[^`]*)`", _text("tournaments.md"))[1]
    verified, total, replayed = (int(x) for x in re.findall(r"\d+", quote)[:3])
    assert verified + replayed == total, quote
    out = tmp_path / "a"
    args = ["greedy", "low", "high", "minimal", "--games", "4800", "--jobs", "1", "--out"]
    assert cli(capsys, "tournament", *args, str(out))[0] == 0
    parts = sorted((out / "games").glob("*.parquet"))
    for part in parts[:2]:
        part.write_bytes(part.read_bytes()[:100])
    code, got, err = cli(capsys, "tournament", "--out", str(out), "--resume")
    line = next(x for x in (got + err).splitlines() if x.startswith("resume: "))
    assert code == 0 and "still to play" not in line, line
    assert _flat(line).startswith(_flat(quote.split("(")[0])), line
    assert f"resume: {len(parts) - 2} of {len(parts)} chunks verified, 2 replayed (" in line


def test_every_import_circle_left_is_named_in_architecture_md():
    """tests/test_layering.py says each circle left is named in docs/architecture.md, "Import
    circles left"; the page named three, while `leaves_cli.options` imports `main` inside a
    function to break a fourth. Each module a '# circle:' import reaches is named there."""
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    section = text.split("### Import circles left", 1)[1].split("\n## ", 1)[0]
    packages = ("gamekit", "leaves", "ligretto", "strategies", "tournaments", "reports",
                "tuning", "interop", "leaves_cli")  # fmt: skip
    circles = []
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            lines = path.read_text(encoding="utf-8").splitlines()
            for i, line in enumerate(lines):
                if "# circle:" in line:
                    near = " ".join(lines[i : i + 2])
                    circles.append((path, re.search(r"from \.+([\w.]+) import", near)[1]))
    assert circles
    for path, module in circles:
        name = module.rsplit(".", 1)[-1]
        assert re.search(rf"`[\w.]*\b{name}`", section), f"{path.relative_to(ROOT)}: {module}"
    left = section.split(" left:\n\n", 1)[1].split("\n\n", 1)[0]
    count = {3: "three", 4: "four", 5: "five", 6: "six"}[len(re.findall(r"^- ", left, re.M))]
    assert f"{count} rings" in section and f"The {count} left" in section


def test_the_strategies_md_snippets_run_as_written(tmp_path):
    """docs/strategies.md's three Python blocks, in a fresh interpreter in a folder holding
    its my_strats.py: the label its comment gives, the spec forms, the check."""
    import os
    import subprocess
    import sys

    first, mine, check = re.findall(r"```python\n(.*?)```", _page("strategies.md"), re.S)
    (tmp_path / "my_strats.py").write_text(mine, encoding="utf-8")
    said = re.search(r"s\.label +# '([^']+)'", first)[1]
    probe = (
        f"{first}\n{check}\n"
        "assert s.label == " + repr(said) + ", s.label\n"
        "for spec in ('my_strats.py:Hoarder:keep_pairs=false',\n"
        "             'my_strats.py:Hoarder(keep_pairs=False)'):\n"
        "    assert strategies.get(spec).label == 'hoarder(keep_pairs=False)'\n"
        "assert r.record is not None\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]


def test_run_tournament_py_says_how_many_games_its_test_plays():
    """examples/run_tournament.py said "the tests use a few hundred" games; its test plays
    the examples' default, 100 (tests/test_examples.py)."""
    import inspect

    from tests import test_examples

    doc = (ROOT / "examples" / "run_tournament.py").read_text(encoding="utf-8")
    said = int(re.search(r"the tests use\s+(\d+)\)", doc)[1])
    assert said == inspect.signature(test_examples._run).parameters["games"].default
    call = inspect.getsource(test_examples.test_run_tournament)
    assert '_run("run_tournament.py"' in call and "games=" not in call


GUIDES = ["tournaments.md", "reports.md", "strategies.md", "architecture.md", "research.md",
          "rules-core.md", "ligretto.md", "ligretto-rules.md", "findings.md"]  # fmt: skip
PACKAGES = ("gamekit", "leaves", "ligretto", "strategies", "tournaments", "reports", "tuning",
            "interop", "leaves_cli")  # fmt: skip
# entry-point groups, not modules
GROUPS = {"leaves.games", "leaves.strategies", "leaves.ligretto_strategies", "leaves.players",
          "leaves.commands"}  # fmt: skip


def _resolves(name: str) -> bool:
    """Whether the dotted ``name`` is a module of the project or an attribute of one."""
    import importlib

    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for part in parts[i:]:
            if not hasattr(obj, part):
                return False
            obj = getattr(obj, part)
        return True
    return False


def test_the_files_and_dotted_names_the_guides_give_exist():
    pages = [(DOCS / p).read_text(encoding="utf-8") for p in GUIDES]
    pages.append((ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8"))
    missing = []
    for text in pages:
        paths = r"\b((?:tests|benchmarks|examples)/[\w/]+\.(?:py|toml|ipynb))"
        for path in re.findall(paths, text):
            if not (ROOT / path).exists():
                missing.append(path)
        for name in re.findall(r"`((?:\w+\.)+\w+)(?=[`(\[ ])", text):
            if name.endswith((".md", ".py")) or name in GROUPS:
                continue  # a file, or an entry-point group
            if name.split(".")[0] in PACKAGES and not _resolves(name):
                missing.append(name)
    assert not missing, sorted(set(missing))
