/** Human sizes and durations: "512M" in, "1.2 GiB" out. Binary units, as memory is sold. */

import { shown } from './arguments.js';
import { InvalidOptionError } from './errors.js';

const UNITS: Record<string, number> = { '': 1, K: 2 ** 10, M: 2 ** 20, G: 2 ** 30, T: 2 ** 40 };

/**
 * Parses "4G", "512M", "1.5G", "300MB", "2GiB", "1000000" (bytes), and, when `whole` is given,
 * "50%" of it. Throws an InvalidOptionError naming the option.
 */
export function parseSize(text: string, option: string, whole?: number): number {
  const percent = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(String(text));
  if (percent && whole !== undefined) {
    const bytes = Math.floor((whole * Number(percent[1])) / 100);
    if (!(bytes > 0)) throw new InvalidOptionError(option, text, 'not a positive size');
    return bytes;
  }
  const match = /^\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:i?B)?\s*$/i.exec(String(text));
  if (!match) {
    if (/^\s*-/.test(String(text))) throw new InvalidOptionError(option, text, 'not a positive size');
    const forms = whole === undefined ? 'like 512M or 4G' : 'like 512M or 4G, or a share of the memory, like 50%';
    throw new InvalidOptionError(option, text, `not a size (use a number with K, M, G or T, ${forms})`);
  }
  const bytes = Math.floor(Number(match[1]) * UNITS[match[2].toUpperCase()]);
  if (!(bytes > 0) || !Number.isSafeInteger(bytes)) throw new InvalidOptionError(option, text, 'not a positive size');
  return bytes;
}

/**
 * A size option of the library: bytes (a number or a bigint), or text parseSize reads ("4G", and
 * "50%" of `whole` when given).
 */
export function sizeOption(option: string, value: unknown, whole?: number): number {
  if (typeof value === 'string') return parseSize(value, option, whole);
  if (typeof value === 'bigint' && value > BigInt(Number.MAX_SAFE_INTEGER))
    throw new InvalidOptionError(option, shown(value), 'more bytes than a number holds exactly');
  const bytes = typeof value === 'bigint' ? Number(value) : value;
  if (typeof bytes === 'number' && Number.isSafeInteger(bytes) && bytes > 0) return bytes;
  throw new InvalidOptionError(option, shown(value), 'not a positive whole number of bytes');
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 && unit > 0 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

export function formatCount(n: number): string {
  if (n < 1e4) return String(Math.round(n));
  if (n < 1e6) return `${(n / 1e3).toFixed(1)}k`;
  if (n < 1e9) return `${(n / 1e6).toFixed(1)}M`;
  return `${(n / 1e9).toFixed(2)}G`;
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  if (seconds < 59.5) return `${seconds.toFixed(seconds < 10 ? 1 : 0)}s`;
  const whole = Math.round(seconds);
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) return `${minutes}m${String(whole % 60).padStart(2, '0')}s`;
  const hours = Math.round(whole / 3600);
  // Past a day, days and hours: 2d07h.
  if (minutes >= 24 * 60) return `${Math.floor(hours / 24)}d${String(hours % 24).padStart(2, '0')}h`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}
