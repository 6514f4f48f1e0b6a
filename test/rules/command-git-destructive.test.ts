import rule from '../../rules/command-git-destructive/index.js';
import { ruleTester } from '../helpers/rule-tester.js';

ruleTester(rule, {
  accept: [
    'git push --force-with-lease',
    'git reset --soft HEAD~1',
    'git clean -n',
    'git commit -m "reset --hard"',
    'git push origin main',
    'git push origin +',
    'git commit -m "+main"',
    'git checkout -b feature',
    'git checkout main -- ./src/a.ts',
    'git restore --staged .',
    'git checkout -p .',
    'git branch -d merged-feature',
    'git stash pop',
    'git push -n origin main',
  ],
  reject: [
    { code: 'git push --force origin main', errors: [{ messageId: 'pushForce', severity: 'warning', line: 1, column: 1, endColumn: 29 }] },
    { code: 'git push -f', errors: [{ messageId: 'pushForce', line: 1, column: 1 }] },
    {
      name: 'a + refspec forces that ref',
      code: 'git push origin +main',
      errors: [{ messageId: 'pushForceRefspec', line: 1, column: 1, endColumn: 22 }],
    },
    { code: 'git push origin main +HEAD:refs/heads/release', errors: [{ messageId: 'pushForceRefspec', line: 1, column: 1 }] },
    { code: 'git -C repo reset --hard HEAD', errors: [{ messageId: 'resetHard', line: 1, column: 1 }] },
    { code: 'git clean -fdx', errors: [{ messageId: 'cleanForce', line: 1, column: 1 }] },
    // --mirror forces the push as --force does.
    { code: 'git push --mirror origin', errors: [{ messageId: 'pushForce', line: 1, column: 1 }] },
    // Checking out or restoring the whole tree throws away uncommitted changes as reset --hard does.
    { code: 'git checkout -- .', errors: [{ messageId: 'discardChanges', line: 1, column: 1, endColumn: 18 }] },
    { code: 'git checkout HEAD .', errors: [{ messageId: 'discardChanges', line: 1, column: 1 }] },
    { code: 'git restore .', errors: [{ messageId: 'discardChanges', line: 1, column: 1 }] },
    { code: 'git checkout -f main', errors: [{ messageId: 'discardChanges', line: 1, column: 1 }] },
    // Deleting a branch or stash throws away commits or changes.
    { code: 'git branch -D feature', errors: [{ messageId: 'deleteWork', line: 1, column: 1, endColumn: 22 }] },
    { code: 'git push origin --delete main', errors: [{ messageId: 'deleteWork', line: 1, column: 1 }] },
    { code: 'git push origin :feature', errors: [{ messageId: 'deleteWork', line: 1, column: 1 }] },
    { code: 'git stash clear', errors: [{ messageId: 'deleteWork', line: 1, column: 1 }] },
    { code: 'git stash drop', errors: [{ messageId: 'deleteWork', line: 1, column: 1 }] },
  ],
});
