/**
 * Preloaded (node --import) into a command under test: each module of dist/ that the command
 * loads is appended, as its path under dist/, to the file that GOCOUNT_TEST_LOADED names.
 */
import { register } from 'node:module';

// Loader hooks run in a thread of their own, from a module of their own: here, a data: URL.
const hooks = `
import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  const at = url.indexOf('/dist/');
  if (at >= 0) appendFileSync(process.env.GOCOUNT_TEST_LOADED, url.slice(at + 6) + '\\n');
  return next(url, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
