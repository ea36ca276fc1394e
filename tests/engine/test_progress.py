"""Progress of a study of parts that differ in cost (ladder cells, skill rungs, family members): each
part's first chunk is played before the rest of any (``runner.play_parts``), and the time left counts
each part's games at its own speed (``cli.ProgressDisplay``)."""

import pytest

import balance.cli as cli
from balance.engine.runner import Tracker, play_fixed, play_parts
from balance.games import get_game
from balance.studies.ladder import ladder_cells

GAME = get_game("take_the_throne")


class Recorder(Tracker):
    """The calls a study makes to its tracker, in order."""

    def __init__(self):
        self.calls = []

    def parts(self, left):
        self.calls.append(("parts", tuple(left)))

    def part(self, index):
        self.calls.append(("part", index))

    def advance(self, n):
        self.calls.append(("advance", n))


def two_cells():
    cells = ladder_cells(GAME, ["random", "heuristic"], "core", 3, None)
    return [(cell, None, 48) for cell in cells.values()]  # two cells, 48 games each (whole deals of 3)


def test_every_part_plays_its_first_chunk_before_the_rest_of_any_and_the_rows_do_not_move(tmp_path):
    parts = two_cells()
    tracker = Recorder()
    played = play_parts(parts, 5, tracker, chunk=12)
    order = [call for call in tracker.calls if call[0] == "part"]
    assert tracker.calls[0] == ("parts", (48, 48))
    assert order == [("part", 0), ("part", 1), ("part", 0), ("part", 1)]
    advanced = {}
    index = None
    for kind, value in tracker.calls[1:]:
        if kind == "part":
            index = value
        else:
            advanced.setdefault(index, []).append(value)
    assert sum(advanced[0]) == sum(advanced[1]) == 48
    for (cell, _, games), results in zip(parts, played):
        assert results.games.equals(play_fixed(cell, 5, games, Tracker()).games)
    # kept in study folders: the same rows, and a second run plays nothing
    kept = [(cell, tmp_path / str(i), games) for i, (cell, _, games) in enumerate(parts)]
    for results, again in zip(played, play_parts(kept, 5, Tracker(), chunk=12)):
        assert results.games.equals(again.games)
    tracker = Recorder()
    play_parts(kept, 5, tracker, chunk=12)
    assert tracker.calls[0] == ("parts", (0, 0)) and not any(kind == "advance" for kind, _ in tracker.calls)


def test_the_time_left_counts_each_part_at_its_own_speed(monkeypatch):
    clock = [0.0]
    monkeypatch.setattr(cli.time, "monotonic", lambda: clock[0])
    display = cli.ProgressDisplay("ladder")
    display.begin(400, 0)
    display.parts([200, 200])

    def play(part, games, seconds):
        display.part(part)
        clock[0] += seconds
        display.advance(games)

    play(0, 50, 5.0)  # the first kernel call (compiles): not timed
    assert display.time_left(clock[0]) is None
    play(0, 50, 0.5)  # a fast part: 0.01 s a game
    play(1, 50, 50.0)  # a slow one: 1 s a game
    play(1, 50, 50.0)
    # 100 fast games and 100 slow ones left: 1 s + 100 s (the average since the first call, 0.67 s
    # a game, would say 134 s)
    assert display.time_left(clock[0]) == pytest.approx(101.0)
    play(0, 100, 1.0)
    assert display.time_left(clock[0]) == pytest.approx(100.0)
