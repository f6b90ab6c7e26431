import unittest

from shapes import names


class NamesTest(unittest.TestCase):
    def test_title(self):
        self.assertEqual(names.title("ada lovelace"), "Ada Lovelace")

    @unittest.skipIf(True, "always skipped")
    def test_never(self):
        pass
