"""Sockets: line transport over asyncio streams, shared by the server and the clients."""
