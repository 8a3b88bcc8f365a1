import { defineConfig } from 'vitest/config'

/**
 * `npm run test:unit`: two projects in one run.
 *  - `unit`: unit, component (happy-dom) and SQL tests; SQL suites on PGlite
 *    and, with TEST_DATABASE_URL, on that Postgres server (tests/support/databases.ts).
 *  - `http`: request-level tests against the production build over HTTP
 *    (tests/http, servers started by tests/http/global-setup.ts): `npm run build` first.
 */
export default defineConfig({
	test: {
		exclude: ['tests/e2e/**', 'node_modules/**'],
		environment: 'node',
		setupFiles: ['./tests/setup/fail-on-console-error.ts'],
		testTimeout: 30_000,
		hookTimeout: 60_000,
		// Both cores: a SQL test waits on its database (a Postgres process, or PGlite's file
		// system) about a third of its time, and Vitest's default leaves one core to the rest.
		maxWorkers: 2,
		projects: [
			{
				extends: true,
				test: {
					name: 'unit',
					// One migrated PGlite data directory for the run, which each file's PGlite starts from.
					globalSetup: ['./tests/setup/pglite-snapshot.ts'],
					include: [
						'app/**/*.test.ts',
						'app/**/*.test.tsx',
						'tests/**/*.test.ts',
						'tests/**/*.test.tsx',
						'locales/**/*.test.ts',
						// The Supabase contract suite needs a real project: part of the run only when one is configured.
						...(process.env.SUPABASE_TEST_URL ? ['tests/supabase/contract.supabase.ts'] : []),
					],
					exclude: ['tests/e2e/**', 'tests/http/**', 'node_modules/**'],
				},
			},
			{
				extends: true,
				test: {
					name: 'http',
					include: ['tests/http/**/*.test.ts'],
					globalSetup: ['./tests/http/global-setup.ts'],
				},
			},
		],
	},
})
