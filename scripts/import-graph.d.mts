// Types of import-graph.mjs for the test that holds its findings against a baseline.
export const ROOT: string;
export const LAYERS: Record<string, { src: string; layers: string[][] }>;
export interface GraphFindings {
  circles: Record<'web' | 'api' | 'contracts', string[][]>;
  folderCircles: string[][];
  upward: string[];
  unplaced: string[];
  deadExports: { dead: string[]; unneeded: string[] };
}
export function analyse(): GraphFindings;
