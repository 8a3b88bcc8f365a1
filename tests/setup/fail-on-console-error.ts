import { afterEach, beforeEach, vi } from 'vitest'

// A test that makes the code under test log an error fails: errors are never
// an acceptable side effect to ignore (epic-stack's rule).
let errors: unknown[][] = []
beforeEach(() => {
	errors = []
	vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
		errors.push(args)
	})
})
afterEach(() => {
	vi.restoreAllMocks()
	if (errors.length > 0) {
		throw new Error(`console.error was called:\n${errors.map((a) => a.map(String).join(' ')).join('\n')}`)
	}
})
