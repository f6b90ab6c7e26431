import unittest

from app.parse import parse_port


class PortTest(unittest.TestCase):
    def test_ok(self):
        self.assertEqual(parse_port("443"), 443)

    def test_wrong(self):
        self.assertEqual(parse_port("8080"), 80)  # FAILS-HERE PortTest::test_wrong

    def test_raises(self):
        parse_port("0")

    @unittest.skip("later")
    def test_later(self):
        pass

    def test_subtests(self):
        for port in ("1", "2"):
            with self.subTest(port=port):
                self.assertEqual(parse_port(port), 1)  # FAILS-HERE PortTest::test_subtests

    @unittest.expectedFailure
    def test_expected(self):
        self.assertEqual(1, 2)
