export interface Measured {
  ms: number;
  rssKiB?: number;
  status?: number | null;
}
export interface Stats {
  median: number;
  min: number;
  max: number;
  n: number;
}
export function median(xs: readonly number[]): number;
export function stats(xs: readonly number[]): Stats;
export function paired(
  a: () => Promise<Measured> | Measured,
  b: () => Promise<Measured> | Measured,
  options: { n: number; warmup?: number; check?: (a: Measured, b: Measured) => void },
): Promise<{ a: Stats; b: Stats; ratio: Stats; rssKiB: { a: number; b: number } }>;
