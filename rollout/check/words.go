package check

import "strings"

// lines returns the lines of err's message (errors.Join puts one error on
// each), none for nil.
func lines(err error) []string {
	if err == nil {
		return nil
	}
	return strings.Split(strings.TrimRight(err.Error(), "\n"), "\n")
}
