package main

import (
	"os"
	"path/filepath"
	"regexp"
)

var regexpAll = regexp.MustCompile("")

// writeFile writes text to root/name, creating its directory.
func writeFile(root, name, text string) error {
	path := filepath.Join(root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(text), 0o644)
}
