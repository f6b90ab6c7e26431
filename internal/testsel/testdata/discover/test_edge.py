import unittest

import pytest


def test_plain():
    pass  # CURSOR-PY-PLAIN


@pytest.mark.parametrize("x", [1, 2])
def test_decorated(x):
    assert x


async def test_async():
    pass


def helper_not_a_test():
    pass


class TestGroup:
    def test_one(self):
        pass  # CURSOR-PY-METHOD

    def helper(self):
        pass

    class TestNested:
        def test_inner(self):
            pass


class TestWithInit:
    def __init__(self):
        pass

    def test_never_collected(self):
        pass


class Checks(unittest.TestCase):
    def test_equal(self):
        self.assertEqual(1, 1)

    def setUp(self):
        pass


class Helper:
    def test_not_collected(self):
        pass
