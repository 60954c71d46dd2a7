"""``python -m bhabhi_client``: the ``bhabhi-client`` command without an installed script."""

import sys

from bhabhi_client.commands import main

sys.exit(main())
