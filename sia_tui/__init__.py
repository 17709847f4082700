"""sia-tui: a terminal debugger for schema-governed A2A skills."""

__version__ = "0.1.0"
