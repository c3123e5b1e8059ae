// Preloaded into a measured Node process (`node --require`): writes its peak resident set size and the CPU time it
// used to BENCH_RSS_FILE, so the bench can compare CPU time too (steadier than wall time on a busy machine).
'use strict';
const fs = require('node:fs');
process.on('exit', () => {
  if (!process.env.BENCH_RSS_FILE) return;
  const u = process.resourceUsage();
  fs.writeFileSync(process.env.BENCH_RSS_FILE, JSON.stringify({ maxRssKb: u.maxRSS, cpuSeconds: (u.userCPUTime + u.systemCPUTime) / 1e6 }));
});
