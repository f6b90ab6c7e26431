def run(x):
    return 2 * x
