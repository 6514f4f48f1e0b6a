export function prng(seed: number): () => number;
export function generateProfile(random: () => number, index: number): string;
export function generateTree(dir: string, count: number, seed?: number): string;
