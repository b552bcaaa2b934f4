"""``cardenvs train`` and ``cardenvs exploit`` are pass-through commands (``cardenvs.cli.args.Passthrough``): listed
among the subcommands with their help line, and every word after the name, ``--help`` included, goes unparsed to the
program, which is imported only when the command runs."""
from __future__ import annotations

import argparse

from cardenvs.cli import build_parser, exploit, train
from cardenvs.cli.args import Passthrough


def test_a_passthrough_hands_every_word_to_its_program() -> None:
    got: list[list[str]] = []
    loads: list[str] = []

    def program():
        loads.append("loaded")
        return got.append

    command = Passthrough("demo", program, help="the demo program's own options")
    parser = argparse.ArgumentParser(prog="x")
    command.add_parser(parser.add_subparsers())
    assert "the demo program's own options" in parser.format_help() and not loads  # listed, nothing imported
    assert command.run(("levelneo", "--help", "--minutes", "3")) == 0
    assert got == [["levelneo", "--help", "--minutes", "3"]] and loads == ["loaded"]


def test_train_and_exploit_are_passthrough_commands() -> None:
    text = build_parser().format_help()
    assert "train a MaskablePPO policy by self-play" in text and "train a fresh best response" in text
    assert isinstance(train.run.__self__, Passthrough) and isinstance(exploit.run.__self__, Passthrough)
    assert (train.run.__self__.name, exploit.run.__self__.name) == ("train", "exploit")
