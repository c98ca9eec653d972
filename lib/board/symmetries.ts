/**
 * The rotations and reflections of an m×n board as permutations of its points (point p is row
 * ⌊p / n⌋, column p mod n): 4 for a rectangle, 8 for a square, the identity first. On a board of
 * one row or column some of them coincide.
 */
export function boardSymmetries(m: number, n: number): number[][] {
  const maps: ((y: number, x: number) => [number, number])[] = [
    (y, x) => [y, x],
    (y, x) => [m - 1 - y, x],
    (y, x) => [y, n - 1 - x],
    (y, x) => [m - 1 - y, n - 1 - x],
  ];
  if (m === n)
    maps.push(
      (y, x) => [x, y],
      (y, x) => [n - 1 - x, y],
      (y, x) => [x, m - 1 - y],
      (y, x) => [n - 1 - x, m - 1 - y],
    );
  return maps.map((f) =>
    Array.from({ length: m * n }, (_, p) => {
      const [y, x] = f(Math.floor(p / n), p % n);
      return y * n + x;
    }),
  );
}
