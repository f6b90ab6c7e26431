module example.com/vendored

go 1.22

require (
	github.com/pkg/errors v0.9.1
	github.com/google/uuid v1.6.0
)
