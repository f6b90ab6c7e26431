import os, sys

token = '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'
