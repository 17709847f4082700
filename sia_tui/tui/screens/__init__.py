"""The debugger's screens: one per mode, plus connect, help and confirmation dialogs."""
