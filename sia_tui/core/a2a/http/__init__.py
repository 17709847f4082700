"""The HTTP bindings (JSON-RPC and HTTP+JSON, A2A 1.0 and 0.3): codecs, SSE and the
recorded HTTP layer every exchange goes through."""
