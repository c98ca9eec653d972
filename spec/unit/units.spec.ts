import test from 'ava';
import { formatDuration, parseSize } from '../../lib/shared/units.js';
import { UsageError } from '../../lib/shared/errors.js';

test('human sizes', (t) => {
  t.is(parseSize('512M', '--memory'), 512 * 2 ** 20);
  t.is(parseSize('4G', '--memory'), 4 * 2 ** 30);
  t.is(parseSize('1.5g', '--memory'), 1.5 * 2 ** 30);
  t.is(parseSize('300MB', '--memory'), 300 * 2 ** 20);
  t.is(parseSize('2GiB', '--memory'), 2 * 2 ** 30);
  t.is(parseSize('64k', '--memory'), 65536);
  t.is(parseSize('1000', '--memory'), 1000);
});

test('bad sizes name the flag', (t) => {
  for (const text of ['12Q', '', 'G', '-1G', '0', 'lots']) {
    const error = t.throws(() => parseSize(text, '--disk'), { instanceOf: UsageError });
    t.regex(error!.message, /^--disk /);
  }
});

test('durations round without a 60th second', (t) => {
  t.is(formatDuration(3.25), '3.3s');
  t.is(formatDuration(59.7), '1m00s');
  t.is(formatDuration(86_399), '23h59m');
  t.is(formatDuration(2 * 86_400 + 7 * 3600 + 1200), '2d07h');
  t.is(formatDuration(179.6), '3m00s');
  t.is(formatDuration(3725), '1h02m');
});
