import os, sys

token = os.environ["GITHUB_TOKEN"]
