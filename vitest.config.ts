import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker per core minus one: one on a 2-core machine. Many files wait
    // on child processes, sockets and PGlite start-up, so two workers shorten the run (377 s -> 323 s here).
    maxWorkers: 2,
  },
});
