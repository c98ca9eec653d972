// sort-stream has no types of its own: a through stream that collects every item and emits them sorted.
declare module 'sort-stream' {
  import type { Duplex } from 'node:stream';
  export default function sort<T>(compare: (a: T, b: T) => number): Duplex;
}
