"""Several ``c4tui serve`` nodes, one lobby: PostgreSQL keeps it, Redis joins the nodes.

One node at a time leads the lobby: it holds PostgreSQL's advisory lock on the
store's own connection, and every room lives there. The other nodes accept clients
like any server and forward each lobby client's lines to the leader through Redis
(``bus.py``), which serves them with the same code as its own clients
(``remote.py``); what it answers comes back the same way (``forward.py``). When the
leader dies its database session ends, the lock is free, and another node takes
the lobby over from the database (``node.py``): its games come back with the
players away, and the grace period (§5.1) covers the gap while they reconnect.
"""
