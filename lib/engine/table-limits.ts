/**
 * The bounds of a state table's shards, in a module of their own: the command's help and the count's
 * options check --table-memory against them without loading the table and its WebAssembly driver.
 */

/**
 * The most bytes of records one shard's memory holds, and the default: the rest of its 4 GiB is for
 * its fixed arrays and the per-bucket scratch (a bucket's combining index and sort keys).
 */
export const MAX_SHARD_BYTES = 3.5 * 2 ** 30;
/** The least: tests use tiny shards to split small tables into many. */
export const MIN_SHARD_BYTES = 64 * 2 ** 10;
