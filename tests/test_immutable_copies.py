"""Immutable values copy as themselves, and pickle as their fields: a deep copy of a ``State``
rebuilt and validated it through its pickled form (OpenSpiel's bots clone a state at every
simulation), and a pickled ``Rules`` carried its hash from the process that pickled it, so an
equal ``Rules`` elsewhere was not found in a set or a dict (string hashes differ between
processes)."""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys

import leaves
from leaves import Rules


def test_a_state_and_its_rules_copy_as_themselves():
    state = leaves.new_game(4, seed=3, rules="take=ends").apply(0)
    assert copy.copy(state) is state and copy.deepcopy(state) is state
    assert copy.deepcopy(state.rules) is state.rules and copy.copy(state.rules) is state.rules
    holder = copy.deepcopy({"s": state, "r": [state.rules]})
    assert holder["s"] is state and holder["r"][0] is state.rules


def test_a_pickled_rules_is_found_by_an_equal_one_in_another_process(tmp_path):
    path = tmp_path / "rules.pkl"
    code = (
        "import pickle, sys; from leaves import Rules; "
        "open(sys.argv[1], 'wb').write(pickle.dumps(Rules.parse('take=ends,min_count=off')))"
    )
    env = {**os.environ, "PYTHONHASHSEED": "1"}
    subprocess.run([sys.executable, "-c", code, str(path)], check=True, env=env)
    rules = pickle.loads(path.read_bytes())  # this process hashes strings another way
    same = Rules.parse("take=ends,min_count=off")
    assert rules == same and hash(rules) == hash(same)
    assert rules in {same} and {same: 1}[rules] == 1
    assert rules.flags == same.flags


def test_a_pickled_state_is_an_equal_state_with_its_history():
    state = leaves.new_game(3, seed=5)
    for _ in range(4):
        state = state.apply(state.legal_actions()[0])
    back = pickle.loads(pickle.dumps(state))
    assert back == state and back is not state
    assert back.view(0).history == state.view(0).history
