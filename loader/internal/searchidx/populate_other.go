//go:build !linux

package searchidx

func (s *segment) populate([]byte) {}
