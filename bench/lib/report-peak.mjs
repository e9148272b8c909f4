// Preloaded into a `replsim` process by the benchmark (`node --import ./bench/lib/report-peak.mjs
// bin/replsim.js …`): as the process exits it writes its peak resident set on standard error, on a
// line of its own, so that the benchmark measures the very process a user starts.
process.on('exit', () => {
  process.stderr.write(`\nreplsim-peak-rss ${process.resourceUsage().maxRSS * 1024}\n`);
});
