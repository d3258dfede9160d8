package pdf

import (
	"fmt"
	"testing"
)

func TestZZVec(t *testing.T) {
	d, err := Open("/work/shared/corpus/tables/icdar2013-eu/eu-001.pdf")
	if err != nil {
		t.Skip(err)
	}
	defer d.Close()
	lay, err := d.PageWith(1, true, true)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println(lay.Width, lay.Height, len(lay.Vectors))
	for i, v := range lay.Vectors {
		if i < 40 {
			fmt.Printf("%.1f %.1f %.1f %.1f %v\n", v.BBox.X0, v.BBox.Y0, v.BBox.X1, v.BBox.Y1, v.Fill)
		}
	}
	l2, _ := d.Page(1, false)
	fmt.Println(len(l2.Blocks), len(lay.Blocks))
}
