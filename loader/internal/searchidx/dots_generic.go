//go:build !amd64

package searchidx

const useAVX2 = false

func addCodes4(acc []float32, c0, c1, c2, c3 []int8, q0, q1, q2, q3 float32) {
	addCodes4Go(acc, c0, c1, c2, c3, q0, q1, q2, q3)
}

func addCodes1(acc []float32, c0 []int8, q0 float32) { addCodes1Go(acc, c0, q0) }
