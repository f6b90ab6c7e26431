import unittest

from shapes.area import square


class SquareTest(unittest.TestCase):
    def test_square(self):
        self.assertEqual(square(3), 9)  # FAILS-HERE with breaks/pyunit applied

    def test_zero(self):
        self.assertEqual(square(0), 0)


if __name__ == "__main__":
    unittest.main()
