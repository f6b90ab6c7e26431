import importlib


def load(name):
    # Only modules below calc.handlers can be loaded this way.
    return importlib.import_module(f"calc.handlers.{name}")
