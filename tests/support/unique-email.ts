let counter = 0

/** An address no other test (nor an earlier run against the same server) uses. */
export function uniqueEmail(prefix: string) {
	counter += 1
	return `${prefix}-${Date.now().toString(36)}-${process.pid}-${counter}@example.test`
}
