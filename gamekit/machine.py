"""The machine a benchmark ran on, in the words its figures are reported with."""

from __future__ import annotations

import platform

__all__ = ["cpu_name"]


def cpu_name() -> str | None:
    """The processor's model name (``/proc/cpuinfo``'s, else ``platform.processor()``), or
    None where neither says: every benchmark names the machine the same way."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or None
