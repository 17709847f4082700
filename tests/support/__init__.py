"""Helpers shared by the test packages: agents, builders, wire helpers, TUI drivers."""
