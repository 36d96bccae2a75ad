"""Connections: buffered reads with peeking, framing, time limits; shared by server and clients."""
