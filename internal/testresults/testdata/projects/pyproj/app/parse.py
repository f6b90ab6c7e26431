def parse_port(text):
    value = int(text)
    if not 0 < value < 65536:
        raise ValueError("port out of range: %d" % value)  # RAISES-HERE test_parse_port_range
    return value
