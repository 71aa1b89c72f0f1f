"""`fda-explorer`: the program's entry point; until the app exists it offers the mirror commands."""

from __future__ import annotations

import sys

__all__ = ["main"]


def main() -> None:
    args = sys.argv[1:]
    if args[:1] == ["mirror"]:
        from mirror.cli import cli
        cli(args=args[1:], prog_name="fda-explorer mirror")
        return
    if args[:1] in (["tools"], ["tool"], ["ask"], ["chat"], ["sessions"]):
        from agent.cli import tools_cli
        tools_cli(args=args, prog_name="fda-explorer")
        return
    print("fda-explorer: the assistant and desktop app are not built yet; use `fda-explorer mirror ...`, "
          "`fda-explorer tools` or `fda-explorer tool NAME --args JSON` (for example `fda-explorer mirror status`).", file=sys.stderr)
    sys.exit(2)
