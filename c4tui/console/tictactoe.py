"""``c4tui tictactoe --connect HOST:PORT``: a plain-text client for INFO1112 tic-tac-toe servers.

It speaks the handout's protocol to any server of the assignment (and to
``c4tui serve --tictactoe-port``) and says what each answer means in the
handout's own words; errors go to standard error, as the handout asks. Leaving
a room is hanging up (the protocol has no other way), so ``quit`` ends the
client, and a player who quits mid-game forfeits.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from typing import TextIO

from c4tui.client import words
from c4tui.client.link import TICTACTOE_LINK, LobbyLink, ServerNotice
from c4tui.client.outcomes import CreateOutcome, JoinOutcome, LoginOutcome, RegisterOutcome
from c4tui.client.tictactoe import Ended, Refused, TicTacToeRoom, end_words, wait_for_start
from c4tui.client.words import Voice
from c4tui.console.game import SERVER_LOST, quietly, tolerate_bad_bytes
from c4tui.console.lines import EndOfInput, PlainText, read_secret, unless_left
from c4tui.net.errors import NetworkError, ProtocolError
from c4tui.protocols import tictactoe as ttt_wire
from c4tui.protocols.names import PASSWORD_RULE, valid_password
from c4tui.tictactoe import Board, TicTacToeError, parse_cell

HELP = """Commands (upper or lower case; what is left out is asked for):
  register [USER]     create an account (then log in to use it)
  login [USER]        log in (the password is asked without echo)
  roomlist [MODE]     rooms to join (MODE player) or to watch (MODE viewer)
  create [ROOM]       open a room; wait in it for a second player (you place X)
  join [ROOM] [MODE]  join a room as a player (you place O) or as a viewer
  watch [ROOM]        join a room as a viewer
  help, quit
In a game, type a cell: its number (1-9, 1 2 3 on the top row), or its column
and row (0-2; 0 0 is the top left). forfeit gives up. quit or Ctrl-D leaves the
server, which forfeits a game you play."""


def board_lines(board: Board) -> list[str]:
    """The board in text: X and O, and each empty cell's number to choose it by."""
    marks = [
        str(index + 1) if mark is None else mark.name for index, mark in enumerate(board.cells)
    ]
    rows = [" " + " | ".join(marks[row * 3 : row * 3 + 3]) for row in range(3)]
    return [rows[0], "---+---+---", rows[1], "---+---+---", rows[2]]


class TicTacToeConsole(PlainText):
    """The client on ``stdin``, ``stdout`` and ``stderr``."""

    def __init__(self, host: str, port: int, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> None:
        super().__init__(stdin, stdout)
        self.host, self.port = host, port
        self._stdin, self._stderr = stdin, stderr
        self.link: LobbyLink | None = None

    def error(self, text: str) -> None:
        """An error, on standard error (the handout's convention)."""
        self._stderr.write(text + "\n")
        self._stderr.flush()

    async def run(self) -> int:
        """Connect, then obey commands until quit or the end of input; the exit status."""
        try:
            self.link = await LobbyLink.open(self.host, self.port, dialect=TICTACTOE_LINK)
        except NetworkError as error:
            self.error(f"Error: {error}")
            return 1
        self.say(f"Connected to {self.host}:{self.port}. Type help for the commands.")
        try:
            while await self._command(await self._next_command()):
                pass
            return 0
        except EndOfInput:
            return 0
        except NetworkError as error:
            self.error(f"Error: {error}")
            if self._link.lost:
                return SERVER_LOST
        except ProtocolError as error:
            self.error(f"Error: the server broke the protocol: {error}")
        except TimeoutError:
            self.error("Error: the server did not answer in time")
        finally:
            await self.link.close()
        return 1

    async def _next_command(self) -> str:
        """The next typed command; NetworkError as soon as the server hangs up meanwhile."""
        return (await self.ask_unless_gone("> ", self._link.gone())).strip()

    @property
    def _link(self) -> LobbyLink:
        assert self.link is not None
        return self.link

    async def _argument(self, given: str, prompt: str) -> str:
        """``given``, or asked for when it was left out."""
        return given or (await self.ask(prompt)).strip()

    async def _password(self) -> str | None:
        """Without echo at a terminal; from the next line of input otherwise (scripts).

        None (the rule said on standard error) for a password the protocol forbids,
        which the server would refuse and the wire cannot even carry if not ASCII.
        """
        if self._stdin.isatty():
            password = await read_secret("Enter password: ")
        else:
            password = await self.ask("Enter password: ")
        if valid_password(password):
            return password
        self.error(f"Error: a password is {PASSWORD_RULE}")
        return None

    # ----- commands --------------------------------------------------------------------

    async def _command(self, line: str) -> bool:
        """Carry out one command; False to quit."""
        word, _, rest = line.partition(" ")
        commands: dict[str, Callable[[str], Awaitable[None]]] = {
            "login": self._login,
            "register": self._register,
            "roomlist": self._room_list,
            "create": self._create,
            "join": self._join,
            "watch": self._watch,
        }
        word = word.lower()
        if word in ("quit", "exit"):
            return False
        if word in commands:
            await self._request(commands[word], rest.strip())
        elif word in ("place", "forfeit"):
            self.error(f"Error: {word} is for a game: create or join a room first")
        elif word in ("help", "?"):
            self.say(HELP)
        elif word:
            self.error(f"Error: no command {word!r}: type help for the commands")
        return True

    async def _request(self, command: Callable[[str], Awaitable[None]], rest: str) -> None:
        """Carry out a command that asks the server; BADAUTH or NOROOM is put in words."""
        try:
            await command(rest)
        except ServerNotice as notice:
            self.error(words.NOTICES.get(notice.word, str(notice)))

    async def _login(self, rest: str) -> None:
        user = await self._argument(rest, "Enter username: ")
        current = self._link.user
        password = await self._password()
        if password is None:
            return
        outcome = await self._link.login(user, password)
        if outcome is LoginOutcome.LOGGED_IN:
            self.say(f"Welcome {user}")
        else:
            self.error(words.LOGIN.said(outcome, Voice.HANDOUT, user=user, current=current))

    async def _register(self, rest: str) -> None:
        user = await self._argument(rest, "Enter username: ")
        password = await self._password()
        if password is None:
            return
        outcome = await self._link.register(user, password)
        if outcome is RegisterOutcome.CREATED:
            self.say(f"Successfully created user account {user}")
        else:
            self.error(words.REGISTER.said(outcome, Voice.HANDOUT, user=user))

    async def _room_list(self, rest: str) -> None:
        mode = (await self._argument(rest, "Enter mode (player/viewer): ")).upper()
        rooms = await self._link.room_list(mode)
        if rooms is None:
            self.error("Error: Please input a valid mode.")
        elif rooms:
            self.say(f"Room available to join as {mode}: {','.join(rooms)}")
        else:
            self.say("No rooms to join as a player yet." if mode == "PLAYER" else "No rooms yet.")

    async def _create(self, rest: str) -> None:
        room = await self._argument(rest, "Enter room name: ")
        outcome = await self._link.create(room)
        if outcome is not CreateOutcome.CREATED:
            self.error(words.CREATE.said(outcome, Voice.HANDOUT, room=room))
            return
        self.say(f"Successfully created room {room}")
        self.say("Waiting for other player...")
        await self._in_room()

    async def _join(self, rest: str) -> None:
        room, _, mode = rest.rpartition(" ")
        if mode.upper() not in ("PLAYER", "VIEWER"):
            room, mode = rest, ""
        room = await self._argument(room, "Enter room name: ")
        mode = (await self._argument(mode, "Enter mode (player/viewer): ")).upper()
        await self._enter(room, mode)

    async def _watch(self, rest: str) -> None:
        await self._enter(await self._argument(rest, "Enter room name: "), "VIEWER")

    async def _enter(self, room: str, mode: str) -> None:
        outcome = await self._link.join(room, mode)
        if outcome is not JoinOutcome.JOINED:
            self.error(words.JOIN.said(outcome, Voice.HANDOUT, room=room))
            return
        self.say(f"Successfully joined room {room} as a {mode.lower()}")
        await self._in_room()

    # ----- in a room -------------------------------------------------------------------

    async def _in_room(self) -> None:
        """Wait for the game (typing quit leaves), then play or watch it to its end."""
        typing = asyncio.create_task(self._typed_while_waiting())
        try:
            start = await unless_left(wait_for_start(self._link), typing)
        finally:
            typing.cancel()
        room = TicTacToeRoom(self._link, start)
        if isinstance(start, ttt_wire.Begin):
            self.say(
                f"match between {start.first} and {start.second} will commence, "
                f"it is currently {start.first}'s turn."
            )
        else:
            self.say(
                f"Match between {start.to_move} and {start.other} is currently in progress, "
                f"it is {start.to_move}'s turn"
            )
        if room.mine is not None:
            self.say(f"You place {room.mine.name}.")
        await self._play(room, first_board=isinstance(start, ttt_wire.Begin))

    async def _typed_while_waiting(self) -> None:
        """While waiting for a second player: quit leaves (by hanging up)."""
        while True:
            line = (await self.ask("")).strip().lower()
            if line in ("quit", "exit"):
                raise EndOfInput
            if line:
                self.say("Waiting for other player... (quit or Ctrl-D leaves)")

    async def _play(self, room: TicTacToeRoom, first_board: bool) -> None:
        if first_board:
            self._show_turn(room, Board())
        typing = asyncio.create_task(self._typed_in_game(room))
        try:
            while True:
                news = await unless_left(room.next_news(), typing)
                if isinstance(news, Ended):
                    self._show_end(room, news)
                    return
                if isinstance(news, Refused):
                    self.error("Error: the server refused that move; the board is unchanged")
                self._show_turn(room, news.board)
        finally:
            typing.cancel()

    def _show_turn(self, room: TicTacToeRoom, board: Board) -> None:
        for line in board_lines(board):
            self.say(line)
        # Each player named, with its mark: "the current player" named no one.
        mine = room.mine
        if mine is None:
            self.say(f"It is {room.to_move}'s turn")
        elif board.turn is mine:
            self.say(f"It is your turn, {self._link.user} ({mine.name})")
            self.say("Your move: a cell's number (1-9) or its column and row (0-2); or forfeit")
        else:
            self.say(f"It is {room.to_move}'s turn ({board.turn.name})")

    def _show_end(self, room: TicTacToeRoom, end: Ended) -> None:
        for line in board_lines(end.board):
            self.say(line)
        self.say(end_words(end, self._link.user, watching=room.mine is None))

    async def _typed_in_game(self, room: TicTacToeRoom) -> None:
        """Lines typed during a game: a cell (on our turn), forfeit, quit."""
        while True:
            line = (await self.ask("")).strip()
            if line.lower() in ("quit", "exit"):
                raise EndOfInput
            if not line:
                continue
            if room.mine is None:
                self.say("Watching: the moves are the players'. quit leaves.")
            elif line.lower() == "forfeit":
                await room.forfeit()
            elif not room.our_turn:
                self.error("Error: it is not your turn")
            else:
                await self._place(room, line)

    async def _place(self, room: TicTacToeRoom, line: str) -> None:
        try:
            x, y = parse_cell(line)
        except TicTacToeError as error:
            self.error(f"Error: {error}")
            return
        assert room.board is not None
        problem = room.board.refusal(x, y)
        if problem is not None:
            self.error(f"Error: {problem}")
            return
        await room.place(x, y)


def run_tictactoe_client(host: str, port: int, stdin: TextIO | None = None) -> int:
    """Entry point of ``c4tui tictactoe --connect HOST:PORT``."""
    stdin = stdin or sys.stdin
    tolerate_bad_bytes(stdin)
    client = TicTacToeConsole(host, port, stdin, sys.stdout, sys.stderr)
    return quietly(lambda: asyncio.run(client.run()))
