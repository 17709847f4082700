"""Secrets: redaction by construction, the forms a secret hides in, and locations
without credentials."""
