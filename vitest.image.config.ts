import { defineConfig } from 'vitest/config'

/**
 * `npm run test:image`: the container's runtime stage assembled from the
 * build (tests/image/runtime.image.ts). Needs `npm run build` first, so
 * `npm test` runs it after the build rather than with the unit tests.
 */
export default defineConfig({
	test: {
		include: ['tests/image/*.image.ts'],
		environment: 'node',
		setupFiles: ['./tests/setup/fail-on-console-error.ts'],
		// Migrating PGlite from scratch takes seconds on an idle machine, minutes on a loaded one.
		testTimeout: 300_000,
		hookTimeout: 120_000,
	},
})
