# SPDX-License-Identifier: BSD-3-Clause
# scorep: scorep-rt's Python module, a drop-in for Score-P's Python bindings (docs/python.md):
# `python3 -m scorep script.py` measures a script; scorep.user and scorep.instrumenter are the
# bindings' user interface.
__all__ = ["user", "instrumenter", "__version__"]
from scorep._config import VERSION as __version__  # noqa: E402,F401
