"""A match as a game record, and a record back into the settings to continue it."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from c4tui.engine import Player
from c4tui.engine.setup import SetUp
from c4tui.match.backends import OPPONENTS, Backend, PersonBackend, picked_in_menu
from c4tui.match.driver import MatchDriver
from c4tui.match.settings import FIRST_PLAYER, MatchSettings
from c4tui.records import GameRecord, Result


def match_record(
    settings: MatchSettings, driver: MatchDriver, now: datetime | None = None
) -> GameRecord:
    """The game ``driver`` is playing, as a record (unfinished while it goes on)."""
    result, reason = Result.UNFINISHED, ""
    if driver.result is not None:
        result, reason = Result.for_winner(driver.result.winner), driver.result.reason
        if driver.result.state.winner is not None:
            reason = "four in a row"  # the result already says who
    person = None if settings.kind.local_pair else _person_colour(driver)
    return GameRecord(
        settings.columns,
        settings.rows,
        settings.rules,
        driver.moves,
        red=driver.seats[Player.RED].label,
        yellow=driver.seats[Player.YELLOW].label,
        date=(now or datetime.now()).strftime("%Y-%m-%d %H:%M"),
        result=result,
        reason=reason,
        opponent=settings.opponent,
        options=dict(settings.options),
        person=person,
    )


def _person_colour(driver: MatchDriver) -> Player | None:
    """The colour of the one person here (None when both or neither submit)."""
    people = [player for player, seat in driver.seats.items() if seat.submits]
    return people[0] if len(people) == 1 else None


def can_continue(record: GameRecord) -> bool:
    """True when the record's opponent can take up a game in the middle (not a server)."""
    kind = OPPONENTS.get(record.opponent)
    return kind is None or not kind.remote


def _two_people(opponent: str) -> bool:
    """Whether ``opponent`` is two people at this keyboard (not the base's colour to keep)."""
    kind = OPPONENTS.get(opponent)
    return kind is not None and kind.local_pair


def settings_to_continue(record: GameRecord, base: MatchSettings) -> MatchSettings:
    """Settings to play on from ``record`` against the same opponent.

    An opponent this version does not know, or one at the other end of a
    connection (which cannot start in the middle of a game), becomes two people
    at this keyboard. It goes on untimed: a record keeps no clock's times.
    """
    opponent, options = record.opponent, dict(record.options)
    if not can_continue(record) or not opponent:
        opponent, options = "human", {}
    person = record.person
    if person is None and _two_people(opponent):  # Player 1's colour: yellow after a rematch
        person = Player.YELLOW if record.yellow == FIRST_PLAYER else Player.RED
    return replace(
        base,
        opponent=opponent,
        options=options,
        columns=record.columns,
        rows=record.rows,
        rules=record.rules,
        person_colour=person or base.person_colour,
        clock=None,
    )


def plays_from_set_up(kind: type[Backend]) -> bool:
    """Whether ``kind`` can take up a position set up by hand (the computer, two people).

    Not a server's seat (its game starts on the server, from the empty board), nor a kind
    whose options are typed in a dialog (a program: the menu's settings do not hold them).
    """
    return picked_in_menu(kind) and not kind.remote and not kind.lobby


def set_up_record(setup: SetUp, settings: MatchSettings) -> GameRecord:
    """``setup`` as a game with its drops played, to go on against ``settings``' opponent.

    The person takes the side to move (two people take both); an opponent that cannot
    take up a set-up position (``plays_from_set_up``) gives way to two people. Raises
    PositionError (saying why) when the position cannot be played on.
    """
    kind = settings.kind
    opponent, options = settings.opponent, dict(settings.options)
    if not plays_from_set_up(kind):
        opponent, options = PersonBackend.key, {}
    local = OPPONENTS[opponent].local_pair
    return GameRecord(
        setup.columns,
        setup.rows,
        setup.rules,
        setup.drops(),
        opponent=opponent,
        options=options,
        person=None if local else setup.turn,
    )
