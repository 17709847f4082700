"""The headless protocol core: no textual, rich or pygments imports allowed here."""
