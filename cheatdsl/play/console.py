"""The terminal's two ends: lines out, answers in; `quit` or end of input leaves the table."""

from __future__ import annotations

from collections.abc import Callable

InputFn = Callable[[str], str]
OutputFn = Callable[[str], None]

QUIT_WORDS = frozenset({"quit", "q", "exit", ":q"})


class Quit(Exception):
    """The player left the table (typed `quit` or closed the input)."""


class Console:
    """Prints lines and asks questions; an answer of `quit` or the end of input raises Quit."""

    def __init__(self, input_fn: InputFn, output_fn: OutputFn) -> None:
        self._input = input_fn
        self._output = output_fn

    def say(self, *lines: str) -> None:
        for line in lines:
            self._output(line)

    def ask(self, prompt: str) -> str:
        """One answer, stripped; Quit on `quit` or end of input."""
        try:
            answer = self._input(prompt)
        except EOFError:
            self._output("")
            raise Quit("end of input") from None
        answer = answer.strip()
        if answer.lower() in QUIT_WORDS:
            raise Quit("quit")
        return answer

    def confirm(self, prompt: str) -> bool:
        """A yes or no question, asked again until it gets one."""
        while True:
            answer = self.ask(f"{prompt} [y/n] ").lower()
            if answer in ("y", "yes"):
                return True
            if answer in ("n", "no"):
                return False
            self.say("Please answer y or n.")
