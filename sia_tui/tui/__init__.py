"""The Textual debugger: screens over the headless engine (imported lazily by the CLI)."""
