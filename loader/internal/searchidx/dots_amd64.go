package searchidx

import "golang.org/x/sys/cpu"

// The bound pass of a vector search reads (query dimensions) × (vectors)
// int8 codes, and Go compiles the loop to one scalar multiply-add per
// code; with AVX2 eight codes go at a time. Hand-written because no
// maintained Go library has an int8 × float32 multiply-add (gonum's
// assembly takes float32 vectors, which would read four times the
// bytes). The kernel multiplies and adds separately (no fused
// multiply-add), in the Go loop's order, so its sums are bit for bit the
// Go loop's (TestDotsBlocked).
var useAVX2 = cpu.X86.HasAVX2

//go:noescape
func addCodes4AVX2(acc *float32, c0, c1, c2, c3 *int8, n int, q *[4]float32)

//go:noescape
func addCodes1AVX2(acc *float32, c0 *int8, n int, q0 float32)

func addCodes4(acc []float32, c0, c1, c2, c3 []int8, q0, q1, q2, q3 float32) {
	n := len(acc) &^ 7
	if useAVX2 && n > 0 {
		c0, c1, c2, c3 = c0[:len(acc)], c1[:len(acc)], c2[:len(acc)], c3[:len(acc)]
		q := [4]float32{q0, q1, q2, q3}
		addCodes4AVX2(&acc[0], &c0[0], &c1[0], &c2[0], &c3[0], n, &q)
		acc, c0, c1, c2, c3 = acc[n:], c0[n:], c1[n:], c2[n:], c3[n:]
	}
	addCodes4Go(acc, c0, c1, c2, c3, q0, q1, q2, q3)
}

func addCodes1(acc []float32, c0 []int8, q0 float32) {
	n := len(acc) &^ 7
	if useAVX2 && n > 0 {
		c0 = c0[:len(acc)]
		addCodes1AVX2(&acc[0], &c0[0], n, q0)
		acc, c0 = acc[n:], c0[n:]
	}
	addCodes1Go(acc, c0, q0)
}
