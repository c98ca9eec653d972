/**
 * λ_M and a_M of Table 2: L(M,n) ~ a_M · λ_M^n, where λ_M is the largest root of the recurrence's
 * characteristic polynomial. Both are computed in fixed point with BigInt (values scaled by 10^D),
 * far past the 20 digits the paper gives: Newton's method for the root, starting from the ratio of
 * two late terms, and the partial-fraction residue of the generating function for a_M.
 */

export interface DominantRoot {
  /** Decimal strings with `digits` digits after the point. */
  readonly lambda: string;
  /** λ^(1/M), the per-point growth the paper tabulates. */
  readonly lambdaRoot: string;
  readonly a: string;
}

/**
 * `coefficients`: s[n] = Σ c[i] s[n−1−i]; `numerator`: N's coefficients of t^1 … t^d (see
 * Recurrence); `guess`: λ roughly, to start Newton's method near the largest root.
 * `digits` decimal digits are returned; the working precision is higher.
 */
export function dominantRoot(
  coefficients: readonly bigint[],
  numerator: readonly bigint[],
  guess: number,
  height: number,
  digits = 30,
): DominantRoot {
  const d = coefficients.length;
  const widest = Math.max(...[...coefficients, ...numerator].map((c) => abs(c).toString().length));
  const guardDigits = digits + 20 + widest;
  const S = 10n ** BigInt(guardDigits);
  // P(x) = x^d − Σ c[i] x^(d−1−i), highest power first.
  const p = [1n, ...coefficients.map((c) => -c)];
  const evaluate = (poly: readonly bigint[], x: bigint): bigint => poly.reduce((acc, coefficient) => (acc * x) / S + coefficient * S, 0n);
  const derivative = p.slice(0, -1).map((c, i) => c * BigInt(d - i));
  let x = (BigInt(Math.round(guess * 1e12)) * S) / 10n ** 12n;
  for (let iteration = 0; iteration < 200; iteration++) {
    const step = (evaluate(p, x) * S) / evaluate(derivative, x);
    x -= step;
    if (abs(step) <= 1n) break;
  }
  const lambda = x;
  // F(t) = Σ s[n] t^n = N(t)/Q(t), Q(t) = 1 − Σ c[i] t^(i+1), N = Q·F (a polynomial of degree ≤ d).
  // Near t = 1/λ, F ≈ a / (1 − λt) with a = −λ · N(1/λ) / Q'(1/λ).
  const t = (S * S) / lambda; // 1/λ
  const ascending = (poly: readonly bigint[]): bigint => evaluate([...poly].reverse(), t);
  const qPrime = coefficients.map((c, i) => -c * BigInt(i + 1)); // Q'(t) = −Σ (i+1) c[i] t^i, lowest first
  const a = -((lambda * ((ascending([0n, ...numerator]) * S) / ascending(qPrime))) / S);
  return {
    lambda: decimal(lambda, guardDigits, digits),
    lambdaRoot: decimal(nthRoot(lambda, height, S), guardDigits, digits),
    a: decimal(a, guardDigits, digits),
  };
}

/** The M-th root of x (scaled by S), by Newton's method in fixed point. */
function nthRoot(x: bigint, m: number, S: bigint): bigint {
  if (m === 1) return x;
  const M = BigInt(m);
  let y = BigInt(Math.floor(Number((x * 1000n) / S) ** (1 / m) * 1000)) * (S / 1000n);
  for (let iteration = 0; iteration < 200; iteration++) {
    let power = S; // y^(m−1)
    for (let i = 1; i < m; i++) power = (power * y) / S;
    const next = ((M - 1n) * y + (x * S) / power) / M;
    if (abs(next - y) <= 1n) return next;
    y = next;
  }
  return y;
}

function decimal(value: bigint, scaleDigits: number, digits: number): string {
  const negative = value < 0n;
  const text = abs(value)
    .toString()
    .padStart(scaleDigits + 1, '0');
  const whole = text.slice(0, text.length - scaleDigits);
  const fraction = text.slice(text.length - scaleDigits, text.length - scaleDigits + digits);
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

const abs = (x: bigint): bigint => (x < 0n ? -x : x);
