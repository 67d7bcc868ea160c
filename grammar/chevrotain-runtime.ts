// Chevrotain's values from its own single-file ESM build (lib/chevrotain.mjs, same version): the package
// entry imports lodash-es module by module, ~27 MB of resident memory at start for nothing we use.

import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

type Chevrotain = typeof import('chevrotain');

// The package's "exports" hide lib/chevrotain.mjs, so it is found beside the entry `require` resolves.
const entry = createRequire(import.meta.url).resolve('chevrotain');
const api = (await import(pathToFileURL(join(dirname(entry), '..', 'chevrotain.mjs')).href)) as Chevrotain;

export const { CstParser, EOF, LLkLookaheadStrategy, Lexer, createToken, createTokenInstance } = api;
export type CstParser = import('chevrotain').CstParser;
export type Lexer = import('chevrotain').Lexer;
