"""The `dealer-assist` command: a thin click layer over the library."""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any, NoReturn

import click

from dealer_assist import __version__
from dealer_assist.errors import DealerAssistError, fault_line, fault_report

READER_GONE = 141
"""Exit status when the reader of stdout went away (`| head`): a shell's 128 + SIGPIPE, as git and cat give."""

# Subcommands are imported only when used, so `dealer-assist rank` never pays for cv2 or Qt.
COMMANDS: dict[str, str] = {
    "app": "dealer_assist.cli.app_cmd:app",
    "audit": "dealer_assist.cli.audit:audit",
    "calibrate": "dealer_assist.cli.calibrate:calibrate",
    "demo": "dealer_assist.cli.demo:demo",
    "detect": "dealer_assist.cli.detect:detect",
    "log": "dealer_assist.cli.log:log",
    "rank": "dealer_assist.cli.rank:rank",
    "showdown": "dealer_assist.cli.showdown:showdown",
    "sim-video": "dealer_assist.cli.sim_video:sim_video",
    "simulate": "dealer_assist.cli.simulate:simulate",
    "train": "dealer_assist.cli.train:train",
}


class LazyGroup(click.Group):
    """A group whose subcommands live in their own modules and load on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module_name, attr = target.split(":")
        command = getattr(importlib.import_module(module_name), attr)
        assert isinstance(command, click.Command)
        return command

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except DealerAssistError as exc:
            click.echo(f"error: {exc}", err=True)
            ctx.exit(2)
        except click.UsageError as exc:  # a bad option or value: one line, as bad input everywhere else
            click.echo(f"error: {exc.format_message()} (see --help)", err=True)
            ctx.exit(2)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except BrokenPipeError:
            _drop_stdout()
            ctx.exit(READER_GONE)
        except OSError as exc:
            if exc.filename is None:        # not about a file the command was given
                _fault(ctx, exc)
            # A file or folder the command could not use (a folder where a file goes, no permission, a full disk):
            # the system's own reason and the path, as cp and mv say it.
            click.echo(f"error: cannot use {exc.filename}: {exc.strerror or exc}", err=True)
            ctx.exit(2)
        except Exception as exc:
            _fault(ctx, exc)


def _fault(ctx: click.Context, exc: BaseException) -> NoReturn:
    """A bug, not bad input: one line here, the traceback in a file."""
    click.echo(f"error: {fault_line(exc, fault_report(exc, sys.argv[1:]))}", err=True)
    ctx.exit(3)


@click.group(cls=LazyGroup, invoke_without_command=True)
@click.version_option(__version__, prog_name="dealer-assist")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Dealer Assist: referee and dealing assistant for Badugi and Badacey tables.

    With no command it opens the desktop window (`dealer-assist app`).
    """
    if ctx.invoked_subcommand is None:
        from dealer_assist.app.main_window import run

        ctx.exit(run())


def _drop_stdout() -> None:
    """The reader of stdout closed the pipe (`dealer-assist log list | head`): what is left to print goes nowhere, so
    neither this write nor the flush at exit fails again (the Python docs' recipe for SIGPIPE)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def main() -> None:
    """Console-script entry point."""
    try:
        cli.main(standalone_mode=True)
    except SystemExit:
        try:
            sys.stdout.flush()       # what is still buffered goes out now, while a closed pipe can be told apart
        except BrokenPipeError:
            _drop_stdout()
            sys.exit(READER_GONE)
        raise
