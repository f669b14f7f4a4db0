/*
 * cudalink-ptxc: the CUDA toolkit's PTX compiler (libnvptxcompiler_static.a,
 * the ptxas nvlink has built in) in a single-threaded process that serves
 * cudalink's --ptx-compiler with the protocol of cudalink-nvvm (package
 * linker/nvvm, helper.go), on its standard input and output. It is not part
 * of cudalink, which stays pure Go: scripts/setup-ptxcompiler.sh builds it
 * with the toolkit's archive linked in, on the machine, and it is never
 * committed built.
 *
 * Why a C program and not the library loaded in cudalink-nvvm: in a
 * multi-threaded process (the Go runtime's) glibc's malloc takes its locked
 * paths and the runtime adds its pages; compiled here, tests/bench's PTX
 * files cost what they cost in nvlink (docs/benchmarks.md, perf9p).
 *
 * Protocol (every integer little-endian; a string or byte slice is its
 * uint64 length and its bytes): this program answers at start with status
 * byte 0 and an empty message; then, for each request (option count
 * uint64, options; module count uint64, then name and PTX per module, one
 * module), it answers kind byte (0 compiled, 2 compile error, 3 other
 * error), the cubin, the log (the information log, then the error log),
 * module name "", status int64 (the nvPTXCompileResult), message. It exits
 * 0 at the end of its input, 1 on a broken pipe or request.
 */
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct nvPTXCompiler *nvPTXCompilerHandle;
int nvPTXCompilerCreate(nvPTXCompilerHandle *, size_t, const char *);
int nvPTXCompilerDestroy(nvPTXCompilerHandle *);
int nvPTXCompilerCompile(nvPTXCompilerHandle, int, const char *const *);
int nvPTXCompilerGetCompiledProgramSize(nvPTXCompilerHandle, size_t *);
int nvPTXCompilerGetCompiledProgram(nvPTXCompilerHandle, void *);
int nvPTXCompilerGetErrorLogSize(nvPTXCompilerHandle, size_t *);
int nvPTXCompilerGetErrorLog(nvPTXCompilerHandle, char *);
int nvPTXCompilerGetInfoLogSize(nvPTXCompilerHandle, size_t *);
int nvPTXCompilerGetInfoLog(nvPTXCompilerHandle, char *);

enum { replyOK = 0, replyCompileError = 2, replyError = 3 };

/* The largest request part read: a length past it is a broken request,
 * not an allocation. */
#define maxLen ((uint64_t)1 << 34)

static int readFull(void *buf, size_t n) { return n == 0 || fread(buf, 1, n, stdin) == n; }

/* readUint reads a uint64; 0 at the end of the input. */
static int readUint(uint64_t *v) {
  unsigned char b[8];
  if (!readFull(b, 8)) return 0;
  *v = 0;
  for (int i = 7; i >= 0; i--) *v = *v << 8 | b[i];
  return 1;
}

/* readBytes reads a length and that many bytes, NUL-terminated. */
static char *readBytes(uint64_t *n) {
  if (!readUint(n) || *n > maxLen) return NULL;
  char *b = malloc(*n + 1);
  if (b == NULL) return NULL;
  if (!readFull(b, *n)) {
    free(b);
    return NULL;
  }
  b[*n] = 0;
  return b;
}

static void writeUint(uint64_t v) {
  unsigned char b[8];
  for (int i = 0; i < 8; i++) b[i] = (unsigned char)(v >> (8 * i));
  fwrite(b, 1, 8, stdout);
}

static void writeBytes(const void *b, uint64_t n) {
  writeUint(n);
  if (n > 0) fwrite(b, 1, n, stdout);
}

static void writeString(const char *s) { writeBytes(s, strlen(s)); }

static void reply(int kind, const void *cubin, size_t cubinLen, const char *log, int64_t status, const char *msg) {
  fputc(kind, stdout);
  writeBytes(cubin, cubinLen);
  writeString(log);
  writeString("");
  writeUint((uint64_t)status);
  writeString(msg);
}

/* logs returns the information log, then the error log, as one string. */
static char *logs(nvPTXCompilerHandle c) {
  size_t info = 0, err = 0;
  if (nvPTXCompilerGetInfoLogSize(c, &info) != 0) info = 0;
  if (nvPTXCompilerGetErrorLogSize(c, &err) != 0) err = 0;
  char *s = calloc(1, info + err + 2);
  if (s == NULL) return NULL;
  if (info > 1 && nvPTXCompilerGetInfoLog(c, s) != 0) s[0] = 0;
  size_t n = strlen(s);
  if (err > 1 && nvPTXCompilerGetErrorLog(c, s + n) != 0) s[n] = 0;
  return s;
}

/* compile answers one request: options opts, the PTX src of n bytes. */
static void compile(const char *const *opts, int nopts, const char *src, size_t n) {
  nvPTXCompilerHandle c = NULL;
  int r = nvPTXCompilerCreate(&c, n, src);
  if (r != 0) {
    char msg[64];
    snprintf(msg, sizeof msg, "nvPTXCompilerCreate: nvPTXCompileResult %d", r);
    reply(replyError, NULL, 0, "", 0, msg);
    return;
  }
  r = nvPTXCompilerCompile(c, nopts, opts);
  char *log = logs(c);
  if (r != 0) {
    reply(replyCompileError, NULL, 0, log ? log : "", r, "");
  } else {
    size_t size = 0;
    void *cubin = NULL;
    if (nvPTXCompilerGetCompiledProgramSize(c, &size) != 0 || size == 0 || (cubin = malloc(size)) == NULL ||
        nvPTXCompilerGetCompiledProgram(c, cubin) != 0) {
      reply(replyError, NULL, 0, log ? log : "", 0, "nvPTXCompilerGetCompiledProgram failed");
    } else {
      reply(replyOK, cubin, size, log ? log : "", 0, "");
    }
    free(cubin);
  }
  free(log);
  nvPTXCompilerDestroy(&c);
}

int main(void) {
  /* glibc's malloc as nvlink's compiles would want it: a block freed at
   * the end of one compile serves the next instead of going back to the
   * kernel (an unmapped block, or the heap's top trimmed) and being
   * faulted in again, page by page. The default mmap threshold starts at
   * 128 KiB and rises only as such blocks are freed, and the heap's top
   * is trimmed past 128 KiB: 4,150 page faults for tests/bench's 10 PTX
   * files, 3,190 so (docs/benchmarks.md, perf17). 32 MiB is the largest
   * threshold mallopt takes; the trim threshold bounds what an idle
   * process keeps (a persistent worker keeps it between links). */
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 8 << 20);
  fputc(0, stdout); /* loaded: the compiler is linked in */
  writeString("");
  if (fflush(stdout) != 0) return 1;
  for (;;) {
    uint64_t nopts, nmods, n;
    if (!readUint(&nopts)) return feof(stdin) ? 0 : 1;
    if (nopts > 4096) return 1;
    char **opts = calloc(nopts + 1, sizeof *opts);
    if (opts == NULL) return 1;
    for (uint64_t i = 0; i < nopts; i++)
      if ((opts[i] = readBytes(&n)) == NULL) return 1;
    if (!readUint(&nmods)) return 1;
    char *name = NULL, *src = NULL;
    uint64_t srcLen = 0;
    for (uint64_t i = 0; i < nmods; i++) {
      free(name);
      free(src);
      if ((name = readBytes(&n)) == NULL || (src = readBytes(&srcLen)) == NULL) return 1;
    }
    if (nmods != 1) {
      reply(replyError, NULL, 0, "", 0, "the PTX compiler takes one module");
    } else {
      compile((const char *const *)opts, (int)nopts, src, srcLen);
    }
    for (uint64_t i = 0; i < nopts; i++) free(opts[i]);
    free(opts);
    free(name);
    free(src);
    if (fflush(stdout) != 0) return 1;
  }
}
