"""Property-based tests: random whole games checked after every step."""
