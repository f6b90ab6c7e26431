# Suppression comments are applied by checks.Engine.
token_a = "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"  # aisbx:ignore
# aisbx:ignore[github-pat]
token_b = "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"
token_c = "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"  # aisbx:ignore[generic-secret]
token_d = "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"  # gitleaks:allow
token_e = "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"
# aisbx:ignore[npm-token]
token_f = "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"
