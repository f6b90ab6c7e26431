"""Client settings."""
from __future__ import annotations

import os
import json

api_key = os.environ["API_KEY"]
raw_token = os.environ["RAW_TOKEN"].encode()
DATABASE_URL = os.environ["DATABASE_URL"]
print(json.dumps({"k": api_key}))
