/*
 * Asks Linux to back a buffer with transparent huge pages (2 MiB), for the state tables and
 * in-memory runs that gocount reads and writes at random: with 4 KiB pages each access to a page
 * the TLB does not hold walks the page tables. Where the system's setting is `madvise` (that of
 * many distributions) only memory a process marks with madvise(MADV_HUGEPAGE) gets them, and
 * neither Node nor WebAssembly can mark it. `npm run build` compiles this into
 * dist/lib/shared/huge-pages.node with the system's C compiler and Node's own headers, and
 * lib/shared/huge-pages.ts loads it where it was built.
 *
 *   advise(Uint8Array) -> 0, or the errno madvise returned
 */

#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>
#include <node_api.h>

static napi_value advise(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value arg, result, buffer;
  napi_typedarray_type type;
  size_t length, offset;
  void *data;
  int error = EINVAL;
  napi_get_cb_info(env, info, &argc, &arg, NULL, NULL);
  if (argc == 1 && napi_get_typedarray_info(env, arg, &type, &length, &data, &buffer, &offset) == napi_ok &&
      type == napi_uint8_array) {
    // The whole pages inside the bytes: the kernel marks page ranges, and the pages at either
    // end may hold another allocation's bytes.
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t start = ((uintptr_t)data + page - 1) & ~(page - 1);
    uintptr_t end = ((uintptr_t)data + length) & ~(page - 1);
    error = end <= start ? 0 : madvise((void *)start, end - start, MADV_HUGEPAGE) == 0 ? 0 : errno;
  }
  napi_create_int32(env, error, &result);
  return result;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "advise", NAPI_AUTO_LENGTH, advise, NULL, &fn);
  napi_set_named_property(env, exports, "advise", fn);
  return exports;
}
