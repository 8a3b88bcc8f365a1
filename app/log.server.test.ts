import { Writable } from 'node:stream'
import { afterEach, expect, test } from 'vitest'
import { createLogger, hashUser, repeatLimiter, requestIdOf, requestScope, routeConsole } from './log.server'

const original = { log: console.log, info: console.info, warn: console.warn, error: console.error }
afterEach(() => Object.assign(console, original))

/** A logger writing JSON lines into an array. */
function capture() {
	const lines: Array<Record<string, unknown>> = []
	const destination = new Writable({
		write(chunk: Buffer, _encoding, done) {
			for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>)
			done()
		},
	})
	return { lines, logger: createLogger({ level: 'info', pretty: false, destination }) }
}

test('console.* becomes one JSON line each, with time, level, the request it belongs to, and an error serialised once', () => {
	const { lines, logger } = capture()
	routeConsole(logger)
	requestScope.run({ requestId: 'req-00000001' }, () => {
		console.log('boot line %d', 7)
		const error = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
		console.error('dare boost failed', error)
	})
	expect(lines).toHaveLength(2)
	expect(lines[0]).toMatchObject({ level: 'info', msg: 'boot line 7', requestId: 'req-00000001' })
	expect(typeof lines[0]!.time).toBe('string')
	expect(lines[1]).toMatchObject({ level: 'error', msg: 'dare boost failed', err: { type: 'Error', message: 'connect ECONNREFUSED', code: 'ECONNREFUSED' } })
	expect(String((lines[1]!.err as { stack: string }).stack)).toContain('connect ECONNREFUSED')
})

test('the same error again and again: five lines a minute, then one saying how many were left out', () => {
	let now = 0
	const limit = repeatLimiter({ now: () => now })
	const written = Array.from({ length: 1200 }, () => limit('error:pool gone').write).filter(Boolean)
	expect(written).toHaveLength(5)
	now = 60_000
	expect(limit('error:pool gone')).toEqual({ write: true, skipped: 1195 })
	expect(limit('error:another').write).toBe(true)
})

test("a request id is the client's when well-formed, else a new one; a user is a keyed hash", () => {
	expect(requestIdOf('lb-7f3a9c21')).toBe('lb-7f3a9c21')
	for (const bad of ['short', 'has space inside', 'x'.repeat(129), '<script>', undefined]) expect(requestIdOf(bad)).toMatch(/^[0-9a-f-]{36}$/)
	expect(hashUser('user-1', 'secret')).toBe(hashUser('user-1', 'secret'))
	expect(hashUser('user-1', 'secret')).not.toBe(hashUser('user-1', 'other'))
	expect(hashUser('user-1', 'secret')).toMatch(/^[0-9a-f]{16}$/)
})
