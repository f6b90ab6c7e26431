def add(a, b):
    return a + b


def mul(a, b):
    # Broken on purpose.
    return a * b + 1
