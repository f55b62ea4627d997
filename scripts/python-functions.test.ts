import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { documentedFunctions } from './lib/python-functions.ts';

describe('code words: training pairs from Python sources', () => {
  it('pairs the docstring summary with the code after it, and skips undocumented functions', () => {
    const source = [
      'import os',
      '',
      'def make_dirs(path, mode=0o755):',
      '    """Create a directory and its parents',
      '    when missing.',
      '',
      '    Longer description that is not the summary.',
      '    """',
      '    if not os.path.exists(path):',
      '        os.makedirs(path, mode)',
      '',
      'class A:',
      '    async def fetch(self, url,',
      '                    timeout=3):',
      "        '''Fetch a URL with a timeout.'''",
      '        return await get(url, timeout)',
      '',
      '    def bare(self):',
      '        return 1',
      'x = 2',
    ].join('\n');
    const fs = documentedFunctions(source);
    assert.deepEqual(
      fs.map((f) => [f.name, f.summary]),
      [
        ['make_dirs', 'Create a directory and its parents when missing.'],
        ['fetch', 'Fetch a URL with a timeout.'],
      ],
    );
    assert.equal(
      fs[0].code,
      'def make_dirs(path, mode=0o755):\n    if not os.path.exists(path):\n        os.makedirs(path, mode)\n',
    );
    assert.ok(!fs[0].code.includes('Longer description'));
    assert.equal(
      fs[1].code,
      '    async def fetch(self, url,\n                    timeout=3):\n        return await get(url, timeout)\n',
    );
    assert.ok(fs[0].whole.includes('"""Create a directory'));
  });
});
