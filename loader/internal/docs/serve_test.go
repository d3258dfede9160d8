package docs_test

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// startServe runs `docket docs serve --port 0` and returns its base URL.
func startServe(t *testing.T, dir string) string {
	t.Helper()
	exe, _ := os.Executable()
	cmd := exec.Command(exe, "docs", "serve", "--port", "0", "--project", dir)
	cmd.Env = append(os.Environ(), "DOCKET_TEST_AS_DOCKET=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if m := regexp.MustCompile(`on (http://127\.0\.0\.1:\d+)/`).FindStringSubmatch(sc.Text()); m != nil {
				line <- m[1]
				return
			}
		}
		close(line)
	}()
	select {
	case u, ok := <-line:
		if !ok {
			t.Fatal("docket docs serve printed no address")
		}
		return u
	case <-time.After(time.Minute):
		t.Fatal("docket docs serve did not start")
	}
	return ""
}

type apiHit struct {
	Path       string `json:"path"`
	DocID      string `json:"doc_id"`
	Page       int    `json:"page"`
	CharOffset int    `json:"char_offset"`
	CharEnd    int    `json:"char_end"`
	Text       string `json:"text"`
	Href       string `json:"href"`
}

// checkSearchAPI asks the server's search and checks that every hit links
// to an existing document page, with the cited span's page anchor on it.
func checkSearchAPI(t *testing.T, base, site string) []apiHit {
	resp, err := http.Get(base + "/api/search?q=" + url.QueryEscape("termination notice period"))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var res struct {
		Hits  []apiHit `json:"hits"`
		Error string   `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&res); err != nil || resp.StatusCode != 200 {
		t.Fatalf("search: %d %v %s", resp.StatusCode, err, res.Error)
	}
	if len(res.Hits) == 0 {
		t.Fatal("search found nothing for 'termination notice period'")
	}
	for _, h := range res.Hits {
		file, frag, _ := strings.Cut(h.Href, "#")
		b, err := os.ReadFile(filepath.Join(site, filepath.FromSlash(file)))
		if err != nil {
			t.Errorf("hit %s links to %s: %v", h.Path, h.Href, err)
			continue
		}
		if want := "hl=" + strings.Join([]string{itoa(h.Page), itoa(h.CharOffset), itoa(h.CharEnd)}, ":"); frag != want {
			t.Errorf("hit %s: fragment %q, want %q", h.Path, frag, want)
		}
		if !strings.Contains(string(b), `data-page="`+itoa(h.Page)+`"`) {
			t.Errorf("hit %s: page %d not on %s", h.Path, h.Page, file)
		}
	}
	resp2, err := http.Get(base + "/api/search?q=")
	if err == nil {
		resp2.Body.Close()
		if resp2.StatusCode != http.StatusBadRequest {
			t.Errorf("empty query: status %d", resp2.StatusCode)
		}
	}
	return res.Hits
}

func itoa(n int) string { return strconv.Itoa(n) }
