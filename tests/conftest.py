"""Test configuration: hypothesis profiles, a headless matplotlib backend, the long tests.

``ci`` (chosen when the CI environment variable is set) keeps the whole suite within a few
minutes on 2 cores; ``dev`` is the default; ``thorough`` runs many more examples locally:
``HYPOTHESIS_PROFILE=thorough pytest``.
"""

from __future__ import annotations

import os

import matplotlib
from hypothesis import HealthCheck, settings

from tests.long_tests import (  # noqa: F401  (pytest finds the hooks here)
    pytest_addoption,
    pytest_collection_modifyitems,
    pytest_configure,
    pytest_terminal_summary,
)
from tests.variants_comparison import comparison  # noqa: F401  (a fixture: a module's own)

matplotlib.use("Agg")

settings.register_profile(
    "ci",
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.register_profile(
    "dev",
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "thorough",
    max_examples=2000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))
