package report_test

import (
	"fmt"
	"testing"

	"example.com/gows/geom"
	"example.com/gows/report"
)

func TestTitleWithArea(t *testing.T) {
	got := report.Title(fmt.Sprintf("area %d", geom.Area(2, 2)))
	if got != "AREA 4" {
		t.Errorf("got %q", got)
	}
}
