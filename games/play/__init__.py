"""Live play: the service that appends moves, the clock, actions, rate limits."""
