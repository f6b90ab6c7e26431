import json


def load(data):
    note = "😀"; return eval(data)
