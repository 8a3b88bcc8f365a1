/**
 * One line for the server log about an error, without what it may carry
 * about people. A database error keeps its SQLSTATE, severity and message
 * but loses the query's parameters, its `detail` (which quotes the values of
 * a violated key) and its `where`/`internalQuery`; every message has e-mail
 * addresses and IP addresses masked, since Postgres quotes bad input values
 * in messages too. The JavaScript stack frames stay: they name code, not people.
 */
const EMAIL = /[^\s@"'<>(),;:]+@[^\s@"'<>(),;:]+\.[^\s@"'<>(),;:]+/g
const IPV4 = /\b\d{1,3}(?:\.\d{1,3}){3}\b/g
const IPV6 = /::ffff:[0-9.]+|\b(?:[0-9a-f]{1,4}:){7}[0-9a-f]{1,4}\b|\b(?:[0-9a-f]{1,4}:){1,6}:(?:[0-9a-f]{1,4}(?::[0-9a-f]{1,4})*)?|::1\b/gi

export function redact(text: string): string {
	return text.replace(EMAIL, '<address>').replace(IPV6, '<ip>').replace(IPV4, '<ip>')
}

function isDatabaseError(error: Error): error is Error & { code: string; severity?: string } {
	const code = (error as { code?: unknown }).code
	return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)
}

export function describeError(error: unknown): string {
	if (!(error instanceof Error)) return redact(`non-Error thrown: ${typeof error}`)
	const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line)).slice(0, 12)
	const head = isDatabaseError(error)
		? `${error.name} (database ${error.code}${error.severity ? ` ${error.severity}` : ''}): ${redact(error.message)}`
		: `${error.name}: ${redact(error.message)}`
	const cause = error.cause instanceof Error ? `\n  caused by ${describeError(error.cause).split('\n')[0]}` : ''
	return [head, ...frames.map(redact)].join('\n') + cause
}
