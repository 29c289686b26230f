// Loaded into every test file's process by scripts/test.mjs (--import): when the process ends, appends a line
// "file<TAB>wall seconds<TAB>CPU seconds" to QUIRE_TEST_TIMES. The CPU time is the process's own and that of the
// child processes it waited for (bin/quire, git, Chromium and theirs), from /proc on Linux.
import { appendFileSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { isMainThread } from 'node:worker_threads';

const log = process.env.QUIRE_TEST_TIMES;
const file = process.argv[1];
// The test file's own process only: not its worker threads, nor the runner, nor a script a test starts.
if (log && isMainThread && file?.endsWith('.test.ts')) {
  process.on('exit', () => {
    const own = process.resourceUsage();
    let children = 0;
    try {
      // Fields 16 and 17 of /proc/self/stat (cutime, cstime), counted after the command name's closing parenthesis.
      const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
      children = (Number(fields[13]) + Number(fields[14])) / 100;
    } catch {
      // Not Linux: the process's own time only.
    }
    const cpu = (own.userCPUTime + own.systemCPUTime) / 1e6 + children;
    appendFileSync(log, `${relative(process.cwd(), file)}\t${process.uptime().toFixed(2)}\t${cpu.toFixed(2)}\n`);
  });
}
