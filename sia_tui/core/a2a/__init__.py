"""A2A 1.0 client (with 0.3 tolerance) on httpx: cards, codecs, SSE, recorded exchanges."""
