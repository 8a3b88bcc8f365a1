import { defineConfig } from 'vitest/config'

export default defineConfig({
	resolve: {
		// the package.json "imports" map (#app/*) is honoured by Vite natively
	},
	test: {
		include: ['app/**/*.test.ts', 'app/**/*.test.tsx', 'tests/**/*.test.ts', 'locales/**/*.test.ts'],
		exclude: ['tests/e2e/**', 'node_modules/**'],
		environment: 'node',
		setupFiles: ['./tests/setup/fail-on-console-error.ts'],
		testTimeout: 30_000,
		hookTimeout: 60_000,
	},
})
