"""A tiny Kaggle ConnectX agent: the free column nearest the centre."""


def distance_from_centre(column, columns):
    return abs(column - (columns - 1) / 2)


def agent(observation, configuration):
    """The last function in the file: Kaggle's agent."""
    columns = configuration.columns
    free = [c for c in range(columns) if observation["board"][c] == 0]
    print("thinking", observation.mark)  # an agent's print must not disturb the protocol
    return min(free, key=lambda c: distance_from_centre(c, columns))
