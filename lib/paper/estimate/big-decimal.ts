/**
 * Positive real numbers to a fixed number of significant decimal digits, as digits · 10^exponent
 * with BigInt digits: enough to raise the asymptotic constants to the 10^4-th power and still
 * print the estimate of L(99,99) to many digits. Only for the estimate, never for counting.
 */

export const PRECISION = 60;
const SCALE = 10n ** BigInt(PRECISION);

export interface BigDecimal {
  /** PRECISION significant digits (or 0). */
  readonly digits: bigint;
  readonly exponent: number;
}

function normalize(digits: bigint, exponent: number): BigDecimal {
  if (digits === 0n) return { digits, exponent: 0 };
  const length = digits.toString().length;
  const shift = length - PRECISION;
  if (shift > 0) return { digits: digits / 10n ** BigInt(shift), exponent: exponent + shift };
  return { digits: digits * 10n ** BigInt(-shift), exponent: exponent + shift };
}

export const fromBigInt = (x: bigint): BigDecimal => normalize(x, 0);

export const multiply = (a: BigDecimal, b: BigDecimal): BigDecimal => normalize(a.digits * b.digits, a.exponent + b.exponent);

export const divide = (a: BigDecimal, b: BigDecimal): BigDecimal =>
  normalize((a.digits * SCALE) / b.digits, a.exponent - b.exponent - PRECISION);

export function power(base: BigDecimal, k: number): BigDecimal {
  let result = fromBigInt(1n);
  let square = base;
  for (let e = k; e > 0; e = Math.floor(e / 2)) {
    if (e % 2 === 1) result = multiply(result, square);
    square = multiply(square, square);
  }
  return result;
}

/** The decimal exponent of the leading digit: x = d.ddd · 10^this. */
export const leadingExponent = (x: BigDecimal): number => x.exponent + PRECISION - 1;

/** "2.0816819938198e170": `significant` digits, rounded. */
export function toScientific(x: BigDecimal, significant: number): string {
  const cut = 10n ** BigInt(PRECISION - significant);
  let digits = (x.digits + cut / 2n) / cut;
  let exponent = leadingExponent(x);
  if (digits.toString().length > significant) {
    digits /= 10n;
    exponent++;
  }
  const text = digits.toString();
  return `${text[0]}${significant > 1 ? `.${text.slice(1)}` : ''}e${exponent}`;
}

/** x as a plain decimal with `places` digits after the point (for values of modest size). */
export function toFixed(x: BigDecimal, places: number): string {
  const scaled =
    x.exponent + places >= 0 ? x.digits * 10n ** BigInt(x.exponent + places) : x.digits / 10n ** BigInt(-(x.exponent + places));
  const text = scaled.toString().padStart(places + 1, '0');
  return `${text.slice(0, text.length - places)}.${text.slice(text.length - places)}`;
}

/** a / b − 1 as a number: the relative error of a against b. */
export function relativeDifference(a: BigDecimal, b: BigDecimal): number {
  const q = divide(a, b);
  const one = 10n ** BigInt(-q.exponent);
  return Number(q.digits - one) * 10 ** q.exponent;
}
