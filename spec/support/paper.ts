/** The paper's published numbers, from fixtures/paper-tables.json (a copy of shared/reference). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fixturesDir } from './paths.js';

export interface PaperTables {
  validBorderStateClasses: { byHeight: Record<string, { y0: number; ymax: number }> };
  legalSquare: { values: Record<string, string> };
  legalAlmostSquare: { values: Record<string, string> };
  legal1xn: { values: number[] };
  legal2xn: { values: number[] };
  asymptotic: Record<'A' | 'B' | 'L', string>;
}

export const paperTablesPath = path.join(fixturesDir, 'paper-tables.json');
export const paper: PaperTables = JSON.parse(readFileSync(paperTablesPath, 'utf8'));
