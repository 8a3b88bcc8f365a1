import { defineConfig } from 'vitest/config'

/** `npm run test:contract`: the Supabase adapter against a real project (tests/supabase/contract.supabase.ts). */
export default defineConfig({
	test: {
		include: ['tests/supabase/contract.supabase.ts'],
		environment: 'node',
		setupFiles: ['./tests/setup/fail-on-console-error.ts'],
		testTimeout: 60_000,
		hookTimeout: 60_000,
	},
})
