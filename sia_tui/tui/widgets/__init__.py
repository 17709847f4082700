"""Reusable widgets of the debugger."""
