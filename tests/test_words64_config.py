"""A refusal that sets a config file's value against a typed flag names each where it came
from: the file's by its key "in c.toml", the typed one by its flag, and no "c.toml:" before
the whole line, which read as if the typed flag came from the file. A line about the file's
values alone keeps the file first."""

from __future__ import annotations

import pytest

from tests.helpers import usage_error

HEAD = 'strategies = ["greedy", "random", "low"]\nout = "{d}/o"\n'


@pytest.mark.parametrize(
    ("lines", "args", "said"),
    [
        (
            "expert = true\n[rules]\nexpert_target = 30",
            ["--target", "5"],
            "--target 5 and rules in {config} expert_target=30 disagree: give one",
        ),
        (
            "target = 5\nexpert = true",
            ["--rules", "expert_target=30"],
            "target in {config} 5 and --rules expert_target=30 disagree: give one",
        ),
        (
            'record_sample = 3\nrecord = "{d}/r.jsonl"',
            ["--precision", "1"],
            "record_sample in {config} is not available with --precision (the games recorded "
            "would depend on where the run stops)",
        ),
        (
            'scheduler = "tcp://host:8786"',
            ["--backend", "loky"],
            "scheduler in {config} needs --backend dask",
        ),
        ("turn_limit = 60", ["--rules", "turn_limit=50"],
         "turn_limit in {config} 60 and --rules turn_limit=50 disagree: give one"),
        # the file's values alone, a flag named only as what to give: the file first
        ('scheduler = "tcp://host:8786"', [], "{config}: scheduler needs --backend dask"),
    ],
)  # fmt: skip
def test_a_config_value_beside_a_typed_flag_is_named_by_its_file(
    capsys, tmp_path, lines, args, said
):
    config = tmp_path / "c.toml"
    config.write_text((HEAD + lines + "\n").replace("{d}", str(tmp_path)))
    got = usage_error(capsys, ["tournament", "--config", str(config), *args])
    said = said.replace("{d}", str(tmp_path)).replace("{config}", str(config))
    assert got == f"leaves: error: {said}"
