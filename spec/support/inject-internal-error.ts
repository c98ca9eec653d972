/**
 * Preloaded (node --import) into a command under test: the free-memory query, which a count makes
 * for its default budget, fails as no input could make it fail, so the command meets an error it
 * does not expect.
 */
import os from 'node:os';

os.freemem = () => {
  throw new Error('injected failure');
};
