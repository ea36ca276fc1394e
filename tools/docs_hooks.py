"""MkDocs hook (mkdocs.yml `hooks:`): the command-line reference is rendered from the typer app at
build time, so it cannot go stale.

A page holding the line ``<!-- cli-reference -->`` gets, in its place, every command's help text,
usage, arguments and options as typer's own ``typer utils docs`` writes them (one section per
command, in the order of ``balance --help``, rich markup rendered as HTML).
"""

import sys
from pathlib import Path

MARKER = "<!-- cli-reference -->"
ROOT = Path(__file__).resolve().parents[1]


def cli_reference() -> str:
    # The checkout being built, not whichever `balance` is installed (the `mkdocs` script puts its
    # own folder first on sys.path, so an installed copy could otherwise be documented instead).
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import typer
    from typer.cli import get_docs_for_click
    from typer.core import MARKUP_MODE_KEY

    from balance.cli import app

    group = typer.main.get_command(app)
    ctx = typer.Context(group, info_name="balance")
    ctx.ensure_object(dict)[MARKUP_MODE_KEY] = app.rich_markup_mode
    return "".join(get_docs_for_click(obj=group.get_command(ctx, name), ctx=ctx, indent=2, call_prefix="balance")
                   for name in group.list_commands(ctx))


def on_page_markdown(markdown: str, page, **kwargs) -> str:
    if MARKER in markdown:
        return markdown.replace(MARKER, cli_reference())
    return markdown
