"""``c4tui serve --ssh-port``: the whole app over ssh, one process a visitor, keys as accounts."""
