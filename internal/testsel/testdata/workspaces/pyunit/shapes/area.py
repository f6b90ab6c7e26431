def square(side):
    return side * side
