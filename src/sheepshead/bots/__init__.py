"""Computer players: each decides from its seat's view alone."""
