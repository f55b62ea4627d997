import { it } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, queryTerms } from './text-analyzer.ts';

it('lowercases, drops stop words and possessives, stems', () => {
  assert.deepEqual(analyze("Caroline's support groups were RELAXING, weren't they?"), [
    'carolin',
    'support',
    'group',
    'relax',
  ]);
});

it('keeps numbers and non-ASCII words', () => {
  assert.deepEqual(analyze('Paris 2023 café'), ['pari', '2023', 'café']);
});

it('query terms are distinct', () => {
  assert.deepEqual(queryTerms('paint paints painting'), ['paint']);
});
