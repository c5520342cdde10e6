"""docs/cli.md says what ``leaves verify`` names for each kind of unfinished run, as it names
it: '--resume finishes it' for a plain run, the full command for a gauntlet and for a
--precision run (a plain --resume would play those otherwise, or be refused)."""

from __future__ import annotations

import pytest

from tests.helpers import cli, doc_says, stopped

PAGE = "cli.md"
COMMON = ("--players", "3", "--seed", "1", "--jobs", "1")
RUNS = {
    "plain": ("tournament", "greedy", "low", "high", *COMMON, "--games", "24", "--chunk-size",
              "6"),
    "gauntlet": ("gauntlet", "greedy", "--against", "low", *COMMON, "--games", "4000"),
    "precision": ("tournament", "random", "greedy", "low", *COMMON, "--chunk-size", "6",
                  "--games", "30", "--precision", "0.1", "--max-games", "60"),
}  # fmt: skip
QUOTED = {
    "plain": r"a plain run's `(run unfinished \(--resume finishes it\))`",
    "gauntlet": r"a gauntlet's the full command every other advice names, "
    r"`(run unfinished \('leaves gauntlet [^`]*)`",
    "precision": r"a `--precision` run's with its `--precision` and `--max-games`, as every "
    r"other advice names them: `(run unfinished \('leaves tournament [^`]*)`",
}
"""Per kind of run: where the verify row of the page quotes what verify prints."""


@pytest.fixture(autouse=True)
def _env(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")  # the CLI sets it


@pytest.mark.parametrize("kind", sorted(RUNS))
def test_the_page_quotes_what_verify_names_for_an_unfinished_run(kind, tmp_path, capsys):
    quoted = doc_says(PAGE, QUOTED[kind])[1]
    out = tmp_path / "RUN"
    code, _, err = stopped(*RUNS[kind], "--out", str(out))
    assert code == 130, err
    code, said, err = cli(capsys, "verify", str(out))
    assert code == 0, err
    assert said.strip().endswith(quoted.replace(" RUN", f" {out}")), (said, quoted)
