"""Run one pytest file for meson test; exit 77 (skipped) when numpy or pytest is missing."""
import sys

try:
    import numpy  # noqa: F401
    import pytest
except ImportError as e:
    print(f"skipped: {e.name} is not installed (python3-numpy, python3-pytest)")
    sys.exit(77)

sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", *sys.argv[1:]]))
