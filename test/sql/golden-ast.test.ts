// Golden ASTs: each test/golden/ast/*.sql must parse to the printAst text in its .ast.txt
// (regenerate with UPDATE_GOLDEN=1 and read the diff).

import { describe, expect, it } from 'vitest';
import { parseSql } from '../../src/sql/parse.ts';
import { printAst } from '../../src/sql/print.ts';
import { expectedFor } from '../golden/golden-files.ts';
import { astGoldenInputs } from './helpers.ts';

describe('SQL → AST goldens', () => {
  const inputs = astGoldenInputs();
  it('has a corpus', () => expect(inputs.length).toBeGreaterThanOrEqual(15));
  for (const [file, text] of inputs) {
    it(file.split('/').pop()!, () => {
      const actual = parseSql(text).map(printAst).join('---\n');
      expect(actual).toBe(expectedFor(file.replace(/\.sql$/, '.ast.txt'), actual));
    });
  }
});
