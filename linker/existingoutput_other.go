//go:build !unix

package linker

import (
	"errors"
	"os"
)

// writableIfExists says why the existing file at path could not be opened
// for writing, or nil when it could be or does not exist; and what the
// output replacing it keeps of it (keepMode, publish). Opening it writes
// nothing (no O_TRUNC). existingoutput_unix.go has the system calls nvlink's
// platform makes; this is the same with package os.
func writableIfExists(path string) (existingOutput, error) {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return existingOutput{}, nil
		}
		return existingOutput{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return existingOutput{exists: err == nil}, nil
	}
	return existingOutput{exists: true, regular: true, perm: st.Mode().Perm()}, nil
}
