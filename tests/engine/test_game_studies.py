"""A game's own studies as subcommands (balance.studies): bad flags are one line naming the flag,
exit 2, nothing written, before anything is played."""

import pytest

from tests.engine.test_cli import invoke


@pytest.mark.parametrize("args, flag", [
    (["arcade-values", "-n", "0"], "--games"),
    (["arcade-values", "--threads", "0"], "--threads"),
    (["dethroned-roles", "-n", "0"], "--games"),
    (["dethroned-roles", "--margin", "101"], "--margin"),
    (["dethroned-roles", "--seed", "-1"], "--seed"),
])
def test_a_bad_flag_is_one_line_naming_it(args, flag):
    code, out = invoke(*args)
    lines = out.strip().splitlines()
    assert code == 2 and len(lines) == 1 and flag in lines[0], out


def test_a_report_that_is_not_html_is_refused_before_playing(tmp_path):
    output = tmp_path / "roles.md"
    code, out = invoke("dethroned-roles", "-o", output)
    assert code == 2 and "-o" in out and ".html" in out
    assert not output.exists() and list(tmp_path.iterdir()) == []
