"""The match driver with every kind of seat, without any UI."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

import pytest

from c4tui.ai.levels import ai_level
from c4tui.engine import GameState, Move, Player, Rules
from c4tui.match.backends import (
    OPPONENTS,
    Backend,
    ComputerBackend,
    NetworkBackend,
    PersonBackend,
    SeatContext,
    Spectator,
)
from c4tui.match.backends.network import ServerAddress
from c4tui.match.driver import MatchDriver
from c4tui.match.events import (
    GameOver,
    MatchEvent,
    MatchFailed,
    MovePlayed,
    MoveRefused,
    MovesTakenBack,
    SeatLeft,
    TurnStarted,
)
from c4tui.match.pool import SearchPool
from c4tui.match.settings import MatchSettings
from c4tui.server.core import C4Server, ServerConfig
from tests.seats import CheatingSeat, LeavingSeat, SlowSeat

SeatMaker = Callable[[], Backend]


class Recorder(Spectator):
    """A spectator that writes down every move it is told of."""

    def __init__(self) -> None:
        self.seen: list[Move] = []
        self.started = 0

    async def start(self, state: GameState) -> None:
        self.started += 1

    async def move_played(self, before: GameState, move: Move) -> None:
        self.seen.append(move)


async def play_out(driver: MatchDriver, choose: Callable[[GameState], Move] | None = None) -> list:
    """Run the driver to its end, submitting a move whenever a person is to move."""
    events: list[MatchEvent] = []
    pick = choose or (lambda state: state.legal_moves()[len(state.legal_moves()) // 2])

    def listen(event: MatchEvent) -> None:
        events.append(event)
        if isinstance(event, TurnStarted) and event.submits:
            asyncio.get_running_loop().call_soon(driver.submit, pick(event.state))

    driver.subscribe(listen)
    await asyncio.wait_for(driver.run(), 60)
    return events


@pytest.fixture
async def real_server() -> AsyncIterator[C4Server]:
    server = C4Server(ServerConfig(port=0, ai="easy", ai_workers=1))
    await server.start()
    yield server
    await server.stop()


OPPONENT_SEATS = ["person", "random", "easy", "medium", "hard", "i32cfsp server"]


@pytest.fixture(params=OPPONENT_SEATS)
def opponent(request: pytest.FixtureRequest, real_server: C4Server) -> SeatMaker:
    """Every kind of seat the person here can face (the same tests run against each)."""
    kind = request.param
    if kind == "person":
        return lambda: PersonBackend("Other")
    if kind == "i32cfsp server":
        return lambda: NetworkBackend(ServerAddress("127.0.0.1", real_server.port, "driver"))
    return lambda: ComputerBackend(ai_level(kind), seed=7)


@pytest.mark.parametrize(
    ("columns", "rows", "rules"), [(7, 6, Rules.POPOUT), (5, 4, Rules.CLASSIC)]
)
async def test_a_whole_game_reaches_its_end_against_every_kind_of_seat(
    opponent: SeatMaker, columns: int, rows: int, rules: Rules
) -> None:
    spectator = Recorder()
    driver = MatchDriver(
        GameState.new(columns, rows, rules),
        {Player.RED: PersonBackend(), Player.YELLOW: opponent()},
        watchers=[spectator],
    )
    try:
        events = await play_out(driver)
    finally:
        await driver.close()
    assert driver.state.is_over and driver.result is not None
    played = [event for event in events if isinstance(event, MovePlayed)]
    assert [event.move for event in played] == list(driver.moves) == spectator.seen
    assert all(event.before.is_legal(event.move) for event in played)
    assert isinstance(events[-1], GameOver) and events[-1].state == driver.state
    assert spectator.started == 1


async def test_the_person_may_play_yellow_against_every_kind_that_allows_it(
    opponent: SeatMaker,
) -> None:
    seat = opponent()
    if Player.YELLOW not in seat.person_colours:
        pytest.skip(f"{seat.title} always lets the person play red")
    driver = MatchDriver(GameState.new(5, 4), {Player.RED: seat, Player.YELLOW: PersonBackend()})
    try:
        await play_out(driver)
    finally:
        await driver.close()
    assert driver.state.is_over


async def test_a_refused_submission_changes_nothing_and_says_why() -> None:
    driver = MatchDriver(GameState.new(4, 4), {p: PersonBackend() for p in Player})
    events: list[MatchEvent] = []
    driver.subscribe(events.append)
    driver.start()
    await driver.settled()
    assert driver.submit(Move.drop(4)) == "column 5 does not exist"
    assert driver.submit(Move.pop(0)) == "Pop Out is off in classic rules"
    assert driver.moves == ()
    assert [e.reason for e in events if isinstance(e, MoveRefused)] == [
        "column 5 does not exist",
        "Pop Out is off in classic rules",
    ]
    await driver.close()


async def test_nobody_can_move_for_the_computer() -> None:
    slow = SlowSeat()
    driver = MatchDriver(GameState.new(), {Player.RED: PersonBackend(), Player.YELLOW: slow})
    driver.start()
    await driver.settled()
    assert driver.submit(Move.drop(3)) is None
    await asyncio.wait_for(slow.asked.wait(), 5)
    assert driver.submit(Move.drop(3)) == "wait: Slowcoach is to move"
    await driver.close()
    assert slow.cancelled


async def test_an_opponent_who_leaves_forfeits_the_game() -> None:
    driver = MatchDriver(
        GameState.new(), {Player.RED: LeavingSeat(), Player.YELLOW: PersonBackend()}
    )
    events = await play_out(driver)
    assert SeatLeft(Player.RED, "Quitter forfeited") in events
    assert driver.result is not None and driver.result.winner is Player.YELLOW
    assert "forfeited" in driver.result.reason


async def test_resigning_ends_the_game_for_the_other_side_even_mid_thought() -> None:
    slow = SlowSeat()
    driver = MatchDriver(GameState.new(), {Player.RED: PersonBackend(), Player.YELLOW: slow})
    events = driver.listen()
    driver.start()
    await driver.settled()
    assert driver.submit(Move.drop(3)) is None
    await asyncio.wait_for(slow.asked.wait(), 5)  # yellow is thinking
    driver.resign(Player.RED, "You forfeited.")
    seen = [events.get_nowait() for _ in range(events.qsize())]
    assert SeatLeft(Player.RED, "You forfeited.") in seen
    assert driver.result is not None and driver.result.winner is Player.YELLOW
    driver.resign(Player.YELLOW, "too late")  # over: nothing changes
    assert driver.result.winner is Player.YELLOW
    await asyncio.sleep(0.05)  # the cancelled thought ends on the next turns of the loop
    assert slow.cancelled
    await driver.close()


async def test_an_illegal_move_from_a_seat_stops_the_match_with_the_reason() -> None:
    driver = MatchDriver(
        GameState.new(), {Player.RED: CheatingSeat(), Player.YELLOW: PersonBackend()}
    )
    events = await play_out(driver)
    failed = [e for e in events if isinstance(e, MatchFailed)]
    assert failed and "Cheat tried an illegal move: column 100 does not exist" in failed[0].problem
    assert driver.problem is not None and driver.submit(Move.drop(0)) == "the game has stopped"


async def test_two_computers_play_each_other_and_a_spectator_watches() -> None:
    watcher = Recorder()
    seats = {p: ComputerBackend(ai_level("easy"), seed=p is Player.RED) for p in Player}
    driver = MatchDriver(GameState.new(6, 5, Rules.POPOUT), seats, watchers=[watcher])
    await play_out(driver)
    await driver.close()
    assert driver.state.is_over and watcher.seen == list(driver.moves)


async def test_two_player_undo_takes_back_one_move_at_a_time() -> None:
    driver = MatchSettings().driver()
    events: list[MatchEvent] = []
    driver.subscribe(events.append)
    driver.start()
    for column in (3, 4):
        await driver.settled()
        assert driver.submit(Move.drop(column)) is None
    await driver.settled()
    assert driver.undo() and driver.moves == (Move.drop(3),)
    await driver.settled()
    assert driver.undo() and driver.moves == ()
    assert not driver.undo() and not driver.can_undo()
    assert [e.count for e in events if isinstance(e, MovesTakenBack)] == [1, 1]
    assert [e.moves for e in events if isinstance(e, MovesTakenBack)] == [(Move.drop(3),), ()]
    played = [e for e in events if isinstance(e, MovePlayed)]
    assert [e.moves for e in played] == [(Move.drop(3),), (Move.drop(3), Move.drop(4))]
    await driver.close()


async def test_each_event_carries_the_game_as_it_was_then() -> None:
    """A screen shows an event when it gets to it, maybe after the next move: the event,
    not the driver, must say what to show."""
    driver = MatchSettings(opponent="computer", ai_delay=0.0, seed=5).driver()
    events: list[MatchEvent] = []
    driver.subscribe(events.append)
    driver.start()
    for column in (3, 3, 2):
        await driver.settled()
        assert driver.submit(Move.drop(column)) is None
    await driver.settled()
    await driver.close()
    for event in (e for e in events if isinstance(e, MovePlayed)):
        assert event.moves[-1] == event.move
        assert GameState.new().play_all(event.moves) == event.after


async def test_undo_against_the_computer_returns_to_before_your_last_move() -> None:
    driver = MatchSettings(opponent="computer", ai_delay=0.0, seed=3).driver()
    driver.start()
    for _ in range(2):
        await driver.settled()
        assert driver.submit(Move.drop(3)) is None
        await asyncio.sleep(0)
    await driver.settled()
    assert len(driver.moves) == 4
    assert driver.undo()
    assert len(driver.moves) == 2 and driver.state.turn is Player.RED
    await driver.close()


async def test_undo_while_the_computer_thinks_takes_back_your_move() -> None:
    slow = SlowSeat()
    driver = MatchDriver(GameState.new(), {Player.RED: PersonBackend(), Player.YELLOW: slow})
    driver.start()
    await driver.settled()
    driver.submit(Move.drop(3))
    await asyncio.wait_for(slow.asked.wait(), 5)
    assert driver.undo()
    await driver.settled()
    assert slow.cancelled and driver.moves == () and driver.awaiting_submission()
    await driver.close()


async def test_nothing_to_undo_when_the_computer_opened() -> None:
    driver = MatchSettings(
        opponent="computer", person_colour=Player.YELLOW, ai_delay=0.0, seed=3
    ).driver()
    driver.start()
    await driver.settled()
    assert len(driver.moves) == 1
    assert not driver.can_undo() and not driver.undo()
    await driver.close()


async def test_restart_keeps_the_seats_and_empties_the_board() -> None:
    driver = MatchSettings(columns=9, rows=5).driver()
    seats = driver.seats
    driver.start()
    await driver.settled()
    driver.submit(Move.drop(0))
    driver.restart()
    await driver.settled()
    assert driver.moves == () and driver.state.columns == 9 and driver.seats is seats
    await driver.close()


async def test_the_hint_comes_from_the_driver_and_finds_the_win() -> None:
    start = GameState.new().play_all([Move.drop(c) for c in (0, 1, 0, 1, 0, 1)])
    driver = MatchDriver(start, {p: PersonBackend() for p in Player})
    result = await driver.hint(0.5)
    assert result.move == Move.drop(0) and result.outlook == "won"


async def test_the_computer_waits_its_minimum_so_a_person_sees_the_move() -> None:
    loop = asyncio.get_running_loop()
    seat = ComputerBackend(ai_level("random"), seed=1, min_delay=0.2)
    began = loop.time()
    move = await seat.choose_move(GameState.new())
    assert GameState.new().is_legal(move) and loop.time() - began >= 0.2


def test_settings_describe_themselves() -> None:
    settings = MatchSettings(
        opponent="computer", options={"level": "hard"}, columns=9, rows=5, rules=Rules.POPOUT
    )
    assert settings.describe() == "9 × 5 Pop Out\nvs computer (Hard)"


def test_settings_put_the_person_on_their_colour_and_the_opponent_on_the_other() -> None:
    seats = MatchSettings(opponent="computer", person_colour=Player.YELLOW).seats(SeatContext())
    assert isinstance(seats[Player.YELLOW], PersonBackend)
    assert isinstance(seats[Player.RED], ComputerBackend)
    server = MatchSettings(opponent="network", person_colour=Player.YELLOW).seats(SeatContext())
    assert isinstance(server[Player.RED], PersonBackend), "a server's AI always plays yellow"


@pytest.mark.parametrize("kind", list(OPPONENTS.values()), ids=list(OPPONENTS))
def test_every_registered_kind_describes_itself_and_is_made_from_its_defaults(
    kind: type[Backend],
) -> None:
    assert kind.key and kind.title and kind.summary and kind.noun
    values = kind.option_values({})
    assert kind.problems(values) == {}
    if not kind.lobby:  # people online are seated by their room, not made from options
        assert isinstance(kind.create(values, SeatContext(pool=SearchPool(1))), kind)
    for option in kind.options:
        assert option.problem("not a valid value\t") is not None
