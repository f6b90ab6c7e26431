"""calc: small arithmetic helpers."""
