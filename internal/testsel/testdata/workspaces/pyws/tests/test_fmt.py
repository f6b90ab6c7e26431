from calc import fmt


def test_fmt_sum():
    assert fmt.fmt_sum(1, 2) == "1 + 2 = 3"
