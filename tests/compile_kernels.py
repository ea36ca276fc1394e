"""Compile the named games' kernels into Numba's on-disk cache: ``python tests/compile_kernels.py GAME...``.

tests/conftest.py runs it before pytest-xdist starts its workers, the games split over two processes,
so that each kernel is compiled once, not once in each worker that happens to need it at the same time.
"""

import sys

from balance.games import get_game

for name in sys.argv[1:]:
    game = get_game(name)
    for _, setup in game.bench_setups():
        game.simulate(setup, 1, 0, 2)
        game.transcript(setup, 1, 0)
