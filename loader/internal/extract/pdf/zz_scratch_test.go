package pdf

import (
	"fmt"
	"os"
	"strconv"
	"testing"
)

func TestZZVec(t *testing.T) {
	f := os.Getenv("ZZF")
	if f == "" {
		t.Skip()
	}
	pn, _ := strconv.Atoi(os.Getenv("ZZP"))
	d, err := Open(f)
	if err != nil {
		t.Skip(err)
	}
	defer d.Close()
	lay, err := d.PageWith(pn, true, true)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println(lay.Width, lay.Height, len(lay.Vectors))
	for _, v := range lay.Vectors {
		fmt.Printf("%.1f %.1f %.1f %.1f %v\n", v.BBox.X0, v.BBox.Y0, v.BBox.X1, v.BBox.Y1, v.Fill)
	}
}
