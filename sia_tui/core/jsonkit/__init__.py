"""JSON text and canonical bytes: the strict loader for untrusted text, one walk of a
value's shape, where a problem sits, RFC 6901 pointers, RFC 8785 bytes and digests."""
