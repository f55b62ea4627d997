import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { readPairs } from './lib/code-pairs.ts';
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

  it("leaves out the evaluation corpus's functions and their near copies, and keeps the rest", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-pairs-'));
    try {
      const gold =
        'def is_iterable(obj):\n    """Check whether an object is iterable."""\n    return hasattr(obj, "__iter__")';
      fs.writeFileSync(path.join(dir, 'corpus.jsonl'), JSON.stringify({ _id: '0', text: gold }) + '\n');
      const src = path.join(dir, 'lib');
      fs.mkdirSync(src);
      fs.writeFileSync(
        path.join(src, 'a.py'),
        [
          // The corpus's function itself, indented otherwise: left out.
          'def is_iterable(obj):',
          '  """Check whether an object is iterable."""',
          '  return hasattr(obj, "__iter__")',
          '',
          // Another version of it with the same summary: a near copy.
          'def is_iterable(thing):',
          '    """Check whether an object is iterable!"""',
          '    try:',
          '        iter(thing)',
          '    except TypeError:',
          '        return False',
          '    return True',
          '',
          // Another summary over mostly the same code words: a near copy too.
          'def is_iterable(obj):',
          '    """True for iterables."""',
          '    return hasattr(obj, "__iter__")',
          '',
          // The same name, other code and summary: kept.
          'def is_iterable(path):',
          '    """Whether a path names a directory listing."""',
          '    return os.path.isdir(path) and bool(os.listdir(path))',
          '',
          'def copy_file(src, dst):',
          '    """Copy a file to a new place."""',
          '    shutil.copyfile(src, dst)',
          '',
        ].join('\n'),
      );
      const pairs = readPairs([src], path.join(dir, 'corpus.jsonl'), () => {});
      assert.deepEqual(
        pairs.map((p) => p.query.join(' ')),
        ['whether path name directory listing', 'copy file new place'],
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
