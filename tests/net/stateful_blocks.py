"""The lobby's stateful test with §7's blocks and reports, as the model keeps them.

A mixin of rules for ``LobbyProtocol`` (tests/net/test_lobby_stateful.py): BLOCK and
UNBLOCK change the model's table of (blocker, blocked), BLOCKS must list it, and a
CHALLENGE must be answered by it (:1 across a block either way, as for a user not
there; else busy or sent, and the challenged user declines at once so that nothing
is left pending between steps). The machine's other rules consult the same table:
chat never reaches a blocker, quick play never pairs two apart, ROOMLIST:PLAYER and
JOIN:<room>:PLAYER keep them out of each other's waiting rooms (``Blocked``).
REPORT is answered by the model's count of each reporter's reports (10 an hour), which
the server keeps as long as its database (the machine says for how long: ``the_reports``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hypothesis import strategies as st
from hypothesis.stateful import rule

if TYPE_CHECKING:
    from tests.net.test_lobby_stateful import LobbyProtocol

NAMES = ("ann", "bob", "cid", "dee")
#: Whom a request may name: the four, one who may have an account, none, no name at all.
TARGETS = st.sampled_from([*NAMES, "eve", "nobody", "no one"])
CHALLENGE_TERMS = "4:4:classic:casual"
#: A report's reason and text: the four reasons, one that is none, and a text too long.
REPORT_FIELDS = st.sampled_from(
    [
        "chat:rude",
        "cheating:",
        "name:a:b:c",
        "other:x",
        "spam:x",
        "Chat:x",
        "chat",
        "other:" + "x" * 201,
    ]
)
REASONS = ("chat", "cheating", "name", "other")
#: How many REPORTs one may send in an hour (§7).
REPORTS_PER_HOUR = 10


def report_status(fields: str, reporter: str, whom: str, registered: set[str], sent: int) -> int:
    """REPORT's answer as §7 and the codec have it: the name's rule, the format, the account,
    the hour's count."""
    reason, colon, text = fields.partition(":")
    if whom == "no one":
        return 1  # a name no account can have
    if reason not in REASONS or not colon or len(text) > 200:
        return 2
    if whom == reporter or whom not in registered:
        return 1
    return 3 if sent >= REPORTS_PER_HOUR else 0


@dataclass
class Blocked:
    """The model's table of blocks: (blocker, blocked)."""

    pairs: set[tuple[str, str]] = field(default_factory=set)

    def blocks(self, blocker: str, blocked: str) -> bool:
        return (blocker, blocked) in self.pairs

    def between(self, one: str, other: str) -> bool:
        return self.blocks(one, other) or self.blocks(other, one)

    def hearing(self, names: list[str], sender: str) -> list[str]:
        """Those of ``names`` who hear ``sender``'s chat (not its blockers)."""
        return [name for name in names if not self.blocks(name, sender)]

    def of(self, user: str) -> set[str]:
        return {blocked for blocker, blocked in self.pairs if blocker == user}


class BlockRules:
    """Rules for BLOCK, UNBLOCK, BLOCKS and CHALLENGE against the model's ``blocked``."""

    @rule(who=st.sampled_from(NAMES), whom=TARGETS)
    def block(self: LobbyProtocol, who: str, whom: str) -> None:
        """BLOCK: :1 for oneself or no account; else :0 (again: :0, no change)."""
        status = 1 if whom == who or whom not in self.registered else 0
        self.clients[who].send(f"BLOCK:{whom}")
        self.clients[who].expect(f"BLOCK:ACKSTATUS:{status}")
        if status == 0:
            self.blocked.pairs.add((who, whom))

    @rule(who=st.sampled_from(NAMES), whom=TARGETS)
    def unblock(self: LobbyProtocol, who: str, whom: str) -> None:
        """UNBLOCK: :0 if the model has the block, :1 if not."""
        status = 0 if self.blocked.blocks(who, whom) else 1
        self.clients[who].send(f"UNBLOCK:{whom}")
        self.clients[who].expect(f"UNBLOCK:ACKSTATUS:{status}")
        self.blocked.pairs.discard((who, whom))

    def unblock_everyone(self: LobbyProtocol) -> None:
        """Lift every block the model holds (each answered :0), and check none is left."""
        for blocker, blocked in sorted(self.blocked.pairs):
            self.unblock(blocker, blocked)
        for name in NAMES:
            self.list_blocks(name)

    @rule(who=st.sampled_from(NAMES))
    def list_blocks(self: LobbyProtocol, who: str) -> None:
        """BLOCKS: exactly the model's (in any order)."""
        self.clients[who].send("BLOCKS")
        got = self.clients[who].line()
        prefix = "BLOCKS:ACKSTATUS:0:"
        assert got.startswith(prefix), got
        listed = got.removeprefix(prefix)
        assert set(listed.split(",") if listed else []) == self.blocked.of(who), got

    @rule(who=st.sampled_from(NAMES), whom=TARGETS, fields=REPORT_FIELDS)
    def report(self: LobbyProtocol, who: str, whom: str, fields: str) -> None:
        """REPORT: the model's answer; one kept counts towards the reporter's hour."""
        status = report_status(fields, who, whom, self.registered, self.reports_sent[who])
        self.clients[who].send(f"REPORT:{whom}:{fields}")
        self.clients[who].expect(f"REPORT:ACKSTATUS:{status}")
        if status == 0:
            self.reports_sent[who] += 1

    @rule(who=st.sampled_from(NAMES), whom=TARGETS)
    def challenge(self: LobbyProtocol, who: str, whom: str) -> None:
        """CHALLENGE: :1 to oneself, to one not logged in, or across a block either way;
        :2 when either is in a room; else :0, CHALLENGED to it, which declines at once."""
        client = self.clients[who]
        client.send(f"CHALLENGE:{whom}:{CHALLENGE_TERMS}")
        if whom == who or whom not in self.clients or self.blocked.between(who, whom):
            client.expect("CHALLENGE:ACKSTATUS:1")
        elif self.room_of(who) is not None or self.room_of(whom) is not None:
            client.expect("CHALLENGE:ACKSTATUS:2")
        else:
            client.expect("CHALLENGE:ACKSTATUS:0")
            self.clients[whom].expect(f"CHALLENGED:{who}:{CHALLENGE_TERMS}:-")
            self.clients[whom].send(f"DECLINE:{who}")
            self.clients[whom].expect("DECLINE:ACKSTATUS:0")
            client.expect(f"DECLINED:{whom}")
