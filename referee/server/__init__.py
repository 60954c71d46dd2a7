"""The gRPC referee: tables, seats, validated moves, durable events."""
