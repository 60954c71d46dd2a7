"""Python client of the Bhabhi referee (gRPC API ``bhabhi.referee.v1``)."""

__version__ = "0.1.0"
