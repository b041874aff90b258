import assert from 'node:assert/strict';
import { describe, it } from '../../testing/node-test.ts';
import { memoized } from './memo.ts';

describe('memoized', () => {
  it('makes each key once and answers the same value after', () => {
    const made: string[] = [];
    const lengthOf = memoized((key) => {
      made.push(key);
      return { length: key.length };
    });
    const first = lengthOf('Europe/Berlin');
    assert.equal(lengthOf('Europe/Berlin'), first);
    assert.deepEqual(lengthOf('UTC'), { length: 3 });
    assert.deepEqual(made, ['Europe/Berlin', 'UTC']);
  });
});
