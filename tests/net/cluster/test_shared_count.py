"""§7's registration count shared by a cluster's nodes, on a real Redis (``CountedOnTheBus``).

Two nodes are two ``Bus`` connections to one lobby: what one counts, the other sees;
a parallel flood from both gets exactly the limit through; and a node that loses Redis
goes on counting alone instead of refusing or letting everyone through.
"""

from __future__ import annotations

import asyncio
import itertools
import time

from c4tui.server.cluster.bus import Bus
from c4tui.server.cluster.shared_count import CountedOnTheBus

_lobbies = itertools.count(1)


async def _two_nodes_counts(url: str, limit: int) -> tuple[CountedOnTheBus, CountedOnTheBus]:
    lobby = f"count-{next(_lobbies)}-{time.time_ns()}"
    counts = []
    for _ in range(2):
        bus = Bus(url)
        bus.serve(lobby)
        await bus.open()
        counts.append(CountedOnTheBus(bus, "registrations", limit, 3600, time.monotonic))
    return counts[0], counts[1]


async def test_what_one_node_counts_the_other_sees(redis_url: str) -> None:
    a, b = await _two_nodes_counts(redis_url, 3)
    assert [await a.take("203.0.113.7"), await b.take("203.0.113.7")] == [True, True]
    assert await a.take("203.0.113.7")
    assert not await b.take("203.0.113.7")  # the third was a's: the address is over
    assert not await a.take("203.0.113.7")  # a refusal is not counted, and holds
    assert await b.take("198.51.100.1")  # another address has its own


async def test_a_flood_on_both_nodes_at_once_gets_exactly_the_limit_through(
    redis_url: str,
) -> None:
    a, b = await _two_nodes_counts(redis_url, 5)
    flood = [node.take("2001:db8:1:2::/64") for _ in range(40) for node in (a, b)]
    assert sum(await asyncio.gather(*flood)) == 5


async def test_no_limit_counts_nothing_and_asks_no_one(redis_url: str) -> None:
    a, _ = await _two_nodes_counts(redis_url, 0)
    await a._bus.close()  # nobody to ask: it must not need to
    assert all([await a.take("203.0.113.7") for _ in range(50)])


async def test_a_node_that_lost_redis_counts_alone_meanwhile(redis_url: str) -> None:
    a, b = await _two_nodes_counts(redis_url, 2)
    assert await b.take("203.0.113.7")
    await a._bus.close()  # Redis is away for a
    assert [await a.take("203.0.113.7") for _ in range(3)] == [True, True, False]
    await a._bus.open()  # back: the shared count again, which never heard of a's own two
    assert await a.take("203.0.113.7")  # Redis holds b's one only: room for one more
    assert not await b.take("203.0.113.7")
