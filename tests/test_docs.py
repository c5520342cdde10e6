"""The README is a front door and the docs stay true to the tree: no link to a file that is not
in the repository, an architecture table that names every package, a performance page whose
measured table only the benchmark writes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from .helpers import load_benchmark

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def test_the_readme_is_a_front_door():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 300, f"README.md has {len(lines)} lines: move detail to docs/"
    text = "\n".join(lines)
    for page in ("docs/rules-core.md", "docs/strategies.md", "docs/tournaments.md",
                 "docs/reports.md", "docs/tuning.md", "docs/ligretto.md", "docs/cli.md",
                 "docs/performance.md", "docs/architecture.md", "docs/variants.md",
                 "docs/research.md"):  # fmt: skip
        assert f"]({page})" in text, f"the README does not link {page}"


def test_every_link_points_into_the_repository():
    broken = []
    for page in PAGES:
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                continue  # a web address or an anchor on the same page
            path = (page.parent / target.split("#", 1)[0]).resolve()
            if not path.exists() or ROOT not in path.parents and path != ROOT:
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert not broken, "links to files that are not in the repository:\n" + "\n".join(broken)


def test_no_page_names_a_file_outside_the_repository():
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        assert "shared/" not in text and "seeds/" not in text, page.relative_to(ROOT)


def _package_table() -> list[str]:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    return re.findall(r"^\| `([\w/]+)/` \|", text, flags=re.M)


def test_the_architecture_table_matches_the_tree():
    listed = set(_package_table())
    packages = {p.parent.name for p in ROOT.glob("*/__init__.py")} - {"tests"}
    assert packages <= listed, f"packages missing from docs/architecture.md: {packages - listed}"
    for entry in listed:
        assert (ROOT / entry).is_dir(), f"docs/architecture.md lists {entry}/, which is not there"
    for folder in ("benchmarks", "examples", "docs", "tests"):
        assert folder in listed


def test_the_performance_table_is_written_by_the_benchmark(tmp_path):
    bench = _bench_all()
    page = ROOT / "docs" / "performance.md"
    text = page.read_text(encoding="utf-8")
    assert bench.BEGIN in text and bench.END in text
    copy = tmp_path / "performance.md"
    copy.write_text(text, encoding="utf-8")
    bench.write_page("| what | figure |\n|---|---|\n| new | 1 s |\n", copy)
    after = copy.read_text(encoding="utf-8")
    assert "| new | 1 s |" in after
    assert after.split(bench.BEGIN)[0] == text.split(bench.BEGIN)[0]  # the text around stays
    assert after.split(bench.END)[1] == text.split(bench.END)[1]


def _bench_all():
    return load_benchmark("bench_all")


def _between_markers(text: str, bench) -> str:
    start = text.index("\n", text.index(bench.BEGIN)) + 1
    return text[start : text.index(bench.END)].rstrip()


def test_every_speed_figure_is_the_saved_benchmark_run():
    """The README's and docs/performance.md's speed tables are rendered again from the figures
    `bench_all.py --write` saved: a figure typed by hand, or a table from another run, fails."""
    bench = _bench_all()
    figures = json.loads(bench.FIGURES.read_text(encoding="utf-8"))
    for page, table in (
        (bench.PAGE, bench.markdown(figures)),
        (bench.README, bench.readme_table(figures)),
    ):
        text = page.read_text(encoding="utf-8")
        assert _between_markers(text, bench) == table.rstrip(), (
            f"{page.name}: rerun bench_all --write"
        )
    assert "cold_leaves_run_s" in figures, (
        "the README's figures must include the first run (--cold)"
    )


def _numbers(text: str) -> set[str]:
    return set(re.findall(r"\d+(?:[.,]\d+)*", text))


def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.find("\n## ", start + len(heading))
    return text[start : end if end >= 0 else None]


def test_the_readme_quotes_its_sources_figures():
    """Each number of the README's findings and calibration paragraphs is in the page it
    quotes (docs/findings.md written by benchmarks/findings.py, docs/strength.md, the
    calibration table of docs/reports.md): a figure the source no longer states fails."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quoted = {
        "## What the simulations say": ["findings.md", "strength.md"],
        "## How sure are we": ["reports.md", "tournaments.md"],
    }
    for heading, pages in quoted.items():
        source = "".join((ROOT / "docs" / p).read_text(encoding="utf-8") for p in pages)
        text = re.sub(r"\([^)]*\.(?:md|py)[^)]*\)", "", _section(readme, heading))  # links
        missing = sorted(_numbers(text) - _numbers(source) - {"13", "95", "200"})
        assert not missing, f"{heading}: {missing} are not in {pages}"


def test_the_readmes_coverage_range_is_the_calibration_tables():
    """The README's "covered the truth A-B% of the time" is the lowest and highest coverage of
    the calibration table (win rates and paired differences): it said 93.7-95.8% after a row
    moved to 96.2%, and every figure of it was still somewhere in the page."""
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    low, high = re.search(r"covered the truth ([\d.]+)-([\d.]+)% of the time", readme).groups()
    page = (ROOT / "docs" / "reports.md").read_text(encoding="utf-8")
    table = page[page.index("| design | games a run |") :].split("\n\n", 1)[0]
    covered = []
    for row in table.splitlines()[2:]:
        cells = [c.strip() for c in row.strip("|").split("|")]
        covered += [float(c.split("%")[0]) for c in (cells[3], cells[5]) if "%" in c]
    assert len(covered) >= 10
    assert (float(low), float(high)) == (min(covered), max(covered))


def _readme_answer() -> list[str]:
    """The bullets of the README's ```text block under the Quick start, unwrapped."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("```text\n", 1)[1].split("```", 1)[0]
    return [" ".join(b.split()) for b in ("\n" + block).split("\n- ")[1:]]


@pytest.mark.slow
def test_the_readme_prints_what_leaves_run_prints(tmp_path):
    """The Quick start's answer is what `leaves run` with its defaults says, word for word."""
    from click.testing import CliRunner

    from leaves_cli.main import cli

    out = CliRunner().invoke(cli, ["run", "--out", str(tmp_path / "run"), "--jobs", "1"])
    assert out.exit_code == 0, out.output
    printed = out.output.split("Key findings:\n", 1)[1]
    bullets = [line[2:] for line in printed.splitlines() if line.startswith("- ")]
    assert bullets == _readme_answer()


MEASURED = re.compile(r"\b\d[\d,.]*(?: (?:ms|s|min|minutes|seconds)|\s?(?:games|rounds)/s)\b")
COMMAND = re.compile(r"`(?:[^`]*\bleaves [a-z]|[^`]*benchmarks/\w+\.py|[^`]*bench_\w+\.py)[^`]*`")
NOT_MEASURED = (
    # settings and examples of wording, not measurements
    "rewritten at most every 2 s, and within about 2 s",
    "took longer than 60 s",
    "A round still running after 10 minutes",
    '("100,000 rounds in 43 s")',
)
GENERATED = {"findings.md"}  # written whole by the command its first lines name


def _blocks(text: str) -> list[str]:
    """A page's paragraphs, list items, table rows and fenced code blocks, each one string."""
    blocks: list[str] = []
    cur: list[str] = []
    fence: list[str] | None = None
    for line in text.splitlines():
        if fence is not None:  # inside a code block, up to its closing fence
            fence.append(line)
            if line.startswith("```"):
                blocks.append("\n".join(fence))
                fence = None
            continue
        if line.startswith(("```", "|", "#", "- ")) or not line.strip():
            if cur:
                blocks.append(" ".join(cur))
            cur = []
        if line.startswith("```"):
            fence = [line]
        elif line.startswith(("|", "#")):
            blocks.append(line)
        elif line.strip():
            cur.append(line)
    return [*blocks, " ".join(cur)] if cur else blocks


def test_every_measured_figure_names_the_command_that_measures_it():
    """A time or a speed stated in docs/ stands next to the command that produced it (in its
    paragraph, list item or table row, or in a code block just before or after it), so a reader can
    measure it again; a figure with no command behind it fails."""
    bare = []
    for page in sorted((ROOT / "docs").glob("*.md")):
        if page.name in GENERATED:
            continue
        blocks = _blocks(page.read_text(encoding="utf-8"))
        for i, block in enumerate(blocks):
            text = block
            for phrase in NOT_MEASURED:
                text = text.replace(phrase, "")
            near = [b for b in blocks[max(i - 1, 0) : i + 2] if b.startswith("```")]
            named = COMMAND.search(text) or any(COMMAND.search(f"`{b}`") for b in near)
            if not block.startswith("```") and MEASURED.search(text) and not named:
                bare.append(f"{page.name}: {MEASURED.findall(text)} in '{block[:80]}...'")
    assert not bare, "\n".join(bare)


def test_the_rules_core_example_runs_as_written():
    """docs/rules-core.md's first example, run: its one failing line fails as its comment says
    and the replay of the record it writes gives every state."""
    import leaves

    text = (ROOT / "docs" / "rules-core.md").read_text(encoding="utf-8")
    block = text.split("```python\n", 1)[1].split("```", 1)[0]
    failing = "state.apply(Action.take(5))"
    assert failing in block
    scope: dict = {}
    exec(block.replace(failing, "None  # checked below"), scope)  # noqa: S102 - our own docs
    with pytest.raises(leaves.IllegalActionError, match="cannot pass on an empty table"):
        scope["state"].apply(scope["Action"].take(5))
    assert scope["states"][-1] == scope["state2"] and len(scope["states"]) == 2
