"""Content builders: agent data turned into Textual Content for screens to show."""
