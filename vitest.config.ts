import { defineConfig } from 'vitest/config'

export default defineConfig({
	resolve: {
		// the package.json "imports" map (#app/*) is honoured by Vite natively
	},
	test: {
		include: [
			'app/**/*.test.ts',
			'app/**/*.test.tsx',
			'tests/**/*.test.ts',
			'locales/**/*.test.ts',
			// The Supabase contract suite needs a real project: part of the run only when one is configured.
			...(process.env.SUPABASE_TEST_URL ? ['tests/supabase/contract.supabase.ts'] : []),
		],
		exclude: ['tests/e2e/**', 'node_modules/**'],
		environment: 'node',
		setupFiles: ['./tests/setup/fail-on-console-error.ts'],
		testTimeout: 30_000,
		hookTimeout: 60_000,
	},
})
