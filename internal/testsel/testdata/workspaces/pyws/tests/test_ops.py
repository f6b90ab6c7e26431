from calc.ops import add, mul


def test_add():
    assert add(2, 3) == 5


def test_mul():
    assert mul(2, 3) == 6  # FAILS-HERE with breaks/pyws applied


class TestOps:
    def test_add_zero(self):
        assert add(0, 7) == 7
