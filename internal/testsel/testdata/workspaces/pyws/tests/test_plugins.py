from calc import plugins


def test_double():
    assert plugins.load("double").run(4) == 8
