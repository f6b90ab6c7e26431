def square(side):
    # Broken on purpose: wrong for odd sides.
    return side * side + side % 2
