"""Registers the subcommands that live beside the core (bots, terminal game,
server).  Each package owns its own ``cli.register(subparsers)`` so that the
core CLI never imports heavy dependencies until a command runs."""

from __future__ import annotations

import argparse
import importlib

_PACKAGES = ("freezeout.bots.cli", "freezeout.terminal.cli", "freezeout.server.cli", "freezeout.analysis.cli")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    for name in _PACKAGES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name and name.startswith(error.name):
                continue  # that package is not installed in this build
            raise
        module.register(sub)
