/**
 * The most partitions, and the most workers of all partitions together (the owners of the states):
 * a step holds a split run file per thread and round and a done-marker per task, whatever the
 * owners, and each worker keeps a chunk buffer for every owner (docs/cluster.md). A module of their
 * own, so that the command's help names them without loading the driver.
 */
export const MAX_PARTITIONS = 4096;
export const MAX_PARTITIONED_WORKERS = 4096;
