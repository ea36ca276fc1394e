"""balance: Monte-Carlo balance analysis for tabletop card games.

The public Python API (``balance.load``, ``balance.check``, ``balance.play``, ``balance.run``,
``balance.Study``...) lives in :mod:`balance.api`; its names are read from there on first use, so
that ``import balance`` stays light for the command line."""

import hashlib
import os
import sys
from pathlib import Path

__version__ = "0.1.0"


def _source_hash() -> str:
    """A hash of every source file that holds compiled code (the engine and the games)."""
    digest = hashlib.sha256()
    root = Path(__file__).parent
    for path in sorted([*root.glob("engine/*.py"), *root.glob("games/**/*.py")]):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _use_source_keyed_jit_cache() -> None:
    """Keep Numba's compiled code in a folder named by the hash of the package's sources.

    Numba checks a cached function only against its own file, not the files of the functions it
    calls, so after an edit it could run stale machine code. A folder per source hash can never be
    stale. NUMBA_CACHE_DIR, when set, is respected.
    """
    if "NUMBA_CACHE_DIR" in os.environ:
        return
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "balance" / "numba"
    folder = str(base / _source_hash())
    os.environ["NUMBA_CACHE_DIR"] = folder
    if "numba" in sys.modules:  # imported before us: numba has read its configuration already
        sys.modules["numba"].config.CACHE_DIR = folder


_use_source_keyed_jit_cache()


_API = ("Study", "check", "estimate", "game", "list_games", "load", "play", "position", "run", "summary", "vary")
__all__ = list(_API)


def __getattr__(name: str):
    if name in _API:
        from balance import api

        return getattr(api, name)
    raise AttributeError(f"module 'balance' has no attribute {name!r}")
