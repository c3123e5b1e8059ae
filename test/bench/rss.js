// Preloaded into a measured process (`node --require`): writes its peak resident set size to BENCH_RSS_FILE.
'use strict';
const fs = require('node:fs');
process.on('exit', () => {
  if (process.env.BENCH_RSS_FILE) fs.writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS));
});
