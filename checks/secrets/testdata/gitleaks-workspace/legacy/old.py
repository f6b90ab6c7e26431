OLD_PASSWORD = "legacy-VfmnJ#XX6e@Kc7yy"
OLD_TOKEN = "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"
