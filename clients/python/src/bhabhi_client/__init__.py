"""Python client of the Bhabhi referee (gRPC API ``bhabhi.referee.v1``)."""

from bhabhi_client.fairdeal import DealCheck, FairDealError, verify_deal

__version__ = "0.1.0"

__all__ = ["DealCheck", "FairDealError", "__version__", "verify_deal"]
