from .ops import add


def fmt_sum(a, b):
    return f"{a} + {b} = {add(a, b)}"
