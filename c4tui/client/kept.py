"""A finished game fetched from the lobby (GAME's answer) as people read it and records keep it.

The console's ``history``/``show``/``save`` and any other front end say the same things
of a kept game: when it started, who won and why, seen by one of its players.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime

from c4tui.client import words
from c4tui.client.link import LobbyLink
from c4tui.client.outcomes import LoginOutcome
from c4tui.client.words import Voice, end_reason
from c4tui.engine import Player
from c4tui.net.tls import ClientTls
from c4tui.protocols.past import ABORTED_REASON, KeptGame
from c4tui.records import GameRecord, Result


def colour_of(kept: KeptGame, user: str) -> Player | None:
    """The colour ``user`` played in ``kept``; None for someone who did not play."""
    if user == kept.red:
        return Player.RED
    return Player.YELLOW if user == kept.yellow else None


def winner_of(kept: KeptGame) -> Player | None:
    """The winning colour; None for a draw (or a game not over)."""
    return colour_of(kept, kept.winner) if kept.winner is not None else None


def name_of(kept: KeptGame, player: Player) -> str:
    """Who played ``player``."""
    return kept.red if player is Player.RED else kept.yellow


def started_at(kept: KeptGame, separator: str = " ") -> str:
    """``2026-11-26 23:05`` from the server's ``2026-11-26T23:05:16Z`` (as given if not that)."""
    day, _, time = kept.started.partition("T")
    return f"{day}{separator}{time[:5]}" if time else kept.started


def started_here(kept: KeptGame) -> str:
    """``2026-11-27 00:05``: when ``kept`` started, in this computer's time zone.

    As the server gave it if it is not the ISO time the server writes.
    """
    try:
        started = datetime.fromisoformat(kept.started)
    except ValueError:
        return kept.started
    return started.astimezone().strftime("%Y-%m-%d %H:%M")


def terms_of(kept: KeptGame) -> str:
    """``rated 3+2``, ``casual`` (a server before GAME's clock field says no clock)."""
    return kept.terms.words


def result_for(kept: KeptGame, player: Player) -> str:
    """``won (four in a row)``, ``lost (forfeit)``, ``draw (board full)`` from ``player``'s side."""
    if not kept.reason:
        return "not over yet"
    if kept.reason == ABORTED_REASON:  # nobody won or drew: it was called off (§5.6)
        return "aborted"
    winner = winner_of(kept)
    said = "draw" if winner is None else "won" if winner is player else "lost"
    return f"{said} ({end_reason(kept.reason)})"


def result_line(kept: KeptGame) -> str:
    """``alice (RED) wins (four in a row)``, ``A draw (board full)``."""
    if not kept.reason:
        return "Not over yet."
    if kept.reason == ABORTED_REASON:
        return "Aborted: called off before both players had moved, or after a restart."
    winner = winner_of(kept)
    if winner is None:
        return f"A draw ({end_reason(kept.reason)})."
    return f"{name_of(kept, winner)} ({winner.name}) wins ({end_reason(kept.reason)})."


def record_of(kept: KeptGame, user: str) -> GameRecord:
    """``kept`` as a game record, seen by ``user`` (one of its players, or not)."""
    columns, rows, rules = kept.game
    return GameRecord(
        columns=columns,
        rows=rows,
        rules=rules,
        moves=kept.moves,
        red=kept.red,
        yellow=kept.yellow,
        date=started_at(kept),
        result=Result.for_winner(winner_of(kept)) if kept.reason else Result.UNFINISHED,
        reason=end_reason(kept.reason),
        person=colour_of(kept, user),
    )


async def finished_games(link: LobbyLink, user: str | None = None) -> list[KeptGame] | None:
    """``user``'s finished games (ours: None), newest first, all asked for at once.

    None: no such user. A game gone between the list and its fetch is left out.
    Raises what the link's requests raise (the server gone, no answer in time).
    """
    numbers = await link.history(user)
    if numbers is None:
        return None
    games = await asyncio.gather(*(link.kept_game(number) for number in numbers))
    return [game for game in games if game is not None]


class NotKept(Exception):
    """The server refused the login, or keeps no such game: why, in words."""


async def fetch_game(
    host: str,
    port: int,
    user: str,
    password: str,
    number: int,
    *,
    took_over: Callable[[str], None] = lambda room: None,
    tls: ClientTls | None = None,
) -> KeptGame:
    """Log in to the lobby at ``host``:``port`` as ``user`` and fetch the game kept as ``number``.

    The newest login wins (§5.1): a game ``user`` plays elsewhere comes to this connection,
    and is away once it closes; ``took_over`` hears its room, to warn the person;
    ``tls``: connect over TLS.
    Raises NetworkError (in words) when the server cannot be reached or goes, TimeoutError
    when it does not answer, NotKept when it refuses the login or has no such game.
    """
    link = await LobbyLink.open(host, port, tls=tls)
    try:
        logged_in = await link.login(user, password)
        if logged_in is not LoginOutcome.LOGGED_IN:
            raise NotKept(words.LOGIN.said(logged_in, Voice.CONSOLE, user=user))
        game = await link.kept_game(number)  # answered after a REJOIN: ``rejoined`` is settled
        if link.rejoined is not None:
            took_over(link.rejoined)
    finally:
        await link.close()
    if game is None:
        raise NotKept(f"The server at {host}:{port} keeps no game {number}.")
    return game
