module example.com/fixture

go 1.19

toolchain go1.19.0

require (
	golang.org/x/net v0.0.0-20210520170846-37e1c6afe023
	golang.org/x/text v0.3.6
)
