"""The gRPC binding: A2A 1.0 messages described by hand, grpc.aio loaded on first use,
statuses read as A2A errors."""
