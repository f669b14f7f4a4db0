package difftest

// The -dlto cases run libnvvm in this process: package nvvm's default, the
// helper cudalink-nvvm next to the program, is not next to a test binary.
// (linker/nvvm's own tests cover the helper's protocol.)
import _ "github.com/cudalink/cudalink/linker/nvvm/dl"
