package compiler

import "sort"

func (m *Manifest) names() []string {
	out := make([]string, 0, len(m.byName))
	for n := range m.byName {
		if _, v := splitRefKey(n); v == "" {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// suggest returns the closest name within edit distance 2.
func suggest(name string, names []string) string {
	best, bestD := "", 3
	for _, c := range names {
		if d := editDistance(name, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev = cur
	}
	return prev[len(b)]
}
