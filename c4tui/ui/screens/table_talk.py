"""An online game's table talk by keys (spec §5.6): draws, takebacks, aborts and claims.

``d`` offers a draw (or accepts the other's), ``u`` asks to take our last move back
(or agrees to the other's asking), ``n`` declines what the other offers, ``a``
aborts before both players have moved, ``c`` claims the game against an opponent
away 30 s, or idle 10 minutes without a clock. The footer offers each while it can
be done (Abort only while it is possible, Draw only after it), and a key that
cannot work now sends its request all the same: the server's refusal is said in
``words.TABLE``'s words, so the rules stay the server's.

What the server pushes (an offer, its refusal, IDLE) stands in the offer bar above
the footer in ``words.table_news``'s words until it is answered or void: a move by
the player it waits for voids it. A claim is timed here from AWAY, or IDLE, by the
server's own rule (``lobby.table_talk``); the server checks it again.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.timer import Timer

from c4tui.client import words
from c4tui.client.outcomes import TableOutcome
from c4tui.client.room_game import RoomGame
from c4tui.client.table_talk import RULE_WAITS
from c4tui.engine import Player
from c4tui.match.events import GameOver, MovePlayed, MovesTakenBack
from c4tui.net.errors import NetworkError, ProtocolError
from c4tui.protocols import lobby as wire
from c4tui.protocols.table_talk import (
    AWAY_BEFORE_CLAIM,
    BOTH_MOVED,
    IDLE_BEFORE_CLAIM,
    IDLE_WARNING,
    DrawDeclined,
    DrawOffered,
    Idle,
    TableMessage,
    TakebackDeclined,
    TakebackOffered,
)
from c4tui.ui.screens.game import GameScreen
from c4tui.ui.screens.match_view import MatchView
from c4tui.ui.widgets.offer_bar import OfferBar

TABLE_BINDINGS: list[BindingType] = [
    Binding("a", "abort", "Abort", id="online.abort"),
    Binding("u", "take_back", "Takeback", id="online.take_back"),
    Binding("d", "offer_draw", "Draw", id="online.draw"),
    # The offer bar names these keys when they can work (no room in the footer).
    Binding("n", "decline", "Decline", show=False, id="online.decline"),
    Binding("c", "claim", "Claim", show=False, id="online.claim"),
    # Reached only while the key above is dimmed or hidden: the server says why not.
    Binding("a", "ask('ABORT')", show=False),
    Binding("u", "ask('TAKEBACK')", show=False),
    Binding("d", "ask('DRAW')", show=False),
    Binding("c", "ask('CLAIM')", show=False),
]
#: The table's actions (check_action decides them here).
TABLE_ACTIONS = frozenset({"abort", "take_back", "offer_draw", "decline", "claim", "ask"})


@dataclass(frozen=True)
class Standing:
    """A line of the offer bar, shown until a move by one of ``void_by`` (or an answer)."""

    text: str
    void_by: frozenset[Player] = frozenset()


#: Where each pushed message stands in the bar: the other's offers, ours declined, IDLE.
_PLACE = {
    DrawOffered: "draw",
    TakebackOffered: "takeback",
    DrawDeclined: "our-draw",
    TakebackDeclined: "our-takeback",
    Idle: "idle",
}
#: How the offered player answers each offer, said after it.
_ANSWERS = {"draw": "d: accept · n: decline", "takeback": "u: agree · n: refuse"}
#: The decline of each offer, by its place in the bar.
_DECLINES = {"draw": "DECLINEDRAW", "takeback": "DECLINETAKEBACK"}


def claim_line(user: str, why: str) -> str:
    """Said once ``user`` may be claimed against: away 30 s, or idle 10 minutes."""
    if why == "away":
        return f"{user} has been away {AWAY_BEFORE_CLAIM:g} s: c claims the win"
    return f"{user} has not moved for {IDLE_BEFORE_CLAIM / 60:g} minutes: c claims the win"


class TableTalkScreen(GameScreen):
    """The game screen with the table's keys and its offer bar (the online game's base).

    The online game sets ``room_game`` and ``mine`` and calls ``_follow_the_table``
    before the room's first push is read (a REJOIN's AWAY comes at once).
    """

    BINDINGS = TABLE_BINDINGS
    room_game: RoomGame
    mine: Player | None
    coming_back = False
    #: How long after AWAY (or IDLE) the claim key lights up.
    claim_waits = RULE_WAITS
    _standing: dict[str, Standing]
    _offered: set[str]  # our own DRAW or TAKEBACK, standing
    _claims: dict[str, Timer]  # "away", "idle": until a claim is possible
    _claimable: str | None = None  # why a claim is possible now
    _taken_back_at: int | None = None  # moves after a takeback, until the next move

    def compose(self) -> ComposeResult:
        """The game screen, and the offer bar between the board and the footer."""
        yield from super().compose()
        yield OfferBar(id="offer-bar")  # in the flow: the docked footer stays below it

    def _follow_the_table(self, game: RoomGame) -> None:
        """Hear ``game``'s table talk, and its AWAY and BACK (claims), from now on."""
        self._standing, self._offered, self._claims = {}, set(), {}
        game.on_table_talk = self._heard_at_the_table
        shown = game.on_away_or_back

        def away_or_back(news: wire.Away | wire.Back) -> None:
            shown(news)
            self._claim_after_away(news)

        game.on_away_or_back = away_or_back

    def on_mount(self) -> None:
        """What stood before the widgets were there (once the game screen has mounted)."""
        self.call_after_refresh(self._show_table)

    # ----- what the server pushes ------------------------------------------------------

    def _heard_at_the_table(self, message: TableMessage) -> None:
        """An offer, its refusal or IDLE: in the bar until answered or void."""
        place, mover = _PLACE[type(message)], self.room_game.colour_of(message.user)
        if mover is None:
            return  # about nobody playing here
        text = words.table_news(message)
        if isinstance(message, Idle):
            void_by = frozenset({mover})
            if mover is self.mine:
                other = self.room_game.names[mover.other]
                text = (
                    f"You have not moved for {IDLE_WARNING / 60:g} minutes: "
                    f"at {IDLE_BEFORE_CLAIM / 60:g} {other} may claim the game."
                )
            elif self.mine is not None and self.room_game.clock is None:
                self._claim_after("idle", self.claim_waits.idle, message.user)
        else:
            void_by = frozenset({mover.other})
            if self.mine is not None and place in _ANSWERS:
                text = f"{text}  {_ANSWERS[place]}"
            if isinstance(message, DrawDeclined | TakebackDeclined):  # news till the next move
                self._offered.discard("DRAW" if place == "our-draw" else "TAKEBACK")
                void_by = frozenset(Player)
        self._standing[place] = Standing(text, void_by)
        self._show_table()

    def _claim_after_away(self, news: wire.Away | wire.Back) -> None:
        """The opponent away: a claim once the server's wait is over (unless BACK comes first)."""
        if self.mine is None or news.user != self.room_game.names[self.mine.other]:
            return
        if isinstance(news, wire.Back):
            self._no_claim("away")
        elif news.seconds > AWAY_BEFORE_CLAIM:  # else the grace ends the game first
            self._claim_after("away", self.claim_waits.away, news.user)

    def _claim_after(self, why: str, seconds: float, user: str) -> None:
        self._no_claim(why)
        self._claims[why] = self.set_timer(seconds, partial(self._may_claim, why, user))

    def _may_claim(self, why: str, user: str) -> None:
        """The wait is over: the claim key lights up, and the bar says so."""
        self._claims.pop(why, None)
        if self.driver.is_over:
            return
        self._claimable = why
        self._standing["claim"] = Standing(claim_line(user, why))
        self._show_table()

    def _no_claim(self, why: str) -> None:
        """No claim for ``why`` any more (back, or moved), nor one on its way."""
        timer = self._claims.pop(why, None)
        if timer is not None:
            timer.stop()
        if self._claimable == why:
            self._claimable = None
            self._standing.pop("claim", None)

    # ----- what the game does to what stands -------------------------------------------

    def on_match_view_match_news(self, message: MatchView.MatchNews) -> None:
        """A move voids what waited for it; a takeback or the end, everything."""
        match message.event:
            case MovePlayed(player=player):
                self._taken_back_at = None
                self._voided_by(player)
            case MovesTakenBack(moves=moves):
                self._taken_back_at = len(moves)
                self._clear_the_table()
            case GameOver():  # nothing stands any more, a claim least of all
                for why in [*self._claims, self._claimable]:
                    if why is not None:
                        self._no_claim(why)
                self._clear_the_table()
            case _:
                return
        self._show_table()

    def _voided_by(self, player: Player) -> None:
        for place, standing in list(self._standing.items()):
            if player in standing.void_by:
                del self._standing[place]
        if self.mine is not None and player is self.mine.other:
            self._no_claim("idle")  # the idle player moved

    def _clear_the_table(self) -> None:
        """No offer stands any more (the server forgets them after a takeback too)."""
        claim = self._standing.get("claim")
        self._standing = {} if claim is None else {"claim": claim}
        self._offered.clear()
        self._no_claim("idle")

    def _show_table(self) -> None:
        """The bar as things stand, and the keys that can answer them."""
        if not self._widgets_ready:
            return  # on mounting
        self.query_one(OfferBar).show([standing.text for standing in self._standing.values()])
        self.refresh_bindings()

    # ----- the keys ---------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:  # noqa: PLR0911 (a rule an action)
        """Each table key while it can work (dimmed or left out otherwise: ``ask`` then)."""
        if action not in TABLE_ACTIONS:
            return super().check_action(action, parameters)
        driver = self.driver
        if not self._widgets_ready or self.mine is None or driver.is_over or self.coming_back:
            return False
        both_moved = len(driver.moves) >= BOTH_MOVED
        if action == "abort":
            return not both_moved
        if action == "offer_draw":
            return both_moved and ("DRAW" not in self._offered or None)
        if action == "take_back":
            return self._may_take_back() or None
        if action == "decline":
            return any(place in self._standing for place in _DECLINES) or None
        if action == "claim":
            return self._claimable is not None or None
        return True  # ask: the server says why not

    def _may_take_back(self) -> bool:
        """The other asks us, or the last move is ours, not yet asked for, nor just taken back."""
        if "takeback" in self._standing:
            return True
        moves = self.driver.moves
        ours = bool(moves) and self.driver.state.turn is not self.mine
        return ours and "TAKEBACK" not in self._offered and self._taken_back_at != len(moves)

    def action_offer_draw(self) -> None:
        """Offer a draw, or accept the other's offer."""
        self._ask("DRAW")

    def action_take_back(self) -> None:
        """Ask to take our last move back, or agree to the other's asking."""
        self._ask("TAKEBACK")

    def action_decline(self) -> None:
        """Decline what the other offers (a draw, a takeback, or both)."""
        for place, decline in _DECLINES.items():
            if place in self._standing:
                self._ask(decline)

    def action_abort(self) -> None:
        """Call the game off (before both players have moved)."""
        self._ask("ABORT")

    def action_claim(self) -> None:
        """Claim the game against an opponent away, or idle."""
        self._ask("CLAIM")

    def action_ask(self, command: str) -> None:
        """A table key that cannot work now: sent all the same, for the server's reason."""
        self._ask(command)

    @work(group="table", exit_on_error=False)
    async def _ask(self, command: str) -> None:
        """Send ``command``; what is done shows in the bar, a refusal in the table's words."""
        try:
            outcome = await self.room_game.link.table_request(command)
        except (NetworkError, ProtocolError, TimeoutError):
            return  # the game screen says what became of the connection
        if outcome is TableOutcome.DONE:
            self._done(command)
            return
        refused = words.TABLE[command].said(outcome, words.Voice.APP)
        self.notify(refused, severity="warning", markup=False)

    def _done(self, command: str) -> None:
        """``command`` was done: an offer of ours now stands, or the other's was answered."""
        if self.mine is None or self.driver.is_over:
            return
        other = self.room_game.names[self.mine.other]
        if command == "DRAW" and "draw" not in self._standing:
            self._offered.add(command)
            self._standing["our-draw"] = Standing(f"You offered {other} a draw.")
        elif command == "TAKEBACK" and "takeback" not in self._standing:
            self._offered.add(command)
            asked = f"You asked {other} to let you take your last move back."
            self._standing["our-takeback"] = Standing(asked)
        elif command in ("DECLINEDRAW", "DECLINETAKEBACK"):
            self._standing.pop("draw" if command == "DECLINEDRAW" else "takeback", None)
        self._show_table()
