GITHUB_TOKEN = "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"
