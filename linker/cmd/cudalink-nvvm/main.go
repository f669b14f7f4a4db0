// Command cudalink-nvvm runs the CUDA toolkit's libnvvm for cudalink's
// link-time optimization (-dlto): cudalink starts it with the library's
// path and sends it the compile requests on its standard input (see
// package linker/nvvm). It loads libnvvm with dlopen, which makes it
// dynamically linked; cudalink itself is not, and so does not pay for
// loading libc and ld.so on every link. Install it next to cudalink.
package main

import (
	"fmt"
	"os"

	"github.com/cudalink/cudalink/linker/nvvm"
	"github.com/cudalink/cudalink/linker/nvvm/dl"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintf(os.Stderr, "usage: %s LIBNVVM\n(cudalink starts it for link-time optimization; it is not run by hand)\n", nvvm.HelperName)
		os.Exit(2)
	}
	os.Exit(nvvm.Serve(os.Args[1], os.Stdin, os.Stdout, dl.Open))
}
