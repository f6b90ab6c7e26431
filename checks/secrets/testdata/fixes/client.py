"""Client settings."""
from __future__ import annotations

import json

api_key = "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"
raw_token = b"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"
DATABASE_URL = "postgres://app:lspCrc6rgEfo5nELbt@db/app"
print(json.dumps({"k": api_key}))
