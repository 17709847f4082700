"""Credentials: what a skill requires and sia-tui sends (the plan), OAuth2 client
credentials, and the authenticator that adds them to requests."""
