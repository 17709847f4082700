"""Push notifications: the loopback webhook receiver of one run."""
