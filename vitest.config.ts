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
    // Each file's fresh module graph (DuckDB, Fastify, the OIDC provider...) cost 165 s of the
    // default run's import time; a worker keeping its modules between files brings it to 32 s
    // (same 1,190 tests passing). Tests build their own apps and data folders, so no state is
    // shared through modules; the few that mock a module (vi.mock) still get their mock.
    isolate: false,
  },
});
