"""Runs a Kaggle ConnectX agent file in this process: one request per line in, one answer out.

Started by ``KaggleChooser`` as ``python …/kaggle_runner.py FILE [--seed N]`` (through
``limits_runner``, which set its memory and process limits; it runs in a folder of
its own); the standard library only, so it starts fast and the agent meets nothing
of c4tui. It loads the file as Kaggle does (its folder on ``sys.path``; the agent
is the last function the file defines) and says
``{"ready": true}``, or ``{"error": …}`` if the file does not load. Then each line
``{"observation": …, "configuration": …}`` is answered ``{"column": n}``,
``{"error": "<the exception's last line>"}`` or ``{"returned": "<repr of what was
not a column>"}``.

The protocol keeps the process's real standard output to itself: the agent's
prints (and anything C code writes to file descriptor 1) go to standard error,
and it reads no requests from standard input.
"""

from __future__ import annotations

import inspect
import io
import json
import os
import random
import sys
import traceback
from collections.abc import Callable
from typing import Any, TextIO

#: The agent's file, as loaded (``main`` sets it): tracebacks name its lines.
AGENT = ""


class Struct(dict[str, Any]):
    """A dict whose keys are also attributes, as Kaggle's observation and configuration are."""

    def __getattr__(self, key: str) -> Any:
        try:
            return self[key]
        except KeyError:
            raise AttributeError(key) from None

    def __setattr__(self, key: str, value: Any) -> None:
        self[key] = value


def load_agent(path: str) -> Callable[..., Any]:
    """The agent in the file at ``path``: the last function it defines (else its last callable).

    Raises whatever loading the file raises, and ValueError if it defines nothing callable.
    """
    with open(path, encoding="utf-8") as source:
        code = compile(source.read(), path, "exec")
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    namespace: dict[str, Any] = {"__name__": "__agent__", "__file__": path}
    exec(code, namespace)  # running the agent is the point
    callables = [value for value in namespace.values() if callable(value)]
    defined_here = [
        value
        for value in callables
        if inspect.isfunction(value) and value.__code__.co_filename == path
    ]
    if not callables:
        raise ValueError("the file defines no function to be the agent")
    return (defined_here or callables)[-1]


def call_agent(agent: Callable[..., Any], observation: Struct, configuration: Struct) -> Any:
    """Call ``agent`` as Kaggle does: with the configuration only if it takes two arguments."""
    try:
        parameters = inspect.signature(agent).parameters.values()
    except (TypeError, ValueError):
        return agent(observation, configuration)
    positional = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    takes_more = any(p.kind is p.VAR_POSITIONAL for p in parameters)
    if len(positional) == 1 and not takes_more:
        return agent(observation)
    return agent(observation, configuration)


def answer(agent: Callable[..., Any], request: dict[str, Any]) -> dict[str, Any]:
    """What to reply to one request: the column, the exception, or what was returned."""
    observation = Struct(request["observation"])
    configuration = Struct(request["configuration"])
    try:
        returned = call_agent(agent, observation, configuration)
    except Exception as error:  # the agent's failure is the answer; its author wants the lines
        traceback.print_exc(file=sys.stderr)  # to the player's log
        return {"error": last_line(error)}
    if isinstance(returned, bool) or not hasattr(returned, "__index__"):
        return {"returned": repr(returned)[:100]}
    return {"column": returned.__index__()}  # NumPy's integers too


def last_line(error: BaseException) -> str:
    """``ValueError: boom (agent.py, line 7)``: the exception's last line, and where in the agent.

    The place is the last line of the agent's own file the traceback passed through
    (a SyntaxError names its own); the whole traceback goes to the player's log.
    """
    if isinstance(error, SyntaxError):
        return f"{type(error).__name__}: {error}"
    words = traceback.format_exception_only(type(error), error)[-1].strip()
    mine = [frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename == AGENT]
    return f"{words} ({os.path.basename(AGENT)}, line {mine[-1].lineno})" if mine else words


def protocol_streams() -> tuple[TextIO, TextIO]:
    """Take standard input and output for the protocol; the agent gets stderr and no input."""
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # prints, even from C code, land in standard error
    sys.stdout = sys.stderr
    sys.stdin = io.StringIO("")
    return requests, replies


def reply(replies: TextIO, message: dict[str, Any]) -> None:
    """Send one answer line."""
    replies.write(json.dumps(message) + "\n")
    replies.flush()


def seed_randomness(seed: int | None) -> None:
    """Seed ``random`` and NumPy's generator (``--seed``), before the agent loads.

    NumPy is imported for it (where it is installed), so an agent that imports it
    late, inside its function, draws from the seeded generator all the same.
    """
    if seed is None:
        return
    random.seed(seed)
    try:
        import numpy  # noqa: PLC0415 (only with --seed, and only if installed)
    except ImportError:
        return
    numpy.random.seed(seed % 2**32)


def main(argv: list[str]) -> int:
    """Load the agent named in ``argv`` (``FILE [--seed N]``), then answer until input ends."""
    requests, replies = protocol_streams()
    path = argv[0]
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else None
    seed_randomness(seed)
    global AGENT  # noqa: PLW0603 (the one file this process runs, for last_line)
    AGENT = path
    try:
        agent = load_agent(path)
    except BaseException as error:  # a file that does not load (even by exiting): say why
        traceback.print_exc(file=sys.stderr)  # where: the line, in the player's log
        reply(replies, {"error": f"could not load {os.path.basename(path)}: {last_line(error)}"})
        return 1
    reply(replies, {"ready": True})
    for line in requests:
        reply(replies, answer(agent, json.loads(line)))
    return 0


if __name__ == "__main__":
    del sys.path[0]  # this folder: an agent's "import kaggle" must not find c4tui's
    sys.exit(main(sys.argv[1:]))
