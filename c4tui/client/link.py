"""One logged-in connection to a room server, and its requests with typed answers.

``LobbyLink`` speaks the lobby protocol, or with ``TICTACTOE_LINK`` the
INFO1112 tic-tac-toe protocol, whose accounts and rooms work the same way.
Requests wait for their ACKSTATUS and return what it means (``outcomes``);
everything else the server pushes (BEGIN, boards, chat, the end, a CHAT refused)
waits in a queue for the room's game (``room_game``, ``tictactoe``), but for the
lines that follow an answer (REPORTS's REPORTED: ``public``), which go to its asker.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from c4tui.client.keys import Keys
from c4tui.client.outcomes import (
    ChallengeOutcome,
    CreateOutcome,
    JoinOutcome,
    LoginOutcome,
    PasswordChange,
    RegisterOutcome,
    UnknownStatus,
    outcome_of,
)
from c4tui.client.public import Public
from c4tui.client.table_talk import TableTalk
from c4tui.client.words import closed_because
from c4tui.engine import Rules
from c4tui.net.address import CONNECT_TIMEOUT
from c4tui.net.connection import Connection, open_connection
from c4tui.net.errors import ConnectionClosed, NetworkError, ProtocolError
from c4tui.net.framing import MessageStream
from c4tui.net.tls import ClientTls
from c4tui.net.wire import quote
from c4tui.protocols import competition, past
from c4tui.protocols import lobby as wire
from c4tui.protocols import tictactoe as ttt_wire
from c4tui.protocols.colours import Colour, colour_fields
from c4tui.protocols.registry import ProtocolSpec
from c4tui.protocols.terms import parse_terms_answer, terms_fields

#: Seconds to wait for the answer to a request.
REPLY_TIMEOUT = 30.0

Game = tuple[int, int, Rules]
#: LOGIN refusals that say what is wrong with the account asked for.
_ABOUT_THE_ACCOUNT = (LoginOutcome.NO_SUCH_USER, LoginOutcome.WRONG_PASSWORD, LoginOutcome.BANNED)
#: Anything a room server may push, in either protocol.
ServerMessage = wire.ServerMessage | ttt_wire.ServerMessage


@dataclass(frozen=True)
class LinkDialect:
    """A room protocol as a client speaks it: its framing and its server's messages."""

    spec: ProtocolSpec
    parse: Callable[[str], ServerMessage]
    server: str  # what to call the server in a message to a person


LOBBY_LINK = LinkDialect(wire.SPEC, wire.parse_server_message, "The lobby server")
TICTACTOE_LINK = LinkDialect(
    ttt_wire.CLIENT_SPEC, ttt_wire.parse_server_message, "The tic-tac-toe server"
)


class ServerNotice(NetworkError):
    """The server answered a request with BADAUTH (not logged in) or NOROOM (in no room)."""

    def __init__(self, word: str, request: str) -> None:
        super().__init__(f"The server answered {word} to {quote(request[:30])}.")
        self.word = word


@dataclass(frozen=True)
class RoomSummary:
    """One room as a lobby list shows it."""

    name: str
    game: Game
    red: str
    yellow: str  # "" while the creator waits
    viewers: str
    state: str  # waiting or playing
    terms: wire.Terms = wire.CASUAL  # rated or casual, and the clock (§5.4)

    @classmethod
    def of(cls, name: str, answer: wire.Ack) -> RoomSummary | None:
        """The summary ROOMINFO's answer gives; None for no such room (or a malformed one).

        A server from before §5.4 leaves the terms out: casual, no clock.
        """
        if answer.status != 0 or len(answer.extra) not in (7, 9):
            return None
        game = wire.parse_game(list(answer.extra[:3]))
        terms = parse_terms_answer(answer.extra[7:]) if len(answer.extra) == 9 else wire.CASUAL
        if game is None or terms is None:
            return None
        red, yellow, viewers, state = answer.extra[3:7]
        return cls(name, game, red, yellow, viewers, state, terms)

    @property
    def waiter(self) -> str:
        """The player waiting for an opponent, in whichever seat (§5.6); "" once playing."""
        return "" if self.red and self.yellow else self.red or self.yellow

    @property
    def players(self) -> str:
        """``ann vs bob``, or ``ann waits``."""
        return f"{self.waiter} waits" if self.waiter else f"{self.red} vs {self.yellow}"


class LobbyLink(TableTalk, Public, Keys):
    """One connection to a lobby server.

    Its table requests are ``TableTalk``'s, §7's ``Public``'s, §9's (ssh keys) ``Keys``'.
    """

    def __init__(self, connection: Connection, dialect: LinkDialect = LOBBY_LINK) -> None:
        self.connection = connection
        self.dialect = dialect
        self.user = ""
        self.problem: str | None = None
        #: True once the server closed the connection (not when it broke the protocol).
        self.lost = False
        #: The reason of the server's BYE, once one came (§5.1): whether to come back.
        self.bye_reason: str | None = None
        #: The room of the unfinished game the server put us back in (REJOIN), if it did.
        self.rejoined: str | None = None
        self._answered = False  # has the server answered anything yet?
        self._stream = MessageStream(connection, dialect.spec)
        self._pending: deque[tuple[str, asyncio.Future[wire.Ack | wire.Notice]]] = deque()
        self._pushed: asyncio.Queue[ServerMessage | None] = asyncio.Queue()
        self._start_public()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def open(
        cls,
        host: str,
        port: int,
        timeout: float = CONNECT_TIMEOUT,
        dialect: LinkDialect = LOBBY_LINK,
        tls: ClientTls | None = None,
    ) -> LobbyLink:
        """Connect, over TLS with ``tls`` (a NetworkError in words if that fails)."""
        try:
            connection = await open_connection(host, port, timeout, tls=tls)
        except (OSError, TimeoutError) as error:
            raise NetworkError(f"Cannot connect to {host}:{port}: {error}") from error
        return cls(connection, dialect)

    async def _read(self) -> None:
        """Answer each pending request with its ACK; push everything else."""
        try:
            while True:
                message = self.dialect.parse(await self._stream.read())
                self._answered = True
                if isinstance(message, wire.Bye):  # the server closes next, and says why
                    self.bye_reason = message.reason
                    full = message.reason == "full"  # which limit: the longer words say both
                    self.problem = self._full if full else f"{closed_because(message.reason)}."
                elif isinstance(message, wire.Ack | wire.Notice):
                    if isinstance(message, wire.Ack):
                        self._announced(message)  # REPORTS: its lines follow (§7)
                    self._answer(message)
                elif not self._followed(message):  # a REPORTED line is its asker's
                    if isinstance(message, wire.Rejoin):
                        self.rejoined = message.room  # and pushed: a reader may wait for it
                    self._pushed.put_nowait(message)
        except ConnectionClosed:
            self.lost = True  # it hung up: ``_hung_up`` (or its BYE) says so
        except (ProtocolError, OSError, ConnectionError) as error:
            self.lost = not isinstance(error, ProtocolError)
            self.problem = f"{self.dialect.server} broke off: {error}"
        finally:
            if self._pending and not self._answered:
                self.problem = self._full
            for _, future in self._pending:
                if not future.done():
                    future.set_exception(NetworkError(self.problem or self._hung_up))
            self._pushed.put_nowait(None)
            self._public_ended(self.problem or self._hung_up)

    def _answer(self, message: wire.Ack | wire.Notice) -> None:
        """Hand ``message`` to the request it answers (ACKs, and BADAUTH), else push it."""
        waiting = self._waiting_for(message)
        if waiting is None:
            self._pushed.put_nowait(message)
        elif not waiting.done():  # else an asker that gave up (a cancelled worker)
            waiting.set_result(message)

    def _waiting_for(
        self, message: wire.Ack | wire.Notice
    ) -> asyncio.Future[wire.Ack | wire.Notice] | None:
        """The request ``message`` answers, if it answers one."""
        if isinstance(message, wire.Ack):
            for index, (command, future) in enumerate(self._pending):
                if command == message.command:
                    del self._pending[index]
                    return future
            if message.command == "CHAT":  # muted or too fast (§7): for the room to say
                return None
            raise ProtocolError(f"an answer nobody asked for: {message.command}")
        if self._pending and message.word == wire.BADAUTH:  # a request before logging in
            return self._pending.popleft()[1]
        return None  # NOROOM answers a move, FORFEIT or CHAT: sent, never asked

    async def ask(self, line: str) -> wire.Ack:
        """Send a request and wait for its ACKSTATUS.

        Raises ServerNotice when BADAUTH comes instead (NOROOM answers no request: it is
        pushed, see ``_waiting_for``), NetworkError when
        the server is gone, TimeoutError when it does not answer in time.
        """
        answer = await self._answer_to(line)
        if isinstance(answer, wire.Notice):
            raise ServerNotice(answer.word, line)
        return answer

    async def _answer_to(self, line: str) -> wire.Ack | wire.Notice:
        """Send a request and wait for its ACKSTATUS, or the BADAUTH it gets instead."""
        if self._reader.done():  # nobody will read the answer
            raise NetworkError(self.problem or self._hung_up)
        future: asyncio.Future[wire.Ack | wire.Notice] = asyncio.get_running_loop().create_future()
        entry = (line.split(":", 1)[0], future)
        self._pending.append(entry)  # before sending: the answer may come before send returns
        try:
            await self.send(line)
        except BaseException:  # not sent (cancelled while pacing, say): no answer will come
            self._pending.remove(entry)
            raise
        async with asyncio.timeout(REPLY_TIMEOUT):
            return await future

    async def send(self, line: str) -> None:
        """Send one message (a move, a chat line, FORFEIT: answered by a push, if at all).

        Without a terminator, messages go at least ``UNTERMINATED_GAP`` apart: a
        server that reads one message per ``recv`` would merge them otherwise.
        Raises NetworkError once the server is gone, rather than writing into the void.
        """
        if self._reader.done():
            raise NetworkError(self.problem or self._hung_up)
        await self._stream.send_paced(line)

    async def pushed(self) -> ServerMessage:
        """The next message the server pushed. Raises NetworkError once the link is gone."""
        message = await self._pushed.get()
        if message is None:
            self._pushed.put_nowait(None)  # every later reader learns it too
            raise NetworkError(self.problem or self._hung_up)
        return message

    async def gone(self) -> str:
        """Return once the server has hung up or broken off: why, in words."""
        await asyncio.shield(self._reader)
        return self.problem or self._hung_up

    @property
    def _hung_up(self) -> str:
        return f"{closed_because(None)}."

    @property
    def _full(self) -> str:
        """Why a server hangs up on a first request, unanswered.

        c4tui's server refuses a connection over its limits (in all, or from one
        address) once it has read the first request: the lobby says ``BYE:full`` first,
        tic-tac-toe (no word for it) just closes. Neither says which limit it was.
        """
        return "The server is full, or has as many connections from this address as it allows."

    async def close(self) -> None:
        """Hang up."""
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reader
        await self.connection.close()

    # ----- requests ------------------------------------------------------------------

    async def register(
        self, user: str, password: str, *, bot: bool = False
    ) -> RegisterOutcome | UnknownStatus:
        """Create an account (it does not log in); ``bot``: one marked as a bot (§5.5)."""
        command = "REGISTERBOT" if bot else "REGISTER"
        status = (await self.ask(f"{command}:{user}:{password}")).status
        return outcome_of(RegisterOutcome, status)

    async def login(self, user: str, password: str) -> LoginOutcome | UnknownStatus:
        """Log in as ``user``; ``self.user`` names them once in."""
        outcome = outcome_of(LoginOutcome, (await self.ask(f"LOGIN:{user}:{password}")).status)
        if outcome is LoginOutcome.LOGGED_IN:
            self.user = user
        elif self.user and outcome not in _ABOUT_THE_ACCOUNT:
            return LoginOutcome.ALREADY_LOGGED_IN  # what else a server refuses then
        return outcome

    async def room_list(self, mode: str) -> list[str] | None:
        """The rooms ROOMLIST names for ``mode`` as typed; None if the server refuses the mode."""
        answer = await self.ask(f"ROOMLIST:{mode}")
        if answer.status != 0:
            return None
        return [name for name in ":".join(answer.extra).split(",") if name]

    async def room_names(self, mode: wire.Mode) -> list[str]:
        """Rooms to play in (PLAYER) or to watch (VIEWER)."""
        return await self.room_list(mode.value) or []

    async def room_info(self, name: str) -> wire.Ack:
        """ROOMINFO's answer (``extra``: cols, rows, rules, red, yellow, viewers, state)."""
        return await self.ask(f"ROOMINFO:{name}")

    async def rooms(self) -> list[RoomSummary]:
        """Every room with its board, players and viewers (all the ROOMINFOs asked at once).

        A room gone between the list and its ROOMINFO is left out, and so is a waiting
        room the server does not offer us to play in (§7: across a block it is as if
        not there, so JOIN would answer "no such room"; its game, once on, is listed) —
        unless we block the one waiting there: the blocker knows (BLOCKS, asked only then).
        """
        names, open_to_us = await asyncio.gather(
            self.room_names(wire.Mode.VIEWER), self.room_names(wire.Mode.PLAYER)
        )
        answers = await asyncio.gather(*(self.room_info(name) for name in names))
        found = (RoomSummary.of(name, answer) for name, answer in zip(names, answers, strict=True))
        rooms = [summary for summary in found if summary is not None]
        hidden = [r for r in rooms if r.state == "waiting" and r.name not in open_to_us]
        if not hidden:
            return rooms
        ours = {user.casefold() for user in await self.blocks() or ()}
        shown = {r.name for r in hidden if self._sits_in(r) or r.waiter.casefold() in ours}
        return [r for r in rooms if r not in hidden or r.name in shown]

    def _sits_in(self, room: RoomSummary) -> bool:
        """Whether we are one of ``room``'s players."""
        return bool(self.user) and self.user in (room.red, room.yellow)

    async def create(
        self,
        name: str,
        game: Game | None = None,
        terms: wire.Terms = wire.CASUAL,
        colour: Colour = Colour.RED,
    ) -> CreateOutcome | UnknownStatus:
        """Open a room and wait in it as ``colour`` (red moves first); tic-tac-toe has no ``game``.

        Casual games without a clock, red, are asked for in §4's words, which every server reads.
        """
        fields = wire.game_fields(game) if game is not None else []
        if game is not None and terms != wire.CASUAL:
            fields += terms_fields(terms)
        if game is not None:
            fields += colour_fields(colour, Colour.RED)  # no colours in tic-tac-toe
        answer = await self.ask(":".join(["CREATE", name, *fields]))
        return outcome_of(CreateOutcome, answer.status)

    async def join(self, name: str, mode: wire.Mode | str) -> JoinOutcome | UnknownStatus:
        """Enter a room as a player or a viewer (``mode`` as typed, for a server to judge)."""
        mode = mode.value if isinstance(mode, wire.Mode) else mode
        return outcome_of(JoinOutcome, (await self.ask(f"JOIN:{name}:{mode}")).status)

    async def quick_play(
        self, game: Game, terms: wire.Terms = wire.CASUAL, colour: Colour = Colour.RANDOM
    ) -> str | None:
        """The room we are in now (waiting, or paired at once); None if refused.

        ``colour``: the one we ask for (random, the default, lets the server give one).
        """
        extra = terms_fields(terms) if terms != wire.CASUAL else []
        extra += colour_fields(colour, Colour.RANDOM)
        answer = await self.ask(":".join(["QUICKPLAY", *wire.game_fields(game), *extra]))
        return answer.extra[0] if answer.status == 0 and answer.extra else None

    async def history(self, user: str | None = None) -> list[int] | None:
        """The ids of ``user``'s finished games (ours: None), newest first; None: no such user."""
        answer = await self.ask(f"HISTORY:{user}" if user is not None else "HISTORY")
        return past.parse_history_answer(answer.extra) if answer.status == 0 else None

    async def kept_game(self, number: int) -> past.KeptGame | None:
        """The game kept as ``number``; None for no such game."""
        answer = await self.ask(f"GAME:{number}")
        return past.parse_kept_game(answer.extra) if answer.status == 0 else None

    # ----- competing (§5.3-5.5) ----------------------------------------------------------

    async def profile(self, user: str) -> competition.ProfileInfo | None:
        """``user``'s rating, deviation, games and whether it is a bot; None: no such user."""
        answer = await self.ask(f"PROFILE:{user}")
        return competition.parse_profile_answer(answer.extra) if answer.status == 0 else None

    async def leaderboard(self) -> list[competition.LeaderEntry]:
        """The best established ratings, highest first, then the provisional ones (marked).

        LEADERBOARD:ALL (c4tui's own); a server from before it (status 1) is asked
        the plain LEADERBOARD, the established alone.
        """
        answer = await self.ask(f"LEADERBOARD:{competition.EVERYONE}")
        if answer.status == 1:
            answer = await self.ask("LEADERBOARD")
        return competition.parse_leaderboard_answer(answer.extra) if answer.status == 0 else []

    async def players(self) -> list[competition.PlayerEntry]:
        """Who is online: name, rating, in a room or free, bot or human (c4tui's own PLAYERS)."""
        answer = await self.ask("PLAYERS")
        return competition.parse_players_answer(answer.extra) if answer.status == 0 else []

    async def change_password(self, old: str, new: str) -> PasswordChange:
        """PASSWORD:<old>, then NEWPASSWORD:<new> (two lines: a password may hold colons)."""
        if (await self.ask(f"PASSWORD:{old}")).status != 0:
            return PasswordChange.WRONG_PASSWORD
        status = (await self.ask(f"NEWPASSWORD:{new}")).status
        if status == 0:
            return PasswordChange.CHANGED
        return PasswordChange.TOO_LATE if status == 1 else PasswordChange.AGAINST_THE_RULES

    async def challenge(
        self, user: str, game: Game, terms: wire.Terms = wire.CASUAL, colour: Colour = Colour.RED
    ) -> ChallengeOutcome | UnknownStatus:
        """Challenge ``user`` to ``game`` on ``terms``, as ``colour``; CHALLENGED tells them."""
        fields = [*wire.game_fields(game), *terms_fields(terms), *colour_fields(colour, Colour.RED)]
        answer = await self.ask(":".join(["CHALLENGE", user, *fields]))
        return outcome_of(ChallengeOutcome, answer.status)

    async def accept(self, user: str) -> bool:
        """Accept ``user``'s challenge (BEGIN follows); False: there is no such challenge."""
        return (await self.ask(f"ACCEPT:{user}")).status == 0

    async def decline(self, user: str) -> None:
        """Turn ``user``'s challenge down (they are told DECLINED)."""
        await self.ask(f"DECLINE:{user}")

    async def rematch(self) -> bool:
        """Ask the last game's opponent for another, colours swapped; False: too late."""
        return (await self.ask("REMATCH")).status == 0
