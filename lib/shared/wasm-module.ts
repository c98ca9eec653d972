/**
 * Loading the WebAssembly modules that `npm run build` compiles from the AssemblyScript kernels
 * (lib/…/x.as.ts, beside x.ts, the TypeScript that drives it, into dist/lib/…/x.wasm). Each module is
 * compiled once per thread and instantiated once per user, with its own memory.
 */

import { readFileSync } from 'node:fs';

// The ES2022 lib has no WebAssembly types (they come with the DOM's): the little used here.
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: object };
};

export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

export const PAGE_BYTES = 65536;

/** The next multiple of 8 at or above a byte offset (offsets reach past 2^31: no bitwise operators). */
export const align8 = (bytes: number): number => Math.ceil(bytes / 8) * 8;

const compiled = new Map<string, object>();

/** A new instance of the module at `file` (x.wasm beside its driver); `what` names it in the error its abort() raises. */
export function instantiate<Exports>(file: URL, what: string): Exports {
  let module = compiled.get(file.href);
  if (!module) {
    module = new WebAssembly.Module(readFileSync(file));
    compiled.set(file.href, module);
  }
  const instance = new WebAssembly.Instance(module, {
    env: {
      abort: () => {
        throw new Error(`${what} aborted`);
      },
    },
  });
  return instance.exports as Exports;
}
