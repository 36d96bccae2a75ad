"""Wire protocols: pure codecs and per-connection state machines (no sockets, no Textual).

The server and the client backends feed them lines and send what they answer, so
the same rules govern both ends and the tests can run them without a network.
"""
