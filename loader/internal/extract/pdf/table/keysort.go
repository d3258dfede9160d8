package table

import "cmp"

// keyed is a value with its sort key (sortStableByKey).
type keyed[T any] struct {
	k float64
	v T
}

// keySortRun is the length of the runs sortStableByKey sorts by insertion
// before merging them.
const keySortRun = 16

// sortKeyed sorts a stably by key, in cmp.Compare's order (NaN first):
// the order slices.SortStableFunc with cmp.Compare of the keys gives,
// since a stable sort's result does not depend on its algorithm. The keys
// are taken once by the caller and compared inline: slices.SortStableFunc's
// closure comparisons in lineUp were ~1 % of a PDF worker's instructions.
// tmp (len(a) at least) is scratch; the result is a or tmp[:len(a)].
func sortKeyed[T any](a, tmp []keyed[T]) []keyed[T] {
	n := len(a)
	b := tmp[:n]
	for lo := 0; lo < n; lo += keySortRun {
		insertionByKey(a[lo:min(lo+keySortRun, n)])
	}
	for w := keySortRun; w < n; w *= 2 {
		for lo := 0; lo < n; lo += 2 * w {
			mid, hi := min(lo+w, n), min(lo+2*w, n)
			mergeByKey(b[lo:hi], a[lo:mid], a[mid:hi])
		}
		a, b = b, a
	}
	return a
}

// applyKeyed sorts xs stably by the keys kv holds (kv[i] is xs[i] with
// its key; kv has room for 2*len(xs), the merge's), leaving out the sort
// when they are in order already (most of lineUp's lines and their
// words), and clears kv (a scratch keeps no value alive).
func applyKeyed[T any](xs []T, kv []keyed[T]) {
	n, used := len(xs), len(xs)
	if !keyedInOrder(kv[:n]) {
		for i, p := range sortKeyed(kv[:n], kv[n:2*n]) {
			xs[i] = p.v
		}
		if n > keySortRun {
			used = 2 * n // the merge's room was written
		}
	}
	clear(kv[:used])
}

// keyedInOrder: a's keys are in cmp.Compare's order already.
func keyedInOrder[T any](a []keyed[T]) bool {
	for i := 1; i < len(a); i++ {
		// >= holds for no NaN: cmp.Less decides those
		if k, p := a[i].k, a[i-1].k; !(k >= p) && cmp.Less(k, p) {
			return false
		}
	}
	return true
}

// insertionByKey sorts s stably by key.
func insertionByKey[T any](s []keyed[T]) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && cmp.Less(s[j].k, s[j-1].k); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// mergeByKey merges the sorted runs l and r into out (len(l)+len(r)),
// l's element first on equal keys.
func mergeByKey[T any](out, l, r []keyed[T]) {
	i, j, k := 0, 0, 0
	for i < len(l) && j < len(r) {
		if cmp.Less(r[j].k, l[i].k) {
			out[k] = r[j]
			j++
		} else {
			out[k] = l[i]
			i++
		}
		k++
	}
	k += copy(out[k:], l[i:])
	copy(out[k:], r[j:])
}
