"""The lobby's competition (spec/protocols.md §5.3-5.5): ratings, clocks, challenges, bots.

Part of the lobby codec: ``c4tui.protocols.lobby`` parses these requests with the
others and re-exports what clients and the server need. The terms a game is
played on (rated or casual, and its clock) travel in CREATE, QUICKPLAY and
CHALLENGE; the ratings come from the server's store, the clocks from its rooms.

Two messages are c4tui's own, beyond the spec (PROTOCOL.md says so): ``PLAYERS``,
who is online (for a lobby's player list), and the answer word of REGISTERBOT,
which is ``REGISTERBOT`` as every answer is named by its command.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from c4tui.protocols.colours import Colour, split_colour
from c4tui.protocols.names import valid_password, valid_user
from c4tui.protocols.rooms import BadFormat, Register, ack
from c4tui.protocols.terms import (
    Game,
    Terms,
    parse_game,
    parse_terms,
    parse_terms_answer,
    terms_fields,
)

#: How many names LEADERBOARD lists; how many PLAYERS lists at most.
LEADERBOARD_SIZE = 20
MAX_PLAYERS_LISTED = 200
#: From this deviation up a rating is provisional: off LEADERBOARD, below the others
#: (marked) on LEADERBOARD:ALL.
PROVISIONAL_DEVIATION = 110
#: Seconds after GAMEEND during which either player may ask for a REMATCH (§5.5), and the
#: finished room's players and viewers may still chat there (§5.6).
REMATCH_WINDOW = 60.0
#: What LEADERBOARD:ALL asks (c4tui's own), and the mark after a provisional rating there.
EVERYONE = "ALL"
PROVISIONAL_MARK = "?"
#: The role PROFILE gives an account that is no moderator (§7), and what a role may be
#: (a word: a newer server's roles are kept as they come).
PLAYER = "player"
_ROLE = re.compile(r"[a-z]{1,20}")
_NUMBER = re.compile(r"[0-9]{1,9}")
_SIGNED = re.compile(r"[+-][0-9]{1,9}")


# ----- what clients send ---------------------------------------------------------------


class RegisterBot(Register):
    """REGISTERBOT:<user>:<password>: REGISTER, for an account that is a bot."""


@dataclass(frozen=True)
class Profile:
    """PROFILE:<user>."""

    user: str


@dataclass(frozen=True)
class Leaderboard:
    """LEADERBOARD, or (``everyone``) LEADERBOARD:ALL: the provisional players too."""

    everyone: bool = False


@dataclass(frozen=True)
class LeaderEntry:
    """One name of a leaderboard's answer: its rating, and whether that is provisional."""

    user: str
    rating: int
    provisional: bool = False


@dataclass(frozen=True)
class Players:
    """PLAYERS (c4tui's own): who is online."""


@dataclass(frozen=True)
class Password:
    """PASSWORD:<old>: the caller's password, checked before NEWPASSWORD."""

    old: str


@dataclass(frozen=True)
class NewPassword:
    """NEWPASSWORD:<new>, within 60 s of a right PASSWORD."""

    new: str


@dataclass(frozen=True)
class Challenge:
    """CHALLENGE:<user>:<cols>:<rows>:<rules>:<rated|casual>[:<m>+<i>][:<red|yellow|random>]."""

    user: str
    game: Game
    terms: Terms
    colour: Colour = Colour.RED  # the challenger's (§5.6)


@dataclass(frozen=True)
class Accept:
    """ACCEPT:<from>."""

    user: str


@dataclass(frozen=True)
class Decline:
    """DECLINE:<from>."""

    user: str


@dataclass(frozen=True)
class Rematch:
    """REMATCH: the last game again, colours swapped."""


CompetitionRequest = (
    Profile
    | Leaderboard
    | Players
    | Password
    | NewPassword
    | Challenge
    | Accept
    | Decline
    | Rematch
)


def parse_profile(rest: str) -> Profile | BadFormat:
    """PROFILE:<user>; a name no account can have is no such user."""
    return Profile(rest) if valid_user(rest) else BadFormat(ack("PROFILE", 1))


def parse_password(rest: str) -> Password | BadFormat:
    """PASSWORD:<old>; a password no account can have is wrong (status 1)."""
    return Password(rest) if valid_password(rest) else BadFormat(ack("PASSWORD", 1))


def parse_new_password(rest: str) -> NewPassword | BadFormat:
    """NEWPASSWORD:<new>; one that breaks the password rule is bad format (status 2)."""
    return NewPassword(rest) if valid_password(rest) else BadFormat(ack("NEWPASSWORD", 2))


def parse_challenge(rest: str) -> Challenge | BadFormat:
    """CHALLENGE:<user>:<cols>:<rows>:<rules>:<rated|casual>[:<m>+<i>]."""
    user, *fields = rest.split(":")
    if not valid_user(user):
        return BadFormat(ack("CHALLENGE", 1))
    fields, colour = split_colour(fields, Colour.RED)
    game, terms = parse_game(fields[:3]), parse_terms(fields[3:])
    if game is None or terms is None or len(fields) < 4:
        return BadFormat(ack("CHALLENGE", 3))
    return Challenge(user, game, terms, colour)


def parse_accept(rest: str) -> Accept | BadFormat:
    """ACCEPT:<from>; a name no account has is no such challenge."""
    return Accept(rest) if valid_user(rest) else BadFormat(ack("ACCEPT", 1))


def parse_decline(rest: str) -> Decline | BadFormat:
    """DECLINE:<from>; any name is answered (a decline of nothing changes nothing)."""
    return Decline(rest) if valid_user(rest) else BadFormat(ack("DECLINE", 0))


def parse_leaderboard(rest: str) -> Leaderboard | BadFormat:
    """LEADERBOARD:ALL (the bare LEADERBOARD is the codec's); any other argument: status 1."""
    return Leaderboard(everyone=True) if rest == EVERYONE else BadFormat(ack("LEADERBOARD", 1))


def arguments_refused(command: str) -> Callable[[str], CompetitionRequest | BadFormat]:
    """The parser of a command that takes no argument (LEADERBOARD, PLAYERS, REMATCH).

    The bare command is the codec's; with an argument it is a bad format (status 1).
    """

    def parse(rest: str) -> CompetitionRequest | BadFormat:
        return BadFormat(ack(command, 1))

    return parse


# ----- what the server sends ----------------------------------------------------------


def profile(
    user: str,
    rating: float,
    deviation: float,
    record: tuple[int, int, int, int],
    bot: bool,
    *,
    role: str | None = None,
) -> str:
    """PROFILE:ACKSTATUS:0:<user>:<rating>:<deviation>:<games>:<wins>:<draws>:<losses>:<bot>:<role>.

    ``role``: ``player`` or ``moderator`` (§7; ``protocols.public.Role``'s words); None
    leaves the field out, as §5.3 had it.
    """
    games, wins, draws, losses = record
    numbers = [round(rating), round(deviation), games, wins, draws, losses, int(bot)]
    fields = [str(number) for number in numbers] + ([] if role is None else [role])
    return ack("PROFILE", 0, user, *fields)


def leaderboard(
    entries: Sequence[tuple[str, float]], provisional: Sequence[tuple[str, float]] = ()
) -> str:
    """LEADERBOARD:ACKSTATUS:0:<user>=<rating>,… highest first (none: a trailing colon).

    ``provisional`` (LEADERBOARD:ALL's) follow, each marked: ``zoe=1500?``.
    """
    pairs = [f"{user}={round(rating)}" for user, rating in entries]
    pairs += [f"{user}={round(rating)}{PROVISIONAL_MARK}" for user, rating in provisional]
    return ack("LEADERBOARD", 0, ",".join(pairs))


def players(entries: Sequence[PlayerEntry]) -> str:
    """PLAYERS:ACKSTATUS:0:<user>=<rating>=<free|busy>=<human|bot>,… (c4tui's own)."""
    return ack("PLAYERS", 0, ",".join(entry.field for entry in entries))


def rating(user: str, new: float, change: int) -> str:
    """RATING:<user>:<rating>:<change>, the change signed (+12, -12, +0)."""
    return f"RATING:{user}:{round(new)}:{change:+d}"


def clock(red_ms: int, yellow_ms: int) -> str:
    """CLOCK:<red ms>:<yellow ms>: the time each has left."""
    return f"CLOCK:{max(0, red_ms)}:{max(0, yellow_ms)}"


def challenged(user: str, board: Sequence[str], terms: Terms) -> str:
    """CHALLENGED:<from>:<cols>:<rows>:<rules>:<rated|casual>:<clock or ->.

    ``board``: the room's settings as ROOMINFO gives them (``game_fields``), so the
    rooms, generic over their settings, can say it.
    """
    return ":".join(["CHALLENGED", user, *board, *terms_fields(terms, always=True)])


def declined(user: str) -> str:
    """DECLINED:<user>: to the challenger, whom ``user`` turned down."""
    return f"DECLINED:{user}"


# ----- what clients receive -----------------------------------------------------------


@dataclass(frozen=True)
class PlayerEntry:
    """One online player as PLAYERS lists it."""

    user: str
    rating: int
    busy: bool
    bot: bool

    @property
    def field(self) -> str:
        """``ann=1500=free=human``."""
        state, kind = "busy" if self.busy else "free", "bot" if self.bot else "human"
        return f"{self.user}={self.rating}={state}={kind}"


@dataclass(frozen=True)
class ProfileInfo:
    """PROFILE's answer: a user's rating, its deviation, its games and whether it is a bot."""

    user: str
    rating: int
    deviation: int
    games: int
    wins: int
    draws: int
    losses: int
    bot: bool
    role: str = PLAYER  # §7: "player" or "moderator" (an older server's 8 fields: a player)

    @property
    def provisional(self) -> bool:
        """True while the deviation is above 110 (the rating is still a guess)."""
        return self.deviation > PROVISIONAL_DEVIATION


@dataclass(frozen=True)
class RatingChange:
    """RATING: a player's new rating after a rated game, and by how much it moved."""

    user: str
    rating: int
    change: int


@dataclass(frozen=True)
class ClockTimes:
    """CLOCK: milliseconds left to each player, as the server's clock had them."""

    red_ms: int
    yellow_ms: int


@dataclass(frozen=True)
class Challenged:
    """CHALLENGED: ``user`` challenges us to this game on these terms."""

    user: str
    game: Game
    terms: Terms


@dataclass(frozen=True)
class Declined:
    """DECLINED: ``user`` turned our challenge (or rematch) down."""

    user: str


CompetitionMessage = RatingChange | ClockTimes | Challenged | Declined


def parse_competition_message(fields: list[str]) -> CompetitionMessage | None:
    """RATING, CLOCK, CHALLENGED or DECLINED from a server line split at its colons."""
    word = fields[0]
    if (
        word == "RATING"
        and len(fields) == 4
        and _NUMBER.fullmatch(fields[2])
        and _SIGNED.fullmatch(fields[3])
    ):
        return RatingChange(fields[1], int(fields[2]), int(fields[3]))
    if word == "CLOCK" and len(fields) == 3 and all(_NUMBER.fullmatch(f) for f in fields[1:]):
        return ClockTimes(int(fields[1]), int(fields[2]))
    if word == "CHALLENGED" and len(fields) == 7:
        game, terms = parse_game(fields[2:5]), parse_terms_answer(fields[5:])
        if game is not None and terms is not None:
            return Challenged(fields[1], game, terms)
    if word == "DECLINED" and len(fields) == 2:
        return Declined(fields[1])
    return None


def parse_profile_answer(extra: Sequence[str]) -> ProfileInfo | None:
    """PROFILE:ACKSTATUS:0's fields (8, or 9 with §7's role); None if they make no profile."""
    if len(extra) not in (8, 9) or not all(_NUMBER.fullmatch(f) for f in extra[1:7]):
        return None
    role = extra[8] if len(extra) == 9 else PLAYER
    if extra[7] not in ("0", "1") or not _ROLE.fullmatch(role):
        return None
    rating, deviation, games, wins, draws, losses = (int(field) for field in extra[1:7])
    return ProfileInfo(
        extra[0], rating, deviation, games, wins, draws, losses, extra[7] == "1", role
    )


def parse_leaderboard_answer(extra: Sequence[str]) -> list[LeaderEntry]:
    """LEADERBOARD:ACKSTATUS:0's ``user=rating`` pairs, in order (malformed ones left out).

    A rating marked ``?`` (LEADERBOARD:ALL's provisional players) is provisional.
    """
    entries = []
    for item in ":".join(extra).split(","):
        user, _, number = item.partition("=")
        provisional = number.endswith(PROVISIONAL_MARK)
        number = number.removesuffix(PROVISIONAL_MARK)
        if user and _NUMBER.fullmatch(number):
            entries.append(LeaderEntry(user, int(number), provisional))
    return entries


def parse_players_answer(extra: Sequence[str]) -> list[PlayerEntry]:
    """PLAYERS:ACKSTATUS:0's entries (malformed ones left out)."""
    entries = []
    for item in ":".join(extra).split(","):
        fields = item.split("=")
        if len(fields) != 4 or not _NUMBER.fullmatch(fields[1]):
            continue
        if fields[2] in ("free", "busy") and fields[3] in ("human", "bot"):
            entries.append(
                PlayerEntry(fields[0], int(fields[1]), fields[2] == "busy", fields[3] == "bot")
            )
    return entries
