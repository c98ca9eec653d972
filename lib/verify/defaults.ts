/**
 * What `gocount inspect` and inspectRun show unless told, the first 10 records: in a module of its
 * own, so that the command's help names it without loading the checks.
 */
export const DEFAULT_SKIP = 0;
export const DEFAULT_LIMIT = 10;
