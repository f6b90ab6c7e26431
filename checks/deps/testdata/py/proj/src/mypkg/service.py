"""A typical module whose imports all resolve."""
from __future__ import annotations

import json
import logging
import os
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import requests
import yaml
from dateutil import parser as dateparser

from mypkg import util
from .util import X

log = logging.getLogger(__name__)


@dataclass
class Config:
    url: str
    timeout: float = 5.0

    @classmethod
    def load(cls, path: Path) -> "Config":
        data: dict[str, Any] = yaml.safe_load(path.read_text())
        return cls(url=data["url"], timeout=float(data.get("timeout", 5)))


def fetch(cfg: Config) -> dict[str, Any]:
    resp = requests.get(cfg.url, timeout=cfg.timeout)
    resp.raise_for_status()
    body = resp.json()
    body["fetched"] = datetime.now(timezone.utc).isoformat()
    body["since"] = dateparser.parse(body.get("since", "2024-01-01")).isoformat()
    log.info("fetched %s (%d keys, util %s %s)", cfg.url, len(body), util.X, X)
    return body


def main() -> None:
    cfg = Config.load(Path(os.environ.get("CONFIG", "config.yaml")))
    print(json.dumps(fetch(cfg), indent=2))
