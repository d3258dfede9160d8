package embed

import (
	"errors"
	"testing"
)

// TestCheckNamesKeys: each problem Check finds is a *KeyError naming its
// project.yaml key, so project's validation places it without reading the
// message's words.
func TestCheckNamesKeys(t *testing.T) {
	err := Config{Provider: ProviderOpenAI, BaseURL: "ftp://x", BatchSize: 0, Timeout: 1}.Check()
	var keys []string
	for _, one := range err.(interface{ Unwrap() []error }).Unwrap() {
		var ke *KeyError
		if !errors.As(one, &ke) {
			t.Fatalf("%v is no *KeyError", one)
		}
		keys = append(keys, ke.Key)
	}
	want := []string{"embedding.model", "embedding.base_url", "embedding.batch_size"}
	if len(keys) != len(want) {
		t.Fatalf("keys %v, want %v", keys, want)
	}
	for i := range want {
		if keys[i] != want[i] {
			t.Errorf("keys %v, want %v", keys, want)
		}
	}
}
