// The closing line of .ci/run: `N passed, N failed, N skipped` from vitest's JSON report,
// also when the run failed before vitest wrote one (then the build or type-check failed).
import { readFileSync } from 'node:fs';

const path = process.argv[2];
let report;
try {
  report = JSON.parse(readFileSync(path, 'utf8'));
} catch {
  console.log('0 passed, 0 failed, 0 skipped (no test report: the build, type-check or format check failed before the tests ran)');
  process.exit(0);
}
const failedSuites = (report.testResults ?? []).filter((r) => r.status === 'failed' && (r.assertionResults ?? []).length === 0).length;
const suites = failedSuites ? ` (${failedSuites} test file(s) failed to load)` : '';
console.log(
  `${report.numPassedTests} passed, ${report.numFailedTests + failedSuites} failed, ${report.numPendingTests + report.numTodoTests} skipped${suites}`,
);
