"""tests/hf as a package, so its conftest is hf.conftest and never shadows
python/tests/conftest (pytest imports both; the Python tests import theirs by name)."""
