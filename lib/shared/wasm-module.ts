/**
 * Loading the WebAssembly modules that `npm run build` compiles from lib/wasm/ (AssemblyScript).
 * Each module is compiled once per thread and instantiated once per user, with its own memory.
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

/** A new instance of dist/lib/wasm/<name>.wasm; `what` names it in the error its abort() raises. */
export function instantiate<Exports>(name: string, what: string): Exports {
  let module = compiled.get(name);
  if (!module) {
    module = new WebAssembly.Module(readFileSync(new URL(`../wasm/${name}.wasm`, import.meta.url)));
    compiled.set(name, module);
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
