import { AsyncLocalStorage } from 'node:async_hooks'
import { createHash, randomUUID } from 'node:crypto'
import { format } from 'node:util'
import pino, { type Logger } from 'pino'

/**
 * The server's logs (docs/decisions/049-logs.md): pino, JSON lines in
 * production (time, level, message, the request's id), readable lines in
 * development. Everything the server prints goes through it, `console.*`
 * included (routeConsole), so a line from deep in a module carries the id of
 * the request it belongs to.
 */
export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent'

/** The request a line belongs to (set by requestLog for the request's whole run). */
export const requestScope = new AsyncLocalStorage<{ requestId: string }>()

export function createLogger({ level, pretty, destination }: { level: LogLevel; pretty: boolean; destination?: pino.DestinationStream }): Logger {
	const options: pino.LoggerOptions = {
		level,
		timestamp: pino.stdTimeFunctions.isoTime,
		formatters: { level: (label) => ({ level: label }) },
		mixin: () => {
			const scope = requestScope.getStore()
			return scope ? { requestId: scope.requestId } : {}
		},
		serializers: { err: pino.stdSerializers.err },
		...(pretty && !destination ? { transport: { target: 'pino-pretty', options: { ignore: 'pid,hostname' } } } : {}),
	}
	return destination ? pino(options, destination) : pino(options)
}

/** An id a client or a proxy sent, if it is one we may echo and log: 8 to 128 of letters, digits, `.`, `_`, `:`, `-`. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/

export function requestIdOf(header: string | string[] | undefined): string {
	return typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID()
}

/** A user id as the logs show it: the same user, the same 16 hex digits; not the id. */
export function hashUser(userId: string, secret: string): string {
	return createHash('sha256').update(`${secret}:${userId}`).digest('hex').slice(0, 16)
}

/**
 * The same error again and again (the database gone for a second: every
 * request fails alike) is written five times a minute, then once with how
 * many were left out.
 */
export function repeatLimiter({ perMinute = 5, now = Date.now }: { perMinute?: number; now?: () => number } = {}) {
	const seen = new Map<string, { since: number; count: number }>()
	return (key: string): { write: boolean; skipped: number } => {
		const t = now()
		const entry = seen.get(key)
		if (!entry || t - entry.since >= 60_000) {
			seen.set(key, { since: t, count: 1 })
			if (seen.size > 1000) seen.delete(seen.keys().next().value!)
			return { write: true, skipped: entry && entry.count > perMinute ? entry.count - perMinute : 0 }
		}
		entry.count++
		return { write: entry.count <= perMinute, skipped: 0 }
	}
}

/** `console.*` written through the logger: one JSON line each, an error serialised once, repeats limited. */
export function routeConsole(logger: Logger): void {
	const limit = repeatLimiter()
	const write = (level: 'info' | 'warn' | 'error', args: unknown[]) => {
		const err = args.find((a): a is Error => a instanceof Error)
		const message = format(...args.filter((a) => a !== err)) || err?.message || ''
		if (level === 'info') return logger.info(message)
		const { write, skipped } = limit(`${level}:${message}:${err?.message ?? ''}`)
		if (!write) return
		logger[level](skipped > 0 ? { err, repeated: skipped } : { err }, skipped > 0 ? `${message} (and ${skipped} more like it in the last minute)` : message)
	}
	console.log = console.info = (...args: unknown[]) => write('info', args)
	console.warn = (...args: unknown[]) => write('warn', args)
	console.error = (...args: unknown[]) => write('error', args)
}
