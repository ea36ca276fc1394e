"""Under pytest-xdist (``-n 2 --dist loadgroup``) the tests of one game's folder run in one worker,
so that a game's kernels are compiled by one worker, not by both at once; the engine's test files,
which play every game, are spread one file a group."""

import pytest


def pytest_collection_modifyitems(config, items):
    for item in items:
        folder = item.path.parent.name
        item.add_marker(pytest.mark.xdist_group(item.path.stem if folder == "engine" else folder))
