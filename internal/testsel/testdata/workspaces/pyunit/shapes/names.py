def title(name):
    return name.title()
